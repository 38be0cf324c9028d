//! Matches end to end in-process: reproducibility, replayable records,
//! Parquet round trips.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_arena::{MatchConfig, MatchFile, Overrides, Progress, run_match};
use ajaxlab_rules::{Game, Position, VariantKind};
use ajaxlab_store::{FileMetadata, GameRecord, Termination, read_games, write_games};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

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

fn games_of(files: &[PathBuf]) -> Vec<GameRecord> {
    let mut all: Vec<GameRecord> = files
        .iter()
        .flat_map(|f| read_games(f).unwrap().games)
        .collect();
    all.sort_by_key(|g| g.game_id);
    all
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
        let a = run_match(&config(variant, 6, temp_dir("repro-a"), 2), Progress::Quiet).unwrap();
        let b = run_match(&config(variant, 6, temp_dir("repro-b"), 1), Progress::Quiet).unwrap();
        let ga: Vec<GameRecord> = games_of(&a.files).into_iter().map(timeless).collect();
        let gb: Vec<GameRecord> = games_of(&b.files).into_iter().map(timeless).collect();
        assert_eq!(ga.len(), 6);
        assert_eq!(ga, gb, "{variant}: same config and seed, different games");
        assert_eq!(a.stats, b.stats);
    }
}

#[test]
fn every_record_replays_and_its_result_follows_from_the_moves() {
    let out = temp_dir("replay");
    let summary = run_match(&config("afc", 8, out.clone(), 2), Progress::Quiet).unwrap();
    let games = games_of(&summary.files);
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
    let leftovers: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "tmp"))
        .collect();
    assert!(leftovers.is_empty(), "no temporary file is left behind");
}

#[test]
fn parquet_round_trips_records_and_parameter_names() {
    let out = temp_dir("roundtrip");
    let summary = run_match(&config("amrc", 2, out.clone(), 1), Progress::Quiet).unwrap();
    let games = games_of(&summary.files);
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

#[test]
fn a_run_directory_that_holds_games_is_never_overwritten() {
    let out = temp_dir("kept");
    let first = run_match(&config("afc", 2, out.clone(), 1), Progress::Quiet).unwrap();
    let before = games_of(&first.files);
    // A run into it is refused.
    let again = run_match(&config("afc", 2, out.clone(), 1), Progress::Quiet).unwrap_err();
    assert!(again.to_string().contains("never overwritten"), "{again}");
    assert_eq!(
        games_of(&first.files),
        before,
        "the earlier games are intact"
    );
}

#[test]
fn a_failed_start_leaves_no_empty_run_directory() {
    let out = temp_dir("failed-start");
    let file: MatchFile = toml::from_str("").unwrap();
    let config = MatchConfig::build(
        file,
        Overrides {
            players: vec!["builtin".into(), "uci:/nonexistent/engine".into()],
            out: Some(out.clone()),
            ..Overrides::default()
        },
    )
    .unwrap();
    assert!(run_match(&config, Progress::Quiet).is_err());
    assert!(!out.exists(), "{} was left behind", out.display());
}
