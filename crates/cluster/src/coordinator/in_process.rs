//! The coordinator as the work source of a worker in the same process
//! (`ajaxlab campaign run`): units and games pass as the domain's types,
//! with no wire between them, and the games this build played are counted
//! without being replayed.

use super::{Coordinator, CoordinatorError, TokenHash, WorkerKey};
use crate::artifacts::cache::DEFAULT_CACHE_BYTES;
use crate::artifacts::{ArtifactCache, ArtifactError, ArtifactHash};
use crate::ids::WorkerId;
use crate::work::source::{Offer, Registration, SourceError, WorkSource};
use crate::work::{Lease, Submitted};
use ajaxlab_store::GameRecord;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// How long a worker with nothing to play waits before it asks again.
const IDLE_WAIT: Duration = Duration::from_millis(200);

/// A coordinator in this process, reached under a worker token.
pub struct InProcessSource {
    coordinator: Arc<Coordinator>,
    token: TokenHash,
    cache_dir: PathBuf,
}

impl InProcessSource {
    /// The source of `coordinator`'s work for workers holding `token`; the
    /// files players ship with are copied from its store into `cache_dir`
    /// (a worker runs its own copies, executable, never the store's).
    pub fn new(coordinator: Arc<Coordinator>, token: &str, cache_dir: PathBuf) -> InProcessSource {
        InProcessSource {
            coordinator,
            token: TokenHash::of(token),
            cache_dir,
        }
    }

    fn key(&self, worker: &WorkerId) -> WorkerKey {
        WorkerKey {
            id: worker.clone(),
            token: self.token.clone(),
        }
    }

    /// Runs `call` on the coordinator off the async threads (its state is
    /// SQLite), its error read as the gRPC service would answer it.
    async fn call<T: Send + 'static>(
        &self,
        call: impl FnOnce(&Coordinator) -> Result<T, CoordinatorError> + Send + 'static,
    ) -> Result<T, SourceError> {
        let coordinator = Arc::clone(&self.coordinator);
        tokio::task::spawn_blocking(move || call(&coordinator))
            .await
            .map_err(|e| SourceError::Unavailable(e.to_string()))?
            .map_err(|e| SourceError::from(tonic::Status::from(e)))
    }
}

impl WorkSource for InProcessSource {
    async fn register(&mut self, me: &Registration) -> Result<WorkerId, SourceError> {
        let (token, me) = (self.token.clone(), me.clone());
        self.call(move |c| c.register(&token, &me.name, &me.version, me.cores, me.signature))
            .await
            .map(|key| key.id)
    }

    async fn lease(&mut self, worker: &WorkerId) -> Result<Offer, SourceError> {
        let key = self.key(worker);
        Ok(match self.call(move |c| c.lease_unit(&key)).await? {
            Some(unit) => Offer::Unit(Box::new(unit)),
            None => Offer::Wait(IDLE_WAIT),
        })
    }

    async fn renew(&mut self, worker: &WorkerId, lease: &Lease) -> Result<Duration, SourceError> {
        let (key, lease) = (self.key(worker), lease.clone());
        self.call(move |c| c.renew(&key, &lease)).await
    }

    async fn submit(
        &mut self,
        worker: &WorkerId,
        lease: &Lease,
        games: &[GameRecord],
    ) -> Result<Submitted, SourceError> {
        let (key, lease, games) = (self.key(worker), lease.clone(), games.to_vec());
        self.call(move |c| c.submit_own(&key, &lease, games)).await
    }

    async fn release(&mut self, worker: &WorkerId, lease: &Lease, failure: Option<&str>) {
        let (key, lease) = (self.key(worker), lease.clone());
        let failure = failure.map(str::to_owned);
        let unit = lease.unit.clone();
        let released = self
            .call(move |c| match &failure {
                Some(reason) => c.release_failed(&key, &lease, reason),
                None => c.release(&key, &lease),
            })
            .await;
        if let Err(e) = released {
            tracing::warn!("unit {unit} not given back: {e}");
        }
    }

    async fn artifact(&mut self, hash: ArtifactHash) -> Result<PathBuf, ArtifactError> {
        let (coordinator, cache_dir) = (Arc::clone(&self.coordinator), self.cache_dir.clone());
        tokio::task::spawn_blocking(move || {
            let cache = ArtifactCache::open(&cache_dir, DEFAULT_CACHE_BYTES)?;
            if let Some(path) = cache.get(hash)? {
                return Ok(path);
            }
            let (stored, _) = coordinator.artifacts().get(hash)?;
            let bytes = std::fs::read(&stored).map_err(ArtifactError::io(&stored))?;
            cache.put(&bytes)
        })
        .await
        .map_err(|e| ArtifactError::Protocol(e.to_string()))?
    }
}
