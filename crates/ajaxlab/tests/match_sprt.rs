//! `ajaxlab match --sprt`: a match of the builtin engine against itself
//! over UCI at a far weaker limit stops at the SPRT's verdict, and the LLR
//! it prints is the one `ajaxlab stats` computes from the same counts.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ajaxlab-sprt-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// The line of `out` that starts with `prefix`.
fn line<'a>(out: &'a str, prefix: &str) -> &'a str {
    out.lines()
        .find(|l| l.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line starting '{prefix}' in {out}"))
}

#[test]
fn match_stops_at_the_verdict_and_its_llr_is_the_calculators() {
    let dir = temp_dir("verdict");
    let config = dir.join("match.toml");
    std::fs::write(
        &config,
        format!(
            "variant = \"chess\"\n\
             [[players]]\nengine = \"builtin\"\nname = \"strong\"\ntc = \"nodes=300\"\n\
             [[players]]\nengine = \"uci\"\nname = \"weak\"\npath = \"{BIN}\"\nargs = [\"uci\"]\ntc = \"depth=1\"\n"
        ),
    )
    .unwrap();
    let out_dir = dir.join("games");
    let o = Command::new(BIN)
        .args(["match", "--config"])
        .arg(&config)
        .args(["--games", "400", "--concurrency", "2", "--quiet", "--out"])
        .arg(&out_dir)
        .args([
            "--sprt", "-100,200", "--model", "logistic", "--alpha", "0.1",
        ])
        .output()
        .unwrap();
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let verdict = line(&out, "SPRT");
    assert!(verdict.contains("H1 accepted after"), "{out}");

    // The pentanomial counts of every stored pair, as printed.
    let stats = line(&out, "strong vs weak:");
    let penta = stats
        .split_once("penta [")
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(counts, _)| counts.split(' ').collect::<Vec<_>>().join(","))
        .unwrap();
    let pairs: u64 = penta.split(',').map(|c| c.parse::<u64>().unwrap()).sum();
    assert!(pairs < 200, "the match ran to its cap: {out}");

    let calc = Command::new(BIN)
        .args(["stats", "--penta", &penta, "--sprt", "-100,200"])
        .args(["--model", "logistic", "--alpha", "0.1"])
        .output()
        .unwrap();
    let calc_out = text(&calc);
    assert!(calc.status.success(), "{calc_out}");
    let calc_llr = line(&calc_out, "LLR");
    let match_llr = line(&out, "LLR");
    assert!(
        calc_llr.starts_with(match_llr),
        "match: {match_llr}\nstats: {calc_llr}"
    );
    assert!(match_llr.contains("[-100, 200] logistic"), "{match_llr}");

    // Resumed, the decided match plays no game: the stored pairs alone
    // cross the bound again, and the LLR over them is the same.
    let resumed = Command::new(BIN)
        .args(["match", "--config"])
        .arg(&config)
        .args(["--games", "400", "--concurrency", "2", "--quiet", "--out"])
        .arg(&out_dir)
        .args([
            "--sprt", "-100,200", "--model", "logistic", "--alpha", "0.1", "--resume",
        ])
        .output()
        .unwrap();
    let resumed_out = text(&resumed);
    assert!(resumed.status.success(), "{resumed_out}");
    assert_eq!(
        line(&resumed_out, "resumed:"),
        format!("resumed: {} games were stored, 0 played now", pairs * 2)
    );
    assert!(
        line(&resumed_out, "SPRT").contains("H1 accepted after"),
        "{resumed_out}"
    );
    assert_eq!(line(&resumed_out, "LLR"), match_llr);
}

#[test]
fn bad_sprt_flags_are_refused_before_any_game() {
    let dir = temp_dir("bad");
    let o = Command::new(BIN)
        .args(["match", "--games", "2", "--quiet", "--out"])
        .arg(dir.join("games"))
        .args(["--sprt", "5,-5"])
        .output()
        .unwrap();
    let out = text(&o);
    assert!(!o.status.success(), "{out}");
    assert!(out.contains("elo0 5 is not below elo1 -5"), "{out}");
    assert!(!dir.join("games").exists(), "{out}");
}

#[test]
fn the_live_line_of_an_sprt_match_shows_its_hypotheses_and_llr() {
    let dir = temp_dir("live");
    // Not --quiet and not a terminal: the live line is logged, and the last
    // one when the cap is reached (no bound is crossed in four games).
    let o = Command::new(BIN)
        .args([
            "match",
            "--variant",
            "chess",
            "--tc",
            "depth=1",
            "--games",
            "4",
            "--out",
        ])
        .arg(dir.join("games"))
        .args(["--sprt", "-1.75,0.25"])
        .output()
        .unwrap();
    let out = text(&o);
    assert!(o.status.success(), "{out}");
    let live = line(&out, "[");
    assert!(
        live.contains("games 4/4")
            && live.contains("SPRT <-1.75, 0.25> normalized Elo  LLR ")
            && live.contains("overshoot-corrected]"),
        "{out}"
    );
    assert!(out.contains("SPRT  no bound crossed in 2 pairs"), "{out}");
}
