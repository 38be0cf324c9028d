//! Serving the coordinator's HTTP routes within limits: a bounded number of
//! connections (see [`crate::coordinator::serve::connections`]), a deadline for a request's
//! headers that also closes idle kept-alive connections, and one for its
//! body. A slow or silent client costs one connection for seconds, never
//! the process's descriptors.

use crate::coordinator::serve::connections::{ConnectionLimits, Gate};
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use hyper_util::service::TowerToHyperService;
use std::future::Future;
use std::time::Duration;

/// How long connections still open at shutdown are given to finish.
const DRAIN: Duration = Duration::from_secs(5);

/// Serves `router` on `listener` under `limits` until `shutdown` completes,
/// then lets open requests finish (for at most a few seconds).
///
/// # Errors
/// None today: failed accepts are logged and retried; the `Result` keeps
/// the signature of a server that may fail.
pub async fn serve_router(
    router: Router,
    listener: tokio::net::TcpListener,
    limits: ConnectionLimits,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let router = router.layer(tower_http::timeout::RequestBodyTimeoutLayer::new(
        limits.http_body,
    ));
    let gate = Gate::new(listener, limits.http, limits.silence);
    let graceful = GracefulShutdown::new();
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(limits.silence);
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let stream = tokio::select! {
            stream = gate.accept() => stream,
            () = &mut shutdown => break,
        };
        let service = TowerToHyperService::new(router.clone());
        let connection = builder.serve_connection(TokioIo::new(stream), service);
        let watched = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(e) = watched.await {
                tracing::debug!("web UI connection: {e}");
            }
        });
    }
    drop(gate);
    if tokio::time::timeout(DRAIN, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::debug!("web UI connections still open after {DRAIN:?}; closing them");
    }
    Ok(())
}
