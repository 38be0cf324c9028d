//! An SPSA campaign's trajectory, `spsa.parquet`: one row per parameter per
//! update, in long format — `seq` (UInt64, 0 for the start values),
//! `completed_pairs` (UInt64), `unit_id` (Utf8), `param` (Utf8) and `value`
//! (Float64, θ after that update).

use crate::atomic::write_batch;
use crate::error::StoreError;
use crate::games::{batches, column, strings};
use arrow_array::{Array, ArrayRef, Float64Array, RecordBatch, StringArray, UInt64Array};
use arrow_schema::{DataType, Field, Schema};
use std::path::Path;
use std::sync::Arc;

/// The file name of an SPSA campaign's trajectory, in its directory.
pub const SPSA_FILE: &str = "spsa.parquet";

/// One row of an SPSA trajectory file: a parameter's value after an
/// update; `seq` 0 holds the start values.
#[derive(Clone, Debug, PartialEq)]
pub struct TrajectoryRow {
    /// Update number, 0 for the start.
    pub seq: u64,
    /// Game pairs applied so far (the tune's iterations).
    pub completed_pairs: u64,
    /// The unit whose result made this update (empty for the start).
    pub unit_id: String,
    /// Parameter name.
    pub param: String,
    /// Its value θ after the update.
    pub value: f64,
}

/// Writes an SPSA trajectory atomically.
///
/// # Errors
/// [`StoreError`] if writing fails.
pub fn write_trajectory(path: &Path, rows: &[TrajectoryRow]) -> Result<(), StoreError> {
    let schema = Arc::new(Schema::new(vec![
        Field::new("seq", DataType::UInt64, false),
        Field::new("completed_pairs", DataType::UInt64, false),
        Field::new("unit_id", DataType::Utf8, false),
        Field::new("param", DataType::Utf8, false),
        Field::new("value", DataType::Float64, false),
    ]));
    let columns: Vec<ArrayRef> = vec![
        Arc::new(UInt64Array::from_iter_values(rows.iter().map(|r| r.seq))),
        Arc::new(UInt64Array::from_iter_values(
            rows.iter().map(|r| r.completed_pairs),
        )),
        strings(rows.iter().map(|r| r.unit_id.as_str())),
        strings(rows.iter().map(|r| r.param.as_str())),
        Arc::new(Float64Array::from_iter_values(rows.iter().map(|r| r.value))),
    ];
    let batch = RecordBatch::try_new(schema, columns).map_err(|e| StoreError::format(path, e))?;
    write_batch(path, &batch)
}

/// Reads every row of a trajectory file (also one written by another tool:
/// a null `unit_id` reads as empty).
///
/// # Errors
/// [`StoreError`] if the file cannot be read, lacks a column, or has a
/// null `seq`, `completed_pairs`, `param` or `value`.
pub fn read_trajectory(path: &Path) -> Result<Vec<TrajectoryRow>, StoreError> {
    let mut rows = Vec::new();
    for batch in batches(path)? {
        let batch = batch?;
        let seq = column::<UInt64Array>(&batch, "seq", path)?;
        let pairs = column::<UInt64Array>(&batch, "completed_pairs", path)?;
        let unit = column::<StringArray>(&batch, "unit_id", path)?;
        let param = column::<StringArray>(&batch, "param", path)?;
        let value = column::<Float64Array>(&batch, "value", path)?;
        for row in 0..batch.num_rows() {
            if seq.is_null(row) || pairs.is_null(row) || param.is_null(row) || value.is_null(row) {
                return Err(StoreError::format(
                    path,
                    format!("row {row}: seq, completed_pairs, param and value must not be null"),
                ));
            }
            rows.push(TrajectoryRow {
                seq: seq.value(row),
                completed_pairs: pairs.value(row),
                unit_id: if unit.is_null(row) {
                    String::new()
                } else {
                    unit.value(row).to_owned()
                },
                param: param.value(row).to_owned(),
                value: value.value(row),
            });
        }
    }
    Ok(rows)
}
