//! `ajaxlab tune` as a user calls it: games files from random play in a
//! run directory, the losses and the parameter file it writes (which the
//! engine's loader reads back), and bad input ending in an error that names
//! it; and the data-generation campaign files parse.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_engine::Params;
use ajaxlab_report::synthetic::{self, CHESS_FEN, temp_dir};
use ajaxlab_rules::{Color, GameResult, PieceKind, Position, VariantKind};
use ajaxlab_store::{KindMetadata, MoveRecord};
use std::path::Path;
use std::process::Command;

/// Runs `ajaxlab tune ARGS…`: (success, stdout, stderr).
fn tune(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_ajaxlab"))
        .arg("tune")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// Games of 30 random plies from the chess start, won by the side with
/// more pieces at the end (drawn when equal), in `file`.
fn write_random_games(file: &Path, count: u64) {
    let mut state = 0x1234_5678_u64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let games: Vec<_> = (0..count)
        .map(|id| {
            let mut pos = Position::from_fen(VariantKind::Chess, CHESS_FEN).unwrap();
            let mut moves = Vec::new();
            for _ in 0..30 {
                let legal = pos.legal_moves();
                if legal.is_empty() {
                    break;
                }
                let m = legal[(next() % legal.len() as u64) as usize];
                moves.push(MoveRecord {
                    uci: pos.uci(m).to_string(),
                    score: Some(0),
                    depth: Some(1),
                    nodes: Some(1),
                    time_ms: 0,
                });
                pos.play(m).unwrap();
            }
            let count = |c: Color| {
                PieceKind::all()
                    .filter(|&k| k != PieceKind::PAWN)
                    .map(|k| pos.pieces(c, k).count())
                    .sum::<u32>()
            };
            let result = match count(Color::White).cmp(&count(Color::Black)) {
                std::cmp::Ordering::Greater => GameResult::WhiteWins,
                std::cmp::Ordering::Less => GameResult::BlackWins,
                std::cmp::Ordering::Equal => GameResult::Draw,
            };
            let mut game = synthetic::game("random", id, result);
            game.moves = moves;
            game.final_fen = pos.fen();
            game
        })
        .collect();
    synthetic::write(
        file,
        &games,
        &synthetic::metadata(KindMetadata::Match, "random"),
    )
    .unwrap();
}

#[test]
fn tunes_a_run_directory_and_writes_a_loadable_file() {
    let dir = temp_dir("tune").unwrap();
    write_random_games(&dir.join("run").join("games-00000.parquet"), 60);
    write_random_games(&dir.join("run").join("sub").join("unit-00001.parquet"), 60);
    std::fs::write(dir.join("run").join("notes.txt"), "not a games file").unwrap();
    let out = dir.join("tuned.toml");
    let (ok, stdout, stderr) = tune(&[
        dir.join("run").to_str().unwrap(),
        "--params",
        "chess.knight.mg,chess.rook.mg",
        "--iterations",
        "3",
        "--skip-plies",
        "4",
        "--holdout",
        "0.25",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(
        stdout.contains("120 games from 2 files (chess)"),
        "{stdout}"
    );
    assert!(stdout.contains("train loss"), "{stdout}");
    assert!(stdout.contains("held-out loss"), "{stdout}");
    assert!(stdout.contains("of 2 parameters changed"), "{stdout}");
    let text = std::fs::read_to_string(&out).unwrap();
    let params = Params::from_text(&text).unwrap();
    assert!(text.contains("\"chess.knight.mg\" = "), "{text}");
    assert!(
        !text.contains("afc."),
        "only what chess players read: {text}"
    );
    assert_eq!(params.afc_falcon_mg, Params::default().afc_falcon_mg);
    // A glob finds the same files, and a second run from the first's output starts there.
    let pattern = format!("{}/**/*-0000?.parquet", dir.join("run").display());
    let again = dir.join("again.toml");
    let (ok, stdout, stderr) = tune(&[
        &pattern,
        "--prefix",
        "chess.knight.",
        "--iterations",
        "1",
        "--holdout",
        "0",
        "--from",
        out.to_str().unwrap(),
        "--out",
        again.to_str().unwrap(),
    ]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("from 2 files"), "{stdout}");
    assert!(!stdout.contains("held-out loss"), "{stdout}");
    let second = Params::from_text(&std::fs::read_to_string(&again).unwrap()).unwrap();
    assert_eq!(second.chess_rook_mg, params.chess_rook_mg);
}

#[test]
fn bad_input_is_named() {
    let dir = temp_dir("tune-bad").unwrap();
    let games = dir.join("games-00000.parquet");
    write_random_games(&games, 8);
    let games = games.to_str().unwrap();

    let fake = dir.join("fake").join("games-00000.parquet");
    std::fs::create_dir_all(fake.parent().unwrap()).unwrap();
    std::fs::write(&fake, "this is not parquet").unwrap();
    let (ok, _, stderr) = tune(&[fake.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("not a games file"), "{stderr}");
    assert!(stderr.contains(fake.to_str().unwrap()), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");

    let (ok, _, stderr) = tune(&[games, "--params", "chess.dragon.mg", "--holdout", "0"]);
    assert!(!ok);
    assert!(
        stderr.contains("unknown parameter 'chess.dragon.mg'"),
        "{stderr}"
    );

    let (ok, _, stderr) = tune(&[games, "--skip-plies", "1000"]);
    assert!(!ok);
    assert!(stderr.contains("empty data set"), "{stderr}");

    let empty = dir.join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    let (ok, _, stderr) = tune(&[empty.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("no games files"), "{stderr}");
    assert!(stderr.contains(empty.to_str().unwrap()), "{stderr}");

    let missing = dir.join("missing");
    let (ok, _, stderr) = tune(&[missing.to_str().unwrap()]);
    assert!(!ok);
    assert!(stderr.contains("no such file or directory"), "{stderr}");
}

#[test]
fn the_data_generation_campaigns_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for (file, variant) in [
        ("tune-data.toml", VariantKind::AjaxFalcon),
        ("tune-data-amrc.toml", VariantKind::AjaxModernRandom),
        ("tune-data-chess.toml", VariantKind::Chess),
    ] {
        let text = std::fs::read_to_string(root.join("configs").join(file)).unwrap();
        // The book paths are relative to the repository's root.
        let text = text.replace(
            "file:configs/",
            &format!("file:{}/configs/", root.display()),
        );
        let specs = ajaxlab_cluster::campaign::parse_campaign(&text)
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(specs.len(), 1, "{file}");
        assert_eq!(specs[0].config.variant, variant.variant(), "{file}");
    }
}

#[test]
fn the_stockfish_data_generation_matches_parse() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    for (file, variant) in [
        ("tune-data-fsf-afc.toml", "ajax-falcon"),
        ("tune-data-fsf-amrc.toml", "ajax-modern-random"),
        ("tune-data-stockfish-chess.toml", "chess"),
    ] {
        let match_file = ajaxlab_arena::config::read_match_file(&root.join("configs").join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        assert_eq!(match_file.variant.as_deref(), Some(variant), "{file}");
        assert_eq!(match_file.players.map(|p| p.len()), Some(2), "{file}");
    }
}
