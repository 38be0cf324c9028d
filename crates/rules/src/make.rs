//! Playing a move on a position: placement, hands, castling and gating
//! rights, en passant, clocks and hash, all updated together.

use crate::moves::{Gate, Move, MoveKind};
use crate::piece::{Piece, PieceKind};
use crate::position::{CastleSide, Position};
use crate::square::{Color, Square};
use crate::tables::forward;
use crate::variant::HandRule;

/// A move that is not legal in the position it was played in.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("illegal move {uci} in position {fen}")]
pub struct IllegalMove {
    /// The move, as UCI text.
    pub uci: String,
    /// The position, as FEN.
    pub fen: String,
}

impl Position {
    /// Plays `m` after checking that it is legal.
    ///
    /// # Errors
    /// [`IllegalMove`] naming the move and the position; the position is unchanged.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if !self.is_legal(m) {
            return Err(IllegalMove {
                uci: self.uci(m).to_string(),
                fen: self.fen(),
            });
        }
        self.play_unchecked(m);
        Ok(())
    }

    /// The position after `m`, checked.
    ///
    /// # Errors
    /// [`IllegalMove`] if `m` is not legal here.
    pub fn after(&self, m: Move) -> Result<Position, IllegalMove> {
        let mut next = *self;
        next.play(m)?;
        Ok(next)
    }

    /// Plays `m`, which must be a legal move of this position (as produced by
    /// the move generator). For search and perft, which generate their own
    /// moves.
    ///
    /// # Panics
    /// May panic, or leave a corrupt position, if `m` is not legal here.
    pub fn play_unchecked(&mut self, m: Move) {
        let us = self.side;
        let them = !us;
        self.set_en_passant(None);
        self.halfmove += 1;

        match m.kind() {
            MoveKind::Drop => {
                let kind = m
                    .dropped_kind()
                    .unwrap_or_else(|| unreachable!("drop without kind"));
                self.put(Piece::new(us, kind), m.to());
                self.set_hand(us, self.hand[us] - 1);
                self.halfmove = 0;
            }
            MoveKind::Castle => self.play_castle(m),
            MoveKind::Normal | MoveKind::EnPassant => self.play_piece_move(m),
        }

        if matches!(self.variant.def.hand, HandRule::Gating { .. }) && self.hand[us] == 0 {
            self.set_gates(us, crate::Bitboard::EMPTY);
        }
        if us == Color::Black {
            self.fullmove += 1;
        }
        self.side = them;
        self.hash ^= self.tables().keys.black_to_move;
        debug_assert_eq!(self.validate_internals(), Ok(()), "after {m:?}");
    }

    /// Passes the move to the other side (a null move, for search): clears
    /// the en passant square, advances the clocks, flips the side.
    ///
    /// # Panics
    /// In debug builds, if the side to move is in check.
    pub fn play_null(&mut self) {
        debug_assert!(!self.in_check(), "null move while in check");
        self.set_en_passant(None);
        self.halfmove += 1;
        if self.side == Color::Black {
            self.fullmove += 1;
        }
        self.side = !self.side;
        self.hash ^= self.tables().keys.black_to_move;
    }

    /// The piece that makes `m` (the dropped piece for a drop, the king for castling).
    pub fn moving_piece(&self, m: Move) -> Option<Piece> {
        match m.kind() {
            MoveKind::Drop => m.dropped_kind().map(|k| Piece::new(self.side, k)),
            _ => self.piece_at(m.from()),
        }
    }

    /// The kind of the piece `m` captures, if any.
    pub fn captured_kind(&self, m: Move) -> Option<PieceKind> {
        match m.kind() {
            MoveKind::Normal => self.piece_at(m.to()).map(|p| p.kind),
            MoveKind::EnPassant => Some(PieceKind::PAWN),
            MoveKind::Castle | MoveKind::Drop => None,
        }
    }

    fn play_piece_move(&mut self, m: Move) {
        let us = self.side;
        let them = !us;
        let (from, to) = (m.from(), m.to());
        let captured_at = if m.kind() == MoveKind::EnPassant {
            offset(to, -forward(us))
        } else {
            to
        };
        if self.remove(captured_at).is_some() {
            self.halfmove = 0;
            self.forget_square(them, captured_at);
        }
        let Some(piece) = self.remove(from) else {
            unreachable!("no piece on {from}")
        };
        let placed = match m.promotion_kind() {
            Some(kind) => Piece::new(us, kind),
            None => piece,
        };
        self.put(placed, to);

        if piece.kind == PieceKind::PAWN {
            self.halfmove = 0;
            let fwd = forward(us);
            if to.index().abs_diff(from.index()) == 2 * fwd.unsigned_abs() as usize {
                let passed = offset(from, fwd);
                let capturers = self.tables().pawn_attacks[us.index()][passed.index()]
                    & self.pieces(them, PieceKind::PAWN);
                if capturers.any() {
                    self.set_en_passant(Some(passed));
                }
            }
        }
        if piece.kind == PieceKind::KING {
            for side in CastleSide::BOTH {
                self.set_castling(us, side, None);
            }
        }
        self.forget_square(us, from);
        if m.gate() == Gate::AtFrom {
            self.gate_in(us, from);
        }
    }

    fn play_castle(&mut self, m: Move) {
        let us = self.side;
        let (king, rook) = (m.from(), m.to());
        let side = CastleSide::of_rook(king, rook);
        let (king_to, rook_to) = self
            .castle_destinations(us, side)
            .unwrap_or_else(|| unreachable!("a castling move where the variant has no castling"));
        let king_piece = self.remove(king).unwrap_or_else(|| unreachable!("no king"));
        let rook_piece = self.remove(rook).unwrap_or_else(|| unreachable!("no rook"));
        self.put(king_piece, king_to);
        self.put(rook_piece, rook_to);
        for s in CastleSide::BOTH {
            self.set_castling(us, s, None);
        }
        self.forget_square(us, king);
        self.forget_square(us, rook);
        match m.gate() {
            Gate::None => {}
            Gate::AtFrom => self.gate_in(us, king),
            Gate::AtRook => self.gate_in(us, rook),
        }
    }

    /// A piece of `color` left or was captured on `sq`: its gate and any
    /// castling right with a rook on `sq` are gone.
    fn forget_square(&mut self, color: Color, sq: Square) {
        if self.gates[color].contains(sq) {
            self.set_gates(color, self.gates[color].without(sq));
        }
        for side in CastleSide::BOTH {
            if self.castling[color][side as usize] == Some(sq) {
                self.set_castling(color, side, None);
            }
        }
    }

    fn gate_in(&mut self, color: Color, sq: Square) {
        let kind = self
            .hand_kind()
            .unwrap_or_else(|| unreachable!("gating without a hand"));
        self.put(Piece::new(color, kind), sq);
        self.set_hand(color, self.hand[color] - 1);
    }
}

#[inline]
fn offset(sq: Square, delta: i32) -> Square {
    let i = i32::try_from(sq.index()).unwrap_or_else(|_| unreachable!()) + delta;
    u8::try_from(i)
        .ok()
        .and_then(Square::from_index)
        .unwrap_or_else(|| unreachable!("step off the frame"))
}
