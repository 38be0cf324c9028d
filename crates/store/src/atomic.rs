//! Atomic writes, of Parquet and of text: a temporary file beside the
//! target, synced, then renamed over it, so that readers see the old file
//! or the new one, never a part of one.

use crate::error::StoreError;
use arrow_array::RecordBatch;
use parquet::arrow::ArrowWriter;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::fs::File;
use std::path::{Path, PathBuf};

/// Writes one record batch to `path` atomically, Snappy-compressed (the
/// codec pyarrow and DuckDB write by default, and one compiled in: writing
/// with a codec whose feature is off panics inside parquet).
///
/// # Errors
/// [`StoreError`] if writing fails; no partial file is left at `path`.
pub fn write_batch(path: &Path, batch: &RecordBatch) -> Result<(), StoreError> {
    write_then_rename(path, |file| write_parquet(path, file, batch))
}

/// Writes `text` to `path` atomically (a PGN file, a parameter file).
///
/// # Errors
/// [`StoreError`] if writing fails; no partial file is left at `path`.
pub fn write_text(path: &Path, text: &str) -> Result<(), StoreError> {
    use std::io::Write;
    write_then_rename(path, |mut file| {
        file.write_all(text.as_bytes())
            .map_err(|e| StoreError::io(path, e))
    })
}

/// Creates the temporary file, lets `fill` write it, syncs and renames it
/// over `path`; on any error the temporary file is removed.
fn write_then_rename(
    path: &Path,
    fill: impl FnOnce(&File) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let mut tmp: PathBuf = path.to_owned().into_os_string().into();
    tmp.as_mut_os_string().push(".tmp");
    let result = fill_sync_rename(&tmp, path, fill);
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

fn fill_sync_rename(
    tmp: &Path,
    path: &Path,
    fill: impl FnOnce(&File) -> Result<(), StoreError>,
) -> Result<(), StoreError> {
    let io = |e| StoreError::io(path, e);
    let file = File::create(tmp).map_err(io)?;
    fill(&file)?;
    file.sync_all().map_err(io)?;
    std::fs::rename(tmp, path).map_err(io)?;
    // Syncing the directory makes the rename durable; where a directory
    // cannot be opened the file is still complete.
    if let Some(dir) = path.parent().and_then(|d| File::open(d).ok()) {
        let _ = dir.sync_all();
    }
    Ok(())
}

fn write_parquet(path: &Path, file: &File, batch: &RecordBatch) -> Result<(), StoreError> {
    let fmt = |e: parquet::errors::ParquetError| StoreError::format(path, e);
    let io = |e| StoreError::io(path, e);
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let mut writer =
        ArrowWriter::try_new(file.try_clone().map_err(io)?, batch.schema(), Some(props))
            .map_err(fmt)?;
    writer.write(batch).map_err(fmt)?;
    writer.close().map_err(fmt)?;
    Ok(())
}
