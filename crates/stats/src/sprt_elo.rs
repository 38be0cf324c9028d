//! Elo estimation after a sequential test (Fishtest's `sprt.py`).
//!
//! Stopping an SPRT when the LLR crosses a bound biases the naive Elo
//! estimate. Fishtest instead models the LLR as a Brownian motion (using the
//! "alt2" drift/variance approximation of M. Van den Bergh, *GSPRT
//! approximation*), reads the observed outcome as the point `(T, LLR)` —
//! clamped onto the bound the test crossed — and inverts the probability of
//! a worse outcome as a function of the true Elo, which yields a median
//! unbiased estimate, a confidence interval and the LOS.

use crate::brownian::Brownian;
use crate::counts::Counts;
use crate::elo::{EloEstimate, Interval, NELO_PER_T, elo_to_score};
use crate::llr::EloModel;
use crate::pdf::Pdf;
use crate::root::{RootError, brent};

/// Fishtest searches Elo in `[-1000, 1000]`.
const ELO_LIMIT: f64 = 1000.0;

/// Initial search half-width, in multiples of `elo1 − elo0`.
const INITIAL_SPAN: f64 = 30.0;

/// The hypotheses and bounds of a test, as the estimator needs them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Design {
    pub(crate) model: EloModel,
    pub(crate) elo0: f64,
    pub(crate) elo1: f64,
    pub(crate) lower: f64,
    pub(crate) upper: f64,
}

/// The observed state of a test in Fishtest's Brownian approximation.
struct State {
    design: Design,
    pdf: Pdf,
    /// Scores of the hypotheses.
    s0: f64,
    s1: f64,
    /// Elapsed "time" (samples) and LLR, clamped onto a crossed bound.
    time: f64,
    llr: f64,
}

/// The bias-corrected Elo estimate, 95% interval and LOS of a sequential
/// test with `design` that has seen `counts` (`sprt.analytics`). Always
/// logistic Elo, whatever the model of the bounds.
pub(crate) fn estimate(design: Design, counts: &Counts) -> EloEstimate {
    let state = State::new(design, counts);
    EloEstimate {
        elo: state.lower_cb(0.5),
        interval: Interval {
            low: state.lower_cb(0.025),
            high: state.lower_cb(0.975),
        },
        los: state.outcome_prob(0.0),
    }
}

impl State {
    /// `sprt.set_state`.
    fn new(design: Design, counts: &Counts) -> Self {
        let pdf = Pdf::regularized(&counts.buckets());
        let n = pdf.total();
        let to_score = |elo: f64| match design.model {
            EloModel::Logistic => elo_to_score(elo),
            EloModel::Normalized => {
                let var = pdf.mean_variance().1;
                let sigma_per_game = match counts {
                    Counts::Trinomial(_) => var.sqrt(),
                    Counts::Pentanomial(_) => (2.0 * var).sqrt(),
                };
                elo / NELO_PER_T * sigma_per_game + 0.5
            }
        };
        let (s0, s1) = (to_score(design.elo0), to_score(design.elo1));
        let (drift, _) = drift_variance(&pdf, s0, s1, None);
        let mut llr = n * drift;
        let mut time = n;
        // Put an overshooting LLR back on the bound, at the time the
        // average slope would have reached it.
        let slope = llr / n;
        if llr < design.lower {
            time = design.lower / slope;
            llr = design.lower;
        } else if llr > design.upper {
            time = design.upper / slope;
            llr = design.upper;
        }
        Self {
            design,
            pdf,
            s0,
            s1,
            time,
            llr,
        }
    }

    /// The probability of an outcome worse than the observed one if the true
    /// logistic Elo were `elo` (`sprt.outcome_prob`).
    fn outcome_prob(&self, elo: f64) -> f64 {
        let s = elo_to_score(elo);
        let (mu, var) = drift_variance(&self.pdf, self.s0, self.s1, Some(s));
        Brownian {
            a: self.design.lower,
            b: self.design.upper,
            mu,
            sigma2: var,
        }
        .outcome_cdf(self.time, self.llr)
    }

    /// The Elo at which the observed outcome is at the `p` quantile
    /// (`sprt.lower_cb`), widening the search like Fishtest.
    fn lower_cb(&self, p: f64) -> f64 {
        let (elo0, elo1) = (self.design.elo0, self.design.elo1);
        let centre = (elo0 + elo1) / 2.0;
        let delta = elo1 - elo0;
        let mut span = INITIAL_SPAN;
        loop {
            let lo = (centre - span * delta).max(-ELO_LIMIT);
            let hi = (centre + span * delta).min(ELO_LIMIT);
            match brent(|elo| self.outcome_prob(elo) - (1.0 - p), lo, hi) {
                Ok(elo) | Err(RootError::NoConvergence(elo)) => return elo,
                Err(RootError::NotBracketed) if lo > -ELO_LIMIT || hi < ELO_LIMIT => span *= 2.0,
                Err(RootError::NotBracketed) => {
                    return if self.outcome_prob(lo) - (1.0 - p) > 0.0 {
                        hi
                    } else {
                        lo
                    };
                }
            }
        }
    }
}

/// Drift and variance per sample of the LLR in the "alt2" approximation
/// (`LLRcalc.LLR_drift_variance_alt2`): with the empirical mean `ŝ` and
/// variance `v̂`, and a hypothetical true score `s` (default `ŝ`) whose
/// variance is taken as `v̂ + (s − ŝ)²`,
/// `drift = (s − (s0 + s1)/2)·(s1 − s0)/v` and `variance = (s1 − s0)²/v`.
fn drift_variance(pdf: &Pdf, s0: f64, s1: f64, s: Option<f64>) -> (f64, f64) {
    let (mean, var) = pdf.mean_variance();
    let (s, v) = match s {
        None => (mean, var),
        Some(s) => (s, var + (s - mean).powi(2)),
    };
    ((s - (s0 + s1) / 2.0) * (s1 - s0) / v, (s1 - s0).powi(2) / v)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::Pentanomial;

    fn design(model: EloModel, elo0: f64, elo1: f64, alpha: f64) -> Design {
        Design {
            model,
            elo0,
            elo1,
            lower: (alpha / (1.0 - alpha)).ln(),
            upper: ((1.0 - alpha) / alpha).ln(),
        }
    }

    #[test]
    fn far_from_the_bounds_it_is_the_fixed_sample_estimate() {
        // Tiny error rates put the bounds at ±13.8, out of reach of an LLR
        // path with standard deviation 0.3: the sequential correction must
        // then vanish, leaving the normal interval of the score.
        let counts = Counts::from(Pentanomial::new([100, 200, 400, 220, 90]));
        let d = design(EloModel::Logistic, -1.0, 1.0, 1e-6);
        let e = estimate(d, &counts);
        let fixed = counts.elo().unwrap();
        assert!(
            (e.elo - fixed.elo).abs() < 0.05,
            "{} vs {}",
            e.elo,
            fixed.elo
        );
        assert!(
            (e.interval.low - fixed.interval.low).abs() < 0.3,
            "{e:?} vs {fixed:?}"
        );
        assert!(
            (e.interval.high - fixed.interval.high).abs() < 0.3,
            "{e:?} vs {fixed:?}"
        );
        assert!((e.los - fixed.los).abs() < 1e-3);
    }

    #[test]
    fn stopped_test_estimate_is_ordered_and_probabilistic() {
        // An STC that passed {-0.25, 1.25}: LLR ≈ 2.95 at the upper bound.
        let counts = Counts::from(Pentanomial::new([292, 5_905, 28_939, 6_129, 299]));
        for model in [EloModel::Logistic, EloModel::Normalized] {
            let e = estimate(design(model, -0.25, 1.25, 0.05), &counts);
            assert!(e.interval.low < e.elo && e.elo < e.interval.high, "{e:?}");
            assert!(e.elo > 0.0 && e.elo < 3.0, "{e:?}");
            assert!(e.los > 0.9 && e.los <= 1.0, "{e:?}");
        }
    }

    #[test]
    fn early_stopping_pulls_the_estimate_back() {
        // A strong start that jumped over the upper bound of [0, 5] (LLR
        // ≈ 3.6 > 2.94): the sequential estimate shrinks the naive one.
        let counts = Counts::from(Pentanomial::new([30, 120, 240, 180, 60]));
        let d = design(EloModel::Logistic, 0.0, 5.0, 0.05);
        let llr = crate::llr::llr(EloModel::Logistic, 0.0, 5.0, &counts).unwrap();
        assert!(llr > d.upper, "{llr}");
        let e = estimate(d, &counts);
        let naive = counts.elo().unwrap();
        assert!(e.elo < naive.elo - 0.5, "{} vs naive {}", e.elo, naive.elo);
        assert!(e.interval.contains(e.elo) && e.elo > 0.0, "{e:?}");
    }

    #[test]
    fn agrees_with_a_transcription_of_fishtest() {
        // Reference numbers from a line-by-line transcription of Fishtest's
        // sprt.py and brownian.py (math.erfc for Φ, bisection for brentq).
        let cases = [
            (
                [30, 120, 240, 180, 60],
                (0.0, 5.0),
                [
                    32.338_155_890_943_824,
                    18.195_548_086_140_07,
                    46.964_652_227_261_47,
                    0.999_996_603_192_457_6,
                ],
            ),
            (
                [292, 5_905, 28_939, 6_129, 299],
                (-0.25, 1.25),
                [
                    0.760_528_539_670_990_7,
                    -0.407_580_171_776_885_66,
                    1.827_362_118_666_374_9,
                    0.906_191_432_618_237_3,
                ],
            ),
        ];
        for (buckets, (elo0, elo1), [elo, low, high, los]) in cases {
            let counts = Counts::from(Pentanomial::new(buckets));
            let e = estimate(design(EloModel::Logistic, elo0, elo1, 0.05), &counts);
            assert!((e.elo - elo).abs() < 1e-6, "{e:?}");
            assert!((e.interval.low - low).abs() < 1e-6, "{e:?}");
            assert!((e.interval.high - high).abs() < 1e-6, "{e:?}");
            assert!((e.los - los).abs() < 1e-9, "{e:?}");
        }
    }
}
