//! `ajaxlab report` as a user calls it: one synthetic run directory with a
//! run of every kind, the terminal text, the plot files, `--out`, and bad
//! input ending in a named error and a non-zero exit without a panic.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_report::synthetic::{self, temp_dir};
use ajaxlab_stats::Pentanomial;
use std::path::Path;
use std::process::Command;

/// Runs `ajaxlab report ARGS…`: (success, stdout, stderr).
fn report(args: &[&Path]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_ajaxlab"))
        .arg("report")
        .args(args)
        .output()
        .unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

fn all_kinds(dir: &Path) {
    synthetic::write_match_run(&dir.join("match"), "m1", [10, 30, 80, 50, 30]).unwrap();
    let units = [
        [1, 14, 50, 35, 10],
        [2, 13, 51, 34, 10],
        [1, 15, 49, 35, 10],
        [1, 14, 50, 36, 9],
    ];
    synthetic::write_sprt_run(
        &dir.join("campaigns"),
        "sprt1",
        &units,
        (0.0, 5.0),
        ajaxlab_stats::EloModel::Normalized,
    )
    .unwrap();
    synthetic::write_piece_value_run(&dir.join("campaigns"), "values", 1_000, 5).unwrap();
    let scores: Vec<f64> = (0..30).map(|i| 0.35 + 0.4 * f64::from(i) / 29.0).collect();
    synthetic::write_first_move_run(&dir.join("campaigns"), "starts", &scores, 60, 6).unwrap();
    synthetic::write_spsa_run(
        &dir.join("campaigns"),
        "tune",
        &[
            ("afc.falcon.mg", 500.0, 540.0),
            ("amrc.minister.eg", 300.0, 280.0),
        ],
        20,
    )
    .unwrap();
}

#[test]
fn every_kind_is_reported_with_tables_and_plots() {
    let dir = temp_dir("cli-all").unwrap();
    all_kinds(&dir);
    let (ok, out, err) = report(&[&dir]);
    assert!(ok, "{out}\n{err}");
    for header in [
        "== match m1: player-0 against player-1 ==",
        "== sprt sprt1: player-0 against player-1 ==",
        "== piece-value values: 3 parts ==",
        "== first-move starts: 1800 games from 30 starts ==",
        "== spsa tune: 2 parameters, 20 updates, 160 pairs completed, 16 games stored ==",
    ] {
        assert!(out.contains(header), "missing '{header}' in\n{out}");
    }
    // The match's Elo is the statistics crate's, as `ajaxlab stats` prints it.
    let elo = Pentanomial::new([10, 30, 80, 50, 30]).elo().unwrap();
    let line = format!(
        "Elo   {:+.2} ± {:.2} (95%: {:+.2} .. {:+.2})",
        elo.elo,
        elo.interval.half_width(),
        elo.interval.low,
        elo.interval.high
    );
    assert!(out.contains(&line), "missing '{line}' in\n{out}");
    assert!(out.contains("verdict H1 accepted after"), "{out}");
    assert!(out.contains("Cochran's Q"), "{out}");
    let plots = dir.join("report");
    for stem in [
        "match-m1-elo",
        "sprt-sprt1-elo",
        "sprt-sprt1-llr",
        "piece-value-values-values",
        "first-move-starts-starts",
        "spsa-tune-trajectories",
    ] {
        let png = std::fs::read(plots.join(format!("{stem}.png"))).unwrap();
        assert_eq!(&png[..4], b"\x89PNG", "{stem}");
        let svg = std::fs::read_to_string(plots.join(format!("{stem}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("<text"), "{stem}");
    }
    assert!(plots.join("first-move-starts-starts.csv").is_file());
    assert!(out.contains("13 files written to"), "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_puts_the_files_elsewhere() {
    let dir = temp_dir("cli-out").unwrap();
    synthetic::write_match_run(&dir, "m", [1, 2, 3, 2, 1]).unwrap();
    let elsewhere = temp_dir("cli-out-elsewhere").unwrap().join("plots");
    let (ok, out, err) = report(&[&dir, Path::new("--out"), &elsewhere]);
    assert!(ok, "{out}\n{err}");
    assert!(elsewhere.join("match-m-elo.png").is_file(), "{out}");
    assert!(!dir.join("report").exists());
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(elsewhere.parent().unwrap());
}

#[test]
fn bad_input_exits_non_zero_naming_the_file() {
    let empty = temp_dir("cli-empty").unwrap();
    let (ok, out, err) = report(&[&empty]);
    assert!(!ok, "{out}");
    assert!(
        err.contains("no Parquet files") && err.contains(&empty.display().to_string()),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    // The reason is said once, though the error also carries it as its source.
    let missing = empty.join("no-such-run");
    let (ok, _, err) = report(&[&missing]);
    assert!(!ok);
    assert_eq!(
        err.trim(),
        format!(
            "error: {}: cannot list the directory: No such file or directory (os error 2)",
            missing.display()
        )
    );

    let corrupt = temp_dir("cli-corrupt").unwrap();
    synthetic::write_match_run(&corrupt, "m", [1, 2, 3, 2, 1]).unwrap();
    let bad = corrupt.join("sub").join("unit-00007.parquet");
    std::fs::create_dir_all(bad.parent().unwrap()).unwrap();
    std::fs::write(&bad, b"truncated").unwrap();
    let (ok, out, err) = report(&[&corrupt]);
    assert!(!ok, "{out}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(
        err.contains(&bad.display().to_string()) && err.contains("not a readable games file"),
        "{err}"
    );
    assert!(!err.contains("panicked"), "{err}");

    let missing = empty.join("nothing-here");
    let (ok, _, err) = report(&[&missing]);
    assert!(
        !ok && err.contains("nothing-here") && !err.contains("panicked"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&empty);
    let _ = std::fs::remove_dir_all(&corrupt);
}
