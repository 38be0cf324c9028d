//! Stopping a process's parts together: one [`Stop`] asks, every clone of
//! its [`Shutdown`] hears it at once. A worker awaits it beside its work
//! (no polling); a command line's process makes one that SIGTERM or
//! Ctrl-C sets ([`Shutdown::on_signal`]).

use tokio::sync::watch;

/// Asks for the shutdown its [`Shutdown`]s wait for; dropping it asks too,
/// as nobody is left to ask later.
#[derive(Debug)]
pub struct Stop(watch::Sender<bool>);

/// A shutdown to wait for, or to look at between steps.
#[derive(Clone, Debug)]
pub struct Shutdown(watch::Receiver<bool>);

impl Stop {
    /// Asks for the shutdown.
    pub fn stop(&self) {
        self.0.send_replace(true);
    }
}

impl Shutdown {
    /// A shutdown and the [`Stop`] that asks for it.
    pub fn new() -> (Stop, Shutdown) {
        let (stop, shutdown) = watch::channel(false);
        (Stop(stop), Shutdown(shutdown))
    }

    /// A shutdown asked for by the process's first SIGTERM or Ctrl-C
    /// (logged), on a task of the current Tokio runtime.
    ///
    /// # Panics
    /// Outside a Tokio runtime.
    pub fn on_signal() -> Shutdown {
        let (stop, shutdown) = Shutdown::new();
        tokio::spawn(async move {
            signal().await;
            stop.stop();
        });
        shutdown
    }

    /// Whether the shutdown has been asked for.
    pub fn is_requested(&self) -> bool {
        *self.0.borrow() || self.0.has_changed().is_err()
    }

    /// Completes when the shutdown is asked for (at once if it was).
    pub async fn requested(&mut self) {
        // An error is a dropped `Stop`: a shutdown as well.
        let _ = self.0.wait_for(|stop| *stop).await;
    }

    /// Waits `duration`, or less if the shutdown is asked for meanwhile.
    pub async fn sleep(&mut self, duration: std::time::Duration) {
        tokio::select! {
            () = tokio::time::sleep(duration) => {}
            () = self.requested() => {}
        }
    }
}

/// Completes on the process's first SIGTERM or Ctrl-C, and logs it.
pub async fn signal() {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn every_clone_hears_one_stop_and_a_dropped_stop_is_a_stop() {
        let (stop, mut shutdown) = Shutdown::new();
        let mut other = shutdown.clone();
        assert!(!shutdown.is_requested());
        stop.stop();
        shutdown.requested().await;
        other.requested().await;
        assert!(other.is_requested());

        let (stop, mut shutdown) = Shutdown::new();
        drop(stop);
        assert!(shutdown.is_requested());
        shutdown.requested().await;
    }

    #[tokio::test]
    async fn a_sleep_ends_at_the_shutdown() {
        let (stop, mut shutdown) = Shutdown::new();
        stop.stop();
        let hour = std::time::Duration::from_secs(3600);
        let slept = tokio::time::timeout(std::time::Duration::from_secs(5), shutdown.sleep(hour));
        assert!(slept.await.is_ok(), "slept on after the shutdown");
    }
}
