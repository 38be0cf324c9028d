//! The operator's web UI on the coordinator's HTTP port: the campaigns
//! (filtered, searched, live), a page per campaign by kind, the workers,
//! forms that create campaigns, and the actions that pause, resume, stop,
//! reprioritise and exclude; beside them the JSON view and Prometheus
//! metrics. Anyone may read unless the coordinator file says otherwise; to
//! act, an operator signs in with an operator token ([`auth`]). Every asset
//! is embedded in the binary ([`assets`]): clusters are often offline.

mod actions;
mod api;
mod assets;
pub mod auth;
mod campaign;
mod charts;
mod create;
mod create_form;
mod downloads;
mod error;
mod kinds;
mod layout;
mod list;
mod live;
mod reading;
mod snapshots;
mod workers;

use crate::coordinator::Coordinator;
use crate::coordinator::serve::connections::ConnectionLimits;
pub use auth::ReadAccess;
use axum::Router;
use axum::routing::{get, post};
pub(crate) use layout::urlencode;
pub use snapshots::MAX_AGE;
use std::sync::Arc;

/// What every handler shares: the coordinator, the signed-in sessions and
/// who may read.
#[derive(Clone)]
struct Web {
    coordinator: Arc<Coordinator>,
    sessions: Arc<auth::Sessions>,
    snapshots: Arc<snapshots::Snapshots>,
    read: ReadAccess,
}

/// The HTTP routes. Pages: `/` (campaigns), `/campaigns/NAME`, `/workers`,
/// `/new` (the create forms), `/sign-in`; their live parts under
/// `/fragments/…`, sent down `/events` as they change; files under
/// `/campaigns/NAME/files/…`; `/api/campaigns` (JSON) and `/metrics`.
pub fn router(coordinator: Arc<Coordinator>, read: ReadAccess) -> Router {
    let web = Web {
        coordinator,
        sessions: Arc::new(auth::Sessions::default()),
        snapshots: Arc::new(snapshots::Snapshots::default()),
        read,
    };
    let reading = Router::new()
        .route("/", get(list::page))
        .route("/fragments/campaigns", get(list::fragment))
        .route("/campaigns/{id}", get(campaign::page))
        .route("/fragments/campaigns/{id}", get(campaign::fragment))
        .route(
            "/fragments/campaigns/{id}/workers",
            get(campaign::workers_fragment),
        )
        .route("/campaigns/{id}/files/{file}", get(downloads::file))
        .route("/new", get(create::form))
        .route("/workers", get(workers::page))
        .route("/fragments/workers", get(workers::fragment))
        .route("/events", get(live::events))
        .route("/api/campaigns", get(api::campaigns_json))
        .route("/metrics", get(api::metrics))
        .route_layer(axum::middleware::from_fn_with_state(
            web.clone(),
            auth::require_reader,
        ));
    let acting = Router::new()
        .route("/new", post(create::submit))
        .route("/campaigns/{id}/state", post(actions::set_state))
        .route("/campaigns/{id}/priority", post(actions::set_priority))
        .route("/campaigns/{id}/workers", post(actions::worker))
        .layer(axum::extract::DefaultBodyLimit::max(create::body_limit(
            &web.coordinator,
        )));
    Router::new()
        .merge(reading)
        .merge(acting)
        .route("/sign-in", get(auth::sign_in_page).post(auth::sign_in))
        .route("/sign-out", post(auth::sign_out))
        .route("/assets/{file}", get(assets::asset))
        .with_state(web)
}

/// Serves the routes on `listener` under `limits` until `shutdown`
/// completes.
///
/// # Errors
/// An I/O failure of the listener.
pub async fn serve_http(
    coordinator: Arc<Coordinator>,
    read: ReadAccess,
    listener: tokio::net::TcpListener,
    limits: ConnectionLimits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    crate::coordinator::serve::http::serve_router(
        router(coordinator, read),
        listener,
        limits,
        shutdown,
    )
    .await
}
