//! The harness of the differential tests against Fairy-Stockfish (its
//! Python binding pyffish): finding the Python, running a pyffish script,
//! and replaying `tests/fsf/playouts.py`'s random games in ajaxlab with
//! every position compared.
//!
//! Needs a Python with pyffish: `AJAXLAB_FSF_PYTHON`, else `.venv/bin/python`
//! at the repository root (`.ci/run` creates it).

use ajaxlab_rules::{Position, SanError, SanForm, Variant};
use std::collections::BTreeMap;
use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

/// The repository's root.
pub(crate) fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python() -> PathBuf {
    match std::env::var_os("AJAXLAB_FSF_PYTHON") {
        Some(p) => PathBuf::from(p),
        None => repo_root().join(".venv/bin/python"),
    }
}

/// Runs the Python with pyffish on `args` (`-c SCRIPT …` or a script's
/// path and its arguments), `input` on its standard input; its standard
/// output.
pub(crate) fn run_python(args: &[OsString], input: String) -> String {
    let mut child = Command::new(python())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| {
            panic!(
                "cannot start {} ({e}): run .ci/run, which installs pyffish into .venv, \
                 or set AJAXLAB_FSF_PYTHON to a Python with pyffish",
                python().display()
            )
        });
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

/// One random game: Fairy-Stockfish plays it, ajaxlab replays it.
pub(crate) struct Job {
    /// The variant as ajaxlab loaded it.
    pub(crate) variant: &'static Variant,
    /// Its `UCI_Variant` name in Fairy-Stockfish.
    pub(crate) fsf_name: String,
    /// Whether Fairy-Stockfish plays it in Chess960 mode.
    pub(crate) chess960: bool,
    /// The start.
    pub(crate) fen: String,
    /// The seed of the random moves.
    pub(crate) seed: u64,
    /// Plies to play at most.
    pub(crate) max_plies: u32,
}

/// How the playouts are run and compared.
pub(crate) struct Playouts {
    /// The variants file Fairy-Stockfish loads (`None`: its default,
    /// `tests/fsf/fsf-variants.ini`).
    pub(crate) variants_file: Option<PathBuf>,
    /// Whether the SAN of every move played is compared too (a third
    /// pyffish call per position).
    pub(crate) san: bool,
}

/// What a comparison covered.
#[derive(Debug, Default)]
pub(crate) struct Compared {
    /// Positions compared, per variant name.
    pub(crate) positions: BTreeMap<String, usize>,
    /// Every move played, as UCI.
    pub(crate) played: Vec<String>,
    /// Moves whose SAN Fairy-Stockfish leaves ambiguous and ajaxlab
    /// disambiguates (moves with gating).
    pub(crate) fsf_ambiguous_san: usize,
}

impl Playouts {
    /// Fairy-Stockfish's random games of `jobs`, as `playouts.py` prints them.
    fn run_fsf(&self, jobs: &[Job]) -> String {
        let mut args = vec![repo_root().join("tests/fsf/playouts.py").into_os_string()];
        if !self.san {
            args.push("--no-san".into());
        }
        args.extend(
            self.variants_file
                .iter()
                .map(|f| f.clone().into_os_string()),
        );
        let mut input = String::new();
        for job in jobs {
            input.push_str(&format!(
                "{}\t{}\t{}\t{}\t{}\n",
                job.fsf_name,
                job.fen,
                job.seed,
                job.max_plies,
                u8::from(job.chess960)
            ));
        }
        run_python(&args, input)
    }

    /// Plays `jobs` in Fairy-Stockfish and replays each game in ajaxlab,
    /// asserting at every position the same FEN (byte for byte, and read
    /// back as the same position), the same legal moves (sorted UCI
    /// strings, and the bulk count), and with `san` the SAN of the move
    /// played ([`SanForm::Pgn`]).
    pub(crate) fn compare(&self, jobs: &[Job]) -> Compared {
        let text = self.run_fsf(jobs);
        let mut lines = text.lines().peekable();
        let mut compared = Compared::default();
        for job in jobs {
            let start = lines.next().expect("a G line per job");
            let fsf_start = start.strip_prefix("G\t").expect("G line");
            assert_eq!(
                fsf_start,
                job.fen,
                "{}: start FEN differs from Fairy-Stockfish's reading of it",
                job.variant.name()
            );
            let mut pos = Position::from_fen_in(job.variant, &job.fen).expect("start parses");
            let mut history = Vec::new();
            while let Some(line) = lines.next_if(|l| l.starts_with("P\t")) {
                let mut fields = line.split('\t').skip(1);
                let (Some(fen), Some(legal), Some(chosen), Some(fsf_san)) =
                    (fields.next(), fields.next(), fields.next(), fields.next())
                else {
                    panic!("malformed line: {line}");
                };
                let context = || {
                    format!(
                        "{} from {} after {:?}",
                        job.variant.name(),
                        job.fen,
                        history
                    )
                };
                assert_eq!(pos.fen(), fen, "FEN differs; {}", context());
                let reparsed = Position::from_fen_in(job.variant, fen)
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
                *compared
                    .positions
                    .entry(job.variant.name().to_owned())
                    .or_default() += 1;
                if chosen == "-" {
                    continue;
                }
                let m = pos
                    .parse_uci(chosen)
                    .unwrap_or_else(|e| panic!("{e}; {}", context()));
                if self.san {
                    let san = pos.san_in(m, SanForm::Pgn);
                    if san != fsf_san {
                        // Fairy-Stockfish does not disambiguate a move with
                        // gating (`Ne2/M` for either knight): ours does.
                        assert!(
                            matches!(pos.parse_san(fsf_san), Err(SanError::Ambiguous { .. })),
                            "PGN SAN of {chosen} at {fen}: ours {san}, Fairy-Stockfish's {fsf_san}; {}",
                            context()
                        );
                        compared.fsf_ambiguous_san += 1;
                    }
                    assert_eq!(
                        pos.parse_san(&san),
                        Ok(m),
                        "PGN SAN {san} reads back; {}",
                        context()
                    );
                }
                pos.play(m).unwrap_or_else(|e| panic!("{e}; {}", context()));
                history.push(chosen.to_owned());
                compared.played.push(chosen.to_owned());
            }
        }
        assert!(lines.next().is_none(), "unconsumed output");
        compared
    }
}
