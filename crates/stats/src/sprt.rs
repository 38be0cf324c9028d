//! The sequential probability ratio test as Fishtest runs it
//! (`stat_util.SPRT` / `update_SPRT`): the generalized LLR of [`crate::llr`]
//! against Wald's bounds `ln(β/(1−α))` and `ln((1−β)/α)`, tightened by a
//! dynamic overshoot correction.
//!
//! # Overshoot correction
//!
//! Results arrive in batches, so the LLR jumps over a bound rather than
//! touching it, and the realised error rates exceed the nominal ones. Fishtest
//! estimates the expected overshoot from the path itself (D. Siegmund,
//! *Sequential Analysis*, Corollary 8.33): every time the LLR reaches a new
//! minimum (maximum), the size `δ` of that ladder step is accumulated, and
//! the expected overshoot over the lower (upper) bound is `Σδ²/(2·Σδ)`. The
//! lower bound is raised, and the upper bound lowered, by these amounts.
//! This needs every batch to be seen: when updates skip batches the ladder
//! statistics restart, and when a count is not a multiple of the batch size
//! or the counts shrink the correction is dropped for good, as in Fishtest.

use std::fmt;
use std::num::NonZeroU64;

use crate::counts::Counts;
use crate::elo::EloEstimate;
use crate::llr::{self, EloModel, LlrError};
use crate::sprt_elo::{self, Design};

/// Fishtest's default for both error probabilities.
pub const DEFAULT_ERROR_RATE: f64 = 0.05;

/// The design of an SPRT, unvalidated; [`Sprt::new`] checks it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtConfig {
    /// The null hypothesis `H0: elo = elo0`.
    pub elo0: f64,
    /// The alternative `H1: elo = elo1`; must exceed `elo0`.
    pub elo1: f64,
    /// The scale of `elo0` and `elo1`.
    pub model: EloModel,
    /// Probability of accepting H1 when H0 holds, in `(0, 0.5)`.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds, in `(0, 0.5)`.
    pub beta: f64,
    /// Samples (games for trinomial counts, pairs for pentanomial) between
    /// two updates; the overshoot correction relies on it.
    pub batch_size: NonZeroU64,
}

impl SprtConfig {
    /// A design with Fishtest's defaults: `α = β = 0.05`, updates after
    /// every sample.
    #[must_use]
    pub const fn new(elo0: f64, elo1: f64, model: EloModel) -> Self {
        Self {
            elo0,
            elo1,
            model,
            alpha: DEFAULT_ERROR_RATE,
            beta: DEFAULT_ERROR_RATE,
            batch_size: NonZeroU64::MIN,
        }
    }

    /// The same design with another batch size.
    #[must_use]
    pub const fn with_batch_size(self, batch_size: NonZeroU64) -> Self {
        Self { batch_size, ..self }
    }
}

/// One reason an [`SprtConfig`] is invalid.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SprtViolation {
    /// `alpha` is not in `(0, 0.5)`.
    #[error("alpha {0} is not strictly between 0 and 0.5")]
    AlphaOutOfRange(f64),
    /// `beta` is not in `(0, 0.5)`.
    #[error("beta {0} is not strictly between 0 and 0.5")]
    BetaOutOfRange(f64),
    /// A bound is not finite, or (logistic) its score rounds to 0 or 1.
    #[error("Elo bound {0} is not usable")]
    InvalidBound(f64),
    /// `elo0 < elo1` does not hold.
    #[error("elo0 {elo0} is not below elo1 {elo1}")]
    BoundsNotIncreasing {
        /// The null hypothesis.
        elo0: f64,
        /// The alternative.
        elo1: f64,
    },
}

/// An invalid [`SprtConfig`], with every violation found.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("invalid SPRT configuration: {}", list(.violations))]
pub struct InvalidSprtConfig {
    /// What is wrong, at least one item.
    pub violations: Vec<SprtViolation>,
}

fn list(violations: &[SprtViolation]) -> String {
    violations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Why an SPRT update or estimate failed; the test state is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SprtError {
    /// Trinomial and pentanomial counts were mixed in one test.
    #[error("the results switched between trinomial and pentanomial counts")]
    MixedCounts,
    /// The estimate needs at least one update.
    #[error("no results have been fed to the test yet")]
    NoResults,
    /// The log-likelihood ratio could not be computed.
    #[error(transparent)]
    Llr(#[from] LlrError),
}

/// The verdict of an SPRT.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// Neither bound crossed yet: play on.
    Continue,
    /// The LLR fell below the lower bound: H0 accepted (Fishtest: "rejected").
    AcceptH0,
    /// The LLR rose above the upper bound: H1 accepted (Fishtest: "accepted").
    AcceptH1,
}

/// Lower and upper LLR stopping bounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LlrBounds {
    /// Stop and accept H0 below this.
    pub lower: f64,
    /// Stop and accept H1 above this.
    pub upper: f64,
}

/// Ladder statistics of the LLR path for the overshoot correction
/// (Fishtest's `sprt["overshoot"]`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Overshoot {
    last_update: u64,
    /// Running minimum, sum and sum of squares of its decreases.
    ref0: f64,
    m0: f64,
    sq0: f64,
    /// Running maximum, sum and sum of squares of its increases.
    ref1: f64,
    m1: f64,
    sq1: f64,
}

impl Overshoot {
    /// Records the LLR after `samples` samples.
    fn record(&mut self, samples: u64, llr: f64, batch: u64) {
        if samples == self.last_update {
            return;
        }
        if samples - self.last_update == batch {
            if llr < self.ref0 {
                let delta = llr - self.ref0;
                self.m0 += delta;
                self.sq0 += delta * delta;
                self.ref0 = llr;
            }
            if llr > self.ref1 {
                let delta = llr - self.ref1;
                self.m1 += delta;
                self.sq1 += delta * delta;
                self.ref1 = llr;
            }
        } else {
            // Updates were missed: restart the ladders from here.
            self.ref0 = llr;
            self.ref1 = llr;
        }
        self.last_update = samples;
    }

    /// Expected overshoot below the lower and above the upper bound.
    fn expected(&self) -> (f64, f64) {
        let o0 = if self.m0 == 0.0 {
            0.0
        } else {
            -self.sq0 / self.m0 / 2.0
        };
        let o1 = if self.m1 == 0.0 {
            0.0
        } else {
            self.sq1 / self.m1 / 2.0
        };
        (o0, o1)
    }
}

/// A running SPRT: feed it the cumulative counts after each batch and read
/// its [`Status`].
///
/// The verdict is final: once a bound is crossed the test stays where it
/// decided (its LLR, counts and estimate). Later updates, the results of
/// games that were in flight, change nothing: they were played after the
/// verdict, and the caller reports them as such.
#[derive(Clone, Debug, PartialEq)]
pub struct Sprt {
    config: SprtConfig,
    bounds: LlrBounds,
    llr: f64,
    status: Status,
    overshoot: Option<Overshoot>,
    last: Option<Counts>,
}

impl Sprt {
    /// Starts a test.
    ///
    /// # Errors
    ///
    /// [`InvalidSprtConfig`] listing every problem: error rates outside
    /// `(0, 0.5)`, unusable bounds, or `elo0 ≥ elo1`.
    pub fn new(config: SprtConfig) -> Result<Self, InvalidSprtConfig> {
        let mut violations = Vec::new();
        if !(config.alpha > 0.0 && config.alpha < 0.5) {
            violations.push(SprtViolation::AlphaOutOfRange(config.alpha));
        }
        if !(config.beta > 0.0 && config.beta < 0.5) {
            violations.push(SprtViolation::BetaOutOfRange(config.beta));
        }
        let mut bounds_usable = true;
        for elo in [config.elo0, config.elo1] {
            let usable = match config.model {
                EloModel::Logistic => llr::logistic_score(elo).is_ok(),
                EloModel::Normalized => elo.is_finite(),
            };
            if !usable {
                bounds_usable = false;
                violations.push(SprtViolation::InvalidBound(elo));
            }
        }
        if bounds_usable && config.elo0 >= config.elo1 {
            violations.push(SprtViolation::BoundsNotIncreasing {
                elo0: config.elo0,
                elo1: config.elo1,
            });
        }
        if !violations.is_empty() {
            return Err(InvalidSprtConfig { violations });
        }
        let (alpha, beta) = (config.alpha, config.beta);
        Ok(Self {
            config,
            bounds: LlrBounds {
                lower: (beta / (1.0 - alpha)).ln(),
                upper: ((1.0 - beta) / alpha).ln(),
            },
            llr: 0.0,
            status: Status::Continue,
            overshoot: Some(Overshoot::default()),
            last: None,
        })
    }

    /// The design.
    #[must_use]
    pub const fn config(&self) -> &SprtConfig {
        &self.config
    }

    /// Wald's bounds `ln(β/(1−α))` and `ln((1−β)/α)`.
    #[must_use]
    pub const fn bounds(&self) -> LlrBounds {
        self.bounds
    }

    /// The bounds in force: Wald's, moved inwards by the expected overshoot.
    #[must_use]
    pub fn effective_bounds(&self) -> LlrBounds {
        let (o0, o1) = self.overshoot.map_or((0.0, 0.0), |o| o.expected());
        LlrBounds {
            lower: self.bounds.lower + o0,
            upper: self.bounds.upper - o1,
        }
    }

    /// The LLR after the last update (0 before any).
    #[must_use]
    pub const fn llr(&self) -> f64 {
        self.llr
    }

    /// The verdict so far.
    #[must_use]
    pub const fn status(&self) -> Status {
        self.status
    }

    /// The counts of the last update.
    #[must_use]
    pub const fn counts(&self) -> Option<&Counts> {
        self.last.as_ref()
    }

    /// Feeds the cumulative counts after a batch and returns the verdict.
    ///
    /// Call it once per completed batch of [`SprtConfig::batch_size`]
    /// samples; repeating an update with the same counts is harmless.
    ///
    /// # Errors
    ///
    /// [`SprtError::MixedCounts`] if the kind of counts changed, and
    /// [`SprtError::Llr`] if the LLR cannot be computed (e.g. normalized
    /// bounds no distribution attains); the state is then left unchanged.
    pub fn update(&mut self, counts: impl Into<Counts>) -> Result<Status, SprtError> {
        let counts = counts.into();
        if self.last.is_some_and(|last| !last.same_kind(&counts)) {
            return Err(SprtError::MixedCounts);
        }
        if self.status != Status::Continue {
            return Ok(self.status);
        }
        let llr = llr::llr(
            self.config.model,
            self.config.elo0,
            self.config.elo1,
            &counts,
        )?;
        self.llr = llr;
        self.last = Some(counts);

        let samples = counts.samples();
        let batch = self.config.batch_size.get();
        if !samples.is_multiple_of(batch) {
            self.overshoot = None;
        }
        if let Some(o) = &mut self.overshoot {
            if samples < o.last_update {
                self.overshoot = None;
            } else {
                o.record(samples, llr, batch);
            }
        }

        let bounds = self.effective_bounds();
        if llr < bounds.lower {
            self.status = Status::AcceptH0;
        } else if llr > bounds.upper {
            self.status = Status::AcceptH1;
        }
        Ok(self.status)
    }

    /// Logistic Elo, 95% interval and LOS corrected for the sequential
    /// stopping, as Fishtest reports them for SPRT tests (`SPRT_elo`).
    ///
    /// Stopping at a bound biases the naive estimate. Following Fishtest's
    /// `sprt.py`, the LLR is modelled as a Brownian motion between the Wald
    /// bounds, the observed outcome as its point `(samples, LLR)` clamped
    /// onto the crossed bound, and the Elo at which a worse outcome has
    /// probability ½ (2.5%, 97.5%) is the estimate (interval ends); LOS is
    /// that probability at Elo 0. The result is logistic Elo for both
    /// models.
    ///
    /// # Errors
    ///
    /// [`SprtError::NoResults`] before the first update.
    pub fn estimate(&self) -> Result<EloEstimate, SprtError> {
        let counts = self.last.ok_or(SprtError::NoResults)?;
        let design = Design {
            model: self.config.model,
            elo0: self.config.elo0,
            elo1: self.config.elo1,
            lower: self.bounds.lower,
            upper: self.bounds.upper,
        };
        Ok(sprt_elo::estimate(design, &counts))
    }
}

impl TryFrom<SprtConfig> for Sprt {
    type Error = InvalidSprtConfig;

    fn try_from(config: SprtConfig) -> Result<Self, Self::Error> {
        Self::new(config)
    }
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Self::Continue => "continue",
            Self::AcceptH0 => "H0 accepted",
            Self::AcceptH1 => "H1 accepted",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counts::{Pentanomial, Trinomial};
    use crate::elo::{NELO_PER_T, elo_to_score};
    use crate::rng::{RandomSource, SplitMix64};

    const fn batch(n: u64) -> NonZeroU64 {
        match NonZeroU64::new(n) {
            Some(b) => b,
            None => NonZeroU64::MIN,
        }
    }

    #[test]
    fn wald_bounds() {
        let s = Sprt::new(SprtConfig::new(0.0, 2.0, EloModel::Normalized)).unwrap();
        // ln(0.05/0.95) = −2.944…, Fishtest prints (-2.94,2.94).
        assert!((s.bounds().lower - (0.05_f64 / 0.95).ln()).abs() < 1e-15);
        assert!((s.bounds().upper - 2.944_438_979_166_44).abs() < 1e-12);
        assert_eq!(s.effective_bounds(), s.bounds());
        assert_eq!(s.status(), Status::Continue);
        assert_eq!(s.llr(), 0.0);
        let s = Sprt::new(SprtConfig {
            alpha: 0.01,
            beta: 0.1,
            ..s.config
        })
        .unwrap();
        assert!((s.bounds().lower - (0.1_f64 / 0.99).ln()).abs() < 1e-15);
        assert!((s.bounds().upper - (0.9_f64 / 0.01).ln()).abs() < 1e-15);
    }

    #[test]
    fn invalid_designs_report_every_violation() {
        let bad = SprtConfig {
            alpha: 0.5,
            beta: 0.0,
            ..SprtConfig::new(5.0, 0.0, EloModel::Logistic)
        };
        let err = Sprt::new(bad).unwrap_err();
        assert_eq!(
            err.violations,
            vec![
                SprtViolation::AlphaOutOfRange(0.5),
                SprtViolation::BetaOutOfRange(0.0),
                SprtViolation::BoundsNotIncreasing {
                    elo0: 5.0,
                    elo1: 0.0
                },
            ]
        );
        assert!(err.to_string().contains("alpha 0.5"));
        assert!(err.to_string().contains("elo0 5 is not below elo1 0"));

        let err = Sprt::new(SprtConfig::new(1.0, 1.0, EloModel::Normalized)).unwrap_err();
        assert_eq!(
            err.violations,
            vec![SprtViolation::BoundsNotIncreasing {
                elo0: 1.0,
                elo1: 1.0
            }]
        );
        let err = Sprt::new(SprtConfig::new(0.0, f64::NAN, EloModel::Normalized)).unwrap_err();
        assert!(matches!(
            err.violations[..],
            [SprtViolation::InvalidBound(_)]
        ));
        let err = Sprt::new(SprtConfig::new(-1e6, 0.0, EloModel::Logistic)).unwrap_err();
        assert_eq!(err.violations, vec![SprtViolation::InvalidBound(-1e6)]);
        assert!(
            Sprt::new(SprtConfig {
                alpha: f64::NAN,
                ..SprtConfig::new(0.0, 2.0, EloModel::Logistic)
            })
            .is_err()
        );
    }

    #[test]
    fn update_uses_fishtests_llr() {
        let mut s = Sprt::new(SprtConfig::new(-0.25, 1.25, EloModel::Logistic)).unwrap();
        let counts = Pentanomial::new([292, 5_905, 28_939, 6_129, 299]);
        // LLR 2.95 > 2.944: accepted even without overshoot data (one jump).
        assert_eq!(s.update(counts), Ok(Status::AcceptH1));
        assert!((s.llr() - 2.95).abs() <= 0.005);
        assert_eq!(s.counts(), Some(&Counts::from(counts)));
    }

    #[test]
    fn mixing_kinds_is_an_error_and_changes_nothing() {
        let mut s = Sprt::new(SprtConfig::new(0.0, 5.0, EloModel::Logistic)).unwrap();
        s.update(Trinomial::new(10, 20, 12)).unwrap();
        let before = s.clone();
        assert_eq!(
            s.update(Pentanomial::new([1, 2, 3, 2, 1])),
            Err(SprtError::MixedCounts)
        );
        assert_eq!(s, before);
    }

    #[test]
    fn unattainable_normalized_bounds_are_errors() {
        let mut s = Sprt::new(SprtConfig::new(0.0, 3_000.0, EloModel::Normalized)).unwrap();
        assert!(matches!(
            s.update(Pentanomial::new([1, 2, 3, 2, 1])),
            Err(SprtError::Llr(LlrError::NoMle(_)))
        ));
        assert_eq!(s.counts(), None);
    }

    #[test]
    fn estimate_needs_results() {
        let mut s = Sprt::new(SprtConfig::new(0.0, 5.0, EloModel::Logistic)).unwrap();
        assert_eq!(s.estimate(), Err(SprtError::NoResults));
        s.update(Pentanomial::new([10, 30, 80, 35, 12])).unwrap();
        let e = s.estimate().unwrap();
        assert!(e.interval.contains(e.elo));
    }

    #[test]
    fn overshoot_ladder_bookkeeping() {
        // Feed a deterministic walk; recompute the ladder statistics by hand
        // from the LLRs the test reports.
        let mut s =
            Sprt::new(SprtConfig::new(0.0, 10.0, EloModel::Logistic).with_batch_size(batch(4)))
                .unwrap();
        let mut counts = [0_u64; 5];
        let pattern = [
            [0, 1, 2, 1, 0],
            [1, 1, 1, 1, 0],
            [0, 0, 2, 1, 1],
            [1, 2, 1, 0, 0],
        ];
        let (mut ref0, mut m0, mut sq0, mut ref1, mut m1, mut sq1) =
            (0.0_f64, 0.0, 0.0, 0.0_f64, 0.0, 0.0);
        for step in 0..40 {
            for (c, add) in counts.iter_mut().zip(pattern[step % 4]) {
                *c += add;
            }
            s.update(Pentanomial::new(counts)).unwrap();
            let l = s.llr();
            if l < ref0 {
                m0 += l - ref0;
                sq0 += (l - ref0).powi(2);
                ref0 = l;
            }
            if l > ref1 {
                m1 += l - ref1;
                sq1 += (l - ref1).powi(2);
                ref1 = l;
            }
        }
        let o0 = if m0 == 0.0 { 0.0 } else { -sq0 / m0 / 2.0 };
        let o1 = if m1 == 0.0 { 0.0 } else { sq1 / m1 / 2.0 };
        assert!(o0 > 0.0 || o1 > 0.0);
        let eff = s.effective_bounds();
        assert!((eff.lower - (s.bounds().lower + o0)).abs() < 1e-12);
        assert!((eff.upper - (s.bounds().upper - o1)).abs() < 1e-12);

        // Repeating the same counts changes nothing.
        let before = s.clone();
        s.update(Pentanomial::new(counts)).unwrap();
        assert_eq!(s, before);

        // A count that is not a multiple of the batch drops the correction.
        counts[2] += 1;
        s.update(Pentanomial::new(counts)).unwrap();
        assert_eq!(s.effective_bounds(), s.bounds());
    }

    #[test]
    fn shrinking_counts_drop_the_correction() {
        let mut s = Sprt::new(SprtConfig::new(0.0, 10.0, EloModel::Logistic)).unwrap();
        let mut t = Trinomial::default();
        for i in 0..30 {
            t.record(if i % 3 == 0 {
                crate::GameScore::Loss
            } else {
                crate::GameScore::Draw
            });
            s.update(t).unwrap();
        }
        assert_ne!(s.effective_bounds(), s.bounds());
        s.update(Trinomial::new(1, 1, 1)).unwrap();
        assert_eq!(s.effective_bounds(), s.bounds());
    }

    #[test]
    fn skipped_batches_restart_the_ladders() {
        let mut o = Overshoot::default();
        o.record(1, -0.5, 1);
        o.record(2, -0.7, 1);
        assert!((o.m0 + 0.7).abs() < 1e-15);
        o.record(5, -0.2, 1); // skipped 3 and 4
        assert_eq!((o.ref0, o.ref1), (-0.2, -0.2));
        assert!((o.m0 + 0.7).abs() < 1e-15);
        o.record(6, -0.3, 1);
        assert!((o.m0 + 0.8).abs() < 1e-12);
        let (o0, _) = o.expected();
        assert!((o0 - (0.25 + 0.04 + 0.01) / 0.8 / 2.0).abs() < 1e-12);
    }

    #[test]
    fn the_verdict_is_final_and_later_games_leave_the_test_where_it_decided() {
        let mut s = Sprt::new(SprtConfig::new(0.0, 5.0, EloModel::Logistic)).unwrap();
        let decisive = Pentanomial::new([0, 5, 50, 200, 100]);
        assert_eq!(s.update(decisive), Ok(Status::AcceptH1));
        let at_verdict = s.clone();
        assert_eq!(
            s.update(Pentanomial::new([500, 5, 50, 200, 100])),
            Ok(Status::AcceptH1)
        );
        assert_eq!(s, at_verdict);
        assert_eq!(s.counts(), Some(&Counts::from(decisive)));
        assert!(s.llr() > s.bounds().upper);
    }

    // ---- Simulation of error rates ------------------------------------

    /// Pair-bucket probabilities when the two games of a pair are
    /// independent with expected score `s` and draw probability `d`.
    fn pair_probs(s: f64, d: f64) -> [f64; 5] {
        let (l, w) = (1.0 - s - d / 2.0, s - d / 2.0);
        [l * l, 2.0 * l * d, d * d + 2.0 * l * w, 2.0 * d * w, w * w]
    }

    fn game_probs(s: f64, d: f64) -> [f64; 3] {
        [1.0 - s - d / 2.0, d, s - d / 2.0]
    }

    fn draw(rng: &mut SplitMix64, probs: &[f64]) -> usize {
        let mut u = rng.next_f64();
        for (i, &p) in probs.iter().enumerate() {
            if u < p {
                return i;
            }
            u -= p;
        }
        probs.len() - 1
    }

    /// The score whose normalized Elo is `nelo` in the independent-games
    /// model with draw probability `d` (σ per game is the same for games and
    /// pairs there).
    fn score_for_nelo(nelo: f64, d: f64) -> f64 {
        let nelo_of = |s: f64| {
            let [_, dd, w] = game_probs(s, d);
            let var = w + dd / 4.0 - s * s;
            (s - 0.5) / var.sqrt() * NELO_PER_T
        };
        let (mut lo, mut hi) = (0.3, 0.7);
        for _ in 0..100 {
            let mid = (lo + hi) / 2.0;
            if nelo_of(mid) < nelo {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        (lo + hi) / 2.0
    }

    /// Runs one test to its verdict (or to `cap` samples).
    fn run_once(config: SprtConfig, probs: &[f64], rng: &mut SplitMix64, cap: u64) -> Status {
        let mut sprt = Sprt::new(config).unwrap();
        let mut buckets = vec![0_u64; probs.len()];
        let mut samples = 0;
        while samples < cap {
            for _ in 0..config.batch_size.get() {
                buckets[draw(rng, probs)] += 1;
            }
            samples += config.batch_size.get();
            let counts = match buckets[..] {
                [l, d, w] => Counts::from(Trinomial::new(l, d, w)),
                [a, b, c, d, e] => Counts::from(Pentanomial::new([a, b, c, d, e])),
                _ => unreachable!("3 or 5 buckets"),
            };
            match sprt.update(counts).unwrap() {
                Status::Continue => {}
                verdict => return verdict,
            }
        }
        Status::Continue
    }

    /// Runs `runs` tests at H0 and at H1; returns the observed rates of
    /// false positives and false negatives, and the number of undecided runs.
    fn error_rates(
        config: SprtConfig,
        probs_h0: &[f64],
        probs_h1: &[f64],
        runs: u32,
        seed: u64,
    ) -> (f64, f64, u32) {
        let mut rng = SplitMix64::new(seed);
        let (mut false_pos, mut false_neg, mut undecided) = (0_u32, 0_u32, 0_u32);
        for _ in 0..runs {
            match run_once(config, probs_h0, &mut rng, 1_000_000) {
                Status::AcceptH1 => false_pos += 1,
                Status::Continue => undecided += 1,
                Status::AcceptH0 => {}
            }
            match run_once(config, probs_h1, &mut rng, 1_000_000) {
                Status::AcceptH0 => false_neg += 1,
                Status::Continue => undecided += 1,
                Status::AcceptH1 => {}
            }
        }
        let n = f64::from(runs);
        (
            f64::from(false_pos) / n,
            f64::from(false_neg) / n,
            undecided,
        )
    }

    /// The observed rate must not exceed the nominal one by more than three
    /// standard errors of a binomial proportion.
    fn assert_within(observed: f64, nominal: f64, runs: u32, what: &str) {
        eprintln!("{what}: observed {observed:.4} over {runs} runs (nominal {nominal})");
        let limit = nominal + 3.0 * (nominal * (1.0 - nominal) / f64::from(runs)).sqrt();
        assert!(
            observed <= limit,
            "{what}: observed {observed}, limit {limit}"
        );
    }

    fn check_logistic_pentanomial(runs: u32, seed: u64) {
        let config = SprtConfig::new(0.0, 20.0, EloModel::Logistic).with_batch_size(batch(8));
        let h0 = pair_probs(elo_to_score(0.0), 0.5);
        let h1 = pair_probs(elo_to_score(20.0), 0.5);
        let (fp, fneg, undecided) = error_rates(config, &h0, &h1, runs, seed);
        assert_eq!(undecided, 0);
        assert_within(fp, config.alpha, runs, "false positives");
        assert_within(fneg, config.beta, runs, "false negatives");
    }

    fn check_logistic_trinomial(runs: u32, seed: u64) {
        let config = SprtConfig {
            alpha: 0.05,
            beta: 0.1,
            ..SprtConfig::new(-10.0, 15.0, EloModel::Logistic)
        }
        .with_batch_size(batch(16));
        let h0 = game_probs(elo_to_score(-10.0), 0.3);
        let h1 = game_probs(elo_to_score(15.0), 0.3);
        let (fp, fneg, undecided) = error_rates(config, &h0, &h1, runs, seed);
        assert_eq!(undecided, 0);
        assert_within(fp, config.alpha, runs, "false positives");
        assert_within(fneg, config.beta, runs, "false negatives");
    }

    fn check_normalized_pentanomial(runs: u32, seed: u64) {
        let config = SprtConfig::new(0.0, 25.0, EloModel::Normalized).with_batch_size(batch(8));
        let d = 0.6;
        let h0 = pair_probs(score_for_nelo(0.0, d), d);
        let h1 = pair_probs(score_for_nelo(25.0, d), d);
        let (fp, fneg, undecided) = error_rates(config, &h0, &h1, runs, seed);
        assert_eq!(undecided, 0);
        assert_within(fp, config.alpha, runs, "false positives");
        assert_within(fneg, config.beta, runs, "false negatives");
    }

    #[test]
    fn simulated_error_rates_logistic_pentanomial() {
        check_logistic_pentanomial(300, 1);
    }

    #[test]
    fn simulated_error_rates_logistic_trinomial() {
        check_logistic_trinomial(300, 2);
    }

    #[test]
    fn simulated_error_rates_normalized_pentanomial() {
        check_normalized_pentanomial(300, 3);
    }

    #[test]
    #[ignore = "slow: 5000 runs per hypothesis and model; run with --ignored"]
    fn simulated_error_rates_heavy() {
        check_logistic_pentanomial(5_000, 11);
        check_logistic_trinomial(5_000, 12);
        check_normalized_pentanomial(5_000, 13);
    }

    #[test]
    fn simulated_normalized_score_is_right() {
        let s = score_for_nelo(25.0, 0.6);
        let [_, d, w] = game_probs(s, 0.6);
        let nelo = (s - 0.5) / (w + d / 4.0 - s * s).sqrt() * NELO_PER_T;
        assert!((nelo - 25.0).abs() < 1e-9);
    }
}
