//! `ajaxlab stats`, the calculator, as a user calls it.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::process::Command;

fn stats(args: &[&str]) -> (bool, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_ajaxlab"))
        .arg("stats")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        format!(
            "{}{}",
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        ),
    )
}

#[test]
fn json_has_the_documented_keys_and_hand_computed_values() {
    let (ok, out) = stats(&["--wdl", "30,50,20", "--sprt", "0,2", "--json"]);
    assert!(ok, "{out}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    for key in ["elo", "elo_ci95", "los", "nelo", "llr", "bounds"] {
        assert!(v.get(key).is_some(), "{key} missing in {out}");
    }
    // 30 W, 50 D, 20 L: score 0.55, Elo = -400 log10(1/0.55 - 1).
    let expected = -400.0 * (1.0f64 / 0.55 - 1.0).log10();
    assert!(
        (v["elo"].as_f64().unwrap() - expected).abs() < 1e-9,
        "{out}"
    );
    let bound = (0.95f64 / 0.05).ln();
    assert!(
        (v["bounds"][1].as_f64().unwrap() - bound).abs() < 1e-9,
        "{out}"
    );
}

#[test]
fn bad_bounds_and_counts_are_named() {
    let (ok, out) = stats(&["--wdl", "30,50,20", "--sprt", "2,0"]);
    assert!(!ok && out.contains("elo0 2 is not below elo1 0"), "{out}");
    let (ok, out) = stats(&["--penta", "1,2,3"]);
    assert!(
        !ok && out.contains("--penta: 5 comma-separated counts expected"),
        "{out}"
    );
    let (ok, out) = stats(&["--wdl", "1,2,3", "--sprt", "0,2", "--alpha", "0.7"]);
    assert!(!ok && out.contains("0.7"), "{out}");
}

#[test]
fn pasted_cutechess_and_fishtest_lines_give_the_wdl_answer() {
    let (ok, expected) = stats(&["--wdl", "120,200,80", "--json"]);
    assert!(ok, "{expected}");
    for args in [
        ["--wdl", "w=120,d=200,l=80"],
        ["--cutechess", "Score of A vs B: 120 - 80 - 200 [0.550] 400"],
        ["--fishtest", "W: 120 L: 80 D: 200"],
    ] {
        let (ok, out) = stats(&[args[0], args[1], "--json"]);
        assert!(ok, "{args:?}: {out}");
        assert_eq!(out, expected, "{args:?}");
    }
    let (_, text) = stats(&["--cutechess", "Score of A vs B: 120 - 80 - 200 [0.550] 400"]);
    assert!(text.contains("games 400 (W 120 D 200 L 80)"), "{text}");
    let (ok, out) = stats(&["--wdl", "1,2,3", "--fishtest", "W: 1 L: 3 D: 2"]);
    assert!(!ok && out.contains("cannot be used with"), "{out}");
}

#[test]
fn negative_sprt_bounds_parse_as_fishtest_writes_them() {
    let (ok, out) = stats(&["--wdl", "120,200,80", "--sprt", "-1.75,0.25"]);
    assert!(ok, "{out}");
    assert!(
        out.contains("SPRT <-1.75, 0.25> normalized Elo  LLR "),
        "{out}"
    );
}

#[test]
fn help_states_the_order_of_wdl() {
    let (ok, out) = stats(&["--help"]);
    assert!(ok, "{out}");
    assert!(
        out.contains("in the order W,D,L (wins, draws, losses)"),
        "{out}"
    );
    assert!(out.contains("cutechess-cli prints W - L - D"), "{out}");
}
