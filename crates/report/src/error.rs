//! What can go wrong making a report; every error names the file or
//! directory it is about.

use std::path::PathBuf;

/// A report could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// The run directory (or one below it) cannot be listed.
    #[error("{}: cannot list the directory: {source}", path.display())]
    ListDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// No Parquet file was found under the run directory.
    #[error("{}: no Parquet files (games or spsa.parquet) below this directory", path.display())]
    NoParquet {
        /// The run directory.
        path: PathBuf,
    },
    /// A games file cannot be read: not Parquet, truncated, or not a games file.
    #[error("{}: not a readable games file: {reason}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the reader said.
        reason: String,
    },
    /// A file's key-value metadata has a missing or malformed entry.
    #[error("{}: metadata {key}: {problem}", path.display())]
    Metadata {
        /// The file.
        path: PathBuf,
        /// The metadata key.
        key: String,
        /// What is wrong with it.
        problem: String,
    },
    /// A game's record cannot be used.
    #[error("{}: game {game_id}: {problem}", path.display())]
    Game {
        /// The file.
        path: PathBuf,
        /// The game's id.
        game_id: u64,
        /// What is wrong with it.
        problem: String,
    },
    /// The same game of a run is stored in two files (or twice in one).
    #[error("{}: game {game_id} of run {run} is also stored in {}", path.display(), other.display())]
    DuplicateGame {
        /// The file read second.
        path: PathBuf,
        /// The file that already had the game.
        other: PathBuf,
        /// The run.
        run: String,
        /// The game's id.
        game_id: u64,
    },
    /// An `spsa.parquet` file cannot be read or has the wrong columns.
    #[error("{}: not a readable SPSA trajectory: {problem}", path.display())]
    Spsa {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        problem: String,
    },
    /// The output directory or a file in it cannot be written.
    #[error("{}: cannot write: {source}", path.display())]
    Write {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A plot could not be drawn or encoded.
    #[error("{}: cannot draw the plot: {problem}", path.display())]
    Plot {
        /// The plot file.
        path: PathBuf,
        /// What the plotting library said.
        problem: String,
    },
    /// The embedded font could not be loaded (a build problem, not a data one).
    #[error("the embedded plot font is not a valid TrueType font")]
    Font,
}

impl From<ajaxlab_plot::PlotError> for ReportError {
    fn from(e: ajaxlab_plot::PlotError) -> Self {
        match e {
            ajaxlab_plot::PlotError::Draw { path, problem } => ReportError::Plot { path, problem },
            ajaxlab_plot::PlotError::Font => ReportError::Font,
        }
    }
}
