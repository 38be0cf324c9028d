//! One leased unit on a worker: made ready (memory checked, engines
//! fetched and benched), played with its lease renewed meanwhile, then
//! submitted, or given back on shutdown or when it cannot be played here.

use super::backoff::Backoff;
use super::engines::{Benched, EngineFailure, check_benches, localize_players};
use super::play::{Played, play_unit};
use super::{Player, resources};
use crate::ids::WorkerId;
use crate::shutdown::Shutdown;
use crate::work::source::{SourceError, WorkSource};
use crate::work::unit::WorkUnit;
use crate::work::{Lease, Submitted, renewal_interval};
use ajaxlab_store::GameRecord;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Tries at a submission that meets an unavailable coordinator.
const SUBMIT_TRIES: usize = 8;

/// `unit` made ready to play here: checked against this machine's memory,
/// its engines fetched and benched.
///
/// # Errors
/// An [`EngineFailure`]: lasting for a unit this worker cannot play (one
/// it cannot afford, an engine that does not start), passing for a fetch
/// that failed for now.
async fn prepare(
    source: &mut impl WorkSource,
    benched: &mut Benched,
    unit: &mut WorkUnit,
    player: &Player,
) -> Result<(), EngineFailure> {
    let games_at_once = player
        .threads
        .clamp(1, usize::try_from(unit.pair_count).unwrap_or(1).max(1));
    resources::check_affordable(&unit.config, games_at_once, resources::free_memory())?;
    localize_players(unit, source, &player.cache_dir).await?;
    check_benches(&unit.config, benched).await
}

/// Plays one unit with its lease renewed meanwhile, then submits it (or
/// releases it on shutdown). Returns whether it was counted.
pub(super) async fn play_and_submit(
    source: &mut impl WorkSource,
    benched: &mut Benched,
    worker: &WorkerId,
    mut unit: WorkUnit,
    player: &Player,
    shutdown: &Shutdown,
) -> bool {
    if let Err(failure) = prepare(source, benched, &mut unit, player).await {
        if failure.lasting {
            tracing::error!(campaign = %unit.campaign, "cannot start an engine, unit given back: {failure}");
            source
                .release(worker, &unit.lease, Some(&failure.to_string()))
                .await;
        } else {
            tracing::warn!("cannot fetch an engine now, unit given back: {failure}");
            source.release(worker, &unit.lease, None).await;
            shutdown.clone().sleep(super::FETCH_RETRY).await;
        }
        return false;
    }
    let unit = Arc::new(unit);
    match play_renewing(source, worker, &unit, player, shutdown).await {
        Played::Games(games) => submit(source, worker, &unit, &games).await,
        Played::Cancelled => {
            source.release(worker, &unit.lease, None).await;
            false
        }
        Played::EngineFailed(failure) => {
            tracing::error!(campaign = %unit.campaign, "cannot start an engine, unit given back: {failure}");
            source
                .release(worker, &unit.lease, Some(&failure.to_string()))
                .await;
            false
        }
    }
}

/// Plays `unit`, renewing its lease meanwhile; cancelled on shutdown or
/// when the lease passes to another worker.
async fn play_renewing(
    source: &mut impl WorkSource,
    worker: &WorkerId,
    unit: &Arc<WorkUnit>,
    player: &Player,
    shutdown: &Shutdown,
) -> Played {
    let cancel = Arc::new(AtomicBool::new(false));
    let play = {
        let cancel = Arc::clone(&cancel);
        let threads = player.threads;
        let in_flight = Arc::clone(&player.in_flight);
        let unit = Arc::clone(unit);
        tokio::task::spawn_blocking(move || {
            let (first, count) = (unit.first_pair, u64::from(unit.pair_count));
            play_unit(&unit.config, first, count, threads, &cancel, &in_flight)
        })
    };
    tokio::pin!(play);
    // Timed by this machine's monotonic clock from the durations the
    // coordinator sends: its clock and this one need not agree.
    let mut renew_every = renewal_interval(unit.lease_duration);
    let renewal = tokio::time::sleep(renew_every);
    tokio::pin!(renewal);
    let mut shutdown = shutdown.clone();
    let mut stopping = false;
    loop {
        tokio::select! {
            done = &mut play => return done.unwrap_or(Played::Cancelled),
            () = shutdown.requested(), if !stopping => {
                // Searches return at once; the unit is released after.
                stopping = true;
                cancel.store(true, Ordering::Relaxed);
            }
            () = &mut renewal, if !stopping => {
                match source.renew(worker, &unit.lease).await {
                    Ok(lease) => renew_every = renewal_interval(lease),
                    // Someone else plays this unit now.
                    Err(SourceError::LeaseLost) => cancel.store(true, Ordering::Relaxed),
                    Err(_) => {}
                }
                renewal.as_mut().reset(tokio::time::Instant::now() + renew_every);
            }
        }
    }
}

/// Submits the games of `unit`, trying again while the coordinator is
/// unavailable; whether they were counted.
async fn submit(
    source: &mut impl WorkSource,
    worker: &WorkerId,
    unit: &WorkUnit,
    games: &[GameRecord],
) -> bool {
    let lease: &Lease = &unit.lease;
    let mut backoff = Backoff::new(unit.first_pair);
    for _ in 0..SUBMIT_TRIES {
        match source.submit(worker, lease, games).await {
            Ok(Submitted::Accepted) => {
                tracing::info!(
                    "unit counted: {} games of pairs {}..{}",
                    games.len(),
                    unit.first_pair,
                    unit.first_pair + u64::from(unit.pair_count)
                );
                return true;
            }
            Ok(other) => {
                tracing::info!("unit not counted ({other:?}); dropped");
                return false;
            }
            Err(SourceError::Unavailable(_)) => backoff.wait().await,
            Err(e) => {
                tracing::warn!("unit refused: {e}");
                return false;
            }
        }
    }
    false
}
