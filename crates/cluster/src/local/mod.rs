//! One machine, no server to install: an embedded coordinator and a local
//! worker in one process, the worker leasing from the coordinator directly
//! ([`InProcessSource`]). `ajaxlab campaign run` plays a campaign file here
//! (state and Parquet under `./runs/<campaign>/`), and `ajaxlab match` plays
//! its match as a campaign in its own directory ([`matches`]): one way to
//! play games, resume, stop at a verdict and show progress. Interrupted, a
//! run goes on where it stopped when run again; run again with a larger
//! `games`, it plays the difference.

pub mod matches;
mod watch;

pub use crate::operator::draft::{CampaignDraft, CampaignText};
pub use watch::standing;

use crate::artifacts::client::CampaignFile;
use crate::artifacts::{ArtifactError, ArtifactStore};
use crate::campaign::inputs::Input;
use crate::coordinator::extend::{FileChange, file_change};
use crate::coordinator::in_process::InProcessSource;
use crate::coordinator::{CampaignError, CampaignView, Coordinator, CoordinatorError, Scope};
use crate::ids::CampaignId;
use crate::shutdown::Shutdown;
use crate::work::bench_signature;
use crate::worker::{Player, play_from};
use ajaxlab_stats::Sprt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use std::time::{Duration, Instant};

/// A local campaign that could not run.
#[derive(Debug, thiserror::Error)]
pub enum LocalError {
    /// The campaign file.
    #[error("{0}")]
    Config(String),
    /// The coordinator.
    #[error(transparent)]
    Coordinator(#[from] CoordinatorError),
    /// The network or the worker.
    #[error("{0}")]
    Runtime(String),
}

/// What a finished local run left.
#[derive(Debug)]
pub struct LocalSummary {
    /// Each campaign (each part of a piece-value campaign), in the order
    /// of the files.
    pub campaigns: Vec<LocalCampaign>,
    /// Where its state and games are.
    pub dir: PathBuf,
    /// Wall time of this run.
    pub elapsed: Duration,
}

/// One campaign of a local run, at its end.
#[derive(Debug)]
pub struct LocalCampaign {
    /// Its final progress.
    pub view: CampaignView,
    /// The pairs it had counted when this run began (a resumed run's).
    pub pairs_before: u64,
    /// An SPRT campaign's test as it stands, with the counts it decided on.
    pub test: Option<Sprt>,
    /// The directory of its games files.
    pub games_dir: PathBuf,
}

/// Runs the campaign `campaign` with `threads` local games at once, under
/// `runs_dir`, in the directory of its name.
///
/// # Errors
/// As [`run_in`].
pub fn run_local_campaign(
    campaign: &CampaignDraft,
    runs_dir: &Path,
    threads: usize,
    quiet: bool,
) -> Result<LocalSummary, LocalError> {
    let ids = campaign.ids();
    // A piece-value campaign's parts are NAME.PART; they share NAME's directory.
    let dir = runs_dir.join(ids.first().map_or("campaign", CampaignId::name));
    run_in(&dir, std::slice::from_ref(campaign), threads, quiet)
}

/// Runs `campaigns` in `dir` with `threads` local games at once until all
/// are over: created there, or gone on with (and extended, given more
/// games) if the directory holds them.
///
/// # Errors
/// [`LocalError`] for a bad file, a file edited since its campaign began
/// in more than its `games` (a resumed campaign plays what it was created
/// with), an engine this machine cannot play, or a failure of the embedded
/// parts.
pub fn run_in(
    dir: &Path,
    campaigns: &[CampaignDraft],
    threads: usize,
    quiet: bool,
) -> Result<LocalSummary, LocalError> {
    for campaign in campaigns {
        campaign
            .check_engines()
            .map_err(|e| LocalError::Config(e.to_string()))?;
    }
    let ids: Vec<CampaignId> = campaigns.iter().flat_map(CampaignDraft::ids).collect();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| LocalError::Runtime(e.to_string()))?;
    let started = Instant::now();
    runtime.block_on(async {
        let signature = tokio::task::spawn_blocking(bench_signature)
            .await
            .map_err(|e| LocalError::Runtime(e.to_string()))?;
        let coordinator = Arc::new(Coordinator::open(dir, Duration::from_secs(60), signature)?);
        for campaign in campaigns {
            hold(&coordinator, campaign, dir)?;
        }
        let before = ids
            .iter()
            .map(|id| coordinator.campaign(id).map(|v| v.pairs_done))
            .collect::<Result<Vec<_>, _>>()?;
        let views = play_until_over(&coordinator, &ids, dir, threads, quiet).await?;
        let campaigns = views
            .into_iter()
            .zip(before)
            .map(|(view, pairs_before)| LocalCampaign {
                test: coordinator.sprt_test(&view.id),
                games_dir: coordinator.campaign_dir(&view.id),
                view,
                pairs_before,
            })
            .collect();
        Ok(LocalSummary {
            campaigns,
            dir: dir.to_owned(),
            elapsed: started.elapsed(),
        })
    })
}

/// Makes `coordinator` hold `campaign`: created if new; if stored,
/// checked to be the file it was created from, or extended if only its
/// `games` grew.
fn hold(coordinator: &Coordinator, campaign: &CampaignDraft, dir: &Path) -> Result<(), LocalError> {
    let (text, origin) = (&campaign.file.text, &campaign.file.origin);
    let ids = campaign.ids();
    let Some(first) = ids.first() else {
        return Ok(());
    };
    match coordinator.campaign(first) {
        Ok(_) => match file_change(&coordinator.campaign_file(first)?, text) {
            FileChange::Same => Ok(()),
            FileChange::Games => {
                for id in &ids {
                    coordinator.extend_campaign(id, text)?;
                }
                Ok(())
            }
            change @ FileChange::Other { .. } => Err(LocalError::Config(format!(
                "{origin}: {change} from the file {first} was created from; restore it, or the flags that made it (only games may change, to play more), or remove {} to start over",
                dir.display()
            ))),
        },
        Err(CoordinatorError::Campaign(CampaignError::Unknown(_))) => {
            let shipped = store_engines(&campaign.shipped, coordinator.artifacts())
                .map_err(|e| LocalError::Config(format!("{origin}: {e}")))?;
            coordinator.create_campaign_as("local", text, &campaign.sent, &shipped)?;
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

/// Plays `ids` on `threads` in-process workers of one game at a time each
/// until every one is over, showing progress unless `quiet`; their final
/// views. One worker per thread, each leasing its own units, keeps every
/// core busy: a worker of several threads would idle some of them while
/// the last pairs of each unit finish.
async fn play_until_over(
    coordinator: &Arc<Coordinator>,
    ids: &[CampaignId],
    dir: &Path,
    threads: usize,
    quiet: bool,
) -> Result<Vec<CampaignView>, LocalError> {
    let token = coordinator.issue_token(Scope::Worker, "local")?;
    let (stop, shutdown) = Shutdown::new();
    let in_flight = Arc::new(AtomicU64::new(0));
    let workers: Vec<_> = (1..=threads.max(1))
        .map(|n| {
            // Each its own cache: no two workers write one file.
            let cache_dir = dir.join("engine-cache").join(n.to_string());
            let source = InProcessSource::new(Arc::clone(coordinator), &token, cache_dir.clone());
            let player = Player {
                threads: 1,
                name: format!("local-{n}"),
                cache_dir,
                in_flight: Arc::clone(&in_flight),
            };
            let shutdown = shutdown.clone();
            tokio::spawn(async move { play_from(source, &player, shutdown).await })
        })
        .collect();
    let views = watch::watch(coordinator, ids, &in_flight, quiet).await;
    stop.stop();
    for worker in workers {
        let _ = worker.await;
    }
    views
}

/// Stores the engines and option files a campaign's UCI players ship in
/// `store`, as `ajaxlab campaign create` uploads them, and names them for
/// the campaign: so that one machine plays shipped engines as a cluster does.
fn store_engines(
    shipped: &[CampaignFile],
    store: &ArtifactStore,
) -> Result<Vec<Input>, ArtifactError> {
    shipped
        .iter()
        .map(|f| {
            Ok(Input {
                sha256: store.put_file(&f.path)?.to_string(),
                key: f.key.clone(),
                path: f.path.display().to_string(),
            })
        })
        .collect()
}
