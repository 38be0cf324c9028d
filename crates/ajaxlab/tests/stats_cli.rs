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
