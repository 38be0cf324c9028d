//! Match statistics for engine testing, following Fishtest's published
//! formulas: pure maths, no I/O, nothing about chess.
//!
//! * [`Trinomial`] and [`Pentanomial`] count results per game and per game
//!   pair, with score, variance, draw ratio, logistic Elo and normalized Elo
//!   estimates with 95% intervals, and LOS; [`elo_to_score`],
//!   [`score_to_elo`] and [`los`] convert between the scales.
//! * [`llr()`] is Fishtest's generalized log-likelihood ratio and [`Sprt`]
//!   its sequential test, with the dynamic overshoot correction and the
//!   bias-corrected Elo estimate after stopping.
//! * [`Spsa`] is Fishtest's SPSA tuner as a state machine that hands out
//!   many perturbations at once and applies each result exactly once;
//!   [`parse_spsa_lines`] and [`spsa_line`] read and write its parameters
//!   as Fishtest's lines.
//! * [`chi_square_sf`] gives chi-square p-values (regularized incomplete
//!   gamma), [`heterogeneity()`] tests whether groups differ by more than
//!   noise and shrinks their estimates (empirical Bayes),
//!   [`logistic_regression`] fits results on covariates by IRLS with
//!   standard errors, and [`ratio()`] divides two estimates with delta-method
//!   and Fieller intervals.
//! * [`fit_ratings`] makes a rating table over many players from their
//!   pairwise scores (maximum-likelihood Bradley–Terry, as Ordo does).
//! * Randomness is injected through [`RandomSource`]; [`SplitMix64`] makes
//!   runs reproducible from a seed.
//!
//! ```
//! use ajaxlab_stats::{EloModel, Pentanomial, Sprt, SprtConfig, Status};
//!
//! let counts = Pentanomial::new([292, 5_905, 28_939, 6_129, 299]);
//! let elo = counts.elo().unwrap();
//! println!("Elo {:+.2} ± {:.2}, LOS {:.1}%", elo.elo, elo.interval.half_width(), 100.0 * elo.los);
//!
//! let mut sprt = Sprt::new(SprtConfig::new(-0.25, 1.25, EloModel::Logistic)).unwrap();
//! assert_eq!(sprt.update(counts).unwrap(), Status::AcceptH1);
//! assert!((sprt.llr() - 2.95).abs() < 0.005); // as Fishtest reported
//! ```

mod brownian;
mod chi_square;
mod counts;
pub mod counts_text;
mod elo;
mod heterogeneity;
mod llr;
mod logistic;
mod normal;
mod pdf;
mod ratings;
mod ratio;
mod rng;
mod root;
mod sprt;
mod sprt_elo;
mod sprt_text;
mod spsa;
mod spsa_config;
mod spsa_lines;

pub use chi_square::{DistributionError, chi_square_cdf, chi_square_sf, ln_gamma};
pub use counts::{Counts, GameScore, Pentanomial, Trinomial};
pub use elo::{
    EloError, EloEstimate, Interval, NELO_PER_T, NeloEstimate, elo_to_score, los, score_to_elo,
};
pub use heterogeneity::{
    GroupEstimate, Heterogeneity, HeterogeneityError, Shrunken, heterogeneity,
};
pub use llr::{EloModel, LlrError, UnknownEloModel, llr};
pub use logistic::{Dispersion, LogisticFit, RegressionError, logistic, logistic_regression};
pub use ratings::{PairingScore, Rating, RatingError, fit_ratings};
pub use ratio::{NormalEstimate, RatioError, RatioEstimate, Z_95, ratio};
pub use rng::{RandomSource, SplitMix64};
pub use sprt::{
    DEFAULT_ERROR_RATE, InvalidSprtConfig, LlrBounds, Sprt, SprtConfig, SprtError, SprtViolation,
    Status,
};
pub use sprt_text::{hypotheses_text, llr_text, verdict_text};
pub use spsa::{
    DEFAULT_A_RATIO, DEFAULT_ALPHA, DEFAULT_GAMMA, Flip, InvalidSpsaConfig, ParamProblem,
    Perturbation, PerturbationId, Spsa, SpsaConfig, SpsaError, SpsaParam, SpsaViolation,
    stochastic_round,
};
pub use spsa_lines::{
    SPSA_FIELDS, SpsaField, SpsaLine, SpsaLineError, SpsaLineProblem, SpsaValueType,
    parse_spsa_lines, spsa_line,
};
