//! The gRPC services: thin adapters over [`Coordinator`], plus bearer-token
//! authentication with separate worker and operator scopes.

use crate::campaign::inputs::{Input, SentFile};
use crate::coordinator::leases::WorkerKey;
use crate::coordinator::tokens::TokenHash;
use crate::coordinator::{
    CampaignError, CampaignState, CampaignView, Coordinator, CoordinatorError, LeaseError, Scope,
};
use crate::ids::{CampaignId, UnitId, WorkerId};
use crate::work::Lease;
use ajaxlab_proto::PROTOCOL_VERSION;
use ajaxlab_proto::convert::WireEnum;
use ajaxlab_proto::v1::{self, operator_server, worker_server};
use std::pin::Pin;
use std::sync::Arc;
use tokio_stream::Stream;
use tonic::{Code, Request, Response, Status};

impl From<CoordinatorError> for Status {
    /// The one mapping of the coordinator's errors to gRPC codes: bad
    /// requests, unknown names, requests the state forbids, own failures.
    fn from(e: CoordinatorError) -> Status {
        let message = match &e {
            CoordinatorError::Storage(inner) => inner.to_string(),
            other => other.to_string(),
        };
        let code = match &e {
            CoordinatorError::Campaign(CampaignError::File(_))
            | CoordinatorError::Lease(LeaseError::BadName { .. })
            | CoordinatorError::Submission(_) => Code::InvalidArgument,
            CoordinatorError::Campaign(CampaignError::Unknown(_))
            | CoordinatorError::Lease(LeaseError::UnknownWorker(_) | LeaseError::UnknownUnit(_)) => {
                Code::NotFound
            }
            CoordinatorError::Campaign(
                CampaignError::Exists(_)
                | CampaignError::Over { .. }
                | CampaignError::SpsaExclusion(_)
                | CampaignError::NotExtended { .. }
                | CampaignError::Unloaded { .. },
            )
            | CoordinatorError::Lease(LeaseError::Lost(_) | LeaseError::NotHeld(_)) => {
                Code::FailedPrecondition
            }
            CoordinatorError::Lease(LeaseError::TooManyRegistrations) => Code::ResourceExhausted,
            CoordinatorError::Storage(_) => Code::Internal,
        };
        Status::new(code, message)
    }
}

pub(crate) fn check_header(header: Option<&v1::Header>) -> Result<(), Status> {
    match header {
        None => Err(Status::invalid_argument(
            "header: missing (it carries the protocol version)",
        )),
        Some(h) if h.protocol_version != PROTOCOL_VERSION => {
            Err(Status::failed_precondition(format!(
                "protocol version {} is not supported: this coordinator speaks version {PROTOCOL_VERSION}; upgrade the worker or client",
                h.protocol_version
            )))
        }
        Some(_) => Ok(()),
    }
}

/// An interceptor admitting requests whose bearer token has `scope`.
pub fn authenticate(
    coordinator: Arc<Coordinator>,
    scope: Scope,
) -> impl Fn(Request<()>) -> Result<Request<()>, Status> + Clone {
    move |request: Request<()>| {
        check_scope(
            &coordinator,
            request.metadata(),
            scope,
            &format!("{scope:?} services"),
        )?;
        Ok(request)
    }
}

/// Admits a request whose bearer token has `scope`; `what` names what it
/// calls in the refusal.
///
/// # Errors
/// `UNAUTHENTICATED` without a known token, `PERMISSION_DENIED` for a
/// token of another scope.
pub fn check_scope(
    coordinator: &Coordinator,
    metadata: &tonic::metadata::MetadataMap,
    scope: Scope,
    what: &str,
) -> Result<(), Status> {
    match coordinator.token_scope(bearer_token(metadata)?) {
        None => Err(Status::unauthenticated("unknown token")),
        Some(s) if s != scope => Err(Status::permission_denied(format!(
            "a {s:?} token cannot call {what}"
        ))),
        Some(_) => Ok(()),
    }
}

/// The bearer token a request came with.
fn bearer_token(metadata: &tonic::metadata::MetadataMap) -> Result<&str, Status> {
    metadata
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .ok_or_else(|| Status::unauthenticated("missing 'authorization: Bearer TOKEN'"))
}

/// An id a request names in `field`, read once here: text that is no id
/// is refused as an invalid argument naming the field.
fn wire_id<T: std::str::FromStr>(text: &str, field: &str) -> Result<T, Status>
where
    T::Err: std::fmt::Display,
{
    text.parse()
        .map_err(|e| Status::invalid_argument(format!("{field}: {e}")))
}

/// The lease a request of `kind` names by `unit_id` and `lease_token`.
fn lease(unit_id: &str, lease_token: String, kind: &str) -> Result<Lease, Status> {
    let unit: UnitId = wire_id(unit_id, &format!("{kind}.unit_id"))?;
    Ok(Lease::new(unit, lease_token))
}

/// The worker a request of `kind` names by `worker_id`, with the token it
/// came with.
fn worker_key<T>(request: &Request<T>, worker_id: &str, kind: &str) -> Result<WorkerKey, Status> {
    Ok(WorkerKey {
        id: wire_id(worker_id, &format!("{kind}.worker_id"))?,
        token: TokenHash::of(bearer_token(request.metadata())?),
    })
}

/// Runs blocking coordinator (or artifact store) work off the async threads.
pub(crate) async fn blocking<T: Send + 'static, E: Into<Status> + Send + 'static>(
    f: impl FnOnce() -> Result<T, E> + Send + 'static,
) -> Result<T, Status> {
    tokio::task::spawn_blocking(f)
        .await
        .map_err(|e| Status::internal(e.to_string()))?
        .map_err(Into::into)
}

/// The worker-facing service.
pub struct WorkerService(pub Arc<Coordinator>);

#[tonic::async_trait]
impl worker_server::Worker for WorkerService {
    async fn register(
        &self,
        request: Request<v1::RegisterRequest>,
    ) -> Result<Response<v1::RegisterResponse>, Status> {
        let token = TokenHash::of(bearer_token(request.metadata())?);
        let r = request.into_inner();
        check_header(r.header.as_ref())?;
        let c = Arc::clone(&self.0);
        let key =
            blocking(move || c.register(&token, &r.name, &r.version, r.cores, r.bench_signature))
                .await?;
        Ok(Response::new(v1::RegisterResponse {
            worker_id: key.id.to_string(),
        }))
    }

    async fn request_work(
        &self,
        request: Request<v1::WorkRequest>,
    ) -> Result<Response<v1::WorkResponse>, Status> {
        let key = worker_key(&request, &request.get_ref().worker_id, "WorkRequest")?;
        check_header(request.get_ref().header.as_ref())?;
        let c = Arc::clone(&self.0);
        let unit = blocking(move || c.request_work(&key)).await?;
        Ok(Response::new(v1::WorkResponse {
            unit,
            retry_after_ms: 1000,
        }))
    }

    async fn renew_lease(
        &self,
        request: Request<v1::RenewLeaseRequest>,
    ) -> Result<Response<v1::RenewLeaseResponse>, Status> {
        let key = worker_key(&request, &request.get_ref().worker_id, "RenewLeaseRequest")?;
        let r = request.into_inner();
        check_header(r.header.as_ref())?;
        let lease = lease(&r.unit_id, r.lease_token, "RenewLeaseRequest")?;
        let c = Arc::clone(&self.0);
        let lease = blocking(move || c.renew(&key, &lease)).await?;
        Ok(Response::new(v1::RenewLeaseResponse {
            lease_ms: u64::try_from(lease.as_millis()).unwrap_or(u64::MAX),
        }))
    }

    async fn submit_results(
        &self,
        request: Request<v1::SubmitResultsRequest>,
    ) -> Result<Response<v1::SubmitResultsResponse>, Status> {
        let key = worker_key(
            &request,
            &request.get_ref().worker_id,
            "SubmitResultsRequest",
        )?;
        let r = request.into_inner();
        check_header(r.header.as_ref())?;
        let lease = lease(&r.unit_id, r.lease_token, "SubmitResultsRequest")?;
        let unit = lease.unit.clone();
        let c = Arc::clone(&self.0);
        let outcome = blocking(move || c.submit(&key, &lease, &r.games)).await;
        if let Err(e) = &outcome {
            tracing::warn!(%unit, "submission refused: {}", e.message());
        }
        Ok(Response::new(v1::SubmitResultsResponse {
            status: outcome?.to_wire(),
        }))
    }

    async fn release_work(
        &self,
        request: Request<v1::ReleaseWorkRequest>,
    ) -> Result<Response<v1::ReleaseWorkResponse>, Status> {
        let key = worker_key(&request, &request.get_ref().worker_id, "ReleaseWorkRequest")?;
        let r = request.into_inner();
        check_header(r.header.as_ref())?;
        let c = Arc::clone(&self.0);
        let lease = lease(&r.unit_id, r.lease_token, "ReleaseWorkRequest")?;
        blocking(move || {
            if r.engine_failure.is_empty() {
                c.release(&key, &lease)
            } else {
                c.release_failed(&key, &lease, &r.engine_failure)
            }
        })
        .await?;
        Ok(Response::new(v1::ReleaseWorkResponse {}))
    }
}

/// The operator-facing service.
pub struct OperatorService(pub Arc<Coordinator>);

type CampaignStream = Pin<Box<dyn Stream<Item = Result<v1::Campaign, Status>> + Send>>;

#[tonic::async_trait]
impl operator_server::Operator for OperatorService {
    async fn create_campaign(
        &self,
        request: Request<v1::CreateCampaignRequest>,
    ) -> Result<Response<v1::ListCampaignsResponse>, Status> {
        // Who creates it, as the interceptor admitted them (a service
        // served without one, in-process, names nobody).
        let token = bearer_token(request.metadata()).ok().map(str::to_owned);
        let r = request.into_inner();
        check_header(r.header.as_ref())?;
        let c = Arc::clone(&self.0);
        let shipped = r
            .shipped
            .into_iter()
            .map(|f| Input {
                key: f.key,
                path: f.path,
                sha256: f.sha256,
            })
            .collect::<Vec<_>>();
        let sent: Vec<SentFile> = r.inputs.into_iter().map(SentFile::from).collect();
        let views = blocking(move || {
            let by = match token {
                Some(token) => c.token_holder(&token)?.map(|h| h.label),
                None => None,
            };
            let by = by.unwrap_or_default();
            c.create_campaign_as(&by, &r.config_toml, &sent, &shipped)
        })
        .await?;
        Ok(Response::new(v1::ListCampaignsResponse {
            campaigns: views.iter().map(CampaignView::to_proto).collect(),
        }))
    }

    async fn list_campaigns(
        &self,
        request: Request<v1::ListCampaignsRequest>,
    ) -> Result<Response<v1::ListCampaignsResponse>, Status> {
        check_header(request.get_ref().header.as_ref())?;
        let c = Arc::clone(&self.0);
        let views = blocking(move || c.campaigns()).await?;
        Ok(Response::new(v1::ListCampaignsResponse {
            campaigns: views.iter().map(|v| v.to_proto()).collect(),
        }))
    }

    async fn get_campaign(
        &self,
        request: Request<v1::CampaignRequest>,
    ) -> Result<Response<v1::Campaign>, Status> {
        let r = request.into_inner();
        check_header(r.header.as_ref())?;
        let id: CampaignId = wire_id(&r.campaign_id, "CampaignRequest.campaign_id")?;
        let c = Arc::clone(&self.0);
        Ok(Response::new(
            blocking(move || c.campaign(&id)).await?.to_proto(),
        ))
    }

    async fn pause_campaign(
        &self,
        request: Request<v1::CampaignRequest>,
    ) -> Result<Response<v1::Campaign>, Status> {
        self.set_state(request, CampaignState::Paused).await
    }

    async fn resume_campaign(
        &self,
        request: Request<v1::CampaignRequest>,
    ) -> Result<Response<v1::Campaign>, Status> {
        self.set_state(request, CampaignState::Running).await
    }

    async fn stop_campaign(
        &self,
        request: Request<v1::CampaignRequest>,
    ) -> Result<Response<v1::Campaign>, Status> {
        self.set_state(request, CampaignState::Stopped).await
    }

    async fn exclude_worker(
        &self,
        request: Request<v1::ExcludeWorkerRequest>,
    ) -> Result<Response<v1::Campaign>, Status> {
        let r = request.into_inner();
        check_header(r.header.as_ref())?;
        let campaign: CampaignId = wire_id(&r.campaign_id, "ExcludeWorkerRequest.campaign_id")?;
        let worker: WorkerId = wire_id(&r.worker_id, "ExcludeWorkerRequest.worker_id")?;
        let c = Arc::clone(&self.0);
        Ok(Response::new(
            blocking(move || c.exclude_worker(&campaign, &worker))
                .await?
                .to_proto(),
        ))
    }

    type WatchCampaignStream = CampaignStream;

    async fn watch_campaign(
        &self,
        request: Request<v1::CampaignRequest>,
    ) -> Result<Response<Self::WatchCampaignStream>, Status> {
        let r = request.into_inner();
        check_header(r.header.as_ref())?;
        let coordinator = Arc::clone(&self.0);
        let id: CampaignId = wire_id(&r.campaign_id, "CampaignRequest.campaign_id")?;
        coordinator.campaign(&id)?;
        let mut changes = coordinator.subscribe();
        let (tx, rx) = tokio::sync::mpsc::channel(16);
        tokio::spawn(async move {
            loop {
                let view = match coordinator.campaign(&id) {
                    Ok(v) => v,
                    Err(e) => {
                        let _ = tx.send(Err(Status::from(e))).await;
                        return;
                    }
                };
                let finished = view.state.is_over();
                if tx.send(Ok(view.to_proto())).await.is_err()
                    || finished
                    || changes.changed().await.is_err()
                {
                    return;
                }
            }
        });
        Ok(Response::new(Box::pin(
            tokio_stream::wrappers::ReceiverStream::new(rx),
        )))
    }
}

impl OperatorService {
    async fn set_state(
        &self,
        request: Request<v1::CampaignRequest>,
        state: CampaignState,
    ) -> Result<Response<v1::Campaign>, Status> {
        let r = request.into_inner();
        check_header(r.header.as_ref())?;
        let id: CampaignId = wire_id(&r.campaign_id, "CampaignRequest.campaign_id")?;
        let c = Arc::clone(&self.0);
        Ok(Response::new(
            blocking(move || c.set_campaign_state(&id, state))
                .await?
                .to_proto(),
        ))
    }
}
