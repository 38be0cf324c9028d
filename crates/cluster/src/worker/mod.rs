//! The worker: registers, leases units, plays them with the arena (one game
//! per thread), renews its lease while playing, submits whole units, and
//! after a failure waits with exponential backoff and jitter, then
//! registers again. On shutdown it releases the unit it holds and exits.
//! It plays the same way whatever its work source: a coordinator across
//! the network ([`grpc::GrpcSource`]) or one in this process. UCI engines a
//! campaign ships are fetched into the worker's cache first ([`engines`]);
//! a unit whose engine cannot be fetched or started is given back as an
//! engine failure.

mod backoff;
mod engines;
pub mod grpc;
mod play;
mod resources;
mod unit;

use crate::remote::Remote;
use crate::shutdown::Shutdown;
use crate::work::bench_signature;
use crate::work::source::{Offer, Registration, SourceError, WorkSource};
use backoff::Backoff;
use engines::Benched;
pub use engines::localize;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::Duration;
use tracing::Instrument;

/// How a worker of a remote coordinator runs.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// The coordinator, and the worker-scope token sent to it.
    pub remote: Remote,
    /// Games at once.
    pub threads: usize,
    /// Name on the web UI.
    pub name: String,
    /// Where fetched engines are cached (made when the first is fetched).
    pub cache_dir: PathBuf,
    /// Games finished in the unit being played, not yet submitted: a
    /// progress display adds them to the coordinator's count (which moves
    /// a unit at a time) to move a game at a time.
    pub in_flight: Arc<AtomicU64>,
}

/// How a worker plays, whatever its source.
#[derive(Clone, Debug)]
pub struct Player {
    /// Games at once.
    pub threads: usize,
    /// Name on the web UI.
    pub name: String,
    /// Where fetched engines and filled templates are cached.
    pub cache_dir: PathBuf,
    /// Games finished in the unit being played, not yet submitted.
    pub in_flight: Arc<AtomicU64>,
}

/// How long a worker waits after an engine could not be fetched (the
/// coordinator unreachable) before it asks for work again.
const FETCH_RETRY: Duration = Duration::from_secs(5);

/// The cache directory a worker uses unless told otherwise, relative to
/// its working directory.
pub const DEFAULT_CACHE_DIR: &str = "ajaxlab-cache";

/// A worker that cannot go on.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The coordinator refuses us for good (bad token, wrong protocol).
    #[error("coordinator refused the worker: {0}")]
    Refused(#[source] SourceError),
    /// The builtin engine's bench, which signs this build, did not finish.
    #[error("the bench of the builtin engine failed: {0}")]
    Bench(#[source] tokio::task::JoinError),
    /// More games at once than the machine has cores.
    #[error("--threads {threads}: this machine has {cores} cores; play at most one game per core")]
    Threads {
        /// Games at once asked for.
        threads: usize,
        /// Cores here.
        cores: usize,
    },
    /// The engine cache directory cannot be made or written.
    #[error("--cache-dir {}: {source}", dir.display())]
    CacheDir {
        /// The directory.
        dir: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
}

/// Checks that the engine cache `dir` can be made and written, so that a
/// worker told a bad one stops at start with the reason, not at its first
/// shipped engine.
fn check_cache_dir(dir: &Path) -> Result<(), WorkerError> {
    let probe = dir.join(".write-probe");
    std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&probe, b""))
        .and_then(|()| std::fs::remove_file(&probe))
        .map_err(|source| WorkerError::CacheDir {
            dir: dir.to_owned(),
            source,
        })
}

/// "Unknown worker" answers in a row after which the worker says so and
/// waits before registering again: once is a restarted coordinator that
/// lost nothing, again and again is a coordinator that forgets it.
const FORGOTTEN_BEFORE_BACKOFF: u32 = 3;

/// Runs a worker of the coordinator `config` names until `shutdown` is
/// asked for; the unit it holds then is given back. Returns the number of
/// units counted.
///
/// # Errors
/// [`WorkerError`] when the coordinator refuses the worker for good.
pub async fn run_worker(config: WorkerConfig, shutdown: Shutdown) -> Result<u64, WorkerError> {
    let source = grpc::GrpcSource::new(config.remote, config.cache_dir.clone());
    let player = Player {
        threads: config.threads,
        name: config.name,
        cache_dir: config.cache_dir,
        in_flight: config.in_flight,
    };
    play_from(source, &player, shutdown).await
}

/// Plays the units `source` leases until `shutdown` is asked for; the
/// unit held then is given back. Returns the number of units counted.
///
/// # Errors
/// [`WorkerError`] when the source refuses the worker for good.
pub async fn play_from(
    mut source: impl WorkSource,
    player: &Player,
    mut shutdown: Shutdown,
) -> Result<u64, WorkerError> {
    check_cache_dir(&player.cache_dir)?;
    let cores = resources::cores();
    if player.threads > cores {
        return Err(WorkerError::Threads {
            threads: player.threads,
            cores,
        });
    }
    let signature = tokio::task::spawn_blocking(bench_signature)
        .await
        .map_err(WorkerError::Bench)?;
    let me = Registration {
        name: player.name.clone(),
        version: env!("CARGO_PKG_VERSION").into(),
        cores: u32::try_from(player.threads).unwrap_or(1),
        signature,
    };
    let mut backoff = Backoff::new(u64::from(std::process::id()) ^ signature);
    let mut benched = Benched::default();
    let mut counted = 0;
    // Times in a row the coordinator did not know this worker's id, and
    // the backoff between the registrations that follow (not reset by a
    // new registration, as the coordinator answers those).
    let mut forgotten = 0u32;
    let mut forgotten_backoff = Backoff::new(signature.rotate_left(17));
    'registration: loop {
        if shutdown.is_requested() {
            return Ok(counted);
        }
        let worker = match source.register(&me).await {
            Ok(id) => id,
            Err(SourceError::Unavailable(why)) => {
                tracing::warn!("cannot reach the coordinator: {why}; retrying");
                backoff.wait_unless(&shutdown).await;
                continue;
            }
            Err(e) => return Err(WorkerError::Refused(e)),
        };
        backoff.reset();
        loop {
            if shutdown.is_requested() {
                return Ok(counted);
            }
            let unit = match source.lease(&worker).await {
                Ok(Offer::Unit(unit)) => *unit,
                Ok(Offer::Wait(wait)) => {
                    forgotten = 0;
                    forgotten_backoff.reset();
                    shutdown.sleep(wait).await;
                    continue;
                }
                Err(SourceError::Unavailable(_)) => {
                    backoff.wait_unless(&shutdown).await;
                    continue 'registration;
                }
                Err(SourceError::UnknownWorker(why)) => {
                    forgotten += 1;
                    if forgotten >= FORGOTTEN_BEFORE_BACKOFF {
                        tracing::warn!(
                            "the coordinator did not know this worker {forgotten} times in a row ({why}); registering again after a pause"
                        );
                        forgotten_backoff.wait_unless(&shutdown).await;
                    }
                    continue 'registration;
                }
                Err(e) => return Err(WorkerError::Refused(e)),
            };
            forgotten = 0;
            forgotten_backoff.reset();
            let span = tracing::info_span!("unit", %worker, unit = %unit.lease.unit);
            if unit::play_and_submit(&mut source, &mut benched, &worker, unit, player, &shutdown)
                .instrument(span)
                .await
            {
                counted += 1;
            }
        }
    }
}
