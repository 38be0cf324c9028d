//! `ajaxlab report` over a round robin's pairings: each pairing reported as
//! a match, and one rating table over the field.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_report::synthetic::{pentanomial_games, temp_dir, write};
use ajaxlab_report::{ReportConfig, Section};
use ajaxlab_store::FileMetadata;

#[test]
fn a_round_robin_gets_a_rating_table_in_score_order() {
    let dir = temp_dir("round-robin").unwrap();
    // a beats b and c by the same pentanomial, b beats c.
    let strong = [0, 5, 20, 15, 10];
    for (a, b, counts) in [("a", "b", strong), ("a", "c", strong), ("b", "c", strong)] {
        let id = format!("rr/{a}-vs-{b}");
        let mut games = pentanomial_games(&id, 0, counts);
        for g in &mut games {
            for p in [&mut g.white, &mut g.black] {
                p.name = if p.name == "player-0" { a } else { b }.to_owned();
            }
        }
        let sub = dir.join(format!("{a}-vs-{b}"));
        std::fs::create_dir_all(&sub).unwrap();
        write(
            &sub.join("games-00000.parquet"),
            &games,
            &FileMetadata::default(),
        )
        .unwrap();
    }
    let report = ajaxlab_report::run(&ReportConfig::new(&dir)).unwrap();
    let matches = report
        .sections
        .iter()
        .filter(|s| matches!(s, Section::Match(_)))
        .count();
    assert_eq!(matches, 3, "each pairing reported");
    let Some(Section::Ratings(r)) = report.sections.last() else {
        panic!("no rating table: {report}");
    };
    let rows = r.table.as_ref().unwrap();
    let names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(names, ["a", "b", "c"]);
    // Symmetric results: b sits at the mean, a and c equally far from it.
    assert!(rows[1].1.elo.abs() < 1e-6, "{r:?}");
    assert!((rows[0].1.elo + rows[2].1.elo).abs() < 1e-6, "{r:?}");
    assert!(rows[0].1.elo > 50.0 && rows[0].1.error_95 > 0.0, "{r:?}");
    let text = report.to_string();
    assert!(text.contains("ratings over 3 players"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
