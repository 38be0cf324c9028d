//! Elo scales and the fixed-sample estimators: logistic Elo and normalized
//! Elo (nElo) with 95% confidence intervals, and the likelihood of
//! superiority (LOS), all as Fishtest computes them.
//!
//! * Logistic Elo maps an expected score `s` to `−400·log10(1/s − 1)`.
//! * Normalized Elo measures the score excess in standard deviations per
//!   game: `nElo = (s − ½)/σ_game · 800/ln 10`, so it is inversely
//!   proportional to the square root of the number of games needed to
//!   detect the difference; with no draws and small differences the two
//!   scales coincide. For pentanomial counts `σ_game = √2·σ_pair`.
//!
//! Estimators follow `stat_util.get_elo` (Elo, interval, LOS) and the
//! "raw statistics" page of Fishtest (nElo and its interval), including
//! Fishtest's regularization of empty buckets (see [`crate::Counts`]).

use crate::counts::Counts;
use crate::normal::{self, Z_975};
use crate::pdf::Pdf;

/// Normalized Elo per unit of normalized t-value: `800 / ln 10`.
pub const NELO_PER_T: f64 = 347.435_585_522_601_46;

/// Fishtest clamps scores to `[ε, 1 − ε]` before converting them to Elo, so
/// that lopsided results give large but finite numbers.
const SCORE_CLAMP: f64 = 1e-3;

/// Invalid input to an Elo computation.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum EloError {
    /// The counts hold no game.
    #[error("no games have been recorded")]
    NoGames,
    /// A score must lie strictly between 0 and 1 to have a finite Elo.
    #[error("score {0} is not strictly between 0 and 1")]
    ScoreOutOfRange(f64),
    /// A standard error must be positive and finite.
    #[error("standard error {0} is not a positive finite number")]
    InvalidStdError(f64),
}

/// A two-sided confidence interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Interval {
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
}

impl Interval {
    /// Half the width: the "±" figure Fishtest prints.
    #[must_use]
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Whether `x` lies in the closed interval.
    #[must_use]
    pub fn contains(&self, x: f64) -> bool {
        self.low <= x && x <= self.high
    }
}

/// A logistic Elo estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// Point estimate, logistic Elo.
    pub elo: f64,
    /// 95% confidence interval, logistic Elo. For fixed-length matches it is
    /// the Elo image of the normal 95% interval of the mean score, hence not
    /// quite symmetric; Fishtest prints `elo ± interval.half_width()`.
    pub interval: Interval,
    /// Likelihood of superiority: the probability that the true Elo is
    /// positive.
    pub los: f64,
}

impl EloEstimate {
    /// `value` with this estimate's standard error (the half width of its
    /// 95% interval over z), as [`crate::ratio`] takes it: `value` is the
    /// estimate itself, or its negation for a measurement taken the other
    /// way round (the pawn a side gives in a piece-value calibration).
    #[must_use]
    pub fn as_normal(&self, value: f64) -> crate::NormalEstimate {
        let se = self.interval.half_width() / crate::Z_95;
        crate::NormalEstimate {
            value,
            variance: se * se,
        }
    }
}

/// A normalized Elo estimate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct NeloEstimate {
    /// Point estimate, normalized Elo.
    pub nelo: f64,
    /// 95% confidence interval, normalized Elo (symmetric).
    pub interval: Interval,
}

/// The expected score of a side `elo` logistic Elo stronger: `1/(1 + 10^(−elo/400))`.
#[must_use]
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10_f64.powf(-elo / 400.0))
}

/// The logistic Elo difference for an expected score: `−400·log10(1/s − 1)`.
///
/// # Errors
///
/// [`EloError::ScoreOutOfRange`] unless `0 < score < 1`.
pub fn score_to_elo(score: f64) -> Result<f64, EloError> {
    if score > 0.0 && score < 1.0 {
        Ok(-400.0 * (1.0 / score - 1.0).log10())
    } else {
        Err(EloError::ScoreOutOfRange(score))
    }
}

/// Likelihood of superiority from a mean score and its standard error:
/// `Φ((score − ½)/std_error)` under the normal approximation.
///
/// # Errors
///
/// [`EloError::ScoreOutOfRange`] unless `0 ≤ score ≤ 1`, and
/// [`EloError::InvalidStdError`] unless the standard error is positive and
/// finite.
pub fn los(score: f64, std_error: f64) -> Result<f64, EloError> {
    if !(0.0..=1.0).contains(&score) {
        return Err(EloError::ScoreOutOfRange(score));
    }
    if !(std_error > 0.0 && std_error.is_finite()) {
        return Err(EloError::InvalidStdError(std_error));
    }
    Ok(normal::cdf((score - 0.5) / std_error))
}

/// Fishtest's `stat_util.elo`: Elo of a score clamped to `[0.001, 0.999]`.
fn clamped_elo(score: f64) -> f64 {
    let s = score.clamp(SCORE_CLAMP, 1.0 - SCORE_CLAMP);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// `stat_util.get_elo`: the mean score per game `μ` and its standard error
/// `σ/√N` (per game for trinomial, per pair for pentanomial) from the
/// regularized counts, the normal 95% interval `μ ± z·σ/√N` mapped to Elo,
/// and LOS `Φ((μ − ½)/(σ/√N))`.
pub(crate) fn estimate(counts: &Counts) -> Result<EloEstimate, EloError> {
    let pdf = nonempty_pdf(counts)?;
    let (mean, variance) = pdf.mean_variance();
    let std_error = (variance / pdf.total()).sqrt();
    Ok(EloEstimate {
        elo: clamped_elo(mean),
        interval: Interval {
            low: clamped_elo(mean - Z_975 * std_error),
            high: clamped_elo(mean + Z_975 * std_error),
        },
        los: normal::cdf((mean - 0.5) / std_error),
    })
}

/// Fishtest's normalized Elo: the t-value `t = (μ − ½)/σ` of one sample
/// with the asymptotic variance `1 − t·skew + t²·(exkurt + 2)/4` of its
/// estimator, giving `t ± z·√(var_t/N)`; a pair's t-value is divided by √2
/// to express it per game, then everything is scaled by [`NELO_PER_T`].
pub(crate) fn nelo_estimate(counts: &Counts) -> Result<NeloEstimate, EloError> {
    let pdf = nonempty_pdf(counts)?;
    let m = pdf.moments();
    let t = (m.mean - 0.5) / m.variance.sqrt();
    let var_t = (1.0 - t * m.skewness + 0.25 * t * t * (m.excess_kurtosis + 2.0)).max(0.0);
    let half = Z_975 * (var_t / pdf.total()).sqrt();
    let per_game = match counts {
        Counts::Trinomial(_) => 1.0,
        Counts::Pentanomial(_) => std::f64::consts::FRAC_1_SQRT_2,
    };
    let scale = NELO_PER_T * per_game;
    Ok(NeloEstimate {
        nelo: scale * t,
        interval: Interval {
            low: scale * (t - half),
            high: scale * (t + half),
        },
    })
}

fn nonempty_pdf(counts: &Counts) -> Result<Pdf, EloError> {
    if counts.samples() == 0 {
        return Err(EloError::NoGames);
    }
    Ok(Pdf::regularized(&counts.buckets()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::{Pentanomial, Trinomial};

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Elo from a score with the textbook formula `400·log10(s/(1−s))`.
    fn textbook_elo(s: f64) -> f64 {
        400.0 * (s / (1.0 - s)).log10()
    }

    #[test]
    fn score_and_elo_round_trip() {
        for elo in [-800.0, -100.0, -5.0, 0.0, 3.5, 200.0, 1000.0] {
            let s = elo_to_score(elo);
            assert!(close(score_to_elo(s).unwrap(), elo, 1e-9), "{elo}");
        }
        assert_eq!(elo_to_score(0.0), 0.5);
        // 400 Elo stronger means ten-to-one odds.
        assert!(close(elo_to_score(400.0), 10.0 / 11.0, 1e-15));
        assert!(close(
            score_to_elo(0.75).unwrap(),
            190.848_501_887_864_98,
            1e-9
        ));
    }

    #[test]
    fn scores_outside_the_open_unit_interval_are_errors() {
        for s in [0.0, 1.0, -0.1, 1.5, f64::NAN] {
            assert!(matches!(score_to_elo(s), Err(EloError::ScoreOutOfRange(_))));
        }
        assert!(matches!(los(1.2, 0.1), Err(EloError::ScoreOutOfRange(_))));
        assert_eq!(los(0.5, 0.0), Err(EloError::InvalidStdError(0.0)));
        assert!(matches!(
            los(0.5, f64::NAN),
            Err(EloError::InvalidStdError(_))
        ));
    }

    #[test]
    fn los_is_phi_of_the_z_score() {
        assert_eq!(los(0.5, 0.01).unwrap(), 0.5);
        // One standard error above ½: Φ(1).
        assert!(close(
            los(0.51, 0.01).unwrap(),
            0.841_344_746_068_542_9,
            1e-12
        ));
        assert!(close(
            los(0.49, 0.01).unwrap(),
            0.158_655_253_931_457_05,
            1e-12
        ));
    }

    #[test]
    fn balanced_pentanomial_is_zero_elo() {
        let p = Pentanomial::new([10, 20, 40, 20, 10]);
        let e = p.elo().unwrap();
        assert!(close(e.elo, 0.0, 1e-12));
        assert!(close(e.los, 0.5, 1e-12));
        assert!(close(e.interval.low, -e.interval.high, 1e-9));
        // Standard error of the mean: √(var_pair / pairs) with var_pair = 0.075.
        let se = (0.075_f64 / 100.0).sqrt();
        assert!(close(
            e.interval.high,
            textbook_elo(0.5 + 1.959_963_984_540_054 * se),
            1e-9
        ));
        let n = p.nelo().unwrap();
        assert!(close(n.nelo, 0.0, 1e-12));
    }

    #[test]
    fn trinomial_elo_interval_and_los_by_hand() {
        // 30 wins, 50 draws, 20 losses: s = 0.55, var = 0.1225 per game.
        let e = Trinomial::new(20, 50, 30).elo().unwrap();
        let se = (0.1225_f64 / 100.0).sqrt();
        let z = 1.959_963_984_540_054;
        assert!(close(e.elo, textbook_elo(0.55), 1e-9));
        assert!(close(e.elo, 34.860_070_287_560_08, 1e-9));
        assert!(close(e.interval.low, textbook_elo(0.55 - z * se), 1e-9));
        assert!(close(e.interval.high, textbook_elo(0.55 + z * se), 1e-9));
        assert!(e.interval.contains(e.elo));
        // LOS = Φ(0.05/0.035) = Φ(1.428 571…).
        assert!(close(e.los, 0.923_436_274_490_165_2, 1e-12));
    }

    #[test]
    fn pentanomial_elo_matches_its_formula() {
        let counts = [372_u64, 17_511, 39_320, 17_934, 399];
        let n: f64 = counts.iter().map(|&c| c as f64).sum();
        let xs = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean: f64 = counts
            .iter()
            .zip(xs)
            .map(|(&c, x)| c as f64 * x)
            .sum::<f64>()
            / n;
        let var: f64 = counts
            .iter()
            .zip(xs)
            .map(|(&c, x)| c as f64 * (x - mean).powi(2))
            .sum::<f64>()
            / n;
        let se = (var / n).sqrt();
        let e = Pentanomial::new(counts).elo().unwrap();
        assert!(close(e.elo, textbook_elo(mean), 1e-9));
        assert!(close(
            e.interval.low,
            textbook_elo(mean - 1.959_963_984_540_054 * se),
            1e-9
        ));
        assert!(close(e.los, normal::cdf((mean - 0.5) / se), 1e-12));
    }

    #[test]
    fn nelo_by_hand_for_trinomial_and_pentanomial() {
        // Trinomial: nElo = (s − ½)/σ_game · 800/ln10.
        let t = Trinomial::new(20, 50, 30);
        let nelo = (0.55 - 0.5) / 0.1225_f64.sqrt() * 800.0 / 10_f64.ln();
        assert!(close(t.nelo().unwrap().nelo, nelo, 1e-9));

        // Pentanomial: σ_game = √(2·var_pair).
        let p = Pentanomial::new([5, 15, 50, 20, 10]);
        let (s, var_pair) = (p.score().unwrap(), p.variance().unwrap());
        let nelo = (s - 0.5) / (2.0 * var_pair).sqrt() * 800.0 / 10_f64.ln();
        let got = p.nelo().unwrap();
        assert!(close(got.nelo, nelo, 1e-9));
        assert!(got.interval.contains(got.nelo));
        assert!(close(
            got.interval.high - got.nelo,
            got.nelo - got.interval.low,
            1e-9
        ));
    }

    #[test]
    fn nelo_interval_uses_the_t_value_variance() {
        // Symmetric distribution at t = 0: var_t = 1, so the half width is
        // z/√N in t units; per game for pairs it is divided by √2.
        let p = Pentanomial::new([10, 20, 40, 20, 10]);
        let half = 1.959_963_984_540_054 / 10.0 / 2_f64.sqrt() * NELO_PER_T;
        assert!(close(p.nelo().unwrap().interval.half_width(), half, 1e-9));
        assert!(close(NELO_PER_T, 800.0 / 10_f64.ln(), 1e-12));
    }

    proptest::proptest! {
        #[test]
        fn estimates_are_consistent(buckets in proptest::array::uniform5(0_u64..5_000)) {
            proptest::prop_assume!(buckets.iter().any(|&n| n > 0));
            let p = Pentanomial::new(buckets);
            let e = p.elo().unwrap();
            let n = p.nelo().unwrap();
            proptest::prop_assert!(e.interval.low <= e.elo && e.elo <= e.interval.high);
            proptest::prop_assert!(n.interval.contains(n.nelo));
            proptest::prop_assert!((0.0..=1.0).contains(&e.los));
            // Elo, nElo and LOS agree on who is stronger.
            if e.elo > 1e-9 {
                proptest::prop_assert!(n.nelo > 0.0 && e.los > 0.5);
            } else if e.elo < -1e-9 {
                proptest::prop_assert!(n.nelo < 0.0 && e.los < 0.5);
            }
        }

        #[test]
        fn score_to_elo_inverts_elo_to_score(elo in -2_000.0..2_000.0_f64) {
            let back = score_to_elo(elo_to_score(elo)).unwrap();
            proptest::prop_assert!((back - elo).abs() < 1e-6 * (1.0 + elo.abs()));
        }
    }

    #[test]
    fn lopsided_results_stay_finite() {
        // Ten straight wins: Fishtest regularizes and clamps instead of
        // reporting infinite Elo.
        let e = Trinomial::new(0, 0, 10).elo().unwrap();
        assert!(e.elo.is_finite() && e.elo > 1000.0);
        assert!(close(e.elo, textbook_elo(0.999), 1e-9));
        assert!(e.interval.low.is_finite() && e.interval.high.is_finite());
        assert!(e.los > 0.99);
        let n = Trinomial::new(0, 0, 10).nelo().unwrap();
        assert!(n.nelo.is_finite() && n.interval.low.is_finite());
    }
}
