//! Differential test of variants loaded from a file: ajaxlab reads
//! `tests/fsf/model-variants.ini` with its own reader and loads every
//! section (`VariantSet::with_file`, `Variant::load`); Fairy-Stockfish
//! (pyffish) loads the same file. Fairy-Stockfish plays random games in
//! each of its eight variants (six it also defines in code, capablanca,
//! gothic, embassy, janus, modern and chancellor, and two invented ones
//! with custom Betza pieces: lame pieces in `lamehorse`, drops in
//! `dropwazir`), and ajaxlab replays them with the same FEN and the same
//! legal moves at every position.
//!
//! SAN is not compared here: Fairy-Stockfish's SAN of a piece without a
//! built-in kind is its letter, as ajaxlab's, and each pyffish call costs
//! milliseconds, which this test spends on more positions instead.
//!
//! Needs a Python with pyffish, found as `fsf_differential.rs` finds it
//! (`common/mod.rs`).

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;
mod model;

use ajaxlab_rules::{Position, StartSpec, VariantSet};
use common::{Job, Playouts, repo_root};
use model::MODEL_SECTIONS;

/// Games per variant and plies per game: each pyffish call costs about
/// 4 ms, two per position, so this keeps the test near half a minute.
const GAMES: u32 = 8;
const MAX_PLIES: u32 = 70;

#[test]
fn variants_loaded_from_a_file_play_as_fairy_stockfish_plays_the_file() {
    let file = repo_root().join("tests/fsf/model-variants.ini");
    let set = VariantSet::with_file(&file).unwrap_or_else(|e| panic!("{e}"));
    let mut jobs = Vec::new();
    for (v, name) in MODEL_SECTIONS.iter().enumerate() {
        let variant = set.get(name).unwrap_or_else(|| panic!("no variant {name}"));
        assert_eq!(variant.builtin(), None, "{name}");
        let fen = Position::start_in(variant, &StartSpec::Default)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .fen();
        for game in 0..GAMES {
            jobs.push(Job {
                variant,
                fsf_name: (*name).to_owned(),
                chess960: false,
                fen: fen.clone(),
                seed: 14_000 + 100 * u64::try_from(v).unwrap() + u64::from(game),
                max_plies: MAX_PLIES,
            });
        }
    }
    let playouts = Playouts {
        variants_file: Some(file),
        san: false,
    };
    let compared = playouts.compare(&jobs);
    for name in MODEL_SECTIONS {
        let n = compared.positions.get(name).copied().unwrap_or(0);
        assert!(n >= 400, "only {n} positions of {name} were compared");
    }
    let drops = compared
        .played
        .iter()
        .filter(|m| m.starts_with("W@"))
        .count();
    assert!(drops >= 4, "only {drops} drops of dropwazir were played");
    eprintln!("positions compared: {:?}", compared.positions);
}
