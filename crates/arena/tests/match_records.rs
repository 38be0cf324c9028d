//! Matches end to end in-process: reproducibility, replayable records,
//! Parquet round trips.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_arena::{MatchConfig, MatchFile, Overrides, Progress, Start, run_match};
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

/// Runs `config` quietly, which must succeed.
fn played(config: &MatchConfig, start: Start) -> ajaxlab_arena::MatchSummary {
    run_match(config, Progress::Quiet, start).unwrap()
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
        let a = played(&config(variant, 6, temp_dir("repro-a"), 2), Start::New);
        let b = played(&config(variant, 6, temp_dir("repro-b"), 1), Start::New);
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
    let summary = played(&config("afc", 8, out.clone(), 2), Start::New);
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
    let summary = played(&config("amrc", 2, out.clone(), 1), Start::New);
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
    let first = played(&config("afc", 2, out.clone(), 1), Start::New);
    let before = games_of(&first.files);
    // A run into it is refused.
    let again = run_match(
        &config("afc", 2, out.clone(), 1),
        Progress::Quiet,
        Start::New,
    )
    .unwrap_err();
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
    assert!(run_match(&config, Progress::Quiet, Start::New).is_err());
    assert!(!out.exists(), "{} was left behind", out.display());
}

/// Writes the games of `pairs` (of `games`, a whole match's) into `out`,
/// as a match stopped with only those pairs written would have left it.
fn store_pairs(out: &std::path::Path, games: &[GameRecord], pairs: &[u64]) {
    std::fs::create_dir_all(out).unwrap();
    let kept: Vec<GameRecord> = games
        .iter()
        .filter(|g| pairs.contains(&g.pair_id))
        .cloned()
        .collect();
    write_games(
        &out.join("games-00000.parquet"),
        &kept,
        &FileMetadata::default(),
    )
    .unwrap();
}

#[test]
fn a_resumed_match_plays_only_the_missing_pairs_and_ends_as_the_whole_match() {
    let whole = played(&config("afc", 8, temp_dir("whole"), 1), Start::New);
    let whole_games = games_of(&whole.files);
    let out = temp_dir("resumed");
    store_pairs(&out, &whole_games, &[0, 2]);
    let resumed = played(&config("afc", 8, out.clone(), 2), Start::Resume);
    assert_eq!(resumed.resumed_pairs, 2);
    assert_eq!(
        resumed.stats.games(),
        8,
        "the stored pairs are counted once"
    );
    assert_eq!(resumed.stats.pentanomial, whole.stats.pentanomial);
    assert_eq!(resumed.files.len(), 2, "{:?}", resumed.files);
    let resumed_games: Vec<GameRecord> =
        games_of(&resumed.files).into_iter().map(timeless).collect();
    let whole_games: Vec<GameRecord> = whole_games.into_iter().map(timeless).collect();
    assert_eq!(resumed_games, whole_games);

    // A finished match resumed plays nothing; a larger --games extends it.
    let again = played(&config("afc", 8, out.clone(), 1), Start::Resume);
    assert_eq!((again.resumed_pairs, again.stats.games()), (4, 8));
    let extended = played(&config("afc", 10, out.clone(), 1), Start::Resume);
    assert_eq!((extended.resumed_pairs, extended.stats.games()), (4, 10));
}

#[test]
fn a_match_resumes_only_its_own_games() {
    let first = played(&config("afc", 4, temp_dir("own"), 1), Start::New);
    let games = games_of(&first.files);
    let refused = |config: MatchConfig| {
        let out = config.out.clone();
        store_pairs(&out, &games, &[0, 1]);
        run_match(&config, Progress::Quiet, Start::Resume)
            .unwrap_err()
            .to_string()
    };
    let mut other_tc = config("afc", 4, temp_dir("other-tc"), 1);
    other_tc.players[1].tc = "nodes=500".parse().unwrap();
    let e = refused(other_tc);
    assert!(e.contains("game 0 (pair 0) was played with time control \"nodes=400\", where this match plays \"nodes=400 / nodes=500\""), "{e}");
    let mut other_seed = config("afc", 4, temp_dir("other-seed"), 1);
    other_seed.seed = 43;
    let e = refused(other_seed);
    assert!(e.contains("was played with seed"), "{e}");
    let mut other_params = config("afc", 4, temp_dir("other-params"), 1);
    if let ajaxlab_arena::config::PlayerKind::Builtin(params, _) = &mut other_params.players[0].kind
    {
        params.set("afc.falcon.mg", 600).unwrap();
    }
    let e = refused(other_params);
    assert!(e.contains("parameters White afc.falcon.mg = "), "{e}");
    let e = refused(config("afc", 2, temp_dir("fewer"), 1));
    assert!(
        e.contains("holds pair 1, beyond the 2 games asked for: resume with --games 4 or more"),
        "{e}"
    );
}

/// A variant of a user's file: its pieces' values are parameters a player
/// sets by name, and every game records them beside the table's, under
/// names the file's metadata lists.
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
    let summary = played(&config, Start::New);
    let stored = read_games(&summary.files[0]).unwrap();
    let names = &stored.metadata.param_names;
    let at = names.iter().position(|n| n == "squirrel.s.mg").unwrap();
    let default = ajaxlab_engine::Params::default()
        .get("squirrel.s.mg")
        .unwrap();
    assert_ne!(default, 700);
    let game = &stored.games[0];
    assert_eq!(game.white.params.len(), names.len());
    assert_eq!(
        (game.white.params[at], game.black.params[at]),
        (700, default)
    );
}

/// One match at a time writes a directory: while a match holds it, another
/// one, resumed or new, is refused naming the holder, and the games stay
/// as they were.
#[test]
fn a_second_match_on_a_directory_in_use_is_refused() {
    let out = temp_dir("in-use");
    let first = played(&config("afc", 2, out.clone(), 1), Start::New);
    let before = games_of(&first.files);
    let held =
        ajaxlab_store::lock::DirectoryLock::take(&out, ajaxlab_arena::runner::MATCH_LOCK).unwrap();
    let e = run_match(
        &config("afc", 4, out.clone(), 1),
        Progress::Quiet,
        Start::Resume,
    )
    .unwrap_err()
    .to_string();
    let pid = std::process::id();
    assert!(
        e.contains(&format!("is in use by another process (pid {pid})")),
        "{e}"
    );
    assert_eq!(games_of(&first.files), before);
    drop(held);
    let resumed = played(&config("afc", 4, out, 1), Start::Resume);
    assert_eq!((resumed.resumed_pairs, resumed.stats.games()), (1, 4));
}
