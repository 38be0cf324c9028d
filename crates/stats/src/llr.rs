//! The generalized log-likelihood ratio (GLLR) of Fishtest's GSPRT
//! (`LLRcalc.LLR_logistic` and `LLRcalc.LLR_normalized`).
//!
//! The results are a multinomial sample over 3 (game) or 5 (pair) score
//! buckets. For each hypothesis the likelihood is maximized over all
//! distributions satisfying it — the expected score equals `s` (logistic
//! model) or the t-value `(μ − ½)/σ` equals `t` (normalized model) — and the
//! statistic is `N·Σ p̂ᵢ·ln(p₁ᵢ/p₀ᵢ)` for the two maximizers `p₀`, `p₁` and
//! the (regularized) empirical frequencies `p̂`.
//!
//! The constrained maximum likelihood estimates solve a secular equation
//! (M. Van den Bergh, *A note on the MLE of a multinomial distribution with
//! a given expectation value*, Proposition 1.1; *Normalized Elo, practical
//! considerations*, section 4.1), found here with Brent's method like
//! Fishtest's `brentq`.

use crate::counts::Counts;
use crate::elo::{NELO_PER_T, elo_to_score};
use crate::pdf::Pdf;
use crate::root::brent;

/// Margin kept from the poles of the secular function (Fishtest's `epsilon`).
const POLE_MARGIN: f64 = 1e-9;

/// Fixed-point iterations for the t-value MLE (as in Fishtest).
const T_VALUE_ITERATIONS: usize = 10;

/// Convergence threshold of the t-value fixed point (as in Fishtest).
const T_VALUE_STEP: f64 = 1e-9;

/// Accepted error of the t-value MLE; Fishtest asserts the same bound.
const T_VALUE_CHECK: f64 = 1e-5;

/// Accepted error of the expectation MLE; Fishtest asserts the same bound.
const EXPECTATION_CHECK: f64 = 1e-6;

/// The Elo scale the SPRT hypotheses are stated in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EloModel {
    /// `elo0`/`elo1` are logistic Elo: the hypotheses fix the expected score.
    Logistic,
    /// `elo0`/`elo1` are normalized Elo: the hypotheses fix the t-value, so
    /// the test adapts to the draw rate (Fishtest's default for Stockfish).
    Normalized,
}

impl EloModel {
    /// Every model.
    pub const ALL: [EloModel; 2] = [EloModel::Logistic, EloModel::Normalized];

    /// The model's name in files, flags and reports: `logistic` or `normalized`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            EloModel::Logistic => "logistic",
            EloModel::Normalized => "normalized",
        }
    }
}

impl std::fmt::Display for EloModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

/// Text that names no [`EloModel`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("model '{0}' is neither normalized nor logistic")]
pub struct UnknownEloModel(pub String);

impl std::str::FromStr for EloModel {
    type Err = UnknownEloModel;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        EloModel::ALL
            .into_iter()
            .find(|m| m.as_str() == text)
            .ok_or_else(|| UnknownEloModel(text.to_owned()))
    }
}

/// Why a log-likelihood ratio could not be computed.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum LlrError {
    /// A hypothesis is not a finite Elo with an attainable score.
    #[error("Elo bound {0} is not finite or has no score strictly between 0 and 1")]
    InvalidBound(f64),
    /// No distribution on the score buckets satisfies a hypothesis, or the
    /// solver did not converge (Fishtest would fail an assertion here).
    #[error("no distribution of the results satisfies the hypothesis {0} (MLE failed)")]
    NoMle(f64),
}

/// The GLLR of `H1: elo = elo1` against `H0: elo = elo0` for `counts`, with
/// the bounds read in `model`.
///
/// Empty buckets are regularized as Fishtest does, so empty counts are
/// allowed and give an LLR of (almost) zero.
///
/// # Errors
///
/// [`LlrError::InvalidBound`] if a bound is not finite (or, for the logistic
/// model, so extreme that its score rounds to 0 or 1);
/// [`LlrError::NoMle`] if a hypothesis is unattainable for these buckets,
/// e.g. a normalized bound far beyond any realistic value.
pub fn llr(model: EloModel, elo0: f64, elo1: f64, counts: &Counts) -> Result<f64, LlrError> {
    let pdf = Pdf::regularized(&counts.buckets());
    let (p0, p1) = match model {
        EloModel::Logistic => {
            let s0 = logistic_score(elo0)?;
            let s1 = logistic_score(elo1)?;
            (mle_expected(&pdf, s0)?, mle_expected(&pdf, s1)?)
        }
        EloModel::Normalized => {
            let t0 = t_value(elo0, counts)?;
            let t1 = t_value(elo1, counts)?;
            (mle_t_value(&pdf, 0.5, t0)?, mle_t_value(&pdf, 0.5, t1)?)
        }
    };
    let per_sample: f64 = pdf
        .probs()
        .iter()
        .zip(p0.probs().iter().zip(p1.probs()))
        .map(|(&p, (&q0, &q1))| p * (q1.ln() - q0.ln()))
        .sum();
    Ok(pdf.total() * per_sample)
}

/// The expected score of a logistic bound, strictly inside `(0, 1)`.
pub(crate) fn logistic_score(elo: f64) -> Result<f64, LlrError> {
    let s = elo_to_score(elo);
    if elo.is_finite() && s > 0.0 && s < 1.0 {
        Ok(s)
    } else {
        Err(LlrError::InvalidBound(elo))
    }
}

/// The per-sample t-value of a normalized bound: per game for trinomial
/// counts, `√2` times that for pairs.
fn t_value(nelo: f64, counts: &Counts) -> Result<f64, LlrError> {
    if !nelo.is_finite() {
        return Err(LlrError::InvalidBound(nelo));
    }
    let nt = nelo / NELO_PER_T;
    Ok(match counts {
        Counts::Trinomial(_) => nt,
        Counts::Pentanomial(_) => nt * std::f64::consts::SQRT_2,
    })
}

/// Solves the secular equation `Σ pᵢ·aᵢ/(1 + x·aᵢ) = 0` for `x` between the
/// poles `−1/max(a)` and `−1/min(a)`; needs `min(a) < 0 < max(a)`.
fn secular(shifted: &[f64], probs: &[f64], target: f64) -> Result<f64, LlrError> {
    let lo_value = shifted.iter().copied().fold(f64::INFINITY, f64::min);
    let hi_value = shifted.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let straddles_zero = lo_value < 0.0 && hi_value > 0.0;
    if !straddles_zero {
        return Err(LlrError::NoMle(target));
    }
    let f = |x: f64| -> f64 {
        shifted
            .iter()
            .zip(probs)
            .map(|(&a, &p)| p * a / (1.0 + x * a))
            .sum()
    };
    brent(
        f,
        -1.0 / hi_value + POLE_MARGIN,
        -1.0 / lo_value - POLE_MARGIN,
    )
    .map_err(|_| LlrError::NoMle(target))
}

/// The distribution on `pdf`'s support with expected score `s` that
/// maximizes the likelihood of the observed frequencies
/// (`LLRcalc.MLE_expected`): `pᵢ = p̂ᵢ/(1 + x·(aᵢ − s))`.
pub(crate) fn mle_expected(pdf: &Pdf, s: f64) -> Result<Pdf, LlrError> {
    let shifted: Vec<f64> = pdf.values().iter().map(|&a| a - s).collect();
    let x = secular(&shifted, pdf.probs(), s)?;
    let probs = pdf
        .probs()
        .iter()
        .zip(&shifted)
        .map(|(&p, &a)| p / (1.0 + x * a))
        .collect();
    let mle = pdf.with_probs(probs);
    if (mle.mean_variance().0 - s).abs() < EXPECTATION_CHECK {
        Ok(mle)
    } else {
        Err(LlrError::NoMle(s))
    }
}

/// The distribution on `pdf`'s support with t-value `(μ − reference)/σ = t`
/// that maximizes the likelihood of the observed frequencies
/// (`LLRcalc.MLE_t_value`), by Fishtest's fixed-point iteration from the
/// uniform distribution.
fn mle_t_value(pdf: &Pdf, reference: f64, t: f64) -> Result<Pdf, LlrError> {
    let n = pdf.len();
    let mut current = pdf.with_probs(vec![1.0 / to_count(n); n]);
    for _ in 0..T_VALUE_ITERATIONS {
        let (mu, var) = current.mean_variance();
        let sigma = var.sqrt();
        let shifted: Vec<f64> = pdf
            .values()
            .iter()
            .map(|&a| a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0)
            .collect();
        let x = secular(&shifted, pdf.probs(), t)?;
        let probs: Vec<f64> = pdf
            .probs()
            .iter()
            .zip(&shifted)
            .map(|(&p, &a)| p / (1.0 + x * a))
            .collect();
        let step = probs
            .iter()
            .zip(current.probs())
            .map(|(new, old)| (new - old).abs())
            .fold(0.0, f64::max);
        current = pdf.with_probs(probs);
        if step < T_VALUE_STEP {
            break;
        }
    }
    let (mu, var) = current.mean_variance();
    if (t - (mu - reference) / var.sqrt()).abs() < T_VALUE_CHECK {
        Ok(current)
    } else {
        Err(LlrError::NoMle(t))
    }
}

/// `n` as `f64` for a bucket count (3 or 5).
fn to_count(n: usize) -> f64 {
    f64::from(u32::try_from(n).unwrap_or(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::{Pentanomial, Trinomial};

    #[test]
    fn models_round_trip_through_their_names() {
        for m in EloModel::ALL {
            assert_eq!(m.to_string().parse::<EloModel>(), Ok(m));
        }
        assert!("bayes".parse::<EloModel>().is_err());
    }

    fn penta(b: [u64; 5]) -> Counts {
        Pentanomial::new(b).into()
    }

    /// Final LLRs that Fishtest printed for Stockfish tests (two decimals),
    /// quoted in Stockfish commit messages; `{…}` bounds are logistic,
    /// `<…>` normalized.
    #[test]
    fn matches_fishtest_reported_llrs() {
        // Dec 2020 STC, LLR: 2.95 (-2.94,2.94) {-0.25,1.25},
        // Ptnml(0-2): 292, 5905, 28939, 6129, 299.
        let l = llr(
            EloModel::Logistic,
            -0.25,
            1.25,
            &penta([292, 5_905, 28_939, 6_129, 299]),
        )
        .unwrap();
        assert!((l - 2.95).abs() <= 0.005, "{l}");
        // Its LTC, LLR: 2.92 (-2.94,2.94) {0.25,1.25}, Ptnml: 5, 418, 6043, 506, 12.
        let l = llr(
            EloModel::Logistic,
            0.25,
            1.25,
            &penta([5, 418, 6_043, 506, 12]),
        )
        .unwrap();
        assert!((l - 2.92).abs() <= 0.005, "{l}");
        // "Multi cut pruning correction history" STC, LLR: 2.93 (-2.94,2.94)
        // <0.00,2.00>, Ptnml(0-2): 372, 17511, 39320, 17934, 399.
        let l = llr(
            EloModel::Normalized,
            0.0,
            2.0,
            &penta([372, 17_511, 39_320, 17_934, 399]),
        )
        .unwrap();
        assert!((l - 2.93).abs() <= 0.005, "{l}");
        // Its LTC, LLR: 2.96 (-2.94,2.94) <0.50,2.50>, Ptnml: 39, 11353, 31686, 11822, 33.
        let l = llr(
            EloModel::Normalized,
            0.5,
            2.5,
            &penta([39, 11_353, 31_686, 11_822, 33]),
        )
        .unwrap();
        assert!((l - 2.96).abs() <= 0.005, "{l}");
    }

    /// For three buckets the constrained MLE is a one-dimensional concave
    /// problem: with the draw probability `d`, `w = s − d/2` and
    /// `l = 1 − s − d/2`. Maximize by golden-section search, independently
    /// of the secular equation.
    fn brute_force_trinomial_llr(s0: f64, s1: f64, n: [f64; 3]) -> f64 {
        let loglik = |s: f64, d: f64| {
            n[0] * (1.0 - s - d / 2.0).ln() + n[1] * d.ln() + n[2] * (s - d / 2.0).ln()
        };
        let best = |s: f64| {
            let (mut lo, mut hi) = (1e-12, 2.0 * s.min(1.0 - s) - 1e-12);
            let g = (5_f64.sqrt() - 1.0) / 2.0;
            for _ in 0..200 {
                let m1 = hi - g * (hi - lo);
                let m2 = lo + g * (hi - lo);
                if loglik(s, m1) < loglik(s, m2) {
                    lo = m1;
                } else {
                    hi = m2;
                }
            }
            loglik(s, (lo + hi) / 2.0)
        };
        best(s1) - best(s0)
    }

    #[test]
    fn trinomial_logistic_llr_agrees_with_brute_force() {
        for (counts, elo0, elo1) in [
            ([20_u64, 50, 30], 0.0, 5.0),
            ([1_000, 2_500, 1_100], -3.0, 1.0),
            ([4_000, 1_000, 4_400], 0.0, 10.0),
            ([500, 9_000, 420], 0.0, 2.0),
        ] {
            let n = counts.map(|c| c as f64);
            let want = brute_force_trinomial_llr(elo_to_score(elo0), elo_to_score(elo1), n);
            let t = Trinomial::new(counts[0], counts[1], counts[2]);
            let got = llr(EloModel::Logistic, elo0, elo1, &t.into()).unwrap();
            assert!((got - want).abs() < 1e-6, "{counts:?}: {got} vs {want}");
        }
    }

    #[test]
    fn expectation_mle_is_feasible_and_maximal() {
        let pdf = Pdf::regularized(&[30, 80, 150, 90, 40]);
        let s = 0.52;
        let mle = mle_expected(&pdf, s).unwrap();
        let (mean, _) = mle.mean_variance();
        assert!((mean - s).abs() < 1e-9);
        assert!((mle.probs().iter().sum::<f64>() - 1.0).abs() < 1e-9);
        let loglik =
            |q: &[f64]| -> f64 { pdf.probs().iter().zip(q).map(|(&p, &q)| p * q.ln()).sum() };
        let best = loglik(mle.probs());
        // Directions keeping total mass and mean fixed: d ⟂ 1 and d ⟂ values.
        let directions = [
            [1.0, -2.0, 1.0, 0.0, 0.0],
            [0.0, 1.0, -2.0, 1.0, 0.0],
            [1.0, -1.0, -1.0, 1.0, 0.0],
        ];
        for d in directions {
            for eps in [1e-4, -1e-4] {
                let q: Vec<f64> = mle
                    .probs()
                    .iter()
                    .zip(d)
                    .map(|(&p, d)| p + eps * d)
                    .collect();
                assert!(loglik(&q) < best);
            }
        }
    }

    #[test]
    fn t_value_mle_hits_its_target() {
        let pdf = Pdf::regularized(&[30, 80, 150, 90, 40]);
        for t in [-0.1, 0.0, 0.05, 0.2] {
            let mle = mle_t_value(&pdf, 0.5, t).unwrap();
            let (mu, var) = mle.mean_variance();
            assert!(((mu - 0.5) / var.sqrt() - t).abs() < 1e-5);
        }
    }

    #[test]
    fn llr_sign_and_symmetry() {
        let even = penta([100, 200, 400, 200, 100]);
        // Data exactly halfway between the hypotheses: LLR 0 by symmetry.
        let l = llr(EloModel::Logistic, -2.0, 2.0, &even).unwrap();
        assert!(l.abs() < 1e-9, "{l}");
        // Data at H0 favours H0.
        assert!(llr(EloModel::Logistic, 0.0, 5.0, &even).unwrap() < 0.0);
        assert!(llr(EloModel::Logistic, -5.0, 0.0, &even).unwrap() > 0.0);
        assert!(llr(EloModel::Normalized, 0.0, 5.0, &even).unwrap() < 0.0);
    }

    proptest::proptest! {
        #[test]
        fn swapping_the_hypotheses_negates_the_llr(
            buckets in proptest::array::uniform5(0_u64..2_000),
            elo0 in -10.0..10.0_f64,
            width in 0.5..10.0_f64,
        ) {
            let counts = penta(buckets);
            for model in [EloModel::Logistic, EloModel::Normalized] {
                let forward = llr(model, elo0, elo0 + width, &counts).unwrap();
                let backward = llr(model, elo0 + width, elo0, &counts).unwrap();
                proptest::prop_assert!((forward + backward).abs() < 1e-9 * (1.0 + forward.abs()));
            }
        }
    }

    #[test]
    fn empty_counts_give_zero_llr() {
        let l = llr(EloModel::Logistic, 0.0, 5.0, &Trinomial::default().into()).unwrap();
        assert!(l.abs() < 1e-5);
        let l = llr(
            EloModel::Normalized,
            0.0,
            5.0,
            &Pentanomial::default().into(),
        )
        .unwrap();
        assert!(l.abs() < 1e-5);
    }

    #[test]
    fn invalid_bounds_are_typed_errors() {
        let c = penta([1, 2, 3, 2, 1]);
        assert!(matches!(
            llr(EloModel::Logistic, f64::NAN, 5.0, &c),
            Err(LlrError::InvalidBound(_))
        ));
        assert!(matches!(
            llr(EloModel::Logistic, 0.0, 1e6, &c),
            Err(LlrError::InvalidBound(_))
        ));
        assert!(matches!(
            llr(EloModel::Normalized, f64::INFINITY, 5.0, &c),
            Err(LlrError::InvalidBound(_))
        ));
        // A normalized Elo of 2000 would need a t-value no score distribution has.
        assert!(matches!(
            llr(EloModel::Normalized, 0.0, 2_000.0, &c),
            Err(LlrError::NoMle(_))
        ));
    }
}
