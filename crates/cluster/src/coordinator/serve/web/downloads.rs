//! `/campaigns/NAME/files/FILE`: a campaign's products to download: its
//! games (one Parquet file per counted unit, and `games.pgn` once it is
//! over), an SPSA tune's final values and trajectory, the campaign file
//! as given (`campaign.toml`) and its results (`results.json`). Only a
//! file the campaign's directory lists by that very name is served.

use super::Web;
use super::campaign::{campaign_id, result_block};
use super::error::{WebError, blocking};
use crate::coordinator::Coordinator;
use crate::ids::CampaignId;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use maud::{Markup, html};
use std::sync::Arc;

/// The campaign file as given.
const CAMPAIGN_FILE: &str = "campaign.toml";
/// The results, as JSON.
const RESULTS_FILE: &str = "results.json";

/// The files of campaign `id`'s directory, sorted (none if it cannot be
/// read).
pub(super) fn listing(c: &Coordinator, id: &CampaignId) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(c.campaign_dir(id))
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| e.file_name().into_string().ok())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// The download links: the campaign file and results first, then the
/// directory's files (units' games files, and a datagen campaign's
/// positions files, each folded under one line).
pub(super) fn links(id: &CampaignId, files: &[String]) -> Markup {
    let href = |f: &str| format!("/campaigns/{}/files/{f}", id.as_str());
    let per_unit = |prefix: &str| {
        files
            .iter()
            .filter(|f| f.starts_with(prefix) && f.ends_with(".parquet"))
            .collect::<Vec<_>>()
    };
    let (units, positions) = (
        per_unit("unit-"),
        per_unit(ajaxlab_store::positions::PREFIX),
    );
    let folded = [
        (
            units.as_slice(),
            "games files (Parquet, one per counted unit)",
        ),
        (
            positions.as_slice(),
            "training positions files (Parquet, one row per position, one file per counted unit)",
        ),
    ];
    let others = files
        .iter()
        .filter(|f| !units.contains(f) && !positions.contains(f));
    html! {
        ul.downloads {
            li { a href=(href(CAMPAIGN_FILE)) download { (CAMPAIGN_FILE) } " — the campaign file as given" }
            li { a href=(href(RESULTS_FILE)) download { (RESULTS_FILE) } " — the results" }
            @for f in others { li { a href=(href(f)) download { (f) } } }
            @for (list, what) in folded {
                @if !list.is_empty() {
                    li {
                        details {
                            summary { (list.len()) " " (what) }
                            ul { @for f in list { li { a href=(href(f)) download { (f) } } } }
                        }
                    }
                }
            }
        }
    }
}

/// One file of a campaign.
pub(super) async fn file(
    State(web): State<Web>,
    Path((id, name)): Path<(String, String)>,
) -> Result<Response, WebError> {
    let id = campaign_id(&id)?;
    let c = Arc::clone(&web.coordinator);
    let (bytes, kind) = blocking(move || -> Result<(Vec<u8>, &'static str), WebError> {
        match name.as_str() {
            CAMPAIGN_FILE => Ok((c.campaign_file(&id)?.into_bytes(), "text/plain; charset=utf-8")),
            RESULTS_FILE => {
                let view = c.campaign(&id)?;
                let json = serde_json::json!({
                    "campaign": view.id.as_str(),
                    "kind": view.kind.as_str(),
                    "state": view.state.as_str(),
                    "pairs_total": view.pairs_total,
                    "pairs_done": view.pairs_done,
                    "pentanomial": view.pentanomial.0,
                    "white": [view.white.wins, view.white.draws, view.white.losses],
                    "spsa": view.spsa.iter().map(|p| (p.name.clone(), p.value)).collect::<std::collections::BTreeMap<_, _>>(),
                    "summary": result_block(&view),
                });
                Ok((json.to_string().into_bytes(), "application/json"))
            }
            _ if listing(&c, &id).contains(&name) => {
                let path = c.campaign_dir(&id).join(&name);
                let bytes = std::fs::read(&path)
                    .map_err(|e| WebError::Internal(format!("{}: {e}", path.display())))?;
                Ok((bytes, content_type(&name)))
            }
            _ => Err(WebError::NotFound(format!(
                "campaign '{id}' has no file '{name}'"
            ))),
        }
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, kind)], bytes).into_response())
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit_once('.').map(|(_, ext)| ext) {
        Some("pgn" | "toml" | "spsa" | "ini" | "txt" | "csv") => "text/plain; charset=utf-8",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    }
}
