//! The worker: registers, leases units, plays them with the arena (one game
//! per thread), renews its lease while playing, submits whole units, and
//! reconnects with exponential backoff and jitter. On shutdown it releases
//! the unit it holds and exits. UCI engines a campaign ships are fetched
//! into the worker's cache first ([`engines`]); a unit whose engine cannot
//! be fetched or started is given back as an engine failure.

mod engines;
mod resources;

use crate::artifacts::ArtifactCache;
use crate::artifacts::cache::DEFAULT_CACHE_BYTES;
use crate::ids::WorkerId;
use crate::remote::Auth;
use crate::remote::{Remote, RemoteError};
use crate::shutdown::Shutdown;
use crate::work::{Lease, Submitted, bench_signature};
use ajaxlab_arena::MatchConfig;
use ajaxlab_arena::runner::{make_player, play_pair};
use ajaxlab_proto::convert::WireEnum;
use ajaxlab_proto::v1::artifacts_client::ArtifactsClient;
use ajaxlab_proto::v1::worker_client::WorkerClient;
use ajaxlab_proto::{PROTOCOL_VERSION, v1};
use ajaxlab_stats::{RandomSource, SplitMix64};
use ajaxlab_store::GameRecord;
use engines::{Benched, EngineFailure, check_benches, localize_players};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;
use tracing::Instrument;

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerConfig {
    /// The coordinator, and the worker-scope token sent to it.
    pub remote: Remote,
    /// Games at once.
    pub threads: usize,
    /// Name on the status page.
    pub name: String,
    /// Where fetched engines are cached (made when the first is fetched).
    pub cache_dir: PathBuf,
    /// Games finished in the unit being played, not yet submitted: a
    /// progress display adds them to the coordinator's count (which moves
    /// a unit at a time) to move a game at a time.
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
    Refused(String),
    /// A unit that cannot be played.
    #[error("bad work unit: {0}")]
    BadUnit(String),
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

type Client = WorkerClient<InterceptedService<Channel, Auth>>;

/// A worker's clients of the coordinator's services, on one channel.
struct Clients {
    work: Client,
    artifacts: crate::artifacts::client::Client,
}

fn header() -> Option<v1::Header> {
    Some(v1::Header {
        protocol_version: PROTOCOL_VERSION,
    })
}

/// Whether an error is worth retrying (network, overload) or final.
fn transient(status: &tonic::Status) -> bool {
    matches!(
        status.code(),
        tonic::Code::Unavailable
            | tonic::Code::DeadlineExceeded
            | tonic::Code::Internal
            | tonic::Code::Unknown
            | tonic::Code::ResourceExhausted
            | tonic::Code::Aborted
            // An answer too large to decode: one unit's trouble, not the
            // worker's end (it is asked again after a pause).
            | tonic::Code::OutOfRange
    )
}

/// "Unknown worker" answers in a row after which the worker says so and
/// waits before registering again: once is a restarted coordinator that
/// lost nothing, again and again is a coordinator that forgets it.
const FORGOTTEN_BEFORE_BACKOFF: u32 = 3;

/// Exponential backoff with jitter, capped at 30 s.
struct Backoff {
    attempt: u32,
    rng: SplitMix64,
}

impl Backoff {
    fn new(seed: u64) -> Backoff {
        Backoff {
            attempt: 0,
            rng: SplitMix64::new(seed),
        }
    }

    /// The next wait: twice the last, up to 30 s, with jitter.
    fn next_delay(&mut self) -> Duration {
        let base = 200u64.saturating_mul(1 << self.attempt.min(8)).min(30_000);
        self.attempt += 1;
        let jitter = self.rng.next_u64() % (base / 2 + 1);
        Duration::from_millis(base / 2 + jitter)
    }

    async fn wait(&mut self) {
        tokio::time::sleep(self.next_delay()).await;
    }

    /// [`Backoff::wait`], cut short by `shutdown`: a worker that cannot
    /// reach its coordinator still stops at once when told to.
    async fn wait_unless(&mut self, shutdown: &Shutdown) {
        shutdown.clone().sleep(self.next_delay()).await;
    }

    fn reset(&mut self) {
        self.attempt = 0;
    }
}

async fn connect(
    config: &WorkerConfig,
    shutdown: &Shutdown,
    backoff: &mut Backoff,
) -> Result<Option<Clients>, WorkerError> {
    loop {
        if shutdown.is_requested() {
            return Ok(None);
        }
        match config.remote.connect().await {
            Ok((channel, auth)) => {
                backoff.reset();
                return Ok(Some(Clients {
                    work: WorkerClient::with_interceptor(channel.clone(), auth.clone())
                        .max_decoding_message_size(ajaxlab_proto::codec::MAX_MESSAGE_BYTES)
                        .max_encoding_message_size(ajaxlab_proto::codec::MAX_MESSAGE_BYTES),
                    artifacts: ArtifactsClient::with_interceptor(channel, auth),
                }));
            }
            Err(e @ RemoteError::Connect { .. }) => {
                tracing::warn!("cannot reach the coordinator: {e}; retrying");
                backoff.wait_unless(shutdown).await;
            }
            Err(e) => return Err(WorkerError::Refused(e.to_string())),
        }
    }
}

/// Plays pairs `first..first+count` of `config` on `threads` threads;
/// stops early when `cancel` is set or an engine cannot be started. Each
/// finished game is added to `in_flight` while the unit plays, and taken
/// off again when it ends (its games are then submitted, or dropped).
fn play_unit(
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
enum Played {
    /// Every game of it.
    Games(Vec<GameRecord>),
    /// Stopped early (shutdown, or the lease passed to another worker).
    Cancelled,
    /// An engine could not be started.
    EngineFailed(EngineFailure),
}

/// Runs a worker until `shutdown` is asked for; the unit it holds then is
/// given back. Returns the number of units submitted.
///
/// # Errors
/// [`WorkerError`] when the coordinator refuses the worker for good.
pub async fn run_worker(config: WorkerConfig, mut shutdown: Shutdown) -> Result<u64, WorkerError> {
    check_cache_dir(&config.cache_dir)?;
    let cores = resources::cores();
    if config.threads > cores {
        return Err(WorkerError::Threads {
            threads: config.threads,
            cores,
        });
    }
    let signature = tokio::task::spawn_blocking(bench_signature)
        .await
        .map_err(|e| WorkerError::BadUnit(e.to_string()))?;
    let mut backoff = Backoff::new(u64::from(std::process::id()) ^ signature);
    let mut benched = Benched::default();
    let mut submitted = 0;
    // Times in a row the coordinator did not know this worker's id, and
    // the backoff between the registrations that follow (not reset by a
    // new connection, as the coordinator answers those).
    let mut forgotten = 0u32;
    let mut forgotten_backoff = Backoff::new(signature.rotate_left(17));
    'connection: loop {
        let Some(mut clients) = connect(&config, &shutdown, &mut backoff).await? else {
            return Ok(submitted);
        };
        let register = v1::RegisterRequest {
            header: header(),
            name: config.name.clone(),
            version: env!("CARGO_PKG_VERSION").into(),
            cores: u32::try_from(config.threads).unwrap_or(1),
            bench_signature: signature,
            engines: vec!["builtin".into()],
        };
        let worker_id: WorkerId =
            match clients.work.register(register).await {
                Ok(r) => r.into_inner().worker_id.parse().map_err(|e| {
                    WorkerError::Refused(format!("RegisterResponse.worker_id: {e}"))
                })?,
                Err(s) if transient(&s) => {
                    backoff.wait_unless(&shutdown).await;
                    continue 'connection;
                }
                Err(s) => return Err(WorkerError::Refused(s.message().to_owned())),
            };
        loop {
            if shutdown.is_requested() {
                return Ok(submitted);
            }
            let response = match clients
                .work
                .request_work(v1::WorkRequest {
                    header: header(),
                    worker_id: worker_id.to_string(),
                })
                .await
            {
                Ok(r) => {
                    forgotten = 0;
                    forgotten_backoff.reset();
                    r.into_inner()
                }
                Err(s) if transient(&s) => {
                    backoff.wait_unless(&shutdown).await;
                    continue 'connection;
                }
                Err(s) if s.code() == tonic::Code::NotFound => {
                    forgotten += 1;
                    if forgotten >= FORGOTTEN_BEFORE_BACKOFF {
                        tracing::warn!(
                            coordinator = %config.remote.url,
                            "the coordinator did not know this worker {forgotten} times in a row ({}); registering again after a pause",
                            s.message()
                        );
                        forgotten_backoff.wait_unless(&shutdown).await;
                    }
                    continue 'connection;
                }
                Err(s) => return Err(WorkerError::Refused(s.message().to_owned())),
            };
            let Some(unit) = response.unit else {
                let wait = Duration::from_millis(response.retry_after_ms.clamp(100, 10_000));
                shutdown.sleep(wait).await;
                continue;
            };
            let lease = Lease::of(&unit)
                .map_err(|e| WorkerError::BadUnit(format!("WorkUnit.unit_id: {e}")))?;
            let span = tracing::info_span!("unit", worker = %worker_id, unit = %lease.unit);
            if play_and_submit(
                &mut clients,
                &mut benched,
                &worker_id,
                unit,
                &lease,
                &config,
                &shutdown,
            )
            .instrument(span)
            .await?
            {
                submitted += 1;
            }
        }
    }
}

/// How long after a lease of `lease_ms` was granted it is renewed: at a
/// third of it, so that two renewals may fail before it lapses.
fn renewal_interval(lease_ms: u64) -> Duration {
    Duration::from_millis((lease_ms / 3).max(200))
}

/// The match of `unit` as this worker plays it: the texts its campaign
/// shares fetched and put back, converted, checked against this machine's
/// memory, its engines fetched and benched.
///
/// # Errors
/// An [`EngineFailure`]: lasting for a unit this worker cannot play (one
/// it cannot read, cannot afford, an engine that does not start), passing
/// for a fetch that failed for now.
async fn prepare(
    clients: &mut Clients,
    benched: &mut Benched,
    unit: &v1::WorkUnit,
    config: &WorkerConfig,
) -> Result<MatchConfig, EngineFailure> {
    let mut unit = unit.clone();
    let cache = ArtifactCache::open(&config.cache_dir, DEFAULT_CACHE_BYTES)
        .map_err(|e| EngineFailure::fetching(&e))?;
    crate::artifacts::shared::inline(&mut unit, &mut clients.artifacts, &cache)
        .await
        .map_err(|e| EngineFailure::fetching(&e))?;
    // A unit this build cannot read is given back, not the worker's end.
    let mut match_config = MatchConfig::try_from(&unit).map_err(|e| EngineFailure {
        player: String::new(),
        reason: format!("bad work unit: {e}"),
        lasting: true,
    })?;
    let games_at_once = config
        .threads
        .clamp(1, usize::try_from(unit.pair_count).unwrap_or(1).max(1));
    resources::check_affordable(&match_config, games_at_once, resources::free_memory())?;
    localize_players(
        &mut match_config,
        &unit,
        &mut clients.artifacts,
        &config.cache_dir,
    )
    .await?;
    check_benches(&match_config, benched).await?;
    Ok(match_config)
}

/// Plays one unit with its lease renewed meanwhile, then submits it (or
/// releases it on shutdown). Returns whether it was submitted.
async fn play_and_submit(
    clients: &mut Clients,
    benched: &mut Benched,
    worker_id: &WorkerId,
    unit: v1::WorkUnit,
    lease: &Lease,
    config: &WorkerConfig,
    shutdown: &Shutdown,
) -> Result<bool, WorkerError> {
    let ready = prepare(clients, benched, &unit, config).await;
    let match_config = match ready {
        Ok(match_config) => match_config,
        Err(failure) => {
            if failure.lasting {
                release(&mut clients.work, worker_id, &unit, lease, Some(&failure)).await;
            } else {
                tracing::warn!("cannot fetch an engine now, unit given back: {failure}");
                release(&mut clients.work, worker_id, &unit, lease, None).await;
                shutdown.clone().sleep(FETCH_RETRY).await;
            }
            return Ok(false);
        }
    };
    let client = &mut clients.work;
    let cancel = Arc::new(AtomicBool::new(false));
    let play = {
        let cancel = Arc::clone(&cancel);
        let threads = config.threads;
        let in_flight = Arc::clone(&config.in_flight);
        let (first, count) = (unit.first_pair, u64::from(unit.pair_count));
        tokio::task::spawn_blocking(move || {
            play_unit(&match_config, first, count, threads, &cancel, &in_flight)
        })
    };
    tokio::pin!(play);
    // Timed by this machine's monotonic clock from the durations the
    // coordinator sends: its clock and this one need not agree.
    let mut renew_every = renewal_interval(unit.lease_ms);
    let renewal = tokio::time::sleep(renew_every);
    tokio::pin!(renewal);
    let mut shutdown = shutdown.clone();
    let mut stopping = false;
    let games = loop {
        tokio::select! {
            done = &mut play => break done.map_err(|e| WorkerError::BadUnit(e.to_string()))?,
            () = shutdown.requested(), if !stopping => {
                // Searches return at once; the unit is released below.
                stopping = true;
                cancel.store(true, Ordering::Relaxed);
            }
            () = &mut renewal, if !stopping => {
                let renew = v1::RenewLeaseRequest {
                    header: header(),
                    worker_id: worker_id.to_string(),
                    unit_id: lease.unit.to_string(),
                    lease_token: lease.token.as_str().to_owned(),
                };
                match client.renew_lease(renew).await {
                    Ok(r) => renew_every = renewal_interval(r.into_inner().lease_ms),
                    // The lease is gone: someone else plays this unit now.
                    Err(s) if s.code() == tonic::Code::FailedPrecondition => {
                        cancel.store(true, Ordering::Relaxed);
                    }
                    Err(_) => {}
                }
                renewal.as_mut().reset(tokio::time::Instant::now() + renew_every);
            }
        }
    };
    let games = match games {
        Played::Games(games) => games,
        Played::Cancelled => {
            release(client, worker_id, &unit, lease, None).await;
            return Ok(false);
        }
        Played::EngineFailed(failure) => {
            release(client, worker_id, &unit, lease, Some(&failure)).await;
            return Ok(false);
        }
    };
    let request = v1::SubmitResultsRequest {
        header: header(),
        worker_id: worker_id.to_string(),
        unit_id: lease.unit.to_string(),
        lease_token: lease.token.as_str().to_owned(),
        games: games
            .iter()
            .map(v1::GameRecord::try_from)
            .collect::<Result<_, _>>()
            .map_err(|e| WorkerError::BadUnit(e.to_string()))?,
    };
    let mut backoff = Backoff::new(unit.first_pair);
    for _ in 0..8 {
        match client.submit_results(request.clone()).await {
            Ok(r) => {
                let status =
                    Submitted::from_wire(r.into_inner().status, "SubmitResultsResponse.status");
                match &status {
                    Ok(Submitted::Accepted) => tracing::info!(
                        "unit counted: {} games of pairs {}..{}",
                        games.len(),
                        unit.first_pair,
                        unit.first_pair + u64::from(unit.pair_count)
                    ),
                    Ok(other) => tracing::info!("unit not counted ({other:?}); dropped"),
                    Err(e) => tracing::warn!("unit not counted: {e}"),
                }
                return Ok(matches!(status, Ok(Submitted::Accepted)));
            }
            Err(s) if transient(&s) => backoff.wait().await,
            Err(s) => {
                tracing::warn!("unit refused: {}", s.message());
                return Ok(false);
            }
        }
    }
    Ok(false)
}

/// Gives `unit` (leased under `lease`) back unplayed; with `failure`, as
/// one whose engine this worker cannot fetch or start (logged here, shown
/// on the status page).
async fn release(
    client: &mut Client,
    worker_id: &WorkerId,
    unit: &v1::WorkUnit,
    lease: &Lease,
    failure: Option<&EngineFailure>,
) {
    if let Some(failure) = failure {
        tracing::error!(campaign = %unit.campaign_id, "cannot start an engine, unit given back: {failure}");
    }
    let release = v1::ReleaseWorkRequest {
        header: header(),
        worker_id: worker_id.to_string(),
        unit_id: lease.unit.to_string(),
        lease_token: lease.token.as_str().to_owned(),
        engine_failure: failure.map(ToString::to_string).unwrap_or_default(),
    };
    if let Err(s) = client.release_work(release).await {
        tracing::warn!("unit {} not given back: {}", lease.unit, s.message());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A worker whose clock is ten minutes behind the coordinator's once
    /// renewed every 203 s against a 10 s lease: the interval now comes from
    /// the lease's duration alone.
    #[test]
    fn a_lease_is_renewed_at_a_third_of_its_duration_whatever_the_clocks_say() {
        assert_eq!(renewal_interval(10_000), Duration::from_millis(3_333));
        assert_eq!(renewal_interval(60_000), Duration::from_secs(20));
        assert_eq!(renewal_interval(0), Duration::from_millis(200));
    }

    /// A worker that cannot reach its coordinator waits up to 30 s between
    /// tries; a shutdown cuts that wait short.
    #[tokio::test]
    async fn a_shutdown_cuts_a_backoff_short() {
        let mut backoff = Backoff::new(1);
        backoff.attempt = 8;
        let (stop, shutdown) = Shutdown::new();
        stop.stop();
        let waited = tokio::time::timeout(Duration::from_secs(5), backoff.wait_unless(&shutdown));
        assert!(
            waited.await.is_ok(),
            "the backoff waited on after the shutdown"
        );
    }
}
