//! The one way games are played: pairs of a match on N threads, each
//! thread with its own two players, each finished pair handed to the
//! caller on the calling thread as it comes in. `ajaxlab match` counts and
//! stores them as they come ([`crate::runner`]); a cluster worker gathers a
//! unit's pairs to submit them.

use crate::config::MatchConfig;
use crate::player::Player;
use crate::runner::{MatchError, make_player, play_pair};
use ajaxlab_store::GameRecord;
use std::ops::Range;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::channel;

/// The pairs to play, in the order they are handed out.
#[derive(Clone, Debug)]
pub enum Pairs<'a> {
    /// A run of consecutive pairs (a cluster unit's).
    Range(Range<u64>),
    /// Listed pairs (a resumed match's pairs not stored yet).
    Listed(&'a [u64]),
}

impl Pairs<'_> {
    /// How many.
    fn len(&self) -> u64 {
        match self {
            Pairs::Range(r) => r.end.saturating_sub(r.start),
            Pairs::Listed(l) => l.len() as u64,
        }
    }

    /// The `i`th, from 0.
    fn get(&self, i: u64) -> Option<u64> {
        match self {
            Pairs::Range(r) => r.start.checked_add(i).filter(|p| r.contains(p)),
            Pairs::Listed(l) => usize::try_from(i).ok().and_then(|i| l.get(i).copied()),
        }
    }
}

/// What the caller wants after a finished pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Hand out the next pair.
    Continue,
    /// Hand out no more pairs; those in flight still finish and are
    /// handed over (a test that has decided stores them all the same).
    NoMorePairs,
}

/// Plays `pairs` of `config` on `threads` threads (at most one per pair),
/// handing each finished pair to `each` on the calling thread, in the
/// order they finish. `abort` set (a shutdown, a lost lease) stops the
/// builtin players' searches and hands out no more pairs; the games cut
/// short are handed over like any other, so the caller that set it drops
/// them.
///
/// # Errors
/// The first error: a player that cannot be started (`abort` is set, so
/// that the other threads stop at once), or one `each` returned (no more
/// pairs are handed out, and those in flight are dropped).
pub fn play_pairs(
    config: &MatchConfig,
    pairs: Pairs<'_>,
    threads: usize,
    abort: &Arc<AtomicBool>,
    mut each: impl FnMut([GameRecord; 2]) -> Result<Flow, MatchError>,
) -> Result<(), MatchError> {
    if pairs.len() == 0 {
        return Ok(());
    }
    let next = AtomicU64::new(0);
    let no_more = AtomicBool::new(false);
    let (tx, rx) = channel::<Result<[GameRecord; 2], MatchError>>();
    std::thread::scope(|scope| {
        let threads = u64::try_from(threads).unwrap_or(u64::MAX);
        for _ in 0..threads.clamp(1, pairs.len()) {
            let tx = tx.clone();
            let (next, no_more, pairs) = (&next, &no_more, &pairs);
            scope.spawn(move || {
                let mut players = match players_of(config, abort) {
                    Ok(players) => players,
                    Err(e) => {
                        abort.store(true, Ordering::Relaxed);
                        let _ = tx.send(Err(e));
                        return;
                    }
                };
                while !no_more.load(Ordering::Relaxed) && !abort.load(Ordering::Relaxed) {
                    let Some(pair) = pairs.get(next.fetch_add(1, Ordering::Relaxed)) else {
                        break;
                    };
                    if tx.send(Ok(play_pair(config, pair, &mut players))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        for message in rx {
            let flow = message.and_then(&mut each).inspect_err(|_| {
                no_more.store(true, Ordering::Relaxed);
            })?;
            if flow == Flow::NoMorePairs {
                no_more.store(true, Ordering::Relaxed);
            }
        }
        Ok(())
    })
}

/// The match's two players for one thread; builtin ones stop searching
/// when `abort` is set.
fn players_of(
    config: &MatchConfig,
    abort: &Arc<AtomicBool>,
) -> Result<[Box<dyn Player>; 2], MatchError> {
    Ok([
        make_player(&config.players[0], config.hash_mb, abort)?,
        make_player(&config.players[1], config.hash_mb, abort)?,
    ])
}
