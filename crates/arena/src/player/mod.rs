//! Players: the builtin engine in-process, or any UCI engine as a
//! subprocess, behind one interface.

pub mod bench;
mod builtin;
pub mod fsf_perft;
mod spin;
mod uci;

pub use bench::Bench;
pub use builtin::BuiltinPlayer;
pub use spin::SpinOption;
pub use uci::{UciPlayer, UciPlayerConfig};

use crate::tc::TimeControl;
use ajaxlab_rules::{Game, Move, Variant};
use ajaxlab_store::EngineOption;
use std::time::Duration;

/// What the referee asks of a player for one move.
#[derive(Clone, Copy, Debug)]
pub struct MoveRequest<'a> {
    /// The game so far (start position and moves).
    pub game: &'a Game,
    /// The time control.
    pub tc: TimeControl,
    /// White's and Black's remaining clock time, when playing on a clock.
    pub clocks: Option<[Duration; 2]>,
    /// Moves left in the mover's clock period, when its clock has periods.
    pub moves_to_go: Option<u32>,
}

/// A player's move and what it said about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayerMove {
    /// The move (legal: players check it before returning).
    pub mv: Move,
    /// Score in centipawns from the mover's view (mates as ±(30000 − plies)).
    pub score: Option<i32>,
    /// Depth reached.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
}

/// Why a player produced no legal move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayerError {
    /// The engine process died or closed its output.
    #[error("engine crashed: {0}")]
    Crashed(String),
    /// The engine did not answer in time.
    #[error("engine did not answer within {0:?}")]
    Timeout(Duration),
    /// The engine sent a move that is not legal (or not a move).
    #[error("illegal move '{0}'")]
    IllegalMove(String),
    /// The engine cannot be used: no such binary, no UCI, variant unsupported.
    #[error("{0}")]
    Unusable(String),
}

/// A participant of a match.
pub trait Player: Send {
    /// Display name.
    fn name(&self) -> &str;
    /// Version string (engine id).
    fn version(&self) -> String;
    /// Parameter vector for games of `variant` (empty for external
    /// engines), in the order of the engine's `specs_for(variant)`.
    fn param_values(&self, variant: &'static Variant) -> Vec<i32>;
    /// The UCI options it was set with, in the order sent (none for the
    /// builtin engine).
    fn options(&self) -> Vec<EngineOption> {
        Vec::new()
    }
    /// Prepares for a new game.
    ///
    /// # Errors
    /// [`PlayerError`] if the player cannot play (e.g. a restart failed).
    fn new_game(&mut self) -> Result<(), PlayerError>;
    /// Chooses a move.
    ///
    /// # Errors
    /// [`PlayerError`] if no legal move comes back.
    fn play(&mut self, request: &MoveRequest<'_>) -> Result<PlayerMove, PlayerError>;
}
