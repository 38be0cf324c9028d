//! One machine, no server to install: an embedded coordinator and local
//! workers in one process, state and Parquet under `./runs/<campaign>/`.
//! Interrupted, it resumes where it stopped when run again.

use crate::campaign::parse_campaign;
use crate::coordinator::{CampaignView, Coordinator, CoordinatorError, Scope};
use crate::worker::{WorkerConfig, bench_signature, run_worker};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
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
    /// Final progress.
    pub campaign: CampaignView,
    /// Where its state and games are.
    pub dir: PathBuf,
    /// Wall time of this run.
    pub elapsed: Duration,
}

/// Runs the campaign in `file` with `threads` local games at once, under `runs_dir`.
///
/// # Errors
/// [`LocalError`] for a bad file or a failure of the embedded parts.
pub fn run_local_campaign(
    file: &Path,
    runs_dir: &Path,
    threads: usize,
    quiet: bool,
) -> Result<LocalSummary, LocalError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| LocalError::Config(format!("{}: {e}", file.display())))?;
    let spec = parse_campaign(&text)
        .map_err(|e| LocalError::Config(format!("{}: {e}", file.display())))?;
    let dir = runs_dir.join(&spec.name);
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
        match coordinator.campaign(&spec.name) {
            Ok(_) => {}
            Err(CoordinatorError::NotFound(_)) => {
                coordinator.create_campaign(&text)?;
            }
            Err(e) => return Err(e.into()),
        }
        let token = coordinator.issue_token(Scope::Worker, "local")?;
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .map_err(|e| LocalError::Runtime(e.to_string()))?;
        let addr = listener
            .local_addr()
            .map_err(|e| LocalError::Runtime(e.to_string()))?;
        let (stop_server, server_stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(crate::server::serve(
            Arc::clone(&coordinator),
            listener,
            async {
                let _ = server_stopped.await;
            },
        ));
        let shutdown = Arc::new(AtomicBool::new(false));
        let worker = tokio::spawn(run_worker(
            WorkerConfig {
                url: format!("http://{addr}"),
                token,
                threads: threads.max(1),
                name: "local".into(),
                tls_ca: None,
            },
            Arc::clone(&shutdown),
        ));
        let view = watch(&coordinator, &spec.name, quiet).await?;
        shutdown.store(true, Ordering::Relaxed);
        let _ = worker.await;
        let _ = stop_server.send(());
        let _ = server.await;
        Ok(LocalSummary {
            campaign: view,
            dir: dir.clone(),
            elapsed: started.elapsed(),
        })
    })
}

async fn watch(
    coordinator: &Coordinator,
    id: &str,
    quiet: bool,
) -> Result<CampaignView, LocalError> {
    let mut changes = coordinator.subscribe();
    let total = coordinator.campaign(id)?.pairs_total * 2;
    let bar = if !quiet && std::io::stderr().is_terminal() {
        let bar = ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} games  ETA {eta}  {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        bar
    } else {
        ProgressBar::hidden()
    };
    let log = !quiet && !std::io::stderr().is_terminal();
    let mut last_log = Instant::now();
    loop {
        let view = coordinator.campaign(id)?;
        bar.set_position(view.pairs_done * 2);
        let elo = view.pentanomial.elo().map_or("Elo n/a".to_owned(), |e| {
            format!("Elo {:+.1} ± {:.1}", e.elo, e.interval.half_width())
        });
        bar.set_message(elo.clone());
        if log && last_log.elapsed() >= Duration::from_secs(10) {
            eprintln!(
                "campaign {id}: {}/{} games, {elo}",
                view.pairs_done * 2,
                total
            );
            last_log = Instant::now();
        }
        if matches!(view.state.as_str(), "finished" | "stopped") {
            bar.finish_and_clear();
            return Ok(view);
        }
        let _ = tokio::time::timeout(Duration::from_secs(5), changes.changed()).await;
    }
}
