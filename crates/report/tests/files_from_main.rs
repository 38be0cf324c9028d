//! The report of files written by main before the store existed
//! (`crates/store/tests/fixtures/main-a564af6`) is the one main printed.

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

#[test]
fn the_report_of_main_s_files_is_main_s_report() {
    let fixtures =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../store/tests/fixtures/main-a564af6");
    let out = temp_dir("files-from-main").unwrap();
    let report = ajaxlab_report::run(&ReportConfig::new(&fixtures).with_out_dir(&out)).unwrap();
    let expected = std::fs::read_to_string(fixtures.join("report-by-main.txt")).unwrap();
    assert_eq!(tables(&report.to_string()), expected);
    let _ = std::fs::remove_dir_all(&out);
}
