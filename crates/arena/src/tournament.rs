//! Tournaments of more than two players, as cutechess-cli's and fastchess's
//! `-tournament gauntlet|round-robin`: who plays whom. Every pairing is a
//! match of its own (`ajaxlab_cluster::local::matches` plays each as a
//! campaign, `NN-A-vs-B`, in the tournament's directory), so `ajaxlab
//! report` shows each pairing's Elo and a rating table over the field.

use std::fmt;
use std::str::FromStr;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TournamentKind {
    /// The first player against each of the others.
    Gauntlet,
    /// Every player against every other.
    RoundRobin,
}

impl TournamentKind {
    /// The pairings of a field of `players`, by index, in playing order.
    #[must_use]
    pub fn pairings(self, players: usize) -> Vec<(usize, usize)> {
        match self {
            TournamentKind::Gauntlet => (1..players).map(|b| (0, b)).collect(),
            TournamentKind::RoundRobin => (0..players)
                .flat_map(|a| (a + 1..players).map(move |b| (a, b)))
                .collect(),
        }
    }
}

impl fmt::Display for TournamentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(match self {
            TournamentKind::Gauntlet => "gauntlet",
            TournamentKind::RoundRobin => "round-robin",
        })
    }
}

/// Text that names no tournament kind.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a tournament: expected gauntlet or round-robin")]
pub struct UnknownTournament(pub String);

impl FromStr for TournamentKind {
    type Err = UnknownTournament;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text {
            "gauntlet" => Ok(TournamentKind::Gauntlet),
            "round-robin" | "roundrobin" => Ok(TournamentKind::RoundRobin),
            other => Err(UnknownTournament(other.to_owned())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairings_are_cutechess_s() {
        assert_eq!(
            TournamentKind::Gauntlet.pairings(4),
            [(0, 1), (0, 2), (0, 3)]
        );
        assert_eq!(
            TournamentKind::RoundRobin.pairings(4),
            [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)]
        );
        assert_eq!("round-robin".parse(), Ok(TournamentKind::RoundRobin));
        assert!("swiss".parse::<TournamentKind>().is_err());
    }
}
