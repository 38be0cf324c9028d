//! `ajaxlab match … | head -1` as a shell runs it: standard output closed
//! by its reader, before the first line or after it. The match ends
//! quietly (no panic, status 0 or 141 as a process SIGPIPE ended), and its
//! output directory is either absent or holds every game, readable.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

/// The status of a command that met a closed standard output.
const CLOSED_EXIT: i32 = 141;

fn out_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "ajaxlab-closed-stdout-{}-{tag}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `ajaxlab match` of four quick games into `out`, stdout and stderr piped.
fn spawn_match(out: &Path) -> Child {
    Command::new(BIN)
        .args([
            "match",
            "--variant",
            "chess",
            "--games",
            "4",
            "--tc",
            "nodes=200",
            "--out",
        ])
        .arg(out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for `child`: its status code and standard error, which holds no
/// panic.
fn finish(child: Child) -> (Option<i32>, String) {
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        !stderr.contains("panicked") && !stderr.contains("Broken pipe"),
        "{stderr}"
    );
    (output.status.code(), stderr)
}

/// `out` is absent, or holds the match's four games, complete.
fn absent_or_complete(out: &Path) {
    if !out.exists() {
        return;
    }
    let mut ids = Vec::new();
    let files = ajaxlab_store::find::games_files(&[out.display().to_string()]).unwrap();
    for path in files {
        for game in ajaxlab_store::read_games(&path).unwrap().games {
            assert!(!game.moves.is_empty(), "game {} has no moves", game.game_id);
            ids.push(game.game_id);
        }
    }
    ids.sort_unstable();
    assert_eq!(ids, [0, 1, 2, 3], "{}", out.display());
}

#[test]
fn a_match_whose_reader_is_gone_before_the_first_line_ends_quietly_with_its_games() {
    let out = out_dir("before");
    let mut child = spawn_match(&out);
    // The read end closed at once: the first line the match prints meets
    // a closed pipe.
    drop(child.stdout.take());
    let (code, stderr) = finish(child);
    assert_eq!(code, Some(CLOSED_EXIT), "{stderr}");
    absent_or_complete(&out);
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn a_match_whose_reader_leaves_after_the_first_line_ends_quietly_with_its_games() {
    let out = out_dir("after");
    let mut child = spawn_match(&out);
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    // The reader dropped here, as `head -1` exits after its line.
    assert!(first.contains("W/D/L"), "{first}");
    let (code, stderr) = finish(child);
    // The rest may have reached the pipe before it closed.
    assert!(matches!(code, Some(0 | CLOSED_EXIT)), "{code:?} {stderr}");
    absent_or_complete(&out);
    let _ = std::fs::remove_dir_all(&out);
}
