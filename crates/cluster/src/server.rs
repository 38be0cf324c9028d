//! Serving the coordinator's gRPC services on a listener.

use crate::coordinator::service::{OperatorService, WorkerService, authenticate};
use crate::coordinator::{Coordinator, Scope};
use ajaxlab_proto::v1::operator_server::OperatorServer;
use ajaxlab_proto::v1::worker_server::WorkerServer;
use std::future::Future;
use std::sync::Arc;

/// Largest message accepted (a unit's games).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024 * 1024;

/// Serves both services on `listener` until `shutdown` completes.
///
/// # Errors
/// A transport failure.
pub async fn serve(
    coordinator: Arc<Coordinator>,
    listener: tokio::net::TcpListener,
    shutdown: impl Future<Output = ()> + Send,
) -> Result<(), tonic::transport::Error> {
    let worker = WorkerServer::new(WorkerService(Arc::clone(&coordinator)))
        .max_decoding_message_size(MAX_MESSAGE_BYTES);
    let operator = OperatorServer::new(OperatorService(Arc::clone(&coordinator)));
    let worker_auth = authenticate(Arc::clone(&coordinator), Scope::Worker);
    let operator_auth = authenticate(Arc::clone(&coordinator), Scope::Operator);
    tonic::transport::Server::builder()
        .add_service(tonic::service::interceptor::InterceptedService::new(
            worker,
            worker_auth,
        ))
        .add_service(tonic::service::interceptor::InterceptedService::new(
            operator,
            operator_auth,
        ))
        .serve_with_incoming_shutdown(
            tokio_stream::wrappers::TcpListenerStream::new(listener),
            shutdown,
        )
        .await
}
