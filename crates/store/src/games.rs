//! Games files: one Parquet row per [`GameRecord`], written atomically and
//! readable as they are by pyarrow, DuckDB and polars.
//!
//! Columns: `run_id`, `game_id`, `pair_id`, `variant` (ajaxlab's name),
//! `start_number`, `start_fen`, `opening_moves`, `random_plies`, `seed`,
//! `white_name`/`white_version`/`white_params`, the same for Black,
//! `time_control`, `result` (`1-0`, `0-1`, `1/2-1/2`), `termination`
//! ([`crate::Termination`]'s names), `plies`, `moves` (UCI), `final_fen`,
//! per move `scores`, `depths`, `nodes`, `times_ms`, and `started_at`/
//! `ended_at` (UTC milliseconds). The file's key-value metadata is a
//! [`FileMetadata`]; a game of a variant from a user's file is written only
//! with that file's text in the metadata, and read back through it.

use crate::atomic::write_batch;
use crate::error::StoreError;
use crate::metadata::{FileMetadata, VARIANTS_KEY};
use crate::record::{EngineOption, GameRecord, MoveRecord, PlayerRecord, parse_result};
use ajaxlab_rules::VariantSet;
use arrow_array::builder::{
    Int32Builder, ListBuilder, StringBuilder, StructBuilder, UInt32Builder, UInt64Builder,
};
use arrow_array::cast::AsArray;
use arrow_array::types::{Int32Type, UInt32Type, UInt64Type};
use arrow_array::{
    Array, ArrayRef, ListArray, RecordBatch, StringArray, TimestampMillisecondArray, UInt32Array,
    UInt64Array,
};
use arrow_schema::{ArrowError, DataType, Field, Fields, Schema, TimeUnit};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::collections::HashMap;
use std::fs::File;
use std::path::Path;
use std::sync::Arc;

/// A games file as read: its metadata and its games.
#[derive(Clone, Debug, PartialEq)]
pub struct GamesFile {
    /// The file's metadata.
    pub metadata: FileMetadata,
    /// Its games, in row order.
    pub games: Vec<GameRecord>,
}

fn list_of(name: &str, item: DataType, nullable_items: bool) -> Field {
    Field::new(
        name,
        DataType::List(Arc::new(Field::new("item", item, nullable_items))),
        false,
    )
}

/// The fields of one UCI option: its name and value.
fn option_fields() -> Fields {
    Fields::from(vec![
        Field::new("name", DataType::Utf8, false),
        Field::new("value", DataType::Utf8, false),
    ])
}

/// The field of an options column (`white_options`, `black_options`).
fn options_field(name: &str) -> Field {
    list_of(name, DataType::Struct(option_fields()), false)
}

/// The schema of a games file with `metadata`.
#[must_use]
pub fn schema(metadata: &FileMetadata) -> Schema {
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
        options_field("white_options"),
        Field::new("black_name", DataType::Utf8, false),
        Field::new("black_version", DataType::Utf8, false),
        list_of("black_params", DataType::Int32, false),
        options_field("black_options"),
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
    let pairs: HashMap<String, String> = metadata.to_pairs().into_iter().collect();
    Schema::new(fields).with_metadata(pairs)
}

pub(crate) fn strings<'a>(values: impl Iterator<Item = &'a str>) -> ArrayRef {
    Arc::new(StringArray::from_iter_values(values))
}

fn string_lists<'a, I, S>(lists: I) -> ArrayRef
where
    I: Iterator<Item = S>,
    S: IntoIterator<Item = &'a str>,
{
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

/// An options column: per game, the player's options as name-value structs.
fn option_lists<'a>(
    lists: impl Iterator<Item = &'a [EngineOption]>,
) -> Result<ArrayRef, ArrowError> {
    let item = Field::new("item", DataType::Struct(option_fields()), false);
    let mut b = ListBuilder::new(StructBuilder::from_fields(option_fields(), 0)).with_field(item);
    let missing = || ArrowError::SchemaError("the option struct's string fields".into());
    for list in lists {
        let entries = b.values();
        for o in list {
            for (i, text) in [&o.name, &o.value].into_iter().enumerate() {
                entries
                    .field_builder::<StringBuilder>(i)
                    .ok_or_else(missing)?
                    .append_value(text);
            }
            entries.append(true);
        }
        b.append(true);
    }
    Ok(Arc::new(b.finish()))
}

/// The options of `row` in an options column.
fn list_options(list: &ListArray, row: usize) -> Result<Vec<EngineOption>, String> {
    let values = list.value(row);
    let entries = values
        .as_struct_opt()
        .ok_or("an options entry is not a struct")?;
    let text = |i: usize| {
        entries
            .column(i)
            .as_string_opt::<i32>()
            .ok_or("an option's name or value is not a string")
    };
    let (names, texts) = (text(0)?, text(1)?);
    Ok((0..entries.len())
        .map(|i| EngineOption {
            name: names.value(i).to_owned(),
            value: texts.value(i).to_owned(),
        })
        .collect())
}

/// A length as a `UInt32` column value (lengths beyond it saturate; no game
/// has four billion plies).
fn length(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The record batch of `records` with `metadata`, as [`write_games`] writes it.
///
/// # Errors
/// [`ArrowError`] if Arrow refuses the columns (which the schema rules out).
pub fn record_batch(
    records: &[GameRecord],
    metadata: &FileMetadata,
) -> Result<RecordBatch, ArrowError> {
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
    let ts = |f: fn(&GameRecord) -> i64| -> ArrayRef {
        Arc::new(TimestampMillisecondArray::from_iter_values(r.iter().map(f)).with_timezone("UTC"))
    };
    let columns: Vec<ArrayRef> = vec![
        strings(r.iter().map(|g| g.run_id.as_str())),
        Arc::new(UInt64Array::from_iter_values(r.iter().map(|g| g.game_id))),
        Arc::new(UInt64Array::from_iter_values(r.iter().map(|g| g.pair_id))),
        strings(r.iter().map(|g| g.variant.name())),
        Arc::new(UInt32Array::from_iter(r.iter().map(|g| g.start_number))),
        strings(r.iter().map(|g| g.start_fen.as_str())),
        string_lists(r.iter().map(|g| g.opening_moves.iter().map(String::as_str))),
        Arc::new(UInt32Array::from_iter_values(
            r.iter().map(|g| length(g.opening_moves.len())),
        )),
        Arc::new(UInt64Array::from_iter_values(r.iter().map(|g| g.seed))),
        strings(r.iter().map(|g| g.white.name.as_str())),
        strings(r.iter().map(|g| g.white.version.as_str())),
        int_lists(r.iter().map(|g| g.white.params.as_slice())),
        option_lists(r.iter().map(|g| g.white.options.as_slice()))?,
        strings(r.iter().map(|g| g.black.name.as_str())),
        strings(r.iter().map(|g| g.black.version.as_str())),
        int_lists(r.iter().map(|g| g.black.params.as_slice())),
        option_lists(r.iter().map(|g| g.black.options.as_slice()))?,
        strings(r.iter().map(|g| g.time_control.as_str())),
        strings(r.iter().map(|g| g.result.pgn())),
        strings(r.iter().map(|g| g.termination.as_str())),
        Arc::new(UInt32Array::from_iter_values(
            r.iter().map(|g| length(g.moves.len())),
        )),
        string_lists(r.iter().map(|g| g.moves.iter().map(|m| m.uci.as_str()))),
        strings(r.iter().map(|g| g.final_fen.as_str())),
        Arc::new(scores.finish()),
        Arc::new(depths.finish()),
        Arc::new(nodes.finish()),
        Arc::new(times.finish()),
        ts(|g| g.started_at_ms),
        ts(|g| g.ended_at_ms),
    ];
    RecordBatch::try_new(Arc::new(schema(metadata)), columns)
}

/// Writes `records` with `metadata` to `path` atomically: nothing appears
/// at `path` until the whole file is written and synced.
///
/// # Errors
/// [`StoreError`] if writing fails; no partial file is left at `path`.
/// [`StoreError::Row`] for a game whose variant comes from a user's file
/// that the metadata does not carry (the games could not be read back).
pub fn write_games(
    path: &Path,
    records: &[GameRecord],
    metadata: &FileMetadata,
) -> Result<(), StoreError> {
    let variants = variant_set(path, metadata)?;
    if let Some(game) = records.iter().find(|g| !variants.contains(g.variant)) {
        return Err(StoreError::Row {
            path: path.to_path_buf(),
            game_id: game.game_id,
            problem: format!(
                "the variant {} comes from a user's file, and the metadata's {VARIANTS_KEY} does not define it",
                game.variant
            ),
        });
    }
    let batch = record_batch(records, metadata).map_err(|e| StoreError::format(path, e))?;
    write_batch(path, &batch)
}

/// The record batches of the Parquet file at `path`, each read error
/// naming the file.
///
/// # Errors
/// [`StoreError`] if the file cannot be opened or is not Parquet.
pub(crate) fn batches(
    path: &Path,
) -> Result<impl Iterator<Item = Result<RecordBatch, StoreError>> + '_, StoreError> {
    let file = File::open(path).map_err(|e| StoreError::io(path, e))?;
    let reader = ParquetRecordBatchReaderBuilder::try_new(file)
        .and_then(ParquetRecordBatchReaderBuilder::build)
        .map_err(|e| StoreError::format(path, e))?;
    Ok(reader.map(move |batch| batch.map_err(|e| StoreError::format(path, e))))
}

pub(crate) fn column<'a, T: 'static>(
    batch: &'a RecordBatch,
    name: &str,
    path: &Path,
) -> Result<&'a T, StoreError> {
    batch
        .column_by_name(name)
        .and_then(|c| c.as_any().downcast_ref::<T>())
        .ok_or_else(|| StoreError::format(path, format!("column '{name}' missing or mistyped")))
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

/// Opens a Parquet file for reading, its metadata parsed.
fn open(path: &Path) -> Result<(ParquetRecordBatchReaderBuilder<File>, FileMetadata), StoreError> {
    let file = File::open(path).map_err(|e| StoreError::io(path, e))?;
    let builder =
        ParquetRecordBatchReaderBuilder::try_new(file).map_err(|e| StoreError::format(path, e))?;
    let metadata = FileMetadata::from_pairs(builder.schema().metadata()).map_err(|source| {
        StoreError::Metadata {
            path: path.to_path_buf(),
            source,
        }
    })?;
    Ok((builder, metadata))
}

/// The variants a file's games may play: the built-ins, and those of the
/// variants text its metadata carries.
fn variant_set(path: &Path, metadata: &FileMetadata) -> Result<VariantSet, StoreError> {
    let Some(text) = &metadata.variants_ini else {
        return Ok(VariantSet::builtin());
    };
    VariantSet::with_text(VARIANTS_KEY, text).map_err(|e| StoreError::Metadata {
        path: path.to_path_buf(),
        source: crate::metadata::MetadataError {
            key: VARIANTS_KEY,
            problem: e.to_string(),
        },
    })
}

/// Reads a games file written by [`write_games`]: its metadata and every game.
///
/// # Errors
/// [`StoreError`] if the file cannot be read, is not a games file, holds
/// a value its column does not allow (an unknown variant, result or
/// termination), naming the game, or carries a variants text that does not
/// load.
pub fn read_games(path: &Path) -> Result<GamesFile, StoreError> {
    let (builder, metadata) = open(path)?;
    let variants = variant_set(path, &metadata)?;
    let reader = builder.build().map_err(|e| StoreError::format(path, e))?;
    let mut games = Vec::new();
    for batch in reader {
        let b = batch.map_err(|e| StoreError::format(path, e))?;
        read_batch(&b, path, &variants, &mut games)?;
    }
    Ok(GamesFile { metadata, games })
}

fn read_batch(
    b: &RecordBatch,
    path: &Path,
    variants: &VariantSet,
    out: &mut Vec<GameRecord>,
) -> Result<(), StoreError> {
    let s = |name| column::<StringArray>(b, name, path);
    let u64s = |name| column::<UInt64Array>(b, name, path);
    let lists = |name| column::<ListArray>(b, name, path);
    let ts = |name| column::<TimestampMillisecondArray>(b, name, path);
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
    let start_number = column::<UInt32Array>(b, "start_number", path)?;
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
    // Files written before options were recorded have no options columns.
    let options_column = |name| match b.column_by_name(name) {
        None => Ok(None),
        Some(_) => lists(name).map(Some),
    };
    let (wo, bo) = (
        options_column("white_options")?,
        options_column("black_options")?,
    );
    for row in 0..b.num_rows() {
        let bad = |problem: String| StoreError::Row {
            path: path.to_path_buf(),
            game_id: game_id.value(row),
            problem,
        };
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
        let options = |l: Option<&ListArray>| {
            l.map_or(Ok(Vec::new()), |l| list_options(l, row))
                .map_err(|e| bad(e.to_owned()))
        };
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
            variant: variants.get(variant.value(row)).ok_or_else(|| {
                bad(format!(
                    "unknown variant '{}': neither built in nor defined by the metadata's {VARIANTS_KEY}",
                    variant.value(row)
                ))
            })?,
            start_number: start_number.is_valid(row).then(|| start_number.value(row)),
            start_fen: start_fen.value(row).to_owned(),
            opening_moves: list_strings(opening, row),
            seed: seed.value(row),
            white: PlayerRecord {
                name: wn.value(row).to_owned(),
                version: wv.value(row).to_owned(),
                params: params(wp),
                options: options(wo)?,
            },
            black: PlayerRecord {
                name: bn.value(row).to_owned(),
                version: bv.value(row).to_owned(),
                params: params(bp),
                options: options(bo)?,
            },
            time_control: tc.value(row).to_owned(),
            result: parse_result(result.value(row)).map_err(|e| bad(e.to_string()))?,
            termination: term
                .value(row)
                .parse()
                .map_err(|e: crate::record::UnknownTermination| bad(e.to_string()))?,
            moves,
            final_fen: final_fen.value(row).to_owned(),
            started_at_ms: started.value(row),
            ended_at_ms: ended.value(row),
        });
    }
    Ok(())
}
