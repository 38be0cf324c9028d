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

    // Every stored pair, as printed: the test's and those played after it.
    let stats = line(&out, "strong vs weak:");
    let pairs: u64 = penta_after(stats, "penta [")
        .split(',')
        .map(|c| c.parse::<u64>().unwrap())
        .sum();
    assert!(pairs < 200, "the match ran to its cap: {out}");
    let match_llr = llr_is_the_calculators(verdict);
    assert!(
        verdict.contains("SPRT <-100.00, 200.00> logistic Elo"),
        "{verdict}"
    );

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
    let resumed_verdict = line(&resumed_out, "SPRT");
    assert!(
        resumed_verdict.contains("H1 accepted after"),
        "{resumed_out}"
    );
    let resumed_llr = llr_is_the_calculators(resumed_verdict);
    assert!(!match_llr.is_empty() && !resumed_llr.is_empty());
}

/// The comma-separated counts after `prefix` in `line`, up to `]`.
fn penta_after(line: &str, prefix: &str) -> String {
    line.split_once(prefix)
        .and_then(|(_, rest)| rest.split_once(']'))
        .map(|(counts, _)| counts.split(' ').collect::<Vec<_>>().join(","))
        .unwrap()
}

/// Checks that the LLR of an SPRT line, with its one pair of bounds, is
/// what `ajaxlab stats` computes from the test's pairs printed on it, and
/// returns it.
fn llr_is_the_calculators(sprt_line: &str) -> String {
    let penta = penta_after(sprt_line, "the test's pairs: penta [");
    let calc = Command::new(BIN)
        .args(["stats", "--penta", &penta, "--sprt", "-100,200"])
        .args(["--model", "logistic", "--alpha", "0.1"])
        .output()
        .unwrap();
    let calc_out = text(&calc);
    assert!(calc.status.success(), "{calc_out}");
    let llr = |text: &str| {
        text.split_once("LLR ")
            .and_then(|(_, rest)| rest.split_once(')'))
            .map(|(llr, _)| format!("LLR {llr})"))
            .unwrap_or_else(|| panic!("no LLR in {text}"))
    };
    let (calc_llr, match_llr) = (llr(&calc_out), llr(sprt_line));
    assert_eq!(calc_llr, match_llr, "stats: {calc_out}");
    assert!(match_llr.ends_with("Fishtest's bounds)"), "{match_llr}");
    match_llr
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
    let live = line(&out, "4/4 games");
    assert!(
        live.contains("SPRT <-1.75, 0.25> normalized Elo  LLR ")
            && live.contains("Fishtest's bounds)"),
        "{out}"
    );
    assert!(
        out.contains("Fishtest's bounds)  no bound crossed in 2 pairs"),
        "{out}"
    );
}
