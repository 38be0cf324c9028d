//! The rating table over every player of the matches below a run
//! directory (a tournament's pairings), when there are more than two:
//! maximum-likelihood Bradley–Terry ratings with 95% intervals, as Ordo
//! prints them ([`ajaxlab_stats::fit_ratings`]).

use crate::load::Run;
use ajaxlab_rules::Color;
use ajaxlab_stats::{GameScore, PairingScore, Rating, RatingError, fit_ratings};
use ajaxlab_store::RunKind;
use std::collections::BTreeMap;
use std::fmt;

/// The rating table, or why the games fix none.
#[derive(Clone, Debug, PartialEq)]
pub struct RatingsReport {
    /// Players and their ratings, best first.
    pub table: Result<Vec<(String, Rating)>, RatingError>,
}

/// The table over every match run's games, or `None` with fewer than
/// three players.
pub(crate) fn report(runs: &[Run]) -> Option<RatingsReport> {
    let mut names: Vec<String> = Vec::new();
    let mut pairings: BTreeMap<(usize, usize), PairingScore> = BTreeMap::new();
    let mut index = |name: &str| match names.iter().position(|n| n == name) {
        Some(i) => i,
        None => {
            names.push(name.to_owned());
            names.len() - 1
        }
    };
    for run in runs.iter().filter(|r| r.kind == RunKind::Match) {
        for game in run.files.iter().flat_map(|f| &f.games) {
            let (w, b) = (index(&game.white.name), index(&game.black.name));
            let points = match game.score_of(Color::White) {
                GameScore::Win => 1.0,
                GameScore::Draw => 0.5,
                GameScore::Loss => 0.0,
            };
            let (a, b, points_a) = if w < b {
                (w, b, points)
            } else {
                (b, w, 1.0 - points)
            };
            let p = pairings.entry((a, b)).or_insert(PairingScore {
                a,
                b,
                games: 0.0,
                score_a: 0.0,
            });
            p.games += 1.0;
            p.score_a += points_a;
        }
    }
    if names.len() < 3 {
        return None;
    }
    let pairings: Vec<PairingScore> = pairings.into_values().collect();
    let table = fit_ratings(names.len(), &pairings).map(|ratings| {
        let mut rows: Vec<(String, Rating)> = names.into_iter().zip(ratings).collect();
        rows.sort_by(|x, y| y.1.elo.total_cmp(&x.1.elo));
        rows
    });
    Some(RatingsReport { table })
}

impl fmt::Display for RatingsReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.table {
            Err(e) => writeln!(f, "ratings: none ({e})"),
            Ok(rows) => {
                writeln!(
                    f,
                    "ratings over {} players (maximum-likelihood Bradley-Terry, mean 0, ± 95%)",
                    rows.len()
                )?;
                writeln!(
                    f,
                    "  {:>4}  {:<24} {:>8} {:>7} {:>7} {:>7}",
                    "rank", "player", "Elo", "±", "games", "score"
                )?;
                for (i, (name, r)) in rows.iter().enumerate() {
                    writeln!(
                        f,
                        "  {:>4}  {:<24} {:>+8.1} {:>7.1} {:>7} {:>6.1}%",
                        i + 1,
                        name,
                        r.elo,
                        r.error_95,
                        r.games,
                        100.0 * r.score / r.games.max(1.0)
                    )?;
                }
                Ok(())
            }
        }
    }
}
