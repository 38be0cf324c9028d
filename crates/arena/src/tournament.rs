//! Tournaments of more than two players, as cutechess-cli's and fastchess's
//! `-tournament gauntlet|round-robin`: every pairing is a match of its own,
//! stored in its own directory below the tournament's (run id
//! `TOURNAMENT/A-vs-B`), so `ajaxlab report` shows each pairing's Elo and
//! a rating table over the whole field.

use crate::config::{MatchConfig, PlayerConfig};
use crate::runner::{MatchError, MatchSummary, Progress, Start, run_match};
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

/// One pairing's match, played.
#[derive(Debug)]
pub struct PairingSummary {
    /// The players' indices in the field.
    pub players: (usize, usize),
    /// The match's config (its `out` is the pairing's directory).
    pub config: MatchConfig,
    /// What it produced.
    pub summary: MatchSummary,
}

/// The match config of each pairing of `kind` over `field`, from `base`
/// (whose players are replaced): directory `OUT/NN-A-vs-B`, run id
/// `RUN_ID/A-vs-B`.
#[must_use]
pub fn pairing_configs(
    base: &MatchConfig,
    field: &[PlayerConfig],
    kind: TournamentKind,
) -> Vec<((usize, usize), MatchConfig)> {
    kind.pairings(field.len())
        .into_iter()
        .enumerate()
        .map(|(k, (a, b))| {
            let name = format!("{}-vs-{}", field[a].name, field[b].name);
            let safe = ajaxlab_store::file_safe(&name);
            let mut config = base.clone();
            config.players = [field[a].clone(), field[b].clone()];
            config.out = base.out.join(format!("{:02}-{safe}", k + 1));
            config.run_id = format!("{}/{name}", base.run_id);
            ((a, b), config)
        })
        .collect()
}

/// Plays every pairing in turn, each with the base config's concurrency;
/// `announce` is called before each. Resumed, each pairing goes on with
/// the games its directory holds (a finished one plays none).
///
/// # Errors
/// The first pairing's [`MatchError`]; the pairings played before it stay.
pub fn run_tournament(
    pairings: Vec<((usize, usize), MatchConfig)>,
    progress: Progress,
    start: Start,
    mut announce: impl FnMut(&MatchConfig),
) -> Result<Vec<PairingSummary>, MatchError> {
    let mut played = Vec::with_capacity(pairings.len());
    for (players, config) in pairings {
        announce(&config);
        let summary = run_match(&config, progress, start)?;
        played.push(PairingSummary {
            players,
            config,
            summary,
        });
    }
    Ok(played)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{MatchFile, Overrides};

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

    #[test]
    fn each_pairing_gets_its_own_directory_and_run_id() {
        let o = Overrides {
            players: vec!["builtin".into(); 3],
            out: Some("t".into()),
            ..Overrides::default()
        };
        let (base, field) = MatchConfig::build_field(MatchFile::default(), o, 2..=64).unwrap();
        let names: Vec<&str> = field.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["ajaxlab-a", "ajaxlab-b", "ajaxlab-c"]);
        let configs = pairing_configs(&base, &field, TournamentKind::RoundRobin);
        let dirs: Vec<String> = configs
            .iter()
            .map(|(_, c)| c.out.display().to_string())
            .collect();
        assert_eq!(
            dirs,
            [
                "t/01-ajaxlab-a-vs-ajaxlab-b",
                "t/02-ajaxlab-a-vs-ajaxlab-c",
                "t/03-ajaxlab-b-vs-ajaxlab-c"
            ]
        );
        assert_eq!(
            configs[2].1.run_id,
            "match-ajax-falcon-1/ajaxlab-b-vs-ajaxlab-c"
        );
        assert_eq!(configs[2].1.players[1].name, "ajaxlab-c");
    }
}
