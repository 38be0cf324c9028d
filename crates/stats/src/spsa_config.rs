//! An SPSA tune as it is asked for ([`SpsaConfig`], its parameters and
//! Fishtest's schedule constants) and the checks [`crate::Spsa::new`] makes
//! of it, every violation reported at once.

use std::collections::BTreeSet;
use std::num::NonZeroU64;

/// Fishtest's default `A` as a fraction of the iterations.
pub const DEFAULT_A_RATIO: f64 = 0.1;
/// Fishtest's default gain decay exponent α.
pub const DEFAULT_ALPHA: f64 = 0.602;
/// Fishtest's default perturbation decay exponent γ.
pub const DEFAULT_GAMMA: f64 = 0.101;

/// One tuned parameter, unvalidated.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaParam {
    /// Name, unique within a tune (e.g. the UCI option).
    pub name: String,
    /// Initial value.
    pub start: f64,
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
    /// Perturbation size at the last iteration; positive.
    pub c_end: f64,
    /// Learning rate at the last iteration (`a_end = r_end·c_end²`);
    /// non-negative.
    pub r_end: f64,
}

/// An SPSA tune, unvalidated; [`Spsa::new`] checks it.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaConfig {
    /// The parameters, at least one.
    pub params: Vec<SpsaParam>,
    /// Planned iterations `N`, in game pairs (half the planned games).
    pub iterations: NonZeroU64,
    /// `A` as a fraction of `N`; non-negative.
    pub a_ratio: f64,
    /// Gain decay exponent α; non-negative.
    pub alpha: f64,
    /// Perturbation decay exponent γ; non-negative.
    pub gamma: f64,
}

impl SpsaConfig {
    /// A tune with Fishtest's defaults: `A = 0.1·N`, `α = 0.602`, `γ = 0.101`.
    #[must_use]
    pub const fn new(params: Vec<SpsaParam>, iterations: NonZeroU64) -> Self {
        Self {
            params,
            iterations,
            a_ratio: DEFAULT_A_RATIO,
            alpha: DEFAULT_ALPHA,
            gamma: DEFAULT_GAMMA,
        }
    }
}

/// What is wrong with one parameter.
#[derive(Clone, Copy, Debug, PartialEq, thiserror::Error)]
pub enum ParamProblem {
    /// A value is NaN or infinite.
    #[error("a value is not finite")]
    NotFinite,
    /// `min < max` does not hold.
    #[error("range [{min}, {max}] is empty")]
    EmptyRange {
        /// The lower limit.
        min: f64,
        /// The upper limit.
        max: f64,
    },
    /// The start lies outside `[min, max]`.
    #[error("start {0} is outside the range")]
    StartOutOfRange(f64),
    /// `c_end` is not positive.
    #[error("c_end {0} is not positive")]
    NonPositiveCEnd(f64),
    /// `r_end` is negative.
    #[error("r_end {0} is negative")]
    NegativeREnd(f64),
}

/// One reason an [`SpsaConfig`] is invalid.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SpsaViolation {
    /// There is nothing to tune.
    #[error("no parameters")]
    NoParams,
    /// Two parameters share a name.
    #[error("parameter name {0:?} is used twice")]
    DuplicateName(String),
    /// A parameter is invalid.
    #[error("parameter {name:?}: {problem}")]
    Param {
        /// Its name.
        name: String,
        /// What is wrong.
        problem: ParamProblem,
    },
    /// A saved θ does not have one value per parameter.
    #[error("saved state has {found} values for {expected} parameters")]
    StateLength {
        /// Number of parameters.
        expected: usize,
        /// Number of saved values.
        found: usize,
    },
    /// `a_ratio`, `alpha` or `gamma` is negative or not finite.
    #[error("schedule constant {name} = {value} is not a non-negative finite number")]
    Schedule {
        /// `"a_ratio"`, `"alpha"` or `"gamma"`.
        name: &'static str,
        /// The rejected value.
        value: f64,
    },
}

/// An invalid [`SpsaConfig`], with every violation found.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("invalid SPSA configuration: {}", list(.violations))]
pub struct InvalidSpsaConfig {
    /// What is wrong, at least one item.
    pub violations: Vec<SpsaViolation>,
}

fn list(violations: &[SpsaViolation]) -> String {
    violations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// Every violation in `config`; none if it is a valid tune.
pub(crate) fn validate(config: &SpsaConfig) -> Vec<SpsaViolation> {
    let mut violations = Vec::new();
    if config.params.is_empty() {
        violations.push(SpsaViolation::NoParams);
    }
    let mut names = BTreeSet::new();
    for p in &config.params {
        if !names.insert(p.name.as_str()) {
            violations.push(SpsaViolation::DuplicateName(p.name.clone()));
        }
        let problems = param_problems(p);
        violations.extend(problems.into_iter().map(|problem| SpsaViolation::Param {
            name: p.name.clone(),
            problem,
        }));
    }
    for (name, value) in [
        ("a_ratio", config.a_ratio),
        ("alpha", config.alpha),
        ("gamma", config.gamma),
    ] {
        if !(value.is_finite() && value >= 0.0) {
            violations.push(SpsaViolation::Schedule { name, value });
        }
    }
    violations
}

fn param_problems(p: &SpsaParam) -> Vec<ParamProblem> {
    if ![p.start, p.min, p.max, p.c_end, p.r_end]
        .iter()
        .all(|v| v.is_finite())
    {
        return vec![ParamProblem::NotFinite];
    }
    let mut problems = Vec::new();
    if p.min >= p.max {
        problems.push(ParamProblem::EmptyRange {
            min: p.min,
            max: p.max,
        });
    } else if !(p.min..=p.max).contains(&p.start) {
        problems.push(ParamProblem::StartOutOfRange(p.start));
    }
    if p.c_end <= 0.0 {
        problems.push(ParamProblem::NonPositiveCEnd(p.c_end));
    }
    if p.r_end < 0.0 {
        problems.push(ParamProblem::NegativeREnd(p.r_end));
    }
    problems
}
