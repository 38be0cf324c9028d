//! The machine-readable views: `/api/campaigns` (JSON, one object per
//! campaign) and `/metrics` (Prometheus's text format).

use super::Web;
use crate::coordinator::CampaignView;
use crate::coordinator::sprt_text::{short_verdict, sprt_state};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::Ordering;

fn failure(e: impl std::fmt::Display) -> Response {
    (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response()
}

/// A label value as Prometheus's text format quotes it.
fn label(text: &str) -> String {
    text.replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('\n', "\\n")
}

pub(super) async fn campaigns_json(State(web): State<Web>) -> Response {
    let c = web.coordinator;
    match tokio::task::spawn_blocking(move || c.campaigns()).await {
        Ok(Ok(views)) => {
            let list: Vec<serde_json::Value> = views
                .iter()
                .map(|v| {
                    let e = v.pentanomial.elo().ok();
                    serde_json::json!({
                        "id": v.id.as_str(), "state": v.state.as_str(), "priority": v.priority,
                        "pairs_total": v.pairs_total, "pairs_done": v.pairs_done,
                        "pentanomial": v.pentanomial.0,
                        "elo": e.map(|e| e.elo), "elo_ci95": e.map(|e| [e.interval.low, e.interval.high]),
                        "kind": v.kind.as_str(), "white_score": v.white_score(),
                        "wdl": v.first.map(|f| [f.wins, f.draws, f.losses]),
                        "llr": v.sprt.as_ref().map(|s| s.llr),
                        "llr_bounds": v.sprt.as_ref().map(|s| [s.bounds.lower, s.bounds.upper]),
                        "verdict": v.sprt.as_ref().map(|s| short_verdict(s.verdict)),
                        "pairs_at_verdict": v.sprt.as_ref().map(|s| s.pairs_at_verdict),
                        "sprt_state": v.sprt_standing().map(sprt_state),
                        "elo0": v.sprt.as_ref().map(|s| s.config.elo0),
                        "elo1": v.sprt.as_ref().map(|s| s.config.elo1),
                        "elo_model": v.sprt.as_ref().map(|s| s.config.model.as_str()),
                        "spsa": v.spsa.iter().map(|p| (p.name.clone(), p.value)).collect::<std::collections::BTreeMap<_, _>>(),
                    })
                })
                .collect();
            (
                [(header::CONTENT_TYPE, "application/json")],
                serde_json::Value::Array(list).to_string(),
            )
                .into_response()
        }
        Ok(Err(e)) => failure(e),
        Err(e) => failure(e),
    }
}

/// A per-campaign gauge: name, help text, value.
type Gauge = (&'static str, &'static str, fn(&CampaignView) -> u64);

pub(super) async fn metrics(State(web): State<Web>) -> Response {
    let c = web.coordinator;
    let counters = &c.counters;
    let mut out = String::new();
    for (name, help, value) in [
        (
            "ajaxlab_units_accepted_total",
            "Units validated, stored and counted.",
            &counters.accepted,
        ),
        (
            "ajaxlab_units_rejected_total",
            "Units refused by validation.",
            &counters.rejected,
        ),
        (
            "ajaxlab_units_duplicate_total",
            "Submissions of units already counted (dropped).",
            &counters.duplicate,
        ),
        (
            "ajaxlab_units_stale_total",
            "Submissions under a lease that had moved on (dropped).",
            &counters.stale,
        ),
        (
            "ajaxlab_leases_expired_total",
            "Leases that expired and went back to the pool.",
            &counters.expired,
        ),
        (
            "ajaxlab_units_leased_total",
            "Units leased.",
            &counters.leased,
        ),
        (
            "ajaxlab_games_stored_total",
            "Games stored.",
            &counters.games,
        ),
        (
            "ajaxlab_positions_written_total",
            "Training positions written by datagen campaigns.",
            &counters.positions,
        ),
    ] {
        let _ = writeln!(
            out,
            "# HELP {name} {help}\n# TYPE {name} counter\n{name} {}",
            value.load(Ordering::Relaxed)
        );
    }
    let c2 = Arc::clone(&c);
    let state = tokio::task::spawn_blocking(move || {
        Ok::<_, crate::coordinator::CoordinatorError>((
            c2.workers()?.len(),
            c2.unit_states()?,
            c2.campaigns()?,
        ))
    })
    .await;
    let Ok(Ok((workers, units, campaigns))) = state else {
        return failure("state unavailable");
    };
    let _ = writeln!(
        out,
        "# HELP ajaxlab_workers_registered Workers registered.\n# TYPE ajaxlab_workers_registered gauge\najaxlab_workers_registered {workers}"
    );
    let _ = writeln!(
        out,
        "# HELP ajaxlab_units Units by state.\n# TYPE ajaxlab_units gauge"
    );
    for u in units {
        let _ = writeln!(out, "ajaxlab_units{{state=\"{}\"}} {}", u.state, u.units);
    }
    let gauges: [Gauge; 2] = [
        (
            "ajaxlab_campaign_pairs_done",
            "Pairs counted per campaign.",
            |v| v.pairs_done,
        ),
        (
            "ajaxlab_campaign_pairs_total",
            "Pairs to play per campaign.",
            |v| v.pairs_total,
        ),
    ];
    for (name, help, value) in gauges {
        let _ = writeln!(out, "# HELP {name} {help}\n# TYPE {name} gauge");
        for v in &campaigns {
            let _ = writeln!(
                out,
                "{name}{{campaign=\"{}\"}} {}",
                label(v.id.as_str()),
                value(v)
            );
        }
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], out).into_response()
}
