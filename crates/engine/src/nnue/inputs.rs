//! The network's inputs for any variant, from one side's view (its
//! perspective): every piece on the board as (its kind, whether it is the
//! perspective's or the other side's, its square seen from the
//! perspective's side: Black's mirrored top to bottom), then the pieces in
//! hand one input each (the first, second, … Falcon in hand of each side,
//! as Fairy-Stockfish's variant inputs count a hand), then in a variant
//! that gates each side's squares that may still gate a piece in.
//!
//! A move changes a few inputs; which ones is read off the two positions
//! (every kind's squares, the hands, the gates), so that every kind of
//! move (captures, promotions, castling of both kinds, en passant, drops,
//! gating) updates the same way.

use ajaxlab_rules::{Bitboard, Color, HandRule, MAX_KINDS, PieceKind, Position, Square, Variant};

/// Which input each piece, piece in hand and gate of a variant is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputSet {
    /// Each kind's slot (its place among the variant's kinds), `None` for a
    /// kind the variant lacks.
    slots: [Option<u16>; MAX_KINDS],
    kinds: u16,
    width: u8,
    height: u8,
    /// Pieces in hand each side may hold at most.
    hand: u16,
    /// Whether the variant gates (AMRC): then each side's gates are inputs.
    gating: bool,
}

/// The inputs a move turned on and off, from one perspective.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changes {
    /// Inputs now on.
    pub added: Vec<usize>,
    /// Inputs now off.
    pub removed: Vec<usize>,
}

impl InputSet {
    /// The inputs of `variant`.
    pub fn of(variant: &Variant) -> InputSet {
        let mut slots = [None; MAX_KINDS];
        let mut kinds = 0u16;
        for kind in variant.piece_table().kinds() {
            slots[kind.index()] = Some(kinds);
            kinds += 1;
        }
        let (hand, gating) = match variant.def.hand {
            HandRule::None => (0, false),
            HandRule::Drops { count, .. } => (u16::from(count), false),
            HandRule::Gating { count, .. } => (u16::from(count), true),
        };
        InputSet {
            slots,
            kinds,
            width: variant.width(),
            height: variant.height(),
            hand,
            gating,
        }
    }

    fn squares(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// How many inputs there are.
    pub fn len(&self) -> usize {
        let board = usize::from(self.kinds) * 2 * self.squares();
        let gates = if self.gating {
            2 * usize::from(self.width)
        } else {
            0
        };
        board + 2 * usize::from(self.hand) + gates
    }

    /// Whether there are none (never, for a variant: it has a king).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// `sq` seen from `perspective`'s side, as an index over the board.
    fn relative(&self, perspective: Color, sq: Square) -> usize {
        let file = usize::from(sq.file().index());
        let rank = usize::from(sq.rank().index());
        let rank = match perspective {
            Color::White => rank,
            Color::Black => usize::from(self.height) - 1 - rank,
        };
        rank * usize::from(self.width) + file
    }

    /// 0 for `perspective`'s own pieces, 1 for the other side's.
    fn side(perspective: Color, color: Color) -> usize {
        usize::from(perspective != color)
    }

    /// The input of a piece of `color` and `kind` on `sq`.
    fn board(
        &self,
        perspective: Color,
        color: Color,
        kind: PieceKind,
        sq: Square,
    ) -> Option<usize> {
        let slot = usize::from(self.slots[kind.index()]?);
        let squares = self.squares();
        Some((slot * 2 + Self::side(perspective, color)) * squares + self.relative(perspective, sq))
    }

    /// The input of `color`'s `n`-th piece in hand (from 1).
    fn in_hand(&self, perspective: Color, color: Color, n: u16) -> usize {
        let base = usize::from(self.kinds) * 2 * self.squares();
        base + Self::side(perspective, color) * usize::from(self.hand) + usize::from(n - 1)
    }

    /// The input of `color`'s gate on `sq` (on its first rank).
    fn gate(&self, perspective: Color, color: Color, sq: Square) -> usize {
        let base = usize::from(self.kinds) * 2 * self.squares() + 2 * usize::from(self.hand);
        base + Self::side(perspective, color) * usize::from(self.width)
            + usize::from(sq.file().index())
    }

    /// Every input on in `pos` from `perspective`.
    pub fn active(&self, pos: &Position, perspective: Color) -> Vec<usize> {
        let mut on = Vec::with_capacity(64);
        for color in Color::ALL {
            for kind in PieceKind::all() {
                for sq in pos.pieces(color, kind) {
                    on.extend(self.board(perspective, color, kind, sq));
                }
            }
            for n in 1..=self.hand_count(pos, color) {
                on.push(self.in_hand(perspective, color, n));
            }
            if self.gating {
                on.extend(
                    pos.gates(color)
                        .into_iter()
                        .map(|sq| self.gate(perspective, color, sq)),
                );
            }
        }
        on
    }

    fn hand_count(&self, pos: &Position, color: Color) -> u16 {
        u16::from(pos.hand_count(color)).min(self.hand)
    }

    /// The inputs that differ between `before` and `after` (a move, or a
    /// null move, apart), from `perspective`, into `changes`.
    pub fn changes(
        &self,
        before: &Position,
        after: &Position,
        perspective: Color,
        changes: &mut Changes,
    ) {
        changes.added.clear();
        changes.removed.clear();
        for color in Color::ALL {
            for kind in PieceKind::all() {
                let (was, is) = (before.pieces(color, kind), after.pieces(color, kind));
                if was == is {
                    continue;
                }
                let mark = |squares: Bitboard, into: &mut Vec<usize>| {
                    into.extend(
                        squares
                            .into_iter()
                            .filter_map(|sq| self.board(perspective, color, kind, sq)),
                    );
                };
                mark(is & !was, &mut changes.added);
                mark(was & !is, &mut changes.removed);
            }
            let (was, is) = (
                self.hand_count(before, color),
                self.hand_count(after, color),
            );
            for n in is + 1..=was {
                changes.removed.push(self.in_hand(perspective, color, n));
            }
            for n in was + 1..=is {
                changes.added.push(self.in_hand(perspective, color, n));
            }
            if self.gating {
                let (was, is) = (before.gates(color), after.gates(color));
                changes.added.extend(
                    (is & !was)
                        .into_iter()
                        .map(|sq| self.gate(perspective, color, sq)),
                );
                changes.removed.extend(
                    (was & !is)
                        .into_iter()
                        .map(|sq| self.gate(perspective, color, sq)),
                );
            }
        }
    }
}
