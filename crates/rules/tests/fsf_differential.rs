//! Differential test against Fairy-Stockfish, the independent implementation
//! (its Python binding pyffish, loaded with `tests/fsf/fsf-variants.ini`).
//!
//! Fairy-Stockfish plays random games from start positions chosen here (AFC;
//! AMRC across many start numbers; chess; Chess960 across many starts) and
//! prints, at every position, its FEN and its legal moves. ajaxlab replays
//! the same moves from the same start and must agree on the legal move set
//! (UCI strings) and on the FEN, byte for byte, at every position, and on
//! the SAN of every move played (the PGN form, `SanForm::Pgn`).
//!
//! Needs a Python with pyffish: `AJAXLAB_FSF_PYTHON`, else `.venv/bin/python`
//! at the repository root (`.ci/run` creates it); the harness is
//! `common/mod.rs`, shared with `fsf_file_differential.rs`.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_rules::{Position, StartSpec, VariantKind};
use common::{Job, Playouts, repo_root, run_python};
use std::ffi::OsString;
use std::path::PathBuf;

/// Runs the pyffish `script` with `files` as its arguments.
fn run_pyffish(script: &str, files: &[PathBuf], input: String) -> String {
    let mut args: Vec<OsString> = vec!["-c".into(), script.into()];
    args.extend(files.iter().map(|f| f.clone().into_os_string()));
    run_python(&args, input)
}

fn jobs() -> Vec<Job> {
    // (variant, games, first seed, plies per game, numbered starts stride)
    let plan = [
        (VariantKind::AjaxFalcon, 40u32, 1000u64, 120u32, None),
        (
            VariantKind::AjaxModernRandom,
            64,
            2000,
            100,
            Some((2521u32, ajaxlab_rules::AMRC_START_COUNT)),
        ),
        (VariantKind::Chess, 30, 3000, 120, None),
        (
            VariantKind::Chess960,
            40,
            4000,
            100,
            Some((97, ajaxlab_rules::CHESS960_START_COUNT)),
        ),
    ];
    let mut jobs = Vec::new();
    for (variant, games, first_seed, max_plies, stride) in plan {
        for i in 0..games {
            let spec = stride.map_or(StartSpec::Default, |(step, count)| {
                StartSpec::Number((i * step + 7) % count)
            });
            let fen = Position::start(variant, &spec)
                .expect("start position exists")
                .fen();
            jobs.push(Job {
                variant: variant.variant(),
                fsf_name: variant.fsf_name().to_owned(),
                chess960: variant == VariantKind::Chess960,
                fen,
                seed: first_seed + u64::from(i),
                max_plies,
            });
        }
    }
    jobs
}

#[test]
fn legal_moves_and_fens_agree_with_fairy_stockfish() {
    let playouts = Playouts {
        variants_file: None,
        san: true,
    };
    let compared = playouts.compare(&jobs());
    for (variant, n) in &compared.positions {
        assert!(*n >= 2000, "only {n} positions of {variant} were compared");
    }
    for kind in ["F@", "m"] {
        assert!(
            compared.played.iter().any(|m| m.contains(kind)),
            "drops and gating were exercised"
        );
    }
    eprintln!(
        "positions compared: {:?}; SAN disambiguated where Fairy-Stockfish's is ambiguous: {}",
        compared.positions, compared.fsf_ambiguous_san
    );
}

/// Fairy-Stockfish loads `configs/variants/ajaxlab.ini`, whose Ajax sections
/// carry ajaxlab's own `ajaxlabSetup` key, and plays them exactly as the
/// variants of `tests/fsf/fsf-variants.ini`: the key does not confuse it.
#[test]
fn fairy_stockfish_reads_the_ajaxlab_file_as_its_own() {
    let script = r#"
import sys, pyffish as sf
def show(path, names):
    sf.load_variant_config(open(path, encoding="utf-8").read())
    for v in names:
        fen = sf.start_fen(v)
        moves = sorted(sf.legal_moves(v, fen, []))
        after = sf.get_fen(v, fen, moves[:1])
        print(fen, " ".join(moves), after, sorted(sf.legal_moves(v, after, [])))
show(sys.argv[1], ["ajax-falcon", "ajax-modern-random"])
show(sys.argv[2], ["ajaxfalcon", "ajaxrandom"])
"#;
    let root = repo_root();
    let files = [
        root.join("configs/variants/ajaxlab.ini"),
        root.join("tests/fsf/fsf-variants.ini"),
    ];
    let text = run_pyffish(script, &files, String::new());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(
        lines[..2],
        lines[2..],
        "ajaxlab.ini against fsf-variants.ini"
    );
}

/// The Betza reader against Fairy-Stockfish's own: each string is a custom
/// piece on d4 of an 8 × 8 board, alone and among enemy knights, and the
/// moves Fairy-Stockfish generates for it are exactly the targets the parsed
/// description gives (leaps, lame leaps, rides, move/capture modes,
/// directions).
#[test]
fn betza_strings_move_as_fairy_stockfish_moves_them() {
    use ajaxlab_rules::betza::{Offset, PieceMoves, Range, Reach, Step};
    use ajaxlab_rules::variant::Mode;
    use std::collections::BTreeSet;

    const BETZA: &[&str] = &[
        "W", "F", "D", "N", "A", "H", "C", "Z", "G", "K", "R", "B", "Q", "NN", "R3", "W2", "fW",
        "bW", "vW", "sW", "lW", "rW", "fsW", "fbW", "fN", "bN", "ffN", "fsN", "bsN", "vN", "sN",
        "rfN", "lfN", "frN", "flN", "rbN", "lbN", "brN", "blN", "rvN", "lvN", "fF", "bF", "lF",
        "rF", "frF", "rfF", "fK", "bK", "sK", "fsK", "frK", "rfK", "vK", "fR", "bB", "fsQ", "WfF",
        "FfW", "mNcB", "mBcN", "cW", "mQ", "cK", "nN", "nA", "nD", "nZ", "WnNnZmF", "RmF", "BmW",
        "NmK", "KAD", "BNmW", "fmWfcF", "frlN", "fnN", "mfNcbZ",
    ];
    // Enemy knights, never on d4, the kings' squares or where they would
    // check the white king on h1.
    let knights = |pattern: fn(i8, i8) -> bool| -> Vec<(i8, i8)> {
        (0..8)
            .flat_map(|f| (0..8).map(move |r| (f, r)))
            .filter(|&(f, r)| pattern(f, r))
            .filter(|sq| ![(3, 3), (7, 0), (0, 7), (5, 1), (6, 2)].contains(sq))
            .collect()
    };
    let crowd = knights(|f, r| (f * 3 + r * 5) % 7 < 3);
    let sparse = knights(|f, r| (f * 5 + r * 3) % 11 < 2);
    let fen = |enemies: &[(i8, i8)]| {
        let mut rows = Vec::new();
        for r in (0..8).rev() {
            let mut row = String::new();
            let mut run = 0;
            for f in 0..8 {
                let c = match (f, r) {
                    (3, 3) => Some('Z'),
                    (7, 0) => Some('K'),
                    (0, 7) => Some('k'),
                    sq if enemies.contains(&sq) => Some('n'),
                    _ => None,
                };
                match c {
                    Some(c) => {
                        if run > 0 {
                            row.push_str(&run.to_string());
                        }
                        run = 0;
                        row.push(c);
                    }
                    None => run += 1,
                }
            }
            if run > 0 {
                row.push_str(&run.to_string());
            }
            rows.push(row);
        }
        format!("{} w - - 0 1", rows.join("/"))
    };
    let expected = |moves: &PieceMoves, enemies: &[(i8, i8)]| {
        let on = |(f, r): (i8, i8)| (0..8).contains(&f) && (0..8).contains(&r);
        let empty = |sq: (i8, i8)| !enemies.contains(&sq) && sq != (7, 0) && sq != (0, 7);
        let mut out = BTreeSet::new();
        for step in &moves.steps {
            for &Offset { dx, dy } in &step.offsets {
                let range = match step.reach {
                    Reach::Ride(Range::Unlimited) => 8,
                    Reach::Ride(Range::Limited(n)) => i8::try_from(n.get()).unwrap(),
                    Reach::Leap | Reach::Lame => 1,
                };
                if step.reach == Reach::Lame
                    && !Step::lame_path(Offset { dx, dy })
                        .iter()
                        .all(|o| empty((3 + o.dx, 3 + o.dy)))
                {
                    continue;
                }
                for k in 1..=range {
                    let sq = (3 + dx * k, 3 + dy * k);
                    if !on(sq) || sq == (7, 0) || sq == (0, 7) {
                        break;
                    }
                    let enemy = enemies.contains(&sq);
                    let lands = match step.mode {
                        Mode::MoveAndCapture => true,
                        Mode::MoveOnly => !enemy,
                        Mode::CaptureOnly => enemy,
                    };
                    if lands {
                        out.insert(format!("d4{}{}", (b'a' + sq.0 as u8) as char, sq.1 + 1));
                    }
                    if enemy {
                        break;
                    }
                }
            }
        }
        out
    };
    let mut ini = String::new();
    let mut input = String::new();
    let mut cases = Vec::new();
    for (i, betza) in BETZA.iter().enumerate() {
        let moves = PieceMoves::parse(betza).unwrap_or_else(|e| panic!("{e}"));
        ini.push_str(&format!("[bz{i}:chess]\ncustomPiece1 = z:{betza}\n"));
        for enemies in [&[][..], &crowd[..], &sparse[..]] {
            input.push_str(&format!("bz{i}\t{}\n", fen(enemies)));
            cases.push((*betza, expected(&moves, enemies)));
        }
    }
    let path = std::env::temp_dir().join(format!("ajaxlab-betza-{}.ini", std::process::id()));
    std::fs::write(&path, &ini).unwrap();
    let script = r#"
import sys, pyffish as sf
sf.load_variant_config(open(sys.argv[1], encoding="utf-8").read())
for line in sys.stdin:
    v, fen = line.rstrip("\n").split("\t")
    print(" ".join(sorted(m for m in sf.legal_moves(v, fen, []) if m.startswith("d4"))))
"#;
    let text = run_pyffish(script, std::slice::from_ref(&path), input);
    let _ = std::fs::remove_file(&path);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), cases.len(), "{text}");
    let mut compared = 0;
    for ((betza, want), line) in cases.iter().zip(&lines) {
        let got: BTreeSet<String> = line.split_whitespace().map(str::to_owned).collect();
        assert_eq!(&got, want, "Betza {betza}");
        compared += got.len();
    }
    assert!(compared >= 1000, "too little compared: {compared} moves");
}

/// The sections of `tests/fsf/model-variants.ini` that rewrite variants
/// Fairy-Stockfish defines in code play, in Fairy-Stockfish, exactly as its
/// built-ins: the same start and the same legal moves along a fixed walk of
/// 40 plies (so the files are right before ajaxlab plays them); and it
/// loads the three invented variants with the start FEN written.
#[test]
fn fairy_stockfish_plays_the_model_variant_files_as_its_built_ins() {
    let script = r#"
import sys, pyffish as sf
sf.load_variant_config(open(sys.argv[1], encoding="utf-8").read())
def walk(v):
    fen, out = sf.start_fen(v), []
    for ply in range(40):
        moves = sorted(sf.legal_moves(v, fen, []))
        out.append(fen + " " + ",".join(moves))
        if not moves:
            break
        fen = sf.get_fen(v, fen, [moves[(ply * 7) % len(moves)]])
    return out
for v in ["capablanca", "gothic", "embassy", "janus", "modern", "chancellor"]:
    a, b = walk(v), walk(v + "-ini")
    print(v, "same" if a == b else "differ at ply %d" % next(i for i, (x, y) in enumerate(zip(a + [""], b + [""])) if x != y), len(a))
for v in ["lamehorse", "dropwazir", "nocastle"]:
    print(v, sf.start_fen(v), len(sf.legal_moves(v, sf.start_fen(v), [])))
"#;
    let file = repo_root().join("tests/fsf/model-variants.ini");
    let text = run_pyffish(script, std::slice::from_ref(&file), String::new());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 9, "{text}");
    for line in &lines[..6] {
        assert!(line.ends_with(" same 40"), "{line}");
    }
    let specs = ajaxlab_rules::ini::parse_variants(
        "model-variants.ini",
        &std::fs::read_to_string(&file).unwrap(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    for line in &lines[6..] {
        let (name, rest) = line.split_once(' ').unwrap();
        let spec = specs.iter().find(|s| s.name == name).unwrap();
        assert!(rest.starts_with(spec.setup.fen()), "{line}");
    }
}
