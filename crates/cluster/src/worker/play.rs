//! A unit's pairs played on the worker's threads ([`play_pairs`], as a
//! match plays them), each finished game shown in the worker's in-flight
//! count.

use super::engines::EngineFailure;
use ajaxlab_arena::MatchConfig;
use ajaxlab_arena::pair::PlayerFailure;
use ajaxlab_arena::pool::play_pairs;
use ajaxlab_store::GameRecord;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Plays pairs `first..first+count` of `config` on `threads` threads;
/// stops early when `cancel` is set or an engine cannot be started. Each
/// finished game is added to `in_flight` while the unit plays, and taken
/// off again when it ends (its games are then submitted, or dropped).
pub(super) fn play_unit(
    config: &MatchConfig,
    first: u64,
    count: u64,
    threads: usize,
    cancel: &Arc<AtomicBool>,
    in_flight: &AtomicU64,
) -> Played {
    let pairs = first..first.saturating_add(count);
    let played = UnitGames {
        in_flight,
        mine: AtomicU64::new(0),
    };
    let mut games = Vec::new();
    let result = play_pairs(config, pairs, threads, cancel, |pair| {
        played.add(pair.len() as u64);
        games.extend(pair);
    });
    match result {
        Err(PlayerFailure { name, error }) => Played::EngineFailed(EngineFailure {
            player: name,
            reason: error.to_string(),
            lasting: true,
        }),
        Ok(()) if cancel.load(Ordering::Relaxed) => Played::Cancelled,
        Ok(()) => {
            games.sort_by_key(|g| g.game_id);
            Played::Games(games)
        }
    }
}

/// A unit's finished games, counted in the worker's in-flight total while
/// the unit plays and taken off again when it ends, however it ends.
struct UnitGames<'a> {
    in_flight: &'a AtomicU64,
    mine: AtomicU64,
}

impl UnitGames<'_> {
    fn add(&self, games: u64) {
        self.mine.fetch_add(games, Ordering::Relaxed);
        self.in_flight.fetch_add(games, Ordering::Relaxed);
    }
}

impl Drop for UnitGames<'_> {
    fn drop(&mut self) {
        self.in_flight
            .fetch_sub(*self.mine.get_mut(), Ordering::Relaxed);
    }
}

/// What playing a unit came to.
pub(super) enum Played {
    /// Every game of it.
    Games(Vec<GameRecord>),
    /// Stopped early (shutdown, or the lease passed to another worker).
    Cancelled,
    /// An engine could not be started.
    EngineFailed(EngineFailure),
}
