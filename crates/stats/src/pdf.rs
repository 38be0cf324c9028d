//! Discrete score distributions built from result counts, the way Fishtest's
//! `LLRcalc` represents them: bucket `i` of `k + 1` scores `i / k` per game,
//! with probability equal to its empirical frequency.

use crate::counts::to_f64;

/// What Fishtest substitutes for an empty bucket so that logarithms and
/// variances stay finite (`LLRcalc.regularize`).
const EMPTY_BUCKET: f64 = 1e-3;

/// A finite distribution on the scores `values[i]` with `probs[i]`.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Pdf {
    values: Vec<f64>,
    probs: Vec<f64>,
    /// Total (possibly regularized) count the frequencies came from.
    total: f64,
}

/// Central moments of a [`Pdf`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Moments {
    pub(crate) mean: f64,
    pub(crate) variance: f64,
    pub(crate) skewness: f64,
    pub(crate) excess_kurtosis: f64,
}

impl Pdf {
    /// Fishtest's `results_to_pdf`: empty buckets count as 0.001 of a sample,
    /// then frequencies are normalized. Defined even for all-zero counts.
    pub(crate) fn regularized(buckets: &[u64]) -> Self {
        let counts: Vec<f64> = buckets
            .iter()
            .map(|&n| if n == 0 { EMPTY_BUCKET } else { to_f64(n) })
            .collect();
        Self::from_weights(&counts)
    }

    /// The empirical distribution without regularization, or `None` when
    /// there is no sample.
    pub(crate) fn exact(buckets: &[u64]) -> Option<Self> {
        let counts: Vec<f64> = buckets.iter().map(|&n| to_f64(n)).collect();
        if counts.iter().sum::<f64>() == 0.0 {
            return None;
        }
        Some(Self::from_weights(&counts))
    }

    fn from_weights(counts: &[f64]) -> Self {
        let total: f64 = counts.iter().sum();
        let last = f64::from(
            u32::try_from(counts.len().saturating_sub(1))
                .unwrap_or(1)
                .max(1),
        );
        let values = (0_u32..)
            .zip(counts)
            .map(|(i, _)| f64::from(i) / last)
            .collect();
        let probs = counts.iter().map(|&n| n / total).collect();
        Self {
            values,
            probs,
            total,
        }
    }

    /// The same support with other probabilities (an MLE of this one).
    pub(crate) fn with_probs(&self, probs: Vec<f64>) -> Self {
        Self {
            values: self.values.clone(),
            probs,
            total: self.total,
        }
    }

    /// The support, ascending from 0 to 1.
    pub(crate) fn values(&self) -> &[f64] {
        &self.values
    }

    /// The probabilities, aligned with [`Pdf::values`].
    pub(crate) fn probs(&self) -> &[f64] {
        &self.probs
    }

    /// Number of samples behind the frequencies (regularized if built so).
    pub(crate) const fn total(&self) -> f64 {
        self.total
    }

    /// Number of buckets: 3 for trinomial, 5 for pentanomial.
    pub(crate) fn len(&self) -> usize {
        self.values.len()
    }

    /// Mean and variance.
    pub(crate) fn mean_variance(&self) -> (f64, f64) {
        let mean = self.dot(|v| v);
        (mean, self.dot(|v| (v - mean).powi(2)))
    }

    /// Mean, variance, skewness and excess kurtosis (`LLRcalc.stats_ex`).
    pub(crate) fn moments(&self) -> Moments {
        let (mean, variance) = self.mean_variance();
        let m3 = self.dot(|v| (v - mean).powi(3));
        let m4 = self.dot(|v| (v - mean).powi(4));
        Moments {
            mean,
            variance,
            skewness: m3 / variance.powf(1.5),
            excess_kurtosis: m4 / (variance * variance) - 3.0,
        }
    }

    /// Σ pᵢ·g(vᵢ).
    fn dot(&self, g: impl Fn(f64) -> f64) -> f64 {
        self.values
            .iter()
            .zip(&self.probs)
            .map(|(&v, &p)| p * g(v))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regularization_replaces_empty_buckets() {
        let pdf = Pdf::regularized(&[0, 2, 2]);
        assert_eq!(pdf.values(), &[0.0, 0.5, 1.0]);
        assert!((pdf.total() - 4.001).abs() < 1e-12);
        assert!((pdf.probs()[0] - 0.001 / 4.001).abs() < 1e-15);
        assert!((pdf.probs().iter().sum::<f64>() - 1.0).abs() < 1e-15);
        assert_eq!(Pdf::regularized(&[0; 5]).probs(), &[0.2; 5]);
    }

    #[test]
    fn exact_moments_of_a_symmetric_pentanomial() {
        let pdf = Pdf::exact(&[1, 0, 0, 0, 1]).unwrap();
        assert_eq!(pdf.values(), &[0.0, 0.25, 0.5, 0.75, 1.0]);
        let m = pdf.moments();
        assert_eq!(m.mean, 0.5);
        assert_eq!(m.variance, 0.25);
        assert_eq!(m.skewness, 0.0);
        // Two-point distribution: kurtosis 1, excess −2.
        assert!((m.excess_kurtosis + 2.0).abs() < 1e-12);
        assert!(Pdf::exact(&[0, 0, 0]).is_none());
    }
}
