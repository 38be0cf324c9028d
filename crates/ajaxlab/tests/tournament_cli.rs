//! `ajaxlab match --tournament` as a user runs it: three builtin players at
//! different node limits in a round robin and a gauntlet, each pairing stored in
//! its own directory, and `ajaxlab report` fitting one rating table over
//! all of them.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

/// Close enough in strength that no player takes every point (which
/// leaves a maximum-likelihood rating unbounded): with the engine's
/// chess mobility tables, 800 nodes beat 300 in all ten gauntlet games.
const FIELD: &str = "variant = \"chess\"\ngames = 8\n\
    [[players]]\nengine = \"builtin\"\nname = \"d1\"\ntc = \"nodes=300\"\n\
    [[players]]\nengine = \"builtin\"\nname = \"d2\"\ntc = \"nodes=500\"\n\
    [[players]]\nengine = \"builtin\"\nname = \"d3\"\ntc = \"nodes=600\"\n";

/// Runs `ajaxlab ARGS…`, which must succeed: its standard output.
fn ajaxlab(args: &[&str], dir: &Path) -> String {
    let o = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        o.status.success(),
        "ajaxlab {args:?}: {stdout}{}",
        String::from_utf8_lossy(&o.stderr)
    );
    stdout
}

/// Plays the field of three as a `kind` tournament into `out`, with
/// `more` arguments: its output.
fn tournament(kind: &str, out: &str, dir: &Path, more: &[&str]) -> String {
    let args = [
        "match",
        "--config",
        "field.toml",
        "--tournament",
        kind,
        "--quiet",
        "--out",
        out,
    ];
    ajaxlab(&[&args[..], more].concat(), dir)
}

fn field_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ajaxlab-tournament-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("field.toml"), FIELD).unwrap();
    dir
}

/// The rows of the report's rating table: (player, games, score %).
fn rating_rows(report: &str) -> Vec<(String, u64, f64)> {
    report
        .lines()
        .skip_while(|l| !l.starts_with("ratings over 3 players"))
        .skip(2)
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let cells: Vec<&str> = l.split_whitespace().collect();
            let score = cells[5].trim_end_matches('%').parse().unwrap();
            (cells[1].to_owned(), cells[4].parse().unwrap(), score)
        })
        .collect()
}

#[test]
fn a_round_robin_plays_every_pairing_and_the_report_rates_every_player() {
    let dir = field_dir("rr");
    let out = tournament("round-robin", "rr", &dir, &[]);
    for pairing in ["d1 vs d2: ", "d1 vs d3: ", "d2 vs d3: "] {
        assert!(
            out.lines().any(|l| l.starts_with(pairing)),
            "{pairing}: {out}"
        );
    }
    for sub in ["01-d1-vs-d2", "02-d1-vs-d3", "03-d2-vs-d3"] {
        let games = std::fs::read_dir(dir.join("rr/campaigns").join(sub))
            .unwrap()
            .count();
        assert!(games > 0, "{sub} holds no games");
    }
    let report = ajaxlab(&["report", "rr"], &dir);
    let rows = rating_rows(&report);
    assert_eq!(rows.len(), 3, "{report}");
    // Each plays 8 games against each of the two others; the points add up.
    assert!(rows.iter().all(|r| r.1 == 16), "{rows:?}");
    let points: f64 = rows.iter().map(|r| r.2 / 100.0 * 16.0).sum();
    assert!(
        (points - 24.0).abs() < 0.2,
        "{points} points in 24 games: {rows:?}"
    );
    // The same seed and node limits give the same games: the table repeats.
    let again = tournament("round-robin", "rr2", &dir, &[]);
    assert_eq!(
        rating_rows(&ajaxlab(&["report", "rr2"], &dir)),
        rows,
        "{again}"
    );
}

#[test]
fn a_gauntlet_pits_the_first_player_against_each_of_the_others() {
    let dir = field_dir("gauntlet");
    let out = tournament("gauntlet", "g", &dir, &[]);
    let pairings: Vec<&str> = out.lines().filter(|l| l.contains(" vs ")).collect();
    assert_eq!(pairings.len(), 2, "{out}");
    assert!(
        pairings[0].starts_with("d1 vs d2: ") && pairings[1].starts_with("d1 vs d3: "),
        "{out}"
    );
}

#[test]
fn a_second_tournament_without_out_gets_a_directory_of_its_own() {
    let dir = field_dir("default-out");
    let run = || {
        ajaxlab(
            &[
                "match",
                "--config",
                "field.toml",
                "--tournament",
                "gauntlet",
                "--quiet",
            ],
            &dir,
        )
    };
    let report_line = |out: &str| {
        out.lines()
            .find_map(|l| l.strip_prefix("rating table: ajaxlab report "))
            .unwrap_or_else(|| panic!("{out}"))
            .to_owned()
    };
    let (first, second) = (report_line(&run()), report_line(&run()));
    assert_eq!(first, "runs/match-chess-1");
    assert_eq!(second, "runs/match-chess-1-2");
    // A plain match after them does not write into either.
    let plain = ajaxlab(
        &[
            "match",
            "--variant",
            "chess",
            "--tc",
            "depth=1",
            "--games",
            "2",
            "--quiet",
        ],
        &dir,
    );
    assert!(plain.contains("wrote runs/match-chess-1-3/"), "{plain}");
}

#[test]
fn a_resumed_gauntlet_goes_on_with_each_pairing_and_a_larger_games_extends_it() {
    let dir = field_dir("resume");
    tournament("gauntlet", "g", &dir, &[]);
    let resumed = tournament("gauntlet", "g", &dir, &["--games", "10", "--resume"]);
    let rows = rating_rows(&ajaxlab(&["report", "g"], &dir));
    let mut games: Vec<(&str, u64)> = rows.iter().map(|r| (r.0.as_str(), r.1)).collect();
    games.sort_unstable();
    assert_eq!(games, [("d1", 20), ("d2", 10), ("d3", 10)], "{resumed}");
    // Without --resume the same directory is refused, its games kept.
    let o = Command::new(BIN)
        .args([
            "match",
            "--config",
            "field.toml",
            "--tournament",
            "gauntlet",
        ])
        .args(["--quiet", "--out", "g"])
        .current_dir(&dir)
        .output()
        .unwrap();
    assert!(!o.status.success());
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("holds an earlier run"), "{stderr}");
}
