//! Every count of the public perft suites (`tests/perft/*.perft`, copied
//! from the shared reference files), up to a node limit that keeps the
//! default suite quick. `cargo test -p ajaxlab-rules --release --test
//! perft_suites -- --ignored` runs every depth.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::{PerftSuite, Position, VariantKind, perft};
use std::path::PathBuf;

/// Depths whose expected count is above this are skipped by the default suite.
const QUICK_NODE_LIMIT: u64 = 2_000_000;

fn suite_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/perft")
        .join(name)
}

fn run_suite(file: &str, variant: VariantKind, node_limit: u64) {
    let text = std::fs::read_to_string(suite_path(file)).expect("suite file is in the repository");
    let suite = PerftSuite::parse(&text).expect("suite parses");
    assert!(!suite.cases.is_empty());
    let mut checked = 0;
    for case in &suite.cases {
        let pos =
            Position::from_fen(variant, &case.fen).unwrap_or_else(|e| panic!("{}: {e}", case.id));
        assert_eq!(
            pos.fen(),
            case.fen,
            "{}: FEN does not print back byte for byte",
            case.id
        );
        for &(depth, expected) in &case.expected {
            if expected > node_limit {
                continue;
            }
            assert_eq!(perft(&pos, depth), expected, "{} perft {depth}", case.id);
            checked += 1;
        }
    }
    assert!(
        checked >= suite.cases.len(),
        "node limit too low to check anything"
    );
}

#[test]
fn ajax_falcon_perft_quick() {
    run_suite(
        "ajax-falcon.perft",
        VariantKind::AjaxFalcon,
        QUICK_NODE_LIMIT,
    );
}

#[test]
fn ajax_modern_random_perft_quick() {
    run_suite(
        "ajax-modern-random.perft",
        VariantKind::AjaxModernRandom,
        QUICK_NODE_LIMIT,
    );
}

#[test]
fn chess_perft_quick() {
    run_suite("chess.perft", VariantKind::Chess, QUICK_NODE_LIMIT);
}

#[test]
fn chess960_perft_quick() {
    run_suite("chess960.perft", VariantKind::Chess960, QUICK_NODE_LIMIT);
}

#[test]
#[ignore = "deep perft: minutes in release; run with --ignored"]
fn every_perft_count_full_depth() {
    for (file, variant) in [
        ("chess.perft", VariantKind::Chess),
        ("chess960.perft", VariantKind::Chess960),
        ("ajax-falcon.perft", VariantKind::AjaxFalcon),
        ("ajax-modern-random.perft", VariantKind::AjaxModernRandom),
    ] {
        run_suite(file, variant, u64::MAX);
    }
}
