//! Game records as Parquet: one row per game, written atomically (a
//! temporary file, synced, then renamed), readable as is by pyarrow, DuckDB
//! and polars. Parameter names live in the file's key-value metadata
//! (`ajaxlab.param_names`, a JSON array in the engine's table order).

use crate::record::{GameRecord, MoveRecord, PlayerRecord, Termination};
use arrow_array::builder::{
    Int32Builder, ListBuilder, StringBuilder, UInt32Builder, UInt64Builder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, UInt32Type, UInt64Type};
use arrow_array::{
    Array, ArrayRef, ListArray, RecordBatch, StringArray, TimestampMillisecondArray, UInt32Array,
    UInt64Array,
};
use arrow_schema::{DataType, Field, Schema, TimeUnit};
use parquet::arrow::ArrowWriter;
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use parquet::basic::Compression;
use parquet::file::properties::WriterProperties;
use std::collections::HashMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Metadata key holding the parameter names.
pub const PARAM_NAMES_KEY: &str = "ajaxlab.param_names";
/// Metadata key holding the schema version.
pub const SCHEMA_VERSION_KEY: &str = "ajaxlab.schema_version";
/// Current schema version.
pub const SCHEMA_VERSION: &str = "1";
/// Metadata key holding the kind of campaign that played a file's games
/// (`match`, `sprt`, `spsa`, `piece-value`, `first-move`).
pub const KIND_KEY: &str = "ajaxlab.kind";
/// Metadata key holding the campaign id (a piece-value campaign's parts are `NAME.PART`).
pub const CAMPAIGN_KEY: &str = "ajaxlab.campaign";
/// Metadata key holding the campaign file's TOML text.
pub const CAMPAIGN_TOML_KEY: &str = "ajaxlab.campaign_toml";

/// Metadata key of a piece-value campaign's part: the imbalance's name.
pub const PART_KEY: &str = "ajaxlab.part";
/// Metadata key marking a piece-value part as the pawn-odds calibration (`true`).
pub const CALIBRATION_KEY: &str = "ajaxlab.calibration";
/// Metadata key of an SPRT campaign's test, as JSON:
/// `{"elo0":0,"elo1":5,"alpha":0.05,"beta":0.05,"model":"normalized"}`.
pub const SPRT_KEY: &str = "ajaxlab.sprt";

/// Extra key-value metadata stored in a games file beside the parameter names.
pub type FileMetadata = std::collections::BTreeMap<String, String>;

/// A failure to write or read game files.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// File system.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The error.
        source: std::io::Error,
    },
    /// Parquet or Arrow.
    #[error("{path}: {message}")]
    Format {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
}

fn list_of(name: &str, item: DataType, nullable_items: bool) -> Field {
    Field::new(
        name,
        DataType::List(Arc::new(Field::new("item", item, nullable_items))),
        false,
    )
}

/// The schema of a games file.
pub fn schema(param_names: &[&str], extra: &FileMetadata) -> Schema {
    let ts = DataType::Timestamp(TimeUnit::Millisecond, Some("UTC".into()));
    let fields = vec![
        Field::new("run_id", DataType::Utf8, false),
        Field::new("game_id", DataType::UInt64, false),
        Field::new("pair_id", DataType::UInt64, false),
        Field::new("variant", DataType::Utf8, false),
        Field::new("start_number", DataType::UInt32, true),
        Field::new("start_fen", DataType::Utf8, false),
        list_of("opening_moves", DataType::Utf8, false),
        Field::new("random_plies", DataType::UInt32, false),
        Field::new("seed", DataType::UInt64, false),
        Field::new("white_name", DataType::Utf8, false),
        Field::new("white_version", DataType::Utf8, false),
        list_of("white_params", DataType::Int32, false),
        Field::new("black_name", DataType::Utf8, false),
        Field::new("black_version", DataType::Utf8, false),
        list_of("black_params", DataType::Int32, false),
        Field::new("time_control", DataType::Utf8, false),
        Field::new("result", DataType::Utf8, false),
        Field::new("termination", DataType::Utf8, false),
        Field::new("plies", DataType::UInt32, false),
        list_of("moves", DataType::Utf8, false),
        Field::new("final_fen", DataType::Utf8, false),
        list_of("scores", DataType::Int32, true),
        list_of("depths", DataType::UInt32, true),
        list_of("nodes", DataType::UInt64, true),
        list_of("times_ms", DataType::UInt32, false),
        Field::new("started_at", ts.clone(), false),
        Field::new("ended_at", ts, false),
    ];
    let names = serde_json::to_string(param_names).unwrap_or_else(|_| "[]".into());
    let mut metadata: HashMap<String, String> = extra.clone().into_iter().collect();
    metadata.insert(PARAM_NAMES_KEY.to_owned(), names);
    metadata.insert(SCHEMA_VERSION_KEY.to_owned(), SCHEMA_VERSION.to_owned());
    Schema::new(fields).with_metadata(metadata)
}

fn strings<'a>(values: impl Iterator<Item = &'a str>) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(values))
}

fn string_lists<'a>(lists: impl Iterator<Item = &'a [String]>) -> ArrayRef {
    let mut b = ListBuilder::new(StringBuilder::new()).with_field(Field::new(
        "item",
        DataType::Utf8,
        false,
    ));
    for list in lists {
        for s in list {
            b.values().append_value(s);
        }
        b.append(true);
    }
    Arc::new(b.finish())
}

fn int_lists<'a>(lists: impl Iterator<Item = &'a [i32]>) -> ArrayRef {
    let mut b = ListBuilder::new(Int32Builder::new()).with_field(Field::new(
        "item",
        DataType::Int32,
        false,
    ));
    for list in lists {
        b.values().append_slice(list);
        b.append(true);
    }
    Arc::new(b.finish())
}

fn batch(
    records: &[GameRecord],
    schema: Arc<Schema>,
) -> Result<RecordBatch, arrow_schema::ArrowError> {
    let r = records;
    let mut scores = ListBuilder::new(Int32Builder::new());
    let mut depths = ListBuilder::new(UInt32Builder::new());
    let mut nodes = ListBuilder::new(UInt64Builder::new());
    let mut times = ListBuilder::new(UInt32Builder::new()).with_field(Field::new(
        "item",
        DataType::UInt32,
        false,
    ));
    for g in r {
        for m in &g.moves {
            scores.values().append_option(m.score);
            depths.values().append_option(m.depth);
            nodes.values().append_option(m.nodes);
            times.values().append_value(m.time_ms);
        }
        scores.append(true);
        depths.append(true);
        nodes.append(true);
        times.append(true);
    }
    let moves: Vec<Vec<String>> = r
        .iter()
        .map(|g| g.moves.iter().map(|m| m.uci.clone()).collect())
        .collect();
    let ts = |f: fn(&GameRecord) -> i64| -> ArrayRef {
        Arc::new(TimestampMillisecondArray::from_iter_values(r.iter().map(f)).with_timezone("UTC"))
    };
    let columns: Vec<ArrayRef> = vec![
        strings(r.iter().map(|g| g.run_id.as_str())),
        Arc::new(UInt64Array::from_iter_values(r.iter().map(|g| g.game_id))),
        Arc::new(UInt64Array::from_iter_values(r.iter().map(|g| g.pair_id))),
        strings(r.iter().map(|g| g.variant.as_str())),
        Arc::new(UInt32Array::from_iter(r.iter().map(|g| g.start_number))),
        strings(r.iter().map(|g| g.start_fen.as_str())),
        string_lists(r.iter().map(|g| g.opening_moves.as_slice())),
        Arc::new(UInt32Array::from_iter_values(
            r.iter().map(|g| g.opening_moves.len() as u32),
        )),
        Arc::new(UInt64Array::from_iter_values(r.iter().map(|g| g.seed))),
        strings(r.iter().map(|g| g.white.name.as_str())),
        strings(r.iter().map(|g| g.white.version.as_str())),
        int_lists(r.iter().map(|g| g.white.params.as_slice())),
        strings(r.iter().map(|g| g.black.name.as_str())),
        strings(r.iter().map(|g| g.black.version.as_str())),
        int_lists(r.iter().map(|g| g.black.params.as_slice())),
        strings(r.iter().map(|g| g.time_control.as_str())),
        strings(r.iter().map(|g| g.result.as_str())),
        strings(r.iter().map(|g| g.termination.as_str())),
        Arc::new(UInt32Array::from_iter_values(
            r.iter().map(|g| g.moves.len() as u32),
        )),
        string_lists(moves.iter().map(Vec::as_slice)),
        strings(r.iter().map(|g| g.final_fen.as_str())),
        Arc::new(scores.finish()),
        Arc::new(depths.finish()),
        Arc::new(nodes.finish()),
        Arc::new(times.finish()),
        ts(|g| g.started_at_ms),
        ts(|g| g.ended_at_ms),
    ];
    RecordBatch::try_new(schema, columns)
}

/// Writes `records` to `path` atomically: nothing appears at `path` until
/// the whole file is written and synced.
///
/// # Errors
/// [`StoreError`] if writing fails; no partial file is left at `path`.
pub fn write_games(
    path: &Path,
    records: &[GameRecord],
    param_names: &[&str],
    extra: &FileMetadata,
) -> Result<(), StoreError> {
    let schema = Arc::new(schema(param_names, extra));
    let batch = batch(records, schema).map_err(|e| StoreError::Format {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    write_batch(path, &batch)
}

/// Writes one record batch to `path` atomically (Snappy-compressed): a
/// temporary file beside it, synced, then renamed over it, so readers see
/// the old file or the new one, never a part.
///
/// # Errors
/// [`StoreError`] if writing fails; no partial file is left at `path`.
pub fn write_batch(path: &Path, batch: &RecordBatch) -> Result<(), StoreError> {
    let shown = path.display().to_string();
    let fmt = |e: &dyn std::fmt::Display| StoreError::Format {
        path: shown.clone(),
        message: e.to_string(),
    };
    let io = |source| StoreError::Io {
        path: shown.clone(),
        source,
    };
    let tmp: PathBuf = path.with_extension("parquet.tmp");
    let file = File::create(&tmp).map_err(io)?;
    let props = WriterProperties::builder()
        .set_compression(Compression::SNAPPY)
        .build();
    let result = (|| {
        let mut writer = ArrowWriter::try_new(
            file.try_clone().map_err(|e| fmt(&e))?,
            batch.schema(),
            Some(props),
        )
        .map_err(|e| fmt(&e))?;
        writer.write(batch).map_err(|e| fmt(&e))?;
        writer.close().map_err(|e| fmt(&e))?;
        file.sync_all().map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)?;
        if let Some(dir) = path.parent().and_then(|d| File::open(d).ok()) {
            let _ = dir.sync_all();
        }
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// The file name of an SPSA campaign's trajectory, in its directory.
pub const SPSA_FILE: &str = "spsa.parquet";

/// One row of an SPSA trajectory file (long format): a parameter's value
/// after an update; `seq` 0 holds the start values.
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

/// Writes an SPSA trajectory atomically (columns `seq`, `completed_pairs`,
/// `unit_id`, `param`, `value`).
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
        Arc::new(arrow_array::Float64Array::from_iter_values(
            rows.iter().map(|r| r.value),
        )),
    ];
    let batch = RecordBatch::try_new(schema, columns).map_err(|e| StoreError::Format {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    write_batch(path, &batch)
}

fn column<'a, T: 'static>(
    batch: &'a RecordBatch,
    name: &str,
    path: &str,
) -> Result<&'a T, StoreError> {
    batch
        .column_by_name(name)
        .and_then(|c| c.as_any().downcast_ref::<T>())
        .ok_or_else(|| StoreError::Format {
            path: path.to_owned(),
            message: format!("column '{name}' missing or mistyped"),
        })
}

fn list_values<T: arrow_array::ArrowPrimitiveType>(
    list: &ListArray,
    row: usize,
) -> Vec<Option<T::Native>> {
    let values = list.value(row);
    let prim = values.as_primitive::<T>();
    (0..prim.len())
        .map(|i| prim.is_valid(i).then(|| prim.value(i)))
        .collect()
}

fn list_strings(list: &ListArray, row: usize) -> Vec<String> {
    let values = list.value(row);
    let s = values.as_string::<i32>();
    (0..s.len()).map(|i| s.value(i).to_owned()).collect()
}

fn termination(text: &str) -> Option<Termination> {
    serde_json::from_value(serde_json::Value::String(text.to_owned())).ok()
}

/// The key-value metadata of a games file (parameter names, schema version,
/// and what [`write_games`] was given), without reading its rows.
///
/// # Errors
/// [`StoreError`] if the file cannot be read or is not Parquet.
pub fn read_metadata(path: &Path) -> Result<FileMetadata, StoreError> {
    let shown = path.display().to_string();
    let file = File::open(path).map_err(|source| StoreError::Io {
        path: shown.clone(),
        source,
    })?;
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| StoreError::Format {
            path: shown,
            message: e.to_string(),
        })?;
    Ok(builder
        .schema()
        .metadata()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect())
}

/// Reads every game of a file written by [`write_games`], and its parameter names.
///
/// # Errors
/// [`StoreError`] if the file cannot be read or is not a games file.
pub fn read_games(path: &Path) -> Result<(Vec<GameRecord>, Vec<String>), StoreError> {
    let shown = path.display().to_string();
    let fmt = |e: &dyn std::fmt::Display| StoreError::Format {
        path: shown.clone(),
        message: e.to_string(),
    };
    let file = File::open(path).map_err(|source| StoreError::Io {
        path: shown.clone(),
        source,
    })?;
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| fmt(&e))?;
    let names: Vec<String> = builder
        .schema()
        .metadata()
        .get(PARAM_NAMES_KEY)
        .and_then(|s| serde_json::from_str(s).ok())
        .unwrap_or_default();
    let reader = builder.build().map_err(|e| fmt(&e))?;
    let mut out = Vec::new();
    for batch in reader {
        let b = batch.map_err(|e| fmt(&e))?;
        let p = shown.as_str();
        let s = |name| column::<StringArray>(&b, name, p);
        let u64s = |name| column::<UInt64Array>(&b, name, p);
        let lists = |name| column::<ListArray>(&b, name, p);
        let ts = |name| column::<TimestampMillisecondArray>(&b, name, p);
        let (run_id, variant, start_fen, final_fen) = (
            s("run_id")?,
            s("variant")?,
            s("start_fen")?,
            s("final_fen")?,
        );
        let (wn, wv, bn, bv) = (
            s("white_name")?,
            s("white_version")?,
            s("black_name")?,
            s("black_version")?,
        );
        let (tc, result, term) = (s("time_control")?, s("result")?, s("termination")?);
        let (game_id, pair_id, seed) = (u64s("game_id")?, u64s("pair_id")?, u64s("seed")?);
        let start_number = column::<UInt32Array>(&b, "start_number", p)?;
        let (opening, wp, bp, moves) = (
            lists("opening_moves")?,
            lists("white_params")?,
            lists("black_params")?,
            lists("moves")?,
        );
        let (scores, depths, nodes, times) = (
            lists("scores")?,
            lists("depths")?,
            lists("nodes")?,
            lists("times_ms")?,
        );
        let (started, ended) = (ts("started_at")?, ts("ended_at")?);
        for row in 0..b.num_rows() {
            let ucis = list_strings(moves, row);
            let sc = list_values::<Int32Type>(scores, row);
            let de = list_values::<UInt32Type>(depths, row);
            let no = list_values::<UInt64Type>(nodes, row);
            let ti = list_values::<UInt32Type>(times, row);
            let moves = ucis
                .into_iter()
                .enumerate()
                .map(|(i, uci)| MoveRecord {
                    uci,
                    score: sc.get(i).copied().flatten(),
                    depth: de.get(i).copied().flatten(),
                    nodes: no.get(i).copied().flatten(),
                    time_ms: ti.get(i).copied().flatten().unwrap_or(0),
                })
                .collect();
            let params = |l: &ListArray| {
                list_values::<Int32Type>(l, row)
                    .into_iter()
                    .flatten()
                    .collect()
            };
            out.push(GameRecord {
                run_id: run_id.value(row).to_owned(),
                game_id: game_id.value(row),
                pair_id: pair_id.value(row),
                variant: variant.value(row).to_owned(),
                start_number: start_number.is_valid(row).then(|| start_number.value(row)),
                start_fen: start_fen.value(row).to_owned(),
                opening_moves: list_strings(opening, row),
                seed: seed.value(row),
                white: PlayerRecord {
                    name: wn.value(row).to_owned(),
                    version: wv.value(row).to_owned(),
                    params: params(wp),
                },
                black: PlayerRecord {
                    name: bn.value(row).to_owned(),
                    version: bv.value(row).to_owned(),
                    params: params(bp),
                },
                time_control: tc.value(row).to_owned(),
                result: result.value(row).to_owned(),
                termination: termination(term.value(row))
                    .ok_or_else(|| fmt(&format!("unknown termination '{}'", term.value(row))))?,
                moves,
                final_fen: final_fen.value(row).to_owned(),
                started_at_ms: started.value(row),
                ended_at_ms: ended.value(row),
            });
        }
    }
    Ok((out, names))
}
