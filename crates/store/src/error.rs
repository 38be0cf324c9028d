//! The store's one error type.

use crate::metadata::MetadataError;
use std::path::PathBuf;

/// A failure to write or read a games or trajectory file, naming the file.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// The file system refused.
    #[error("{}: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// Not Parquet, or not the columns expected.
    #[error("{}: {message}", path.display())]
    Format {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A malformed key-value metadata entry.
    #[error("{}: {source}", path.display())]
    Metadata {
        /// The file.
        path: PathBuf,
        /// The entry and what is wrong with it.
        source: MetadataError,
    },
    /// A game's row holds a value its column does not allow.
    #[error("{}: game {game_id}: {problem}", path.display())]
    Row {
        /// The file.
        path: PathBuf,
        /// The game's id.
        game_id: u64,
        /// What is wrong with it.
        problem: String,
    },
}

impl StoreError {
    /// A [`StoreError::Format`] for `path`.
    pub(crate) fn format(path: &std::path::Path, message: impl std::fmt::Display) -> Self {
        StoreError::Format {
            path: path.to_path_buf(),
            message: message.to_string(),
        }
    }

    /// A [`StoreError::Io`] for `path`.
    pub(crate) fn io(path: &std::path::Path, source: std::io::Error) -> Self {
        StoreError::Io {
            path: path.to_path_buf(),
            source,
        }
    }
}
