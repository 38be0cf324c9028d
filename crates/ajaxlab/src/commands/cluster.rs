//! Cluster commands: `coordinator`, `token`, `worker`, and `campaign`
//! (`run` on one machine; `create`, `list`, `status`, `pause`, `resume`,
//! `stop` against a running coordinator).

use super::out::{StdoutError, out, outln};
use ajaxlab_cluster::artifacts::client::{campaign_files, upload};
use ajaxlab_cluster::coordinator::CampaignState;
use ajaxlab_cluster::coordinator::{Coordinator, Scope};
use ajaxlab_cluster::coordinator_file::{CoordinatorSettings, parse_coordinator_file};
use ajaxlab_cluster::local::{run_local_campaign, standing};
use ajaxlab_cluster::sprt_text::sprt_state;
use ajaxlab_cluster::worker::{WorkerConfig, bench_signature, run_worker};
use ajaxlab_proto::convert::WireEnum;
use ajaxlab_proto::v1::artifacts_client::ArtifactsClient;
use ajaxlab_proto::v1::operator_client::OperatorClient;
use ajaxlab_proto::{PROTOCOL_VERSION, v1};
use ajaxlab_stats::{EloModel, Status, hypotheses_text, llr_text};
use ajaxlab_store::RunKind;
use anyhow::{Context, bail};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// The campaign `ajaxlab campaign run` plays when given no file.
const QUICKSTART: &str = include_str!("../../../../configs/quickstart.toml");

/// Arguments of `ajaxlab coordinator`.
#[derive(Debug, clap::Args)]
pub(crate) struct CoordinatorArgs {
    /// A coordinator file (TOML: listen, state_dir, lease_seconds).
    #[arg(long)]
    config: Option<PathBuf>,
    /// Address to listen on (default 0.0.0.0:50051).
    #[arg(long)]
    listen: Option<SocketAddr>,
    /// State directory (default ./coordinator).
    #[arg(long)]
    state_dir: Option<PathBuf>,
    /// Address of the status page and /metrics (default 0.0.0.0:8080).
    #[arg(long)]
    http_listen: Option<SocketAddr>,
    /// Read every counted games file in full (SHA-256, size, games)
    /// against what was recorded when it was counted, move bad ones to
    /// quarantine/ with their games out of the counts, print what was
    /// found and exit instead of serving; exit 1 if a file was moved.
    /// (Start-up checks only that each file is there at its size.)
    #[arg(long)]
    verify: bool,
}

/// Arguments of `ajaxlab token`.
#[derive(Debug, clap::Args)]
pub(crate) struct TokenArgs {
    /// The coordinator's state directory.
    #[arg(long)]
    state_dir: PathBuf,
    /// worker or operator.
    #[arg(long)]
    scope: String,
    /// A label for the token (who has it).
    #[arg(long, default_value = "")]
    label: String,
    /// Write the token to this file (mode 600) instead of printing it.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Arguments of `ajaxlab worker`.
#[derive(Debug, clap::Args)]
pub(crate) struct WorkerArgs {
    /// The coordinator, e.g. http://coordinator:50051.
    #[arg(long)]
    coordinator: String,
    /// File holding a worker token.
    #[arg(long)]
    token_file: PathBuf,
    /// Games at once (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Name on the status page (default: the host name).
    #[arg(long)]
    name: Option<String>,
    /// CA certificate (PEM) to trust for an https:// coordinator.
    #[arg(long)]
    tls_ca: Option<PathBuf>,
    /// Where engines fetched from the coordinator are cached (1 GiB at most).
    #[arg(long, default_value = ajaxlab_cluster::worker::DEFAULT_CACHE_DIR)]
    cache_dir: PathBuf,
}

/// Arguments of `ajaxlab loadgen`.
#[derive(Debug, clap::Args)]
pub(crate) struct LoadgenArgs {
    /// Simulated workers.
    #[arg(long, default_value_t = 1000)]
    workers: usize,
    /// How long to run.
    #[arg(long, default_value_t = 20)]
    seconds: u64,
    /// HTTP/2 connections the workers share.
    #[arg(long, default_value_t = 16)]
    channels: usize,
    /// Games each simulated worker plays per second (it waits before
    /// submitting, as a real worker does); 0 submits at once, to find the
    /// most the coordinator takes.
    #[arg(long, default_value_t = 0.0)]
    worker_rate: f64,
    /// Seconds over which the workers start; as long as a unit
    /// (`--unit-seconds`) for a cluster's steady state, where the workers'
    /// units are out of step.
    #[arg(long, default_value_t = 0)]
    ramp_up: u64,
    /// Seconds before measuring starts (default: the ramp-up, plus one unit
    /// when workers play at `--worker-rate`, since their first units are
    /// single pairs while the coordinator learns their speed).
    #[arg(long)]
    warm_up: Option<u64>,
    /// Load an SPSA campaign (a perturbation per unit, θ moved by each
    /// result) instead of a plain match.
    #[arg(long)]
    spsa: bool,
    /// The coordinator's unit size in seconds of a worker's play (the
    /// coordinator's `unit_seconds`; real coordinators default to 180).
    #[arg(long, default_value_t = 180)]
    unit_seconds: u64,
}

pub(crate) fn loadgen(args: &LoadgenArgs) -> anyhow::Result<ExitCode> {
    let dir = std::env::temp_dir().join(format!("ajaxlab-loadgen-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let report = runtime()?.block_on(ajaxlab_cluster::loadgen::run_load(
        &dir,
        &ajaxlab_cluster::loadgen::LoadPlan {
            workers: args.workers,
            duration: Duration::from_secs(args.seconds),
            channels: args.channels,
            worker_games_per_second: (args.worker_rate > 0.0).then_some(args.worker_rate),
            ramp_up: Duration::from_secs(args.ramp_up),
            warm_up: Duration::from_secs(args.warm_up.unwrap_or(
                args.ramp_up
                    + if args.worker_rate > 0.0 {
                        args.unit_seconds
                    } else {
                        0
                    },
            )),
            spsa: args.spsa,
            unit_duration: Duration::from_secs(args.unit_seconds.max(1)),
        },
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let r = report.map_err(anyhow::Error::msg)?;
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    outln!(
        "workers {}  errors {}  measured over the last {:.0} s:",
        r.workers,
        r.errors,
        r.window.as_secs_f64()
    )?;
    if args.worker_rate > 0.0 {
        outln!(
            "games offered {:.0}/s",
            args.workers as f64 * args.worker_rate
        )?;
    }
    outln!("games validated and stored {:.0}/s", r.games_per_second)?;
    outln!(
        "requests {}  latency p50 {:.1} ms  p99 {:.1} ms  (p99 over the whole run {:.1} ms)",
        r.requests,
        ms(r.p50),
        ms(r.p99),
        ms(r.p99_whole_run)
    )?;
    Ok(ExitCode::SUCCESS)
}

/// Arguments of `ajaxlab campaign`.
#[derive(Debug, clap::Args)]
pub(crate) struct CampaignArgs {
    #[command(subcommand)]
    action: CampaignAction,
}

#[derive(Debug, clap::Subcommand)]
enum CampaignAction {
    /// Run a campaign on this machine: embedded coordinator and local workers.
    Run {
        /// The campaign file (default: the embedded configs/quickstart.toml).
        file: Option<PathBuf>,
        /// Games at once (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Where runs live.
        #[arg(long, default_value = "runs")]
        runs_dir: PathBuf,
        /// No progress output.
        #[arg(long)]
        quiet: bool,
    },
    /// Create a campaign on a coordinator.
    Create {
        /// The campaign file.
        file: PathBuf,
        #[command(flatten)]
        remote: Remote,
    },
    /// List a coordinator's campaigns.
    List {
        #[command(flatten)]
        remote: Remote,
    },
    /// Show one campaign.
    Status {
        /// Campaign id.
        id: String,
        #[command(flatten)]
        remote: Remote,
    },
    /// Pause a campaign.
    Pause {
        /// Campaign id.
        id: String,
        #[command(flatten)]
        remote: Remote,
    },
    /// Resume a paused campaign.
    Resume {
        /// Campaign id.
        id: String,
        #[command(flatten)]
        remote: Remote,
    },
    /// Stop a campaign for good.
    Stop {
        /// Campaign id.
        id: String,
        #[command(flatten)]
        remote: Remote,
    },
    /// Count a worker's games out of a campaign (e.g. one the status page
    /// flags as implausible): its units are played again by other workers.
    Exclude {
        /// Campaign id.
        id: String,
        /// The worker's id, as on the status page.
        #[arg(long)]
        worker: String,
        #[command(flatten)]
        remote: Remote,
    },
}

/// A coordinator to talk to as an operator.
#[derive(Debug, clap::Args)]
struct Remote {
    /// The coordinator, e.g. http://127.0.0.1:50051.
    #[arg(long)]
    coordinator: String,
    /// File holding an operator token.
    #[arg(long)]
    token_file: PathBuf,
    /// CA certificate (PEM) to trust for an https:// coordinator.
    #[arg(long)]
    tls_ca: Option<PathBuf>,
}

fn read_ca(path: Option<&PathBuf>) -> anyhow::Result<Option<Vec<u8>>> {
    path.map(|p| {
        std::fs::read(p).with_context(|| format!("reading the CA certificate {}", p.display()))
    })
    .transpose()
}

fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

fn read_token(path: &Path) -> anyhow::Result<String> {
    let token = std::fs::read_to_string(path)
        .with_context(|| format!("reading the token file {}", path.display()))?;
    let token = token.trim().to_owned();
    if token.is_empty() {
        bail!("{} is empty", path.display());
    }
    Ok(token)
}

/// Resolves on the first SIGTERM or Ctrl-C.
async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = term.recv() => {}
                    _ = tokio::signal::ctrl_c() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    let _ = tokio::signal::ctrl_c().await;
    tracing::info!("shutting down: finishing the current request, releasing work");
}

/// Sets `flag` on SIGTERM or Ctrl-C (for the worker, which checks it between moves).
fn on_signal(flag: Arc<AtomicBool>) {
    tokio::spawn(async move {
        shutdown_signal().await;
        flag.store(true, Ordering::Relaxed);
    });
}

pub(crate) fn coordinator(args: &CoordinatorArgs) -> anyhow::Result<ExitCode> {
    let file = match &args.config {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("reading {}", path.display()))?;
            parse_coordinator_file(&text).with_context(|| path.display().to_string())?
        }
        None => CoordinatorSettings::default(),
    };
    let listen = args
        .listen
        .or(file.listen)
        .unwrap_or_else(|| SocketAddr::from(([0, 0, 0, 0], 50051)));
    let state_dir = args
        .state_dir
        .clone()
        .or(file.state_dir)
        .unwrap_or_else(|| PathBuf::from("coordinator"));
    let tls = match &file.tls {
        Some(files) => Some(ajaxlab_cluster::server::TlsIdentity {
            cert_pem: std::fs::read(&files.cert)
                .with_context(|| format!("tls_cert: reading {}", files.cert.display()))?,
            key_pem: std::fs::read(&files.key)
                .with_context(|| format!("tls_key: reading {}", files.key.display()))?,
        }),
        None => None,
    };
    let lease = file.lease;
    runtime()?.block_on(async {
        let signature = tokio::task::spawn_blocking(bench_signature).await?;
        let mut coordinator = Coordinator::open(&state_dir, lease, signature)?;
        // What start-up and the full check quarantine is logged as it
        // happens (a warning naming the unit and why).
        if args.verify {
            return print_verification(coordinator.startup_check(), &coordinator.verify()?);
        }
        if let Some(duration) = file.unit_duration {
            coordinator.set_unit_duration(duration);
        }
        if let Some(bytes) = file.artifact_limit {
            coordinator.set_artifact_limit(bytes);
        }
        let coordinator = Arc::new(coordinator);
        let listener = tokio::net::TcpListener::bind(listen)
            .await
            .with_context(|| format!("listening on {listen}"))?;
        eprintln!(
            "coordinator listening on {} ({}, state {}, lease {} s, engine signature {signature})",
            listener.local_addr()?,
            if tls.is_some() { "TLS" } else { "plain text" },
            state_dir.display(),
            lease.as_secs()
        );
        let http_addr = args
            .http_listen
            .or(file.http_listen)
            .unwrap_or_else(|| SocketAddr::from(([0, 0, 0, 0], 8080)));
        let http = tokio::net::TcpListener::bind(http_addr)
            .await
            .with_context(|| format!("listening on {http_addr}"))?;
        eprintln!("status page and metrics on http://{}/", http.local_addr()?);
        let startup = coordinator.startup_check();
        eprintln!(
            "games files: {} counted units there at their size; {} moved to quarantine/",
            startup.checked,
            startup.quarantined.len()
        );
        // One signal stops both servers: the gRPC one waits for it, the
        // status page for the gRPC one's word.
        let (stop_http, http_stopped) = tokio::sync::oneshot::channel::<()>();
        let status = tokio::spawn(ajaxlab_cluster::status::serve_http(
            Arc::clone(&coordinator),
            http,
            async move {
                let _ = http_stopped.await;
            },
        ));
        let served =
            ajaxlab_cluster::server::serve_tls(coordinator, listener, tls, shutdown_signal()).await;
        let _ = stop_http.send(());
        served?;
        status.await??;
        Ok(ExitCode::SUCCESS)
    })
}

/// What `coordinator --verify` found, printed; exit 1 if a file was
/// quarantined, at start-up or by the full check.
fn print_verification(
    startup: &ajaxlab_cluster::coordinator::FileCheck,
    full: &ajaxlab_cluster::coordinator::FileCheck,
) -> anyhow::Result<ExitCode> {
    for q in &full.quarantined {
        outln!("{q}")?;
    }
    let moved = startup.quarantined.len() + full.quarantined.len();
    outln!(
        "verified {} counted units' games files (SHA-256, size, games): {moved} moved to quarantine/",
        full.checked
    )?;
    Ok(if moved == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

pub(crate) fn token(args: &TokenArgs) -> anyhow::Result<ExitCode> {
    let scope = Scope::parse(&args.scope)
        .with_context(|| format!("--scope '{}': expected worker or operator", args.scope))?;
    let token = ajaxlab_cluster::coordinator::issue_token_in(&args.state_dir, scope, &args.label)?;
    match &args.out {
        Some(path) => {
            std::fs::write(path, format!("{token}\n"))
                .with_context(|| format!("writing {}", path.display()))?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))?;
            }
            eprintln!(
                "{} token written to {} (stored hashed in {})",
                args.scope,
                path.display(),
                args.state_dir.display()
            );
        }
        None => outln!("{token}")?,
    }
    Ok(ExitCode::SUCCESS)
}

pub(crate) fn worker(args: &WorkerArgs) -> anyhow::Result<ExitCode> {
    let token = read_token(&args.token_file)?;
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let name = args.name.clone().unwrap_or_else(|| {
        std::fs::read_to_string("/etc/hostname").map_or("worker".into(), |h| h.trim().to_owned())
    });
    runtime()?.block_on(async {
        let shutdown = Arc::new(AtomicBool::new(false));
        on_signal(Arc::clone(&shutdown));
        eprintln!(
            "worker '{name}': {threads} games at once, coordinator {}",
            args.coordinator
        );
        let tls_ca = read_ca(args.tls_ca.as_ref())?;
        let units = run_worker(
            WorkerConfig {
                url: args.coordinator.clone(),
                token,
                threads,
                name,
                tls_ca,
                cache_dir: args.cache_dir.clone(),
                in_flight: std::sync::Arc::default(),
            },
            shutdown,
        )
        .await?;
        eprintln!("worker stopped after submitting {units} units");
        Ok(ExitCode::SUCCESS)
    })
}

fn header() -> Option<v1::Header> {
    Some(v1::Header {
        protocol_version: PROTOCOL_VERSION,
    })
}

/// Prints one line of a campaign's standing.
fn print_campaign(c: &v1::Campaign) -> Result<(), StdoutError> {
    let p = &c.pentanomial;
    // A value this build does not know is shown as the number the coordinator sent.
    let kind = RunKind::from_wire(c.kind, "Campaign.kind");
    let state = CampaignState::from_wire(c.state, "Campaign.state");
    let mut extra = String::new();
    if kind == Ok(RunKind::Sprt) {
        let standing = match (Status::from_wire(c.verdict, "Campaign.verdict"), &state) {
            (Ok(verdict), Ok(state)) => sprt_state(verdict, *state).to_owned(),
            _ => format!("verdict {}", c.verdict),
        };
        let hypotheses = EloModel::from_wire(c.elo_model, "Campaign.elo_model").map_or_else(
            |_| format!("SPRT <{:.2}, {:.2}> model {}", c.elo0, c.elo1, c.elo_model),
            |model| hypotheses_text(c.elo0, c.elo1, model),
        );
        extra.push_str(&format!(
            "  {hypotheses}  {} {standing}",
            llr_text(c.llr, c.llr_lower, c.llr_upper),
        ));
    }
    if kind == Ok(RunKind::FirstMove) {
        extra.push_str(&format!("  White {:.1}%", c.white_score * 100.0));
    }
    for (name, value) in c.spsa_names.iter().zip(&c.spsa_values) {
        extra.push_str(&format!("  {name} {value:.1}"));
    }
    outln!(
        "{:<24} {:<11} {:<9} {:>7}/{:<7} pairs  penta [{}]  Elo {:+.1} ± {:.1}{extra}",
        c.campaign_id,
        kind.map_or_else(|_| format!("kind {}", c.kind), |k| k.to_string()),
        state.map_or_else(|_| format!("state {}", c.state), |s| s.to_string()),
        c.pairs_done,
        c.pairs_total,
        p.iter().map(u64::to_string).collect::<Vec<_>>().join(" "),
        c.elo,
        c.elo_error
    )
}

/// What `campaign status|pause|resume|stop` asks of one campaign.
#[derive(Clone, Copy, Debug)]
enum Change {
    Show,
    Pause,
    Resume,
    Stop,
}

pub(crate) fn campaign(args: CampaignArgs) -> anyhow::Result<ExitCode> {
    let (remote, id, change) = match args.action {
        CampaignAction::Run {
            file,
            threads,
            runs_dir,
            quiet,
        } => {
            let threads = threads
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let summary = match file {
                Some(file) => run_local_campaign(&file, &runs_dir, threads, quiet)?,
                None => {
                    let path = std::env::temp_dir()
                        .join(format!("ajaxlab-quickstart-{}.toml", std::process::id()));
                    std::fs::write(&path, QUICKSTART)
                        .with_context(|| format!("writing {}", path.display()))?;
                    let summary = run_local_campaign(&path, &runs_dir, threads, quiet);
                    let _ = std::fs::remove_file(&path);
                    summary?
                }
            };
            // The report of what is stored so far: tables here, plots as
            // files, made before anything is printed so that a closed pipe
            // loses none of them.
            let config = ajaxlab_report::ReportConfig::new(summary.dir.clone());
            let report = ajaxlab_report::run(&config);
            for c in &summary.campaigns {
                outln!(
                    "campaign {} ({}): {} ({} of {} pairs)",
                    c.id,
                    c.kind,
                    c.state,
                    c.pairs_done,
                    c.pairs_total
                )?;
                outln!(
                    "  pentanomial [{}]  {}",
                    c.pentanomial.0.map(|n| n.to_string()).join(" "),
                    standing(c)
                )?;
            }
            outln!(
                "games and state in {} ({:.1} s this run)\n",
                summary.dir.display(),
                summary.elapsed.as_secs_f64()
            )?;
            match report {
                Ok(report) => {
                    out!("{report}")?;
                    outln!(
                        "\nplots in {} (again: ajaxlab report {})",
                        config.out_dir.display(),
                        summary.dir.display()
                    )?;
                }
                Err(e) => eprintln!("report: {e}"),
            }
            return Ok(ExitCode::SUCCESS);
        }
        CampaignAction::Create { file, remote } => return create_campaign(&file, &remote),
        CampaignAction::List { remote } => {
            return operator(&remote, |mut client| async move {
                Ok(client
                    .list_campaigns(v1::ListCampaignsRequest { header: header() })
                    .await?
                    .into_inner()
                    .campaigns)
            });
        }
        CampaignAction::Status { id, remote } => (remote, id, Change::Show),
        CampaignAction::Pause { id, remote } => (remote, id, Change::Pause),
        CampaignAction::Resume { id, remote } => (remote, id, Change::Resume),
        CampaignAction::Stop { id, remote } => (remote, id, Change::Stop),
        CampaignAction::Exclude { id, worker, remote } => {
            return operator(&remote, |mut client| async move {
                let c = client
                    .exclude_worker(v1::ExcludeWorkerRequest {
                        header: header(),
                        campaign_id: id,
                        worker_id: worker,
                    })
                    .await?
                    .into_inner();
                Ok(vec![c])
            });
        }
    };
    operator(&remote, |mut client| async move {
        let request = v1::CampaignRequest {
            header: header(),
            campaign_id: id,
        };
        let c = match change {
            Change::Pause => client.pause_campaign(request).await?,
            Change::Resume => client.resume_campaign(request).await?,
            Change::Stop => client.stop_campaign(request).await?,
            Change::Show => client.get_campaign(request).await?,
        };
        Ok(vec![c.into_inner()])
    })
}

type OperatorChannel = OperatorClient<
    tonic::service::interceptor::InterceptedService<
        tonic::transport::Channel,
        ajaxlab_cluster::worker::Auth,
    >,
>;

/// Runs `f` against the coordinator and prints the campaigns it returns.
fn operator<F, Fut>(remote: &Remote, f: F) -> anyhow::Result<ExitCode>
where
    F: FnOnce(OperatorChannel) -> Fut,
    Fut: std::future::Future<Output = Result<Vec<v1::Campaign>, tonic::Status>>,
{
    let campaigns = runtime()?.block_on(async {
        let (channel, auth) = connect(remote).await?;
        f(OperatorClient::with_interceptor(channel, auth))
            .await
            .map_err(|s| anyhow::anyhow!("{:?}: {}", s.code(), s.message()))
    })?;
    for c in &campaigns {
        print_campaign(c)?;
    }
    Ok(ExitCode::SUCCESS)
}

/// A channel to the coordinator and the operator token to send on it.
async fn connect(
    remote: &Remote,
) -> anyhow::Result<(tonic::transport::Channel, ajaxlab_cluster::worker::Auth)> {
    let token = read_token(&remote.token_file)?;
    let ca = read_ca(remote.tls_ca.as_ref())?;
    let channel = ajaxlab_cluster::worker::endpoint(&remote.coordinator, ca.as_deref())
        .map_err(anyhow::Error::msg)?
        .connect()
        .await
        .with_context(|| format!("connecting to {}", remote.coordinator))?;
    let value = format!("Bearer {token}")
        .parse()
        .context("the token has characters a header cannot carry")?;
    Ok((channel, ajaxlab_cluster::worker::Auth::new(value)))
}

/// `ajaxlab campaign create`: uploads the engines and files the campaign
/// names (all found first, so a missing one stores nothing), then creates it.
fn create_campaign(file: &Path, remote: &Remote) -> anyhow::Result<ExitCode> {
    let text =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let files = campaign_files(&text).with_context(|| file.display().to_string())?;
    runtime()?.block_on(async {
        let (channel, auth) = connect(remote).await?;
        let mut artifacts = ArtifactsClient::with_interceptor(channel.clone(), auth.clone());
        let mut shipped = Vec::with_capacity(files.len());
        for f in &files {
            let up = upload(&mut artifacts, &f.path)
                .await
                .with_context(|| format!("{}: uploading {}", f.key, f.path.display()))?;
            shipped.push(v1::ShippedFile {
                key: f.key.clone(),
                path: f.path.display().to_string(),
                sha256: up.hash.to_string(),
            });
            outln!(
                "{} {}: sha256 {} ({} bytes){}",
                f.key,
                f.path.display(),
                up.hash,
                up.size,
                if up.already_stored {
                    ", stored already"
                } else {
                    ", uploaded"
                }
            )?;
        }
        let campaigns = OperatorClient::with_interceptor(channel, auth)
            .create_campaign(v1::CreateCampaignRequest {
                header: header(),
                config_toml: text,
                shipped,
            })
            .await
            .map_err(|s| anyhow::anyhow!("{:?}: {}", s.code(), s.message()))?
            .into_inner()
            .campaigns;
        for c in &campaigns {
            print_campaign(c)?;
        }
        Ok(ExitCode::SUCCESS)
    })
}
