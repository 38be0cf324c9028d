//! Charts as SVG and PNG with plotters: lines, shaded bands, points with
//! interval bars and horizontal reference lines, in one chart or a grid of
//! small ones; written as files (the report) or returned as SVG text (the
//! coordinator's status page).
//!
//! Text in the PNG is rasterized by plotters' pure-Rust `ab_glyph` path from
//! DejaVu Sans, embedded in the binary (the `dejavu` crate), so a machine
//! without any font package or fontconfig draws the same labels. The SVG
//! names the `sans-serif` family and leaves the glyphs to the viewer.

use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::{FontStyle, register_font};
use std::ops::Range;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

pub use plotters::style::RGBColor;

/// The font family every text of a chart uses.
const FAMILY: &str = "sans-serif";

/// Pixel size of one chart.
const SIZE: (u32, u32) = (960, 600);

/// Pixel size of one panel of a grid.
const PANEL: (u32, u32) = (480, 300);

/// Fraction of the data range added on each side of an axis.
const MARGIN: f64 = 0.05;

/// Colours in the order series get them (a colour-blind-safe palette, Okabe–Ito).
pub const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(230, 159, 0),
    RGBColor(86, 180, 233),
];

/// Grey for reference lines and raw estimates drawn behind others.
pub const GREY: RGBColor = RGBColor(140, 140, 140);

/// A chart that cannot be drawn.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlotError {
    /// A chart could not be drawn or encoded.
    #[error("{}: cannot draw the plot: {problem}", path.display())]
    Draw {
        /// The plot file (empty for SVG text).
        path: PathBuf,
        /// What the plotting library said.
        problem: String,
    },
    /// The embedded font could not be loaded (a build problem, not a data one).
    #[error("the embedded plot font is not a valid TrueType font")]
    Font,
}

/// Registers the embedded font once per process.
fn font() -> Result<(), PlotError> {
    static REGISTERED: OnceLock<bool> = OnceLock::new();
    let ok = *REGISTERED.get_or_init(|| {
        register_font(FAMILY, FontStyle::Normal, dejavu::sans::regular()).is_ok()
            && register_font(FAMILY, FontStyle::Bold, dejavu::sans::bold()).is_ok()
    });
    if ok { Ok(()) } else { Err(PlotError::Font) }
}

/// A polyline.
#[derive(Clone, Debug)]
pub struct Line {
    /// Legend text (empty: no legend entry).
    pub label: String,
    /// Its colour.
    pub color: RGBColor,
    /// The points, in x order.
    pub points: Vec<(f64, f64)>,
}

/// A shaded area between two curves, e.g. a confidence band.
#[derive(Clone, Debug)]
pub struct Band {
    /// Legend text (empty: no legend entry).
    pub label: String,
    /// Its colour.
    pub color: RGBColor,
    /// `(x, low, high)`, in x order.
    pub points: Vec<(f64, f64, f64)>,
}

/// Points with vertical interval bars.
#[derive(Clone, Debug)]
pub struct Intervals {
    /// Legend text (empty: no legend entry).
    pub label: String,
    /// Its colour.
    pub color: RGBColor,
    /// `(x, y, low, high)`.
    pub points: Vec<(f64, f64, f64, f64)>,
    /// Marker radius in pixels.
    pub radius: u32,
}

/// A horizontal reference line.
#[derive(Clone, Debug)]
pub struct HLine {
    /// Legend text (empty: no legend entry).
    pub label: String,
    /// Its colour.
    pub color: RGBColor,
    /// Where it is drawn.
    pub y: f64,
}

/// One chart: a title, axis descriptions and what to draw.
#[derive(Clone, Debug, Default)]
pub struct Chart {
    /// Title above the chart.
    pub title: String,
    /// The x axis's description.
    pub x_desc: String,
    /// The y axis's description.
    pub y_desc: String,
    /// Polylines.
    pub lines: Vec<Line>,
    /// Shaded bands (drawn first).
    pub bands: Vec<Band>,
    /// Points with interval bars.
    pub intervals: Vec<Intervals>,
    /// Horizontal reference lines.
    pub hlines: Vec<HLine>,
    /// Category names for x = 0, 1, 2, …; the x axis then shows these.
    pub categories: Option<Vec<String>>,
    /// The y axis's range, instead of one that covers everything drawn.
    pub y_range: Option<Range<f64>>,
}

impl Chart {
    /// The x and y ranges covering everything drawn, padded.
    fn ranges(&self) -> (Range<f64>, Range<f64>) {
        let mut xs = Vec::new();
        let mut ys = Vec::new();
        for l in &self.lines {
            for &(x, y) in &l.points {
                xs.push(x);
                ys.push(y);
            }
        }
        for b in &self.bands {
            for &(x, lo, hi) in &b.points {
                xs.push(x);
                ys.extend([lo, hi]);
            }
        }
        for s in &self.intervals {
            for &(x, y, lo, hi) in &s.points {
                xs.push(x);
                ys.extend([y, lo, hi]);
            }
        }
        ys.extend(self.hlines.iter().map(|h| h.y));
        let x = match &self.categories {
            Some(names) => -0.5..(count(names.len()) - 0.5).max(0.5),
            // Markers at the ends need room; lines may touch the frame.
            None if self.intervals.is_empty() => padded(&xs, 0.0),
            None => padded(&xs, 0.02),
        };
        let y = self.y_range.clone().unwrap_or_else(|| padded(&ys, MARGIN));
        (x, y)
    }
}

/// `[min, max]` of the finite values, widened by `margin` of the span on
/// each side; a degenerate range becomes one unit wide.
fn padded(values: &[f64], margin: f64) -> Range<f64> {
    let finite = values.iter().copied().filter(|v| v.is_finite());
    let (lo, hi) = finite.fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), v| {
        (lo.min(v), hi.max(v))
    });
    if lo > hi {
        return 0.0..1.0;
    }
    let span = hi - lo;
    if span <= f64::EPSILON * hi.abs().max(1.0) {
        return (lo - 0.5)..(hi + 0.5);
    }
    (lo - margin * span)..(hi + margin * span)
}

fn count(n: usize) -> f64 {
    // No lossless `From<usize> for f64`; chart sizes are tiny.
    n as f64
}

/// What one image shows.
enum Picture<'a> {
    /// One chart.
    Single(&'a Chart),
    /// Small charts in a grid under a common title.
    Grid {
        title: &'a str,
        charts: &'a [Chart],
        rows: usize,
        columns: usize,
    },
}

/// Height of a grid's common title, pixels.
const GRID_TITLE: u32 = 50;

/// Writes `chart` as `DIR/STEM.svg` and `DIR/STEM.png`; returns both paths.
pub fn write(chart: &Chart, dir: &Path, stem: &str) -> Result<Vec<PathBuf>, PlotError> {
    // Named categories get room for their labels side by side.
    let longest = chart
        .categories
        .iter()
        .flatten()
        .map(|name| name.chars().count())
        .max()
        .unwrap_or(0);
    let slots = chart.categories.as_ref().map_or(0, Vec::len);
    let wanted = u32::try_from(slots * (longest * 9 + 24) + 160).unwrap_or(u32::MAX);
    write_picture(
        &Picture::Single(chart),
        (SIZE.0.max(wanted), SIZE.1),
        dir,
        stem,
    )
}

/// Writes `charts` as one grid image of `columns` panels per row under a
/// common `title`, as SVG and PNG; returns both paths.
pub fn write_grid(
    title: &str,
    charts: &[Chart],
    columns: usize,
    dir: &Path,
    stem: &str,
) -> Result<Vec<PathBuf>, PlotError> {
    let columns = columns.clamp(1, charts.len().max(1));
    let rows = charts.len().div_ceil(columns).max(1);
    let to_u32 = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    // Wide enough for the title too (26-point bold: about 15 pixels a character).
    let title_width = to_u32(title.chars().count())
        .saturating_mul(15)
        .saturating_add(40);
    let size = (
        PANEL.0.saturating_mul(to_u32(columns)).max(title_width),
        PANEL
            .1
            .saturating_mul(to_u32(rows))
            .saturating_add(GRID_TITLE),
    );
    let picture = Picture::Grid {
        title,
        charts,
        rows,
        columns,
    };
    write_picture(&picture, size, dir, stem)
}

fn write_picture(
    picture: &Picture<'_>,
    size: (u32, u32),
    dir: &Path,
    stem: &str,
) -> Result<Vec<PathBuf>, PlotError> {
    font()?;
    let svg = dir.join(format!("{stem}.svg"));
    let png = dir.join(format!("{stem}.png"));
    let plot_error = |path: &Path, problem: String| PlotError::Draw {
        path: path.to_path_buf(),
        problem,
    };
    render(SVGBackend::new(&svg, size).into_drawing_area(), picture)
        .map_err(|p| plot_error(&svg, p))?;
    render(BitMapBackend::new(&png, size).into_drawing_area(), picture)
        .map_err(|p| plot_error(&png, p))?;
    Ok(vec![svg, png])
}

/// `chart` as SVG text of `size` pixels, its root element of class
/// `class` (for a page's style sheet and scripts).
///
/// # Errors
/// [`PlotError`] if plotters cannot draw it.
pub fn svg(chart: &Chart, size: (u32, u32), class: &str) -> Result<String, PlotError> {
    font()?;
    let mut text = String::new();
    render(
        SVGBackend::with_string(&mut text, size).into_drawing_area(),
        &Picture::Single(chart),
    )
    .map_err(|problem| PlotError::Draw {
        path: PathBuf::new(),
        problem,
    })?;
    Ok(match text.strip_prefix("<svg ") {
        Some(rest) => format!("<svg class=\"{class}\" {rest}"),
        None => text,
    })
}

/// Paints `picture` on `area` and writes the file.
fn render<DB: DrawingBackend>(
    area: DrawingArea<DB, Shift>,
    picture: &Picture<'_>,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    match picture {
        Picture::Single(chart) => draw_chart(&area, chart)?,
        Picture::Grid {
            title,
            charts,
            rows,
            columns,
        } => {
            area.fill(&WHITE).map_err(err)?;
            let (top, body) = area.split_vertically(GRID_TITLE);
            top.titled(title, (FAMILY, 26).into_font().style(FontStyle::Bold))
                .map_err(err)?;
            for (panel, chart) in body.split_evenly((*rows, *columns)).iter().zip(*charts) {
                draw_chart(panel, chart)?;
            }
        }
    }
    area.present().map_err(err)
}

/// Draws one chart filling `area`.
fn draw_chart<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    chart: &Chart,
) -> Result<(), String> {
    let err = |e: DrawingAreaErrorKind<DB::ErrorType>| e.to_string();
    area.fill(&WHITE).map_err(err)?;
    let (width, _) = area.dim_in_pixel();
    let small = width < 600;
    let (title_size, desc_size, tick_size) = if small { (17, 14, 12) } else { (24, 18, 15) };
    let (x_range, y_range) = chart.ranges();
    let mut builder = ChartBuilder::on(area);
    builder
        .caption(
            &chart.title,
            (FAMILY, title_size).into_font().style(FontStyle::Bold),
        )
        .margin(if small { 8 } else { 14 })
        // Room for half of the last x label, centred on the right edge.
        .margin_right(if small { 26 } else { 36 })
        .x_label_area_size(if small { 36 } else { 56 })
        .y_label_area_size(if small { 56 } else { 80 });
    let mut ctx = builder.build_cartesian_2d(x_range, y_range).map_err(err)?;
    let categories = chart.categories.clone();
    let mut mesh = ctx.configure_mesh();
    mesh.x_desc(&chart.x_desc)
        .y_desc(&chart.y_desc)
        .axis_desc_style((FAMILY, desc_size))
        .label_style((FAMILY, tick_size))
        .light_line_style(RGBColor(246, 246, 246))
        .bold_line_style(RGBColor(210, 210, 210))
        .y_label_formatter(&|v| tick(*v));
    let category_label = |v: &f64| -> String {
        let Some(names) = &categories else {
            return tick(*v);
        };
        let nearest = v.round();
        if (v - nearest).abs() > 1e-6 || nearest < 0.0 {
            return String::new();
        }
        // `nearest` is a small non-negative integer here.
        names.get(nearest as usize).cloned().unwrap_or_default()
    };
    if let Some(names) = &chart.categories {
        mesh.x_labels(names.len() * 2 + 1);
    } else {
        mesh.x_labels(if small { 5 } else { 10 });
    }
    mesh.x_label_formatter(&category_label);
    mesh.draw().map_err(err)?;

    let mut legend = false;
    for band in &chart.bands {
        let fill = band.color.mix(0.18);
        let mut outline: Vec<(f64, f64)> = band.points.iter().map(|&(x, lo, _)| (x, lo)).collect();
        outline.extend(band.points.iter().rev().map(|&(x, _, hi)| (x, hi)));
        let drawn = ctx
            .draw_series(std::iter::once(Polygon::new(outline, fill.filled())))
            .map_err(err)?;
        if !band.label.is_empty() {
            legend = true;
            drawn
                .label(&band.label)
                .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 18, y + 5)], fill.filled()));
        }
    }
    for h in &chart.hlines {
        let (x0, x1) = (ctx.x_range().start, ctx.x_range().end);
        let color = h.color;
        let drawn = ctx
            .draw_series(DashedLineSeries::new(
                vec![(x0, h.y), (x1, h.y)],
                8,
                5,
                color.stroke_width(2),
            ))
            .map_err(err)?;
        if !h.label.is_empty() {
            legend = true;
            drawn.label(&h.label).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
        }
    }
    for series in &chart.intervals {
        let color = series.color;
        ctx.draw_series(series.points.iter().map(|&(x, _, lo, hi)| {
            PathElement::new(vec![(x, lo), (x, hi)], color.mix(0.7).stroke_width(2))
        }))
        .map_err(err)?;
        let radius = series.radius;
        let drawn = ctx
            .draw_series(
                series
                    .points
                    .iter()
                    .map(|&(x, y, _, _)| Circle::new((x, y), radius, color.filled())),
            )
            .map_err(err)?;
        if !series.label.is_empty() {
            legend = true;
            drawn
                .label(&series.label)
                .legend(move |(x, y)| Circle::new((x + 9, y), 4, color.filled()));
        }
    }
    for line in &chart.lines {
        let color = line.color;
        let drawn = ctx
            .draw_series(LineSeries::new(
                line.points.iter().copied(),
                color.stroke_width(2),
            ))
            .map_err(err)?;
        if !line.label.is_empty() {
            legend = true;
            drawn.label(&line.label).legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
        }
    }
    if legend {
        ctx.configure_series_labels()
            .label_font((FAMILY, tick_size))
            .background_style(WHITE.mix(0.85))
            .border_style(GREY)
            .position(SeriesLabelPosition::UpperLeft)
            .draw()
            .map_err(err)?;
    }
    Ok(())
}

/// A tick label: few digits, no trailing zeros.
fn tick(v: f64) -> String {
    let a = v.abs();
    let text = if a != 0.0 && !(1e-3..1e6).contains(&a) {
        format!("{v:.1e}")
    } else if a >= 100.0 {
        format!("{v:.0}")
    } else if a >= 1.0 {
        format!("{v:.2}")
    } else {
        format!("{v:.3}")
    };
    if text.contains('.') && !text.contains('e') {
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_short() {
        assert_eq!(tick(0.0), "0");
        assert_eq!(tick(1.5), "1.5");
        assert_eq!(tick(-12.25), "-12.25");
        assert_eq!(tick(250.0), "250");
        assert_eq!(tick(0.125), "0.125");
        assert_eq!(tick(0.5), "0.5");
        assert_eq!(tick(2_000_000.0), "2.0e6");
    }

    #[test]
    fn a_chart_as_svg_text_carries_its_class_and_its_line() {
        let chart = Chart {
            title: "Elo".into(),
            lines: vec![Line {
                label: String::new(),
                color: PALETTE[0],
                points: vec![(0.0, 1.0), (1.0, 3.0)],
            }],
            y_range: Some(-10.0..10.0),
            ..Chart::default()
        };
        let svg = svg(&chart, (480, 160), "elo").unwrap();
        assert!(svg.starts_with("<svg class=\"elo\" "), "{svg}");
        assert!(svg.contains("<polyline"), "{svg}");
        assert_eq!(chart.ranges().1, -10.0..10.0);
    }

    /// Each centred label of `svg` as (x, font size, text).
    fn centred_labels(svg: &str) -> Vec<(f64, f64, String)> {
        let attribute = |tag: &str, name: &str| -> Option<f64> {
            let tag = format!(" {tag}");
            let start = tag.find(&format!(" {name}=\""))? + name.len() + 3;
            tag[start..].split('"').next()?.parse().ok()
        };
        svg.split("<text ")
            .skip(1)
            .filter_map(|rest| {
                let (tag, body) = rest.split_once('>')?;
                let text = body.split("</text>").next()?.trim().to_owned();
                if !tag.contains("text-anchor=\"middle\"") {
                    return None;
                }
                Some((attribute(tag, "x")?, attribute(tag, "font-size")?, text))
            })
            .collect()
    }

    #[test]
    fn the_last_x_label_fits_inside_the_picture() {
        let chart = Chart {
            title: "eval.x".into(),
            x_desc: "pairs".into(),
            lines: vec![Line {
                label: String::new(),
                color: PALETTE[0],
                points: (0..=40)
                    .map(|i| (f64::from(i) * 100.0, f64::from(i % 7)))
                    .collect(),
            }],
            ..Chart::default()
        };
        for width in [480, 1200] {
            let svg = svg(&chart, (width, 300), "spsa").unwrap();
            let labels = centred_labels(&svg);
            let last = labels
                .iter()
                .find(|l| l.2 == "4000")
                .unwrap_or_else(|| panic!("no 4000 label: {labels:?}"));
            // Half the label's width, at about 0.6 em a digit.
            let right = last.0 + 0.3 * last.1 * 4.0;
            assert!(
                right <= f64::from(width),
                "{width} px: {last:?} ends at {right}"
            );
        }
    }

    #[test]
    fn ranges_are_padded_and_never_empty() {
        assert_eq!(padded(&[], 0.05), 0.0..1.0);
        assert_eq!(padded(&[3.0, 3.0], 0.05), 2.5..3.5);
        let r = padded(&[0.0, 10.0, f64::NAN], 0.1);
        assert!((r.start + 1.0).abs() < 1e-12 && (r.end - 11.0).abs() < 1e-12);
    }
}
