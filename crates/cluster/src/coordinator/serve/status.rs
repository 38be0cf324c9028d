//! The coordinator's HTTP side: a status page (campaigns, progress, Elo ±
//! interval with an Elo-against-games plot as SVG, workers with outlier
//! flags), a JSON view of the campaigns, and Prometheus metrics.

use crate::coordinator::serve::connections::ConnectionLimits;
use crate::coordinator::sprt_text::{short_verdict, sprt_state};
use crate::coordinator::{CampaignView, Coordinator, SpsaStep};
use ajaxlab_plot::{Band, Chart, GREY, HLine, Line, PALETTE};
use ajaxlab_stats::{hypotheses_text, llr_text};
use axum::Router;
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use std::fmt::Write as _;
use std::sync::Arc;
use std::sync::atomic::Ordering;

/// The HTTP routes: `/` (status page), `/api/campaigns` (JSON), `/metrics`.
pub fn router(coordinator: Arc<Coordinator>) -> Router {
    Router::new()
        .route("/", get(page))
        .route("/api/campaigns", get(campaigns_json))
        .route("/metrics", get(metrics))
        .with_state(coordinator)
}

/// Serves the routes on `listener` under `limits` until `shutdown` completes.
///
/// # Errors
/// An I/O failure of the listener.
pub async fn serve_http(
    coordinator: Arc<Coordinator>,
    listener: tokio::net::TcpListener,
    limits: ConnectionLimits,
    shutdown: impl std::future::Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    crate::coordinator::serve::http::serve_router(router(coordinator), listener, limits, shutdown)
        .await
}

fn failure(e: impl std::fmt::Display) -> Response {
    (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()).into_response()
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

fn elo_text(view: &CampaignView) -> String {
    view.pentanomial.elo().map_or("n/a".into(), |e| {
        format!("{:+.1} ± {:.1}", e.elo, e.interval.half_width())
    })
}

/// An SVG line of Elo (with its 95% band) against games.
fn elo_plot(history: &[ajaxlab_stats::Pentanomial]) -> String {
    let points: Vec<(f64, f64, f64)> = history
        .iter()
        .filter_map(|p| {
            p.elo()
                .ok()
                .map(|e| (p.games() as f64, e.elo, e.interval.half_width()))
        })
        .collect();
    let bound = points
        .iter()
        .map(|p| p.1.abs() + p.2)
        .fold(10.0, f64::max)
        .min(800.0);
    line_plot("elo", "Elo", &points, (-bound, bound), "games")
}

/// An SVG line per tuned parameter against game pairs.
fn spsa_plots(names: &[String], history: &[SpsaStep]) -> String {
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let points: Vec<(f64, f64, f64)> = history
                .iter()
                .filter_map(|s| s.theta.get(i).map(|v| (s.completed_pairs as f64, *v, 0.0)))
                .collect();
            let lo = points.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            let hi = points.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
            let margin = ((hi - lo) * 0.1).max(1.0);
            line_plot("spsa", name, &points, (lo - margin, hi + margin), "pairs")
        })
        .collect()
}

/// An SVG chart of `(x, y, half-width)` points: the line, its shaded band,
/// the zero line when `range` spans it, the y axis spanning `range`.
fn line_plot(
    class: &str,
    label: &str,
    points: &[(f64, f64, f64)],
    (low, high): (f64, f64),
    x_unit: &str,
) -> String {
    if points.len() < 2 || high.partial_cmp(&low) != Some(std::cmp::Ordering::Greater) {
        return format!(
            "<svg class=\"{class}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"480\" height=\"160\"><text x=\"10\" y=\"20\">{}: not enough games yet</text></svg>",
            escape(label)
        );
    }
    let chart = Chart {
        title: label.to_owned(),
        x_desc: x_unit.to_owned(),
        bands: if points.iter().any(|p| p.2 > 0.0) {
            vec![Band {
                label: String::new(),
                color: PALETTE[0],
                points: points.iter().map(|p| (p.0, p.1 - p.2, p.1 + p.2)).collect(),
            }]
        } else {
            Vec::new()
        },
        lines: vec![Line {
            label: String::new(),
            color: PALETTE[0],
            points: points.iter().map(|p| (p.0, p.1)).collect(),
        }],
        hlines: if low < 0.0 && high > 0.0 {
            vec![HLine {
                label: String::new(),
                color: GREY,
                y: 0.0,
            }]
        } else {
            Vec::new()
        },
        y_range: Some(low..high),
        ..Chart::default()
    };
    ajaxlab_plot::svg(&chart, (480, 200), class).unwrap_or_else(|e| {
        format!(
            "<svg class=\"{class}\" xmlns=\"http://www.w3.org/2000/svg\" width=\"480\" height=\"160\"><text x=\"10\" y=\"20\">{}: {}</text></svg>",
            escape(label),
            escape(&e.to_string())
        )
    })
}

/// What a campaign's kind adds to its line: the SPRT, White's score, θ.
fn kind_text(view: &CampaignView) -> String {
    let mut out = String::new();
    if let (Some(s), Some(standing)) = (&view.sprt, view.sprt_standing()) {
        let _ = write!(
            out,
            ", {}, <span class=\"llr\">{}</span> <b class=\"verdict\">{}</b>",
            escape(&hypotheses_text(
                s.config.elo0,
                s.config.elo1,
                s.config.model
            )),
            escape(&llr_text(s.llr, s.bounds)),
            escape(&sprt_state(standing))
        );
    }
    if let Some(score) = view.white_score() {
        let _ = write!(out, ", White scores {:.1}%", score * 100.0);
    }
    out
}

async fn page(State(c): State<Arc<Coordinator>>) -> Response {
    let render = tokio::task::spawn_blocking(move || -> Result<String, crate::coordinator::CoordinatorError> {
        let mut html = String::from(
            "<!doctype html><html><head><meta charset=\"utf-8\"><title>ajaxlab coordinator</title>\
             <meta http-equiv=\"refresh\" content=\"10\"><style>body{font-family:sans-serif;margin:2em}\
             table{border-collapse:collapse}td,th{padding:4px 10px;border-bottom:1px solid #ddd;text-align:left}\
             .flag{color:#b00;font-weight:bold}</style></head><body><h1>ajaxlab coordinator</h1><h2>Campaigns</h2>",
        );
        for view in c.campaigns()? {
            let _ = write!(
                html,
                "<section class=\"campaign\" id=\"{id}\"><h3>{id}</h3><p>{kind}, state <b>{state}</b>, priority {prio}, \
                 <progress max=\"{total}\" value=\"{done}\"></progress> {done}/{total} pairs, \
                 pentanomial [{penta}], Elo <b class=\"elo-value\">{elo}</b> (95%){extra}</p>",
                kind = view.kind,
                extra = kind_text(&view),
                id = escape(view.id.as_str()),
                state = escape(view.state.as_str()),
                prio = view.priority,
                total = view.pairs_total,
                done = view.pairs_done,
                penta = view.pentanomial.0.map(|n| n.to_string()).join(" "),
                elo = elo_text(&view),
            );
            html.push_str(&elo_plot(&c.history(&view.id)?));
            if !view.spsa.is_empty() {
                html.push_str("<table class=\"spsa\"><tr><th>parameter</th><th>value</th></tr>");
                for p in &view.spsa {
                    let _ = write!(html, "<tr><td>{}</td><td>{:.1}</td></tr>", escape(&p.name), p.value);
                }
                html.push_str("</table>");
                let names: Vec<String> = view.spsa.iter().map(|p| p.name.clone()).collect();
                html.push_str(&spsa_plots(&names, &c.spsa_history(&view.id)?));
            }
            html.push_str("<table><tr><th>worker</th><th>pairs</th><th>pentanomial</th><th>z</th><th></th></tr>");
            for s in c.standings(&view.id)? {
                let _ = write!(
                    html,
                    "<tr><td>{}</td><td>{}</td><td>[{}]</td><td>{:+.2}</td><td class=\"flag\">{}</td></tr>",
                    escape(s.worker.as_str()),
                    s.pentanomial.pairs(),
                    s.pentanomial.0.map(|n| n.to_string()).join(" "),
                    s.z,
                    if s.flagged { "implausible" } else { "" }
                );
            }
            html.push_str("</table>");
            for f in c.engine_failures(&view.id)? {
                let _ = write!(
                    html,
                    "<p class=\"flag engine-failure\">worker {} cannot start an engine: {} (it gets no more units of this campaign)</p>",
                    escape(f.worker.as_str()),
                    escape(&f.reason)
                );
            }
            html.push_str("</section>");
        }
        html.push_str("<h2>Workers</h2><table><tr><th>id</th><th>name</th><th>version</th><th>cores</th></tr>");
        for w in c.workers()? {
            let _ = write!(html, "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>", escape(w.id.as_str()), escape(&w.name), escape(&w.version), w.cores);
        }
        html.push_str("</table></body></html>");
        Ok(html)
    })
    .await;
    match render {
        Ok(Ok(html)) => Html(html).into_response(),
        Ok(Err(e)) => failure(e),
        Err(e) => failure(e),
    }
}

async fn campaigns_json(State(c): State<Arc<Coordinator>>) -> Response {
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

async fn metrics(State(c): State<Arc<Coordinator>>) -> Response {
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
                escape(v.id.as_str()),
                value(v)
            );
        }
    }
    ([(header::CONTENT_TYPE, "text/plain; version=0.0.4")], out).into_response()
}
