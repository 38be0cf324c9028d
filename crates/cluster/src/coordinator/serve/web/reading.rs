//! The threads the web UI reads and renders on: two, at the lowest
//! priority a thread can give itself (nice 19). A page's reading of the
//! database and its rendering then wait for the workers' requests when
//! the coordinator's cores are busy, instead of the workers' requests
//! waiting for them: on a loaded coordinator, live pages update a little
//! later and the cluster plays on at its pace (`ajaxlab loadgen
//! --live-pages` measures it). Readings go through the coordinator's
//! reading connection, never holding the one the workers write through.
//!
//! Operators' actions do not come here: they write, and a write at the
//! lowest priority would hold the workers' connection while it waits.

use super::Web;
use super::error::WebError;
use super::snapshots::FragmentKey;
use axum::body::Bytes;
use maud::Markup;
use std::panic::AssertUnwindSafe;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// How many reading threads there are.
const THREADS: usize = 2;

/// Their niceness: the lowest priority.
const NICENESS: i32 = 19;

type Job = Box<dyn FnOnce() + Send>;

/// Where reading jobs are sent; the threads start with the first one.
fn queue() -> &'static Sender<Job> {
    static QUEUE: OnceLock<Sender<Job>> = OnceLock::new();
    QUEUE.get_or_init(|| {
        let (sender, receiver) = channel::<Job>();
        let receiver = Arc::new(Mutex::new(receiver));
        for n in 0..THREADS {
            let receiver = Arc::clone(&receiver);
            let started = std::thread::Builder::new()
                .name(format!("web-reading-{n}"))
                .spawn(move || serve(&receiver));
            if let Err(e) = started {
                tracing::error!("the web UI's reading thread {n} could not start: {e}");
            }
        }
        sender
    })
}

/// One reading thread: lowers its priority, then runs jobs until the
/// queue is gone. A job that panics fails its page, not the thread.
fn serve(receiver: &Mutex<Receiver<Job>>) {
    let tid = rustix::thread::gettid();
    if let Err(e) = rustix::process::setpriority_process(Some(tid), NICENESS) {
        tracing::warn!("the web UI's reading thread keeps its priority: {e}");
    }
    loop {
        let job = receiver
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .recv();
        let Ok(job) = job else { return };
        let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
    }
}

/// Runs `work` (a reading and its rendering) on the reading threads.
///
/// # Errors
/// `work`'s, or `Internal` if it panicked or no reading thread runs.
pub(super) async fn reading<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, WebError> + Send + 'static,
) -> Result<T, WebError> {
    let (done, result) = tokio::sync::oneshot::channel();
    let job: Job = Box::new(move || {
        let _ = done.send(work());
    });
    queue()
        .send(job)
        .map_err(|_| WebError::Internal("the web UI's reading threads have stopped".into()))?;
    result
        .await
        .map_err(|_| WebError::Internal("the page's reading failed; the log says why".into()))?
}

/// Live part `key` as `render` makes it from `web`, rendered at most a
/// second ago and shared with every page that asks meanwhile.
///
/// # Errors
/// `render`'s, or [`reading`]'s.
pub(super) async fn live_part(
    web: Web,
    key: FragmentKey,
    render: impl FnOnce(&Web) -> Result<Markup, WebError> + Send + 'static,
) -> Result<Bytes, WebError> {
    let html = reading(move || {
        web.snapshots
            .fragments
            .get(&key, || Ok(render(&web)?.into_string().into()))
    })
    .await?;
    Ok((*html).clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn work_runs_on_a_reading_thread_of_the_lowest_priority() {
        let (name, nice) = reading(|| {
            let name = std::thread::current().name().map(str::to_owned);
            let nice = rustix::process::getpriority_process(Some(rustix::thread::gettid()));
            Ok((name, nice.ok()))
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
        assert!(name.is_some_and(|n| n.starts_with("web-reading-")));
        assert_eq!(nice, Some(NICENESS));
        let failed = reading::<()>(|| panic!("a bug in a page")).await;
        assert!(matches!(failed, Err(WebError::Internal(_))));
        assert!(
            reading(|| Ok(1)).await.is_ok_and(|n| n == 1),
            "the thread lives on"
        );
    }
}
