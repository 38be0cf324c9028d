//! How an SPRT's standing reads: the same words on the live line of
//! `ajaxlab campaign run`, the status page and `ajaxlab campaign list`.

use crate::coordinator::CampaignState;
use ajaxlab_stats::{EloModel, Status};

/// The state of an SPRT for people: its verdict once a bound is crossed;
/// otherwise whether it still runs or ended without one (at the game cap,
/// or stopped by an operator).
///
/// `verdict` is the coordinator's ([`Status::Continue`] while no bound is crossed).
pub fn sprt_state(verdict: Status, campaign_state: CampaignState) -> &'static str {
    match (verdict, campaign_state) {
        (Status::AcceptH1 | Status::AcceptH0, _) => verdict_text(verdict),
        (Status::Continue, CampaignState::Finished) => "ended at the game cap, no verdict",
        (Status::Continue, CampaignState::Stopped) => "stopped, no verdict",
        (Status::Continue, _) => "no bound crossed yet",
    }
}

/// A verdict as the status page's JSON and the campaign lines write it:
/// `H1 accepted`, `H0 accepted`, or empty while no bound is crossed.
pub fn verdict_text(verdict: Status) -> &'static str {
    match verdict {
        Status::AcceptH1 => "H1 accepted",
        Status::AcceptH0 => "H0 accepted",
        Status::Continue => "",
    }
}

/// An SPRT's hypotheses as Fishtest writes them, with their scale:
/// `SPRT <-1.75, 0.25> normalized Elo`.
pub fn hypotheses_text(elo0: f64, elo1: f64, model: EloModel) -> String {
    format!("SPRT <{elo0:.2}, {elo1:.2}> {model} Elo")
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
            sprt_state(Status::Continue, CampaignState::Finished),
            "ended at the game cap, no verdict"
        );
        assert_eq!(
            sprt_state(Status::Continue, CampaignState::Running),
            "no bound crossed yet"
        );
        assert_eq!(
            sprt_state(Status::Continue, CampaignState::Paused),
            "no bound crossed yet"
        );
        assert_eq!(
            sprt_state(Status::Continue, CampaignState::Stopped),
            "stopped, no verdict"
        );
        assert_eq!(
            sprt_state(Status::AcceptH1, CampaignState::Finished),
            "H1 accepted"
        );
        assert_eq!(
            sprt_state(Status::AcceptH0, CampaignState::Running),
            "H0 accepted"
        );
    }

    #[test]
    fn the_llr_bounds_are_labelled() {
        assert_eq!(
            hypotheses_text(-1.75, 0.25, EloModel::Normalized),
            "SPRT <-1.75, 0.25> normalized Elo"
        );
        assert_eq!(
            llr_text(1.234, -2.93, 2.93),
            "LLR 1.23 [-2.93, 2.93, overshoot-corrected]"
        );
    }
}
