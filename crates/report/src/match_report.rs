//! Matches and SPRTs: player 0's Elo ± 95% from the pentanomial, nElo,
//! LOS, the Elo with its interval against games, and for an SPRT the LLR
//! against games with its bounds and the verdict.

use crate::error::ReportError;
use crate::load::Run;
use crate::pairs::{Pairs, pair_up};
use crate::plot::{self, Band, Chart, GREY, HLine, Line, PALETTE};
use crate::{fmt_elo, fmt_plots, score_interval, stem};
use ajaxlab_stats::{
    Counts, EloEstimate, LlrBounds, NeloEstimate, Pentanomial, Sprt, SprtError, Status, Trinomial,
    Z_95, hypotheses_text, llr_text, verdict_text,
};
use ajaxlab_store::record::white_counts;
use ajaxlab_store::{RunKind, SprtMetadata};
use std::fmt;
use std::num::NonZeroU64;
use std::path::{Path, PathBuf};

/// At most this many SPRT updates are replayed (and Elo points plotted);
/// longer runs are replayed in batches of equal size.
const MAX_UPDATES: usize = 2_000;

/// The report of a match or an SPRT.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    /// [`RunKind::Match`] or [`RunKind::Sprt`].
    pub kind: RunKind,
    /// Campaign id, or the match's run id.
    pub id: String,
    /// Player 0's and player 1's names; Elo is player 0's.
    pub players: [String; 2],
    /// Pair counts from player 0's view.
    pub pentanomial: Pentanomial,
    /// Games whose pair partner is missing (not counted).
    pub unpaired_games: usize,
    /// White's wins, draws and losses over every game, whoever played
    /// White: the first-move advantage of a self-play match.
    pub white: Trinomial,
    /// Player 0's Elo; `None` without a complete pair.
    pub elo: Option<EloEstimate>,
    /// Player 0's normalized Elo; `None` without a complete pair.
    pub nelo: Option<NeloEstimate>,
    /// The SPRT replayed over the pairs in the order they finished.
    pub sprt: Option<Result<SprtOutcome, SprtError>>,
    /// SVG and PNG files written.
    pub plots: Vec<PathBuf>,
}

/// An SPRT's state after all stored pairs: where it decided, or after the
/// last pair if it did not.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtOutcome {
    /// The design from the metadata.
    pub spec: SprtMetadata,
    /// The LLR over `tested`.
    pub llr: f64,
    /// The pairs the test counted: those up to its verdict (the later ones
    /// were played after it), or all.
    pub tested: Pentanomial,
    /// Wald's bounds.
    pub bounds: LlrBounds,
    /// The verdict (final once a bound was crossed).
    pub status: Status,
    /// Games played when the verdict was reached.
    pub decided_after_games: Option<u64>,
    /// Elo corrected for the sequential stopping (Fishtest's `SPRT_elo`).
    pub estimate: Option<EloEstimate>,
}

/// Builds the report of `run` and writes its plots to `out`.
pub(crate) fn report(run: &Run, out: &Path) -> Result<MatchReport, ReportError> {
    let pairs = pair_up(&run.files);
    let pentanomial = pairs.pentanomial();
    let elo = pentanomial.elo().ok();
    let nelo = pentanomial.nelo().ok();
    let spec = run.files.iter().find_map(|f| f.sprt.map(|s| (s, &f.path)));
    let mut llr_path = Vec::new();
    let sprt = match spec {
        Some((spec, path)) => Some(replay_sprt(spec, path, &pairs, &mut llr_path)?),
        None => None,
    };
    let mut plots = Vec::new();
    if !pairs.pairs.is_empty() {
        plots.extend(plot::write(
            &elo_chart(run, &pairs),
            out,
            &stem(run.kind, &run.id, "elo"),
        )?);
    }
    if let Some(Ok(outcome)) = &sprt
        && !llr_path.is_empty()
    {
        plots.extend(plot::write(
            &llr_chart(run, outcome, llr_path),
            out,
            &stem(run.kind, &run.id, "llr"),
        )?);
    }
    Ok(MatchReport {
        kind: run.kind,
        id: run.id.clone(),
        players: pairs.players.clone(),
        pentanomial,
        unpaired_games: pairs.unpaired_games,
        white: white_counts(run.files.iter().flat_map(|f| &f.games)),
        elo,
        nelo,
        sprt,
        plots,
    })
}

/// The indices (1-based pair counts) after which running statistics are
/// taken: every `batch` pairs, and after the last.
fn checkpoints(pairs: usize) -> (usize, Vec<usize>) {
    let batch = pairs.div_ceil(MAX_UPDATES).max(1);
    let mut points: Vec<usize> = (1..=pairs / batch).map(|i| i * batch).collect();
    if points.last() != Some(&pairs) && pairs > 0 {
        points.push(pairs);
    }
    (batch, points)
}

fn games(pairs: usize) -> f64 {
    // Pair counts are far below 2^52.
    2.0 * pairs as f64
}

fn replay_sprt(
    spec: SprtMetadata,
    path: &Path,
    pairs: &Pairs,
    llr_path: &mut Vec<(f64, f64)>,
) -> Result<Result<SprtOutcome, SprtError>, ReportError> {
    let (batch, points) = checkpoints(pairs.pairs.len());
    let batch_size = NonZeroU64::new(u64::try_from(batch).unwrap_or(1)).unwrap_or(NonZeroU64::MIN);
    let config = spec.config().with_batch_size(batch_size);
    let mut sprt = Sprt::new(config).map_err(|e| ReportError::Metadata {
        path: path.to_path_buf(),
        key: ajaxlab_store::metadata::SPRT_KEY.to_owned(),
        problem: e.to_string(),
    })?;
    let cumulative: Vec<Pentanomial> = pairs.cumulative().collect();
    let mut decided_after_games = None;
    for &n in &points {
        let status = match sprt.update(cumulative[n - 1]) {
            Ok(status) => status,
            Err(e) => return Ok(Err(e)),
        };
        llr_path.push((games(n), sprt.llr()));
        if status != Status::Continue {
            decided_after_games = u64::try_from(2 * n).ok();
            break;
        }
    }
    let tested = match sprt.counts() {
        Some(Counts::Pentanomial(p)) => *p,
        _ => Pentanomial::default(),
    };
    Ok(Ok(SprtOutcome {
        spec,
        llr: sprt.llr(),
        tested,
        bounds: sprt.bounds(),
        status: sprt.status(),
        decided_after_games,
        estimate: sprt.estimate().ok(),
    }))
}

fn elo_chart(run: &Run, pairs: &Pairs) -> Chart {
    let cumulative: Vec<Pentanomial> = pairs.cumulative().collect();
    let (_, points) = checkpoints(cumulative.len());
    // The first few pairs have intervals hundreds of Elo wide; start the
    // curve once 5% of the pairs are in.
    let first = cumulative.len().div_ceil(20).max(1);
    let mut line = Vec::new();
    let mut band = Vec::new();
    for &n in points.iter().filter(|&&n| n >= first) {
        if let Ok(e) = cumulative[n - 1].elo() {
            line.push((games(n), e.elo));
            band.push((games(n), e.interval.low, e.interval.high));
        }
    }
    let [p0, p1] = &pairs.players;
    Chart {
        title: format!("{} {}: Elo of {p0} against {p1}", run.kind, run.id),
        x_desc: "games".to_owned(),
        y_desc: "Elo (pentanomial)".to_owned(),
        lines: vec![Line {
            label: "Elo".to_owned(),
            color: PALETTE[0],
            points: line,
        }],
        bands: vec![Band {
            label: "95% interval".to_owned(),
            color: PALETTE[0],
            points: band,
        }],
        hlines: vec![HLine {
            label: String::new(),
            color: GREY,
            y: 0.0,
        }],
        ..Chart::default()
    }
}

fn llr_chart(run: &Run, outcome: &SprtOutcome, llr_path: Vec<(f64, f64)>) -> Chart {
    let s = outcome.spec;
    Chart {
        title: format!(
            "SPRT {}: LLR of [{}, {}] ({})",
            run.id, s.elo0, s.elo1, s.model
        ),
        x_desc: "games".to_owned(),
        y_desc: "log-likelihood ratio".to_owned(),
        lines: vec![Line {
            label: "LLR".to_owned(),
            color: PALETTE[0],
            points: llr_path,
        }],
        hlines: vec![
            HLine {
                label: format!("H1 bound {:.2} (Fishtest's)", outcome.bounds.upper),
                color: PALETTE[2],
                y: outcome.bounds.upper,
            },
            HLine {
                label: format!("H0 bound {:.2} (Fishtest's)", outcome.bounds.lower),
                color: PALETTE[1],
                y: outcome.bounds.lower,
            },
        ],
        ..Chart::default()
    }
}

impl fmt::Display for MatchReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [p0, p1] = &self.players;
        writeln!(f, "== {} {}: {p0} against {p1} ==", self.kind, self.id)?;
        let p = self.pentanomial;
        writeln!(
            f,
            "  games {} ({} pairs; {} unpaired games not counted)",
            p.games(),
            p.pairs(),
            self.unpaired_games
        )?;
        let [ll, ld, dd, wd, ww] = p.buckets();
        writeln!(
            f,
            "  pentanomial LL LD DD+WL WD WW (for {p0}): {ll} {ld} {dd} {wd} {ww}"
        )?;
        match (&self.elo, &self.nelo) {
            (Some(elo), Some(nelo)) => {
                writeln!(f, "  Elo   {}", fmt_elo(elo))?;
                writeln!(
                    f,
                    "  nElo  {:+.2} ± {:.2}",
                    nelo.nelo,
                    nelo.interval.half_width()
                )?;
                writeln!(f, "  LOS   {:.2}%", 100.0 * elo.los)?;
            }
            _ => writeln!(f, "  no complete pair yet")?,
        }
        let w = self.white;
        if let (Ok(score), Ok(variance)) = (w.score(), w.variance()) {
            let half = Z_95 * (variance / w.games() as f64).sqrt();
            let interval = score_interval(score, half);
            writeln!(
                f,
                "  White {} wins, {} draws, {} losses: score {score:.4} (95%: {:.4} .. {:.4})",
                w.wins, w.draws, w.losses, interval.low, interval.high
            )?;
        }
        match &self.sprt {
            None => {}
            Some(Err(e)) => writeln!(f, "  SPRT  cannot be computed: {e}")?,
            Some(Ok(s)) => {
                let spec = s.spec;
                writeln!(
                    f,
                    "  {}, alpha {}, beta {}",
                    hypotheses_text(spec.elo0, spec.elo1, spec.model),
                    spec.alpha,
                    spec.beta
                )?;
                writeln!(f, "  {}", llr_text(s.llr, s.bounds))?;
                match s.decided_after_games {
                    Some(g) => writeln!(
                        f,
                        "  verdict {}",
                        verdict_text(s.status, g / 2, p.games() / 2)
                    )?,
                    None => writeln!(f, "  verdict none: no bound crossed in {} games", p.games())?,
                }
                if let (Some(e), Some(_)) = (&s.estimate, s.decided_after_games) {
                    writeln!(f, "  Elo corrected for stopping {}", fmt_elo(e))?;
                }
            }
        }
        fmt_plots(f, &self.plots)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checkpoints_cover_every_pair_or_batches_of_them() {
        assert_eq!(checkpoints(0), (1, vec![]));
        assert_eq!(checkpoints(3), (1, vec![1, 2, 3]));
        let (batch, points) = checkpoints(4_001);
        assert_eq!(batch, 3);
        assert_eq!(points.len(), 1_334);
        assert_eq!(points.last(), Some(&4_001));
        assert_eq!(points[0], 3);
    }
}
