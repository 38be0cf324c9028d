//! One coordinator per state directory: it holds the directory's
//! `coordinator.lock` ([`ajaxlab_store::lock`]) for as long as it runs, so
//! that a second one started on the same directory is refused with the
//! holder's pid instead of serving half of the state.

use super::error::StorageError;
use ajaxlab_store::lock::{DirectoryLock, LockError};
use std::path::Path;

/// The lock file's name in the state directory.
pub const LOCK_FILE: &str = "coordinator.lock";

/// Locks the state directory `dir`, or says which coordinator holds it.
pub(super) fn take(dir: &Path) -> Result<DirectoryLock, StorageError> {
    DirectoryLock::take(dir, LOCK_FILE).map_err(|e| match e {
        LockError::InUse { dir, pid } => StorageError::InUse { dir, pid },
        LockError::File { path, source } => StorageError::File { path, source },
    })
}
