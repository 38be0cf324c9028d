//! `ajaxlab datagen` as a user meets it: positions as Parquet rows that
//! DuckDB reads, each a quiet position past the first plies with the side
//! to move's score and result; the same seed gives the same rows, and a
//! run extended to more games equals one that played them all at once.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::{Position, VariantKind};
use ajaxlab_store::positions::{PositionRow, read_positions, summary};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ajaxlab-datagen-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `ajaxlab datagen` of AFC at 200 nodes, seed 5, into `out`.
fn datagen(out: &Path, games: u64) -> Output {
    let o = Command::new(BIN)
        .args([
            "datagen",
            "--variant",
            "afc",
            "--tc",
            "nodes=200",
            "--seed",
            "5",
        ])
        .args(["--threads", "2", "--quiet", "--games", &games.to_string()])
        .arg("--out")
        .arg(out)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// Every row of the run in `out`, in file order.
fn rows(out: &Path) -> Vec<PositionRow> {
    let dir = out.join("campaigns/datagen-afc");
    let (files, _) = summary(&dir).unwrap();
    files
        .iter()
        .flat_map(|f| read_positions(f).unwrap())
        .collect()
}

fn python() -> PathBuf {
    std::env::var_os("AJAXLAB_FSF_PYTHON").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python"),
        PathBuf::from,
    )
}

#[test]
fn positions_are_quiet_scored_rows_that_duckdb_reads() {
    let out = temp_dir("rows");
    let o = datagen(&out, 4);
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    let rows = rows(&out);
    assert!(rows.len() > 40, "{} rows; {said}", rows.len());
    assert!(
        said.starts_with(&format!("{} positions from 4 games", rows.len())),
        "{said}"
    );
    let afc = VariantKind::AjaxFalcon.variant();
    for r in &rows {
        assert!(r.ply >= 8, "{r:?}");
        assert!([0.0, 0.5, 1.0].contains(&r.result), "{r:?}");
        let pos = Position::from_fen_in(afc, &r.fen).unwrap();
        let m = pos.parse_uci(&r.best_move).unwrap();
        assert!(
            !pos.in_check() && pos.captured_kind(m).is_none() && m.promotion_kind().is_none(),
            "not quiet: {r:?}"
        );
    }
    // Both sides' positions, and the two results of a decisive game.
    assert!(
        rows.iter().any(|r| r.fen.contains(" w ")) && rows.iter().any(|r| r.fen.contains(" b "))
    );
    let glob = out.join("campaigns/datagen-afc/positions-*.parquet");
    let script = format!(
        "import duckdb; print(*duckdb.connect().execute(\"select count(*), min(ply), count(distinct game_id) from read_parquet('{}')\").fetchone())",
        glob.display()
    );
    let duck = Command::new(python())
        .args(["-c", &script])
        .output()
        .unwrap();
    assert!(
        duck.status.success(),
        "{}",
        String::from_utf8_lossy(&duck.stderr)
    );
    let expected = format!(
        "{} {} 4\n",
        rows.len(),
        rows.iter().map(|r| r.ply).min().unwrap()
    );
    assert_eq!(String::from_utf8_lossy(&duck.stdout), expected);
    std::fs::remove_dir_all(&out).unwrap();
}

#[test]
fn the_same_seed_gives_the_same_rows_and_an_extended_run_equals_a_whole_one() {
    let (extended, whole) = (temp_dir("extended"), temp_dir("whole"));
    datagen(&extended, 2);
    let first = rows(&extended);
    datagen(&extended, 4);
    datagen(&whole, 4);
    let (extended_rows, whole_rows) = (rows(&extended), rows(&whole));
    assert_eq!(extended_rows, whole_rows);
    assert!(extended_rows.len() > first.len());
    assert_eq!(&extended_rows[..first.len()], first.as_slice());
    for dir in [extended, whole] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}
