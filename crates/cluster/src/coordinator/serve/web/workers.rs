//! `/workers`: every registered worker with its health: what it is (name,
//! version, cores), whether it plays now, its last contact, its units and
//! games over the last hour, its pace, the submissions refused under its
//! token and the campaigns that exclude it. Live (`/fragments/workers`).
//! A worker is excluded from, and admitted again to, a campaign on that
//! campaign's page, beside its games.

use super::Web;
use super::error::WebError;
use super::layout::{self, Viewer, span};
use super::reading::{live_part, reading};
use crate::coordinator::WorkerHealth;
use crate::coordinator::now_ms;
use axum::extract::State;
use axum::response::Html;
use maud::{Markup, html};
use std::sync::Arc;

/// A worker not heard from for this long is shown as silent.
const SILENT_AFTER_MS: i64 = 10 * 60 * 1000;

/// Every worker's health as read at most a second ago (it blocks).
fn read_now(web: &Web) -> Result<Arc<Vec<WorkerHealth>>, WebError> {
    web.snapshots
        .workers
        .get(&(), || Ok(web.coordinator.worker_health()?))
}

async fn read(web: &Web) -> Result<Arc<Vec<WorkerHealth>>, WebError> {
    let web = web.clone();
    reading(move || read_now(&web)).await
}

/// The workers page.
pub(super) async fn page(State(web): State<Web>, viewer: Viewer) -> Result<Html<String>, WebError> {
    let workers = read(&web).await?;
    let body = html! {
        h1 { "Workers" }
        p.muted { "Units and games are those counted over the last hour. A worker is excluded from a campaign, or admitted again, on the campaign's page." }
        div #workers data-live="/fragments/workers" { (table(&workers, now_ms())) }
    };
    Ok(Html(layout::page("Workers", &viewer, body).into_string()))
}

/// The table alone, for live updates.
pub(super) async fn fragment(State(web): State<Web>) -> Result<Html<axum::body::Bytes>, WebError> {
    Ok(Html(part(web).await?))
}

/// The table, rendered at most a second ago.
pub(super) async fn part(web: Web) -> Result<axum::body::Bytes, WebError> {
    let key = ("workers".to_owned(), None);
    live_part(web, key, |web| Ok(table(&read_now(web)?, now_ms()))).await
}

fn table(workers: &[WorkerHealth], now: i64) -> Markup {
    let playing = workers.iter().filter(|w| w.units_held > 0).count();
    html! {
        p { (workers.len()) " workers registered, " (playing) " playing now" }
        table.workers {
            thead { tr {
                th { "worker" } th { "name" } th { "version" } th.num { "cores" } th { "state" }
                th { "last contact" } th.num { "units/h" } th.num { "games/h" } th.num { "pairs/min" }
                th.num { "refused" } th.num { "excluded from" }
            } }
            tbody { @for w in workers { (row(w, now)) } }
        }
    }
}

fn row(w: &WorkerHealth, now: i64) -> Markup {
    let ago = now - w.last_contact_ms;
    let state = if w.units_held > 0 {
        "playing"
    } else if ago < SILENT_AFTER_MS {
        "idle"
    } else {
        "silent"
    };
    html! {
        tr data-worker=(w.info.id.as_str()) {
            td { code { (w.info.id.as_str()) } }
            td { (w.info.name) }
            td { (w.info.version) }
            td.num { (w.info.cores) }
            td { span class={ "badge worker-" (state) } { (state) } }
            td { (span(ago / 1000)) " ago" }
            td.num { (w.units_recent) }
            td.num { (w.pairs_recent * 2) }
            td.num { (format!("{:.1}", w.pairs_per_minute)) }
            td.num class=[(w.refusals > 0).then_some("flag")] { (w.refusals) }
            td.num { (w.excluded_from) }
        }
    }
}
