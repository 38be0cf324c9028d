//! `/campaigns/NAME`: one campaign. Its live part (`/fragments/campaigns/
//! NAME`): progress with its pace and time left, the results (pentanomial,
//! Elo and nElo with intervals, LOS) with a block to copy into a commit or
//! PR, its charts and what its kind adds, and the games per worker with
//! the residual check. Its fixed part: the match (variant, time control,
//! players and their options, openings), who created it and when, the
//! operator's actions, the files to download and the campaign file.

use super::Web;
use super::error::WebError;
use super::kinds;
use super::layout::{self, Viewer, csrf_field, state_badge, utc};
use super::list::elo_text;
use super::reading::reading;
use crate::campaign::CampaignSpec;
use crate::coordinator::outliers::WorkerStanding;
use crate::coordinator::{CampaignView, Coordinator, EngineFailure};
use crate::ids::{CampaignId, WorkerId};
use ajaxlab_stats::Pentanomial;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::response::Html;
use maud::{Markup, html};
use std::sync::Arc;

/// What a campaign's page shows, read in one go off the async threads.
pub(super) struct Details {
    pub(super) view: CampaignView,
    pub(super) spec: Option<CampaignSpec>,
    pub(super) file: String,
    pub(super) history: Vec<Pentanomial>,
    pub(super) pace: Option<f64>,
    pub(super) standings: Vec<WorkerStanding>,
    pub(super) excluded: Vec<WorkerId>,
    pub(super) failures: Vec<EngineFailure>,
    /// The names workers gave, by id.
    pub(super) names: std::collections::HashMap<WorkerId, String>,
    pub(super) kind: kinds::KindDetails,
    pub(super) files: Vec<String>,
}

/// The id in a path, or 404.
pub(super) fn campaign_id(text: &str) -> Result<CampaignId, WebError> {
    text.parse()
        .map_err(|_| WebError::NotFound(format!("no campaign '{text}'")))
}

fn details(c: &Coordinator, id: &CampaignId) -> Result<Details, WebError> {
    let view = c.campaign(id)?;
    let spec = c.campaign_spec(id);
    Ok(Details {
        file: c.campaign_file(id)?,
        history: c.history(id)?,
        pace: c.pairs_per_minute(id)?,
        standings: c.standings(id)?,
        excluded: c.excluded_workers(id)?,
        failures: c.engine_failures(id)?,
        names: c.worker_names(id)?,
        kind: kinds::KindDetails::read(c, &view, spec.as_ref())?,
        files: super::downloads::listing(c, id),
        view,
        spec,
    })
}

/// Campaign `id`'s page as read at most a second ago (it blocks).
fn read_now(web: &Web, id: &CampaignId) -> Result<Arc<Details>, WebError> {
    web.snapshots
        .campaigns
        .get(id, || details(&web.coordinator, id))
}

async fn read(web: &Web, id: &str) -> Result<Arc<Details>, WebError> {
    let (web, id) = (web.clone(), campaign_id(id)?);
    reading(move || read_now(&web, &id)).await
}

/// The campaign's page.
pub(super) async fn page(
    State(web): State<Web>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Html<String>, WebError> {
    let d = read(&web, &id).await?;
    let name = d.view.id.as_str();
    let body = html! {
        h1 { (name) " " (state_badge(d.view.state)) }
        p.muted {
            (d.view.kind.as_str()) " campaign, created " (utc(d.view.created_ms))
            @if !d.view.created_by.is_empty() { " by " (d.view.created_by) }
            ", priority " (d.view.priority)
        }
        (actions(&viewer, &d.view))
        @if !d.view.state.is_over() {
            p { button #notify.secondary type="button" { "Notify me when it ends" } }
        }
        div #live data-live={ "/fragments/campaigns/" (name) } { (live(&viewer, &d)) }
        h2 { "Workers" }
        div #workers data-live={ "/fragments/campaigns/" (name) "/workers" } {
            (workers(&viewer, &d))
        }
        h2 { "The match" }
        (match_facts(&d))
        h2 { "Files" }
        (super::downloads::links(&d.view.id, &d.files))
        h2 { "The campaign file" }
        pre.campaign-file { (d.file) }
    };
    Ok(Html(layout::page(name, &viewer, body).into_string()))
}

/// The live part alone.
pub(super) async fn fragment(
    State(web): State<Web>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Html<Bytes>, WebError> {
    Ok(Html(live_part(web, viewer, campaign_id(&id)?).await?))
}

/// The games per worker alone: a live part of its own, sent less often
/// (a cluster's table is long).
pub(super) async fn workers_fragment(
    State(web): State<Web>,
    viewer: Viewer,
    Path(id): Path<String>,
) -> Result<Html<Bytes>, WebError> {
    Ok(Html(workers_part(web, viewer, campaign_id(&id)?).await?))
}

/// Campaign `id`'s progress and results as `viewer` sees them.
pub(super) async fn live_part(web: Web, viewer: Viewer, id: CampaignId) -> Result<Bytes, WebError> {
    cached_part(web, viewer, id, "live", live).await
}

/// Campaign `id`'s games per worker as `viewer` sees them.
pub(super) async fn workers_part(
    web: Web,
    viewer: Viewer,
    id: CampaignId,
) -> Result<Bytes, WebError> {
    cached_part(web, viewer, id, "workers", workers).await
}

/// Part `part` of campaign `id`'s page as `viewer` sees it, rendered at
/// most a second ago.
async fn cached_part(
    web: Web,
    viewer: Viewer,
    id: CampaignId,
    part: &'static str,
    render: fn(&Viewer, &Details) -> Markup,
) -> Result<Bytes, WebError> {
    let key = (format!("campaign {id} {part}"), viewer.csrf());
    super::reading::live_part(web, key, move |web| {
        Ok(render(&viewer, &*read_now(web, &id)?))
    })
    .await
}

/// Pause, resume, stop and the priority, for a signed-in operator.
fn actions(viewer: &Viewer, view: &CampaignView) -> Markup {
    let Some(session) = viewer.session() else {
        return html! { p.muted { a href="/sign-in" { "Sign in" } " to pause, resume, stop or reprioritise it." } };
    };
    if view.state.is_over() {
        return html! {};
    }
    let to = |action: &str| format!("/campaigns/{}/{action}", view.id.as_str());
    html! {
        div.actions {
            @for (action, label, class) in [("pause", "Pause", "secondary"), ("resume", "Resume", "secondary"), ("stop", "Stop", "danger")] {
                form.inline method="post" action=(to("state"))
                    data-confirm=[(action == "stop").then_some("Stop this campaign for good?")] {
                    (csrf_field(session))
                    input type="hidden" name="action" value=(action);
                    button class=(class) type="submit" name="do" value=(action) #{ "do-" (action) } { (label) }
                }
            }
            form.inline method="post" action=(to("priority")) {
                (csrf_field(session))
                label.inline for="priority" { "priority " }
                input #priority type="number" name="priority" min="1" max="1000" value=(view.priority) style="width:5em";
                button.secondary type="submit" { "Set" }
            }
        }
    }
}

/// Everything that moves while the campaign runs, but the workers.
fn live(_viewer: &Viewer, d: &Details) -> Markup {
    let v = &d.view;
    html! {
        (progress(d))
        (kinds::verdict(v))
        h2 { "Results" }
        (results(v))
        div.charts {
            (super::charts::elo_chart(&d.history))
            @if let Some(sprt) = &v.sprt { (super::charts::llr_chart(&d.history, sprt)) }
        }
        (kinds::section(d))
    }
}

fn progress(d: &Details) -> Markup {
    let v = &d.view;
    let left = v.pairs_total.saturating_sub(v.pairs_done);
    let eta = d
        .pace
        .filter(|p| *p > 0.0 && !v.state.is_over() && left > 0)
        .map(|p| layout::span((left as f64 / p * 60.0) as i64));
    html! {
        p.progress data-state=(v.state.as_str()) data-over=(v.state.is_over()) data-summary=(summary(v)) {
            progress max=(v.pairs_total) value=(v.pairs_done) {}
            " " span #games { (v.pentanomial.games()) } " of " (v.pairs_total * 2) " games"
            @if let Some(p) = d.pace { " · " (format!("{:.0}", p * 2.0)) " games a minute" }
            @if let Some(eta) = eta {
                " · " (eta) " left"
                @if v.sprt.is_some() { " at most (an SPRT may stop sooner)" }
            }
        }
    }
}

/// What a notification of the campaign's end says: its name and state,
/// an SPRT's verdict, and the Elo.
fn summary(v: &CampaignView) -> String {
    let verdict = v
        .sprt_standing()
        .map(|s| format!(": {}", crate::coordinator::sprt_text::sprt_state(s)))
        .unwrap_or_default();
    format!(
        "{} {}{verdict} · Elo {}",
        v.id.as_str(),
        v.state.as_str(),
        elo_text(v)
    )
}

fn results(v: &CampaignView) -> Markup {
    let p = v.pentanomial;
    let elo = p.elo().ok();
    let nelo = p.nelo().ok();
    html! {
        dl.facts {
            dt { "Elo (95%)" } dd #elo { (elo_text(v)) }
            dt { "nElo (95%)" } dd { @if let Some(n) = nelo { (format!("{:+.1} ± {:.1}", n.nelo, n.interval.half_width())) } @else { "n/a" } }
            dt { "LOS" } dd { @if let Some(e) = elo { (format!("{:.1}%", e.los * 100.0)) } @else { "n/a" } }
            dt { "Games (first player)" } dd #wdl { @if let Some(f) = v.first { "W " (f.wins) " D " (f.draws) " L " (f.losses) } @else { (p.games()) " (W/D/L counted before it was kept: n/a)" } }
            dt { "Pentanomial (0–2)" } dd { (p.0.map(|n| n.to_string()).join(", ")) }
            dt { "White's score" } dd { @if let Some(s) = v.white_score() { (format!("{:.1}%", s * 100.0)) " (W " (v.white.wins) " D " (v.white.draws) " L " (v.white.losses) ")" } @else { "n/a" } }
        }
        div.copy {
            pre #result-block { (result_block(v)) }
            button.secondary type="button" data-copy="result-block" { "Copy" }
        }
    }
}

/// The results as Fishtest prints them, for a commit message or a PR.
pub(super) fn result_block(v: &CampaignView) -> String {
    let p = v.pentanomial;
    let mut lines = Vec::new();
    if let (Some(s), Some(standing)) = (&v.sprt, v.sprt_standing()) {
        lines.push(format!(
            "LLR: {:.2} ({:.2},{:.2}) <{:.2},{:.2}> {}",
            s.llr,
            s.bounds.lower,
            s.bounds.upper,
            s.config.elo0,
            s.config.elo1,
            s.config.model.as_str()
        ));
        lines.push(crate::coordinator::sprt_text::sprt_state(standing));
    }
    if let Ok(e) = p.elo() {
        lines.push(format!(
            "Elo: {:+.2} ± {:.2} (95%) LOS: {:.1}%",
            e.elo,
            e.interval.half_width(),
            e.los * 100.0
        ));
    }
    if let Ok(n) = p.nelo() {
        lines.push(format!(
            "nElo: {:+.2} ± {:.2} (95%)",
            n.nelo,
            n.interval.half_width()
        ));
    }
    lines.push(match v.first {
        Some(f) => format!(
            "Total: {} W: {} L: {} D: {}",
            p.games(),
            f.wins,
            f.losses,
            f.draws
        ),
        None => format!("Total: {} games, {} pairs", p.games(), p.pairs()),
    });
    lines.push(format!(
        "Ptnml(0-2): {}",
        p.0.map(|n| n.to_string()).join(", ")
    ));
    lines.push(format!("ajaxlab campaign {}", v.id.as_str()));
    lines.join("\n")
}

fn workers(viewer: &Viewer, d: &Details) -> Markup {
    let session = viewer.session();
    let can_exclude = session.is_some() && d.view.kind != ajaxlab_store::RunKind::Spsa;
    let to = format!("/campaigns/{}/workers", d.view.id.as_str());
    html! {
        p.muted { "Games per worker, with Fishtest's residual check: a worker whose results lie out of line with the others' (|z| past the bound for their number) is flagged." }
        table.standings {
            thead { tr { th { "worker" } th { "name" } th.num { "pairs" } th { "pentanomial" } th.num { "z" } th { "" } @if can_exclude { th { "" } } } }
            tbody {
                @for s in &d.standings {
                    tr {
                        td { code { (s.worker.as_str()) } }
                        td { (d.names.get(&s.worker).map_or("", String::as_str)) }
                        td.num { (s.pentanomial.pairs()) }
                        td { (s.pentanomial.0.map(|n| n.to_string()).join(" ")) }
                        td.num { (format!("{:+.2}", s.z)) }
                        td.flag { @if s.flagged { "out of line" } }
                        @if let (true, Some(session)) = (can_exclude, session) {
                            td { form.inline method="post" action=(to) data-confirm="Count this worker's games out, and give it no more units of this campaign?" {
                                (csrf_field(session))
                                input type="hidden" name="worker" value=(s.worker.as_str());
                                button.danger type="submit" name="action" value="exclude" { "Exclude" }
                            } }
                        }
                    }
                }
            }
        }
        @if !d.excluded.is_empty() {
            p { "Excluded (their games counted out): " }
            ul { @for w in &d.excluded {
                li { (w.as_str())
                    @if let Some(session) = session {
                        " " form.inline method="post" action=(to) {
                            (csrf_field(session))
                            input type="hidden" name="worker" value=(w.as_str());
                            button.secondary type="submit" name="action" value="readmit" { "Re-admit" }
                        }
                    }
                }
            } }
        }
        @for f in &d.failures {
            p.flag.engine-failure { "worker " (f.worker.as_str()) " cannot start an engine: " (f.reason) " (it gets no more units of this campaign)" }
        }
    }
}

/// The match as validated: variant, time control, openings, players.
fn match_facts(d: &Details) -> Markup {
    let Some(spec) = &d.spec else {
        return html! { p.muted { "This campaign could not be rebuilt at start-up; its file is below." } };
    };
    let config = &spec.config;
    html! {
        dl.facts {
            dt { "variant" } dd { (config.variant.name()) }
            dt { "games" } dd { (config.pairs * 2) " (" (config.pairs) " pairs, each opening played with both colours)" }
            dt { "openings" } dd { (kinds::openings_text(&config.openings)) }
            dt { "seed" } dd { (config.seed) }
            dt { "adjudication" } dd { (kinds::adjudication_text(&config.adjudication)) }
        }
        div.players {
            @for (i, player) in config.players.iter().enumerate() {
                section.card {
                    h3 { @if i == 0 { "First player: " } @else { "Second player: " } (player.name) }
                    dl.facts {
                        dt { "time control" } dd { (player.tc.to_string()) }
                        dt { "engine" } dd { (kinds::engine_text(&player.kind, spec.installed[i])) }
                    }
                    (kinds::player_options(&d.file, i))
                }
            }
        }
    }
}
