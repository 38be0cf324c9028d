//! What the coordinator's tests share: fresh state directories and a worker
//! that plays units honestly.

use ajaxlab_arena::runner::{make_player, play_pair};
use ajaxlab_cluster::convert::{game_to_proto, match_config};
use ajaxlab_proto::v1;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};

/// A new, empty directory under the system's temporary directory.
pub(crate) fn temp_dir(prefix: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "ajaxlab-{prefix}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// Plays a unit honestly, as a worker would.
pub(crate) fn play(unit: &v1::WorkUnit) -> Vec<v1::GameRecord> {
    let config = match_config(unit).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut players = [
        make_player(&config.players[0], 8, &stop).unwrap(),
        make_player(&config.players[1], 8, &stop).unwrap(),
    ];
    (unit.first_pair..unit.first_pair + u64::from(unit.pair_count))
        .flat_map(|p| play_pair(&config, p, &mut players))
        .map(|g| game_to_proto(&g))
        .collect()
}
