//! Outlier workers: each worker's mean score in a campaign compared with
//! the median of the workers' mean scores (robust: one bad worker does not
//! move it), in standard errors of the campaign's pentanomial variance for
//! that worker's number of pairs. A worker further than [`Z_LIMIT`] is
//! flagged: a broken machine, a different binary, or foul play.
//!
//! How a token's games end is checked too ([`implausible_play`]): games
//! ended by claimed engine failures far more often than the other tokens'
//! games, or far shorter games, are what a worker that claims its
//! opponent's engine crashed produces (one token once pushed an SPRT to
//! +1200 Elo with 0–1-ply "wins"), and what a broken machine produces.

use crate::ids::WorkerId;
use ajaxlab_stats::Pentanomial;
use ajaxlab_store::state::UnitPlay;

/// Claimed engine failures a token must have before it can be flagged.
pub const MIN_FAILURES: u64 = 4;

/// Games of other tokens a token's games are compared with before either
/// check applies: alone, a token has nothing to be out of line with (an
/// engine that crashes often, tested on one machine, is not an attack).
pub const MIN_OTHER_GAMES: u64 = 40;

/// A token's games are flagged as short when they average less than the
/// others' average divided by this.
const SHORT_GAMES_RATIO: f64 = 3.0;

/// Why the games of one token (`token`, this unit's included) are
/// implausible next to the other tokens' (`others`) in the same campaign,
/// if they are, once the others have played [`MIN_OTHER_GAMES`]: claimed
/// engine failures (crashes, timeouts, illegal moves) more than
/// [`Z_LIMIT`] standard errors above the others' rate (smoothed by one
/// failure in two games), at least [`MIN_FAILURES`] of them; or, with
/// [`MIN_PAIRS`] pairs of its own, games averaging under a third of the
/// others' length.
pub fn implausible_play(token: UnitPlay, others: UnitPlay) -> Option<String> {
    if others.games < MIN_OTHER_GAMES {
        return None;
    }
    let rate = (others.failures + 1) as f64 / (others.games + 2) as f64;
    let (n, x) = (token.games as f64, token.failures as f64);
    let z = (x - n * rate) / (n * rate * (1.0 - rate)).sqrt();
    if token.failures >= MIN_FAILURES && z > Z_LIMIT {
        return Some(format!(
            "{} of {} games ended in a claimed engine crash, timeout or illegal move, against {} of the other workers' {} ({z:.1} standard errors above)",
            token.failures, token.games, others.failures, others.games
        ));
    }
    if token.games >= 2 * MIN_PAIRS {
        let mean = |p: UnitPlay| p.plies as f64 / p.games as f64;
        if mean(token) * SHORT_GAMES_RATIO < mean(others) {
            return Some(format!(
                "its games average {:.1} plies, the other workers' {:.1}",
                mean(token),
                mean(others)
            ));
        }
    }
    None
}

/// Standard errors beyond which a worker is flagged.
pub const Z_LIMIT: f64 = 3.0;
/// Pairs a worker must have played before it can be flagged.
pub const MIN_PAIRS: u64 = 8;

/// One worker's standing in a campaign.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerStanding {
    /// Worker id.
    pub worker: WorkerId,
    /// Its pairs.
    pub pentanomial: Pentanomial,
    /// Distance from the median worker, in standard errors (0 when undefined).
    pub z: f64,
    /// Whether it is implausible.
    pub flagged: bool,
}

/// Standings of every worker given each worker's pairs.
pub fn standings(per_worker: &[(WorkerId, Pentanomial)]) -> Vec<WorkerStanding> {
    let total = per_worker
        .iter()
        .fold(Pentanomial::default(), |acc, (_, p)| acc + *p);
    let mut means: Vec<f64> = per_worker
        .iter()
        .filter_map(|(_, p)| p.score().ok())
        .collect();
    means.sort_by(f64::total_cmp);
    let median = match means.len() {
        0 => None,
        n if n % 2 == 1 => Some(means[n / 2]),
        n => Some((means[n / 2 - 1] + means[n / 2]) / 2.0),
    };
    let variance = total.variance().ok().filter(|v| *v > 0.0);
    per_worker
        .iter()
        .map(|(worker, p)| {
            let z = match (p.score().ok(), median, variance) {
                (Some(mean), Some(median), Some(var)) if p.pairs() > 0 => {
                    (mean - median) / (var / p.pairs() as f64).sqrt()
                }
                _ => 0.0,
            };
            WorkerStanding {
                worker: worker.clone(),
                pentanomial: *p,
                z,
                flagged: p.pairs() >= MIN_PAIRS && z.abs() > Z_LIMIT,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(id: &str) -> WorkerId {
        format!("w-{id}").parse().unwrap()
    }

    fn play(games: u64, failures: u64, plies: u64) -> UnitPlay {
        UnitPlay {
            games,
            failures,
            plies,
        }
    }

    #[test]
    fn claimed_crashes_or_short_games_far_beyond_the_others_are_implausible() {
        // 38 one-ply "wins" by claimed crashes beside honest workers.
        let claims = play(38, 38, 38);
        let why = implausible_play(claims, play(400, 2, 32_000)).unwrap();
        assert!(
            why.starts_with("38 of 38 games ended in a claimed engine crash"),
            "{why}"
        );
        // An honest token on a campaign whose engine crashes now and then,
        // and a token with too few others' games to compare with.
        assert_eq!(
            implausible_play(play(40, 2, 3200), play(400, 20, 32_000)),
            None
        );
        assert_eq!(
            implausible_play(play(400, 40, 32_000), play(400, 44, 32_000)),
            None
        );
        assert_eq!(implausible_play(claims, play(30, 0, 2400)), None);
        assert_eq!(
            implausible_play(play(400, 40, 32_000), UnitPlay::default()),
            None
        );
        // Short games without claimed failures.
        let why = implausible_play(play(40, 0, 400), play(400, 0, 32_000)).unwrap();
        assert!(
            why.contains("average 10.0 plies, the other workers' 80.0"),
            "{why}"
        );
        assert_eq!(
            implausible_play(play(40, 0, 2400), play(400, 0, 32_000)),
            None
        );
    }

    #[test]
    fn a_worker_that_always_wins_is_flagged_and_honest_ones_are_not() {
        let honest = Pentanomial([10, 20, 40, 20, 10]);
        let liar = Pentanomial([0, 0, 0, 0, 40]);
        let s = standings(&[(w("a"), honest), (w("b"), honest), (w("liar"), liar)]);
        assert!(!s[0].flagged && !s[1].flagged, "{s:?}");
        assert!(s[2].flagged && s[2].z > Z_LIMIT, "{s:?}");
        let few = standings(&[(w("a"), honest), (w("new"), Pentanomial([0, 0, 0, 0, 3]))]);
        assert!(!few[1].flagged, "too few pairs to judge");
    }
}
