//! `--variants FILE` on `ajaxlab perft` and `ajaxlab fen`: `--variant` names
//! a section of a user's variants file, loaded beside the built-ins; and
//! `ajaxlab check FILE`, the file checked section by section. The
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
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("needs --variants FILE"), "{err}");
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

/// A fresh directory below the temporary one, unique to this test.
fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ajaxlab-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// A match of a section of a user's file: the builtin engine against
/// `ajaxlab uci`, which receives the file as `VariantPath` from the arena
/// (it knows no `lamehorse` otherwise); the games are recorded under the
/// section's name, and read back, PGN and report, through the definition
/// the games file carries.
#[test]
fn a_match_plays_a_section_of_a_variants_file() {
    let out = scratch("file-variant-match");
    let uci = format!("uci:{BIN},arg=uci");
    let o = ajaxlab(&[
        "match",
        "--variants",
        MODEL,
        "--variant",
        "lamehorse",
        "--games",
        "2",
        "--tc",
        "nodes=400",
        "--player",
        "builtin",
        "--player",
        &uci,
        "--concurrency",
        "1",
        "--seed",
        "5",
        "--pgn",
        "--quiet",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let printed = String::from_utf8_lossy(&o.stdout);
    let written = printed
        .lines()
        .find_map(|l| {
            l.strip_prefix("wrote ")
                .filter(|f| f.ends_with("games.pgn"))
        })
        .unwrap_or_else(|| panic!("no games.pgn written: {printed}"));
    let pgn = std::fs::read_to_string(written).unwrap();
    assert_eq!(pgn.matches("[Variant \"lamehorse\"]").count(), 2, "{pgn}");
    // Opened from the start of the file's variant, so no FEN tag.
    assert!(!pgn.contains("[FEN "), "{pgn}");
    let report = stdout(&["report", out.to_str().unwrap()]);
    assert!(report.contains("match-lamehorse-5"), "{report}");
    assert!(report.contains("games 2 (1 pairs"), "{report}");
    let _ = std::fs::remove_dir_all(&out);
}

/// `ajaxlab book` of a file's section: balanced positions of that variant.
#[test]
fn a_book_is_made_for_a_section_of_a_variants_file() {
    let dir = scratch("file-variant-book");
    std::fs::create_dir_all(&dir).unwrap();
    let book = dir.join("book.epd");
    stdout(&[
        "book",
        "--variants",
        MODEL,
        "--variant",
        "dropwazir",
        "--plies",
        "2",
        "--max-eval",
        "300",
        "--count",
        "3",
        "--nodes",
        "300",
        "--out",
        book.to_str().unwrap(),
    ]);
    let text = std::fs::read_to_string(&book).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains("variant=dropwazir"), "{text}");
    assert_eq!(lines.len(), 4, "{text}");
    for epd in &lines[1..] {
        assert!(epd.contains("[WWww]") || epd.contains("[Www]"), "{epd}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// `ajaxlab params` lists a file variant's piece values (named after the
/// variant and the piece's letter) with the terms the variant reads, and
/// `--from` takes a file that sets one.
#[test]
fn params_lists_and_reads_a_file_variant_s_piece_values() {
    let spsa = stdout(&[
        "params",
        "--variants",
        MODEL,
        "--variant",
        "lamehorse",
        "--format",
        "spsa",
    ]);
    let names: Vec<&str> = spsa.lines().filter_map(|l| l.split(',').next()).collect();
    for name in [
        "lamehorse.h.mg",
        "lamehorse.e.eg",
        "lamehorse.p.mg",
        "chess.eval.tempo",
    ] {
        assert!(names.contains(&name), "{name}: {spsa}");
    }
    assert!(
        !names
            .iter()
            .any(|n| n.starts_with("afc.") || n.starts_with("lamehorse.n.")),
        "lamehorse has no knight and reads no AFC term: {spsa}"
    );
    let dir = scratch("params-from");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("values.toml");
    std::fs::write(&file, "\"lamehorse.h.mg\" = 444\n").unwrap();
    let toml = stdout(&[
        "params",
        "--variants",
        MODEL,
        "--variant",
        "lamehorse",
        "--from",
        file.to_str().unwrap(),
    ]);
    assert!(toml.contains("\"lamehorse.h.mg\" = 444\n"), "{toml}");
    // Without the file loaded, the name is unknown, and said so.
    let o = ajaxlab(&["params", "--from", file.to_str().unwrap()]);
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("unknown parameter 'lamehorse.h.mg'"),
        "{stderr}"
    );
}

/// `ajaxlab check`: every section checked, each error once with its line
/// and key, a misspelt key told the key meant, no error caused by
/// another, and what each playable section is; non-zero on an error.
#[test]
fn check_tells_every_error_of_a_file_once() {
    let file = std::env::temp_dir().join(format!("ajaxlab-check-{}.ini", std::process::id()));
    std::fs::write(
        &file,
        "[nightrider:chess]\ncustomPiece1 = z:NN\n\n[typo:chess]\nstartfen = 8/8/8/8/8/8/8/4K2k w - - 0 1\n\n\
         [chess]\ndoubleStep = true\n\n[mine:chess]\ndoubleStep = true\n",
    )
    .unwrap();
    let o = ajaxlab(&["check", file.to_str().unwrap()]);
    let _ = std::fs::remove_file(&file);
    assert!(!o.status.success());
    let out = String::from_utf8(o.stdout).unwrap();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5, "{out}");
    assert!(lines[0].ends_with(":2: customPiece1: not playable by the rules model: 'Z' rides the (2,1) atom; the rules model slides along ranks, files and diagonals only"), "{out}");
    assert!(
        lines[1].ends_with(":5: startfen: unknown key; did you mean 'startFen'?"),
        "{out}"
    );
    assert!(
        lines[2].contains(":7: [chess]: variant 'chess' already exists"),
        "{out}"
    );
    assert!(
        lines[3].starts_with("[mine] plays: 8x8, P pawn, N knight"),
        "{out}"
    );
    assert!(lines[3].ends_with("; 20 moves from the start"), "{out}");
    assert!(
        lines[4].ends_with(": 4 sections, 1 play, 3 errors"),
        "{out}"
    );
    let good = stdout(&["check", MODEL]);
    assert!(good.trim_end().ends_with(" play, 0 errors"), "{good}");
}
