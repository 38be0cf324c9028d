//! What a signed-in operator does from a campaign's page: pause, resume
//! or stop it, set its priority, exclude a worker or admit it again. Each
//! action checks the form's CSRF token first and is logged with who did
//! it; each answers by going back to the campaign's page.

use super::Web;
use super::auth::Operator;
use super::campaign::campaign_id;
use super::error::{WebError, blocking};
use crate::coordinator::CampaignState;
use crate::ids::WorkerId;
use axum::extract::{Path, State};
use axum::response::Redirect;
use std::sync::Arc;

/// A state change as posted.
#[derive(serde::Deserialize)]
pub(super) struct StateForm {
    #[serde(default)]
    csrf: String,
    /// `pause`, `resume` or `stop`.
    #[serde(default)]
    action: String,
}

/// Pauses, resumes or stops a campaign.
pub(super) async fn set_state(
    State(web): State<Web>,
    Operator(session): Operator,
    Path(id): Path<String>,
    axum::Form(form): axum::Form<StateForm>,
) -> Result<Redirect, WebError> {
    session.check_csrf(&form.csrf)?;
    let id = campaign_id(&id)?;
    let state = match form.action.as_str() {
        "pause" => CampaignState::Paused,
        "resume" => CampaignState::Running,
        "stop" => CampaignState::Stopped,
        other => {
            return Err(WebError::BadRequest(format!(
                "action: '{other}' is none of pause, resume, stop"
            )));
        }
    };
    let c = Arc::clone(&web.coordinator);
    let target = id.clone();
    blocking(move || Ok(c.set_campaign_state(&target, state)?)).await?;
    web.snapshots.changed(&id);
    tracing::info!(campaign = %id, by = %session.label, "{} from the web UI", form.action);
    Ok(Redirect::to(&format!("/campaigns/{}", id.as_str())))
}

/// A priority as posted.
#[derive(serde::Deserialize)]
pub(super) struct PriorityForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    priority: String,
}

/// Sets a campaign's priority.
pub(super) async fn set_priority(
    State(web): State<Web>,
    Operator(session): Operator,
    Path(id): Path<String>,
    axum::Form(form): axum::Form<PriorityForm>,
) -> Result<Redirect, WebError> {
    session.check_csrf(&form.csrf)?;
    let id = campaign_id(&id)?;
    let priority: u32 = form.priority.trim().parse().map_err(|_| {
        WebError::BadRequest(format!(
            "priority: '{}' is not a whole number from 1 to 1000",
            form.priority
        ))
    })?;
    let c = Arc::clone(&web.coordinator);
    let target = id.clone();
    let by = session.label.clone();
    blocking(move || Ok(c.set_priority(&target, priority, &by)?)).await?;
    web.snapshots.changed(&id);
    Ok(Redirect::to(&format!("/campaigns/{}", id.as_str())))
}

/// A worker action as posted.
#[derive(serde::Deserialize)]
pub(super) struct WorkerForm {
    #[serde(default)]
    csrf: String,
    /// `exclude` or `readmit`.
    #[serde(default)]
    action: String,
    #[serde(default)]
    worker: String,
}

/// Excludes a worker from a campaign (its games counted out), or admits
/// it again.
pub(super) async fn worker(
    State(web): State<Web>,
    Operator(session): Operator,
    Path(id): Path<String>,
    axum::Form(form): axum::Form<WorkerForm>,
) -> Result<Redirect, WebError> {
    session.check_csrf(&form.csrf)?;
    let id = campaign_id(&id)?;
    let worker: WorkerId = form
        .worker
        .parse()
        .map_err(|e| WebError::BadRequest(format!("worker: {e}")))?;
    let c = Arc::clone(&web.coordinator);
    let target = id.clone();
    let by = session.label.clone();
    match form.action.as_str() {
        "exclude" => {
            let who = worker.clone();
            blocking(move || Ok(c.exclude_worker(&target, &who)?)).await?;
            tracing::info!(campaign = %id, %worker, by = %session.label, "worker excluded from the web UI");
        }
        "readmit" => {
            blocking(move || Ok(c.readmit_worker(&target, &worker, &by)?)).await?;
        }
        other => {
            return Err(WebError::BadRequest(format!(
                "action: '{other}' is neither exclude nor readmit"
            )));
        }
    }
    web.snapshots.changed(&id);
    Ok(Redirect::to(&format!("/campaigns/{}", id.as_str())))
}
