//! SPSA tunes: each parameter's θ against completed pairs, from the
//! campaign's `spsa.parquet`, and a table of start and final values.

use crate::error::ReportError;
use crate::load::{Run, store_problem};
use crate::plot::{self, Chart, Line, PALETTE};
use crate::table::Table;
use crate::{fmt_plots, stem};
use ajaxlab_store::{RunKind, read_trajectory};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// Panels per row of the trajectory grid.
const COLUMNS: usize = 3;

/// One parameter's path.
#[derive(Clone, Debug, PartialEq)]
pub struct ParamTrajectory {
    /// Parameter name.
    pub name: String,
    /// `(completed_pairs, θ)` in update order, the start values first.
    pub points: Vec<(u64, f64)>,
}

impl ParamTrajectory {
    /// θ before the first update (the earliest row).
    #[must_use]
    pub fn start(&self) -> Option<f64> {
        self.points.first().map(|p| p.1)
    }

    /// θ after the last update.
    #[must_use]
    pub fn last(&self) -> Option<f64> {
        self.points.last().map(|p| p.1)
    }
}

/// The report of an SPSA tune.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaReport {
    /// Campaign id (or the trajectory's directory name).
    pub id: String,
    /// Games stored for the campaign.
    pub games: usize,
    /// The trajectory file, if one was found.
    pub trajectory: Option<PathBuf>,
    /// One entry per parameter, in the file's order.
    pub params: Vec<ParamTrajectory>,
    /// Updates applied (the highest `seq`).
    pub updates: u64,
    /// Pairs completed at the last update.
    pub completed_pairs: u64,
    /// SVG and PNG files written.
    pub plots: Vec<PathBuf>,
}

/// Builds the report of a tune from its games (if any were found) and its
/// trajectory file (if any), and writes the trajectory grid.
pub(crate) fn report(
    id: &str,
    run: Option<&Run>,
    trajectory: Option<&Path>,
    out: &Path,
) -> Result<SpsaReport, ReportError> {
    let rows = match trajectory {
        Some(path) => read_trajectory(path).map_err(|e| ReportError::Spsa {
            path: path.to_path_buf(),
            problem: store_problem(e),
        })?,
        None => Vec::new(),
    };
    // Last row wins for a repeated (param, seq).
    let mut order: Vec<String> = Vec::new();
    let mut by_param: BTreeMap<String, BTreeMap<u64, (u64, f64)>> = BTreeMap::new();
    for row in rows {
        if !by_param.contains_key(&row.param) {
            order.push(row.param.clone());
        }
        by_param
            .entry(row.param)
            .or_default()
            .insert(row.seq, (row.completed_pairs, row.value));
    }
    let updates = by_param
        .values()
        .filter_map(|m| m.keys().next_back().copied())
        .max()
        .unwrap_or(0);
    let params: Vec<ParamTrajectory> = order
        .into_iter()
        .map(|name| {
            let points = by_param
                .remove(&name)
                .unwrap_or_default()
                .into_values()
                .collect();
            ParamTrajectory { name, points }
        })
        .collect();
    let completed_pairs = params
        .iter()
        .filter_map(|p| p.points.last().map(|x| x.0))
        .max()
        .unwrap_or(0);
    let mut plots = Vec::new();
    if !params.is_empty() {
        let charts: Vec<Chart> = params
            .iter()
            .map(|p| Chart {
                title: p.name.clone(),
                x_desc: "completed pairs".to_owned(),
                y_desc: "value".to_owned(),
                lines: vec![Line {
                    label: String::new(),
                    color: PALETTE[0],
                    // Pair counts are far below 2^53.
                    points: p.points.iter().map(|&(x, y)| (x as f64, y)).collect(),
                }],
                ..Chart::default()
            })
            .collect();
        plots = plot::write_grid(
            &format!("spsa {id}: parameters against completed pairs"),
            &charts,
            COLUMNS,
            out,
            &stem(RunKind::Spsa, id, "trajectories"),
        )?;
    }
    Ok(SpsaReport {
        id: id.to_owned(),
        games: run.map_or(0, |r| r.files.iter().map(|f| f.games.len()).sum()),
        trajectory: trajectory.map(Path::to_path_buf),
        params,
        updates,
        completed_pairs,
        plots,
    })
}

impl fmt::Display for SpsaReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "== {} {}: {} parameters, {} updates, {} pairs completed, {} games stored ==",
            RunKind::Spsa,
            self.id,
            self.params.len(),
            self.updates,
            self.completed_pairs,
            self.games
        )?;
        match &self.trajectory {
            None => writeln!(f, "  no spsa.parquet next to the campaign's games")?,
            Some(path) => writeln!(f, "  trajectory {}", path.display())?,
        }
        if !self.params.is_empty() {
            let mut table = Table::new(["parameter", "start", "final", "change"]);
            for p in &self.params {
                let (Some(start), Some(last)) = (p.start(), p.last()) else {
                    continue;
                };
                let change = last - start;
                let relative = if start == 0.0 {
                    String::new()
                } else {
                    format!(" ({:+.1}%)", 100.0 * change / start.abs())
                };
                table.row([
                    p.name.clone(),
                    format!("{start:.2}"),
                    format!("{last:.2}"),
                    format!("{change:+.2}{relative}"),
                ]);
            }
            write!(f, "{table}")?;
        }
        fmt_plots(f, &self.plots)
    }
}
