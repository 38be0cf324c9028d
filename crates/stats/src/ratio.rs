//! The ratio of two normally distributed estimates, `a/b`, with its
//! confidence interval by the delta method and by Fieller's theorem.
//!
//! The delta method linearizes `a/b`: `Var(a/b) ≈ (Var a − 2r·Cov(a,b) +
//! r²·Var b)/b²` with `r = a/b`, and gives a symmetric interval. Fieller's
//! interval is exact for normal `a` and `b`: the set of `r` for which
//! `a − r·b` is not significantly different from zero. It is asymmetric, and
//! bounded only when `b` itself is significantly non-zero; otherwise the
//! data cannot bound the ratio at all and no interval is returned.

use crate::elo::Interval;

/// The `z` of a two-sided 95% interval, Φ⁻¹(0.975).
pub const Z_95: f64 = crate::normal::Z_975;

/// An estimate with its variance, the input of [`ratio`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NormalEstimate {
    /// Point estimate.
    pub value: f64,
    /// Variance of the estimate (the squared standard error).
    pub variance: f64,
}

/// The ratio of two estimates with its intervals.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatioEstimate {
    /// `a/b`.
    pub value: f64,
    /// Standard error by the delta method.
    pub std_error: f64,
    /// `value ± z·std_error`.
    pub delta: Interval,
    /// Fieller's interval, `None` when it is unbounded (the denominator is
    /// not significantly different from zero at this level).
    pub fieller: Option<Interval>,
}

/// Why a ratio could not be estimated.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum RatioError {
    /// The denominator's point estimate is zero (or not finite).
    #[error("the denominator {0} is zero or not finite")]
    ZeroDenominator(f64),
    /// A value, variance or covariance is not finite, or a variance is negative.
    #[error("a value, variance or covariance is not finite, or a variance is negative")]
    InvalidInput,
    /// `z` must be positive and finite.
    #[error("z {0} is not a positive finite number")]
    InvalidZ(f64),
}

/// The ratio `a/b` of two estimates whose covariance is `covariance` (zero
/// for independent estimates), with intervals at the normal quantile `z`
/// (e.g. [`Z_95`]).
///
/// # Errors
///
/// [`RatioError::ZeroDenominator`] if `b.value` is zero,
/// [`RatioError::InvalidInput`] for non-finite inputs or negative variances,
/// [`RatioError::InvalidZ`] unless `z > 0`.
pub fn ratio(
    a: NormalEstimate,
    b: NormalEstimate,
    covariance: f64,
    z: f64,
) -> Result<RatioEstimate, RatioError> {
    let finite = [a.value, a.variance, b.variance, covariance]
        .iter()
        .all(|x| x.is_finite());
    if !finite || a.variance < 0.0 || b.variance < 0.0 {
        return Err(RatioError::InvalidInput);
    }
    if b.value == 0.0 || !b.value.is_finite() {
        return Err(RatioError::ZeroDenominator(b.value));
    }
    if !(z > 0.0 && z.is_finite()) {
        return Err(RatioError::InvalidZ(z));
    }
    let r = a.value / b.value;
    let variance =
        ((a.variance - 2.0 * r * covariance + r * r * b.variance) / (b.value * b.value)).max(0.0);
    let std_error = variance.sqrt();
    let delta = Interval {
        low: r - z * std_error,
        high: r + z * std_error,
    };
    Ok(RatioEstimate {
        value: r,
        std_error,
        delta,
        fieller: fieller(a, b, covariance, z),
    })
}

/// Fieller's interval: the `r` with `(a − r·b)² ≤ z²·Var(a − r·b)`, i.e.
/// `(b² − z²v_b)·r² − 2(ab − z²c)·r + (a² − z²v_a) ≤ 0`.
fn fieller(a: NormalEstimate, b: NormalEstimate, c: f64, z: f64) -> Option<Interval> {
    let z2 = z * z;
    let quad = b.value * b.value - z2 * b.variance;
    if quad <= 0.0 {
        return None;
    }
    let half_linear = a.value * b.value - z2 * c;
    let constant = a.value * a.value - z2 * a.variance;
    let discriminant = (half_linear * half_linear - quad * constant).max(0.0);
    let root = discriminant.sqrt();
    Some(Interval {
        low: (half_linear - root) / quad,
        high: (half_linear + root) / quad,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(value: f64, se: f64) -> NormalEstimate {
        NormalEstimate {
            value,
            variance: se * se,
        }
    }

    #[test]
    fn exact_denominator_gives_equal_intervals() {
        // b known exactly: both intervals are a/b ± z·se_a/|b|.
        let r = ratio(est(6.0, 0.5), est(2.0, 0.0), 0.0, 2.0).unwrap();
        assert_eq!(r.value, 3.0);
        assert!((r.std_error - 0.25).abs() < 1e-15);
        assert!((r.delta.low - 2.5).abs() < 1e-15 && (r.delta.high - 3.5).abs() < 1e-15);
        let f = r.fieller.unwrap();
        assert!((f.low - 2.5).abs() < 1e-12 && (f.high - 3.5).abs() < 1e-12);
    }

    #[test]
    fn hand_computed_delta_and_fieller() {
        // a = 100 ± 20, b = 50 ± 10, independent, z = 2:
        // Var r = (400 + 4·100)/2500 = 0.32.
        let r = ratio(est(100.0, 20.0), est(50.0, 10.0), 0.0, 2.0).unwrap();
        assert!((r.std_error - 0.32_f64.sqrt()).abs() < 1e-15);
        // Fieller: (2500 − 400) r² − 2·5000 r + (10000 − 1600) = 0,
        // r = (5000 ± √(25e6 − 2100·8400))/2100 = (5000 ± √7.36e6)/2100.
        let f = r.fieller.unwrap();
        let root = 7.36e6_f64.sqrt();
        assert!((f.low - (5000.0 - root) / 2100.0).abs() < 1e-12);
        assert!((f.high - (5000.0 + root) / 2100.0).abs() < 1e-12);
        // Fieller's interval is skewed away from zero.
        assert!(f.high - r.value > r.value - f.low);
    }

    #[test]
    fn covariance_enters_both_intervals() {
        // Perfectly correlated a = 2b: the ratio is exactly 2.
        let b = est(10.0, 1.0);
        let a = est(20.0, 2.0);
        let r = ratio(a, b, 2.0, Z_95).unwrap();
        assert!(r.std_error < 1e-7);
        let f = r.fieller.unwrap();
        assert!((f.low - 2.0).abs() < 1e-6 && (f.high - 2.0).abs() < 1e-6);
    }

    #[test]
    fn insignificant_denominator_has_no_fieller_interval() {
        let r = ratio(est(1.0, 0.1), est(0.5, 0.4), 0.0, Z_95).unwrap();
        assert!(r.fieller.is_none());
        assert!(r.delta.contains(r.value));
    }

    #[test]
    fn bad_inputs_are_errors() {
        assert_eq!(
            ratio(est(1.0, 0.1), est(0.0, 0.1), 0.0, 2.0),
            Err(RatioError::ZeroDenominator(0.0))
        );
        assert_eq!(
            ratio(est(1.0, f64::NAN), est(1.0, 0.1), 0.0, 2.0),
            Err(RatioError::InvalidInput)
        );
        assert_eq!(
            ratio(est(1.0, 0.1), est(1.0, 0.1), 0.0, 0.0),
            Err(RatioError::InvalidZ(0.0))
        );
        assert!((Z_95 - 1.959_963_984_540_054).abs() < 1e-15);
    }
}
