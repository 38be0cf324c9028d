//! A unit's pairs played on the worker's threads, one game per thread,
//! each finished game shown in the worker's in-flight count.

use super::engines::EngineFailure;
use ajaxlab_arena::MatchConfig;
use ajaxlab_arena::runner::{make_player, play_pair};
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
    let played = UnitGames {
        in_flight,
        mine: AtomicU64::new(0),
    };
    let next = AtomicU64::new(first);
    let results = std::sync::Mutex::new(Vec::new());
    let failure = std::sync::Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, usize::try_from(count).unwrap_or(1).max(1)) {
            scope.spawn(|| {
                let players = (|| {
                    Ok::<_, ajaxlab_arena::runner::MatchError>([
                        make_player(&config.players[0], config.hash_mb, cancel)?,
                        make_player(&config.players[1], config.hash_mb, cancel)?,
                    ])
                })();
                let mut players = match players {
                    Ok(p) => p,
                    Err(e) => {
                        let (player, reason) = match e {
                            ajaxlab_arena::runner::MatchError::Player { name, error } => {
                                (name, error.to_string())
                            }
                            other => (String::new(), other.to_string()),
                        };
                        *failure
                            .lock()
                            .unwrap_or_else(std::sync::PoisonError::into_inner) =
                            Some(EngineFailure {
                                player,
                                reason,
                                lasting: true,
                            });
                        // The other threads stop too: the unit goes back.
                        cancel.store(true, Ordering::Relaxed);
                        return;
                    }
                };
                loop {
                    if cancel.load(Ordering::Relaxed) {
                        return;
                    }
                    let pair = next.fetch_add(1, Ordering::Relaxed);
                    if pair >= first + count {
                        return;
                    }
                    let games = play_pair(config, pair, &mut players);
                    played.add(games.len() as u64);
                    results
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner)
                        .extend(games);
                }
            });
        }
    });
    if let Some(e) = failure
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        return Played::EngineFailed(e);
    }
    if cancel.load(Ordering::Relaxed) {
        return Played::Cancelled;
    }
    let mut games = results
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    games.sort_by_key(|g| g.game_id);
    Played::Games(games)
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
