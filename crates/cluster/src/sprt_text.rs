//! How an SPRT's standing reads: the same words on the live line of
//! `ajaxlab campaign run`, the status page and `ajaxlab campaign list`.

use crate::coordinator::CampaignState;

/// The state of an SPRT for people: its verdict once a bound is crossed;
/// otherwise whether it still runs or ended without one (at the game cap,
/// or stopped by an operator).
///
/// `verdict` is the coordinator's (empty while no bound is crossed).
pub fn sprt_state(verdict: &str, campaign_state: CampaignState) -> &str {
    match (verdict, campaign_state) {
        ("", CampaignState::Finished) => "ended at the game cap, no verdict",
        ("", CampaignState::Stopped) => "stopped, no verdict",
        ("", _) => "no bound crossed yet",
        (verdict, _) => verdict,
    }
}

/// The LLR with the coordinator's bounds, labelled: they carry Fishtest's
/// correction for the overshoot of a test updated a unit at a time, so they
/// lie inside Wald's bounds (`ln(β/(1−α))`, `ln((1−β)/α)`) that `ajaxlab
/// stats` and `ajaxlab report` print.
pub fn llr_text(llr: f64, lower: f64, upper: f64) -> String {
    format!("LLR {llr:.2} [{lower:.2}, {upper:.2}, overshoot-corrected]")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_sprt_that_ends_at_its_game_cap_says_so() {
        assert_eq!(
            sprt_state("", CampaignState::Finished),
            "ended at the game cap, no verdict"
        );
        assert_eq!(
            sprt_state("", CampaignState::Running),
            "no bound crossed yet"
        );
        assert_eq!(
            sprt_state("", CampaignState::Paused),
            "no bound crossed yet"
        );
        assert_eq!(
            sprt_state("", CampaignState::Stopped),
            "stopped, no verdict"
        );
        assert_eq!(
            sprt_state("H1 accepted", CampaignState::Finished),
            "H1 accepted"
        );
    }

    #[test]
    fn the_llr_bounds_are_labelled() {
        assert_eq!(
            llr_text(1.234, -2.93, 2.93),
            "LLR 1.23 [-2.93, 2.93, overshoot-corrected]"
        );
    }
}
