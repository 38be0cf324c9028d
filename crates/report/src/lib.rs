//! Reports on stored games: `ajaxlab report RUN_DIR` reads every Parquet
//! file below a run directory — and nothing else — and prints tables for
//! the terminal while writing plots as SVG and PNG.
//!
//! Games files are grouped into runs by their metadata (`ajaxlab.kind`,
//! `ajaxlab.campaign`; files without them are `ajaxlab match` output,
//! grouped by `run_id`), and each kind gets its report:
//!
//! * **match** and **sprt** ([`MatchReport`]): player 0's Elo ± 95% from
//!   the pentanomial, nElo and LOS; Elo against games; for an SPRT the LLR
//!   against games with its bounds, and the verdict.
//! * **piece-value** ([`PieceValueReport`]): each part's Elo turned into
//!   pawns by the pawn-odds calibration part (delta-method and Fieller
//!   intervals), and a logistic regression of White's score on the
//!   material difference over every game.
//! * **first-move** ([`FirstMoveReport`]): White's score per start and
//!   overall (with its Elo equivalent), Cochran's Q test of whether starts
//!   differ beyond noise, and empirical-Bayes shrunken per-start scores.
//! * **ratings** ([`RatingsReport`]): with more than two players among the
//!   matches (a tournament's pairings), a maximum-likelihood rating table.
//! * **spsa** ([`SpsaReport`]): each parameter's trajectory from the
//!   campaign's `spsa.parquet`, with start and final values.
//!
//! The statistics are [`ajaxlab_stats`]'; this crate only reads, groups,
//! prints and draws. Because reports read only the Parquet files, anyone
//! can recompute them with their own tools.

mod error;
mod first_move;
mod load;
mod match_report;
mod material;
mod pairs;
mod piece_value;
use ajaxlab_plot as plot;
mod ratings_report;
mod spsa_report;
#[cfg(any(test, feature = "test-support"))]
pub mod synthetic;
mod table;

pub use ajaxlab_store::{RunKind, SPSA_FILE, SprtMetadata};
pub use error::ReportError;
pub use first_move::{FirstMoveReport, StartEstimate, StartKey, StartScores, start_scores};
pub use match_report::{MatchReport, SprtOutcome};
pub use piece_value::{
    MaterialRegression, MaterialRegressionError, PartEstimate, PieceValueReport, RegressionTerm,
};
pub use ratings_report::RatingsReport;
pub use spsa_report::{ParamTrajectory, SpsaReport};

use ajaxlab_stats::EloEstimate;
use std::fmt;
use std::path::{Path, PathBuf};

/// The name of the default output directory inside the run directory.
pub const DEFAULT_OUT_DIR: &str = "report";

/// What to report on and where to write the plots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportConfig {
    /// The directory searched (recursively) for Parquet files.
    pub run_dir: PathBuf,
    /// Where plots and CSV files go; skipped when searching.
    pub out_dir: PathBuf,
}

impl ReportConfig {
    /// Reports on `run_dir`, writing to `run_dir/report`.
    #[must_use]
    pub fn new(run_dir: impl Into<PathBuf>) -> Self {
        let run_dir = run_dir.into();
        let out_dir = run_dir.join(DEFAULT_OUT_DIR);
        Self { run_dir, out_dir }
    }

    /// The same report written to `out_dir`.
    #[must_use]
    pub fn with_out_dir(self, out_dir: impl Into<PathBuf>) -> Self {
        Self {
            out_dir: out_dir.into(),
            ..self
        }
    }
}

/// One run's report.
#[derive(Clone, Debug, PartialEq)]
pub enum Section {
    /// A match or an SPRT.
    Match(MatchReport),
    /// A piece-value campaign.
    PieceValue(PieceValueReport),
    /// A first-move campaign.
    FirstMove(FirstMoveReport),
    /// An SPSA tune.
    Spsa(SpsaReport),
    /// The rating table over every match's players.
    Ratings(RatingsReport),
}

impl Section {
    /// The files written for this section.
    #[must_use]
    pub fn files(&self) -> &[PathBuf] {
        match self {
            Self::Match(r) => &r.plots,
            Self::PieceValue(r) => &r.plots,
            Self::FirstMove(r) => &r.files,
            Self::Spsa(r) => &r.plots,
            Self::Ratings(_) => &[],
        }
    }
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Match(r) => r.fmt(f),
            Self::PieceValue(r) => r.fmt(f),
            Self::FirstMove(r) => r.fmt(f),
            Self::Spsa(r) => r.fmt(f),
            Self::Ratings(r) => r.fmt(f),
        }
    }
}

/// Every run's report; `Display` gives the terminal text.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// One section per run, by kind and id.
    pub sections: Vec<Section>,
}

impl Report {
    /// Every file written.
    #[must_use]
    pub fn files(&self) -> Vec<&Path> {
        self.sections
            .iter()
            .flat_map(Section::files)
            .map(PathBuf::as_path)
            .collect()
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, section) in self.sections.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{section}")?;
        }
        Ok(())
    }
}

/// Reads every Parquet file below `config.run_dir` and writes the report's
/// plots to `config.out_dir`.
///
/// # Errors
///
/// [`ReportError`] naming the file or directory: an unreadable directory,
/// no Parquet file at all, a file that is not a games file (or not a
/// trajectory), malformed metadata, an invalid game, or a plot that cannot
/// be written.
pub fn run(config: &ReportConfig) -> Result<Report, ReportError> {
    let loaded = load::load(&config.run_dir, &config.out_dir)?;
    std::fs::create_dir_all(&config.out_dir).map_err(|source| ReportError::Write {
        path: config.out_dir.clone(),
        source,
    })?;
    let out = config.out_dir.as_path();
    // Which spsa.parquet belongs to which tune: the one beside its games.
    let mut trajectories: Vec<(PathBuf, Option<String>)> = loaded
        .spsa
        .iter()
        .map(|path| {
            let dir = path.parent();
            let owner = loaded.runs.iter().find(|r| {
                r.kind == RunKind::Spsa && r.files.iter().any(|f| f.path.parent() == dir)
            });
            (path.clone(), owner.map(|r| r.id.clone()))
        })
        .collect();
    let mut sections = Vec::new();
    for run in &loaded.runs {
        sections.push(match run.kind {
            RunKind::Match | RunKind::Sprt => Section::Match(match_report::report(run, out)?),
            RunKind::PieceValue => Section::PieceValue(piece_value::report(run, out)?),
            // A datagen campaign is self-play too: White's score per start.
            RunKind::FirstMove | RunKind::Datagen => {
                Section::FirstMove(first_move::report(run, out)?)
            }
            RunKind::Spsa => {
                let trajectory = trajectories
                    .iter()
                    .position(|(_, owner)| owner.as_deref() == Some(run.id.as_str()))
                    .map(|i| trajectories.remove(i).0);
                Section::Spsa(spsa_report::report(
                    &run.id,
                    Some(run),
                    trajectory.as_deref(),
                    out,
                )?)
            }
        });
    }
    for (path, _) in trajectories {
        let id = path
            .parent()
            .and_then(Path::file_name)
            .map_or_else(|| "spsa".to_owned(), |n| n.to_string_lossy().into_owned());
        sections.push(Section::Spsa(spsa_report::report(
            &id,
            None,
            Some(&path),
            out,
        )?));
    }
    sections.extend(ratings_report::report(&loaded.runs).map(Section::Ratings));
    Ok(Report { sections })
}

/// The file stem of a plot: `KIND-ID-WHAT`, with characters other than
/// letters, digits, `.`, `_` and `-` replaced by `_`.
pub(crate) fn stem(kind: RunKind, id: &str, what: &str) -> String {
    format!("{kind}-{}-{what}", ajaxlab_store::file_safe(id))
}

/// The 95% interval of a score (0 to 1) of normal half-width `half`, kept
/// between 0 and 1: a score cannot leave them, the normal approximation
/// can (3 wins and a loss: 0.75 ± 0.42).
pub(crate) fn score_interval(score: f64, half: f64) -> ajaxlab_stats::Interval {
    ajaxlab_stats::Interval {
        low: (score - half).max(0.0),
        high: (score + half).min(1.0),
    }
}

/// `+12.34 ± 5.67 (95%: +6.70 .. +18.01)`.
pub(crate) fn fmt_elo(e: &EloEstimate) -> String {
    format!(
        "{:+.2} ± {:.2} (95%: {:+.2} .. {:+.2})",
        e.elo,
        e.interval.half_width(),
        e.interval.low,
        e.interval.high
    )
}

/// The `plots` line of a section.
pub(crate) fn fmt_plots(f: &mut fmt::Formatter<'_>, files: &[PathBuf]) -> fmt::Result {
    if !files.is_empty() {
        let names: Vec<String> = files.iter().map(|p| p.display().to_string()).collect();
        writeln!(f, "  files {}", names.join(", "))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_score_interval_stays_between_nought_and_one() {
        let i = super::score_interval(0.75, 0.4243);
        assert!((i.low - 0.3257).abs() < 1e-9 && i.high == 1.0, "{i:?}");
        let i = super::score_interval(0.1, 0.3);
        assert!(i.low == 0.0 && (i.high - 0.4).abs() < 1e-9, "{i:?}");
    }

    use super::*;

    #[test]
    fn stems_are_safe_file_names() {
        assert_eq!(stem(RunKind::Sprt, "run 1/x", "llr"), "sprt-run_1_x-llr");
        assert_eq!(
            stem(RunKind::PieceValue, "pv.2", "values"),
            "piece-value-pv.2-values"
        );
    }
}
