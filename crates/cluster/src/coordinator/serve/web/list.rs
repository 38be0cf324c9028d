//! `/`: every campaign in a table (state, kind, variant, players, time
//! control, games, Elo ± and LLR with its bounds), newest first, filtered
//! by state, kind and variant and searched by name or player; its rows
//! live (`/fragments/campaigns` with the same query).

use super::Web;
use super::error::WebError;
use super::layout::{self, Viewer, state_badge, urlencode};
use super::reading::{live_part, reading};
use crate::coordinator::{CampaignState, CampaignView, Coordinator};
use ajaxlab_stats::llr_text;
use ajaxlab_store::RunKind;
use axum::extract::{Query, State};
use axum::response::Html;
use maud::{Markup, html};

/// What the list is narrowed to; an empty field matches everything.
#[derive(Clone, Debug, Default, serde::Deserialize)]
pub(super) struct Filter {
    #[serde(default)]
    state: String,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    variant: String,
    /// Text found in the name or a player's name.
    #[serde(default)]
    q: String,
}

impl Filter {
    fn query(&self) -> String {
        [
            ("state", &self.state),
            ("kind", &self.kind),
            ("variant", &self.variant),
            ("q", &self.q),
        ]
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| format!("{k}={}", urlencode(v)))
        .collect::<Vec<_>>()
        .join("&")
    }

    fn admits(&self, row: &Summary) -> bool {
        let q = self.q.trim().to_lowercase();
        (self.state.is_empty() || row.view.state.as_str() == self.state)
            && (self.kind.is_empty() || row.view.kind.as_str() == self.kind)
            && (self.variant.is_empty() || row.variant == self.variant)
            && (q.is_empty()
                || row.view.id.as_str().to_lowercase().contains(&q)
                || row.players.iter().any(|p| p.to_lowercase().contains(&q)))
    }
}

/// A campaign as its row shows it.
pub(super) struct Summary {
    pub(super) view: CampaignView,
    /// Its variant's name (empty if it could not be rebuilt).
    pub(super) variant: String,
    /// Its players' names.
    pub(super) players: Vec<String>,
    /// Its time control(s).
    pub(super) tc: String,
}

/// Every campaign, newest first.
fn summaries(c: &Coordinator) -> Result<Vec<Summary>, WebError> {
    let mut rows: Vec<Summary> = c
        .campaigns()?
        .into_iter()
        .map(|view| match c.match_summary(&view.id) {
            Some(m) => Summary {
                view,
                variant: m.variant,
                players: m.players.to_vec(),
                tc: m.tc,
            },
            None => Summary {
                view,
                variant: String::new(),
                players: Vec::new(),
                tc: String::new(),
            },
        })
        .collect();
    rows.reverse();
    Ok(rows)
}

/// The campaigns page.
pub(super) async fn page(
    State(web): State<Web>,
    viewer: Viewer,
    Query(filter): Query<Filter>,
) -> Result<Html<String>, WebError> {
    let rows = read(&web).await?;
    let mut variants: Vec<String> = rows.iter().map(|r| r.variant.clone()).collect();
    variants.sort();
    variants.dedup();
    variants.retain(|v| !v.is_empty());
    let body = html! {
        h1 { "Campaigns" }
        (filters(&filter, &variants))
        div #campaigns data-live={ "/fragments/campaigns?" (filter.query()) } {
            (table(&rows, &filter))
        }
    };
    Ok(Html(layout::page("Campaigns", &viewer, body).into_string()))
}

/// The table alone, for live updates.
pub(super) async fn fragment(
    State(web): State<Web>,
    Query(filter): Query<Filter>,
) -> Result<Html<axum::body::Bytes>, WebError> {
    Ok(Html(part(web, filter).await?))
}

/// The table as `filter` narrows it, rendered at most a second ago.
pub(super) async fn part(web: Web, filter: Filter) -> Result<axum::body::Bytes, WebError> {
    let key = (format!("list {}", filter.query()), None);
    live_part(web, key, move |web| Ok(table(&read_now(web)?, &filter))).await
}

/// Every campaign's line, as read at most a second ago (it blocks).
fn read_now(web: &Web) -> Result<std::sync::Arc<Vec<Summary>>, WebError> {
    web.snapshots.list.get(&(), || summaries(&web.coordinator))
}

async fn read(web: &Web) -> Result<std::sync::Arc<Vec<Summary>>, WebError> {
    let web = web.clone();
    reading(move || read_now(&web)).await
}

fn filters(filter: &Filter, variants: &[String]) -> Markup {
    let states: Vec<&str> = CampaignState::ALL.iter().map(|s| s.as_str()).collect();
    let kinds: Vec<&str> = RunKind::ALL.iter().map(|k| k.as_str()).collect();
    let variants: Vec<&str> = variants.iter().map(String::as_str).collect();
    html! {
        form.filters method="get" action="/" {
            (choice("state", "State", &states, &filter.state))
            (choice("kind", "Kind", &kinds, &filter.kind))
            (choice("variant", "Variant", &variants, &filter.variant))
            label { "Search" br; input type="search" name="q" value=(filter.q) placeholder="name or player"; }
            button.secondary type="submit" { "Filter" }
            a href="/" { "clear" }
        }
    }
}

fn choice(name: &str, label: &str, options: &[&str], chosen: &str) -> Markup {
    html! {
        label { (label) br;
            select name=(name) {
                option value="" { "any" }
                @for option in options {
                    option value=(option) selected[*option == chosen] { (option) }
                }
            }
        }
    }
}

fn table(rows: &[Summary], filter: &Filter) -> Markup {
    let shown: Vec<&Summary> = rows.iter().filter(|r| filter.admits(r)).collect();
    html! {
        p.muted { (shown.len()) " of " (rows.len()) " campaigns" }
        table.campaigns {
            thead { tr {
                th { "campaign" } th { "state" } th { "kind" } th { "variant" } th { "players" }
                th { "tc" } th.num { "games" } th { "progress" } th.num { "Elo (95%)" } th { "LLR (bounds)" }
            } }
            tbody {
                @for row in shown { (table_row(row)) }
            }
        }
    }
}

fn table_row(row: &Summary) -> Markup {
    let v = &row.view;
    html! {
        tr data-campaign=(v.id.as_str()) {
            td { a href={ "/campaigns/" (v.id.as_str()) } { (v.id.as_str()) } }
            td { (state_badge(v.state)) }
            td { (v.kind.as_str()) }
            td { (row.variant) }
            td { (row.players.join(" vs ")) }
            td { (row.tc) }
            td.num.games { (v.pentanomial.games()) " / " (v.pairs_total * 2) }
            td { progress max=(v.pairs_total) value=(v.pairs_done) {} }
            td.num { (elo_text(v)) }
            td.llr { @if let Some(s) = &v.sprt { (llr_text(s.llr, s.bounds)) } }
        }
    }
}

/// Elo ± its 95% half-width, or `n/a` before it can be estimated.
pub(super) fn elo_text(view: &CampaignView) -> String {
    view.pentanomial.elo().map_or("n/a".into(), |e| {
        format!("{:+.1} ± {:.1}", e.elo, e.interval.half_width())
    })
}
