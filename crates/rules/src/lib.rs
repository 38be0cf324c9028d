//! The rules of the games ajaxlab plays: Ajax Falcon Chess (10×8), Ajax
//! Modern Random Chess (9×9), and orthodox chess and Chess960 as reference
//! variants, exactly as `docs/rules.md` decides them.
//!
//! Variants are data ([`variant::VariantDef`]) read by one legal move
//! generator over 128-bit bitboards: the built-ins are loaded from the
//! compiled-in `configs/variants/ajaxlab.ini`, and a user's variants file
//! in Fairy-Stockfish's format loads beside them as a [`VariantSet`].
//! Positions are small `Copy` values; notation (FEN, UCI, SAN) follows
//! Fairy-Stockfish's dialect so positions and moves pass unchanged between
//! ajaxlab and FSF-based tools.
//!
//! ```
//! use ajaxlab_rules::{Position, StartSpec, VariantKind};
//! let pos = Position::start(VariantKind::AjaxFalcon, &StartSpec::Default).unwrap();
//! assert_eq!(pos.legal_moves().len(), 30);
//! let m = pos.parse_uci("e2e4").unwrap();
//! assert_eq!(pos.san(m), "e4");
//! ```

pub mod betza;
mod bitboard;
mod check;
mod fen;
mod game;
pub mod ini;
mod layout;
mod load;
mod make;
mod movegen;
mod moves;
mod perft;
mod pgn;
mod piece;
mod position;
mod registry;
mod san;
mod square;
mod start;
mod tables;
mod uci;
pub mod variant;

pub use bitboard::Bitboard;
pub use check::{CheckError, FileCheck, check_variants};
pub use fen::FenError;
pub use game::{FIFTY_MOVE_PLIES, Game, GameResult, Outcome};
pub use layout::Layout;
pub use load::loaded_sections;
pub use load::{VariantError, VariantProblem};
pub use make::IllegalMove;
pub use moves::{Gate, MAX_MOVES, Move, MoveKind, MoveList};
pub use perft::{PerftCase, PerftSuite, SuiteError, divide, perft};
pub use pgn::{MovetextError, parse_movetext, write_movetext};
pub use piece::{MAX_KINDS, Piece, PieceKind, PieceNames, PieceTable, PieceTableError};
pub use position::{CastleSide, Position};
pub use registry::{
    MAX_LOADED_SECTIONS, MAX_SECTIONS, NotInSet, SectionError, SectionProblem, VariantSet,
    VariantSetError, loaded_variant,
};
pub use san::{SanError, SanForm};
pub use square::{ByColor, Color, File, MAX_FILES, MAX_SIDE, Rank, SQUARE_COUNT, STRIDE, Square};
pub use start::{
    AMRC_DEFAULT, AMRC_START_COUNT, CHESS960_ORTHODOX, CHESS960_START_COUNT, StartError, StartSpec,
    amrc_number, amrc_rank1, chess960_number, chess960_rank1,
};
pub use uci::{UciError, UciMove};
pub use variant::{HandRule, UnknownVariant, Variant, VariantKind};
