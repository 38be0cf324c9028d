//! Atomic writes: a temporary file beside the target, synced, then renamed
//! over it, so that readers see the old file or the new one, never a part
//! of one.

use crate::error::StoreError;
use arrow_array::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Writes one record batch to `path` atomically, Snappy-compressed (the
/// codec pyarrow and DuckDB write by default, and one compiled in: writing
/// with a codec whose feature is off panics inside parquet).
///
/// # Errors
/// [`StoreError`] if writing fails; no partial file is left at `path`.
pub fn write_batch(path: &Path, batch: &RecordBatch) -> Result<(), StoreError> {
    replace(path, Access::Default, |file| {
        let fmt = |e: parquet::errors::ParquetError| StoreError::format(path, e);
        let props = WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .build();
        let copy = file.try_clone().map_err(|e| StoreError::io(path, e))?;
        let mut writer = ArrowWriter::try_new(copy, batch.schema(), Some(props)).map_err(fmt)?;
        writer.write(batch).map_err(fmt)?;
        writer.close().map_err(fmt)?;
        Ok(())
    })
}

/// Writes `text` to `path` atomically.
///
/// # Errors
/// [`StoreError`] if writing fails; no partial file is left at `path`.
pub fn write_text(path: &Path, text: &str) -> Result<(), StoreError> {
    write_bytes(path, text.as_bytes())
}

/// Writes `bytes` to `path` atomically.
///
/// # Errors
/// As [`write_text`].
pub fn write_bytes(path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
    replace(path, Access::Default, |mut file| {
        file.write_all(bytes).map_err(|e| StoreError::io(path, e))
    })
}

/// Writes `text` to `path` atomically, readable and writable by its owner
/// alone (mode 600 on Unix) from before its first byte: for a secret such
/// as a token, which no other user may read even for a moment.
///
/// # Errors
/// As [`write_text`].
pub fn write_private_text(path: &Path, text: &str) -> Result<(), StoreError> {
    replace(path, Access::OwnerOnly, |mut file| {
        file.write_all(text.as_bytes())
            .map_err(|e| StoreError::io(path, e))
    })
}

/// Who may read a written file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    /// As the process's umask allows.
    Default,
    /// Its owner alone.
    OwnerOnly,
}

/// The part of a temporary file's name that follows its target's name:
/// files whose names contain it beside a target are unfinished writes.
pub const TEMPORARY_MARK: &str = ".tmp-";

/// The temporary file of one write of `path`: `path` with
/// [`TEMPORARY_MARK`], the process id and a per-process count added, so
/// that two writes of one file at once (two threads, two processes) never
/// share one.
fn temporary_path(path: &Path) -> PathBuf {
    static WRITES: AtomicU64 = AtomicU64::new(0);
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(
        "{TEMPORARY_MARK}{}-{}",
        std::process::id(),
        WRITES.fetch_add(1, Ordering::Relaxed)
    ));
    PathBuf::from(tmp)
}

/// Writes `path` through `write` into a temporary file of its own
/// ([`temporary_path`]), then renames it over `path`; the temporary file
/// is removed on failure.
fn replace(
    path: &Path,
    access: Access,
    write: impl FnOnce(&File) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let tmp = temporary_path(path);
    let result = write_then_rename(&tmp, path, access, write);
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn write_then_rename(
    tmp: &Path,
    path: &Path,
    access: Access,
    write: impl FnOnce(&File) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let io = |e| StoreError::io(path, e);
    let mut options = File::options();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    if access == Access::OwnerOnly {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let file = options.open(tmp).map_err(io)?;
    #[cfg(unix)]
    if access == Access::OwnerOnly {
        use std::os::unix::fs::PermissionsExt;
        // A stale temporary file of the same name keeps its mode: set it.
        file.set_permissions(std::fs::Permissions::from_mode(0o600))
            .map_err(io)?;
    }
    write(&file)?;
    file.sync_all().map_err(io)?;
    std::fs::rename(tmp, path).map_err(io)?;
    // Syncing the directory makes the rename durable; where a directory
    // cannot be opened the file is still complete.
    if let Some(dir) = path.parent().and_then(|d| File::open(d).ok()) {
        let _ = dir.sync_all();
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_replaces_the_file_and_leaves_no_temporary_one() {
        let dir = std::env::temp_dir().join(format!("ajaxlab-atomic-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("final.toml");
        write_text(&path, "old\n").unwrap();
        write_text(&path, "new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["final.toml"]);
        let missing = dir.join("no-such-dir").join("final.toml");
        assert!(matches!(
            write_text(&missing, "x"),
            Err(StoreError::Io { path, .. }) if path == missing
        ));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Sixteen writers of one file at once: each write is whole, one of
    /// them is the file, and no temporary file is left.
    #[cfg(unix)]
    #[test]
    fn a_private_file_is_its_owners_alone_even_over_a_readable_one() {
        use std::os::unix::fs::PermissionsExt;
        let dir =
            std::env::temp_dir().join(format!("ajaxlab-atomic-private-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("worker.token");
        write_text(&path, "readable\n").unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
        write_private_text(&path, "secret\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "secret\n");
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "{mode:o}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn writes_of_one_file_at_once_never_share_a_temporary_file() {
        let dir = std::env::temp_dir().join(format!("ajaxlab-atomic-race-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("unit.txt");
        let texts: Vec<String> = (0..16).map(|i| format!("{i}\n").repeat(10_000)).collect();
        std::thread::scope(|s| {
            for text in &texts {
                let path = &path;
                s.spawn(move || write_text(path, text).unwrap());
            }
        });
        let written = std::fs::read_to_string(&path).unwrap();
        assert!(texts.contains(&written), "a write is whole");
        let names: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["unit.txt"]);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
