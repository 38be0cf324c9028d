//! A load generator: simulated workers (no real games) against a coordinator
//! on loopback. Each worker leases units, renews each lease while it
//! "plays" as a real worker does (every third of the default lease), and
//! submits valid but synthetic records — the issued opening and one random
//! legal move, ended by the campaign's one-ply limit — so the coordinator
//! does all its real work: authentication, leasing, renewals, validation
//! by replay, Parquet, SQLite.

mod web;

pub use web::{PageTimes, page_times};

use crate::coordinator::{Coordinator, Scope};
use crate::remote::Auth;
use ajaxlab_arena::MatchConfig;
use ajaxlab_arena::pair::pair_seed;
use ajaxlab_proto::convert::WireError;
use ajaxlab_proto::v1::worker_client::WorkerClient;
use tonic::service::interceptor::InterceptedService;

/// A simulated worker's client, with its token.
type Client = WorkerClient<InterceptedService<tonic::transport::Channel, Auth>>;
use ajaxlab_proto::{PROTOCOL_VERSION, v1};
use ajaxlab_store::{GameRecord, MoveRecord, PlayerRecord, Termination};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a load run measured. Rates and latencies are taken over the
/// measured window (after [`LoadPlan::warm_up`]), when the cluster is in its
/// steady state; the worst latency of the whole run is reported beside them.
#[derive(Clone, Debug)]
pub struct LoadReport {
    /// Simulated workers.
    pub workers: usize,
    /// Requests answered in the window (all kinds).
    pub requests: u64,
    /// Median request latency in the window.
    pub p50: Duration,
    /// 99th percentile request latency in the window.
    pub p99: Duration,
    /// 99th percentile request latency over the whole run, warm-up included.
    pub p99_whole_run: Duration,
    /// Games validated and stored per second in the window.
    pub games_per_second: f64,
    /// The window's length.
    pub window: Duration,
    /// Requests that failed (whole run).
    pub errors: u64,
    /// Lease renewals sent (whole run).
    pub renewals: u64,
    /// Live parts the open pages were sent (whole run), each page's
    /// parts once when it opened and then as they changed.
    pub fragments_received: u64,
}

const CAMPAIGN: &str = "variant = \"ajax-falcon\"\ngames = 20000000\ntc = \"nodes=1\"\nrandom_plies = 2\n\
[campaign]\nname = \"load\"\n[adjudication]\nmax_plies = 1\n";

/// The same load as an SPSA tune of two parameters: every unit carries its
/// own perturbation and every result moves θ.
const SPSA_CAMPAIGN: &str = "variant = \"ajax-falcon\"\ngames = 20000000\ntc = \"nodes=1\"\nrandom_plies = 2\n\
[campaign]\nname = \"load\"\nkind = \"spsa\"\n[adjudication]\nmax_plies = 1\n[spsa]\n\
[[spsa.params]]\nname = \"afc.falcon.mg\"\nmin = 250\nmax = 1000\nc_end = 25\nr_end = 0.002\n\
[[spsa.params]]\nname = \"afc.minister.mg\"\nmin = 300\nmax = 1100\nc_end = 25\nr_end = 0.002\n";

/// What load to put on the coordinator.
#[derive(Clone, Debug)]
pub struct LoadPlan {
    /// Simulated workers.
    pub workers: usize,
    /// How long to run.
    pub duration: Duration,
    /// HTTP/2 connections the workers share.
    pub channels: usize,
    /// Games each worker "plays" per second (it waits that long before
    /// submitting a unit, as a real worker would); `None` submits at once,
    /// measuring what the coordinator can take at most.
    pub worker_games_per_second: Option<f64>,
    /// Workers start evenly spread over this time, as a cluster's do. A
    /// ramp-up as long as a unit puts the workers' units out of step, as in
    /// a cluster that has run for a while; a short one makes their units
    /// come due together, in waves.
    pub ramp_up: Duration,
    /// What is measured starts this long after the start (the ramp-up and
    /// the first units, whose size the coordinator has yet to learn).
    pub warm_up: Duration,
    /// Run an SPSA campaign instead of a plain match.
    pub spsa: bool,
    /// The coordinator's unit size, in seconds of play (it sizes units to
    /// this much of each worker's measured rate).
    pub unit_duration: Duration,
    /// The coordinator's lease; the workers renew at a third of it, as
    /// real ones do.
    pub lease: Duration,
    /// Web UI pages open meanwhile, each following the live updates (half
    /// on the campaign's page, half on the campaigns list).
    pub live_pages: usize,
}

/// The synthetic games of pairs `first..first+count` of `config`: the issued
/// opening, one legal move, drawn by the one-ply limit.
fn synthetic_games(
    config: &MatchConfig,
    first: u64,
    count: u64,
) -> Result<Vec<v1::GameRecord>, WireError> {
    let params: Vec<Vec<i32>> = config
        .players
        .iter()
        .map(|p| match &p.kind {
            ajaxlab_arena::config::PlayerKind::Builtin(params, _) => {
                params.iter_for(config.variant).map(|(_, v)| v).collect()
            }
            ajaxlab_arena::config::PlayerKind::Uci(_) => Vec::new(),
        })
        .collect();
    let mut games = Vec::with_capacity(count as usize * 2);
    let now = crate::coordinator::now_ms();
    for pair in first..first + count {
        let seed = pair_seed(config.seed, pair);
        let shared = config
            .openings
            .imbalance
            .is_empty()
            .then(|| config.openings.pick(seed, 0));
        for g in 0..2u64 {
            let opening = shared
                .clone()
                .unwrap_or_else(|| config.openings.pick(seed, g));
            let pos = opening.position();
            let Some(&m) = pos.legal_moves().first() else {
                continue;
            };
            let after = pos.after(m).map(|p| p.fen()).unwrap_or_default();
            let (w, b) = if g == 0 { (0, 1) } else { (1, 0) };
            let player = |i: usize| PlayerRecord {
                name: config.players[i].name.clone(),
                version: "load".into(),
                params: params[i].clone(),
                options: Vec::new(),
            };
            games.push(v1::GameRecord::try_from(&GameRecord {
                run_id: config.run_id.clone(),
                game_id: pair * 2 + g,
                pair_id: pair,
                variant: config.variant,
                start_number: opening.start_number,
                start_fen: opening.start.fen(),
                opening_moves: opening.move_texts(),
                seed,
                white: player(w),
                black: player(b),
                time_control: config.players[0].tc.to_string(),
                result: ajaxlab_rules::GameResult::Draw,
                termination: Termination::MaxPlies,
                moves: vec![MoveRecord {
                    uci: pos.uci(m).to_string(),
                    score: Some(0),
                    depth: Some(1),
                    nodes: Some(1),
                    time_ms: 0,
                }],
                final_fen: after,
                started_at_ms: now,
                ended_at_ms: now,
            })?);
        }
    }
    Ok(games)
}

/// Workers registered under one token: half of what a token may register
/// in a minute ([`crate::coordinator::REGISTRATIONS_PER_MINUTE`]), so that
/// no ramp-up runs into the limit (one token for 10,000 workers once left
/// 9,400 of them unregistered).
const WORKERS_PER_TOKEN: usize = 300;

/// A client of the coordinator at `addr` for each group of at most
/// [`WORKERS_PER_TOKEN`] of `workers`, each with a worker token of its own,
/// spread over `channels` connections (at least one each).
async fn clients(
    coordinator: &Coordinator,
    addr: std::net::SocketAddr,
    channels: usize,
    workers: usize,
) -> Result<Vec<Client>, String> {
    let mut connections = Vec::new();
    for _ in 0..channels.max(1) {
        let channel = tonic::transport::Channel::from_shared(format!("http://{addr}"))
            .map_err(|e| e.to_string())?
            .connect()
            .await
            .map_err(|e| e.to_string())?;
        connections.push(channel);
    }
    let groups = workers.div_ceil(WORKERS_PER_TOKEN).max(connections.len());
    (0..groups)
        .map(|g| {
            let token = coordinator
                .issue_token(Scope::Worker, &format!("load-{g}"))
                .map_err(|e| e.to_string())?;
            let value = format!("Bearer {token}")
                .parse()
                .map_err(|_| "token".to_owned())?;
            Ok(WorkerClient::with_interceptor(
                connections[g % connections.len()].clone(),
                Auth::new(value),
            )
            .max_encoding_message_size(ajaxlab_proto::codec::MAX_MESSAGE_BYTES))
        })
        .collect()
}

/// What one simulated worker saw.
#[derive(Default)]
struct Record {
    /// (when answered, latency) of each request.
    latencies: Vec<(Instant, Duration)>,
    /// (when, games) of each accepted unit.
    stored: Vec<(Instant, u64)>,
    /// Requests that failed.
    errors: u64,
    /// Lease renewals sent.
    renewals: u64,
}

/// One simulated worker: registers, then leases units, "plays" each for
/// its games' time at `pace` with its lease renewed as a real worker
/// renews it (every `renew_every`), and submits synthetic games, until
/// `deadline`.
struct SimulatedWorker {
    number: usize,
    client: Client,
    pace: Option<f64>,
    renew_every: Duration,
    deadline: Instant,
    record: Record,
}

impl SimulatedWorker {
    async fn run(mut self) -> Record {
        let register = v1::RegisterRequest {
            header: header(),
            name: format!("sim-{}", self.number),
            version: "load".into(),
            cores: 1,
            bench_signature: 1,
            engines: vec![],
        };
        let mut client = self.client.clone();
        let registered = self.timed(client.register(register)).await;
        let Some(worker_id) = registered.map(|r| r.worker_id) else {
            return self.record;
        };
        while Instant::now() < self.deadline {
            let request = v1::WorkRequest {
                header: header(),
                worker_id: worker_id.clone(),
            };
            let Some(unit) = self
                .timed(client.request_work(request))
                .await
                .and_then(|r| r.unit)
            else {
                continue;
            };
            let Ok(config) = MatchConfig::try_from(&unit) else {
                self.record.errors += 1;
                continue;
            };
            let (first, count) = (unit.first_pair, u64::from(unit.pair_count));
            let records =
                tokio::task::spawn_blocking(move || synthetic_games(&config, first, count));
            let Ok(Ok(records)) = records.await else {
                self.record.errors += 1;
                continue;
            };
            let n = records.len() as u64;
            if let Some(pace) = self.pace {
                let play = Duration::from_secs_f64(n as f64 / pace);
                if Instant::now() + play >= self.deadline {
                    break;
                }
                self.play_renewing(&worker_id, &unit, play).await;
            }
            let submit = v1::SubmitResultsRequest {
                header: header(),
                worker_id: worker_id.clone(),
                unit_id: unit.unit_id,
                lease_token: unit.lease_token,
                games: records,
            };
            let accepted = i32::from(v1::SubmitStatus::Accepted);
            match self.timed(client.submit_results(submit)).await {
                Some(r) if r.status == accepted => self.record.stored.push((Instant::now(), n)),
                Some(_) => self.record.errors += 1,
                None => {}
            }
        }
        self.record
    }

    /// Waits `play`, renewing the unit's lease every `renew_every`.
    async fn play_renewing(&mut self, worker_id: &str, unit: &v1::WorkUnit, play: Duration) {
        let until = Instant::now() + play;
        let mut client = self.client.clone();
        loop {
            let next = Instant::now() + self.renew_every;
            if next >= until {
                tokio::time::sleep_until(until.into()).await;
                return;
            }
            tokio::time::sleep_until(next.into()).await;
            let renew = v1::RenewLeaseRequest {
                header: header(),
                worker_id: worker_id.to_owned(),
                unit_id: unit.unit_id.clone(),
                lease_token: unit.lease_token.clone(),
            };
            self.record.renewals += 1;
            let _ = self.timed(client.renew_lease(renew)).await;
        }
    }

    /// Awaits a request, recording its latency; a failure is counted.
    async fn timed<T>(
        &mut self,
        request: impl Future<Output = Result<tonic::Response<T>, tonic::Status>>,
    ) -> Option<T> {
        let t = Instant::now();
        let answer = request.await;
        self.record.latencies.push((Instant::now(), t.elapsed()));
        match answer {
            Ok(r) => Some(r.into_inner()),
            Err(_) => {
                self.record.errors += 1;
                None
            }
        }
    }
}

/// The header of every request.
fn header() -> Option<v1::Header> {
    Some(v1::Header {
        protocol_version: PROTOCOL_VERSION,
    })
}

/// Runs `workers` simulated workers for `duration` against a fresh
/// coordinator (state in `dir`) on loopback.
///
/// # Errors
/// A failure to start the coordinator.
pub async fn run_load(dir: &Path, plan: &LoadPlan) -> Result<LoadReport, String> {
    let LoadPlan {
        workers,
        duration,
        channels,
        worker_games_per_second,
        ramp_up,
        warm_up,
        spsa,
        unit_duration,
        lease,
        live_pages,
    } = plan.clone();
    let mut coordinator = Coordinator::open(dir, lease, 1).map_err(|e| e.to_string())?;
    coordinator.set_unit_duration(unit_duration);
    let coordinator = Arc::new(coordinator);
    coordinator
        .create_campaign(if spsa { SPSA_CAMPAIGN } else { CAMPAIGN })
        .map_err(|e| e.to_string())?;
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(crate::coordinator::serve::grpc::serve(
        Arc::clone(&coordinator),
        listener,
        async {
            let _ = stopped.await;
        },
    ));
    let clients = clients(&coordinator, addr, channels, workers).await?;
    let started = Instant::now();
    let deadline = started + duration;
    let (stop_web, web_stopped) = tokio::sync::oneshot::channel::<()>();
    let pages = open_pages(&coordinator, web_stopped, live_pages, deadline).await?;
    let mut tasks = Vec::with_capacity(workers);
    for i in 0..workers {
        let client = clients[i % clients.len()].clone();
        let start_at = started + ramp_up.mul_f64(i as f64 / workers.max(1) as f64);
        let simulated = SimulatedWorker {
            number: i,
            client,
            pace: worker_games_per_second.filter(|r| *r > 0.0),
            renew_every: crate::work::renewal_interval(lease),
            deadline,
            record: Record::default(),
        };
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep_until(start_at.into()).await;
            simulated.run().await
        }));
    }
    let mut all = Record::default();
    for task in tasks {
        if let Ok(record) = task.await {
            all.latencies.extend(record.latencies);
            all.stored.extend(record.stored);
            all.errors += record.errors;
            all.renewals += record.renewals;
        }
    }
    let ended = Instant::now();
    let mut fragments_received = 0;
    for page in pages {
        fragments_received += page.await.unwrap_or(0);
    }
    let _ = stop_web.send(());
    let _ = stop.send(());
    let _ = server.await;
    let window_start = started + warm_up.min(duration);
    Ok(LoadReport {
        fragments_received,
        ..report(workers, window_start, ended, &all)
    })
}

/// `count` live pages on the coordinator's web UI until `deadline`, half
/// on the load campaign's page and half on the campaigns list: each one's
/// fragments fetched.
async fn open_pages(
    coordinator: &Arc<Coordinator>,
    stop: tokio::sync::oneshot::Receiver<()>,
    count: usize,
    deadline: Instant,
) -> Result<Vec<tokio::task::JoinHandle<u64>>, String> {
    if count == 0 {
        return Ok(Vec::new());
    }
    let addr = web::serve_web(Arc::clone(coordinator), stop).await?;
    let [campaign, list] = [
        vec![
            "/fragments/campaigns/load".to_owned(),
            "/fragments/campaigns/load/workers".to_owned(),
        ],
        vec!["/fragments/campaigns".to_owned()],
    ]
    .map(Arc::new);
    Ok((0..count)
        .map(|i| {
            let (page, parts) = if i % 2 == 0 {
                ("/campaigns/load", Arc::clone(&campaign))
            } else {
                ("/", Arc::clone(&list))
            };
            tokio::spawn(async move { web::live_page(addr, page, &parts, deadline).await })
        })
        .collect())
}

/// The figures of a run from its window's start to `ended`, from what its
/// workers saw.
fn report(workers: usize, window_start: Instant, ended: Instant, seen: &Record) -> LoadReport {
    let window = ended.saturating_duration_since(window_start);
    let mut whole: Vec<Duration> = seen.latencies.iter().map(|(_, l)| *l).collect();
    let mut measured: Vec<Duration> = seen
        .latencies
        .iter()
        .filter(|(at, _)| *at >= window_start)
        .map(|(_, l)| *l)
        .collect();
    let games: u64 = seen
        .stored
        .iter()
        .filter(|(at, _)| *at >= window_start)
        .map(|(_, n)| n)
        .sum();
    LoadReport {
        workers,
        requests: measured.len() as u64,
        p50: quantile(&mut measured, 0.5),
        p99: quantile(&mut measured, 0.99),
        p99_whole_run: quantile(&mut whole, 0.99),
        games_per_second: games as f64 / window.as_secs_f64().max(1e-9),
        window,
        errors: seen.errors,
        renewals: seen.renewals,
        fragments_received: 0,
    }
}

/// The `q` quantile of `values` (sorted in place); zero if there are none.
fn quantile(values: &mut [Duration], q: f64) -> Duration {
    values.sort_unstable();
    values
        .get(((values.len() as f64 - 1.0) * q).round() as usize)
        .copied()
        .unwrap_or_default()
}
