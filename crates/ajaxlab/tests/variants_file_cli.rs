//! `--variants FILE` on `ajaxlab perft` and `ajaxlab fen`: `--variant` names
//! a section of a user's variants file, loaded beside the built-ins. The
//! counts and the FEN are Fairy-Stockfish's (pyffish, loaded with the same
//! file: perft by its legal moves, `get_fen` after the moves).

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");
const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fsf/model-variants.ini"
);

fn ajaxlab(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn stdout(args: &[&str]) -> String {
    let o = ajaxlab(args);
    assert!(
        o.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout).unwrap()
}

#[test]
fn perft_counts_a_section_of_a_variants_file() {
    for (variant, depth, nodes) in [
        ("capablanca-ini", "3", 25_228),
        ("lamehorse", "3", 4_836),
        ("dropwazir", "2", 400),
    ] {
        let out = stdout(&[
            "perft",
            "--variants",
            MODEL,
            "--variant",
            variant,
            "--depth",
            depth,
        ]);
        assert_eq!(out, format!("nodes {nodes}\n"), "{variant}");
    }
    // The built-ins stay where they were, with or without the file.
    let chess = ["perft", "--variant", "chess", "--depth", "2"];
    assert_eq!(stdout(&chess), "nodes 400\n");
    let beside = [
        "perft",
        "--variants",
        MODEL,
        "--variant",
        "afc",
        "--depth",
        "1",
    ];
    assert_eq!(stdout(&beside), "nodes 30\n");
}

#[test]
fn fen_plays_moves_in_a_section_of_a_variants_file() {
    let out = stdout(&[
        "fen",
        "--variants",
        MODEL,
        "--variant",
        "dropwazir",
        "--moves",
        "g1f3",
        "g8f6",
        "W@g1",
    ]);
    assert_eq!(
        out,
        "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKBWR[Www] b KQkq - 0 2\n"
    );
}

#[test]
fn an_unknown_section_or_a_bad_file_is_named() {
    let o = ajaxlab(&["fen", "--variants", MODEL, "--variant", "capablanca"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("unknown variant 'capablanca'"), "{err}");
    assert!(err.contains("capablanca-ini, gothic-ini"), "{err}");
    let o = ajaxlab(&["fen", "--variant", "capablanca-ini"]);
    assert!(!o.status.success(), "a section without its file");
    let bad = std::env::temp_dir().join(format!("ajaxlab-variants-{}.ini", std::process::id()));
    std::fs::write(&bad, "[mine:chess]\nknight = n\nbogus = 1\n").unwrap();
    let o = ajaxlab(&[
        "fen",
        "--variants",
        bad.to_str().unwrap(),
        "--variant",
        "mine",
    ]);
    let _ = std::fs::remove_file(&bad);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains(":3: bogus"), "{err}");
}
