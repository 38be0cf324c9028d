//! A match's directory, as a user meets it: a match never writes into an
//! earlier run's directory, leaves none behind when it cannot start, goes
//! on with its own games only when resumed (a larger `--games` plays the
//! difference, ending as the whole match would have), and one match at a
//! time writes a directory.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_store::GameRecord;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ajaxlab-match-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `ajaxlab match` of AFC at 300 nodes, seed 42, into `out`, with `extra`.
fn ajaxlab_match(out: &Path, games: u64, extra: &[&str]) -> Output {
    Command::new(BIN)
        .args([
            "match",
            "--variant",
            "afc",
            "--tc",
            "nodes=300",
            "--seed",
            "42",
        ])
        .args([
            "--concurrency",
            "2",
            "--quiet",
            "--games",
            &games.to_string(),
        ])
        .arg("--out")
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Every game below `dir`, in game id order, clock readings blanked.
fn games_below(dir: &Path) -> Vec<GameRecord> {
    let files = ajaxlab_store::find::games_files(&[dir.display().to_string()]).unwrap();
    let mut games: Vec<GameRecord> = files
        .iter()
        .flat_map(|f| ajaxlab_store::read_games(f).unwrap().games)
        .map(|mut g| {
            g.started_at_ms = 0;
            g.ended_at_ms = 0;
            g.moves.iter_mut().for_each(|m| m.time_ms = 0);
            g
        })
        .collect();
    games.sort_by_key(|g| g.game_id);
    games
}

#[test]
fn a_run_directory_that_holds_games_is_never_written_into_again() {
    let out = temp_dir("kept").join("games");
    assert!(ajaxlab_match(&out, 2, &[]).status.success());
    let before = games_below(&out);
    let again = ajaxlab_match(&out, 2, &[]);
    assert!(!again.status.success());
    assert!(
        text(&again).contains("holds an earlier run"),
        "{}",
        text(&again)
    );
    assert_eq!(games_below(&out), before);
}

#[test]
fn a_match_that_cannot_start_leaves_no_directory() {
    let out = temp_dir("no-start").join("games");
    let o = ajaxlab_match(
        &out,
        2,
        &["--player", "builtin", "--player", "uci:/no/engine"],
    );
    assert!(!o.status.success());
    assert!(text(&o).contains("/no/engine"), "{}", text(&o));
    assert!(!out.exists(), "{}", text(&o));
}

#[test]
fn a_resumed_match_with_more_games_ends_as_the_whole_match() {
    let dir = temp_dir("extend");
    let (part, whole) = (dir.join("part"), dir.join("whole"));
    assert!(ajaxlab_match(&part, 4, &[]).status.success());
    let resumed = ajaxlab_match(&part, 8, &["--resume"]);
    let out = text(&resumed);
    assert!(resumed.status.success(), "{out}");
    assert!(
        out.contains("resumed: 4 games were stored, 4 played now"),
        "{out}"
    );
    assert!(ajaxlab_match(&whole, 8, &[]).status.success());
    let (a, b) = (games_below(&part), games_below(&whole));
    assert_eq!(a.len(), 8);
    assert_eq!(a, b, "the extended match differs from the whole one");
    // Resumed again, it has nothing left to play.
    let done = ajaxlab_match(&part, 8, &["--resume"]);
    assert!(
        text(&done).contains("resumed: 8 games were stored, 0 played now"),
        "{}",
        text(&done)
    );
}

#[test]
fn a_match_resumes_only_its_own_games() {
    let out = temp_dir("own").join("games");
    assert!(ajaxlab_match(&out, 2, &[]).status.success());
    let other = Command::new(BIN)
        .args([
            "match",
            "--variant",
            "afc",
            "--tc",
            "nodes=500",
            "--seed",
            "42",
        ])
        .args(["--quiet", "--games", "2", "--resume", "--out"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(!other.status.success());
    assert!(text(&other).contains("(tc) differs"), "{}", text(&other));
}

#[test]
fn a_second_match_on_a_directory_in_use_is_refused() {
    let out = temp_dir("in-use").join("games");
    assert!(ajaxlab_match(&out, 2, &[]).status.success());
    let before = games_below(&out);
    let held = ajaxlab_store::lock::DirectoryLock::take(&out, "coordinator.lock").unwrap();
    let refused = ajaxlab_match(&out, 4, &["--resume"]);
    assert!(!refused.status.success());
    let pid = std::process::id();
    assert!(
        text(&refused).contains(&format!("in use by another coordinator (pid {pid})")),
        "{}",
        text(&refused)
    );
    assert_eq!(games_below(&out), before);
    drop(held);
    assert!(ajaxlab_match(&out, 4, &["--resume"]).status.success());
    assert_eq!(games_below(&out).len(), 4);
}
