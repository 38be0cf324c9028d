//! The position: placement, side to move, hands, castling and gating rights,
//! en passant, clocks and the incremental hash; plus attack queries.
//!
//! Positions are small `Copy` values (copy-make): search and perft copy the
//! parent and play one move on the copy, so "unmake" is dropping the copy.

use crate::bitboard::Bitboard;
use crate::piece::{MAX_KINDS, Piece, PieceKind};
use crate::square::{ByColor, Color, SQUARE_COUNT, Square};
use crate::tables::Tables;
use crate::variant::{HandRule, Variant};

/// Castling side, named after orthodox chess: `KingSide` castles towards the
/// high files (O-O, AMRC O-O-Og), `QueenSide` towards the low files.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CastleSide {
    /// Towards the high files.
    KingSide = 0,
    /// Towards the low files.
    QueenSide = 1,
}

impl CastleSide {
    /// Both sides, king side first (the order FEN prints them in).
    pub const BOTH: [CastleSide; 2] = [CastleSide::KingSide, CastleSide::QueenSide];

    /// The side a rook on `rook` castles towards, seen from a king on `king`.
    pub fn of_rook(king: Square, rook: Square) -> CastleSide {
        if rook.file() > king.file() {
            CastleSide::KingSide
        } else {
            CastleSide::QueenSide
        }
    }
}

/// A position of one variant.
#[derive(Clone, Copy)]
pub struct Position {
    pub(crate) variant: &'static Variant,
    pub(crate) by_color: ByColor<Bitboard>,
    pub(crate) by_kind: [Bitboard; MAX_KINDS],
    pub(crate) board: [u8; SQUARE_COUNT],
    pub(crate) hand: ByColor<u8>,
    /// Castling rook squares per colour, `[king side, queen side]`.
    pub(crate) castling: ByColor<[Option<Square>; 2]>,
    /// Squares whose piece may still gate a piece from hand in.
    pub(crate) gates: ByColor<Bitboard>,
    pub(crate) en_passant: Option<Square>,
    pub(crate) side: Color,
    pub(crate) halfmove: u32,
    pub(crate) fullmove: u32,
    pub(crate) hash: u64,
    pub(crate) king: ByColor<Square>,
}

impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        std::ptr::eq(self.variant, other.variant)
            && self.by_color == other.by_color
            && self.by_kind == other.by_kind
            && self.hand == other.hand
            && self.castling == other.castling
            && self.gates == other.gates
            && self.en_passant == other.en_passant
            && self.side == other.side
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && self.hash == other.hash
    }
}

impl Eq for Position {}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Position({} {})", self.variant.name(), self.fen())
    }
}

impl Position {
    /// An empty board of `variant` with White to move; filled by the FEN parser.
    pub(crate) fn empty(variant: &'static Variant) -> Position {
        let a1 = Square::from_index(0).unwrap_or_else(|| unreachable!());
        Position {
            variant,
            by_color: ByColor::default(),
            by_kind: [Bitboard::EMPTY; MAX_KINDS],
            board: [0; SQUARE_COUNT],
            hand: ByColor::default(),
            castling: ByColor::default(),
            gates: ByColor::default(),
            en_passant: None,
            side: Color::White,
            halfmove: 0,
            fullmove: 1,
            hash: 0,
            king: ByColor {
                white: a1,
                black: a1,
            },
        }
    }

    #[inline]
    pub(crate) fn tables(&self) -> &'static Tables {
        &self.variant.tables
    }

    /// The variant this position belongs to.
    #[inline]
    pub fn variant(&self) -> &'static Variant {
        self.variant
    }

    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }

    /// The piece on `sq`, if any.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        Piece::from_code(self.board[sq.index()])
    }

    /// Squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()] & self.by_color[color]
    }

    /// Squares of all pieces of `kind`, both colours.
    #[inline]
    pub fn pieces_of_kind(&self, kind: PieceKind) -> Bitboard {
        self.by_kind[kind.index()]
    }

    /// Squares of `color`'s pieces.
    #[inline]
    pub fn color_pieces(&self, color: Color) -> Bitboard {
        self.by_color[color]
    }

    /// Every occupied square.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color.white | self.by_color.black
    }

    /// `color`'s king square.
    #[inline]
    pub fn king_square(&self, color: Color) -> Square {
        self.king[color]
    }

    /// How many pieces `color` holds in hand (of the variant's hand kind).
    #[inline]
    pub fn hand_count(&self, color: Color) -> u8 {
        self.hand[color]
    }

    /// The rook square of `color`'s castling right on `side`, if it still has it.
    #[inline]
    pub fn castling_rook(&self, color: Color, side: CastleSide) -> Option<Square> {
        self.castling[color][side as usize]
    }

    /// Squares whose piece may still gate a piece from hand in (AMRC).
    #[inline]
    pub fn gates(&self, color: Color) -> Bitboard {
        self.gates[color]
    }

    /// The en passant square, when an en passant capture is pseudo-legal.
    #[inline]
    pub fn en_passant_square(&self) -> Option<Square> {
        self.en_passant
    }

    /// Plies since the last capture, pawn move or drop.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// Move number, starting at 1 and incremented after Black's move.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// Zobrist hash of placement, side, hands, castling and gating rights and
    /// en passant square.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The variant's hand kind, if it has a hand.
    #[inline]
    pub(crate) fn hand_kind(&self) -> Option<PieceKind> {
        self.variant.def.hand.kind()
    }

    // ---- placement primitives (keep the hash in step) ----

    #[inline]
    pub(crate) fn put(&mut self, piece: Piece, sq: Square) {
        let bb = Bitboard::from_square(sq);
        self.by_color[piece.color] |= bb;
        self.by_kind[piece.kind.index()] |= bb;
        self.board[sq.index()] = piece.code();
        self.hash ^= self.tables().keys.piece(piece.color, piece.kind, sq);
        if piece.kind == PieceKind::KING {
            self.king[piece.color] = sq;
        }
    }

    /// Removes and returns the piece on `sq` (which must hold one).
    #[inline]
    pub(crate) fn remove(&mut self, sq: Square) -> Option<Piece> {
        let piece = Piece::from_code(self.board[sq.index()])?;
        let bb = !Bitboard::from_square(sq);
        self.by_color[piece.color] &= bb;
        self.by_kind[piece.kind.index()] &= bb;
        self.board[sq.index()] = 0;
        self.hash ^= self.tables().keys.piece(piece.color, piece.kind, sq);
        Some(piece)
    }

    pub(crate) fn set_hand(&mut self, color: Color, count: u8) {
        if let Some(kind) = self.hand_kind() {
            let keys = &self.tables().keys;
            self.hash ^= keys.hand(color, kind, self.hand[color]) ^ keys.hand(color, kind, count);
        }
        self.hand[color] = count;
    }

    pub(crate) fn set_castling(&mut self, color: Color, side: CastleSide, rook: Option<Square>) {
        let keys = &self.tables().keys;
        if let Some(old) = self.castling[color][side as usize] {
            self.hash ^= keys.castle(color, old);
        }
        if let Some(new) = rook {
            self.hash ^= keys.castle(color, new);
        }
        self.castling[color][side as usize] = rook;
    }

    pub(crate) fn set_gates(&mut self, color: Color, gates: Bitboard) {
        let changed = self.gates[color] ^ gates;
        for sq in changed {
            self.hash ^= self.tables().keys.gate(color, sq);
        }
        self.gates[color] = gates;
    }

    pub(crate) fn set_en_passant(&mut self, sq: Option<Square>) {
        let keys = &self.tables().keys;
        if let Some(old) = self.en_passant {
            self.hash ^= keys.en_passant[old.index()];
        }
        if let Some(new) = sq {
            self.hash ^= keys.en_passant[new.index()];
        }
        self.en_passant = sq;
    }

    /// The hash recomputed from scratch (the incremental one must equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        let keys = &self.tables().keys;
        let mut h = 0;
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                h ^= keys.piece(p.color, p.kind, sq);
            }
        }
        for color in Color::ALL {
            if let Some(kind) = self.hand_kind() {
                h ^= keys.hand(color, kind, self.hand[color]);
            }
            for rook in self.castling[color].into_iter().flatten() {
                h ^= keys.castle(color, rook);
            }
            for sq in self.gates[color] {
                h ^= keys.gate(color, sq);
            }
        }
        if let Some(ep) = self.en_passant {
            h ^= keys.en_passant[ep.index()];
        }
        if self.side == Color::Black {
            h ^= keys.black_to_move;
        }
        h
    }

    // ---- attacks ----

    /// Pieces in `attackers` (a subset of one colour's pieces) that attack
    /// `sq` with a capturing move, given occupancy `occ`. Move-only steps
    /// never attack.
    pub fn attackers_to(
        &self,
        sq: Square,
        occ: Bitboard,
        attackers: Bitboard,
        by: Color,
    ) -> Bitboard {
        let t = self.tables();
        let mut found = t.pawn_attacks[(!by).index()][sq.index()]
            & self.by_kind[PieceKind::PAWN.index()]
            & attackers;
        let orth = self.kinds_union(&t.orthogonal_attackers) & attackers;
        if orth.any() {
            found |= t.orthogonal_attacks(sq, occ) & orth;
        }
        let diag = self.kinds_union(&t.diagonal_attackers) & attackers;
        if diag.any() {
            found |= t.diagonal_attacks(sq, occ) & diag;
        }
        for &kind in &t.leap_attackers {
            found |=
                t.kind(kind).leap_attackers[sq.index()] & self.by_kind[kind.index()] & attackers;
        }
        for &kind in &t.lame_attackers {
            let pieces = self.by_kind[kind.index()] & attackers;
            if pieces.is_empty() {
                continue;
            }
            for src in &t.kind(kind).lame_attackers[sq.index()] {
                if pieces.contains(src.source) && (src.path & occ).is_empty() {
                    found = found.with(src.source);
                }
            }
        }
        found
    }

    /// Whether any piece in `attackers` (all of colour `by`) attacks `sq`.
    #[inline]
    pub(crate) fn is_attacked(
        &self,
        sq: Square,
        occ: Bitboard,
        attackers: Bitboard,
        by: Color,
    ) -> bool {
        let t = self.tables();
        if (t.pawn_attacks[(!by).index()][sq.index()]
            & self.by_kind[PieceKind::PAWN.index()]
            & attackers)
            .any()
        {
            return true;
        }
        for &kind in &t.leap_attackers {
            if (t.kind(kind).leap_attackers[sq.index()] & self.by_kind[kind.index()] & attackers)
                .any()
            {
                return true;
            }
        }
        let orth = self.kinds_union(&t.orthogonal_attackers) & attackers;
        if orth.any() && (t.orthogonal_attacks(sq, occ) & orth).any() {
            return true;
        }
        let diag = self.kinds_union(&t.diagonal_attackers) & attackers;
        if diag.any() && (t.diagonal_attacks(sq, occ) & diag).any() {
            return true;
        }
        for &kind in &t.lame_attackers {
            let pieces = self.by_kind[kind.index()] & attackers;
            if pieces.is_empty() {
                continue;
            }
            for src in &t.kind(kind).lame_attackers[sq.index()] {
                if pieces.contains(src.source) && (src.path & occ).is_empty() {
                    return true;
                }
            }
        }
        false
    }

    #[inline]
    fn kinds_union(&self, kinds: &[PieceKind]) -> Bitboard {
        kinds
            .iter()
            .fold(Bitboard::EMPTY, |acc, k| acc | self.by_kind[k.index()])
    }

    /// Enemy pieces giving check to the side to move.
    pub fn checkers(&self) -> Bitboard {
        let them = !self.side;
        self.attackers_to(
            self.king[self.side],
            self.occupied(),
            self.by_color[them],
            them,
        )
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        let them = !self.side;
        self.is_attacked(
            self.king[self.side],
            self.occupied(),
            self.by_color[them],
            them,
        )
    }

    /// Whether the side *not* to move is in check (an impossible position).
    pub(crate) fn opponent_in_check(&self) -> bool {
        let us = self.side;
        self.is_attacked(self.king[!us], self.occupied(), self.by_color[us], us)
    }

    /// Whether the variant gates from hand and `color` still has pieces to gate.
    #[inline]
    pub(crate) fn can_gate(&self, color: Color) -> bool {
        matches!(self.variant.def.hand, HandRule::Gating { .. }) && self.hand[color] > 0
    }

    /// Checks the internal invariants (bitboards agree with the mailbox, the
    /// hash equals the one from scratch). For debug builds and tests.
    pub fn validate_internals(&self) -> Result<(), String> {
        let t = self.tables();
        if (self.by_color.white & self.by_color.black).any() {
            return Err("a square holds both colours".into());
        }
        if (self.occupied() & !t.board).any() {
            return Err("a piece stands off the board".into());
        }
        for sq in t.board {
            let from_bb = Color::ALL.into_iter().find_map(|c| {
                PieceKind::all()
                    .find(|k| self.pieces(c, *k).contains(sq))
                    .map(|k| Piece::new(c, k))
            });
            if from_bb != self.piece_at(sq) {
                return Err(format!("mailbox and bitboards disagree on {sq}"));
            }
        }
        for c in Color::ALL {
            if self.pieces(c, PieceKind::KING) != Bitboard::from_square(self.king[c]) {
                return Err(format!("{c} king square is stale"));
            }
        }
        if self.hash != self.hash_from_scratch() {
            return Err("incremental hash differs from the hash from scratch".into());
        }
        Ok(())
    }
}
