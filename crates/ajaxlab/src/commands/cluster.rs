//! Cluster commands: `coordinator`, `token`, `worker`, and `campaign`
//! (`run` on one machine; `create`, `list`, `status`, `pause`, `resume`,
//! `stop` against a running coordinator).

use super::out::{StdoutError, out, outln};
use ajaxlab_cluster::coordinator::serve::run::{
    BoundCoordinator, CoordinatorConfig, CoordinatorFlags,
};
use ajaxlab_cluster::coordinator::sprt_text::{SprtStanding, sprt_state};
use ajaxlab_cluster::coordinator::{CampaignState, Scope};
use ajaxlab_cluster::ids::{CampaignId, WorkerId};
use ajaxlab_cluster::local::{CampaignDraft, CampaignText, run_local_campaign, standing};
use ajaxlab_cluster::operator::{self, CampaignChange};
use ajaxlab_cluster::remote::{Remote, RemoteError};
use ajaxlab_cluster::shutdown::{self, Shutdown};
use ajaxlab_cluster::worker::{WorkerConfig, run_worker};
use ajaxlab_proto::convert::WireEnum;
use ajaxlab_proto::v1;
use ajaxlab_stats::{EloModel, LlrBounds, Status, hypotheses_text, llr_text};
use ajaxlab_store::RunKind;
use anyhow::Context;
use std::net::SocketAddr;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

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
    /// Address of the web UI, /api and /metrics (default 0.0.0.0:8080).
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
    #[arg(long, value_parser = scope)]
    scope: Scope,
    /// A label for the token (who has it).
    #[arg(long, default_value = "")]
    label: String,
    /// Write the token to this file (mode 600) instead of printing it.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// `--scope`: worker or operator.
fn scope(text: &str) -> Result<Scope, String> {
    text.parse()
        .map_err(|_: ajaxlab_cluster::coordinator::UnknownScope| {
            "expected worker or operator".to_owned()
        })
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
    /// Name on the web UI (default: the host name).
    #[arg(long)]
    name: Option<String>,
    /// CA certificate (PEM) to trust for an https:// coordinator.
    #[arg(long)]
    tls_ca: Option<PathBuf>,
    /// Where engines fetched from the coordinator are cached (1 GiB at most).
    #[arg(long, default_value = ajaxlab_cluster::worker::DEFAULT_CACHE_DIR)]
    cache_dir: PathBuf,
}

/// Arguments of `ajaxlab campaign`.
#[derive(Debug, clap::Args)]
pub(crate) struct CampaignArgs {
    #[command(subcommand)]
    action: CampaignAction,
}

/// What `ajaxlab campaign` does: one subcommand each.
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
        /// The campaign file, or - for standard input (the files it names
        /// are read relative to the current directory).
        file: PathBuf,
        #[command(flatten)]
        remote: RemoteArgs,
    },
    /// List a coordinator's campaigns.
    List {
        #[command(flatten)]
        remote: RemoteArgs,
    },
    /// Show one campaign.
    Status {
        /// Campaign id.
        id: CampaignId,
        #[command(flatten)]
        remote: RemoteArgs,
    },
    /// Pause a campaign.
    Pause {
        /// Campaign id.
        id: CampaignId,
        #[command(flatten)]
        remote: RemoteArgs,
    },
    /// Resume a paused campaign.
    Resume {
        /// Campaign id.
        id: CampaignId,
        #[command(flatten)]
        remote: RemoteArgs,
    },
    /// Stop a campaign for good.
    Stop {
        /// Campaign id.
        id: CampaignId,
        #[command(flatten)]
        remote: RemoteArgs,
    },
    /// Count a worker's games out of a campaign (e.g. one the web UI
    /// flags as implausible): its units are played again by other workers.
    Exclude {
        /// Campaign id.
        id: CampaignId,
        /// The worker's id, as on the web UI.
        #[arg(long)]
        worker: WorkerId,
        #[command(flatten)]
        remote: RemoteArgs,
    },
}

/// A coordinator to talk to as an operator.
#[derive(Debug, clap::Args)]
struct RemoteArgs {
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

impl RemoteArgs {
    /// The coordinator, its token and CA certificate read from their files.
    fn load(&self) -> Result<Remote, RemoteError> {
        Remote::load(&self.coordinator, &self.token_file, self.tls_ca.as_deref())
    }
}

pub(crate) fn runtime() -> anyhow::Result<tokio::runtime::Runtime> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")
}

/// `ajaxlab coordinator`: serves until SIGTERM or Ctrl-C, or with
/// `--verify` checks the counted games files and exits.
pub(crate) fn coordinator(args: &CoordinatorArgs) -> anyhow::Result<ExitCode> {
    let config = CoordinatorConfig::load(&CoordinatorFlags {
        config: args.config.clone(),
        listen: args.listen,
        state_dir: args.state_dir.clone(),
        http_listen: args.http_listen,
    })?;
    runtime()?.block_on(async {
        let coordinator = config.open().await?;
        // What start-up and the full check quarantine is logged as it
        // happens (a warning naming the unit and why).
        if args.verify {
            return print_verification(coordinator.startup_check(), &coordinator.verify()?);
        }
        let signature = coordinator.signature();
        let bound = BoundCoordinator::bind(coordinator, &config).await?;
        eprintln!(
            "coordinator listening on {} ({}, state {}, lease {} s, engine signature {signature})",
            bound.grpc_addr()?,
            if bound.tls() { "TLS" } else { "plain text" },
            config.state_dir.display(),
            config.lease.as_secs()
        );
        eprintln!("web UI and metrics on http://{}/", bound.http_addr()?);
        let limits = bound.limits();
        eprintln!(
            "connections held at most: {} gRPC, {} web UI; a peer silent for {} s is closed",
            limits.grpc,
            limits.http,
            limits.silence.as_secs()
        );
        let startup = bound.coordinator().startup_check();
        eprintln!(
            "games files: {} counted units there at their size; {} moved to quarantine/",
            startup.checked,
            startup.quarantined.len()
        );
        for (id, why) in bound.coordinator().unloaded_campaigns() {
            eprintln!("campaign '{id}' paused, as it cannot be rebuilt: {why}");
        }
        bound.serve(shutdown::signal()).await?;
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
    for damaged in &full.damaged_artifacts {
        outln!(
            "artifact {}: does not hash to its name; moved to {} (upload it again)",
            damaged.hash,
            damaged.set_aside.display()
        )?;
    }
    outln!(
        "verified the stored artifacts (SHA-256): {} damaged",
        full.damaged_artifacts.len()
    )?;
    Ok(if moved == 0 && full.damaged_artifacts.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// `ajaxlab token`: issues a token into a state directory.
pub(crate) fn token(args: &TokenArgs) -> anyhow::Result<ExitCode> {
    let token =
        ajaxlab_cluster::coordinator::issue_token_in(&args.state_dir, args.scope, &args.label)?;
    match &args.out {
        Some(path) => {
            // Mode 600 from its first byte, and whole or not at all.
            ajaxlab_store::atomic::write_private_text(path, &format!("{token}\n"))?;
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

/// `ajaxlab worker`: plays for a coordinator until SIGTERM or Ctrl-C.
pub(crate) fn worker(args: &WorkerArgs) -> anyhow::Result<ExitCode> {
    let remote = Remote::load(&args.coordinator, &args.token_file, args.tls_ca.as_deref())?;
    let threads = args.threads.unwrap_or_else(all_cores);
    let name = args.name.clone().unwrap_or_else(|| {
        std::fs::read_to_string("/etc/hostname").map_or("worker".into(), |h| h.trim().to_owned())
    });
    runtime()?.block_on(async {
        eprintln!(
            "worker '{name}': {threads} games at once, coordinator {}",
            remote.url
        );
        let units = run_worker(
            WorkerConfig {
                remote,
                threads,
                name,
                cache_dir: args.cache_dir.clone(),
                in_flight: std::sync::Arc::default(),
            },
            Shutdown::on_signal(),
        )
        .await?;
        eprintln!("worker stopped after submitting {units} units");
        Ok(ExitCode::SUCCESS)
    })
}

/// Games at once when not told: one per core.
pub(super) fn all_cores() -> usize {
    std::thread::available_parallelism().map_or(1, NonZeroUsize::get)
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
            (Ok(verdict), Ok(state)) => sprt_state(SprtStanding {
                verdict,
                campaign_state: *state,
                pairs_at_verdict: c.pairs_at_verdict,
                pairs_done: c.pairs_done,
            }),
            _ => format!("verdict {}", c.verdict),
        };
        let hypotheses = EloModel::from_wire(c.elo_model, "Campaign.elo_model").map_or_else(
            |_| format!("SPRT <{:.2}, {:.2}> model {}", c.elo0, c.elo1, c.elo_model),
            |model| hypotheses_text(c.elo0, c.elo1, model),
        );
        extra.push_str(&format!(
            "  {hypotheses}  {} {standing}",
            llr_text(
                c.llr,
                LlrBounds {
                    lower: c.llr_lower,
                    upper: c.llr_upper
                }
            ),
        ));
    }
    if kind == Ok(RunKind::FirstMove) {
        extra.push_str(&format!("  White {:.1}%", c.white_score * 100.0));
    }
    for (name, value) in c.spsa_names.iter().zip(&c.spsa_values) {
        extra.push_str(&format!("  {name} {value:.1}"));
    }
    // No Elo before the first pair is counted.
    let elo = if c.pairs_done == 0 {
        "Elo n/a".to_owned()
    } else {
        format!("Elo {:+.1} ± {:.1}", c.elo, c.elo_error)
    };
    outln!(
        "{:<24} {:<11} {:<9} {:>7}/{:<7}  penta [{}]  {elo}{extra}",
        c.campaign_id,
        kind.map_or_else(|_| format!("kind {}", c.kind), |k| k.to_string()),
        state.map_or_else(|_| format!("state {}", c.state), |s| s.to_string()),
        c.pairs_done,
        c.pairs_total,
        p.iter().map(u64::to_string).collect::<Vec<_>>().join(" "),
    )
}

/// `ajaxlab campaign`: runs one here, or asks a coordinator's operator
/// service.
pub(crate) fn campaign(args: CampaignArgs) -> anyhow::Result<ExitCode> {
    let (remote, id, change) = match args.action {
        CampaignAction::Run {
            file,
            threads,
            runs_dir,
            quiet,
        } => return run_campaign(file.as_deref(), threads, &runs_dir, quiet),
        CampaignAction::Create { file, remote } => {
            let remote = remote.load()?;
            let runtime = runtime()?;
            let shipment = runtime.block_on(operator::ship_campaign_files(&remote, &file))?;
            for f in &shipment.files {
                outln!(
                    "{} {}: sha256 {} ({} bytes){}",
                    f.file.key,
                    f.file.path.display(),
                    f.upload.hash,
                    f.upload.size,
                    if f.upload.already_stored {
                        ", stored already"
                    } else {
                        ", uploaded"
                    }
                )?;
            }
            let campaigns = runtime.block_on(operator::create_campaign(&remote, &shipment))?;
            return print_campaigns(&campaigns);
        }
        CampaignAction::List { remote } => {
            let remote = remote.load()?;
            let campaigns = runtime()?.block_on(operator::list_campaigns(&remote))?;
            return print_campaigns(&campaigns);
        }
        CampaignAction::Status { id, remote } => (remote, id, CampaignChange::Show),
        CampaignAction::Pause { id, remote } => (remote, id, CampaignChange::Pause),
        CampaignAction::Resume { id, remote } => (remote, id, CampaignChange::Resume),
        CampaignAction::Stop { id, remote } => (remote, id, CampaignChange::Stop),
        CampaignAction::Exclude { id, worker, remote } => {
            let remote = remote.load()?;
            let campaign = runtime()?.block_on(operator::exclude_worker(&remote, &id, &worker))?;
            return print_campaigns(&[campaign]);
        }
    };
    let remote = remote.load()?;
    let campaign = runtime()?.block_on(operator::change_campaign(&remote, &id, change))?;
    print_campaigns(&[campaign])
}

/// `ajaxlab campaign run`: the campaign in `file` (default: the quick
/// start) on this machine, then its standing and the report of its games.
fn run_campaign(
    file: Option<&Path>,
    threads: Option<usize>,
    runs_dir: &Path,
    quiet: bool,
) -> anyhow::Result<ExitCode> {
    let threads = threads.unwrap_or_else(all_cores);
    let campaign = match file {
        Some(file) => CampaignText::read(file)?,
        None => CampaignText {
            text: QUICKSTART.to_owned(),
            origin: "the embedded quick start (configs/quickstart.toml)".into(),
        },
    };
    let summary = run_local_campaign(&CampaignDraft::read(campaign)?, runs_dir, threads, quiet)?;
    // The report of what is stored so far: tables here, plots as files,
    // made before anything is printed so that a closed pipe loses none of
    // them.
    let config = ajaxlab_report::ReportConfig::new(summary.dir.clone());
    let report = ajaxlab_report::run(&config);
    for played in &summary.campaigns {
        let c = &played.view;
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
        if c.kind == ajaxlab_store::RunKind::Datagen {
            let (files, rows) = ajaxlab_store::positions::summary(&played.games_dir)?;
            outln!(
                "  {rows} training positions in {} files {}/positions-*.parquet",
                files.len(),
                played.games_dir.display()
            )?;
        }
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
    Ok(ExitCode::SUCCESS)
}

/// Prints a header and one line per campaign.
fn print_campaigns(campaigns: &[v1::Campaign]) -> anyhow::Result<ExitCode> {
    outln!(
        "{:<24} {:<11} {:<9} {:>15}  counts and standing",
        "campaign",
        "kind",
        "state",
        "pairs done/all"
    )?;
    for c in campaigns {
        print_campaign(c)?;
    }
    Ok(ExitCode::SUCCESS)
}
