//! The positions a tune fits: stored games replayed from their starts,
//! their quiet positions sampled (seeded) and split by game into training
//! and held-out sets.

use super::{OptionViolation, TuneError};
use crate::eval::Evaluator;
use crate::params::Params;
use ajaxlab_rules::{Color, Position, Variant};

/// One move of a stored game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainingMove {
    /// UCI text.
    pub uci: String,
    /// The mover's search score before the move, centipawns, mover's view.
    pub score: Option<i32>,
}

/// A stored game, as the tuner needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct TrainingGame {
    /// Where it came from, for errors (e.g. `runs/a/games-00000.parquet game 7`).
    pub label: String,
    /// The variant.
    pub variant: &'static Variant,
    /// The FEN the moves start from.
    pub start_fen: String,
    /// Every move from `start_fen` on (opening plies included).
    pub moves: Vec<TrainingMove>,
    /// White's score: 1, 0.5 or 0 (any value in between is taken as given).
    pub white_score: f64,
}

/// How positions are drawn from games.
#[derive(Clone, Debug, PartialEq)]
pub struct SampleOptions {
    /// Plies from the start of each game that are never sampled.
    pub skip_plies: usize,
    /// At most this many positions in all (a seeded uniform sample beyond it).
    pub max_positions: usize,
    /// The share of games held out, in `[0, 1)`.
    pub holdout: f64,
    /// The seed of the sample and of the split.
    pub seed: u64,
}

impl Default for SampleOptions {
    fn default() -> Self {
        SampleOptions {
            skip_plies: 8,
            max_positions: 200_000,
            holdout: 0.1,
            seed: 1,
        }
    }
}

fn move_error(game: &str, ply: usize, uci: &str, message: String) -> TuneError {
    TuneError::Move {
        game: game.to_owned(),
        ply,
        uci: uci.to_owned(),
        message,
    }
}

/// One position to fit.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sample {
    pub(super) position: Position,
    /// White's score in the game.
    pub(super) result: f64,
    /// The stored search score, White's view.
    pub(super) score: Option<i32>,
}

/// The positions of one variant.
#[derive(Clone, Debug)]
pub(super) struct Group {
    pub(super) variant: &'static Variant,
    pub(super) samples: Vec<Sample>,
}

/// A sample drawn before the split.
struct Candidate {
    game: usize,
    variant: &'static Variant,
    sample: Sample,
}

/// SplitMix64: a seeded stream for the sample and the split.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `[0, 1)`.
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        // The bias of a modulo is below 2^-40 for any data set that fits in memory.
        (self.next() % n as u64) as usize
    }
}

/// Training and held-out positions drawn from games.
#[derive(Clone, Debug)]
pub struct DataSet {
    pub(super) train: Vec<Group>,
    pub(super) holdout: Vec<Group>,
    pub(super) games: usize,
}

impl DataSet {
    /// Replays `games` and samples their quiet positions (quiet as the
    /// evaluation under `params` sees them), then splits them by game.
    ///
    /// # Errors
    /// [`TuneError::Fen`] or [`TuneError::Move`] naming the game for a
    /// start or a move that cannot be played; [`TuneError::Options`] for a
    /// held-out share outside `[0, 1)` or a zero cap;
    /// [`TuneError::EmptyDataSet`] when no position qualifies;
    /// [`TuneError::Split`] when the split leaves either side empty.
    pub fn from_games(
        games: &[TrainingGame],
        params: &Params,
        options: &SampleOptions,
    ) -> Result<DataSet, TuneError> {
        let mut violations = Vec::new();
        if !(0.0..1.0).contains(&options.holdout) {
            violations.push(OptionViolation::Holdout(options.holdout));
        }
        if options.max_positions == 0 {
            violations.push(OptionViolation::MaxPositions);
        }
        if !violations.is_empty() {
            return Err(TuneError::Options(violations));
        }
        let mut evaluators: Vec<(&'static Variant, Evaluator)> = Vec::new();
        let mut rng = Rng(options.seed);
        let mut kept: Vec<Candidate> = Vec::new();
        let mut seen = 0usize;
        for (index, game) in games.iter().enumerate() {
            let eval = cached(&mut evaluators, game.variant, params);
            let mut pos =
                Position::from_fen_in(game.variant, &game.start_fen).map_err(|source| {
                    TuneError::Fen {
                        game: game.label.clone(),
                        source,
                    }
                })?;
            for (ply, m) in game.moves.iter().enumerate() {
                if ply >= options.skip_plies && eval.is_quiet(&pos) {
                    let white = pos.side_to_move() == Color::White;
                    let sample = Sample {
                        position: pos,
                        result: game.white_score,
                        score: m.score.map(|s| if white { s } else { -s }),
                    };
                    let candidate = Candidate {
                        game: index,
                        variant: game.variant,
                        sample,
                    };
                    // Reservoir sampling: every position seen so far is kept
                    // with the same chance.
                    if kept.len() < options.max_positions {
                        kept.push(candidate);
                    } else {
                        let slot = rng.below(seen + 1);
                        if let Some(place) = kept.get_mut(slot) {
                            *place = candidate;
                        }
                    }
                    seen += 1;
                }
                let bad = |message: String| move_error(&game.label, ply + 1, &m.uci, message);
                let mv = pos.parse_uci(&m.uci).map_err(|e| bad(e.to_string()))?;
                pos.play(mv).map_err(|e| bad(e.to_string()))?;
            }
        }
        if kept.is_empty() {
            return Err(TuneError::EmptyDataSet {
                games: games.len(),
                skip_plies: options.skip_plies,
            });
        }
        let held: Vec<bool> = (0..games.len())
            .map(|g| Rng(options.seed ^ (g as u64).wrapping_mul(0xA24B_AED4_963E_E407)).unit())
            .map(|u| u < options.holdout)
            .collect();
        let mut train = Vec::new();
        let mut holdout = Vec::new();
        for c in kept {
            let side = if held.get(c.game).copied().unwrap_or(false) {
                &mut holdout
            } else {
                &mut train
            };
            push(side, c.variant, c.sample);
        }
        let data = DataSet {
            train,
            holdout,
            games: games.len(),
        };
        let (n_train, n_held) = (data.train_len(), data.holdout_len());
        if n_train == 0 || (options.holdout > 0.0 && n_held == 0) {
            return Err(TuneError::Split {
                holdout: options.holdout,
                train: n_train,
                held: n_held,
            });
        }
        Ok(data)
    }

    /// Training positions.
    pub fn train_len(&self) -> usize {
        self.train.iter().map(|g| g.samples.len()).sum()
    }

    /// Held-out positions.
    pub fn holdout_len(&self) -> usize {
        self.holdout.iter().map(|g| g.samples.len()).sum()
    }

    /// Games the positions were drawn from.
    pub fn games(&self) -> usize {
        self.games
    }

    /// The variants present, in first-seen order.
    pub fn variants(&self) -> Vec<&'static Variant> {
        let mut out: Vec<&'static Variant> = Vec::new();
        for g in self.train.iter().chain(&self.holdout) {
            if !out.contains(&g.variant) {
                out.push(g.variant);
            }
        }
        out
    }
}

/// The evaluator of `variant` from `cache`, made on first use.
fn cached<'a>(
    cache: &'a mut Vec<(&'static Variant, Evaluator)>,
    variant: &'static Variant,
    params: &Params,
) -> &'a Evaluator {
    let at = match cache.iter().position(|(v, _)| *v == variant) {
        Some(at) => at,
        None => {
            cache.push((variant, Evaluator::new(variant, params)));
            cache.len() - 1
        }
    };
    &cache[at].1
}

fn push(groups: &mut Vec<Group>, variant: &'static Variant, sample: Sample) {
    match groups.iter_mut().find(|g| g.variant == variant) {
        Some(g) => g.samples.push(sample),
        None => groups.push(Group {
            variant,
            samples: vec![sample],
        }),
    }
}
