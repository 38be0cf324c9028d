//! The one way games are played: a run of a match's pairs (a work unit's)
//! on N threads, each thread with its own two players, each finished pair
//! handed to the caller on the calling thread as it comes in. Every worker
//! plays this way, the one `ajaxlab match` and `campaign run` start in
//! their own process included.

use crate::config::MatchConfig;
use crate::pair::{PlayerFailure, make_player, play_pair};
use crate::player::Player;
use ajaxlab_store::GameRecord;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::channel;

/// Plays `pairs` of `config` on `threads` threads (at most one per pair),
/// handing each finished pair to `each` on the calling thread, in the
/// order they finish. `abort` set (a shutdown, a lost lease) stops the
/// builtin players' searches and hands out no more pairs; the games cut
/// short are handed over like any other, so the caller that set it drops
/// them.
///
/// # Errors
/// A player that cannot be started (`abort` is set, so that the other
/// threads stop at once).
pub fn play_pairs(
    config: &MatchConfig,
    pairs: Range<u64>,
    threads: usize,
    abort: &Arc<AtomicBool>,
    mut each: impl FnMut([GameRecord; 2]),
) -> Result<(), PlayerFailure> {
    let count = pairs.end.saturating_sub(pairs.start);
    if count == 0 {
        return Ok(());
    }
    let next = AtomicU64::new(pairs.start);
    let (tx, rx) = channel::<Result<[GameRecord; 2], PlayerFailure>>();
    std::thread::scope(|scope| {
        let threads = u64::try_from(threads).unwrap_or(u64::MAX);
        for _ in 0..threads.clamp(1, count) {
            let tx = tx.clone();
            let (next, pairs) = (&next, &pairs);
            scope.spawn(move || {
                let mut players = match players_of(config, abort) {
                    Ok(players) => players,
                    Err(e) => {
                        abort.store(true, Ordering::Relaxed);
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                while !abort.load(Ordering::Relaxed) {
                    let pair = next.fetch_add(1, Ordering::Relaxed);
                    if !pairs.contains(&pair) {
                        break;
                    }
                    if tx.send(Ok(play_pair(config, pair, &mut players))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for message in rx {
            each(message?);
        }
        Ok(())
    })
}

/// The match's two players for one thread; builtin ones stop searching
/// when `abort` is set.
fn players_of(
    config: &MatchConfig,
    abort: &Arc<AtomicBool>,
) -> Result<[Box<dyn Player>; 2], PlayerFailure> {
    Ok([
        make_player(&config.players[0], config.hash_mb, abort)?,
        make_player(&config.players[1], config.hash_mb, abort)?,
    ])
}
