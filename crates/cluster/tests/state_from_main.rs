//! A coordinator state directory written by main before the store and the
//! coordinator's split (`fixtures/main-a564af6-state`) opens and resumes
//! the same: the campaign's counts, its SPRT, and exactly-once counting of
//! a unit whose file was written but not yet counted.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::{CampaignState, CampaignView, Coordinator};
use ajaxlab_stats::{Pentanomial, Trinomial};
use common::{campaign_id, temp_dir};
use std::path::{Path, PathBuf};
use std::time::Duration;

const CAMPAIGN: &str = "fixture-sprt";

/// A copy of the fixture (opening a state directory writes to it).
fn copy_of_fixture() -> PathBuf {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/main-a564af6-state");
    let to = temp_dir("state-from-main");
    let units = to.join("campaigns").join(CAMPAIGN);
    std::fs::create_dir_all(&units).unwrap();
    std::fs::copy(
        from.join("coordinator.sqlite3"),
        to.join("coordinator.sqlite3"),
    )
    .unwrap();
    for unit in ["unit-fixture-sprt-0.parquet", "unit-fixture-sprt-1.parquet"] {
        std::fs::copy(
            from.join("campaigns").join(CAMPAIGN).join(unit),
            units.join(unit),
        )
        .unwrap();
    }
    to
}

fn view(dir: &Path) -> CampaignView {
    Coordinator::open(dir, Duration::from_secs(60), 0)
        .unwrap()
        .campaign(&campaign_id(CAMPAIGN))
        .unwrap()
}

/// What main's coordinator had counted: 2 pairs, both drawn twice.
fn assert_as_main_left_it(v: &CampaignView) {
    assert_eq!(v.state, CampaignState::Finished);
    assert_eq!((v.pairs_done, v.pairs_total), (2, 2));
    assert_eq!(v.pentanomial, Pentanomial([0, 0, 2, 0, 0]));
    assert_eq!(v.white, Trinomial::new(0, 4, 0));
    assert_eq!(v.kind, ajaxlab_store::RunKind::Sprt);
    let sprt = v.sprt.as_ref().unwrap();
    assert!(sprt.llr < 0.0 && sprt.llr > sprt.bounds.lower, "{sprt:?}");
}

#[test]
fn main_s_state_directory_opens_with_its_counts() {
    let dir = copy_of_fixture();
    assert_as_main_left_it(&view(&dir));
    let c = Coordinator::open(&dir, Duration::from_secs(60), 0).unwrap();
    assert_eq!(c.history(&campaign_id(CAMPAIGN)).unwrap().len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_unit_stored_but_not_counted_in_main_s_state_is_counted_once() {
    let dir = copy_of_fixture();
    {
        // As if main's coordinator had died between writing unit 1's file
        // and counting it.
        let db = rusqlite::Connection::open(dir.join("coordinator.sqlite3")).unwrap();
        db.execute_batch(
            "update units set state = 'leased' where id = 'fixture-sprt-1';
             delete from results where unit_id = 'fixture-sprt-1';
             update campaigns set state = 'running', dd = dd - 1, white_draws = white_draws - 2;",
        )
        .unwrap();
    }
    assert_as_main_left_it(&view(&dir));
    // Opening again counts nothing twice.
    assert_as_main_left_it(&view(&dir));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stored_unit_id_that_is_no_unit_id_is_an_error_naming_its_row() {
    let dir = copy_of_fixture();
    {
        let db = rusqlite::Connection::open(dir.join("coordinator.sqlite3")).unwrap();
        db.execute_batch(
            "update results set unit_id = '../fixture-sprt-1' where unit_id = 'fixture-sprt-1';",
        )
        .unwrap();
    }
    let e = Coordinator::open(&dir, Duration::from_secs(60), 0)
        .err()
        .unwrap()
        .to_string();
    assert!(
        e.contains("results row 2: unit_id: \"../fixture-sprt-1\": not a unit id"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
