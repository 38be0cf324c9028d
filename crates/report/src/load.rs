//! Finding and reading a run directory: every games file below it, grouped
//! into runs by the kind and campaign id in their metadata, and every
//! `spsa.parquet` trajectory.

use crate::error::ReportError;
use ajaxlab_store::positions::is_positions_file;
use ajaxlab_store::{
    GameRecord, KindMetadata, RunKind, SPSA_FILE, SprtMetadata, StoreError, read_games,
};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

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
    pub(crate) sprt: Option<SprtMetadata>,
    pub(crate) games: Vec<GameRecord>,
}

/// One run: every file of a campaign, or a match's games.
#[derive(Clone, Debug)]
pub(crate) struct Run {
    pub(crate) kind: RunKind,
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
    let mut runs: BTreeMap<(RunKind, String), Run> = BTreeMap::new();
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

/// Collects `*.parquet` paths below `dir` in sorted order (training positions,
/// `positions-*.parquet`, are no games and are left out).
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
        } else if path.extension().is_some_and(|e| e == "parquet") && !is_positions_file(&path) {
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

/// What a store error says without the path (which the report's error names).
pub(crate) fn store_problem(error: StoreError) -> String {
    match error {
        StoreError::Io { source, .. } => source.to_string(),
        StoreError::Format { message, .. } => message,
        StoreError::Metadata { source, .. } => source.problem,
        StoreError::Row { problem, .. } => problem,
    }
}

fn read_error(error: StoreError) -> ReportError {
    match error {
        StoreError::Metadata { path, source } => ReportError::Metadata {
            path,
            key: source.key.to_owned(),
            problem: source.problem,
        },
        StoreError::Row {
            path,
            game_id,
            problem,
        } => ReportError::Game {
            path,
            game_id,
            problem,
        },
        StoreError::Io { ref path, .. } | StoreError::Format { ref path, .. } => {
            ReportError::Read {
                path: path.clone(),
                reason: store_problem(error),
            }
        }
    }
}

/// Reads one games file: its runs (one per `run_id` for match files
/// without campaign metadata, else one) with their kind and id.
fn read_file(path: &Path) -> Result<Vec<(RunKind, String, RunFile)>, ReportError> {
    let file = read_games(path).map_err(read_error)?;
    let (metadata, records) = (file.metadata, file.games);
    let kind = metadata.run_kind();
    let campaign = metadata.campaign;
    let (sprt, part) = match metadata.kind {
        Some(KindMetadata::Sprt(sprt)) => (Some(sprt), None),
        Some(KindMetadata::PieceValue(part)) => {
            let id = campaign
                .as_ref()
                .map(ToString::to_string)
                .or_else(|| records.first().map(|g| g.run_id.clone()))
                .unwrap_or_default();
            let name = part.name.unwrap_or_else(|| {
                id.rsplit_once('.')
                    .map_or_else(|| id.clone(), |(_, part)| part.to_owned())
            });
            let part = Part {
                id,
                name,
                calibration: part.calibration,
            };
            (None, Some(part))
        }
        _ => (None, None),
    };
    let file = |games| RunFile {
        path: path.to_path_buf(),
        part: part.clone(),
        sprt,
        games,
    };
    if let Some(id) = campaign {
        // A part's run is its campaign's: the NAME of its NAME.PART.
        let id = match &part {
            Some(_) => id.name().to_owned(),
            None => id.to_string(),
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

/// The piece-value campaign a part's id `NAME.PART` belongs to, for a
/// part's run id (a file without a campaign id in its metadata).
fn campaign_of_part(id: &str, part: &str) -> String {
    id.strip_suffix(part)
        .and_then(|rest| rest.strip_suffix('.'))
        .or_else(|| id.rsplit_once('.').map(|(name, _)| name))
        .unwrap_or(id)
        .to_owned()
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
    fn part_ids_name_their_campaign() {
        assert_eq!(campaign_of_part("falcon.vs-rook", "vs-rook"), "falcon");
        assert_eq!(campaign_of_part("a.b.c", "c"), "a.b");
        assert_eq!(campaign_of_part("a.b.c", "other"), "a.b");
        assert_eq!(campaign_of_part("plain", "x"), "plain");
    }
}
