//! The typed result of reading a variant: what the rules model needs to
//! play it, every choice already checked against what it can play.

use super::values::GameValue;
use crate::betza::PieceMoves;
use crate::square::File;
use crate::variant::Component;

/// A variant read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VariantSpec {
    /// The section's name.
    pub name: String,
    /// The line of the section's header, for errors found after reading
    /// (a section that does not load, or takes a built-in's name).
    pub line: usize,
    /// Number of files (`maxFile`).
    pub files: u8,
    /// Number of ranks (`maxRank`).
    pub ranks: u8,
    /// The pawn's letter, if the variant has pawns (they move as the rules
    /// model's pawn: Fairy-Stockfish's `fmWfceF`, a double step from the own
    /// second rank, en passant, promotion on the last rank).
    pub pawn: Option<char>,
    /// The king's letter (it moves as `K`).
    pub king: char,
    /// The other pieces, in the order their keys were read.
    pub pieces: Vec<PieceSpec>,
    /// Letters a pawn may promote to, as written.
    pub promotions: Vec<char>,
    /// Pieces in hand and how they enter.
    pub hand: HandSpec,
    /// Castling.
    pub castling: CastlingSpec,
    /// Start positions.
    pub setup: SetupSpec,
    /// The end-of-game rules.
    pub end: EndRules,
    /// Piece values the file gives (`pieceValueMg`/`pieceValueEg`).
    pub values: Vec<PieceValue>,
}

/// One piece besides pawn and king.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceSpec {
    /// Its letter, upper case.
    pub letter: char,
    /// The key that defined it (`knight`, `customPiece3`).
    pub key: String,
    /// How it moves, as written.
    pub moves: PieceMoves,
    /// How it moves, as the move generator's components (one per step).
    pub components: Vec<Component>,
}

/// Pieces in hand at the start (from the start FEN's `[...]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandSpec {
    /// No hand.
    None,
    /// Dropped as a whole move on an empty square of the own first rank.
    Drops {
        /// The letter held.
        letter: char,
        /// Pieces per side.
        count: u8,
    },
    /// Placed on the square a back-rank piece leaves on its first move.
    Gating {
        /// The letter held.
        letter: char,
        /// Pieces per side.
        count: u8,
    },
}

/// Castling, if the variant has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingSpec {
    /// No castling.
    None,
    /// King and rook castle on the first rank.
    Castles {
        /// Where the king lands castling towards the high files.
        king_side_file: File,
        /// Where the king lands castling towards the low files.
        queen_side_file: File,
        /// The rook's letter.
        rook: char,
        /// Chess960 rules and notation (`chess960 = true`).
        chess960: bool,
    },
}

/// How start positions are chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupSpec {
    /// The one `startFen`.
    Fixed(String),
    /// Chess960's numbered starts (`ajaxlabSetup = chess960`); the start
    /// FEN is the default start.
    Chess960(String),
    /// AMRC's numbered starts (`ajaxlabSetup = amrc`); the start FEN is the
    /// default start.
    ModernRandom(String),
}

impl SetupSpec {
    /// The start FEN (the default start of a numbered setup).
    pub fn fen(&self) -> &str {
        match self {
            SetupSpec::Fixed(f) | SetupSpec::Chess960(f) | SetupSpec::ModernRandom(f) => f,
        }
    }
}

/// The end-of-game rules the file states (the rules model plays the values
/// the reader accepts: `nMoveRule = 50`, `nFoldRule = 3`, stalemate a draw).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EndRules {
    /// Moves without capture or pawn move before the draw.
    pub n_move_rule: u32,
    /// Occurrences of a position that draw.
    pub n_fold_rule: u32,
    /// The stalemated side's result.
    pub stalemate: GameValue,
}

/// A piece value the file gives, by phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceValue {
    /// The piece's letter.
    pub letter: char,
    /// Middle-game value, if given.
    pub mg: Option<i32>,
    /// Endgame value, if given.
    pub eg: Option<i32>,
}
