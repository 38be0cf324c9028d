//! Outlier workers: each worker's results in a campaign compared with the
//! rest of the campaign's. A worker whose mean score is further than
//! [`Z_LIMIT`] standard errors from the others' (pentanomial variances) is
//! flagged: a broken machine, a different binary, or foul play.

use ajaxlab_stats::Pentanomial;

/// Standard errors beyond which a worker is flagged.
pub const Z_LIMIT: f64 = 3.0;
/// Pairs a worker must have played before it can be flagged.
pub const MIN_PAIRS: u64 = 8;

/// One worker's standing in a campaign.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerStanding {
    /// Worker id.
    pub worker: String,
    /// Its pairs.
    pub pentanomial: Pentanomial,
    /// Distance from the rest, in standard errors (0 when undefined).
    pub z: f64,
    /// Whether it is implausible.
    pub flagged: bool,
}

fn mean_and_variance(p: &Pentanomial) -> Option<(f64, f64)> {
    Some((p.score().ok()?, p.variance().ok()?))
}

/// Standings of every worker given each worker's pairs.
pub fn standings(per_worker: &[(String, Pentanomial)]) -> Vec<WorkerStanding> {
    let total = per_worker
        .iter()
        .fold(Pentanomial::default(), |acc, (_, p)| acc + *p);
    per_worker
        .iter()
        .map(|(worker, p)| {
            let rest = Pentanomial(std::array::from_fn(|i| total.0[i] - p.0[i]));
            let z = match (mean_and_variance(p), mean_and_variance(&rest)) {
                (Some((m, v)), Some((mr, vr))) if p.pairs() > 0 && rest.pairs() > 0 => {
                    let se = (v / p.pairs() as f64 + vr / rest.pairs() as f64).sqrt();
                    if se > 0.0 { (m - mr) / se } else { 0.0 }
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

    #[test]
    fn a_worker_that_always_wins_is_flagged_and_honest_ones_are_not() {
        let honest = Pentanomial([10, 20, 40, 20, 10]);
        let liar = Pentanomial([0, 0, 0, 0, 40]);
        let s = standings(&[
            ("a".into(), honest),
            ("b".into(), honest),
            ("liar".into(), liar),
        ]);
        assert!(!s[0].flagged && !s[1].flagged, "{s:?}");
        assert!(s[2].flagged && s[2].z > Z_LIMIT, "{s:?}");
        let few = standings(&[
            ("a".into(), honest),
            ("new".into(), Pentanomial([0, 0, 0, 0, 3])),
        ]);
        assert!(!few[1].flagged, "too few pairs to judge");
    }
}
