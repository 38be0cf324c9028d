//! Operator mistakes refused with a word that names them: excluding a
//! worker that never registered, a worker name too long to show.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::TokenHash;

use ajaxlab_arena::names::MAX_NAME_CHARS;
use ajaxlab_cluster::coordinator::{Coordinator, CoordinatorError, LeaseError};
use common::{campaign_id, temp_dir};
use std::time::Duration;

const CAMPAIGN: &str =
    "variant = \"chess\"\ngames = 4\ntc = \"nodes=200\"\n[campaign]\nname = \"mistakes\"\n";

#[test]
fn excluding_an_unknown_worker_is_refused() {
    let c = Coordinator::open(&temp_dir("mistakes"), Duration::from_secs(60), 7).unwrap();
    c.create_campaign(CAMPAIGN).unwrap();
    let Err(e @ CoordinatorError::Lease(LeaseError::UnknownWorker(_))) =
        c.exclude_worker(&campaign_id("mistakes"), &"w-nobody".parse().unwrap())
    else {
        panic!("an unknown worker is refused");
    };
    let e = e.to_string();
    assert!(e.contains("unknown worker 'w-nobody'"), "{e}");
    let w = c.register(&TokenHash::of("w"), "w", "test", 1, 7).unwrap();
    assert!(c.exclude_worker(&campaign_id("mistakes"), &w.id).is_ok());
}

#[test]
fn a_long_worker_name_is_refused_naming_the_key() {
    let c = Coordinator::open(&temp_dir("mistakes-name"), Duration::from_secs(60), 7).unwrap();
    let name = "n".repeat(10_000);
    let Err(e @ CoordinatorError::Lease(LeaseError::BadName { .. })) =
        c.register(&TokenHash::of("t"), &name, "test", 1, 7)
    else {
        panic!("a 10,000-character name is refused");
    };
    let e = e.to_string();
    assert_eq!(
        e,
        format!("worker name: 10000 characters long: use at most {MAX_NAME_CHARS}")
    );
    assert!(
        c.register(
            &TokenHash::of("t"),
            &"n".repeat(MAX_NAME_CHARS),
            "test",
            1,
            7
        )
        .is_ok()
    );
}

#[test]
fn a_worker_name_with_a_control_or_direction_character_is_refused() {
    let c = Coordinator::open(&temp_dir("mistakes-print"), Duration::from_secs(60), 7).unwrap();
    for (name, version, said) in [
        ("a\nb", "test", "worker name: character 2 is U+000A"),
        ("nul\0", "test", "worker name: character 4 is U+0000"),
        ("w", "1.0\u{202e}", "worker version: character 4 is U+202E"),
    ] {
        let Err(e @ CoordinatorError::Lease(LeaseError::BadName { .. })) =
            c.register(&TokenHash::of("t"), name, version, 1, 7)
        else {
            panic!("{name:?} {version:?} is refused");
        };
        assert!(e.to_string().starts_with(said), "{e}");
    }
}
