//! Games as the pool plays them, in-process: reproducibility whatever the
//! threads, replayable records, Parquet round trips. (A match's directory,
//! resume and refusals are the binary's: `crates/ajaxlab/tests/match_cli.rs`.)

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_arena::pool::play_pairs;
use ajaxlab_arena::{MatchConfig, MatchFile, Overrides};
use ajaxlab_rules::{Game, Position, VariantKind};
use ajaxlab_store::{FileMetadata, GameRecord, Termination, read_games, write_games};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "ajaxlab-test-{}-{tag}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn config(variant: &str, games: u64, out: PathBuf, concurrency: usize) -> MatchConfig {
    let file: MatchFile = toml::from_str("[adjudication]\nmax_plies = 160\n").unwrap();
    MatchConfig::build(
        file,
        Overrides {
            variant: Some(variant.into()),
            games: Some(games),
            concurrency: Some(concurrency),
            tc: Some("nodes=400".into()),
            out: Some(out),
            seed: Some(42),
            ..Overrides::default()
        },
    )
    .unwrap()
}

/// Every game of `config`, played by the pool on its `concurrency`
/// threads, in game id order.
fn played(config: &MatchConfig) -> Vec<GameRecord> {
    let mut games = Vec::new();
    let abort = Arc::new(AtomicBool::new(false));
    play_pairs(
        config,
        0..config.pairs,
        config.concurrency,
        &abort,
        |pair| {
            games.extend(pair);
        },
    )
    .unwrap();
    games.sort_by_key(|g| g.game_id);
    games
}

/// A record with the clock readings blanked.
fn timeless(mut g: GameRecord) -> GameRecord {
    g.started_at_ms = 0;
    g.ended_at_ms = 0;
    for m in &mut g.moves {
        m.time_ms = 0;
    }
    g
}

#[test]
fn the_same_seed_and_node_limits_give_the_same_games() {
    for variant in ["afc", "amrc"] {
        let a = played(&config(variant, 6, temp_dir("repro-a"), 2));
        let b = played(&config(variant, 6, temp_dir("repro-b"), 1));
        let ga: Vec<GameRecord> = a.into_iter().map(timeless).collect();
        let gb: Vec<GameRecord> = b.into_iter().map(timeless).collect();
        assert_eq!(ga.len(), 6);
        assert_eq!(ga, gb, "{variant}: same config and seed, different games");
    }
}

#[test]
fn every_record_replays_and_its_result_follows_from_the_moves() {
    let games = played(&config("afc", 8, temp_dir("replay"), 2));
    assert_eq!(games.len(), 8);
    let ids: std::collections::HashSet<u64> = games.iter().map(|g| g.game_id).collect();
    assert_eq!(ids.len(), 8, "game ids are unique");
    for g in &games {
        let start = Position::from_fen(VariantKind::AjaxFalcon, &g.start_fen).unwrap();
        let mut game = Game::new(start);
        for uci in g.opening_moves.iter().chain(g.moves.iter().map(|m| &m.uci)) {
            let m = game.position().parse_uci(uci).unwrap();
            game.play(m).unwrap();
        }
        assert_eq!(game.position().fen(), g.final_fen);
        let expected = game.outcome().map(Termination::from);
        match expected {
            Some(t) => {
                assert_eq!(g.termination, t);
                assert_eq!(g.result, game.outcome().unwrap().result());
            }
            None => assert!(
                matches!(
                    g.termination,
                    Termination::MaxPlies
                        | Termination::AdjudicatedDraw
                        | Termination::AdjudicatedResign
                ),
                "{:?}",
                g.termination
            ),
        }
        assert!(
            g.moves
                .iter()
                .all(|m| m.nodes.is_some() && m.depth.is_some() && m.score.is_some())
        );
        assert_eq!(g.white.params.len(), ajaxlab_engine::params::SPECS.len());
    }
}

#[test]
fn parquet_round_trips_records_and_parameter_names() {
    let out = temp_dir("roundtrip");
    let games = played(&config("amrc", 2, out.clone(), 1));
    std::fs::create_dir_all(&out).unwrap();
    let path = out.join("copy.parquet");
    let metadata = FileMetadata {
        param_names: vec!["a".to_owned(), "b".to_owned()],
        ..FileMetadata::default()
    };
    write_games(&path, &games, &metadata).unwrap();
    let back = read_games(&path).unwrap();
    assert_eq!(back.games, games);
    assert_eq!(back.metadata, metadata);
    assert!(
        games.iter().all(|g| g.start_number.is_some()),
        "AMRC records keep the start number"
    );
}

#[test]
fn a_write_that_fails_leaves_no_file() {
    let path = temp_dir("missing-dir").join("sub").join("games.parquet");
    assert!(write_games(&path, &[], &FileMetadata::default()).is_err());
    assert!(!path.exists());
}

/// A variant of a user's file: its pieces' values are parameters a player
/// sets by name, and every game records them beside the table's, in the
/// order of the variant's parameter list.
#[test]
fn a_file_variant_s_piece_values_are_set_and_recorded_by_name() {
    let variants = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../configs/designer/squirrel.ini"
    );
    let file: MatchFile = toml::from_str(&format!(
        "variant = \"squirrel\"\nvariants = \"{variants}\"\n\
         [adjudication]\nmax_plies = 40\n\
         [[players]]\nengine = \"builtin\"\nset = {{ \"squirrel.s.mg\" = 700 }}\n\
         [[players]]\nengine = \"builtin\"\n"
    ))
    .unwrap();
    let out = temp_dir("squirrel-values");
    let config = MatchConfig::build(
        file,
        Overrides {
            games: Some(2),
            concurrency: Some(1),
            tc: Some("nodes=300".into()),
            out: Some(out),
            ..Overrides::default()
        },
    )
    .unwrap();
    let games = played(&config);
    let names: Vec<&str> = ajaxlab_engine::params::specs_for(config.variant)
        .iter()
        .map(|s| s.name)
        .collect();
    let at = names.iter().position(|n| *n == "squirrel.s.mg").unwrap();
    let default = ajaxlab_engine::Params::default()
        .get("squirrel.s.mg")
        .unwrap();
    assert_ne!(default, 700);
    let game = &games[0];
    assert_eq!(game.white.params.len(), names.len());
    assert_eq!(
        (game.white.params[at], game.black.params[at]),
        (700, default)
    );
}
