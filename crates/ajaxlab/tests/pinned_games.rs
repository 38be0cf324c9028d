//! The same seed and node limits give the same games, whichever pipeline
//! plays them: `ajaxlab match` and `ajaxlab campaign run` play the same
//! games of one setting, and both the games pinned here (digests of their
//! moves, results and terminations). A change to the pipelines must leave
//! them as they are; a change to the engine or the rules changes them, and
//! then the digests this test prints are the new pins.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_store::GameRecord;
use ajaxlab_store::games::read_games;
use ajaxlab_store::metadata::sha256_hex;
use std::path::{Path, PathBuf};
use std::process::Command;

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

/// The first 16 hex digits of each game's digest, by game id, as this
/// setting played them on main before the pipelines became one.
const PINNED: [&str; 4] = [
    "b2f302dcdc2e9977",
    "e2b107f6d13bcb9b",
    "c72ed4eb2158323c",
    "3c965d924750a33e",
];

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ajaxlab-pinned-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Every game stored below `dir`, by game id.
fn games_below(dir: &Path) -> Vec<GameRecord> {
    fn walk(dir: &Path, out: &mut Vec<GameRecord>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                out.extend(read_games(&path).unwrap().games);
            }
        }
    }
    let mut games = Vec::new();
    walk(dir, &mut games);
    games.sort_by_key(|g| g.game_id);
    games
}

/// A game as the digest sees it: where it began, every move, how it ended.
fn digest(g: &GameRecord) -> String {
    let moves: Vec<&str> = g.moves.iter().map(|m| m.uci.as_str()).collect();
    let text = format!(
        "{} {} [{}] [{}] {:?} {:?}",
        g.game_id,
        g.start_fen,
        g.opening_moves.join(" "),
        moves.join(" "),
        g.result,
        g.termination
    );
    sha256_hex(text.as_bytes())[..16].to_owned()
}

fn run(args: &[&str], dir: &Path) {
    let o = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{args:?}: {}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn match_and_campaign_run_play_the_pinned_games_of_one_seed() {
    let dir = temp_dir("both");
    run(
        &[
            "match",
            "--variant",
            "ajax-falcon",
            "--tc",
            "nodes=200",
            "--games",
            "4",
            "--seed",
            "11",
            "--concurrency",
            "2",
            "--quiet",
            "--out",
            "match",
        ],
        &dir,
    );
    std::fs::write(
        dir.join("pin.toml"),
        "variant = \"ajax-falcon\"\ngames = 4\ntc = \"nodes=200\"\nseed = 11\n[campaign]\nname = \"pin\"\n",
    )
    .unwrap();
    run(
        &[
            "campaign",
            "run",
            "pin.toml",
            "--threads",
            "2",
            "--quiet",
            "--runs-dir",
            "runs",
        ],
        &dir,
    );
    let by_match: Vec<String> = games_below(&dir.join("match")).iter().map(digest).collect();
    let by_campaign: Vec<String> = games_below(&dir.join("runs")).iter().map(digest).collect();
    assert_eq!(by_match, by_campaign, "match and campaign run differ");
    assert_eq!(by_match, PINNED, "the games are not the pinned ones");
}
