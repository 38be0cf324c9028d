//! The games files a command is pointed at: directories searched for the
//! files the pipeline writes (`games-*.parquet` of a match, `unit-*.parquet`
//! of a campaign), files taken as given, anything else expanded as a glob.

use std::path::{Path, PathBuf};

/// Paths that name no games file.
#[derive(Debug, thiserror::Error)]
pub enum FindError {
    /// A path that is neither a file, a directory nor a glob.
    #[error("{0}: no such file or directory")]
    Missing(String),
    /// A directory or glob without games files.
    #[error("{0}: no games files (games-*.parquet, unit-*.parquet)")]
    NoGameFiles(String),
    /// A glob that cannot be read.
    #[error("glob '{pattern}': {message}")]
    Glob {
        /// The pattern.
        pattern: String,
        /// Why.
        message: String,
    },
    /// A directory that cannot be listed.
    #[error("{path}: {source}")]
    Io {
        /// The directory.
        path: String,
        /// Why.
        source: std::io::Error,
    },
}

/// Whether `path` names a games file the pipeline writes.
#[must_use]
pub fn is_games_file(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    name.ends_with(".parquet") && (name.starts_with("games-") || name.starts_with("unit-"))
}

/// Every games file below `dir`, in name order.
fn games_files_below(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), FindError> {
    let io = |source| FindError::Io {
        path: dir.display().to_string(),
        source,
    };
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(io)?
        .map(|e| e.map(|e| e.path()))
        .collect::<Result<_, _>>()
        .map_err(io)?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            games_files_below(&path, out)?;
        } else if is_games_file(&path) {
            out.push(path);
        }
    }
    Ok(())
}

/// The games files `inputs` name, sorted, each once: directories
/// searched, files taken as given, anything else expanded as a glob.
///
/// # Errors
/// [`FindError`] for an input that names no games file.
pub fn games_files(inputs: &[String]) -> Result<Vec<PathBuf>, FindError> {
    let mut files = Vec::new();
    for input in inputs {
        let path = Path::new(input);
        let before = files.len();
        if path.is_dir() {
            games_files_below(path, &mut files)?;
        } else if path.is_file() {
            files.push(path.to_owned());
        } else if input.contains(['*', '?', '[']) {
            let glob_error = |message: String| FindError::Glob {
                pattern: input.clone(),
                message,
            };
            for entry in glob::glob(input).map_err(|e| glob_error(e.to_string()))? {
                let found = entry.map_err(|e| glob_error(e.to_string()))?;
                if found.is_file() {
                    files.push(found);
                }
            }
        } else {
            return Err(FindError::Missing(input.clone()));
        }
        if files.len() == before {
            return Err(FindError::NoGameFiles(input.clone()));
        }
    }
    files.sort();
    files.dedup();
    Ok(files)
}
