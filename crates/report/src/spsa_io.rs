//! Reading a campaign's SPSA trajectory, `spsa.parquet`: one row per
//! parameter per update, in long format — `seq` (UInt64, 0 for the start
//! values), `completed_pairs` (UInt64), `unit_id` (Utf8), `param` (Utf8) and
//! `value` (Float64, θ after that update).

use crate::error::ReportError;
use ajaxlab_arena::parquet_io::TrajectoryRow;
use arrow_array::{Array, Float64Array, RecordBatch, StringArray, UInt64Array};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::fs::File;
use std::path::Path;

/// Reads every row of an `spsa.parquet` file.
pub(crate) fn read_spsa(path: &Path) -> Result<Vec<TrajectoryRow>, ReportError> {
    let problem = |problem: String| ReportError::Spsa {
        path: path.to_path_buf(),
        problem,
    };
    let file = File::open(path).map_err(|e| problem(e.to_string()))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(ParquetRecordBatchReaderBuilder::build)
        .map_err(|e| problem(e.to_string()))?;
    let mut rows = Vec::new();
    for batch in reader {
        let batch = batch.map_err(|e| problem(e.to_string()))?;
        let seq = column::<UInt64Array>(&batch, "seq", "UInt64").map_err(&problem)?;
        let pairs = column::<UInt64Array>(&batch, "completed_pairs", "UInt64").map_err(&problem)?;
        let unit = column::<StringArray>(&batch, "unit_id", "Utf8").map_err(&problem)?;
        let param = column::<StringArray>(&batch, "param", "Utf8").map_err(&problem)?;
        let value = column::<Float64Array>(&batch, "value", "Float64").map_err(&problem)?;
        for row in 0..batch.num_rows() {
            if seq.is_null(row) || pairs.is_null(row) || param.is_null(row) || value.is_null(row) {
                return Err(problem(format!(
                    "row {row}: seq, completed_pairs, param and value must not be null"
                )));
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

fn column<'a, T: 'static>(
    batch: &'a RecordBatch,
    name: &str,
    type_name: &str,
) -> Result<&'a T, String> {
    batch
        .column_by_name(name)
        .ok_or_else(|| format!("column '{name}' is missing"))?
        .as_any()
        .downcast_ref::<T>()
        .ok_or_else(|| format!("column '{name}' is not {type_name}"))
}
