//! The bench's node count is the engine's determinism signature.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_engine::{Engine, bench};

#[test]
fn bench_is_stable_across_runs() {
    let mut a = Engine::new(16);
    let mut b = Engine::new(16);
    let first = bench::run(&mut a, 5);
    let second = bench::run(&mut b, 5);
    let again = bench::run(&mut a, 5);
    assert_eq!(first.per_position.len(), bench::POSITIONS.len());
    assert_eq!(first.per_position, second.per_position);
    assert_eq!(first.per_position, again.per_position);
    assert!(first.nodes > 1000);
}
