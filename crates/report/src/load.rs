//! Finding and reading a run directory: every games file below it, grouped
//! into runs by the kind and campaign id in their metadata, and every
//! `spsa.parquet` trajectory.

use crate::error::ReportError;
use ajaxlab_arena::GameRecord;
use ajaxlab_arena::parquet_io::SPSA_FILE;
use ajaxlab_arena::parquet_io::{
    self, CALIBRATION_KEY, CAMPAIGN_KEY, FileMetadata, KIND_KEY, PART_KEY, SPRT_KEY, StoreError,
};
use ajaxlab_stats::EloModel;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};

/// What a run measured, from the `ajaxlab.kind` metadata.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// A match between two players (`ajaxlab match`, or a campaign of that kind).
    Match,
    /// A sequential test of player 0 against player 1.
    Sprt,
    /// An SPSA tune.
    Spsa,
    /// Piece values from imbalanced starts, one part per imbalance.
    PieceValue,
    /// Self-play from many starts: White's advantage per start.
    FirstMove,
}

impl Kind {
    /// The name stored in the metadata.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Match => "match",
            Self::Sprt => "sprt",
            Self::Spsa => "spsa",
            Self::PieceValue => "piece-value",
            Self::FirstMove => "first-move",
        }
    }

    fn parse(text: &str) -> Option<Self> {
        [
            Self::Match,
            Self::Sprt,
            Self::Spsa,
            Self::PieceValue,
            Self::FirstMove,
        ]
        .into_iter()
        .find(|k| k.as_str() == text)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An SPRT's design as stored in `ajaxlab.sprt`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtSpec {
    /// H0.
    pub elo0: f64,
    /// H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
    /// The Elo scale of the bounds.
    pub model: EloModel,
}

/// The JSON of `ajaxlab.sprt`.
#[derive(serde::Deserialize)]
struct SprtJson {
    elo0: f64,
    elo1: f64,
    #[serde(default = "default_error_rate")]
    alpha: f64,
    #[serde(default = "default_error_rate")]
    beta: f64,
    #[serde(default = "default_model")]
    model: String,
}

fn default_error_rate() -> f64 {
    ajaxlab_stats::DEFAULT_ERROR_RATE
}

fn default_model() -> String {
    "normalized".to_owned()
}

/// A piece-value part: one imbalance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Part {
    /// The part's campaign id (`NAME.PART`).
    pub(crate) id: String,
    /// The imbalance's name.
    pub(crate) name: String,
    /// Whether this is the pawn-odds calibration.
    pub(crate) calibration: bool,
}

/// The games of one run read from one file.
#[derive(Clone, Debug)]
pub(crate) struct RunFile {
    pub(crate) path: PathBuf,
    /// The piece-value part the file belongs to.
    pub(crate) part: Option<Part>,
    /// The SPRT design, for SPRT files.
    pub(crate) sprt: Option<SprtSpec>,
    pub(crate) games: Vec<GameRecord>,
}

/// One run: every file of a campaign, or a match's games.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub(crate) kind: Kind,
    pub(crate) id: String,
    /// In path order, which is the order units were written.
    pub(crate) files: Vec<RunFile>,
}

/// Everything below a run directory.
#[derive(Clone, Debug, Default)]
pub(crate) struct RunDir {
    pub(crate) runs: Vec<Run>,
    /// `spsa.parquet` files.
    pub(crate) spsa: Vec<PathBuf>,
}

/// Lists and reads every Parquet file below `dir`, skipping the report's
/// output directory `out` and the default one, `dir/report`.
pub(crate) fn load(dir: &Path, out: &Path) -> Result<RunDir, ReportError> {
    let mut games = Vec::new();
    let mut spsa = Vec::new();
    let skip = [out.to_path_buf(), dir.join(crate::DEFAULT_OUT_DIR)];
    walk(dir, &skip, &mut games, &mut spsa)?;
    if games.is_empty() && spsa.is_empty() {
        return Err(ReportError::NoParquet {
            path: dir.to_path_buf(),
        });
    }
    let mut runs: BTreeMap<(Kind, String), Run> = BTreeMap::new();
    for path in games {
        for (kind, id, file) in read_file(&path)? {
            runs.entry((kind, id.clone()))
                .or_insert_with(|| Run {
                    kind,
                    id,
                    files: Vec::new(),
                })
                .files
                .push(file);
        }
    }
    let runs: Vec<Run> = runs.into_values().collect();
    for run in &runs {
        check_duplicates(run)?;
    }
    Ok(RunDir { runs, spsa })
}

/// Collects `*.parquet` paths below `dir` in sorted order.
fn walk(
    dir: &Path,
    skip: &[PathBuf],
    games: &mut Vec<PathBuf>,
    spsa: &mut Vec<PathBuf>,
) -> Result<(), ReportError> {
    let list_error = |source| ReportError::ListDir {
        path: dir.to_path_buf(),
        source,
    };
    let mut entries = std::fs::read_dir(dir)
        .map_err(list_error)?
        .collect::<Result<Vec<_>, _>>()
        .map_err(list_error)?;
    entries.sort_by_key(std::fs::DirEntry::path);
    for entry in entries {
        let path = entry.path();
        let file_type = entry.file_type().map_err(list_error)?;
        if file_type.is_dir() {
            if !skip.iter().any(|s| same_place(&path, s)) {
                walk(&path, skip, games, spsa)?;
            }
        } else if path.extension().is_some_and(|e| e == "parquet") {
            if path.file_name().is_some_and(|n| n == SPSA_FILE) {
                spsa.push(path);
            } else {
                games.push(path);
            }
        }
    }
    Ok(())
}

fn same_place(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

fn read_error(path: &Path, error: StoreError) -> ReportError {
    let reason = match error {
        StoreError::Io { source, .. } => source.to_string(),
        StoreError::Format { message, .. } => message,
    };
    ReportError::Read {
        path: path.to_path_buf(),
        reason,
    }
}

/// Reads one games file: its runs (one per `run_id` for match files
/// without campaign metadata, else one) with their kind and id.
fn read_file(path: &Path) -> Result<Vec<(Kind, String, RunFile)>, ReportError> {
    let metadata = parquet_io::read_metadata(path).map_err(|e| read_error(path, e))?;
    let (records, _) = parquet_io::read_games(path).map_err(|e| read_error(path, e))?;
    for game in &records {
        if !matches!(game.result.as_str(), "1-0" | "0-1" | "1/2-1/2") {
            return Err(ReportError::Game {
                path: path.to_path_buf(),
                game_id: game.game_id,
                problem: format!("result '{}' is not 1-0, 0-1 or 1/2-1/2", game.result),
            });
        }
    }
    let kind = match metadata.get(KIND_KEY) {
        None => Kind::Match,
        Some(text) => Kind::parse(text).ok_or_else(|| ReportError::Metadata {
            path: path.to_path_buf(),
            key: KIND_KEY.to_owned(),
            problem: format!("'{text}' is not one of match, sprt, spsa, piece-value, first-move"),
        })?,
    };
    let campaign = metadata.get(CAMPAIGN_KEY).cloned();
    let sprt = if kind == Kind::Sprt {
        Some(sprt_spec(path, &metadata)?)
    } else {
        None
    };
    let part = if kind == Kind::PieceValue {
        let id = campaign
            .clone()
            .or_else(|| records.first().map(|g| g.run_id.clone()))
            .unwrap_or_default();
        let name = metadata.get(PART_KEY).cloned().unwrap_or_else(|| {
            id.rsplit_once('.')
                .map_or_else(|| id.clone(), |(_, part)| part.to_owned())
        });
        let calibration = match metadata.get(CALIBRATION_KEY).map(String::as_str) {
            None | Some("false") => false,
            Some("true") => true,
            Some(other) => {
                return Err(ReportError::Metadata {
                    path: path.to_path_buf(),
                    key: CALIBRATION_KEY.to_owned(),
                    problem: format!("'{other}' is neither true nor false"),
                });
            }
        };
        Some(Part {
            id,
            name,
            calibration,
        })
    } else {
        None
    };
    let file = |games| RunFile {
        path: path.to_path_buf(),
        part: part.clone(),
        sprt,
        games,
    };
    if let Some(id) = campaign {
        let id = match &part {
            Some(p) => campaign_of_part(&id, &p.name),
            None => id,
        };
        return Ok(vec![(kind, id, file(records))]);
    }
    // No campaign: one run per run_id, in order of first appearance.
    let mut by_run: Vec<(String, Vec<GameRecord>)> = Vec::new();
    for game in records {
        match by_run.iter_mut().find(|(id, _)| *id == game.run_id) {
            Some((_, games)) => games.push(game),
            None => by_run.push((game.run_id.clone(), vec![game])),
        }
    }
    Ok(by_run
        .into_iter()
        .map(|(id, games)| {
            let id = match &part {
                Some(p) => campaign_of_part(&id, &p.name),
                None => id,
            };
            (kind, id, file(games))
        })
        .collect())
}

/// The piece-value campaign a part's id `NAME.PART` belongs to.
fn campaign_of_part(id: &str, part: &str) -> String {
    id.strip_suffix(part)
        .and_then(|rest| rest.strip_suffix('.'))
        .or_else(|| id.rsplit_once('.').map(|(name, _)| name))
        .unwrap_or(id)
        .to_owned()
}

fn sprt_spec(path: &Path, metadata: &FileMetadata) -> Result<SprtSpec, ReportError> {
    let problem = |problem: String| ReportError::Metadata {
        path: path.to_path_buf(),
        key: SPRT_KEY.to_owned(),
        problem,
    };
    let text = metadata
        .get(SPRT_KEY)
        .ok_or_else(|| problem("missing in an sprt file".to_owned()))?;
    let json: SprtJson =
        serde_json::from_str(text).map_err(|e| problem(format!("'{text}': {e}")))?;
    let model = match json.model.as_str() {
        "normalized" => EloModel::Normalized,
        "logistic" => EloModel::Logistic,
        other => {
            return Err(problem(format!(
                "model '{other}' is neither normalized nor logistic"
            )));
        }
    };
    Ok(SprtSpec {
        elo0: json.elo0,
        elo1: json.elo1,
        alpha: json.alpha,
        beta: json.beta,
        model,
    })
}

/// Refuses a run in which a game id occurs twice (per piece-value part).
fn check_duplicates(run: &Run) -> Result<(), ReportError> {
    let mut seen: HashMap<(Option<&str>, &str, u64), &Path> = HashMap::new();
    for file in &run.files {
        let part = file.part.as_ref().map(|p| p.id.as_str());
        for game in &file.games {
            let key = (part, game.run_id.as_str(), game.game_id);
            if let Some(other) = seen.insert(key, &file.path) {
                return Err(ReportError::DuplicateGame {
                    path: file.path.clone(),
                    other: other.to_path_buf(),
                    run: run.id.clone(),
                    game_id: game.game_id,
                });
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip() {
        for k in ["match", "sprt", "spsa", "piece-value", "first-move"] {
            assert_eq!(Kind::parse(k).map(Kind::as_str), Some(k));
        }
        assert_eq!(Kind::parse("tune"), None);
    }

    #[test]
    fn part_ids_name_their_campaign() {
        assert_eq!(campaign_of_part("falcon.vs-rook", "vs-rook"), "falcon");
        assert_eq!(campaign_of_part("a.b.c", "c"), "a.b");
        assert_eq!(campaign_of_part("a.b.c", "other"), "a.b");
        assert_eq!(campaign_of_part("plain", "x"), "plain");
    }
}
