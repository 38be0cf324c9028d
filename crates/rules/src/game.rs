//! A game in progress: the position, the moves that led to it, and the
//! outcome by docs/rules.md §4 (checkmate, stalemate, the automatic 50-move rule
//! and threefold repetition, gating rights included).

use crate::make::IllegalMove;
use crate::moves::Move;
use crate::position::Position;
use crate::square::Color;
use std::fmt;

/// Plies without capture, pawn move or drop after which the game is drawn.
pub const FIFTY_MOVE_PLIES: u32 = 100;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move is checkmated; `winner` gave the mate.
    Checkmate {
        /// The side that mated.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check: a draw.
    Stalemate,
    /// 100 plies without a capture, a pawn move or a drop: a draw.
    FiftyMoveRule,
    /// The same position for the third time: a draw.
    ThreefoldRepetition,
    /// Chess and Chess960 only: neither side can ever mate (bare kings, or
    /// a king and one minor piece against a bare king): a draw, as FIDE's
    /// dead-position rule has it. The Ajax variants have no such rule.
    InsufficientMaterial,
}

/// The score of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// White won.
    WhiteWins,
    /// Black won.
    BlackWins,
    /// Drawn.
    Draw,
}

impl GameResult {
    /// PGN result token: `1-0`, `0-1` or `1/2-1/2`.
    pub const fn pgn(self) -> &'static str {
        match self {
            GameResult::WhiteWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The win for `color`.
    pub const fn win_for(color: Color) -> GameResult {
        match color {
            Color::White => GameResult::WhiteWins,
            Color::Black => GameResult::BlackWins,
        }
    }
}

impl Outcome {
    /// The score.
    pub const fn result(self) -> GameResult {
        match self {
            Outcome::Checkmate { winner } => GameResult::win_for(winner),
            _ => GameResult::Draw,
        }
    }

    /// A short stable name: `checkmate`, `stalemate`, `fifty-move-rule`,
    /// `threefold-repetition`, `insufficient-material`.
    pub const fn reason(self) -> &'static str {
        match self {
            Outcome::Checkmate { .. } => "checkmate",
            Outcome::Stalemate => "stalemate",
            Outcome::FiftyMoveRule => "fifty-move-rule",
            Outcome::ThreefoldRepetition => "threefold-repetition",
            Outcome::InsufficientMaterial => "insufficient-material",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result().pgn(), self.reason())
    }
}

/// A game: start position, moves, and the positions they pass through.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    positions: Vec<Position>,
    moves: Vec<Move>,
}

impl Game {
    /// A game from `start` with no moves yet.
    pub fn new(start: Position) -> Game {
        Game {
            start,
            positions: vec![start],
            moves: Vec::new(),
        }
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.start)
    }

    /// The moves played so far.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`IllegalMove`] if `m` is not legal now; the game is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        let next = self.position().after(m)?;
        self.positions.push(next);
        self.moves.push(m);
        Ok(())
    }

    /// Takes back the last move, returning it.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        Some(m)
    }

    /// How many times the current position has occurred (1 = first time).
    /// Positions are compared by placement, side, hands, castling and gating
    /// rights and en passant square, within the plies since the last
    /// irreversible move.
    pub fn repetitions(&self) -> usize {
        let now = self.position();
        let window = now.halfmove_clock() as usize;
        self.positions
            .iter()
            .rev()
            .take(window + 1)
            .step_by(2)
            .filter(|p| p.hash() == now.hash() && same_position(p, now))
            .count()
    }

    /// The outcome, if the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        let pos = self.position();
        if !pos.has_legal_move() {
            return Some(if pos.in_check() {
                Outcome::Checkmate {
                    winner: !pos.side_to_move(),
                }
            } else {
                Outcome::Stalemate
            });
        }
        if pos.halfmove_clock() >= FIFTY_MOVE_PLIES {
            return Some(Outcome::FiftyMoveRule);
        }
        if self.repetitions() >= 3 {
            return Some(Outcome::ThreefoldRepetition);
        }
        if insufficient_material(pos) {
            return Some(Outcome::InsufficientMaterial);
        }
        None
    }
}

/// Whether neither side can mate in chess or Chess960: nothing but the
/// kings and at most one knight or bishop on the board. Always false in the
/// Ajax variants, where `RULES.md` decides that no such rule exists, and in
/// variants from a user's file, whose pieces no such table knows.
fn insufficient_material(pos: &Position) -> bool {
    use crate::{PieceKind, VariantKind};
    if !matches!(
        pos.variant().builtin(),
        Some(VariantKind::Chess | VariantKind::Chess960)
    ) {
        return false;
    }
    let kings = pos.pieces_of_kind(PieceKind::KING);
    let minors = pos.pieces_of_kind(PieceKind::KNIGHT) | pos.pieces_of_kind(PieceKind::BISHOP);
    let others = pos.occupied() & !kings & !minors;
    others.is_empty() && minors.count() <= 1
}

/// Equality for repetition: everything but the clocks.
fn same_position(a: &Position, b: &Position) -> bool {
    a.occupied() == b.occupied()
        && crate::PieceKind::all().all(|k| a.pieces_of_kind(k) == b.pieces_of_kind(k))
        && a.color_pieces(Color::White) == b.color_pieces(Color::White)
        && a.side_to_move() == b.side_to_move()
        && Color::ALL.iter().all(|c| {
            a.hand_count(*c) == b.hand_count(*c)
                && a.gates(*c) == b.gates(*c)
                && crate::CastleSide::BOTH
                    .iter()
                    .all(|s| a.castling_rook(*c, *s) == b.castling_rook(*c, *s))
        })
        && a.en_passant_square() == b.en_passant_square()
}
