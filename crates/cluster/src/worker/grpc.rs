//! A coordinator across the network as a worker's work source: gRPC over
//! one channel (reconnected after a failure), the shared texts and shipped
//! files of a unit fetched into the worker's cache.

use super::engines::EngineFailure;
use crate::artifacts::cache::DEFAULT_CACHE_BYTES;
use crate::artifacts::client::fetch;
use crate::artifacts::shared::{SharedInputs, inline};
use crate::artifacts::{ArtifactCache, ArtifactError, ArtifactHash};
use crate::ids::WorkerId;
use crate::remote::{Auth, Remote, RemoteError};
use crate::work::source::{Offer, Registration, SourceError, WorkSource};
use crate::work::unit::WorkUnit;
use crate::work::{Lease, Submitted};
use ajaxlab_proto::convert::WireEnum;
use ajaxlab_proto::v1::artifacts_client::ArtifactsClient;
use ajaxlab_proto::v1::worker_client::WorkerClient;
use ajaxlab_proto::{PROTOCOL_VERSION, v1};
use ajaxlab_store::GameRecord;
use std::path::PathBuf;
use std::time::Duration;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

/// How long a worker waits after a unit's files could not be fetched (the
/// coordinator unreachable) before it asks for work again.
const FETCH_RETRY: Duration = Duration::from_secs(5);

/// A worker's clients of the coordinator's services, on one channel.
struct Clients {
    work: WorkerClient<InterceptedService<Channel, Auth>>,
    artifacts: crate::artifacts::client::Client,
}

/// A coordinator reached over gRPC.
pub struct GrpcSource {
    remote: Remote,
    clients: Option<Clients>,
    cache_dir: PathBuf,
    cache: Option<ArtifactCache>,
}

fn header() -> Option<v1::Header> {
    Some(v1::Header {
        protocol_version: PROTOCOL_VERSION,
    })
}

impl GrpcSource {
    /// The coordinator at `remote`; fetched files are cached in `cache_dir`.
    pub fn new(remote: Remote, cache_dir: PathBuf) -> GrpcSource {
        GrpcSource {
            remote,
            clients: None,
            cache_dir,
            cache: None,
        }
    }

    /// The clients, connecting first if there are none.
    async fn clients(&mut self) -> Result<&mut Clients, SourceError> {
        let clients = match self.clients.take() {
            Some(clients) => clients,
            None => {
                let (channel, auth) = self.remote.connect().await.map_err(|e| match e {
                    RemoteError::Connect { .. } => SourceError::Unavailable(e.to_string()),
                    other => SourceError::Refused(other.to_string()),
                })?;
                Clients {
                    work: WorkerClient::with_interceptor(channel.clone(), auth.clone())
                        .max_decoding_message_size(ajaxlab_proto::codec::MAX_MESSAGE_BYTES)
                        .max_encoding_message_size(ajaxlab_proto::codec::MAX_MESSAGE_BYTES),
                    artifacts: ArtifactsClient::with_interceptor(channel, auth),
                }
            }
        };
        Ok(self.clients.insert(clients))
    }

    /// The coordinator's answer read; after a transport failure the next
    /// request connects again.
    fn failed(&mut self, status: tonic::Status) -> SourceError {
        let error = SourceError::from(status);
        if matches!(error, SourceError::Unavailable(_)) {
            self.clients = None;
        }
        error
    }

    /// The worker's cache, opened (and its directory made) when first used.
    fn cache(&mut self) -> Result<&ArtifactCache, ArtifactError> {
        let cache = match self.cache.take() {
            Some(cache) => cache,
            None => ArtifactCache::open(&self.cache_dir, DEFAULT_CACHE_BYTES)?,
        };
        Ok(self.cache.insert(cache))
    }

    /// A wire unit with its shared texts fetched and put back, read.
    async fn read_unit(&mut self, mut unit: v1::WorkUnit) -> Result<WorkUnit, EngineFailure> {
        let shared = SharedInputs::of_unit(&unit).map_err(|e| EngineFailure::fetching(&e))?;
        let cache = self
            .cache()
            .map_err(|e| EngineFailure::fetching(&e))?
            .clone();
        let clients = self.clients().await.map_err(|e| EngineFailure {
            player: String::new(),
            reason: e.to_string(),
            lasting: false,
        })?;
        inline(&mut unit, &mut clients.artifacts, &cache)
            .await
            .map_err(|e| EngineFailure::fetching(&e))?;
        // A unit this build cannot read is given back, not the worker's end.
        WorkUnit::from_wire(&unit, shared).map_err(|e| EngineFailure {
            player: String::new(),
            reason: format!("bad work unit: {e}"),
            lasting: true,
        })
    }
}

impl WorkSource for GrpcSource {
    async fn register(&mut self, me: &Registration) -> Result<WorkerId, SourceError> {
        let request = v1::RegisterRequest {
            header: header(),
            name: me.name.clone(),
            version: me.version.clone(),
            cores: me.cores,
            bench_signature: me.signature,
            engines: vec!["builtin".into()],
        };
        let answer = self.clients().await?.work.register(request).await;
        let id = answer.map_err(|s| self.failed(s))?.into_inner().worker_id;
        id.parse()
            .map_err(|e| SourceError::Refused(format!("RegisterResponse.worker_id: {e}")))
    }

    async fn lease(&mut self, worker: &WorkerId) -> Result<Offer, SourceError> {
        let request = v1::WorkRequest {
            header: header(),
            worker_id: worker.to_string(),
        };
        let answer = self.clients().await?.work.request_work(request).await;
        let response = answer.map_err(|s| self.failed(s))?.into_inner();
        let Some(unit) = response.unit else {
            return Ok(Offer::Wait(Duration::from_millis(
                response.retry_after_ms.clamp(100, 10_000),
            )));
        };
        let lease = Lease::of(&unit)
            .map_err(|e| SourceError::Refused(format!("bad work unit: WorkUnit.unit_id: {e}")))?;
        match self.read_unit(unit).await {
            Ok(unit) => Ok(Offer::Unit(Box::new(unit))),
            Err(failure) if failure.lasting => {
                let reason = failure.to_string();
                tracing::error!("cannot read the unit, given back: {reason}");
                self.release(worker, &lease, Some(&reason)).await;
                Ok(Offer::Wait(Duration::ZERO))
            }
            Err(failure) => {
                tracing::warn!("cannot fetch a unit's files now, unit given back: {failure}");
                self.release(worker, &lease, None).await;
                Ok(Offer::Wait(FETCH_RETRY))
            }
        }
    }

    async fn renew(&mut self, worker: &WorkerId, lease: &Lease) -> Result<Duration, SourceError> {
        let request = v1::RenewLeaseRequest {
            header: header(),
            worker_id: worker.to_string(),
            unit_id: lease.unit.to_string(),
            lease_token: lease.token.as_str().to_owned(),
        };
        let answer = self.clients().await?.work.renew_lease(request).await;
        Ok(Duration::from_millis(
            answer.map_err(|s| self.failed(s))?.into_inner().lease_ms,
        ))
    }

    async fn submit(
        &mut self,
        worker: &WorkerId,
        lease: &Lease,
        games: &[GameRecord],
    ) -> Result<Submitted, SourceError> {
        let request = v1::SubmitResultsRequest {
            header: header(),
            worker_id: worker.to_string(),
            unit_id: lease.unit.to_string(),
            lease_token: lease.token.as_str().to_owned(),
            games: games
                .iter()
                .map(v1::GameRecord::try_from)
                .collect::<Result<_, _>>()
                .map_err(|e| SourceError::Declined(e.to_string()))?,
        };
        let answer = self.clients().await?.work.submit_results(request).await;
        let status = answer.map_err(|s| self.failed(s))?.into_inner().status;
        Submitted::from_wire(status, "SubmitResultsResponse.status")
            .map_err(|e| SourceError::Declined(e.to_string()))
    }

    async fn release(&mut self, worker: &WorkerId, lease: &Lease, failure: Option<&str>) {
        let request = v1::ReleaseWorkRequest {
            header: header(),
            worker_id: worker.to_string(),
            unit_id: lease.unit.to_string(),
            lease_token: lease.token.as_str().to_owned(),
            engine_failure: failure.unwrap_or_default().to_owned(),
        };
        let released = match self.clients().await {
            Ok(clients) => clients
                .work
                .release_work(request)
                .await
                .map(|_| ())
                .map_err(|s| self.failed(s)),
            Err(e) => Err(e),
        };
        if let Err(e) = released {
            tracing::warn!("unit {} not given back: {e}", lease.unit);
        }
    }

    async fn artifact(&mut self, hash: ArtifactHash) -> Result<PathBuf, ArtifactError> {
        let cache = self.cache()?.clone();
        let clients = self
            .clients()
            .await
            .map_err(|e| ArtifactError::Protocol(e.to_string()))?;
        fetch(&mut clients.artifacts, hash, &cache).await
    }
}
