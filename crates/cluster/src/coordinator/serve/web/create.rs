//! `/new`: creating a campaign from the browser. An SPRT or a match has a
//! form with the fields of its campaign file (two players, each the
//! builtin engine with its settings or an uploaded UCI engine); every kind
//! may instead be written as a campaign file, started from an example.
//! The form is posted as multipart (for the engines), turned into the
//! campaign file and created exactly as `ajaxlab campaign create` creates
//! one: uploads go into the same content-addressed artifact store. A bad
//! field sends the form back as typed, the error beside that field, and
//! nothing is stored.

use super::Web;
use super::auth::Operator;
use super::create_form::{self, FormKind, Problems, Submitted};
use super::error::{WebError, blocking};
use super::layout::{self, Viewer};
use crate::artifacts::ArtifactStore;
use crate::campaign::inputs::Input;
use crate::coordinator::{CampaignError, Coordinator, CoordinatorError};
use axum::extract::multipart::Field;
use axum::extract::{Multipart, Query, State};
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Redirect, Response};
use std::sync::Arc;

/// Fields of a form other than files, bytes at most each.
const MAX_FIELD: usize = 256 * 1024;

/// The largest body a form may post: two engines at the artifact limit,
/// and the rest.
pub(super) fn body_limit(c: &Coordinator) -> usize {
    usize::try_from(c.artifacts().limit().saturating_mul(2))
        .unwrap_or(usize::MAX)
        .saturating_add(4 * 1024 * 1024)
}

/// Which form: `?kind=sprt` (the default), `match`, `spsa`,
/// `piece-value`, `first-move`, `file`.
#[derive(serde::Deserialize)]
pub(super) struct KindQuery {
    #[serde(default)]
    kind: String,
}

/// The form, empty (an operator must be signed in to submit it).
pub(super) async fn form(viewer: Viewer, Query(query): Query<KindQuery>) -> Response {
    let kind = FormKind::named(&query.kind);
    render(
        &viewer,
        kind,
        &Submitted::default(),
        &Problems::default(),
        StatusCode::OK,
    )
}

fn render(
    viewer: &Viewer,
    kind: FormKind,
    submitted: &Submitted,
    problems: &Problems,
    status: StatusCode,
) -> Response {
    let body = create_form::page(viewer, kind, submitted, problems);
    (
        status,
        Html(layout::page("New campaign", viewer, body).into_string()),
    )
        .into_response()
}

/// Creates the campaign the form describes, or sends the form back with
/// what is wrong beside each field.
pub(super) async fn submit(
    State(web): State<Web>,
    viewer: Viewer,
    Operator(session): Operator,
    multipart: Multipart,
) -> Result<Response, WebError> {
    let limit = web.coordinator.artifacts().limit();
    let mut submitted = read_form(multipart, limit).await?;
    session.check_csrf(submitted.field("csrf"))?;
    let kind = FormKind::named(submitted.field("form"));
    if let Some(field) = submitted.oversized.clone() {
        let mut problems = Problems::default();
        problems.add(
            &field,
            format!("the file is over the coordinator's artifact limit of {limit} bytes"),
        );
        // A browser cannot be given a file to post again.
        submitted.files.clear();
        return Ok(render(
            &viewer,
            kind,
            &submitted,
            &problems,
            StatusCode::PAYLOAD_TOO_LARGE,
        ));
    }
    let file = match create_form::campaign_file(kind, &submitted) {
        Ok(file) => file,
        Err(problems) => {
            return Ok(render(
                &viewer,
                kind,
                &submitted,
                &problems,
                StatusCode::UNPROCESSABLE_ENTITY,
            ));
        }
    };
    let c = Arc::clone(&web.coordinator);
    let by = session.label.clone();
    let engines = submitted.take_engines();
    let created = blocking(move || {
        let shipped = store_uploads(c.artifacts(), &engines)?;
        Ok(c.create_campaign_as(&by, &file, &[], &shipped))
    })
    .await?;
    match created {
        Ok(views) => {
            let first = views
                .first()
                .map_or(String::new(), |v| v.id.as_str().to_owned());
            tracing::info!(campaign = %first, by = %session.label, "campaign created from the web UI");
            web.snapshots.list.forget(&());
            Ok(Redirect::to(&format!("/campaigns/{first}")).into_response())
        }
        Err(CoordinatorError::Campaign(CampaignError::File(error))) => {
            let problems = Problems::from_config(kind, &error);
            Ok(render(
                &viewer,
                kind,
                &submitted,
                &problems,
                StatusCode::UNPROCESSABLE_ENTITY,
            ))
        }
        Err(CoordinatorError::Campaign(CampaignError::Exists(id))) => {
            let mut problems = Problems::default();
            problems.add(
                kind.name_field(),
                format!("a campaign named '{id}' exists: choose another name"),
            );
            Ok(render(
                &viewer,
                kind,
                &submitted,
                &problems,
                StatusCode::CONFLICT,
            ))
        }
        Err(e) => Err(e.into()),
    }
}

/// Reads a multipart form: text fields (at most [`MAX_FIELD`] bytes each)
/// and files (at most `limit` bytes each; the first larger one is named
/// and the rest of the form still read).
async fn read_form(mut multipart: Multipart, limit: u64) -> Result<Submitted, WebError> {
    let mut submitted = Submitted::default();
    while let Some(field) = multipart
        .next_field()
        .await
        .map_err(|e| WebError::BadRequest(format!("the form: {e}")))?
    {
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field.file_name().map(str::to_owned);
        let cap = if file_name.is_some() {
            limit
        } else {
            MAX_FIELD as u64
        };
        match (read_field(field, cap).await?, file_name) {
            (None, _) => submitted.oversized = Some(name),
            (Some(bytes), Some(file_name)) if !bytes.is_empty() => {
                submitted.files.insert(name, (file_name, bytes));
            }
            (Some(_), Some(_)) => {}
            (Some(bytes), None) => {
                let text = String::from_utf8(bytes)
                    .map_err(|_| WebError::BadRequest(format!("{name}: not UTF-8 text")))?;
                submitted.fields.insert(name, text);
            }
        }
    }
    Ok(submitted)
}

/// A field's bytes, or `None` past `cap` (the rest is read and dropped).
async fn read_field(mut field: Field<'_>, cap: u64) -> Result<Option<Vec<u8>>, WebError> {
    let name = field.name().unwrap_or_default().to_owned();
    let mut bytes = Vec::new();
    let mut over = false;
    while let Some(chunk) = field
        .chunk()
        .await
        .map_err(|e| WebError::BadRequest(format!("{name}: {e}")))?
    {
        if over || (bytes.len() + chunk.len()) as u64 > cap {
            over = true;
            bytes.clear();
            continue;
        }
        bytes.extend_from_slice(&chunk);
    }
    Ok((!over).then_some(bytes))
}

/// Stores each uploaded engine as an artifact: the shipped files the
/// campaign's players name (`players[i].path`), as the CLI ships them.
fn store_uploads(
    store: &ArtifactStore,
    engines: &[(usize, String, Vec<u8>)],
) -> Result<Vec<Input>, WebError> {
    engines
        .iter()
        .map(|(i, path, bytes)| {
            let hash = store
                .put_bytes(bytes)
                .map_err(|e| WebError::Internal(format!("storing the engine: {e}")))?;
            Ok(Input {
                key: format!("players[{i}].path"),
                path: path.clone(),
                sha256: hash.to_string(),
            })
        })
        .collect()
}
