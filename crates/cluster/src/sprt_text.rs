//! How an SPRT's standing reads: the same words on the live line of
//! `ajaxlab campaign run`, the status page and `ajaxlab campaign list`
//! (the hypotheses and the LLR are `ajaxlab_stats`'s texts, shared with
//! `ajaxlab match --sprt`).

use crate::coordinator::CampaignState;
use ajaxlab_stats::Status;

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
}
