//! What a careless operator typed, refused at once with the reason: a
//! match file that names no players (it once played two default players
//! without a word), a player name that would break a PGN tag, and a
//! worker's engine cache that cannot be written (it once started, and
//! failed at the first shipped engine).

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

fn ajaxlab(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn refused(args: &[&str], said: &str) {
    let out = ajaxlab(args);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{args:?} succeeded: {stderr}");
    assert!(stderr.contains(said), "{args:?}: {stderr}");
}

fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("ajaxlab-careless-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_match_file_naming_no_players_is_refused() {
    let dir = scratch("players");
    let file = dir.join("no-players.toml");
    std::fs::write(
        &file,
        "variant = \"chess\"\ngames = 2\ntc = \"nodes=100\"\n",
    )
    .unwrap();
    refused(
        &["match", "--config", file.to_str().unwrap()],
        "players: none named",
    );
}

#[test]
fn a_player_name_that_is_not_printable_text_is_refused() {
    let dir = scratch("names");
    for (i, name) in ["a\\nb", "x\\u202Ey"].iter().enumerate() {
        let file = dir.join(format!("names-{i}.toml"));
        std::fs::write(
            &file,
            format!("variant = \"chess\"\ngames = 2\ntc = \"nodes=100\"\n[[players]]\nengine = \"builtin\"\nname = \"{name}\"\n[[players]]\nengine = \"builtin\"\n"),
        )
        .unwrap();
        refused(
            &["match", "--config", file.to_str().unwrap()],
            "which is not printable text",
        );
    }
}

#[test]
fn a_worker_whose_cache_cannot_be_written_stops_at_start() {
    let dir = scratch("cache");
    let token = dir.join("worker.token");
    std::fs::write(&token, "not-a-real-token\n").unwrap();
    refused(
        &[
            "worker",
            "--coordinator",
            "http://127.0.0.1:9",
            "--token-file",
            token.to_str().unwrap(),
            "--cache-dir",
            "/proc/nope",
        ],
        "--cache-dir /proc/nope: ",
    );
}
