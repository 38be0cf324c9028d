//! End to end: `ajaxlab match --pgn` in every variant, and the PGN read by
//! other implementations (`tests/python/check_pgn.py`): python-chess's
//! reader for chess and Chess960, Fairy-Stockfish's SAN for the Ajax
//! variants, every move replayed.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::path::PathBuf;
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A Python with pyffish and python-chess (`.ci/run` makes it).
fn python() -> PathBuf {
    std::env::var_os("AJAXLAB_FSF_PYTHON")
        .map_or_else(|| repo().join(".venv/bin/python"), PathBuf::from)
}

#[test]
fn exported_games_are_read_by_python_chess_and_fairy_stockfish() {
    for variant in ["ajax-falcon", "ajax-modern-random", "chess", "chess960"] {
        let out =
            std::env::temp_dir().join(format!("ajaxlab-pgn-{}-{variant}", std::process::id()));
        let _ = std::fs::remove_dir_all(&out);
        let o = Command::new(BIN)
            .args([
                "match",
                "--variant",
                variant,
                "--games",
                "4",
                "--tc",
                "nodes=200",
            ])
            .args(["--concurrency", "2", "--quiet", "--pgn", "--out"])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let stdout = String::from_utf8_lossy(&o.stdout);
        let written = stdout
            .lines()
            .find_map(|l| {
                l.strip_prefix("wrote ")
                    .filter(|f| f.ends_with("games.pgn"))
            })
            .unwrap_or_else(|| panic!("no games.pgn written: {stdout}"));
        let pgn = std::fs::read_to_string(written).unwrap();
        assert!(
            !pgn.contains('('),
            "a parenthesis starts a variation: {pgn}"
        );
        for tag in ["Date", "Variant", "TimeControl", "Result", "Termination"] {
            assert_eq!(
                pgn.matches(&format!("[{tag} ")).count(),
                4,
                "{tag} in every game: {pgn}"
            );
        }
        let check = Command::new(python())
            .arg(repo().join("tests/python/check_pgn.py"))
            .arg(written)
            .arg("4")
            .output()
            .unwrap();
        assert!(
            check.status.success(),
            "{variant}: {}{}",
            String::from_utf8_lossy(&check.stdout),
            String::from_utf8_lossy(&check.stderr)
        );
        eprintln!("{}", String::from_utf8_lossy(&check.stdout).trim_end());
        std::fs::remove_dir_all(&out).unwrap();
    }
}
