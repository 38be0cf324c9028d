//! How an SPRT's standing reads: the same words on the live line of
//! `ajaxlab campaign run`, the web UI and `ajaxlab campaign list`
//! (the hypotheses and the LLR are `ajaxlab_stats`'s texts, shared with
//! `ajaxlab match --sprt`).

use crate::coordinator::CampaignState;
use ajaxlab_stats::Status;

/// Where an SPRT campaign's test stands, as the coordinator reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SprtStanding {
    /// The verdict ([`Status::Continue`] while no bound is crossed).
    pub verdict: Status,
    /// The campaign's life.
    pub campaign_state: CampaignState,
    /// The pairs the test had counted when it decided (0 while it runs).
    pub pairs_at_verdict: u64,
    /// Every pair the campaign counted.
    pub pairs_done: u64,
}

impl crate::coordinator::CampaignView {
    /// Where its test stands; `None` for campaigns without one.
    pub fn sprt_standing(&self) -> Option<SprtStanding> {
        self.sprt.as_ref().map(|s| SprtStanding {
            verdict: s.verdict,
            campaign_state: self.state,
            pairs_at_verdict: s.pairs_at_verdict,
            pairs_done: self.pairs_done,
        })
    }
}

/// The state of an SPRT for people: its verdict once a bound is crossed,
/// with the pairs played after it; otherwise whether it still runs or ended
/// without one (at the game cap, or stopped by an operator).
pub fn sprt_state(s: SprtStanding) -> String {
    match (s.verdict, s.campaign_state) {
        (Status::AcceptH1 | Status::AcceptH0, _) => {
            ajaxlab_stats::verdict_text(s.verdict, s.pairs_at_verdict, s.pairs_done)
        }
        (Status::Continue, CampaignState::Finished) => "ended at the game cap, no verdict".into(),
        (Status::Continue, CampaignState::Stopped) => "stopped, no verdict".into(),
        (Status::Continue, _) => "no bound crossed yet".into(),
    }
}

/// A verdict as the web UI's JSON writes it: `H1 accepted`, `H0
/// accepted`, or empty while no bound is crossed.
pub fn short_verdict(verdict: Status) -> &'static str {
    match verdict {
        Status::AcceptH1 => "H1 accepted",
        Status::AcceptH0 => "H0 accepted",
        Status::Continue => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(verdict: Status, campaign_state: CampaignState) -> String {
        sprt_state(SprtStanding {
            verdict,
            campaign_state,
            pairs_at_verdict: if verdict == Status::Continue { 0 } else { 40 },
            pairs_done: 42,
        })
    }

    #[test]
    fn an_sprt_that_ends_at_its_game_cap_says_so() {
        assert_eq!(
            state(Status::Continue, CampaignState::Finished),
            "ended at the game cap, no verdict"
        );
        assert_eq!(
            state(Status::Continue, CampaignState::Running),
            "no bound crossed yet"
        );
        assert_eq!(
            state(Status::Continue, CampaignState::Paused),
            "no bound crossed yet"
        );
        assert_eq!(
            state(Status::Continue, CampaignState::Stopped),
            "stopped, no verdict"
        );
        assert_eq!(
            state(Status::AcceptH1, CampaignState::Finished),
            "H1 accepted after 40 pairs (2 pairs played after the verdict: stored, not in the test)"
        );
        assert_eq!(
            state(Status::AcceptH0, CampaignState::Running),
            "H0 accepted after 40 pairs (2 pairs played after the verdict: stored, not in the test)"
        );
    }
}
