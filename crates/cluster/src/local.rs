//! One machine, no server to install: an embedded coordinator and local
//! workers in one process, state and Parquet under `./runs/<campaign>/`.
//! Interrupted, it resumes where it stopped when run again.

use crate::artifacts::client::campaign_files;
use crate::artifacts::{ArtifactError, ArtifactStore};
use crate::campaign::inputs::{Input, read_named_files};
use crate::campaign::parse_campaign;
use crate::coordinator::in_process::InProcessSource;
use crate::coordinator::sprt_text::sprt_state;
use crate::coordinator::{
    CampaignError, CampaignState, CampaignView, Coordinator, CoordinatorError, Scope,
};
use crate::ids::CampaignId;
use crate::operator::engine_check::check_tuned_engine;
use crate::shutdown::Shutdown;
use crate::work::bench_signature;
use crate::worker::{Player, play_from};
use ajaxlab_stats::{hypotheses_text, llr_text};
use ajaxlab_store::RunKind;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
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

/// What a finished local campaign left.
#[derive(Debug)]
pub struct LocalSummary {
    /// Final progress: the campaign, or each part of a piece-value campaign.
    pub campaigns: Vec<CampaignView>,
    /// Where its state and games are.
    pub dir: PathBuf,
    /// Wall time of this run.
    pub elapsed: Duration,
}

/// The first line (from 1) where two texts differ, if they do.
fn first_difference(a: &str, b: &str) -> Option<usize> {
    let (mut a, mut b) = (a.lines(), b.lines());
    (1..).find_map(|n| match (a.next(), b.next()) {
        (None, None) => Some(None),
        (x, y) if x == y => None,
        _ => Some(Some(n)),
    })?
}

/// A campaign file's text, and where it came from as messages name it.
#[derive(Clone, Debug)]
pub struct CampaignText {
    /// The text.
    pub text: String,
    /// Its file, or what else it is (the embedded quick start).
    pub origin: String,
}

impl CampaignText {
    /// The campaign file at `path`.
    ///
    /// # Errors
    /// [`LocalError::Config`] naming the file if it cannot be read.
    pub fn read(path: &Path) -> Result<CampaignText, LocalError> {
        let origin = path.display().to_string();
        ajaxlab_files::read_text(path, ajaxlab_files::limits::CONFIG_FILE)
            .map(|text| CampaignText {
                text,
                origin: origin.clone(),
            })
            .map_err(|e| LocalError::Config(format!("{origin}: {e}")))
    }
}

/// Runs the campaign `campaign` with `threads` local games at once, under
/// `runs_dir`.
///
/// # Errors
/// [`LocalError`] for a bad file, a file edited since the campaign began
/// (a resumed campaign plays what it was created with), or a failure of
/// the embedded parts.
pub fn run_local_campaign(
    campaign: &CampaignText,
    runs_dir: &Path,
    threads: usize,
    quiet: bool,
) -> Result<LocalSummary, LocalError> {
    let (text, origin) = (&campaign.text, &campaign.origin);
    let specs = parse_campaign(text).map_err(|e| LocalError::Config(format!("{origin}: {e}")))?;
    for spec in &specs {
        check_tuned_engine(spec).map_err(|e| LocalError::Config(format!("{origin}: {e}")))?;
    }
    let ids: Vec<CampaignId> = specs.into_iter().map(|s| s.name).collect();
    // A piece-value campaign's parts are NAME.PART; they share NAME's directory.
    let dir = runs_dir.join(ids.first().map_or("campaign", CampaignId::name));
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
        let coordinator = Arc::new(Coordinator::open(&dir, Duration::from_secs(60), signature)?);
        match coordinator.campaign(&ids[0]) {
            Ok(_) => {
                let stored = coordinator.campaign_file(&ids[0])?;
                if let Some(line) = first_difference(&stored, text) {
                    return Err(LocalError::Config(format!(
                        "{origin}: line {line} differs from the file {} was created from; restore it, or remove {} to start the campaign over",
                        ids[0],
                        dir.display()
                    )));
                }
            }
            Err(CoordinatorError::Campaign(CampaignError::Unknown(_))) => {
                let sent = read_named_files(text)
                    .map_err(|e| LocalError::Config(format!("{origin}: {e}")))?;
                let shipped = store_engines(text, coordinator.artifacts())
                    .map_err(|e| LocalError::Config(format!("{origin}: {e}")))?;
                coordinator.create_shipped_campaign(text, &sent, &shipped)?;
            }
            Err(e) => return Err(e.into()),
        }
        let token = coordinator.issue_token(Scope::Worker, "local")?;
        let (stop, shutdown) = Shutdown::new();
        let in_flight = Arc::new(AtomicU64::new(0));
        let cache_dir = dir.join("engine-cache");
        let source = InProcessSource::new(Arc::clone(&coordinator), &token, cache_dir.clone());
        let player = Player {
            threads: threads.max(1),
            name: "local".into(),
            cache_dir,
            in_flight: Arc::clone(&in_flight),
        };
        let worker = tokio::spawn(async move { play_from(source, &player, shutdown).await });
        let views = watch(&coordinator, &ids, &in_flight, quiet).await?;
        stop.stop();
        let _ = worker.await;
        Ok(LocalSummary {
            campaigns: views,
            dir: dir.clone(),
            elapsed: started.elapsed(),
        })
    })
}

/// Stores the engines and option files of `text`'s UCI players in `store`,
/// as `ajaxlab campaign create` uploads them, and names them for the
/// campaign: so that one machine plays shipped engines as a cluster does.
fn store_engines(text: &str, store: &ArtifactStore) -> Result<Vec<Input>, ArtifactError> {
    campaign_files(text)?
        .into_iter()
        .map(|f| {
            Ok(Input {
                sha256: store.put_file(&f.path)?.to_string(),
                key: f.key,
                path: f.path.display().to_string(),
            })
        })
        .collect()
}

/// One line on a campaign's standing: the pairs counted, their Elo (none
/// before the first), and what its kind adds.
pub fn standing(view: &CampaignView) -> String {
    let pairs = view.pentanomial.pairs();
    let s = if pairs == 1 { "" } else { "s" };
    let mut out = view.pentanomial.elo().map_or_else(
        |_| format!("{pairs} pair{s} counted"),
        |e| {
            format!(
                "{pairs} pair{s} counted, Elo {:+.1} ± {:.1}",
                e.elo,
                e.interval.half_width()
            )
        },
    );
    if let (Some(s), Some(standing)) = (&view.sprt, view.sprt_standing()) {
        out.push_str(&format!(
            "  {}  {} {}",
            hypotheses_text(s.config.elo0, s.config.elo1, s.config.model),
            llr_text(s.llr, s.bounds),
            sprt_state(standing)
        ));
    }
    if view.kind == RunKind::FirstMove
        && let Some(score) = view.white_score()
    {
        out.push_str(&format!("  White {:.1}%", score * 100.0));
    }
    for p in &view.spsa {
        out.push_str(&format!("  {} {:.1}", p.name, p.value));
    }
    out
}

/// Shows the campaigns' progress until all are over: the games counted
/// plus those finished in the unit being played (`in_flight`), so that the
/// bar and its ETA move a game at a time, not a unit at a time. Both are
/// games surely finished, and the most seen so far is shown: a unit's games
/// leave `in_flight` a moment before the coordinator counts them, and the
/// bar never goes back for it.
async fn watch(
    coordinator: &Coordinator,
    ids: &[CampaignId],
    in_flight: &AtomicU64,
    quiet: bool,
) -> Result<Vec<CampaignView>, LocalError> {
    let mut changes = coordinator.subscribe();
    let views = |c: &Coordinator| {
        ids.iter()
            .map(|id| c.campaign(id))
            .collect::<Result<Vec<_>, _>>()
    };
    let total: u64 = views(coordinator)?.iter().map(|v| v.pairs_total * 2).sum();
    let bar = if !quiet && std::io::stderr().is_terminal() {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games  {prefix}  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let log = !quiet && !std::io::stderr().is_terminal();
    let mut last_log = Instant::now();
    let mut eta = Eta::default();
    let mut done = 0;
    loop {
        let now = views(coordinator)?;
        let counted: u64 = now.iter().map(|v| v.pairs_done * 2).sum();
        done = (counted + in_flight.load(Ordering::Relaxed))
            .min(total)
            .max(done);
        bar.set_position(done);
        let eta_text = eta.text(done, total);
        bar.set_prefix(eta_text.clone());
        // The bar shows the part still playing (or the last one).
        let shown = now
            .iter()
            .find(|v| v.state == CampaignState::Running)
            .or(now.last())
            .map(|v| format!("{}: {}", v.id, standing(v)))
            .unwrap_or_default();
        bar.set_message(shown.clone());
        if log && last_log.elapsed() >= Duration::from_secs(10) {
            eprintln!("{done}/{total} games, {eta_text}; {shown}");
            last_log = Instant::now();
        }
        if now.iter().all(|v| v.state.is_over()) {
            bar.finish_and_clear();
            return Ok(now);
        }
        // The one worker here cannot play a campaign: nothing else will.
        for id in ids {
            if let Some(failure) = coordinator.engine_failures(id)?.first() {
                bar.finish_and_clear();
                return Err(LocalError::Runtime(format!(
                    "campaign {id} cannot be played on this machine: {}",
                    failure.reason
                )));
            }
        }
        let _ = tokio::time::timeout(Duration::from_secs(1), changes.changed()).await;
    }
}

/// The time left, from the pace of the games finished since this run
/// began (a resumed campaign's earlier games do not count towards it).
#[derive(Default)]
struct Eta {
    /// When the run began and how many games were done then.
    start: Option<(Instant, u64)>,
}

impl Eta {
    /// `ETA 12m 5s`, or `ETA …` until a game of this run has finished.
    fn text(&mut self, done: u64, total: u64) -> String {
        let (started, at_start) = *self.start.get_or_insert((Instant::now(), done));
        match remaining(
            started.elapsed(),
            done.saturating_sub(at_start),
            total.saturating_sub(done),
        ) {
            Some(left) => format!("ETA {}", indicatif::HumanDuration(left)),
            None => "ETA …".to_owned(),
        }
    }
}

/// Time for `left` more games at the pace of `played` games in `elapsed`;
/// `None` before the first.
fn remaining(elapsed: Duration, played: u64, left: u64) -> Option<Duration> {
    (played > 0).then(|| elapsed.mul_f64(left as f64 / played as f64))
}

#[cfg(test)]
mod tests {
    use super::{first_difference, remaining};
    use std::time::Duration;

    #[test]
    fn the_time_left_follows_the_pace_of_the_games_played() {
        assert_eq!(remaining(Duration::from_secs(10), 0, 100), None);
        assert_eq!(
            remaining(Duration::from_secs(10), 5, 20),
            Some(Duration::from_secs(40))
        );
        assert_eq!(
            remaining(Duration::from_secs(10), 5, 0),
            Some(Duration::ZERO)
        );
    }

    #[test]
    fn the_first_differing_line_is_named() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(first_difference("a\nb\n", "a\nc\n"), Some(2));
        assert_eq!(first_difference("a\n", "a\nb\n"), Some(2));
        assert_eq!(first_difference("x\n", "a\n"), Some(1));
    }
}
