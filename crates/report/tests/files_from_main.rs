//! The report of files written by main before the store existed
//! (`crates/store/tests/fixtures/main-a564af6`) is the one main printed,
//! but for the SPRT lines reworded since (the numbers are main's).

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_report::ReportConfig;
use ajaxlab_report::synthetic::temp_dir;
use std::path::Path;

/// The report's text without the lines naming files, which differ per run.
fn tables(text: &str) -> String {
    text.lines()
        .filter(|l| {
            !l.starts_with("  files ")
                && !l.starts_with("  trajectory ")
                && !l.contains("files written to")
        })
        .map(|l| format!("{l}\n"))
        .collect()
}

/// Main's SPRT lines and today's words for the same numbers.
const REWORDED: [(&str, &str); 3] = [
    (
        "  SPRT  [0, 5] logistic, alpha 0.05, beta 0.1",
        "  SPRT <0.00, 5.00> logistic Elo, alpha 0.05, beta 0.1",
    ),
    (
        "  LLR   -0.011 (bounds -2.251, 2.890)",
        "  LLR -0.01 (-2.25, 2.89 Fishtest's bounds)",
    ),
    (
        "  verdict continue: no bound crossed yet",
        "  verdict none: no bound crossed in 2 games",
    ),
];

#[test]
fn the_report_of_main_s_files_is_main_s_report() {
    let fixtures =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../store/tests/fixtures/main-a564af6");
    let out = temp_dir("files-from-main").unwrap();
    let report = ajaxlab_report::run(&ReportConfig::new(&fixtures).with_out_dir(&out)).unwrap();
    let mut expected = std::fs::read_to_string(fixtures.join("report-by-main.txt")).unwrap();
    for (main, today) in REWORDED {
        assert!(
            expected.contains(main),
            "main's report has no line '{main}'"
        );
        expected = expected.replace(main, today);
    }
    assert_eq!(tables(&report.to_string()), expected);
    let _ = std::fs::remove_dir_all(&out);
}
