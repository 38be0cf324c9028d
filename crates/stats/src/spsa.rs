//! Simultaneous perturbation stochastic approximation (SPSA) as Fishtest
//! runs it for engine tuning, extended so that many perturbations can be in
//! flight at once.
//!
//! # Schedule (Fishtest's classic SPSA)
//!
//! With `N` planned iterations (game pairs), `A = ⌊a_ratio·N⌋`, and per
//! parameter `c = c_end·N^γ` and `a = r_end·c_end²·(A + N)^α`, iteration `k`
//! (counted from 1) uses the perturbation size `c_k = c/k^γ` and the gain
//! `R_k = a/(A + k)^α / c_k²`, so that at `k = N` they reach `c_end` and
//! `r_end`. Each parameter gets a random flip `±1`; the engine plays
//! `θ + c_k·flip` against `θ − c_k·flip` (both clipped to `[min, max]`), and
//! the result `wins − losses` of the `+` side over the batch moves the
//! parameter by `R_k·c_k·result·flip`, clipped again.
//!
//! # Many perturbations in flight
//!
//! Like Fishtest's workers, every [`Spsa::issue`] uses `k` = completed game
//! pairs + 1, and every [`Spsa::apply`] advances the completed pairs by
//! `games / 2` and moves the *current* θ with the gain and flips of *its*
//! perturbation. Each issued perturbation has a unique id and is applied at
//! most once; a perturbation whose games were lost can be [abandoned].
//!
//! [abandoned]: Spsa::abandon

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use crate::counts::to_f64;
use crate::rng::RandomSource;
use crate::spsa_config::validate;
pub use crate::spsa_config::{
    DEFAULT_A_RATIO, DEFAULT_ALPHA, DEFAULT_GAMMA, InvalidSpsaConfig, ParamProblem, SpsaConfig,
    SpsaParam, SpsaViolation,
};

/// Identifies an issued perturbation; ids are never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct PerturbationId(pub u64);

impl fmt::Display for PerturbationId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// The direction a parameter is perturbed in for the `plus` side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Flip {
    /// `plus = θ + c_k`.
    Plus,
    /// `plus = θ − c_k`.
    Minus,
}

impl Flip {
    /// `+1.0` or `−1.0`.
    #[must_use]
    pub const fn sign(self) -> f64 {
        match self {
            Self::Plus => 1.0,
            Self::Minus => -1.0,
        }
    }
}

/// A pair of parameter vectors to play against each other.
#[derive(Clone, Debug, PartialEq)]
pub struct Perturbation {
    /// Unique id, to report the result with.
    pub id: PerturbationId,
    /// The iteration index `k` (completed pairs + 1 when issued).
    pub k: u64,
    /// One flip per parameter.
    pub flips: Vec<Flip>,
    /// `θ + c_k·flip`, clipped; the side whose result is reported.
    pub plus: Vec<f64>,
    /// `θ − c_k·flip`, clipped.
    pub minus: Vec<f64>,
}

/// Why a result or abandonment was refused; the state is unchanged.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum SpsaError {
    /// No perturbation with this id was ever issued.
    #[error("perturbation {0} was never issued")]
    UnknownPerturbation(PerturbationId),
    /// The perturbation's result was already applied.
    #[error("perturbation {0} was already applied")]
    AlreadyApplied(PerturbationId),
    /// The perturbation was abandoned.
    #[error("perturbation {0} was abandoned")]
    Abandoned(PerturbationId),
    /// The perturbation does not match the one issued under its id.
    #[error("perturbation {0} does not match the one issued")]
    Mismatch(PerturbationId),
    /// The result is not a finite number within `±games`.
    #[error("result {result} is impossible in {games} games")]
    InvalidResult {
        /// `wins − losses` as reported.
        result: f64,
        /// Games as reported.
        games: u64,
    },
}

/// What is remembered of an issued perturbation.
#[derive(Clone, Debug, PartialEq)]
struct Pending {
    k: u64,
    flips: Vec<Flip>,
}

/// The state of an SPSA tune.
#[derive(Clone, Debug, PartialEq)]
pub struct Spsa {
    params: Vec<SpsaParam>,
    theta: Vec<f64>,
    /// Per-parameter `c` and `a`.
    c: Vec<f64>,
    a: Vec<f64>,
    big_a: f64,
    alpha: f64,
    gamma: f64,
    iterations: u64,
    /// Completed game pairs: Fishtest's `iter`.
    completed: u64,
    next_id: u64,
    pending: BTreeMap<u64, Pending>,
    abandoned: BTreeSet<u64>,
}

impl Spsa {
    /// Starts a tune at the parameters' start values.
    ///
    /// # Errors
    ///
    /// [`InvalidSpsaConfig`] listing every problem: no parameters,
    /// duplicate names, non-finite values, empty ranges, starts out of
    /// range, `c_end ≤ 0`, `r_end < 0`, or bad schedule constants.
    pub fn new(config: SpsaConfig) -> Result<Self, InvalidSpsaConfig> {
        let violations = validate(&config);
        if !violations.is_empty() {
            return Err(InvalidSpsaConfig { violations });
        }
        let n = to_f64(config.iterations.get());
        let big_a = (config.a_ratio * n).trunc();
        let c = config
            .params
            .iter()
            .map(|p| p.c_end * n.powf(config.gamma))
            .collect();
        let a = config
            .params
            .iter()
            .map(|p| p.r_end * p.c_end * p.c_end * (big_a + n).powf(config.alpha))
            .collect();
        Ok(Self {
            theta: config.params.iter().map(|p| p.start).collect(),
            params: config.params,
            c,
            a,
            big_a,
            alpha: config.alpha,
            gamma: config.gamma,
            iterations: config.iterations.get(),
            completed: 0,
            next_id: 0,
            pending: BTreeMap::new(),
            abandoned: BTreeSet::new(),
        })
    }

    /// Resumes a tune saved as its θ ([`Spsa::theta`]), completed pairs
    /// ([`Spsa::completed_iterations`]), next perturbation id
    /// ([`Spsa::next_id`]) and the perturbations still in flight, so that a
    /// process restarted mid-tune applies each of those exactly once and
    /// reaches the same θ as one that never stopped.
    ///
    /// # Errors
    ///
    /// As [`Spsa::new`], and [`SpsaViolation::StateLength`] if `theta` or
    /// an in-flight perturbation does not have one value per parameter.
    pub fn restore(
        config: SpsaConfig,
        theta: Vec<f64>,
        completed: u64,
        next_id: u64,
        in_flight: &[Perturbation],
    ) -> Result<Self, InvalidSpsaConfig> {
        let mut spsa = Self::new(config)?;
        let expected = spsa.params.len();
        let lengths = std::iter::once(theta.len()).chain(in_flight.iter().map(|p| p.flips.len()));
        if let Some(found) = lengths.into_iter().find(|&n| n != expected) {
            return Err(InvalidSpsaConfig {
                violations: vec![SpsaViolation::StateLength { expected, found }],
            });
        }
        spsa.theta = theta
            .into_iter()
            .enumerate()
            .map(|(i, v)| spsa.clip(i, v))
            .collect();
        spsa.completed = completed;
        spsa.next_id = in_flight
            .iter()
            .map(|p| p.id.0.saturating_add(1))
            .fold(next_id, u64::max);
        spsa.pending = in_flight
            .iter()
            .map(|p| {
                (
                    p.id.0,
                    Pending {
                        k: p.k,
                        flips: p.flips.clone(),
                    },
                )
            })
            .collect();
        Ok(spsa)
    }

    /// The id the next issued perturbation gets (saved by [`Spsa::restore`]'s callers).
    #[must_use]
    pub const fn next_id(&self) -> u64 {
        self.next_id
    }

    /// The parameters as configured.
    #[must_use]
    pub fn params(&self) -> &[SpsaParam] {
        &self.params
    }

    /// The current estimate θ, aligned with [`Spsa::params`].
    #[must_use]
    pub fn theta(&self) -> &[f64] {
        &self.theta
    }

    /// Planned iterations `N` (game pairs).
    #[must_use]
    pub const fn iterations(&self) -> u64 {
        self.iterations
    }

    /// Game pairs whose results have been applied.
    #[must_use]
    pub const fn completed_iterations(&self) -> u64 {
        self.completed
    }

    /// Whether the planned iterations are done.
    #[must_use]
    pub const fn is_finished(&self) -> bool {
        self.completed >= self.iterations
    }

    /// Number of issued perturbations neither applied nor abandoned.
    #[must_use]
    pub fn in_flight(&self) -> usize {
        self.pending.len()
    }

    /// Draws a perturbation around the current θ, one random bit per
    /// parameter from `rng`.
    pub fn issue<R: RandomSource + ?Sized>(&mut self, rng: &mut R) -> Perturbation {
        let k = self.completed.saturating_add(1);
        let id = PerturbationId(self.next_id);
        self.next_id = self.next_id.saturating_add(1);
        let flips: Vec<Flip> = self
            .params
            .iter()
            .map(|_| {
                if rng.next_u64() >> 63 == 1 {
                    Flip::Plus
                } else {
                    Flip::Minus
                }
            })
            .collect();
        let mut plus = Vec::with_capacity(flips.len());
        let mut minus = Vec::with_capacity(flips.len());
        for (i, flip) in flips.iter().enumerate() {
            let step = self.c_k(i, k) * flip.sign();
            plus.push(self.clip(i, self.theta[i] + step));
            minus.push(self.clip(i, self.theta[i] - step));
        }
        self.pending.insert(
            id.0,
            Pending {
                k,
                flips: flips.clone(),
            },
        );
        Perturbation {
            id,
            k,
            flips,
            plus,
            minus,
        }
    }

    /// Applies the result of playing `perturbation`: `result` is wins minus
    /// losses of the `plus` side over `games` games (normally pairs, so
    /// `games` is even). Advances the completed iterations by `games / 2`
    /// and moves θ by `R_k·c_k·result·flip`, clipped to the ranges.
    ///
    /// # Errors
    ///
    /// [`SpsaError::UnknownPerturbation`], [`SpsaError::AlreadyApplied`] or
    /// [`SpsaError::Abandoned`] unless the perturbation is in flight;
    /// [`SpsaError::Mismatch`] if it differs from the one issued under its
    /// id; [`SpsaError::InvalidResult`] unless `|result| ≤ games`.
    pub fn apply(
        &mut self,
        perturbation: &Perturbation,
        result: f64,
        games: u64,
    ) -> Result<(), SpsaError> {
        let id = perturbation.id;
        let pending = self
            .pending
            .get(&id.0)
            .ok_or_else(|| self.not_in_flight(id))?;
        if pending.k != perturbation.k || pending.flips != perturbation.flips {
            return Err(SpsaError::Mismatch(id));
        }
        if !(result.is_finite() && result.abs() <= to_f64(games)) {
            return Err(SpsaError::InvalidResult { result, games });
        }
        let Pending { k, flips } = self.pending.remove(&id.0).ok_or(SpsaError::Mismatch(id))?;
        self.completed = self.completed.saturating_add(games / 2);
        for (i, flip) in flips.iter().enumerate() {
            let c_k = self.c_k(i, k);
            let r_k = self.a[i] / (self.big_a + to_f64(k)).powf(self.alpha) / (c_k * c_k);
            self.theta[i] = self.clip(i, self.theta[i] + r_k * c_k * result * flip.sign());
        }
        Ok(())
    }

    /// Forgets an in-flight perturbation whose games will never be reported.
    ///
    /// # Errors
    ///
    /// As [`Spsa::apply`], unless the perturbation is in flight.
    pub fn abandon(&mut self, id: PerturbationId) -> Result<(), SpsaError> {
        if self.pending.remove(&id.0).is_none() {
            return Err(self.not_in_flight(id));
        }
        self.abandoned.insert(id.0);
        Ok(())
    }

    fn not_in_flight(&self, id: PerturbationId) -> SpsaError {
        if id.0 >= self.next_id {
            SpsaError::UnknownPerturbation(id)
        } else if self.abandoned.contains(&id.0) {
            SpsaError::Abandoned(id)
        } else {
            SpsaError::AlreadyApplied(id)
        }
    }

    /// `c_k = c/k^γ` for parameter `i`.
    fn c_k(&self, i: usize, k: u64) -> f64 {
        self.c[i] / to_f64(k).powf(self.gamma)
    }

    fn clip(&self, i: usize, value: f64) -> f64 {
        value.clamp(self.params[i].min, self.params[i].max)
    }
}

impl TryFrom<SpsaConfig> for Spsa {
    type Error = InvalidSpsaConfig;

    fn try_from(config: SpsaConfig) -> Result<Self, Self::Error> {
        Self::new(config)
    }
}

/// Rounds `value` to a neighbouring integer at random, up with probability
/// equal to its fractional part, so that the expected result is `value`
/// (Fishtest's workers: `floor(value + U[0, 1))`). Values beyond the `i64`
/// range saturate; NaN gives 0.
pub fn stochastic_round<R: RandomSource + ?Sized>(value: f64, rng: &mut R) -> i64 {
    // `as` saturates out-of-range floats and maps NaN to 0, as documented.
    (value + rng.next_f64()).floor() as i64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elo::elo_to_score;
    use crate::rng::SplitMix64;
    use std::num::NonZeroU64;

    fn iters(n: u64) -> NonZeroU64 {
        NonZeroU64::new(n).unwrap()
    }

    fn param(name: &str, start: f64, min: f64, max: f64, c_end: f64, r_end: f64) -> SpsaParam {
        SpsaParam {
            name: name.to_owned(),
            start,
            min,
            max,
            c_end,
            r_end,
        }
    }

    #[test]
    fn schedule_and_update_follow_fishtests_formulas() {
        let n = 1_000.0_f64;
        let config = SpsaConfig::new(vec![param("x", 50.0, 0.0, 100.0, 2.0, 0.002)], iters(1_000));
        let mut spsa = Spsa::new(config).unwrap();
        let big_a = 100.0;
        let c = 2.0 * n.powf(0.101);
        let a = 0.002 * 4.0 * (big_a + n).powf(0.602);

        let mut rng = SplitMix64::new(9);
        let p = spsa.issue(&mut rng);
        assert_eq!(p.k, 1);
        let sign = p.flips[0].sign();
        // c_1 = c/1^γ = c.
        assert!((p.plus[0] - (50.0 + c * sign)).abs() < 1e-12);
        assert!((p.minus[0] - (50.0 - c * sign)).abs() < 1e-12);

        // Two games, plus side won both: result +2.
        spsa.apply(&p, 2.0, 2).unwrap();
        let r_1 = a / (big_a + 1.0).powf(0.602) / (c * c);
        assert!((spsa.theta()[0] - (50.0 + r_1 * c * 2.0 * sign)).abs() < 1e-12);
        assert_eq!(spsa.completed_iterations(), 1);

        // Iteration k = 2 now: c_2 = c/2^γ.
        let p = spsa.issue(&mut rng);
        assert_eq!(p.k, 2);
        let c_2 = c / 2_f64.powf(0.101);
        assert!(((p.plus[0] - p.minus[0]).abs() - 2.0 * c_2).abs() < 1e-12);

        // At k = N the perturbation is c_end and R_k·c_k² is a_end.
        let c_n = c / n.powf(0.101);
        assert!((c_n - 2.0).abs() < 1e-12);
        let r_n = a / (big_a + n).powf(0.602) / (c_n * c_n);
        assert!((r_n - 0.002).abs() < 1e-15);
    }

    #[test]
    fn a_is_truncated_like_fishtest() {
        // N = 15: A = int(0.1·15) = 1, so a = r_end·c_end²·16^α.
        let mut spsa = Spsa::new(SpsaConfig::new(
            vec![param("x", 0.0, -10.0, 10.0, 1.0, 1.0)],
            iters(15),
        ))
        .unwrap();
        assert_eq!(spsa.big_a, 1.0);
        let p = spsa.issue(&mut SplitMix64::new(1));
        spsa.apply(&p, 1.0, 2).unwrap();
        let c = 15_f64.powf(0.101);
        let a = 16_f64.powf(0.602);
        let r_1 = a / 2_f64.powf(0.602) / (c * c);
        assert!((spsa.theta()[0] - r_1 * c * p.flips[0].sign()).abs() < 1e-12);
    }

    #[test]
    fn values_are_clipped_to_the_range() {
        let config = SpsaConfig::new(vec![param("x", 99.0, 0.0, 100.0, 5.0, 10.0)], iters(100));
        let mut spsa = Spsa::new(config).unwrap();
        let p = spsa.issue(&mut SplitMix64::new(3));
        assert!(p.plus[0] <= 100.0 && p.minus[0] <= 100.0);
        assert!(p.plus[0] == 100.0 || p.minus[0] == 100.0);
        let result = 2.0 * p.flips[0].sign();
        spsa.apply(&p, result, 2).unwrap();
        assert_eq!(spsa.theta()[0], 100.0);
    }

    #[test]
    fn many_perturbations_in_flight() {
        let params = vec![
            param("x", 0.0, -10.0, 10.0, 1.0, 0.01),
            param("y", 0.0, -10.0, 10.0, 1.0, 0.01),
        ];
        let mut spsa = Spsa::new(SpsaConfig::new(params, iters(100))).unwrap();
        let mut rng = SplitMix64::new(5);
        let batch: Vec<Perturbation> = (0..5).map(|_| spsa.issue(&mut rng)).collect();
        assert_eq!(spsa.in_flight(), 5);
        // All share k = 1 (nothing completed yet) but have distinct ids.
        assert!(batch.iter().all(|p| p.k == 1));
        let ids: BTreeSet<_> = batch.iter().map(|p| p.id).collect();
        assert_eq!(ids.len(), 5);
        // Apply out of order; each exactly once.
        for p in batch.iter().rev() {
            spsa.apply(p, 0.0, 8).unwrap();
        }
        assert_eq!(spsa.completed_iterations(), 20);
        assert_eq!(spsa.in_flight(), 0);
        assert_eq!(spsa.issue(&mut rng).k, 21);
    }

    #[test]
    fn each_perturbation_applies_exactly_once() {
        let mut spsa = Spsa::new(SpsaConfig::new(
            vec![param("x", 0.0, -1.0, 1.0, 0.1, 0.1)],
            iters(10),
        ))
        .unwrap();
        let mut rng = SplitMix64::new(8);
        let p = spsa.issue(&mut rng);
        let q = spsa.issue(&mut rng);
        let untouched = spsa.clone();

        let mut tampered = p.clone();
        tampered.flips[0] = match p.flips[0] {
            Flip::Plus => Flip::Minus,
            Flip::Minus => Flip::Plus,
        };
        assert_eq!(
            spsa.apply(&tampered, 0.0, 2),
            Err(SpsaError::Mismatch(p.id))
        );
        assert!(matches!(
            spsa.apply(&p, 3.0, 2),
            Err(SpsaError::InvalidResult { .. })
        ));
        assert!(matches!(
            spsa.apply(&p, f64::NAN, 2),
            Err(SpsaError::InvalidResult { .. })
        ));
        assert_eq!(spsa, untouched);

        spsa.apply(&p, 1.0, 2).unwrap();
        assert_eq!(spsa.apply(&p, 1.0, 2), Err(SpsaError::AlreadyApplied(p.id)));

        spsa.abandon(q.id).unwrap();
        assert_eq!(spsa.apply(&q, 1.0, 2), Err(SpsaError::Abandoned(q.id)));
        assert_eq!(spsa.abandon(q.id), Err(SpsaError::Abandoned(q.id)));
        assert_eq!(spsa.abandon(p.id), Err(SpsaError::AlreadyApplied(p.id)));

        let mut ghost = p.clone();
        ghost.id = PerturbationId(99);
        assert_eq!(
            spsa.apply(&ghost, 0.0, 2),
            Err(SpsaError::UnknownPerturbation(ghost.id))
        );
        assert_eq!(
            spsa.abandon(PerturbationId(2)),
            Err(SpsaError::UnknownPerturbation(PerturbationId(2)))
        );
        assert_eq!(spsa.completed_iterations(), 1);
    }

    #[test]
    fn invalid_configs_report_every_violation() {
        let config = SpsaConfig {
            params: vec![
                param("x", 5.0, 10.0, 0.0, 0.0, -1.0),
                param("y", 11.0, 0.0, 10.0, 1.0, 0.1),
                param("x", 0.0, 0.0, 1.0, 1.0, f64::NAN),
            ],
            iterations: iters(10),
            a_ratio: -0.1,
            alpha: 0.602,
            gamma: f64::INFINITY,
        };
        let err = Spsa::new(config).unwrap_err();
        let x = |problem| SpsaViolation::Param {
            name: "x".to_owned(),
            problem,
        };
        assert_eq!(
            err.violations,
            vec![
                x(ParamProblem::EmptyRange {
                    min: 10.0,
                    max: 0.0
                }),
                x(ParamProblem::NonPositiveCEnd(0.0)),
                x(ParamProblem::NegativeREnd(-1.0)),
                SpsaViolation::Param {
                    name: "y".to_owned(),
                    problem: ParamProblem::StartOutOfRange(11.0)
                },
                SpsaViolation::DuplicateName("x".to_owned()),
                x(ParamProblem::NotFinite),
                SpsaViolation::Schedule {
                    name: "a_ratio",
                    value: -0.1
                },
                SpsaViolation::Schedule {
                    name: "gamma",
                    value: f64::INFINITY
                },
            ]
        );
        assert!(
            err.to_string()
                .starts_with("invalid SPSA configuration: parameter \"x\"")
        );
        let empty = SpsaConfig::new(Vec::new(), iters(1));
        assert_eq!(
            Spsa::try_from(empty).unwrap_err().violations,
            vec![SpsaViolation::NoParams]
        );
    }

    #[test]
    fn stochastic_rounding_is_unbiased() {
        let mut rng = SplitMix64::new(77);
        let n = 20_000;
        let mut sum = 0_i64;
        for _ in 0..n {
            let r = stochastic_round(2.3, &mut rng);
            assert!(r == 2 || r == 3);
            sum += r;
        }
        let mean = sum as f64 / f64::from(n);
        // Standard error √(0.21/20000) ≈ 0.0032.
        assert!((mean - 2.3).abs() < 0.015, "{mean}");
        assert_eq!(stochastic_round(-4.0, &mut rng), -4);
        assert_eq!(stochastic_round(f64::NAN, &mut rng), 0);
        assert_eq!(stochastic_round(1e300, &mut rng), i64::MAX);
    }

    proptest::proptest! {
        #[test]
        fn theta_and_probes_stay_in_range(
            start in -5.0..5.0_f64,
            results in proptest::collection::vec(-4_i32..=4, 1..60),
            seed in proptest::num::u64::ANY,
        ) {
            let params = vec![param("x", start, -5.0, 5.0, 2.0, 1.0)];
            let mut spsa = Spsa::new(SpsaConfig::new(params, iters(20))).unwrap();
            let mut rng = SplitMix64::new(seed);
            for r in results {
                let p = spsa.issue(&mut rng);
                for v in p.plus.iter().chain(&p.minus) {
                    proptest::prop_assert!((-5.0..=5.0).contains(v));
                }
                spsa.apply(&p, f64::from(r), 4).unwrap();
                proptest::prop_assert!((-5.0..=5.0).contains(&spsa.theta()[0]));
            }
        }
    }

    #[test]
    fn reproducible_from_a_seed() {
        let run = |seed| {
            let params = vec![param("x", 3.0, 0.0, 10.0, 1.0, 0.05)];
            let mut spsa = Spsa::new(SpsaConfig::new(params, iters(50))).unwrap();
            let mut rng = SplitMix64::new(seed);
            while !spsa.is_finished() {
                let p = spsa.issue(&mut rng);
                let result = if rng.next_u64().is_multiple_of(2) {
                    1.0
                } else {
                    -1.0
                };
                spsa.apply(&p, result, 2).unwrap();
            }
            spsa.theta()[0]
        };
        assert_eq!(run(4), run(4));
        assert_ne!(run(4), run(5));
    }

    /// Plays `pairs` game pairs between two parameter vectors; each game is
    /// won by the plus side with probability `L(Elo(plus) − Elo(minus))`,
    /// lost otherwise (no draws). Returns wins − losses.
    fn play(
        elo: &impl Fn(&[f64]) -> f64,
        p: &Perturbation,
        pairs: u32,
        rng: &mut SplitMix64,
    ) -> f64 {
        let win = elo_to_score(elo(&p.plus) - elo(&p.minus));
        let mut result = 0.0;
        for _ in 0..2 * pairs {
            result += if rng.next_f64() < win { 1.0 } else { -1.0 };
        }
        result
    }

    #[test]
    fn recovers_a_planted_optimum() {
        // Elo(θ) = −50·((x − 120)/60)² − 40·((y + 15)/25)²: starting at
        // (60, 10) costs 50 + 40 Elo. Noise comes only from the games; over
        // seeds the end points scatter with a standard deviation of about
        // 4.5 in x and in y, so the bounds below are 2–3 deviations wide.
        let optimum = [120.0, -15.0];
        let elo = |t: &[f64]| {
            -50.0 * ((t[0] - optimum[0]) / 60.0).powi(2)
                - 40.0 * ((t[1] - optimum[1]) / 25.0).powi(2)
        };
        let params = vec![
            param("x", 60.0, 0.0, 200.0, 8.0, 0.02),
            param("y", 10.0, -50.0, 50.0, 3.0, 0.02),
        ];
        let mut spsa = Spsa::new(SpsaConfig::new(params, iters(40_000))).unwrap();
        let mut rng = SplitMix64::new(2024);
        let mut games_rng = SplitMix64::new(4048);
        // Keep eight perturbations of two pairs each in flight, applied in
        // an order other than issued.
        while !spsa.is_finished() {
            let batch: Vec<Perturbation> = (0..8).map(|_| spsa.issue(&mut rng)).collect();
            for p in batch.iter().rev() {
                let result = play(&elo, p, 2, &mut games_rng);
                spsa.apply(p, result, 4).unwrap();
            }
        }
        let theta = spsa.theta();
        assert!((theta[0] - optimum[0]).abs() < 15.0, "x = {}", theta[0]);
        assert!((theta[1] - optimum[1]).abs() < 10.0, "y = {}", theta[1]);
        assert!(elo(theta) > -5.0, "Elo loss left {}", elo(theta));
    }

    #[test]
    fn a_restored_tune_continues_exactly() {
        let config = SpsaConfig {
            params: vec![
                param("a", 10.0, 0.0, 100.0, 2.0, 0.002),
                param("b", 50.0, 0.0, 100.0, 4.0, 0.002),
            ],
            iterations: iters(100),
            a_ratio: DEFAULT_A_RATIO,
            alpha: DEFAULT_ALPHA,
            gamma: DEFAULT_GAMMA,
        };
        let mut rng = SplitMix64::new(9);
        let mut live = Spsa::new(config.clone()).unwrap();
        let p1 = live.issue(&mut rng);
        let p2 = live.issue(&mut rng);
        let p3 = live.issue(&mut rng);
        live.apply(&p1, 3.0, 8).unwrap();
        let mut restored = Spsa::restore(
            config.clone(),
            live.theta().to_vec(),
            live.completed_iterations(),
            live.next_id(),
            &[p2.clone(), p3.clone()],
        )
        .unwrap();
        for spsa in [&mut live, &mut restored] {
            spsa.apply(&p3, -2.0, 8).unwrap();
            spsa.apply(&p2, 5.0, 8).unwrap();
            assert_eq!(
                spsa.apply(&p1, 1.0, 8),
                Err(SpsaError::AlreadyApplied(p1.id))
            );
        }
        assert_eq!(live.theta(), restored.theta());
        assert_eq!(live.completed_iterations(), restored.completed_iterations());
        assert_eq!(restored.issue(&mut rng).id, PerturbationId(3));
        let short = Spsa::restore(config, vec![1.0], 0, 0, &[]).unwrap_err();
        assert_eq!(
            short.violations,
            vec![SpsaViolation::StateLength {
                expected: 2,
                found: 1
            }]
        );
    }
}
