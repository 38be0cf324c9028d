//! Are groups really different, or is it noise? Cochran's Q test of
//! heterogeneity between group estimates, the method-of-moments
//! (DerSimonian–Laird) between-group variance `τ²`, and empirical-Bayes
//! shrinkage of each group toward the overall mean.
//!
//! Each group `i` brings an estimate `xᵢ` with sampling variance `σᵢ²`.
//! With weights `wᵢ = 1/σᵢ²` and the weighted mean `x̄`,
//! `Q = Σ wᵢ(xᵢ − x̄)²` is chi-square with `k − 1` degrees of freedom when
//! all groups share one true value. `τ² = max(0, (Q − (k−1)) / (Σw − Σw²/Σw))`
//! estimates the spread of the true values, and the shrunken estimate of
//! group `i` is `μ + Bᵢ(xᵢ − μ)` with `Bᵢ = τ²/(τ² + σᵢ²)` and `μ` the
//! random-effects mean (weights `1/(σᵢ² + τ²)`): a group whose estimate is
//! extreme only because it is noisy is pulled back the most.

use crate::chi_square::{DistributionError, chi_square_sf};

/// One group's estimate and the variance of that estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GroupEstimate {
    /// The group's estimate `xᵢ`.
    pub estimate: f64,
    /// Its sampling variance `σᵢ²` (squared standard error), positive.
    pub variance: f64,
}

/// The heterogeneity test and the random-effects summary of the groups.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Heterogeneity {
    /// Number of groups `k`.
    pub groups: usize,
    /// Cochran's `Q`.
    pub q: f64,
    /// Degrees of freedom, `k − 1`.
    pub df: f64,
    /// `P(χ²_{k−1} > Q)`: small when the groups differ by more than noise.
    pub p_value: f64,
    /// Inverse-variance weighted mean `x̄` (fixed effect).
    pub fixed_mean: f64,
    /// Between-group variance `τ²` (method of moments), `≥ 0`.
    pub tau2: f64,
    /// `I² = max(0, (Q − df)/Q)`: the share of the spread that is real.
    pub i2: f64,
    /// Random-effects mean `μ`.
    pub mean: f64,
    /// Variance of `μ`, `1/Σ 1/(σᵢ² + τ²)`.
    pub mean_variance: f64,
}

/// A group's estimate after shrinkage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shrunken {
    /// `μ + B·(x − μ)`.
    pub estimate: f64,
    /// `B = τ²/(τ² + σ²)`: 0 shrinks fully to the mean, 1 keeps the estimate.
    pub factor: f64,
    /// Posterior variance `B·σ²` (treating `μ` and `τ²` as known).
    pub variance: f64,
}

/// Why the test could not be computed.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum HeterogeneityError {
    /// At least two groups are needed.
    #[error("{0} groups: at least two are needed")]
    TooFewGroups(usize),
    /// A group's estimate is not finite or its variance is not positive and finite.
    #[error("group {0}: estimate not finite or variance not positive")]
    InvalidGroup(usize),
    /// The p-value could not be computed.
    #[error(transparent)]
    Distribution(#[from] DistributionError),
}

/// Cochran's Q test and the method-of-moments random-effects summary.
///
/// # Errors
///
/// [`HeterogeneityError::TooFewGroups`] for fewer than two groups,
/// [`HeterogeneityError::InvalidGroup`] for a non-finite estimate or a
/// variance that is not positive and finite.
pub fn heterogeneity(groups: &[GroupEstimate]) -> Result<Heterogeneity, HeterogeneityError> {
    if groups.len() < 2 {
        return Err(HeterogeneityError::TooFewGroups(groups.len()));
    }
    for (i, g) in groups.iter().enumerate() {
        if !(g.estimate.is_finite() && g.variance > 0.0 && g.variance.is_finite()) {
            return Err(HeterogeneityError::InvalidGroup(i));
        }
    }
    let weights: Vec<f64> = groups.iter().map(|g| 1.0 / g.variance).collect();
    let sum_w: f64 = weights.iter().sum();
    let sum_w2: f64 = weights.iter().map(|w| w * w).sum();
    let fixed_mean = groups
        .iter()
        .zip(&weights)
        .map(|(g, w)| w * g.estimate)
        .sum::<f64>()
        / sum_w;
    let q: f64 = groups
        .iter()
        .zip(&weights)
        .map(|(g, w)| w * (g.estimate - fixed_mean).powi(2))
        .sum();
    let df = count(groups.len() - 1);
    let tau2 = ((q - df) / (sum_w - sum_w2 / sum_w)).max(0.0);
    let re_weights: Vec<f64> = groups.iter().map(|g| 1.0 / (g.variance + tau2)).collect();
    let re_sum: f64 = re_weights.iter().sum();
    let mean = groups
        .iter()
        .zip(&re_weights)
        .map(|(g, w)| w * g.estimate)
        .sum::<f64>()
        / re_sum;
    Ok(Heterogeneity {
        groups: groups.len(),
        q,
        df,
        p_value: chi_square_sf(q, df)?,
        fixed_mean,
        tau2,
        i2: if q > 0.0 {
            ((q - df) / q).max(0.0)
        } else {
            0.0
        },
        mean,
        mean_variance: 1.0 / re_sum,
    })
}

impl Heterogeneity {
    /// Shrinks one group's estimate toward the random-effects mean.
    #[must_use]
    pub fn shrink(&self, group: GroupEstimate) -> Shrunken {
        let factor = if self.tau2 > 0.0 {
            self.tau2 / (self.tau2 + group.variance)
        } else {
            0.0
        };
        Shrunken {
            estimate: self.mean + factor * (group.estimate - self.mean),
            factor,
            variance: factor * group.variance,
        }
    }
}

/// Converts a group count to `f64` (exact below 2⁵³).
fn count(n: usize) -> f64 {
    // No lossless `From<usize> for f64`; group counts are far below 2^53.
    n as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{RandomSource, SplitMix64};

    fn g(estimate: f64, variance: f64) -> GroupEstimate {
        GroupEstimate { estimate, variance }
    }

    #[test]
    fn hand_computed_three_groups() {
        // Estimates 1, 2, 4 with variances 1, 1, 2 → w = 1, 1, ½.
        // x̄ = (1 + 2 + 2)/2.5 = 2; Q = 1 + 0 + ½·4 = 3; df = 2.
        // τ² = (3 − 2)/(2.5 − 2.25/2.5) = 1/1.6 = 0.625.
        let groups = [g(1.0, 1.0), g(2.0, 1.0), g(4.0, 2.0)];
        let h = heterogeneity(&groups).unwrap();
        assert!((h.fixed_mean - 2.0).abs() < 1e-15);
        assert!((h.q - 3.0).abs() < 1e-15);
        assert_eq!(h.df, 2.0);
        // χ²₂ upper tail is e^(−Q/2).
        assert!((h.p_value - (-1.5_f64).exp()).abs() < 1e-14);
        assert!((h.tau2 - 0.625).abs() < 1e-15);
        assert!((h.i2 - 1.0 / 3.0).abs() < 1e-15);
        // Random-effects weights 1/1.625, 1/1.625, 1/2.625.
        let w = [1.0 / 1.625, 1.0 / 1.625, 1.0 / 2.625];
        let mu = (w[0] + 2.0 * w[1] + 4.0 * w[2]) / (w[0] + w[1] + w[2]);
        assert!((h.mean - mu).abs() < 1e-14);
        let s = h.shrink(groups[2]);
        let b = 0.625 / 2.625;
        assert!((s.factor - b).abs() < 1e-15);
        assert!((s.estimate - (mu + b * (4.0 - mu))).abs() < 1e-14);
        assert!((s.variance - 2.0 * b).abs() < 1e-15);
    }

    #[test]
    fn no_excess_spread_shrinks_everything_to_the_mean() {
        // Q below its degrees of freedom: τ² = 0.
        let groups = [g(0.5, 1.0), g(0.6, 1.0), g(0.4, 1.0)];
        let h = heterogeneity(&groups).unwrap();
        assert_eq!(h.tau2, 0.0);
        assert!(h.p_value > 0.9);
        let s = h.shrink(groups[1]);
        assert_eq!(s.factor, 0.0);
        assert!((s.estimate - 0.5).abs() < 1e-15);
    }

    /// `k` groups of `n` scores each, true means spread by `spread`.
    fn simulate(seed: u64, k: usize, n: u32, spread: f64) -> Vec<GroupEstimate> {
        let mut rng = SplitMix64::new(seed);
        (0..k)
            .map(|_| {
                let p = 0.55 + spread * (rng.next_f64() - 0.5);
                let hits = (0..n).filter(|_| rng.next_f64() < p).count();
                let mean = f64::from(u32::try_from(hits).unwrap()) / f64::from(n);
                // Binomial variance under the pooled law keeps empty groups finite.
                g(mean, 0.25 / f64::from(n))
            })
            .collect()
    }

    #[test]
    fn homogeneous_groups_pass_and_heterogeneous_groups_fail() {
        let same = heterogeneity(&simulate(1, 40, 200, 0.0)).unwrap();
        assert!(same.p_value > 0.05, "{same:?}");
        let different = heterogeneity(&simulate(2, 40, 200, 0.4)).unwrap();
        assert!(different.p_value < 0.01, "{different:?}");
        assert!(different.tau2 > 0.005);
    }

    #[test]
    fn noisy_extremes_are_pulled_back_more() {
        // Same raw estimate, one group ten times noisier.
        let groups = [g(0.5, 0.001), g(0.6, 0.001), g(0.7, 0.001), g(0.8, 0.01)];
        let h = heterogeneity(&groups).unwrap();
        assert!(h.tau2 > 0.0);
        let precise = h.shrink(g(0.8, 0.001));
        let noisy = h.shrink(groups[3]);
        assert!(noisy.estimate < precise.estimate);
        assert!(noisy.estimate < 0.8 && noisy.estimate > h.mean);
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(
            heterogeneity(&[g(0.5, 1.0)]),
            Err(HeterogeneityError::TooFewGroups(1))
        );
        assert_eq!(
            heterogeneity(&[g(0.5, 1.0), g(0.5, 0.0)]),
            Err(HeterogeneityError::InvalidGroup(1))
        );
    }
}
