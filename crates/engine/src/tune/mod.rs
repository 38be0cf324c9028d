//! Texel tuning: fitting the evaluation's parameters to the results of
//! stored games.
//!
//! A [`DataSet`] replays games from their start positions and keeps quiet
//! positions (not in check, no capture or promotion that wins material, so
//! the static score is what quiescence would return), each with the game's
//! result from White's view and the search score stored with the move
//! played there. [`tune`] then minimises the mean squared error between
//! `σ(K·e/400)` and the target, where `σ(x) = 1/(1 + 10^−x)`, `e` is the
//! evaluation from White's view and the target is the result, optionally
//! blended with the stored score: `(1 − λ)·result + λ·σ(K·score/400)`.
//! `K` is fitted first, to the results alone, by a one-dimensional search
//! at the starting values (with the score in the target, `K` would shrink
//! until both sides of the difference were ½), then the chosen parameters
//! follow Adam on central finite-difference gradients (every loss
//! evaluated on all cores; chess's square and mobility tables, in which
//! the evaluation is linear, on their exact gradient, one evaluation per
//! position for all of them), each step clamped to the
//! parameter's range and rounded to an integer where the evaluation reads
//! it. Positions of games drawn into a held-out split (by a seed) are only
//! measured, never fitted, so the report shows whether the fit generalises.

use crate::chess_mobility;
use crate::chess_squares;
use crate::entry_table::Placed;
use crate::eval::Evaluator;
use crate::params::{ParamError, ParamSpec, Params};
use ajaxlab_rules::{Color, FenError, Position, Variant};
use std::num::NonZeroUsize;

mod data;

pub use data::{DataSet, SampleOptions, TrainingGame, TrainingMove};
use data::{Group, Sample};

/// Positions evaluated by one unit of parallel work; fixed, so that sums
/// (and so every result) do not depend on the number of threads.
const CHUNK: usize = 512;

/// The Adam moment decay rates and the guard against division by zero.
const ADAM_BETA1: f64 = 0.9;
const ADAM_BETA2: f64 = 0.999;
const ADAM_EPSILON: f64 = 1e-12;

/// The range searched for `K`.
const K_MIN: f64 = 0.02;
const K_MAX: f64 = 20.0;

/// Every parameter a player of `variant` reads: its evaluation's and the
/// search's ([`ParamSpec::read_by`]), in table order.
pub fn read_by(variant: &'static Variant) -> Vec<&'static ParamSpec> {
    crate::params::specs_for(variant)
        .into_iter()
        .filter(|s| s.read_by(variant))
        .collect()
}

/// Which parameters to fit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// Every parameter that changes the evaluation of a variant in the data.
    Evaluation,
    /// Those among them whose names start with this prefix (e.g. `afc.`).
    Prefix(String),
    /// Exactly these.
    Names(Vec<String>),
}

/// How to fit.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneOptions {
    /// The parameters to fit.
    pub selection: Selection,
    /// Adam steps.
    pub iterations: usize,
    /// Weight λ of the stored search score in the target, in `[0, 1]`.
    pub lambda: f64,
    /// Adam's step size as a share of each parameter's range (`max − min`).
    pub learning_rate: f64,
    /// Weight μ of the ridge penalty `μ·Σ((θ − θ₀)/100)²` added to the
    /// loss, `θ₀` the starting values, in centipawns: it holds back what
    /// the data barely speak for (a rare square's entry) while the rest
    /// moves; 0 for none.
    pub regularisation: f64,
    /// Threads evaluating positions.
    pub threads: NonZeroUsize,
}

impl Default for TuneOptions {
    fn default() -> Self {
        TuneOptions {
            selection: Selection::Evaluation,
            iterations: 200,
            lambda: 0.0,
            learning_rate: 0.01,
            regularisation: 0.0,
            threads: std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN),
        }
    }
}

/// An option outside its domain.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum OptionViolation {
    /// λ outside `[0, 1]`.
    #[error("lambda {0} is outside [0, 1]")]
    Lambda(f64),
    /// Held-out share outside `[0, 1)`.
    #[error("holdout {0} is outside [0, 1)")]
    Holdout(f64),
    /// A step size that is not positive and finite.
    #[error("learning rate {0} is not a positive number")]
    LearningRate(f64),
    /// A ridge weight that is negative or not finite.
    #[error("regularisation {0} is not a number ≥ 0")]
    Regularisation(f64),
    /// No steps.
    #[error("iterations must be at least 1")]
    Iterations,
    /// No positions allowed.
    #[error("max positions must be at least 1")]
    MaxPositions,
}

/// Why tuning cannot start.
#[derive(Debug, thiserror::Error)]
pub enum TuneError {
    /// Options outside their domains, all of them.
    #[error("tuning options: {}", list(.0))]
    Options(Vec<OptionViolation>),
    /// A parameter name not in the table.
    #[error("unknown parameter '{0}'")]
    UnknownParameter(String),
    /// A parameter that changes no evaluation of the data's variants.
    #[error("parameter '{name}' does not change the evaluation of {variants}")]
    NotEvaluation {
        /// The parameter.
        name: String,
        /// The variants in the data.
        variants: String,
    },
    /// A prefix that selects no evaluation parameter.
    #[error("no evaluation parameter of {variants} starts with '{prefix}'")]
    NoParameters {
        /// The prefix.
        prefix: String,
        /// The variants in the data.
        variants: String,
    },
    /// No quiet position to fit.
    #[error(
        "empty data set: no quiet position in {games} games (after skipping {skip_plies} plies each)"
    )]
    EmptyDataSet {
        /// Games read.
        games: usize,
        /// Plies skipped at the start of each.
        skip_plies: usize,
    },
    /// A held-out share that held out nothing, or everything.
    #[error(
        "held-out split of {holdout} leaves {train} training and {held} held-out positions; both need some (or use holdout 0)"
    )]
    Split {
        /// The share asked for.
        holdout: f64,
        /// Training positions.
        train: usize,
        /// Held-out positions.
        held: usize,
    },
    /// A game whose start is not a position.
    #[error("{game}: start position: {source}")]
    Fen {
        /// The game's label.
        game: String,
        /// Why.
        source: FenError,
    },
    /// A move that cannot be read or played.
    #[error("{game}: ply {ply}: move '{uci}': {message}")]
    Move {
        /// The game's label.
        game: String,
        /// Ply from the start (1-based).
        ply: usize,
        /// The move text.
        uci: String,
        /// Why.
        message: String,
    },
    /// A parameter value the table refuses (an out-of-range start).
    #[error(transparent)]
    Param(#[from] ParamError),
}

fn list(violations: &[OptionViolation]) -> String {
    violations
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join("; ")
}

/// `σ(K·x/400)` with `σ(y) = 1/(1 + 10^−y)`: the expected score of a side
/// `x` centipawns ahead.
pub fn expected_score(k: f64, centipawns: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * centipawns / 400.0))
}

/// A loss before and after fitting.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LossChange {
    /// At the starting values.
    pub before: f64,
    /// At the fitted values.
    pub after: f64,
}

/// One fitted parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamChange {
    /// Its name.
    pub name: &'static str,
    /// The starting value.
    pub before: i32,
    /// The fitted value.
    pub after: i32,
}

/// The outcome of [`tune`].
#[derive(Clone, Debug, PartialEq)]
pub struct TuneReport {
    /// The fitted parameters (the starting values elsewhere): the values of
    /// the step with the lowest training loss (with the ridge penalty).
    pub params: Params,
    /// The fitted scale `K`.
    pub k: f64,
    /// Training loss.
    pub train: LossChange,
    /// Held-out loss, when positions were held out.
    pub holdout: Option<LossChange>,
    /// Every fitted parameter, changed or not, in table order.
    pub fitted: Vec<ParamChange>,
}

/// What [`tune`] reports after each step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    /// Steps done.
    pub iteration: usize,
    /// Steps in all.
    pub iterations: usize,
    /// Training loss at the values the step started from.
    pub loss: f64,
}

/// The parameters `selection` names, checked against the variants present.
///
/// # Errors
/// [`TuneError::UnknownParameter`], [`TuneError::NotEvaluation`] or
/// [`TuneError::NoParameters`], naming the parameter or prefix.
pub fn select(
    selection: &Selection,
    variants: &[&'static Variant],
) -> Result<Vec<&'static ParamSpec>, TuneError> {
    let relevant = |spec: &ParamSpec| variants.iter().any(|&v| spec.evaluates(v));
    let shown = || {
        variants
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    match selection {
        Selection::Names(names) => names
            .iter()
            .map(|name| {
                let spec = crate::params::spec(name)
                    .ok_or_else(|| TuneError::UnknownParameter(name.clone()))?;
                if relevant(spec) {
                    Ok(spec)
                } else {
                    Err(TuneError::NotEvaluation {
                        name: name.clone(),
                        variants: shown(),
                    })
                }
            })
            .collect(),
        Selection::Evaluation | Selection::Prefix(_) => {
            let prefix = match selection {
                Selection::Prefix(p) => p.as_str(),
                _ => "",
            };
            let mut specs: Vec<&'static ParamSpec> = Vec::new();
            for &variant in variants {
                for s in crate::params::specs_for(variant) {
                    if s.name.starts_with(prefix) && relevant(s) && !specs.contains(&s) {
                        specs.push(s);
                    }
                }
            }
            if specs.is_empty() {
                Err(TuneError::NoParameters {
                    prefix: prefix.to_owned(),
                    variants: shown(),
                })
            } else {
                Ok(specs)
            }
        }
    }
}

/// The loss terms of a set of groups under fixed `K` and λ.
#[derive(Clone, Copy)]
struct Objective {
    k: f64,
    lambda: f64,
    threads: NonZeroUsize,
}

impl Objective {
    fn target(&self, s: &Sample) -> f64 {
        match s.score {
            Some(score) if self.lambda > 0.0 => {
                (1.0 - self.lambda) * s.result
                    + self.lambda * expected_score(self.k, f64::from(score))
            }
            _ => s.result,
        }
    }

    fn error(&self, s: &Sample, white_eval: i32) -> f64 {
        let d = self.target(s) - expected_score(self.k, f64::from(white_eval));
        d * d
    }

    /// Sum of squared errors over the groups `params` changes (all of them
    /// for `None`), under `params`.
    fn sum(&self, groups: &[Group], params: &Params, changed: Option<&ParamSpec>) -> f64 {
        let evaluators: Vec<Option<Evaluator>> = groups
            .iter()
            .map(|g| {
                changed
                    .is_none_or(|s| s.evaluates(g.variant))
                    .then(|| Evaluator::new(g.variant, params))
            })
            .collect();
        let work: Vec<(&Evaluator, &[Sample])> = groups
            .iter()
            .zip(&evaluators)
            .filter_map(|(g, e)| e.as_ref().map(|e| (e, g.samples.as_slice())))
            .flat_map(|(e, samples)| samples.chunks(CHUNK).map(move |c| (e, c)))
            .collect();
        parallel_map(self.threads, &work, |(eval, samples)| {
            samples
                .iter()
                .map(|s| self.error(s, white_eval(eval, &s.position)))
                .sum::<f64>()
        })
        .iter()
        .sum()
    }

    /// The gradient of the summed squared error with respect to every entry
    /// of chess's tables (indexed as [`table_index`]), exact: the
    /// evaluation is linear in them, each weighing by the phase
    /// ([`Evaluator`]'s linearisation).
    fn table_gradients(&self, groups: &[Group], params: &Params) -> Vec<f64> {
        let squares = chess_squares::specs().len();
        let size = squares + chess_mobility::TABLE.specs().len();
        let evaluators: Vec<(Evaluator, &[Sample])> = groups
            .iter()
            .filter(|g| crate::params::chess_table_specs(g.variant).next().is_some())
            .map(|g| (Evaluator::new(g.variant, params), g.samples.as_slice()))
            .collect();
        let work: Vec<(&Evaluator, &[Sample])> = evaluators
            .iter()
            .flat_map(|(e, samples)| samples.chunks(CHUNK).map(move |c| (e, c)))
            .collect();
        // d σ(K·e/400) / d e = σ·(1 − σ)·K·ln 10 / 400.
        let slope = self.k * std::f64::consts::LN_10 / 400.0;
        let parts = parallel_map(self.threads, &work, |(eval, samples)| {
            let mut gradient = vec![0.0; size];
            for s in *samples {
                let weights = eval.evaluate_linearised(&s.position);
                let white = white_view(&s.position, weights.score);
                let p = expected_score(self.k, f64::from(white));
                let d_error = -2.0 * (self.target(s) - p) * p * (1.0 - p) * slope;
                let mut add = |placed: Placed, offset: usize| {
                    let d = d_error * f64::from(placed.sign);
                    gradient[offset + placed.middlegame] += d * weights.middlegame;
                    gradient[offset + placed.endgame] += d * weights.endgame;
                };
                for placed in chess_squares::occupancy(&s.position) {
                    add(placed, 0);
                }
                for placed in eval.chess_mobility_entries(&s.position) {
                    add(placed, squares);
                }
            }
            gradient
        });
        let mut total = vec![0.0; size];
        for part in parts {
            for (t, g) in total.iter_mut().zip(part) {
                *t += g;
            }
        }
        total
    }

    /// Mean squared error over all of `groups`.
    fn mean(&self, groups: &[Group], params: &Params) -> f64 {
        let n: usize = groups.iter().map(|g| g.samples.len()).sum();
        self.sum(groups, params, None) / n.max(1) as f64
    }
}

fn white_eval(eval: &Evaluator, pos: &Position) -> i32 {
    white_view(pos, eval.evaluate(pos))
}

/// `score`, the side to move's in `pos`, from White's view.
fn white_view(pos: &Position, score: i32) -> i32 {
    if pos.side_to_move() == Color::White {
        score
    } else {
        -score
    }
}

/// `f` over every item, on `threads` threads, in order.
fn parallel_map<T: Sync, R: Send>(
    threads: NonZeroUsize,
    items: &[T],
    f: impl Fn(&T) -> R + Sync,
) -> Vec<R> {
    let per_thread = items.len().div_ceil(threads.get()).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = items
            .chunks(per_thread)
            .map(|part| scope.spawn(|| part.iter().map(&f).collect::<Vec<R>>()))
            .collect();
        handles
            .into_iter()
            .flat_map(|h| {
                h.join()
                    .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// The `K` that minimises the loss of `groups` against their results at
/// `params`: a scan over a logarithmic grid, then a golden-section search
/// around its best point.
fn fit_k(groups: &[Group], params: &Params, threads: NonZeroUsize) -> f64 {
    let work: Vec<(&'static Variant, &[Sample])> = groups
        .iter()
        .flat_map(|g| g.samples.chunks(CHUNK).map(move |c| (g.variant, c)))
        .collect();
    let evals: Vec<Vec<i32>> = parallel_map(threads, &work, |(variant, samples)| {
        let eval = Evaluator::new(variant, params);
        samples
            .iter()
            .map(|s| white_eval(&eval, &s.position))
            .collect()
    });
    let loss = |k: f64| {
        let objective = Objective {
            k,
            lambda: 0.0,
            threads,
        };
        work.iter()
            .zip(&evals)
            .flat_map(|((_, samples), e)| samples.iter().zip(e))
            .map(|(s, &e)| objective.error(s, e))
            .sum::<f64>()
    };
    const GRID: i32 = 48;
    let ratio = (K_MAX / K_MIN).powf(1.0 / f64::from(GRID));
    let grid: Vec<f64> = (0..=GRID).map(|i| K_MIN * ratio.powi(i)).collect();
    let best = grid
        .iter()
        .map(|&k| (k, loss(k)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(1.0, |(k, _)| k);
    let (mut lo, mut hi) = (best / ratio, best * ratio);
    let phi = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..40 {
        let a = hi - phi * (hi - lo);
        let b = lo + phi * (hi - lo);
        if loss(a) < loss(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The best step of a fit so far, by the loss with the ridge penalty.
struct BestStep {
    /// The training loss plus the penalty.
    penalised: f64,
    /// The training loss alone.
    loss: f64,
    params: Params,
}

impl BestStep {
    /// Keeps `params` if its `loss` plus `penalty` beats the best so far.
    fn offer(&mut self, loss: f64, penalty: f64, params: &Params) {
        if loss + penalty < self.penalised {
            *self = BestStep {
                penalised: loss + penalty,
                loss,
                params: params.clone(),
            };
        }
    }
}

/// The index of the entry named `name` among chess's tables, the square
/// tables' entries first, then the mobility tables'.
fn table_index(name: &str) -> Option<usize> {
    chess_squares::find(name).or_else(|| {
        chess_mobility::TABLE
            .find(name)
            .map(|at| chess_squares::specs().len() + at)
    })
}

/// One fitted parameter's Adam state.
struct Coordinate {
    spec: &'static ParamSpec,
    /// Its index among chess's tables ([`table_index`]), whose gradient is
    /// exact.
    table: Option<usize>,
    value: f64,
    /// The starting value, which the ridge penalty pulls towards.
    start: f64,
    m: f64,
    v: f64,
}

impl Coordinate {
    /// The finite-difference step: half the SPSA step, at least 1.
    fn step(&self) -> i32 {
        ((self.spec.c_end / 2.0).round() as i32).max(1)
    }

    fn rounded(&self) -> i32 {
        (self.value.round() as i32).clamp(self.spec.min, self.spec.max)
    }

    /// The ridge penalty's share, `μ·((θ − θ₀)/100)²`, at the rounded value.
    fn penalty(&self, weight: f64) -> f64 {
        let d = (f64::from(self.rounded()) - self.start) / 100.0;
        weight * d * d
    }

    /// The penalty's derivative by the value.
    fn penalty_slope(&self, weight: f64) -> f64 {
        2.0 * weight * (f64::from(self.rounded()) - self.start) / 10_000.0
    }
}

/// Fits the parameters `options.selection` names to `data`, starting from
/// `start`, and reports the losses before and after; `progress` hears
/// after every step.
///
/// # Errors
/// [`TuneError::Options`] for options outside their domains (all of them),
/// and the errors of [`select`].
pub fn tune(
    data: &DataSet,
    start: &Params,
    options: &TuneOptions,
    progress: &mut dyn FnMut(Progress),
) -> Result<TuneReport, TuneError> {
    let mut violations = Vec::new();
    if !(0.0..=1.0).contains(&options.lambda) {
        violations.push(OptionViolation::Lambda(options.lambda));
    }
    if !(options.learning_rate.is_finite() && options.learning_rate > 0.0) {
        violations.push(OptionViolation::LearningRate(options.learning_rate));
    }
    if !(options.regularisation.is_finite() && options.regularisation >= 0.0) {
        violations.push(OptionViolation::Regularisation(options.regularisation));
    }
    if options.iterations == 0 {
        violations.push(OptionViolation::Iterations);
    }
    if !violations.is_empty() {
        return Err(TuneError::Options(violations));
    }
    let specs = select(&options.selection, &data.variants())?;
    let k = fit_k(&data.train, start, options.threads);
    let objective = Objective {
        k,
        lambda: options.lambda,
        threads: options.threads,
    };
    let n = data.train_len() as f64;
    let mut coords: Vec<Coordinate> = specs
        .iter()
        .map(|&spec| {
            let value = f64::from(start.get(spec.name).unwrap_or(spec.default));
            Coordinate {
                spec,
                table: table_index(spec.name),
                value,
                start: value,
                m: 0.0,
                v: 0.0,
            }
        })
        .collect();
    let mut current = start.clone();
    let train_before = objective.mean(&data.train, start);
    let penalty = |coords: &[Coordinate]| -> f64 {
        coords
            .iter()
            .map(|c| c.penalty(options.regularisation))
            .sum()
    };
    let mut best = BestStep {
        penalised: train_before,
        loss: train_before,
        params: start.clone(),
    };
    for t in 1..=options.iterations {
        for c in &coords {
            current.set(c.spec.name, i64::from(c.rounded()))?;
        }
        let loss = if t == 1 {
            train_before
        } else {
            objective.mean(&data.train, &current)
        };
        best.offer(loss, penalty(&coords), &current);
        let table_gradients = coords
            .iter()
            .any(|c| c.table.is_some())
            .then(|| objective.table_gradients(&data.train, &current));
        let mut gradients = Vec::with_capacity(coords.len());
        for c in &coords {
            let here = c.rounded();
            let (lo, hi) = (
                (here - c.step()).max(c.spec.min),
                (here + c.step()).min(c.spec.max),
            );
            if lo == hi {
                gradients.push(0.0);
                continue;
            }
            let data_slope = if let (Some(at), Some(exact)) = (c.table, &table_gradients) {
                exact[at] / n
            } else {
                let mut probe = current.clone();
                probe.set(c.spec.name, i64::from(hi))?;
                let up = objective.sum(&data.train, &probe, Some(c.spec));
                probe.set(c.spec.name, i64::from(lo))?;
                let down = objective.sum(&data.train, &probe, Some(c.spec));
                (up - down) / (f64::from(hi - lo) * n)
            };
            gradients.push(data_slope + c.penalty_slope(options.regularisation));
        }
        let t_i = i32::try_from(t).unwrap_or(i32::MAX);
        for (c, g) in coords.iter_mut().zip(gradients) {
            c.m = ADAM_BETA1 * c.m + (1.0 - ADAM_BETA1) * g;
            c.v = ADAM_BETA2 * c.v + (1.0 - ADAM_BETA2) * g * g;
            let m_hat = c.m / (1.0 - ADAM_BETA1.powi(t_i));
            let v_hat = c.v / (1.0 - ADAM_BETA2.powi(t_i));
            let rate = options.learning_rate * f64::from(c.spec.max - c.spec.min);
            c.value = (c.value - rate * m_hat / (v_hat.sqrt() + ADAM_EPSILON))
                .clamp(f64::from(c.spec.min), f64::from(c.spec.max));
        }
        progress(Progress {
            iteration: t,
            iterations: options.iterations,
            loss,
        });
    }
    for c in &coords {
        current.set(c.spec.name, i64::from(c.rounded()))?;
    }
    let last = objective.mean(&data.train, &current);
    best.offer(last, penalty(&coords), &current);
    let BestStep {
        loss: train_after,
        params,
        ..
    } = best;
    let holdout = (!data.holdout.is_empty()).then(|| LossChange {
        before: objective.mean(&data.holdout, start),
        after: objective.mean(&data.holdout, &params),
    });
    let fitted = specs
        .iter()
        .map(|s| ParamChange {
            name: s.name,
            before: start.get(s.name).unwrap_or(s.default),
            after: params.get(s.name).unwrap_or(s.default),
        })
        .collect();
    Ok(TuneReport {
        params,
        k,
        train: LossChange {
            before: train_before,
            after: train_after,
        },
        holdout,
        fitted,
    })
}
