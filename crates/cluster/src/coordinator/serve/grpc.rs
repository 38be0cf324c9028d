//! Serving the coordinator's gRPC services on a listener.

use crate::coordinator::serve::artifacts::ArtifactService;
use crate::coordinator::serve::connections::{ConnectionLimits, Gate};
use crate::coordinator::serve::services::{OperatorService, WorkerService, authenticate};
use crate::coordinator::{Coordinator, Scope};
use ajaxlab_proto::v1::artifacts_server::ArtifactsServer;
use ajaxlab_proto::v1::operator_server::OperatorServer;
use ajaxlab_proto::v1::worker_server::WorkerServer;
use std::future::Future;
use std::sync::Arc;

/// Serves the worker, operator and artifact services, and the standard gRPC health service (for
/// Kubernetes probes, unauthenticated), on `listener` under the default connection limits until
/// `shutdown` completes.
///
/// # Errors
/// A transport failure.
pub async fn serve(
    coordinator: Arc<Coordinator>,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), tonic::transport::Error> {
    serve_tls(
        coordinator,
        listener,
        None,
        ConnectionLimits::default(),
        shutdown,
    )
    .await
}

/// A server certificate chain and its private key, PEM.
#[derive(Clone, Debug)]
pub struct TlsIdentity {
    /// Certificate chain, PEM.
    pub cert_pem: Vec<u8>,
    /// Private key, PEM.
    pub key_pem: Vec<u8>,
}

/// As [`serve`], over TLS (rustls) when `tls` is given, holding at most
/// `limits.grpc` connections and closing those silent for `limits.silence`.
///
/// # Errors
/// A transport failure, or a certificate rustls cannot use.
pub async fn serve_tls(
    coordinator: Arc<Coordinator>,
    listener: tokio::net::TcpListener,
    tls: Option<TlsIdentity>,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), tonic::transport::Error> {
    let worker = WorkerServer::new(WorkerService(Arc::clone(&coordinator)))
        .max_decoding_message_size(ajaxlab_proto::codec::MAX_MESSAGE_BYTES);
    // A campaign is created with the files it names sent whole (an opening
    // book up to its limit).
    let operator = OperatorServer::new(OperatorService(Arc::clone(&coordinator)))
        .max_decoding_message_size(ajaxlab_proto::codec::MAX_MESSAGE_BYTES);
    let worker_auth = authenticate(Arc::clone(&coordinator), Scope::Worker);
    let operator_auth = authenticate(Arc::clone(&coordinator), Scope::Operator);
    // Tokens are checked per call: uploads take an operator's, fetches a worker's.
    let artifacts = ArtifactsServer::new(ArtifactService {
        coordinator: Arc::clone(&coordinator),
        upload_idle: limits.silence,
    });
    let (health, health_service) = tonic_health::server::health_reporter();
    health.set_serving::<WorkerServer<WorkerService>>().await;
    health
        .set_serving::<OperatorServer<OperatorService>>()
        .await;
    // Pings find peers that vanished without closing their connection.
    let mut builder = tonic::transport::Server::builder()
        .http2_keepalive_interval(Some(std::time::Duration::from_secs(30)))
        .http2_keepalive_timeout(Some(std::time::Duration::from_secs(20)));
    if let Some(id) = tls {
        let identity = tonic::transport::Identity::from_pem(id.cert_pem, id.key_pem);
        builder =
            builder.tls_config(tonic::transport::ServerTlsConfig::new().identity(identity))?;
    }
    builder
        .add_service(health_service)
        .add_service(tonic::service::interceptor::InterceptedService::new(
            worker,
            worker_auth,
        ))
        .add_service(tonic::service::interceptor::InterceptedService::new(
            operator,
            operator_auth,
        ))
        .add_service(artifacts)
        .serve_with_incoming_shutdown(
            Gate::new(listener, limits.grpc, limits.silence).into_stream(),
            shutdown,
        )
        .await
}
