//! The campaign pages' charts, as inline SVG drawn by `crates/plot`: Elo
//! and LLR against games, SPSA trajectories, piece values with their
//! intervals. Axes follow the data (never a fixed range that pins a
//! one-sided match to its edge).

use crate::coordinator::{SprtView, SpsaStep};
use ajaxlab_plot::{Band, Chart, GREY, HLine, Intervals, Line, PALETTE};
use ajaxlab_stats::{Counts, Pentanomial};
use maud::{Markup, PreEscaped, html};

/// A chart's size in pixels.
const SIZE: (u32, u32) = (560, 240);

/// `chart` as inline SVG of class `class`, or a line that says why not.
fn svg(chart: &Chart, class: &str) -> Markup {
    match ajaxlab_plot::svg(chart, SIZE, class) {
        Ok(svg) => PreEscaped(svg),
        Err(e) => html! { p.muted { (chart.title) ": " (e.to_string()) } },
    }
}

fn not_enough(class: &str, what: &str) -> Markup {
    html! { p class={ "muted no-chart " (class) } { (what) ": not enough games yet" } }
}

/// The points after the first tenth (at least the first two skipped when
/// there are many): early estimates' wide intervals would flatten the
/// rest of the chart.
fn settled<T>(points: &[T]) -> &[T] {
    let skip = if points.len() > 20 {
        points.len() / 10
    } else {
        0
    };
    &points[skip..]
}

/// A y range covering `values` with a margin, at least `floor` either side
/// of zero when `around_zero`.
fn y_range(values: impl Iterator<Item = f64>, around_zero: Option<f64>) -> std::ops::Range<f64> {
    let (mut lo, mut hi) = values
        .filter(|v| v.is_finite())
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if let Some(floor) = around_zero {
        lo = lo.min(-floor);
        hi = hi.max(floor);
    }
    if lo >= hi {
        return (lo - 1.0)..(hi + 1.0);
    }
    let margin = (hi - lo) * 0.08;
    (lo - margin)..(hi + margin)
}

/// Points a line keeps at most: more than a chart's width in pixels shows
/// nothing more and costs each page that draws it.
const MAX_POINTS: usize = 400;

/// `history` thinned to at most [`MAX_POINTS`], evenly, the last kept.
fn thinned(history: &[Pentanomial]) -> Vec<Pentanomial> {
    let step = history.len().div_ceil(MAX_POINTS).max(1);
    let mut kept: Vec<Pentanomial> = history.iter().step_by(step).copied().collect();
    if let Some(last) = history.last()
        && kept.last() != Some(last)
    {
        kept.push(*last);
    }
    kept
}

fn zero_line() -> HLine {
    HLine {
        label: String::new(),
        color: GREY,
        y: 0.0,
    }
}

/// Elo with its 95% band against games.
pub(super) fn elo_chart(history: &[Pentanomial]) -> Markup {
    let points: Vec<(f64, f64, f64)> = thinned(history)
        .iter()
        .filter_map(|p| {
            let e = p.elo().ok()?;
            Some((p.games() as f64, e.elo, e.interval.half_width()))
        })
        .collect();
    if points.len() < 2 {
        return not_enough("elo", "Elo");
    }
    let range = y_range(
        settled(&points).iter().flat_map(|p| [p.1 - p.2, p.1 + p.2]),
        Some(5.0),
    );
    svg(
        &Chart {
            title: "Elo (95% band)".into(),
            x_desc: "games".into(),
            y_desc: "Elo".into(),
            bands: vec![Band {
                label: String::new(),
                color: PALETTE[0],
                points: points.iter().map(|p| (p.0, p.1 - p.2, p.1 + p.2)).collect(),
            }],
            lines: vec![Line {
                label: String::new(),
                color: PALETTE[0],
                points: points.iter().map(|p| (p.0, p.1)).collect(),
            }],
            hlines: vec![zero_line()],
            y_range: Some(range),
            ..Chart::default()
        },
        "elo",
    )
}

/// The SPRT's LLR against games, between its bounds.
pub(super) fn llr_chart(history: &[Pentanomial], sprt: &SprtView) -> Markup {
    let config = sprt.config;
    let points: Vec<(f64, f64)> = thinned(history)
        .iter()
        .filter_map(|p| {
            ajaxlab_stats::llr(
                config.model,
                config.elo0,
                config.elo1,
                &Counts::Pentanomial(*p),
            )
            .ok()
            .map(|llr| (p.games() as f64, llr))
        })
        .collect();
    if points.len() < 2 {
        return not_enough("llr", "LLR");
    }
    let bounds = [sprt.bounds.lower, sprt.bounds.upper];
    let range = y_range(points.iter().map(|p| p.1).chain(bounds), None);
    let bound = |y: f64, label: &str, color| HLine {
        label: label.to_owned(),
        color,
        y,
    };
    svg(
        &Chart {
            title: "LLR".into(),
            x_desc: "games".into(),
            y_desc: "LLR".into(),
            lines: vec![Line {
                label: String::new(),
                color: PALETTE[1],
                points,
            }],
            hlines: vec![
                bound(sprt.bounds.upper, "H1 accepted", PALETTE[2]),
                bound(sprt.bounds.lower, "H0 accepted", PALETTE[3]),
                zero_line(),
            ],
            y_range: Some(range),
            ..Chart::default()
        },
        "llr",
    )
}

/// One chart per tuned parameter: its value against pairs played.
pub(super) fn spsa_charts(names: &[String], history: &[SpsaStep]) -> Markup {
    html! {
        @for (i, name) in names.iter().enumerate() {
            @let points: Vec<(f64, f64)> = history
                .iter()
                .filter_map(|s| s.theta.get(i).map(|v| (s.completed_pairs as f64, *v)))
                .collect();
            @if points.len() < 2 {
                (not_enough("spsa", name))
            } @else {
                (svg(&Chart {
                    title: name.clone(),
                    x_desc: "pairs".into(),
                    lines: vec![Line { label: String::new(), color: PALETTE[i % PALETTE.len()], points: points.clone() }],
                    y_range: Some(y_range(points.iter().map(|p| p.1), None)),
                    ..Chart::default()
                }, "spsa"))
            }
        }
    }
}

/// Each part's worth in `unit` (pawns, or Elo before the calibration)
/// with its 95% interval.
pub(super) fn values_chart(values: &[(String, f64, f64, f64)], unit: &str) -> Markup {
    if values.is_empty() {
        return not_enough("values", "Piece values");
    }
    svg(
        &Chart {
            title: format!("Worth in {unit} (95% interval)"),
            y_desc: unit.to_owned(),
            intervals: vec![Intervals {
                label: String::new(),
                color: PALETTE[0],
                points: values
                    .iter()
                    .enumerate()
                    .map(|(i, v)| (i as f64, v.1, v.2, v.3))
                    .collect(),
                radius: 4,
            }],
            hlines: vec![zero_line()],
            categories: Some(values.iter().map(|v| v.0.clone()).collect()),
            ..Chart::default()
        },
        "values",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_history_is_thinned_evenly_keeping_its_last_point() {
        let history: Vec<Pentanomial> = (0..1001).map(|n| Pentanomial([n, 0, 0, 0, 0])).collect();
        let kept = thinned(&history);
        assert!(kept.len() <= MAX_POINTS + 1, "{}", kept.len());
        assert_eq!(kept.first(), history.first());
        assert_eq!(kept.last(), history.last());
        assert_eq!(thinned(&history[..10]).len(), 10);
    }
}
