//! Opening books of balanced positions: random plies from the start, kept
//! only when a short search of the builtin engine scores them within ±CP.

use crate::opening::{OpeningSource, Openings, Order};
use ajaxlab_engine::{Engine, Limits};
use ajaxlab_rules::Variant;
use ajaxlab_stats::{RandomSource, SplitMix64};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;

/// How to build a book.
#[derive(Clone, Debug)]
pub struct BookConfig {
    /// Variant: a built-in or one of a user's file.
    pub variant: &'static Variant,
    /// Random plies from the start.
    pub plies: u32,
    /// Keep positions scored within ±this, centipawns.
    pub max_eval: i32,
    /// Positions wanted.
    pub count: usize,
    /// Random seed (recorded in the file).
    pub seed: u64,
    /// Nodes of the balance search.
    pub nodes: u64,
}

/// A generated book: EPD lines and how many candidates were tried.
#[derive(Clone, Debug)]
pub struct Book {
    /// `# …` header, then one EPD line per position.
    pub lines: Vec<String>,
    /// Candidates searched.
    pub tried: u64,
}

/// Generates a book of distinct balanced positions. Gives up after
/// `50 × count` candidates and returns what it has.
pub fn generate(config: &BookConfig) -> Book {
    let source = match config.variant.start_count() {
        Some(_) => OpeningSource::RandomNumber,
        None => OpeningSource::Start,
    };
    let openings = Openings {
        variant: config.variant,
        source,
        order: Order::Random,
        random_plies: config.plies,
        imbalance: Default::default(),
    };
    let mut engine = Engine::new(8);
    let stop = AtomicBool::new(false);
    let limits = Limits {
        nodes: Some(config.nodes),
        ..Limits::default()
    };
    let mut rng = SplitMix64::new(config.seed);
    let mut seen = HashSet::new();
    let mut lines = vec![format!(
        "# ajaxlab book variant={} plies={} max-eval={} count={} seed={} nodes={}",
        config.variant.name(),
        config.plies,
        config.max_eval,
        config.count,
        config.seed,
        config.nodes
    )];
    let mut tried = 0;
    while lines.len() <= config.count && tried < 50 * config.count as u64 {
        tried += 1;
        let opening = openings.pick(rng.next_u64(), 0);
        let pos = opening.position();
        if opening.random_moves.len() < config.plies as usize || !seen.insert(pos.hash()) {
            continue;
        }
        engine.new_game();
        if engine.set_position(pos, &[]).is_err() {
            continue;
        }
        let Some(result) = engine.go(&limits, &stop, &mut |_| {}) else {
            continue;
        };
        let score = result.info.score.to_centipawns();
        if score.abs() <= config.max_eval {
            let fen = pos.fen();
            let fields: Vec<&str> = fen.split(' ').collect();
            lines.push(format!(
                "{} hmvc {}; fmvn {}; c0 \"eval {score} cp at {} nodes\";",
                fields[..4].join(" "),
                pos.halfmove_clock(),
                pos.fullmove_number(),
                config.nodes
            ));
        }
    }
    Book { lines, tried }
}
