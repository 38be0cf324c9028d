//! Piece values: each part's Elo for the side carrying its imbalance
//! (player 0), turned into pawns by the pawn-odds calibration part, and a
//! logistic regression of White's score on the material difference over
//! every game of the campaign.

use crate::error::ReportError;
use crate::load::{Run, RunFile};
use crate::material::material_difference;
use crate::pairs::pair_up;
use crate::plot::{self, Chart, GREY, HLine, Intervals, PALETTE};
use crate::table::Table;
use crate::{fmt_plots, stem};
use ajaxlab_rules::{Color, MAX_KINDS, PieceKind, Variant};
use ajaxlab_stats::{
    Dispersion, EloEstimate, GameScore, Interval, Pentanomial, RatioEstimate, RegressionError,
    Z_95, logistic_regression, ratio,
};
use ajaxlab_store::RunKind;
use std::fmt;
use std::path::{Path, PathBuf};

/// The report of a piece-value campaign.
#[derive(Clone, Debug, PartialEq)]
pub struct PieceValueReport {
    /// Campaign id (the parts are `ID.PART`).
    pub id: String,
    /// One entry per part, in the order of their names.
    pub parts: Vec<PartEstimate>,
    /// The regression over every game.
    pub regression: Result<MaterialRegression, MaterialRegressionError>,
    /// SVG and PNG files written.
    pub plots: Vec<PathBuf>,
}

/// One part: the Elo of the side carrying the imbalance, and its worth.
#[derive(Clone, Debug, PartialEq)]
pub struct PartEstimate {
    /// The imbalance's name.
    pub name: String,
    /// Whether this is the pawn-odds calibration.
    pub calibration: bool,
    /// Pair counts for player 0 (the side carrying the imbalance).
    pub pentanomial: Pentanomial,
    /// Games without their pair partner (not counted).
    pub unpaired_games: usize,
    /// Player 0's Elo; `None` without a complete pair.
    pub elo: Option<EloEstimate>,
    /// `Elo / −Elo(calibration)` in pawns; `None` for the calibration
    /// itself, without a calibration, or when either Elo is missing.
    pub value: Option<RatioEstimate>,
}

/// Logistic regression of White's score on White-minus-Black material.
#[derive(Clone, Debug, PartialEq)]
pub struct MaterialRegression {
    /// Games fitted.
    pub games: usize,
    /// Quasi-binomial dispersion (Pearson).
    pub dispersion: f64,
    /// Intercept first (White's edge in logits), then one term per piece
    /// kind whose count differs in some game.
    pub terms: Vec<RegressionTerm>,
    /// The variant of the games, whose names the terms' pieces go by.
    pub variant: &'static Variant,
}

/// One coefficient of the regression.
#[derive(Clone, Debug, PartialEq)]
pub struct RegressionTerm {
    /// The piece kind, `None` for the intercept.
    pub piece: Option<PieceKind>,
    /// The coefficient, logits per piece.
    pub beta: f64,
    /// Its standard error.
    pub std_error: f64,
    /// `β / β_pawn` in pawns, with intervals; `None` for the intercept,
    /// or when the pawn count never differs.
    pub value: Option<RatioEstimate>,
}

/// Why the regression gave no answer (the rest of the report stands).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum MaterialRegressionError {
    /// Every game started with equal material.
    #[error("no game starts with a material difference")]
    NoDifference,
    /// The fit failed (a singular design names its column by index in `columns`).
    #[error("{error} (columns: {columns})")]
    Fit {
        /// What the fit said.
        error: RegressionError,
        /// The design's columns, in order.
        columns: String,
    },
}

/// Builds the report of a piece-value campaign and writes its plot.
pub(crate) fn report(run: &Run, out: &Path) -> Result<PieceValueReport, ReportError> {
    let mut names: Vec<(&str, bool)> = Vec::new();
    for file in &run.files {
        if let Some(part) = &file.part
            && !names.iter().any(|(n, _)| *n == part.name)
        {
            names.push((&part.name, part.calibration));
        }
    }
    names.sort_by_key(|&(name, calibration)| (!calibration, name));
    let mut parts: Vec<PartEstimate> = names
        .iter()
        .map(|&(name, calibration)| {
            let files = run
                .files
                .iter()
                .filter(|f| f.part.as_ref().is_some_and(|p| p.name == name));
            let pairs = pair_up(files);
            let pentanomial = pairs.pentanomial();
            PartEstimate {
                name: name.to_owned(),
                calibration,
                pentanomial,
                unpaired_games: pairs.unpaired_games,
                elo: pentanomial.elo().ok(),
                value: None,
            }
        })
        .collect();
    let calibration = parts
        .iter()
        .find(|p| p.calibration)
        .and_then(|p| p.elo.map(|e| e.as_normal(-e.elo)));
    if let Some(pawn) = calibration {
        for part in parts.iter_mut().filter(|p| !p.calibration) {
            part.value = part
                .elo
                .and_then(|e| ratio(e.as_normal(e.elo), pawn, 0.0, Z_95).ok());
        }
    }
    let regression = regress(&run.files)?;
    let plots = plot::write(
        &chart(run, &parts, &regression),
        out,
        &stem(run.kind, &run.id, "values"),
    )?;
    Ok(PieceValueReport {
        id: run.id.clone(),
        parts,
        regression,
        plots,
    })
}

/// Fits White's score on the material differences of every game.
fn regress(
    files: &[RunFile],
) -> Result<Result<MaterialRegression, MaterialRegressionError>, ReportError> {
    let mut diffs = Vec::new();
    let mut scores = Vec::new();
    for file in files {
        for game in &file.games {
            let diff = material_difference(&game.start_fen, game.variant).map_err(|letter| {
                ReportError::Game {
                    path: file.path.clone(),
                    game_id: game.game_id,
                    problem: format!("start_fen has '{letter}', which is no piece letter"),
                }
            })?;
            diffs.push(diff);
            // Half points over two: 0, ½ or 1, exact.
            scores.push(match game.score_of(Color::White) {
                GameScore::Loss => 0.0,
                GameScore::Draw => 0.5,
                GameScore::Win => 1.0,
            });
        }
    }
    // Pawn first, so that its column is the reference; kings never differ.
    let kinds: Vec<PieceKind> = PieceKind::all()
        .filter(|&k| k != PieceKind::KING && diffs.iter().any(|d| d[k.index()] != 0))
        .collect();
    let first_game = files.iter().flat_map(|f| &f.games).next();
    let (Some(game), false) = (first_game, kinds.is_empty()) else {
        return Ok(Err(MaterialRegressionError::NoDifference));
    };
    let variant = game.variant;
    let design: Vec<Vec<f64>> = diffs
        .iter()
        .map(|d: &[i32; MAX_KINDS]| {
            std::iter::once(1.0)
                .chain(kinds.iter().map(|k| f64::from(d[k.index()])))
                .collect()
        })
        .collect();
    let fit = match logistic_regression(&design, &scores, Dispersion::Pearson) {
        Ok(fit) => fit,
        Err(error) => {
            let columns = std::iter::once("intercept")
                .chain(kinds.iter().map(|&k| variant.piece_name(k)))
                .enumerate()
                .map(|(i, name)| format!("{i} {name}"))
                .collect::<Vec<_>>()
                .join(", ");
            return Ok(Err(MaterialRegressionError::Fit { error, columns }));
        }
    };
    let pawn_column = kinds
        .iter()
        .position(|&k| k == PieceKind::PAWN)
        .map(|i| i + 1);
    let terms = std::iter::once(None)
        .chain(kinds.iter().copied().map(Some))
        .enumerate()
        .map(|(j, piece)| RegressionTerm {
            piece,
            beta: fit.coefficients[j],
            std_error: fit.std_error(j).unwrap_or(f64::NAN),
            value: match (piece, pawn_column) {
                (Some(_), Some(pawn)) => fit.ratio(j, pawn, Z_95).and_then(Result::ok),
                _ => None,
            },
        })
        .collect();
    Ok(Ok(MaterialRegression {
        games: scores.len(),
        dispersion: fit.dispersion,
        terms,
        variant,
    }))
}

/// The interval drawn: Fieller's when bounded, else the delta method's.
fn shown_interval(r: &RatioEstimate) -> Interval {
    r.fieller.unwrap_or(r.delta)
}

fn chart(
    run: &Run,
    parts: &[PartEstimate],
    regression: &Result<MaterialRegression, MaterialRegressionError>,
) -> Chart {
    let mut categories = Vec::new();
    let mut by_part = Vec::new();
    let mut by_regression = Vec::new();
    for part in parts {
        if let Some(v) = &part.value {
            let i = shown_interval(v);
            by_part.push((count(categories.len()), v.value, i.low, i.high));
            categories.push(part.name.clone());
        }
    }
    if let Ok(reg) = regression {
        for term in &reg.terms {
            // The pawn is the unit: always exactly 1.
            if let (Some(piece), Some(v)) = (term.piece, &term.value)
                && piece != PieceKind::PAWN
            {
                let i = shown_interval(v);
                by_regression.push((count(categories.len()), v.value, i.low, i.high));
                let name = reg.variant.piece_name(piece);
                categories.push(format!("{name} (regression)"));
            }
        }
    }
    Chart {
        title: format!("piece-value {}: values in pawns, 95% intervals", run.id),
        x_desc: "imbalance (part) or piece (regression)".to_owned(),
        y_desc: "pawns".to_owned(),
        intervals: vec![
            Intervals {
                label: "part Elo / calibration Elo".to_owned(),
                color: PALETTE[0],
                points: by_part,
                radius: 5,
            },
            Intervals {
                label: "regression β / β(pawn)".to_owned(),
                color: PALETTE[1],
                points: by_regression,
                radius: 5,
            },
        ],
        hlines: vec![HLine {
            label: String::new(),
            color: GREY,
            y: 0.0,
        }],
        categories: Some(categories),
        ..Chart::default()
    }
}

fn count(n: usize) -> f64 {
    // Category counts are tiny.
    n as f64
}

fn fmt_ratio(r: &RatioEstimate) -> [String; 3] {
    [
        format!("{:.2}", r.value),
        format!("{:.2} .. {:.2}", r.delta.low, r.delta.high),
        r.fieller.map_or_else(
            || "unbounded".to_owned(),
            |i| format!("{:.2} .. {:.2}", i.low, i.high),
        ),
    ]
}

impl fmt::Display for PieceValueReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "== {} {}: {} parts ==",
            RunKind::PieceValue,
            self.id,
            self.parts.len()
        )?;
        let mut table = Table::new([
            "part",
            "pairs",
            "LL LD DD+WL WD WW",
            "Elo ± 95%",
            "pawns",
            "95% delta",
            "95% Fieller",
        ]);
        for p in &self.parts {
            let [ll, ld, dd, wd, ww] = p.pentanomial.buckets();
            let elo = p.elo.as_ref().map_or_else(|| "—".to_owned(), fmt_elo_short);
            let mut row = vec![
                if p.calibration {
                    format!("{} (calibration)", p.name)
                } else {
                    p.name.clone()
                },
                p.pentanomial.pairs().to_string(),
                format!("{ll} {ld} {dd} {wd} {ww}"),
                elo,
            ];
            match (&p.value, p.calibration) {
                (Some(v), _) => row.extend(fmt_ratio(v)),
                (None, true) => row.push("-1 (by definition)".to_owned()),
                (None, false) => row.push("—".to_owned()),
            }
            table.row(row);
        }
        write!(f, "{table}")?;
        let unpaired: usize = self.parts.iter().map(|p| p.unpaired_games).sum();
        if unpaired > 0 {
            writeln!(
                f,
                "  {unpaired} games without their pair partner are not counted"
            )?;
        }
        if !self.parts.iter().any(|p| p.calibration) {
            writeln!(
                f,
                "  no calibration part (ajaxlab.calibration = true): no values in pawns"
            )?;
        }
        writeln!(
            f,
            "  pawns = Elo / -Elo(calibration); intervals by the delta method and by Fieller's theorem"
        )?;
        match &self.regression {
            Err(e) => writeln!(f, "  regression on material: no answer: {e}")?,
            Ok(reg) => {
                writeln!(
                    f,
                    "  regression of White's score on material (White - Black, board + hand), \
                     logistic, quasi-binomial: {} games, dispersion {:.3}",
                    reg.games, reg.dispersion
                )?;
                let mut table =
                    Table::new(["term", "beta", "se", "pawns", "95% delta", "95% Fieller"]);
                for t in &reg.terms {
                    let mut row = vec![
                        t.piece.map_or_else(
                            || "intercept (White)".to_owned(),
                            |p| reg.variant.piece_name(p).to_owned(),
                        ),
                        format!("{:+.4}", t.beta),
                        format!("{:.4}", t.std_error),
                    ];
                    match (&t.value, t.piece) {
                        (Some(_), Some(PieceKind::PAWN)) => row.push("1 (the unit)".to_owned()),
                        (Some(v), _) => row.extend(fmt_ratio(v)),
                        (None, _) => {}
                    }
                    table.row(row);
                }
                write!(f, "{table}")?;
                if !reg.terms.iter().any(|t| t.piece == Some(PieceKind::PAWN)) {
                    writeln!(f, "  the pawn count never differs: no values in pawns")?;
                }
            }
        }
        fmt_plots(f, &self.plots)
    }
}

fn fmt_elo_short(e: &EloEstimate) -> String {
    format!("{:+.1} ± {:.1}", e.elo, e.interval.half_width())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn interval_falls_back_to_the_delta_method() {
        let r = RatioEstimate {
            value: 1.0,
            std_error: 0.5,
            delta: Interval {
                low: 0.0,
                high: 2.0,
            },
            fieller: None,
        };
        assert_eq!(shown_interval(&r), r.delta);
        assert_eq!(fmt_ratio(&r)[2], "unbounded");
    }
}
