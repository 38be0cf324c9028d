//! Training positions, one Parquet row per position, drawn from the games
//! of a `datagen` campaign (any games file will do): each position before
//! a move the engine played with a search score. Columns: `run_id`,
//! `game_id`, `variant` (ajaxlab's name), `fen`, `ply` (plies from the
//! start position, the opening's random plies included), `score` (the
//! search's score for the side to move, centipawns; a mate in n plies as
//! ±(30000 − n)), `result` (the game's result for the side to move: 1,
//! 0.5 or 0) and `best_move` (UCI, the move played). A unit's positions
//! are written beside its games file as `positions-….parquet` ([`file_of`]),
//! readable as they are by pyarrow, DuckDB and polars:
//! `SELECT * FROM 'runs/x/campaigns/x/positions-*.parquet'`.

use crate::atomic::write_batch;
use crate::error::StoreError;
use crate::games::{batches, column, strings};
use crate::record::GameRecord;
use ajaxlab_rules::{Move, MoveKind, Position};
use ajaxlab_stats::GameScore;
use arrow_array::{
    Array, ArrayRef, Float32Array, Int32Array, RecordBatch, StringArray, UInt32Array, UInt64Array,
};
use arrow_schema::{DataType, Field, Schema};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The name prefix of a positions file.
pub const PREFIX: &str = "positions-";

/// One training position.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionRow {
    /// The run (campaign) of the game.
    pub run_id: String,
    /// The game's number within the run.
    pub game_id: u64,
    /// The variant's name.
    pub variant: String,
    /// The position.
    pub fen: String,
    /// Plies from the start position.
    pub ply: u32,
    /// The search's score for the side to move, centipawns.
    pub score: i32,
    /// The game's result for the side to move: 1, 0.5 or 0.
    pub result: f32,
    /// The move played, UCI.
    pub best_move: String,
}

/// Which positions of a game become rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionFilter {
    /// Positions before this ply (counted from the start, the opening's
    /// random plies included) are left out.
    pub min_ply: u32,
    /// Only quiet positions: the side to move not in check, and the move
    /// played neither a capture (en passant included) nor a promotion, so
    /// that the score is what a static evaluation should learn.
    pub quiet: bool,
}

impl Default for PositionFilter {
    fn default() -> Self {
        PositionFilter {
            min_ply: 8,
            quiet: true,
        }
    }
}

/// A game whose moves cannot be replayed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game_id}: ply {ply} ({uci}): {problem}")]
pub struct ReplayError {
    /// The game's number.
    pub game_id: u64,
    /// The ply (from 1) of the move.
    pub ply: usize,
    /// The move, UCI.
    pub uci: String,
    /// What is wrong.
    pub problem: String,
}

/// The rows `filter` keeps of `game`: one per position before a played
/// move that carries a score (the opening's random plies carry none).
///
/// # Errors
/// [`ReplayError`] when the start or a move cannot be played.
pub fn positions_of(
    game: &GameRecord,
    filter: PositionFilter,
) -> Result<Vec<PositionRow>, ReplayError> {
    let fail = |ply: usize, uci: &str, problem: String| ReplayError {
        game_id: game.game_id,
        ply,
        uci: uci.to_owned(),
        problem,
    };
    let mut pos = Position::from_fen_in(game.variant, &game.start_fen)
        .map_err(|e| fail(0, "", format!("start position: {e}")))?;
    let played = game.moves.iter().map(|m| (m.uci.as_str(), m.score));
    let opening = game.opening_moves.iter().map(|uci| (uci.as_str(), None));
    let mut rows = Vec::new();
    for (index, (uci, score)) in opening.chain(played).enumerate() {
        let m = pos
            .parse_uci(uci)
            .map_err(|e| fail(index + 1, uci, e.to_string()))?;
        let ply = u32::try_from(index).unwrap_or(u32::MAX);
        if let Some(score) = score
            && ply >= filter.min_ply
            && (!filter.quiet || is_quiet(&pos, m))
        {
            rows.push(PositionRow {
                run_id: game.run_id.clone(),
                game_id: game.game_id,
                variant: game.variant.name().to_owned(),
                fen: pos.fen(),
                ply,
                score,
                result: match game.score_of(pos.side_to_move()) {
                    GameScore::Win => 1.0,
                    GameScore::Draw => 0.5,
                    GameScore::Loss => 0.0,
                },
                best_move: uci.to_owned(),
            });
        }
        pos.play(m)
            .map_err(|e| fail(index + 1, uci, e.to_string()))?;
    }
    Ok(rows)
}

/// Whether `pos` is quiet before `m`: not in check, and `m` neither a
/// capture nor a promotion.
fn is_quiet(pos: &Position, m: Move) -> bool {
    !pos.in_check()
        && pos.captured_kind(m).is_none()
        && m.promotion_kind().is_none()
        && m.kind() != MoveKind::EnPassant
}

/// The positions file beside the games file `unit_file`
/// (`unit-X.parquet` → `positions-X.parquet`).
#[must_use]
pub fn file_of(unit_file: &Path) -> PathBuf {
    let name = unit_file
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let rest = name
        .strip_prefix("unit-")
        .or_else(|| name.strip_prefix("games-"))
        .unwrap_or(name);
    unit_file.with_file_name(format!("{PREFIX}{rest}"))
}

/// Whether `path` names a positions file.
#[must_use]
pub fn is_positions_file(path: &Path) -> bool {
    path.file_name()
        .and_then(|n| n.to_str())
        .is_some_and(|n| n.starts_with(PREFIX) && n.ends_with(".parquet"))
}

/// The positions files directly in `dir`, in name order, and the rows
/// they hold (read from each file's footer, not its rows).
///
/// # Errors
/// [`StoreError`] if `dir` cannot be listed or a file's footer read.
pub fn summary(dir: &Path) -> Result<(Vec<PathBuf>, u64), StoreError> {
    let entries = std::fs::read_dir(dir).map_err(|e| StoreError::io(dir, e))?;
    let mut files = Vec::new();
    for entry in entries {
        let path = entry.map_err(|e| StoreError::io(dir, e))?.path();
        if is_positions_file(&path) {
            files.push(path);
        }
    }
    files.sort();
    let mut rows = 0u64;
    for path in &files {
        let file = File::open(path).map_err(|e| StoreError::io(path, e))?;
        let builder = ParquetRecordBatchReaderBuilder::try_new(file)
            .map_err(|e| StoreError::format(path, e))?;
        rows += u64::try_from(builder.metadata().file_metadata().num_rows()).unwrap_or(0);
    }
    Ok((files, rows))
}

fn schema() -> Schema {
    Schema::new(vec![
        Field::new("run_id", DataType::Utf8, false),
        Field::new("game_id", DataType::UInt64, false),
        Field::new("variant", DataType::Utf8, false),
        Field::new("fen", DataType::Utf8, false),
        Field::new("ply", DataType::UInt32, false),
        Field::new("score", DataType::Int32, false),
        Field::new("result", DataType::Float32, false),
        Field::new("best_move", DataType::Utf8, false),
    ])
}

/// Writes `rows` to `path` atomically.
///
/// # Errors
/// [`StoreError`] if writing fails.
pub fn write_positions(path: &Path, rows: &[PositionRow]) -> Result<(), StoreError> {
    let columns: Vec<ArrayRef> = vec![
        strings(rows.iter().map(|r| r.run_id.as_str())),
        Arc::new(UInt64Array::from_iter_values(
            rows.iter().map(|r| r.game_id),
        )),
        strings(rows.iter().map(|r| r.variant.as_str())),
        strings(rows.iter().map(|r| r.fen.as_str())),
        Arc::new(UInt32Array::from_iter_values(rows.iter().map(|r| r.ply))),
        Arc::new(Int32Array::from_iter_values(rows.iter().map(|r| r.score))),
        Arc::new(Float32Array::from_iter_values(
            rows.iter().map(|r| r.result),
        )),
        strings(rows.iter().map(|r| r.best_move.as_str())),
    ];
    let batch = RecordBatch::try_new(Arc::new(schema()), columns)
        .map_err(|e| StoreError::format(path, e))?;
    write_batch(path, &batch)
}

/// Reads every row of a positions file.
///
/// # Errors
/// [`StoreError`] if the file cannot be read, lacks a column, or holds a
/// null.
pub fn read_positions(path: &Path) -> Result<Vec<PositionRow>, StoreError> {
    let mut rows = Vec::new();
    for batch in batches(path)? {
        let batch = batch?;
        rows.extend(batch_rows(&batch, path)?);
    }
    Ok(rows)
}

/// The rows of one record batch of a positions file.
fn batch_rows(batch: &RecordBatch, path: &Path) -> Result<Vec<PositionRow>, StoreError> {
    let run = column::<StringArray>(batch, "run_id", path)?;
    let game = column::<UInt64Array>(batch, "game_id", path)?;
    let variant = column::<StringArray>(batch, "variant", path)?;
    let fen = column::<StringArray>(batch, "fen", path)?;
    let ply = column::<UInt32Array>(batch, "ply", path)?;
    let score = column::<Int32Array>(batch, "score", path)?;
    let result = column::<Float32Array>(batch, "result", path)?;
    let best = column::<StringArray>(batch, "best_move", path)?;
    let columns: [&dyn Array; 8] = [run, game, variant, fen, ply, score, result, best];
    if let Some(null) = columns.iter().position(|c| c.null_count() > 0) {
        let name = schema().field(null).name().clone();
        return Err(StoreError::format(
            path,
            format!("column {name} holds a null"),
        ));
    }
    Ok((0..batch.num_rows())
        .map(|i| PositionRow {
            run_id: run.value(i).to_owned(),
            game_id: game.value(i),
            variant: variant.value(i).to_owned(),
            fen: fen.value(i).to_owned(),
            ply: ply.value(i),
            score: score.value(i),
            result: result.value(i),
            best_move: best.value(i).to_owned(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{MoveRecord, PlayerRecord, Termination};
    use ajaxlab_rules::{GameResult, VariantKind};

    const START: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

    fn played(uci: &str, score: i32) -> MoveRecord {
        MoveRecord {
            uci: uci.to_owned(),
            score: Some(score),
            depth: Some(5),
            nodes: Some(100),
            time_ms: 1,
        }
    }

    /// The moves e4 (a random ply), e5, Nf3, Nc6, Nxe5, Nxe5, Qh5, Ng6;
    /// Black wins.
    fn game() -> GameRecord {
        let player = || PlayerRecord {
            name: "builtin".to_owned(),
            version: String::new(),
            params: Vec::new(),
            options: Vec::new(),
        };
        GameRecord {
            run_id: "data".to_owned(),
            game_id: 7,
            pair_id: 3,
            variant: VariantKind::Chess.variant(),
            start_number: None,
            start_fen: START.to_owned(),
            opening_moves: vec!["e2e4".to_owned()],
            seed: 1,
            white: player(),
            black: player(),
            time_control: "nodes=100".to_owned(),
            result: GameResult::BlackWins,
            termination: Termination::AdjudicatedResign,
            moves: vec![
                played("e7e5", 10),
                played("g1f3", 20),
                played("b8c6", -15),
                played("f3e5", 30),
                played("c6e5", 250),
                played("d1h5", -240),
                played("e5g6", 260),
            ],
            final_fen: String::new(),
            started_at_ms: 0,
            ended_at_ms: 0,
        }
    }

    #[test]
    fn every_scored_position_from_the_first_ply_with_the_result_for_the_side_to_move() {
        let all = PositionFilter {
            min_ply: 0,
            quiet: false,
        };
        let rows = positions_of(&game(), all).unwrap();
        // The random ply has no score: seven rows, from ply 1.
        assert_eq!(rows.len(), 7);
        assert_eq!(rows[0].ply, 1);
        assert_eq!(
            rows[0].fen,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
        );
        assert_eq!(
            (rows[0].score, rows[0].result),
            (10, 1.0),
            "Black moves and wins"
        );
        assert_eq!(
            (rows[1].score, rows[1].result),
            (20, 0.0),
            "White moves and loses"
        );
        assert_eq!(rows[0].best_move, "e7e5");
        assert!(rows.iter().all(|r| r.game_id == 7 && r.variant == "chess"));
    }

    #[test]
    fn quiet_positions_leave_out_captures_and_checks_and_the_first_plies() {
        let rows = positions_of(
            &game(),
            PositionFilter {
                min_ply: 2,
                quiet: true,
            },
        )
        .unwrap();
        let moves: Vec<&str> = rows.iter().map(|r| r.best_move.as_str()).collect();
        // Ply 1 (e5) is too early; Nxe5 and Nxe5 capture; after Qh5 the
        // side to move (Black) is not in check, so e5g6 stays.
        assert_eq!(moves, ["g1f3", "b8c6", "d1h5", "e5g6"]);
    }

    #[test]
    fn positions_round_trip_through_their_file() {
        let dir = std::env::temp_dir().join(format!("ajaxlab-positions-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let unit = dir.join("unit-data-0.parquet");
        let path = file_of(&unit);
        assert_eq!(path, dir.join("positions-data-0.parquet"));
        assert!(is_positions_file(&path) && !is_positions_file(&unit));
        let rows = positions_of(&game(), PositionFilter::default()).unwrap();
        write_positions(&path, &rows).unwrap();
        assert_eq!(read_positions(&path).unwrap(), rows);
        assert_eq!(
            summary(&dir).unwrap(),
            (vec![path.clone()], rows.len() as u64)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_move_that_cannot_be_played_is_named_by_game_and_ply() {
        let mut bad = game();
        bad.moves[2].uci = "a1a8".to_owned();
        let e = positions_of(&bad, PositionFilter::default()).unwrap_err();
        assert_eq!((e.game_id, e.ply, e.uci.as_str()), (7, 4, "a1a8"), "{e}");
    }
}
