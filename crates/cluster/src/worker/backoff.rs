//! How a worker waits before it tries again: exponential backoff with
//! jitter, so that workers cut off together do not return together.

use crate::shutdown::Shutdown;
use ajaxlab_stats::{RandomSource, SplitMix64};
use std::time::Duration;

/// Exponential backoff with jitter, capped at 30 s.
pub(super) struct Backoff {
    attempt: u32,
    rng: SplitMix64,
}

impl Backoff {
    pub(super) fn new(seed: u64) -> Backoff {
        Backoff {
            attempt: 0,
            rng: SplitMix64::new(seed),
        }
    }

    /// The next wait: twice the last, up to 30 s, with jitter.
    pub(super) fn next_delay(&mut self) -> Duration {
        let base = 200u64.saturating_mul(1 << self.attempt.min(8)).min(30_000);
        self.attempt += 1;
        let jitter = self.rng.next_u64() % (base / 2 + 1);
        Duration::from_millis(base / 2 + jitter)
    }

    pub(super) async fn wait(&mut self) {
        tokio::time::sleep(self.next_delay()).await;
    }

    /// [`Backoff::wait`], cut short by `shutdown`: a worker that cannot
    /// reach its coordinator still stops at once when told to.
    pub(super) async fn wait_unless(&mut self, shutdown: &Shutdown) {
        shutdown.clone().sleep(self.next_delay()).await;
    }

    pub(super) fn reset(&mut self) {
        self.attempt = 0;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
