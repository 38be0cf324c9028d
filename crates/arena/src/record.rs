//! The record of one game: everything needed to replay, audit and analyse
//! it, one Parquet row per game.

use serde::{Deserialize, Serialize};

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Termination {
    /// Checkmate on the board.
    Checkmate,
    /// Stalemate on the board.
    Stalemate,
    /// The 50-move rule (automatic).
    FiftyMoveRule,
    /// Threefold repetition (automatic).
    ThreefoldRepetition,
    /// Both engines agreed one side is lost.
    AdjudicatedResign,
    /// Both engines agreed the game is drawn.
    AdjudicatedDraw,
    /// The ply limit was reached: drawn by adjudication.
    MaxPlies,
    /// A side's clock ran out.
    TimeForfeit,
    /// A side sent an illegal move: it loses.
    IllegalMove,
    /// A side's engine crashed: it loses.
    EngineCrash,
    /// A side's engine stopped answering: it loses.
    EngineTimeout,
}

impl Termination {
    /// The stable name stored in records.
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::FiftyMoveRule => "fifty-move-rule",
            Termination::ThreefoldRepetition => "threefold-repetition",
            Termination::AdjudicatedResign => "adjudicated-resign",
            Termination::AdjudicatedDraw => "adjudicated-draw",
            Termination::MaxPlies => "max-plies",
            Termination::TimeForfeit => "time-forfeit",
            Termination::IllegalMove => "illegal-move",
            Termination::EngineCrash => "engine-crash",
            Termination::EngineTimeout => "engine-timeout",
        }
    }
}

/// A player as recorded.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerRecord {
    /// Display name.
    pub name: String,
    /// Engine id / version.
    pub version: String,
    /// Parameter vector (names in the file metadata); empty for external engines.
    pub params: Vec<i32>,
}

/// One move as played.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// UCI text.
    pub uci: String,
    /// The mover's score, centipawns, mover's view.
    pub score: Option<i32>,
    /// Depth reached.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Time taken, milliseconds.
    pub time_ms: u32,
}

/// One game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The run (match or campaign) it belongs to.
    pub run_id: String,
    /// Game number within the run (pair × 2 + 0/1).
    pub game_id: u64,
    /// Pair number within the run.
    pub pair_id: u64,
    /// ajaxlab variant name.
    pub variant: String,
    /// Start position number (AMRC, Chess960), if numbered.
    pub start_number: Option<u32>,
    /// Start position FEN, before the random plies.
    pub start_fen: String,
    /// The random plies played from the start, UCI.
    pub opening_moves: Vec<String>,
    /// The seed that fixed the opening.
    pub seed: u64,
    /// White.
    pub white: PlayerRecord,
    /// Black.
    pub black: PlayerRecord,
    /// Time control, as text (`nodes=5000`, `10+0.1`).
    pub time_control: String,
    /// `1-0`, `0-1` or `1/2-1/2`, from White's view.
    pub result: String,
    /// How it ended.
    pub termination: Termination,
    /// The moves after the opening, with what the engines said.
    pub moves: Vec<MoveRecord>,
    /// FEN of the final position.
    pub final_fen: String,
    /// Unix time of the first move, milliseconds.
    pub started_at_ms: i64,
    /// Unix time of the end, milliseconds.
    pub ended_at_ms: i64,
}

impl GameRecord {
    /// The score of White: 1, 0.5 or 0.
    pub fn white_score(&self) -> f64 {
        match self.result.as_str() {
            "1-0" => 1.0,
            "0-1" => 0.0,
            _ => 0.5,
        }
    }

    /// Plies played after the opening.
    pub fn plies(&self) -> usize {
        self.moves.len()
    }
}
