//! One coordinator per state directory: it holds an exclusive lock on
//! `coordinator.lock` for as long as it runs, with its process id written
//! in the file, so that a second one started on the same directory is
//! refused with the holder's pid instead of serving half of the state.
//! The lock is the operating system's (`flock`): it ends with the process,
//! however the process ends, so a killed coordinator leaves nothing to
//! clean up.

use super::error::StorageError;
use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::Path;

/// The lock file's name in the state directory.
pub const LOCK_FILE: &str = "coordinator.lock";

/// The held lock of a state directory; released when dropped.
#[derive(Debug)]
pub(super) struct StateLock {
    _file: File,
}

impl StateLock {
    /// Locks `dir`, or says which process holds it.
    pub(super) fn take(dir: &Path) -> Result<StateLock, StorageError> {
        let path = dir.join(LOCK_FILE);
        let io = |source| StorageError::File {
            path: path.clone(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                // The holder's pid, as it wrote it; unreadable text is shown as unknown.
                let _ = file.read_to_string(&mut holder);
                let pid = holder.trim().parse::<u32>().ok();
                return Err(StorageError::InUse {
                    dir: dir.to_owned(),
                    pid,
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0).map_err(io)?;
        file.rewind().map_err(io)?;
        writeln!(file, "{}", std::process::id()).map_err(io)?;
        Ok(StateLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_of_a_directory_is_refused_naming_the_holder() {
        let dir = std::env::temp_dir().join(format!("ajaxlab-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let held = StateLock::take(&dir).unwrap();
        let Err(StorageError::InUse { pid, .. }) = StateLock::take(&dir) else {
            panic!("a second coordinator is refused");
        };
        assert_eq!(pid, Some(std::process::id()));
        drop(held);
        assert!(
            StateLock::take(&dir).is_ok(),
            "the lock ends with its holder"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
