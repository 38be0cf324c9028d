//! Where a work unit is in its life, stored by name in the `units` table's
//! `state` column: converted from and to that text here only.

use std::fmt;
use std::str::FromStr;

/// Where a work unit is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnitState {
    /// Back in the pool (never leased since it was given back, expired or
    /// refused): the next asking worker may get it.
    Free,
    /// Held by a worker under a lease until its deadline.
    Leased,
    /// Its games are stored and counted.
    Done,
}

impl UnitState {
    /// Every state, in the order of their names.
    pub const ALL: [UnitState; 3] = [UnitState::Done, UnitState::Free, UnitState::Leased];

    /// The name stored in the database (and shown on the metrics page).
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            UnitState::Free => "free",
            UnitState::Leased => "leased",
            UnitState::Done => "done",
        }
    }
}

impl fmt::Display for UnitState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Text that names no [`UnitState`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a unit state (free, leased, done)")]
pub struct UnknownUnitState(pub String);

impl FromStr for UnitState {
    type Err = UnknownUnitState;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        UnitState::ALL
            .into_iter()
            .find(|s| s.as_str() == text)
            .ok_or_else(|| UnknownUnitState(text.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_states_round_trip_through_their_names() {
        for state in UnitState::ALL {
            assert_eq!(state.as_str().parse::<UnitState>(), Ok(state));
            assert_eq!(format!("{state:<7}|"), format!("{:<7}|", state.as_str()));
        }
        assert_eq!(
            "counted".parse::<UnitState>().map_err(|e| e.to_string()),
            Err("'counted' is not a unit state (free, leased, done)".to_owned())
        );
        let mut names: Vec<_> = UnitState::ALL.iter().map(|s| s.as_str()).collect();
        names.sort_unstable();
        let ordered: Vec<_> = UnitState::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(names, ordered, "ALL is in the order of the names");
    }
}
