//! What each kind of campaign adds to its page: an SPRT's verdict, an SPSA
//! tune's parameters and trajectories, a piece-value campaign's values
//! with intervals, a first-move survey's White score; and the words for
//! a match's openings, engines and adjudication.

use super::campaign::Details;
use super::error::WebError;
use crate::campaign::{CALIBRATION_PART, CampaignKind, CampaignSpec};
use crate::coordinator::sprt_text::sprt_state;
use crate::coordinator::{CampaignView, Coordinator, SpsaStep};
use ajaxlab_arena::config::PlayerKind;
use ajaxlab_arena::opening::{OpeningSource, Openings, Order};
use ajaxlab_arena::referee::Adjudication;
use ajaxlab_stats::{EloEstimate, Status, Z_95, hypotheses_text, ratio};
use ajaxlab_store::RunKind;
use maud::{Markup, html};

/// A piece-value part's estimate: its name, its Elo, and its worth in
/// pawns `(value, low, high)` once the pawn-odds part calibrates it.
pub(super) struct PartValue {
    name: String,
    id: String,
    elo: Option<EloEstimate>,
    pawns: Option<(f64, f64, f64)>,
    calibration: bool,
}

/// What a kind's section needs beyond the campaign's view.
pub(super) enum KindDetails {
    /// Nothing more.
    Plain,
    /// An SPSA tune: its parameters and θ after each update.
    Spsa(Vec<ajaxlab_stats::SpsaParam>, Vec<SpsaStep>),
    /// Every part of the piece-value campaign this one belongs to.
    PieceValue(Vec<PartValue>),
    /// A first-move survey's scores per start, and the games they cover.
    FirstMove(ajaxlab_report::StartScores),
}

impl KindDetails {
    /// Reads what `view`'s kind shows.
    pub(super) fn read(
        c: &Coordinator,
        view: &CampaignView,
        spec: Option<&CampaignSpec>,
    ) -> Result<KindDetails, WebError> {
        Ok(match spec.map(|s| &s.kind) {
            Some(CampaignKind::Spsa { tune, .. }) => {
                KindDetails::Spsa(tune.params.clone(), c.spsa_history(&view.id)?)
            }
            Some(CampaignKind::PieceValue { .. }) => KindDetails::PieceValue(parts(c, view)?),
            Some(CampaignKind::FirstMove) => KindDetails::FirstMove(start_scores(c, view)?),
            _ => KindDetails::Plain,
        })
    }
}

/// The parts of `view`'s piece-value campaign, their values calibrated by
/// the pawn-odds part as `ajaxlab report` does (Fieller's interval when
/// bounded, else the delta method's).
fn parts(c: &Coordinator, view: &CampaignView) -> Result<Vec<PartValue>, WebError> {
    let name = view.id.name();
    let mut parts: Vec<PartValue> = c
        .campaigns()?
        .into_iter()
        .filter(|v| v.id.name() == name && v.kind == RunKind::PieceValue)
        .map(|v| {
            let part =
                v.id.as_str()
                    .split_once('.')
                    .map_or("", |(_, p)| p)
                    .to_owned();
            PartValue {
                calibration: part == CALIBRATION_PART,
                name: part,
                id: v.id.as_str().to_owned(),
                elo: v.pentanomial.elo().ok(),
                pawns: None,
            }
        })
        .collect();
    let pawn = parts
        .iter()
        .find(|p| p.calibration)
        .and_then(|p| p.elo.map(|e| e.as_normal(-e.elo)));
    if let Some(pawn) = pawn {
        for part in parts.iter_mut().filter(|p| !p.calibration) {
            part.pawns = part
                .elo
                .and_then(|e| ratio(e.as_normal(e.elo), pawn, 0.0, Z_95).ok())
                // Unbounded while the pawn odds' Elo is not told apart
                // from zero: no value yet.
                .and_then(|r| r.fieller.map(|f| (r.value, f.low, f.high)));
        }
    }
    Ok(parts)
}

/// White's scores per start of a first-move campaign, as `ajaxlab report`
/// makes them, from the coordinator's counts per start.
fn start_scores(
    c: &Coordinator,
    view: &CampaignView,
) -> Result<ajaxlab_report::StartScores, WebError> {
    use ajaxlab_store::state::starts::Start;
    let by_start = c
        .start_counts(&view.id)?
        .into_iter()
        .map(|(start, counts)| {
            let key = match start {
                Start::Number(n) => ajaxlab_report::StartKey::Number(n),
                Start::Fen(fen) => ajaxlab_report::StartKey::Fen(fen),
            };
            (key, counts)
        })
        .collect();
    Ok(ajaxlab_report::start_scores(by_start))
}

/// An SPRT's verdict, prominent; nothing for other kinds.
pub(super) fn verdict(v: &CampaignView) -> Markup {
    let (Some(s), Some(standing)) = (&v.sprt, v.sprt_standing()) else {
        return html! {};
    };
    let class = match s.verdict {
        Status::AcceptH1 => "verdict h1",
        Status::AcceptH0 => "verdict h0",
        Status::Continue => "verdict open",
    };
    html! {
        p class=(class) #verdict {
            (hypotheses_text(s.config.elo0, s.config.elo1, s.config.model))
            ": " b { (sprt_state(standing)) }
            " · " span #llr { (ajaxlab_stats::llr_text(s.llr, s.bounds)) }
        }
    }
}

/// The section of `d`'s kind.
pub(super) fn section(d: &Details) -> Markup {
    match &d.kind {
        KindDetails::Spsa(params, history) => spsa(&d.view, params, history),
        KindDetails::PieceValue(parts) => piece_values(&d.view, parts),
        KindDetails::FirstMove(scores) => first_move(&d.view, scores),
        KindDetails::Plain => html! {},
    }
}

fn spsa(v: &CampaignView, params: &[ajaxlab_stats::SpsaParam], history: &[SpsaStep]) -> Markup {
    let names: Vec<String> = params.iter().map(|p| p.name.clone()).collect();
    html! {
        h2 { "Parameters" }
        p.muted { "c and a are the perturbation and the step at the tune's last iteration (a = r·c²), as Fishtest gives them." }
        table.spsa {
            thead { tr { th { "parameter" } th.num { "start" } th.num { "current" } th.num { "min" } th.num { "max" } th.num { "c" } th.num { "a" } } }
            tbody {
                @for p in params {
                    @let current = v.spsa.iter().find(|c| c.name == p.name).map(|c| c.value);
                    tr {
                        td { (p.name) }
                        td.num { (format!("{:.2}", p.start)) }
                        td.num.current { @if let Some(c) = current { (format!("{c:.2}")) } }
                        td.num { (format!("{:.2}", p.min)) }
                        td.num { (format!("{:.2}", p.max)) }
                        td.num { (format!("{:.3}", p.c_end)) }
                        td.num { (format!("{:.4}", p.r_end * p.c_end * p.c_end)) }
                    }
                }
            }
        }
        div.charts { (super::charts::spsa_charts(&names, history)) }
    }
}

fn piece_values(v: &CampaignView, parts: &[PartValue]) -> Markup {
    let values: Vec<(String, f64, f64, f64)> = parts
        .iter()
        .filter_map(|p| p.pawns.map(|(x, lo, hi)| (p.name.clone(), x, lo, hi)))
        .collect();
    // Before the pawn odds calibrate them, each part's Elo.
    let (values, unit) = if values.is_empty() {
        let elos = parts
            .iter()
            .filter_map(|p| {
                p.elo
                    .map(|e| (p.name.clone(), e.elo, e.interval.low, e.interval.high))
            })
            .collect();
        (elos, "Elo")
    } else {
        (values, "pawns")
    };
    html! {
        h2 { "Piece values of " (v.id.name()) }
        p.muted { "Each imbalance's Elo over the Elo of the pawn odds (the " (CALIBRATION_PART) " part): its worth in pawns, with Fieller's 95% interval; none until the pawn odds' Elo is told apart from zero (the chart shows each part's Elo until then)." }
        table.values {
            thead { tr { th { "part" } th.num { "Elo (95%)" } th.num { "pawns" } th.num { "95% interval" } } }
            tbody {
                @for p in parts {
                    tr {
                        td { a href={ "/campaigns/" (p.id) } { (p.name) } @if p.calibration { " (calibration)" } }
                        td.num { @if let Some(e) = p.elo { (format!("{:+.1} ± {:.1}", e.elo, e.interval.half_width())) } @else { "n/a" } }
                        td.num { @if let Some((x, _, _)) = p.pawns { (format!("{x:.2}")) } @else if !p.calibration { "not yet" } }
                        td.num { @if let Some((_, lo, hi)) = p.pawns { (format!("{lo:.2} to {hi:.2}")) } }
                    }
                }
            }
        }
        div.charts { (super::charts::values_chart(&values, unit)) }
    }
}

/// Rows of the per-start table shown at most: the best and the worst half.
const START_ROWS: usize = 30;

fn first_move(v: &CampaignView, scores: &ajaxlab_report::StartScores) -> Markup {
    let w = v.white;
    let n = w.wins + w.draws + w.losses;
    let covered = scores.overall.games();
    let interval = v.white_score().map(|s| {
        let second = (w.wins as f64 + w.draws as f64 / 4.0) / n as f64;
        let se = ((second - s * s).max(0.0) / n as f64).sqrt();
        (s, Z_95 * se)
    });
    let starts = &scores.starts;
    let hidden = starts.len().saturating_sub(START_ROWS);
    let shown = starts
        .iter()
        .take(START_ROWS / 2)
        .chain(starts.iter().skip(START_ROWS / 2 + hidden));
    html! {
        h2 { "First-move advantage" }
        p {
            "White scores "
            @if let Some((s, half)) = interval { b #white-score { (format!("{:.1}% ± {:.1}%", s * 100.0, half * 100.0)) } " (95%)" } @else { "n/a" }
            " over " (n) " games."
        }
        @match &scores.heterogeneity {
            Ok(h) => p #heterogeneity {
                (h.groups) " starts. Cochran's Q = " (format!("{:.1}", h.q)) " on " (format!("{:.0}", h.df)) " degrees of freedom, p = " (format!("{:.3}", h.p_value))
                ", I² = " (format!("{:.0}%", h.i2 * 100.0))
                @if h.p_value < 0.05 { ": the starts differ by more than noise." } @else { ": no difference between starts beyond noise yet." }
            },
            Err(e) => p.muted { "Starts compared: " (e.to_string()) },
        }
        @if covered < n {
            p.muted { "Per start: " (covered) " of the " (n) " games (units counted before counts per start were kept are missing)." }
        }
        table.starts {
            thead { tr { th { "start" } th.num { "games" } th.num { "W / D / L (White)" } th.num { "White's score (95%)" } th.num { "shrunken" } } }
            tbody {
                @for (i, s) in shown.enumerate() {
                    @if hidden > 0 && i == START_ROWS / 2 {
                        tr { td.muted colspan="5" { "… " (hidden) " starts between" } }
                    }
                    tr {
                        td { code { (s.start.to_string()) } }
                        td.num { (s.counts.games()) }
                        td.num { (s.counts.wins) " / " (s.counts.draws) " / " (s.counts.losses) }
                        td.num { (format!("{:.1}% ({:.1} to {:.1})", s.score * 100.0, s.interval.low * 100.0, s.interval.high * 100.0)) }
                        td.num { @if let Some(k) = s.shrunken { (format!("{:.1}%", k.estimate * 100.0)) } }
                    }
                }
            }
        }
    }
}

/// Where a match's games start.
pub(super) fn openings_text(o: &Openings) -> String {
    let source = match &o.source {
        OpeningSource::Start => "the variant's start".to_owned(),
        OpeningSource::RandomNumber => "a random numbered start".to_owned(),
        OpeningSource::NumberRange(a, b) => format!("a random start numbered {a} to {b}"),
        OpeningSource::Numbers(list) => format!("{} numbered starts", list.len()),
        OpeningSource::Fens(list) => format!("{} positions from a list", list.len()),
    };
    let order = match (&o.source, o.order) {
        (OpeningSource::Numbers(_) | OpeningSource::Fens(_), Order::Sequential) => ", in order",
        (OpeningSource::Numbers(_) | OpeningSource::Fens(_), Order::Random) => ", drawn at random",
        _ => "",
    };
    let imbalance = if o.imbalance.is_empty() {
        ""
    } else {
        ", material changed"
    };
    format!(
        "{source}{order}, then {} random plies{imbalance}",
        o.random_plies
    )
}

/// What plays: the builtin engine, or a UCI engine and how it travels.
pub(super) fn engine_text(kind: &PlayerKind, installed: bool) -> String {
    match kind {
        PlayerKind::Builtin(..) => "the builtin engine".to_owned(),
        PlayerKind::Uci(uci) => format!(
            "UCI engine {} ({})",
            uci.command.display(),
            if installed {
                "installed on every worker"
            } else {
                "shipped with the campaign"
            }
        ),
    }
}

/// When a game is ended early.
pub(super) fn adjudication_text(a: &Adjudication) -> String {
    let mut parts = Vec::new();
    if let Some(score) = a.resign_score {
        parts.push(format!("resign at {score} cp for {} moves", a.resign_moves));
    }
    if let Some(score) = a.draw_score {
        parts.push(format!(
            "draw within {score} cp for {} moves after move {}",
            a.draw_moves, a.draw_after_move
        ));
    }
    if let Some(plies) = a.max_plies {
        parts.push(format!("a draw at {plies} plies"));
    }
    if parts.is_empty() {
        "none".to_owned()
    } else {
        parts.join("; ")
    }
}

/// Player `index`'s table as the campaign file gives it (its options as
/// written), or nothing if the file does not read as TOML.
pub(super) fn player_options(file: &str, index: usize) -> Markup {
    let table: Option<toml::Table> = file.parse::<toml::Table>().ok();
    let player = table
        .as_ref()
        .and_then(|t| t.get("players"))
        .and_then(|p| p.as_array())
        .and_then(|players| players.get(index).or_else(|| players.first()))
        .and_then(|p| p.as_table());
    match player {
        Some(p) => html! {
            table.options { tbody {
                @for (key, value) in p { tr { td { code { (key) } } td { code { (value.to_string()) } } } }
            } }
        },
        None => html! {},
    }
}
