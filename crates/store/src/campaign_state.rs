//! Where a campaign is in its life: stored by name in the coordinator's
//! database, mapped to its wire enum by `ajaxlab-proto`.

use std::fmt;
use std::str::FromStr;

/// Where a campaign is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CampaignState {
    /// Its units are handed out.
    Running,
    /// Held by an operator (or after repeated refusals); resumable.
    Paused,
    /// Ended by an operator.
    Stopped,
    /// Every pair counted, or its test decided.
    Finished,
}

impl CampaignState {
    /// Every state.
    pub const ALL: [CampaignState; 4] = [
        CampaignState::Running,
        CampaignState::Paused,
        CampaignState::Stopped,
        CampaignState::Finished,
    ];

    /// The name stored in the database and sent on the wire.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            CampaignState::Running => "running",
            CampaignState::Paused => "paused",
            CampaignState::Stopped => "stopped",
            CampaignState::Finished => "finished",
        }
    }

    /// Whether the campaign will play no more (finished or stopped).
    #[must_use]
    pub const fn is_over(self) -> bool {
        matches!(self, CampaignState::Finished | CampaignState::Stopped)
    }
}

impl fmt::Display for CampaignState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Text that names no [`CampaignState`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a campaign state (running, paused, stopped, finished)")]
pub struct UnknownCampaignState(pub String);

impl FromStr for CampaignState {
    type Err = UnknownCampaignState;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        CampaignState::ALL
            .into_iter()
            .find(|s| s.as_str() == text)
            .ok_or_else(|| UnknownCampaignState(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn campaign_states_round_trip_through_their_names() {
        for state in CampaignState::ALL {
            assert_eq!(state.as_str().parse::<CampaignState>(), Ok(state));
            assert_eq!(format!("{state:<9}|"), format!("{:<9}|", state.as_str()));
        }
        assert!("done".parse::<CampaignState>().is_err());
        let over: Vec<_> = CampaignState::ALL
            .into_iter()
            .filter(|s| s.is_over())
            .collect();
        assert_eq!(over, [CampaignState::Stopped, CampaignState::Finished]);
    }
}
