//! The packed move every layer passes around, and the list moves are
//! generated into.

use crate::piece::PieceKind;
use crate::square::Square;
use std::fmt;

/// What a move does, beyond going from one square to another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MoveKind {
    /// A piece moves (and maybe captures, maybe promotes).
    Normal,
    /// A pawn captures en passant.
    EnPassant,
    /// King and rook castle; `from` is the king's square, `to` the rook's.
    Castle,
    /// A piece from hand is placed on `to`.
    Drop,
}

/// Where a move places a piece from hand on the board it vacates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gate {
    /// No gating.
    None,
    /// On the vacated square (for castling: the king's start square).
    AtFrom,
    /// Castling only: on the castling rook's start square.
    AtRook,
}

/// A move packed in 32 bits: cheap to copy, store and compare.
///
/// Layout: bits 0–6 from, 7–13 to, 14–15 [`MoveKind`], 16–19 promotion or
/// dropped kind (15 = none), 20–21 [`Gate`]. A `Move` is meaningful only in
/// the position it was generated for; text becomes a `Move` only through
/// [`crate::UciMove::to_move`] or [`crate::san::parse_san`], which check it.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move(u32);

const NO_KIND: u32 = 15;

impl Move {
    const fn pack(from: Square, to: Square, kind: MoveKind, piece: u32, gate: Gate) -> Move {
        let kind = match kind {
            MoveKind::Normal => 0,
            MoveKind::EnPassant => 1,
            MoveKind::Castle => 2,
            MoveKind::Drop => 3,
        };
        let gate = match gate {
            Gate::None => 0,
            Gate::AtFrom => 1,
            Gate::AtRook => 2,
        };
        Move(from.to_u8() as u32 | (to.to_u8() as u32) << 7 | kind << 14 | piece << 16 | gate << 20)
    }

    /// A piece moves from `from` to `to` (capturing whatever is there).
    pub const fn normal(from: Square, to: Square) -> Move {
        Move::pack(from, to, MoveKind::Normal, NO_KIND, Gate::None)
    }

    /// A pawn moves to the last rank and becomes `kind`.
    pub const fn promotion(from: Square, to: Square, kind: PieceKind) -> Move {
        Move::pack(from, to, MoveKind::Normal, kind.index() as u32, Gate::None)
    }

    /// A pawn captures en passant, landing on `to`.
    pub const fn en_passant(from: Square, to: Square) -> Move {
        Move::pack(from, to, MoveKind::EnPassant, NO_KIND, Gate::None)
    }

    /// The king on `king` castles with the rook on `rook`.
    pub const fn castle(king: Square, rook: Square) -> Move {
        Move::pack(king, rook, MoveKind::Castle, NO_KIND, Gate::None)
    }

    /// A `kind` from hand is placed on `to`.
    pub const fn drop(kind: PieceKind, to: Square) -> Move {
        Move::pack(to, to, MoveKind::Drop, kind.index() as u32, Gate::None)
    }

    /// The same move with a piece from hand gated in.
    pub const fn with_gate(self, gate: Gate) -> Move {
        let g = match gate {
            Gate::None => 0,
            Gate::AtFrom => 1,
            Gate::AtRook => 2,
        };
        Move(self.0 & !(3 << 20) | g << 20)
    }

    /// Origin square; the king's square for castling, the target for drops.
    #[inline]
    pub fn from(self) -> Square {
        square_bits(self.0 & 0x7F)
    }

    /// Destination square; the rook's square for castling.
    #[inline]
    pub fn to(self) -> Square {
        square_bits(self.0 >> 7 & 0x7F)
    }

    /// What the move does.
    #[inline]
    pub const fn kind(self) -> MoveKind {
        match self.0 >> 14 & 3 {
            0 => MoveKind::Normal,
            1 => MoveKind::EnPassant,
            2 => MoveKind::Castle,
            _ => MoveKind::Drop,
        }
    }

    /// The kind a pawn promotes to, for a promotion.
    #[inline]
    pub const fn promotion_kind(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::Normal => PieceKind::from_index((self.0 >> 16 & 15) as usize),
            _ => None,
        }
    }

    /// The kind dropped, for a drop.
    #[inline]
    pub const fn dropped_kind(self) -> Option<PieceKind> {
        match self.kind() {
            MoveKind::Drop => PieceKind::from_index((self.0 >> 16 & 15) as usize),
            _ => None,
        }
    }

    /// Where a piece from hand is gated in, if anywhere.
    #[inline]
    pub const fn gate(self) -> Gate {
        match self.0 >> 20 & 3 {
            1 => Gate::AtFrom,
            2 => Gate::AtRook,
            _ => Gate::None,
        }
    }

    /// The square a piece from hand is gated onto, if any.
    #[inline]
    pub fn gate_square(self) -> Option<Square> {
        match self.gate() {
            Gate::None => None,
            Gate::AtFrom => Some(self.from()),
            Gate::AtRook => Some(self.to()),
        }
    }

    /// The raw 32-bit form (stable within a build; for hashing and tables).
    pub const fn to_bits(self) -> u32 {
        self.0
    }
}

#[inline]
fn square_bits(bits: u32) -> Square {
    // Only ever packed from real squares.
    Square::from_index(bits as u8).unwrap_or_else(|| unreachable!("corrupt move"))
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({:?} {}-{}", self.kind(), self.from(), self.to())?;
        if let Some(k) = self.promotion_kind().or(self.dropped_kind()) {
            write!(f, " kind {}", k.index())?;
        }
        if self.gate() != Gate::None {
            write!(f, " gate {:?}", self.gate())?;
        }
        f.write_str(")")
    }
}

/// Most moves any position of these variants has (with gating doubling
/// every back-rank move), with room to spare.
pub const MAX_MOVES: usize = 512;

/// A fixed-capacity list of moves, filled by the move generator without
/// allocating.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// An empty list.
    pub fn new() -> MoveList {
        MoveList {
            moves: [Move(0); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list is full, which no legal position of these variants reaches.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves[self.len] = m;
        self.len += 1;
    }

    /// Number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a slice.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// The moves as a mutable slice (for ordering).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }

    /// Whether `m` is in the list.
    pub fn contains(&self, m: Move) -> bool {
        self.as_slice().contains(&m)
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl fmt::Debug for MoveList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}
