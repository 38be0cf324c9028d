//! Outlier workers: each worker's mean score in a campaign compared with
//! the median of the workers' mean scores (robust: one bad worker does not
//! move it), in standard errors of the campaign's pentanomial variance for
//! that worker's number of pairs. A worker further than [`Z_LIMIT`] is
//! flagged: a broken machine, a different binary, or foul play.

use crate::ids::WorkerId;
use ajaxlab_stats::Pentanomial;

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
