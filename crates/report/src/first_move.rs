//! First-move advantage: self-play games from many starts, White's score
//! per start with its interval, overall with its Elo equivalent, a test of
//! whether the starts differ by more than noise, and shrunken per-start
//! estimates so that the most unbalanced starts listed are not merely the
//! luckiest.

use crate::error::ReportError;
use crate::load::Run;
use crate::plot::{self, Chart, GREY, HLine, Intervals, PALETTE};
use crate::table::Table;
use crate::{fmt_elo, fmt_plots, score_interval, stem};
use ajaxlab_stats::{
    EloEstimate, GroupEstimate, Heterogeneity, HeterogeneityError, Interval, Shrunken, Trinomial,
    Z_95, heterogeneity, score_to_elo,
};
use ajaxlab_store::record::white_counts;
use ajaxlab_store::{GameRecord, RunKind};
use std::collections::BTreeMap;
use std::fmt;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Starts listed at each end of the ranking.
const TOP: usize = 10;

/// Below this many starts every start gets a row.
const FULL_TABLE: usize = 20;

/// Which start a game was played from.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum StartKey {
    /// A numbered start (AMRC, Chess960).
    Number(u32),
    /// A start known by its FEN only.
    Fen(String),
}

impl fmt::Display for StartKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Number(n) => write!(f, "#{n}"),
            Self::Fen(fen) => f.write_str(fen.split(' ').next().unwrap_or(fen)),
        }
    }
}

/// One start's results.
#[derive(Clone, Debug, PartialEq)]
pub struct StartEstimate {
    /// The start.
    pub start: StartKey,
    /// White's wins, draws and losses (`Trinomial` counts White's view).
    pub counts: Trinomial,
    /// White's mean score.
    pub score: f64,
    /// 95% interval of the score, from the pooled per-game variance.
    pub interval: Interval,
    /// The empirical-Bayes estimate; `None` when no test could be made.
    pub shrunken: Option<Shrunken>,
}

impl StartEstimate {
    /// The shrunken score if there is one, else the raw score.
    #[must_use]
    pub fn best_score(&self) -> f64 {
        self.shrunken.map_or(self.score, |s| s.estimate)
    }
}

/// The report of a first-move campaign.
#[derive(Clone, Debug, PartialEq)]
pub struct FirstMoveReport {
    /// Campaign id.
    pub id: String,
    /// White's wins, draws and losses over every game.
    pub overall: Trinomial,
    /// White's mean score over every game.
    pub white_score: f64,
    /// Its 95% interval.
    pub score_interval: Interval,
    /// The Elo equivalent of White's score, with interval and LOS.
    pub elo: Option<EloEstimate>,
    /// Per start, ordered by shrunken (else raw) score, highest first.
    pub starts: Vec<StartEstimate>,
    /// Cochran's Q test across starts and the between-start variance.
    pub heterogeneity: Result<Heterogeneity, HeterogeneityError>,
    /// Per-start CSV and the SVG and PNG files written.
    pub files: Vec<PathBuf>,
}

/// White's score per start with its interval and empirical-Bayes
/// shrinkage, and whether the starts differ by more than noise: what a
/// first-move campaign answers, from White's counts per start (the report
/// reads them from the games; the coordinator's web UI from its counts).
#[derive(Clone, Debug, PartialEq)]
pub struct StartScores {
    /// White's wins, draws and losses over every game.
    pub overall: Trinomial,
    /// White's mean score over every game.
    pub white_score: f64,
    /// Its 95% interval.
    pub score_interval: Interval,
    /// Per start, ordered by shrunken (else raw) score, highest first.
    pub starts: Vec<StartEstimate>,
    /// Cochran's Q test across starts and the between-start variance.
    pub heterogeneity: Result<Heterogeneity, HeterogeneityError>,
}

/// [`StartScores`] of White's counts per start.
#[must_use]
pub fn start_scores(by_start: BTreeMap<StartKey, Trinomial>) -> StartScores {
    let overall = by_start.values().fold(Trinomial::default(), |a, &b| a + b);
    let white_score = overall.score().unwrap_or(0.5);
    // Per-game variance pooled over every game: per-start variances of a
    // handful of games are too noisy (zero for a start of draws only).
    let variance = overall.variance().unwrap_or(0.0);
    let games = count(overall.games());
    let half = Z_95 * (variance / games.max(1.0)).sqrt();
    let groups: Vec<GroupEstimate> = by_start
        .values()
        .map(|c| GroupEstimate {
            estimate: c.score().unwrap_or(0.5),
            variance: variance / count(c.games()),
        })
        .collect();
    let test = heterogeneity(&groups);
    let mut starts: Vec<StartEstimate> = by_start
        .into_iter()
        .zip(&groups)
        .map(|((start, counts), group)| {
            let h = Z_95 * group.variance.sqrt();
            StartEstimate {
                start,
                counts,
                score: group.estimate,
                interval: Interval {
                    low: group.estimate - h,
                    high: group.estimate + h,
                },
                shrunken: test.as_ref().ok().map(|t| t.shrink(*group)),
            }
        })
        .collect();
    starts.sort_by(|a, b| {
        (b.best_score().total_cmp(&a.best_score())).then(b.score.total_cmp(&a.score))
    });
    StartScores {
        overall,
        white_score,
        score_interval: score_interval(white_score, half),
        starts,
        heterogeneity: test,
    }
}

/// Builds the report of a first-move campaign and writes its files.
pub(crate) fn report(run: &Run, out: &Path) -> Result<FirstMoveReport, ReportError> {
    let mut by_start: BTreeMap<StartKey, Vec<&GameRecord>> = BTreeMap::new();
    for game in run.files.iter().flat_map(|f| &f.games) {
        let key = game
            .start_number
            .map_or_else(|| StartKey::Fen(game.start_fen.clone()), StartKey::Number);
        by_start.entry(key).or_default().push(game);
    }
    let scores = start_scores(
        by_start
            .into_iter()
            .map(|(start, games)| (start, white_counts(games)))
            .collect(),
    );
    let report = FirstMoveReport {
        id: run.id.clone(),
        overall: scores.overall,
        white_score: scores.white_score,
        score_interval: scores.score_interval,
        elo: scores.overall.elo().ok(),
        starts: scores.starts,
        heterogeneity: scores.heterogeneity,
        files: Vec::new(),
    };
    let csv = out.join(format!("{}.csv", stem(run.kind, &run.id, "starts")));
    std::fs::write(&csv, report.csv()).map_err(|source| ReportError::Write {
        path: csv.clone(),
        source,
    })?;
    let mut files = vec![csv];
    files.extend(plot::write(
        &report.chart(),
        out,
        &stem(run.kind, &run.id, "starts"),
    )?);
    Ok(FirstMoveReport { files, ..report })
}

fn count(n: u64) -> f64 {
    // Game counts are far below 2^53.
    n as f64
}

impl FirstMoveReport {
    /// Every start as CSV, for other tools.
    fn csv(&self) -> String {
        let mut out = String::from(
            "start,games,white_wins,draws,white_losses,white_score,low95,high95,shrunken_score,shrink_factor\n",
        );
        for s in &self.starts {
            let start = match &s.start {
                StartKey::Number(n) => n.to_string(),
                StartKey::Fen(fen) => format!("\"{}\"", fen.replace('"', "\"\"")),
            };
            let (shrunken, factor) = s.shrunken.map_or((String::new(), String::new()), |sh| {
                (format!("{:.6}", sh.estimate), format!("{:.6}", sh.factor))
            });
            // `writeln!` to a String cannot fail.
            let _ = writeln!(
                out,
                "{start},{},{},{},{},{:.6},{:.6},{:.6},{shrunken},{factor}",
                s.counts.games(),
                s.counts.wins,
                s.counts.draws,
                s.counts.losses,
                s.score,
                s.interval.low,
                s.interval.high,
            );
        }
        out
    }

    /// The caterpillar plot: starts ranked by shrunken score, raw scores
    /// with intervals behind, shrunken scores in front.
    fn chart(&self) -> Chart {
        let ranked = |i: usize| count(u64::try_from(i).unwrap_or(u64::MAX)) + 1.0;
        let raw = self
            .starts
            .iter()
            .enumerate()
            .map(|(i, s)| (ranked(i), s.score, s.interval.low, s.interval.high))
            .collect();
        let shrunken: Vec<_> = self
            .starts
            .iter()
            .enumerate()
            .filter_map(|(i, s)| {
                s.shrunken
                    .map(|sh| (ranked(i), sh.estimate, sh.estimate, sh.estimate))
            })
            .collect();
        let radius = if self.starts.len() > 200 { 2 } else { 4 };
        let mut intervals = vec![Intervals {
            label: "raw score, 95% interval".to_owned(),
            color: GREY,
            points: raw,
            radius,
        }];
        if !shrunken.is_empty() {
            intervals.push(Intervals {
                label: "shrunken (empirical Bayes)".to_owned(),
                color: PALETTE[0],
                points: shrunken,
                radius,
            });
        }
        Chart {
            title: format!("first-move {}: White's score per start", self.id),
            x_desc: "start, ranked by shrunken score".to_owned(),
            y_desc: "White's score".to_owned(),
            intervals,
            hlines: vec![
                HLine {
                    label: format!("overall {:.3}", self.white_score),
                    color: PALETTE[1],
                    y: self.white_score,
                },
                HLine {
                    label: String::new(),
                    color: GREY,
                    y: 0.5,
                },
            ],
            ..Chart::default()
        }
    }

    fn start_table<'a>(&self, starts: impl Iterator<Item = &'a StartEstimate>) -> Table {
        let mut table = Table::new([
            "start",
            "games",
            "W-D-L",
            "score",
            "95%",
            "shrunken",
            "factor",
            "Elo (shrunken)",
        ]);
        for s in starts {
            let c = s.counts;
            let (shrunken, factor) = s.shrunken.map_or(("—".to_owned(), "—".to_owned()), |sh| {
                (format!("{:.3}", sh.estimate), format!("{:.2}", sh.factor))
            });
            let elo = score_to_elo(s.best_score())
                .map_or_else(|_| "—".to_owned(), |e| format!("{e:+.1}"));
            table.row([
                s.start.to_string(),
                c.games().to_string(),
                format!("{}-{}-{}", c.wins, c.draws, c.losses),
                format!("{:.3}", s.score),
                format!("{:.3} .. {:.3}", s.interval.low, s.interval.high),
                shrunken,
                factor,
                elo,
            ]);
        }
        table
    }
}

/// A p-value: three decimals, or scientific notation below 0.001.
fn fmt_p(p: f64) -> String {
    if p >= 1e-3 {
        format!("{p:.3}")
    } else {
        format!("{p:.2e}")
    }
}

impl fmt::Display for FirstMoveReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let o = self.overall;
        writeln!(
            f,
            "== {} {}: {} games from {} starts ==",
            RunKind::FirstMove,
            self.id,
            o.games(),
            self.starts.len()
        )?;
        writeln!(
            f,
            "  White: {} wins, {} draws, {} losses; score {:.4} (95%: {:.4} .. {:.4})",
            o.wins,
            o.draws,
            o.losses,
            self.white_score,
            self.score_interval.low,
            self.score_interval.high
        )?;
        if let Some(e) = &self.elo {
            writeln!(
                f,
                "  White's advantage in Elo {}, LOS {:.2}%",
                fmt_elo(e),
                100.0 * e.los
            )?;
        }
        match &self.heterogeneity {
            Ok(h) => {
                writeln!(
                    f,
                    "  starts differ? Cochran's Q = {:.2} on {} df, p = {} ({}); \
                     between-start sd of the score {:.4} (tau^2 {:.3e}), I^2 {:.0}%",
                    h.q,
                    h.df,
                    fmt_p(h.p_value),
                    if h.p_value < 0.01 {
                        "yes, beyond noise"
                    } else if h.p_value < 0.05 {
                        "probably"
                    } else {
                        "no evidence"
                    },
                    h.tau2.sqrt(),
                    h.tau2,
                    100.0 * h.i2
                )?;
                writeln!(
                    f,
                    "  shrunken score = mean + tau^2/(tau^2 + se^2) * (score - mean), mean {:.4}; \
                     se from the per-game variance pooled over all starts",
                    h.mean
                )?;
            }
            Err(_) if self.overall.variance().is_ok_and(|v| v == 0.0) => {
                writeln!(f, "  no heterogeneity test: every game has the same result")?;
            }
            Err(e) => writeln!(f, "  no heterogeneity test: {e}")?,
        }
        if self.starts.len() <= FULL_TABLE {
            writeln!(f, "  every start, by shrunken score:")?;
            write!(f, "{}", self.start_table(self.starts.iter()))?;
        } else {
            writeln!(
                f,
                "  the {TOP} starts most favourable to White (by shrunken score):"
            )?;
            write!(f, "{}", self.start_table(self.starts.iter().take(TOP)))?;
            writeln!(
                f,
                "  the {TOP} starts most favourable to Black (by shrunken score):"
            )?;
            write!(
                f,
                "{}",
                self.start_table(self.starts.iter().rev().take(TOP))
            )?;
        }
        fmt_plots(f, &self.files)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p_values_are_readable() {
        assert_eq!(fmt_p(0.4831), "0.483");
        assert_eq!(fmt_p(4.428e-33), "4.43e-33");
    }
}
