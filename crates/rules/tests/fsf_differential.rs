//! Differential test against Fairy-Stockfish, the independent implementation
//! (its Python binding pyffish, loaded with `tests/fsf/fsf-variants.ini`).
//!
//! Fairy-Stockfish plays random games from start positions chosen here (AFC;
//! AMRC across many start numbers; chess; Chess960 across many starts) and
//! prints, at every position, its FEN and its legal moves. ajaxlab replays
//! the same moves from the same start and must agree on the legal move set
//! (UCI strings) and on the FEN, byte for byte, at every position, and on
//! the SAN of every move played (the PGN form, [`SanForm::Pgn`]).
//!
//! Needs a Python with pyffish: `AJAXLAB_FSF_PYTHON`, else `.venv/bin/python`
//! at the repository root (`.ci/run` creates it).

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::{Position, SanError, SanForm, StartSpec, VariantKind};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python() -> PathBuf {
    match std::env::var_os("AJAXLAB_FSF_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => repo_root().join(".venv/bin/python"),
    }
}

struct Job {
    variant: VariantKind,
    fen: String,
    seed: u64,
    max_plies: u32,
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
                variant,
                fen,
                seed: first_seed + u64::from(i),
                max_plies,
            });
        }
    }
    jobs
}

fn run_fsf(jobs: &[Job]) -> String {
    let python = python();
    let script = repo_root().join("tests/fsf/playouts.py");
    let mut child = Command::new(&python)
        .arg(&script)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start {} ({e}): run .ci/run, which installs pyffish into .venv, \
                 or set AJAXLAB_FSF_PYTHON to a Python with pyffish",
                python.display()
            )
        });
    let mut input = String::new();
    for job in jobs {
        let chess960 = u8::from(job.variant == VariantKind::Chess960);
        input.push_str(&format!(
            "{}\t{}\t{}\t{}\t{chess960}\n",
            job.variant.fsf_name(),
            job.fen,
            job.seed,
            job.max_plies
        ));
    }
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("playouts run");
    writer.join().expect("writer thread").expect("write jobs");
    assert!(
        output.status.success(),
        "playouts.py failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

#[test]
fn legal_moves_and_fens_agree_with_fairy_stockfish() {
    let jobs = jobs();
    let text = run_fsf(&jobs);
    let mut lines = text.lines().peekable();
    let mut positions_per_variant = std::collections::BTreeMap::<&str, usize>::new();
    let mut moves_seen = std::collections::BTreeSet::<&str>::new();
    let mut ambiguous_in_fsf = 0usize;
    for job in &jobs {
        let start = lines.next().expect("a G line per job");
        let fsf_start = start.strip_prefix("G\t").expect("G line");
        assert_eq!(
            fsf_start, job.fen,
            "start FEN differs from Fairy-Stockfish's reading of it"
        );
        let mut pos = Position::from_fen(job.variant, &job.fen).expect("start parses");
        let mut history = Vec::new();
        while let Some(line) = lines.next_if(|l| l.starts_with("P\t")) {
            let mut fields = line.split('\t').skip(1);
            let (Some(fen), Some(legal), Some(chosen), Some(fsf_san)) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                panic!("malformed line: {line}");
            };
            let context = || format!("{} from {} after {:?}", job.variant, job.fen, history);
            assert_eq!(pos.fen(), fen, "FEN differs; {}", context());
            let reparsed = Position::from_fen(job.variant, fen)
                .unwrap_or_else(|e| panic!("{e}; {}", context()));
            assert_eq!(
                reparsed,
                pos,
                "Fairy-Stockfish's FEN reads back as another position; {}",
                context()
            );
            let mut ours: Vec<String> = pos
                .legal_moves()
                .iter()
                .map(|m| pos.uci(*m).to_string())
                .collect();
            ours.sort();
            let theirs: Vec<&str> = legal.split(' ').filter(|s| !s.is_empty()).collect();
            if ours != theirs {
                let missing: Vec<&&str> = theirs
                    .iter()
                    .filter(|m| !ours.iter().any(|o| o == **m))
                    .collect();
                let extra: Vec<&String> = ours
                    .iter()
                    .filter(|o| !theirs.contains(&o.as_str()))
                    .collect();
                panic!(
                    "legal moves differ at {fen}: ajaxlab lacks {missing:?}, has extra {extra:?}; {}",
                    context()
                );
            }
            assert_eq!(
                pos.count_legal_moves(),
                ours.len() as u64,
                "bulk count differs at {fen}"
            );
            *positions_per_variant.entry(job.variant.name()).or_default() += 1;
            if chosen != "-" {
                let m = pos
                    .parse_uci(chosen)
                    .unwrap_or_else(|e| panic!("{e}; {}", context()));
                let san = pos.san_in(m, SanForm::Pgn);
                if san != fsf_san {
                    // Fairy-Stockfish does not disambiguate a move with
                    // gating (`Ne2/M` for either knight): ours does.
                    assert!(
                        matches!(pos.parse_san(fsf_san), Err(SanError::Ambiguous { .. })),
                        "PGN SAN of {chosen} at {fen}: ours {san}, Fairy-Stockfish's {fsf_san}; {}",
                        context()
                    );
                    ambiguous_in_fsf += 1;
                }
                assert_eq!(
                    pos.parse_san(&san),
                    Ok(m),
                    "PGN SAN {san} reads back; {}",
                    context()
                );
                pos.play(m).unwrap_or_else(|e| panic!("{e}; {}", context()));
                history.push(chosen.to_owned());
                for kind in ["F@", "m"] {
                    if chosen.contains(kind) {
                        moves_seen.insert(kind);
                    }
                }
            }
        }
    }
    assert!(lines.next().is_none(), "unconsumed output");
    for (variant, n) in &positions_per_variant {
        assert!(*n >= 2000, "only {n} positions of {variant} were compared");
    }
    assert!(
        moves_seen.contains("F@") && moves_seen.contains("m"),
        "drops and gating were exercised"
    );
    eprintln!(
        "positions compared: {positions_per_variant:?}; SAN disambiguated where Fairy-Stockfish's is ambiguous: {ambiguous_in_fsf}"
    );
}
