//! Help texts name what the README names.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::process::Command;

fn help(command: &str) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_ajaxlab"))
        .args([command, "--help"])
        .output()
        .unwrap();
    assert!(o.status.success());
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[test]
fn perft_help_names_the_suites_in_the_repository() {
    let text = help("perft");
    assert!(text.contains("tests/perft/"), "{text}");
    assert!(!text.contains("shared/"), "{text}");
}

#[test]
fn match_help_says_games_are_even() {
    let text = help("match");
    assert!(text.contains("an even number"), "{text}");
}
