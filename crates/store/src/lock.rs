//! One writer per directory: a process that writes a directory's files
//! (a coordinator its state, a match its games) holds an exclusive lock on
//! a lock file in it for as long as it runs, with its process id written
//! in the file, so that a second one started on the same directory is
//! refused with the holder's pid instead of writing beside it (two matches
//! resuming one directory would play, and store, the same pairs twice).
//! The lock is the operating system's (`flock`): it ends with the process,
//! however the process ends, so a killed writer leaves nothing to clean up.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

/// The held lock of a directory; released when dropped.
#[derive(Debug)]
pub struct DirectoryLock {
    _file: File,
}

/// A directory that cannot be locked.
#[derive(Debug, thiserror::Error)]
pub enum LockError {
    /// Another process holds it.
    #[error("{} is in use by another process ({})", dir.display(), pid.map_or_else(|| "pid unknown".to_owned(), |p| format!("pid {p}")))]
    InUse {
        /// The directory.
        dir: PathBuf,
        /// The holder's process id, as its lock file says.
        pid: Option<u32>,
    },
    /// The lock file cannot be opened or written.
    #[error("{}: {source}", path.display())]
    File {
        /// The lock file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

impl DirectoryLock {
    /// Locks `dir` through its file `name`, or says which process holds it.
    ///
    /// # Errors
    /// [`LockError::InUse`] while another process holds it;
    /// [`LockError::File`] if the lock file cannot be used.
    pub fn take(dir: &Path, name: &str) -> Result<DirectoryLock, LockError> {
        let path = dir.join(name);
        let io = |source| LockError::File {
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
                return Err(LockError::InUse {
                    dir: dir.to_owned(),
                    pid,
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0).map_err(io)?;
        file.rewind().map_err(io)?;
        writeln!(file, "{}", std::process::id()).map_err(io)?;
        Ok(DirectoryLock { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_of_a_directory_is_refused_naming_the_holder() {
        let dir = std::env::temp_dir().join(format!("ajaxlab-lock-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let held = DirectoryLock::take(&dir, "x.lock").unwrap();
        let Err(LockError::InUse { pid, .. }) = DirectoryLock::take(&dir, "x.lock") else {
            panic!("a second writer is refused");
        };
        assert_eq!(pid, Some(std::process::id()));
        drop(held);
        assert!(
            DirectoryLock::take(&dir, "x.lock").is_ok(),
            "the lock ends with its holder"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
