//! Legal move generation for every variant, from the variant's tables.
//!
//! Moves are generated into a [`Sink`]: a [`MoveList`] collects them, a
//! counter only counts them (perft's bulk counting at the leaves). A move is
//! known legal without trying it unless the mover is the king, stands on a
//! line or lame-leap path to its own king (a pin candidate), the side is in
//! check, or the move is en passant; those are tried against the position
//! after the move. A gated piece never changes legality (the Seirawan
//! ruling: the vacated square counts as empty).

use crate::bitboard::Bitboard;
use crate::moves::{Gate, Move, MoveList};
use crate::piece::PieceKind;
use crate::position::{CastleSide, Position};
use crate::square::{Color, File, Square};
use crate::tables::{DIRECTIONS, forward};
use crate::variant::HandRule;

/// Where generated moves go.
pub(crate) trait Sink {
    /// Takes one legal move.
    fn push(&mut self, m: Move);
    /// Takes `n` legal moves without seeing them; only counters implement it
    /// cheaply, lists never receive it.
    fn add(&mut self, n: u64);
    /// Whether the sink only counts (so whole target sets may be counted at once).
    const COUNTS: bool;
    /// Whether the sink has all it needs, so generation may stop early.
    #[inline]
    fn satisfied(&self) -> bool {
        false
    }
    /// Whether only tactical moves are wanted: captures (en passant
    /// included) and promotions; no quiet piece moves, drops or castling.
    const TACTICAL: bool = false;
}

impl Sink for MoveList {
    #[inline]
    fn push(&mut self, m: Move) {
        MoveList::push(self, m);
    }
    #[inline]
    fn add(&mut self, _n: u64) {
        unreachable!("a move list is never sent bare counts")
    }
    const COUNTS: bool = false;
}

/// Collects the tactical moves only (a quiescence search's moves).
struct Tactical(MoveList);

impl Sink for Tactical {
    #[inline]
    fn push(&mut self, m: Move) {
        self.0.push(m);
    }
    #[inline]
    fn add(&mut self, _n: u64) {
        unreachable!("a move list is never sent bare counts")
    }
    const COUNTS: bool = false;
    const TACTICAL: bool = true;
}

/// Counts moves.
pub(crate) struct Counter(pub(crate) u64);

impl Sink for Counter {
    #[inline]
    fn push(&mut self, _m: Move) {
        self.0 += 1;
    }
    #[inline]
    fn add(&mut self, n: u64) {
        self.0 += n;
    }
    const COUNTS: bool = true;
}

/// Notes whether there is any legal move at all, and stops generation at the
/// first: the test for checkmate and stalemate.
struct AnyMove(bool);

impl Sink for AnyMove {
    #[inline]
    fn push(&mut self, _m: Move) {
        self.0 = true;
    }
    #[inline]
    fn add(&mut self, n: u64) {
        self.0 |= n > 0;
    }
    const COUNTS: bool = true;
    #[inline]
    fn satisfied(&self) -> bool {
        self.0
    }
}

/// Facts about the side to move shared by every generator step.
struct Frame {
    us: Color,
    them: Color,
    occ: Bitboard,
    own: Bitboard,
    enemy: Bitboard,
    empty: Bitboard,
    king: Square,
    in_check: bool,
    /// Pieces whose moves must be tried: pin candidates, or all when in check.
    suspects: Bitboard,
    /// Squares that gate a piece from hand in when vacated.
    gating: Bitboard,
}

impl Position {
    /// Every legal move.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate(&mut list);
        list
    }

    /// Number of legal moves (faster than generating them).
    pub fn count_legal_moves(&self) -> u64 {
        let mut counter = Counter(0);
        self.generate(&mut counter);
        counter.0
    }

    /// Whether the side to move has a legal move (the game goes on unless
    /// the clock rules end it). Stops at the first move found, so it is much
    /// cheaper than counting them.
    pub fn has_legal_move(&self) -> bool {
        let mut any = AnyMove(false);
        self.generate(&mut any);
        any.0
    }

    /// The legal captures (en passant included) and promotions, with their
    /// gated forms: the moves of a quiescence search, generated without the
    /// quiet moves. Drops and castling never capture and are left out.
    pub fn legal_tactical_moves(&self) -> MoveList {
        let mut sink = Tactical(MoveList::new());
        self.generate(&mut sink);
        sink.0
    }

    /// Whether `m` is a legal move here.
    pub fn is_legal(&self, m: Move) -> bool {
        self.legal_moves().contains(m)
    }

    pub(crate) fn generate<S: Sink>(&self, sink: &mut S) {
        let us = self.side;
        let them = !us;
        let t = self.tables();
        let occ = self.occupied();
        let own = self.by_color[us];
        let enemy = self.by_color[them];
        let king = self.king[us];
        let in_check = self.is_attacked(king, occ, enemy, them);
        let suspects = if in_check {
            own
        } else {
            self.pin_candidates(king, occ, us)
        };
        let gating = if self.can_gate(us) {
            self.gates[us]
        } else {
            Bitboard::EMPTY
        };
        let f = Frame {
            us,
            them,
            occ,
            own,
            enemy,
            empty: t.board & !occ,
            king,
            in_check,
            suspects,
            gating,
        };

        for &kind in &t.piece_kinds {
            if kind == PieceKind::KING {
                continue;
            }
            for from in self.pieces(us, kind) {
                let mut targets = self.targets(kind, from, &f);
                if S::TACTICAL {
                    targets &= f.enemy;
                }
                if targets.is_empty() {
                    continue;
                }
                let per_move = if f.gating.contains(from) { 2 } else { 1 };
                if S::COUNTS && !f.suspects.contains(from) {
                    sink.add(u64::from(targets.count()) * per_move);
                    if sink.satisfied() {
                        return;
                    }
                    continue;
                }
                for to in targets {
                    let m = Move::normal(from, to);
                    if !f.suspects.contains(from) || self.safe_after(from, to, None, &f) {
                        emit_gated(sink, m, f.gating.contains(from));
                    }
                }
                if sink.satisfied() {
                    return;
                }
            }
        }
        self.king_moves(sink, &f);
        self.pawn_moves(sink, &f);
        if S::TACTICAL {
            return;
        }
        self.drops(sink, &f);
        if !f.in_check && !sink.satisfied() {
            self.castling_moves(sink, &f);
        }
    }

    /// Squares the piece on `sq` may move to, ignoring its own king's safety
    /// (pseudo-legal; pawns: pushes and captures, no en passant). Empty for an
    /// empty square. For mobility terms of an evaluation.
    pub fn piece_targets(&self, sq: Square) -> Bitboard {
        let Some(piece) = self.piece_at(sq) else {
            return Bitboard::EMPTY;
        };
        let us = piece.color;
        let occ = self.occupied();
        let f = Frame {
            us,
            them: !us,
            occ,
            own: self.by_color[us],
            enemy: self.by_color[!us],
            empty: self.tables().board & !occ,
            king: self.king[us],
            in_check: false,
            suspects: Bitboard::EMPTY,
            gating: Bitboard::EMPTY,
        };
        if piece.kind == PieceKind::PAWN {
            let t = self.tables();
            let push = offset_checked(sq, forward(us)).filter(|s| f.empty.contains(*s));
            let captures = t.pawn_attacks[us.index()][sq.index()] & f.enemy;
            return push.map_or(captures, |p| captures.with(p));
        }
        self.targets(piece.kind, sq, &f)
    }

    /// Squares the piece on `sq` attacks (could capture on), with the current
    /// occupancy: capturing moves only, whatever stands there.
    pub fn piece_attacks(&self, sq: Square) -> Bitboard {
        match self.piece_at(sq) {
            Some(piece) => self.attacks_from(piece.kind, piece.color, sq),
            None => Bitboard::EMPTY,
        }
    }

    /// Squares a `kind` of `color` standing on `sq` would attack (could
    /// capture on) with the current occupancy, whatever stands on `sq`: for
    /// an evaluation's check squares (where a piece would give check from)
    /// and threats.
    pub fn attacks_from(&self, kind: PieceKind, color: Color, sq: Square) -> Bitboard {
        let t = self.tables();
        if kind == PieceKind::PAWN {
            return t.pawn_attacks[color.index()][sq.index()];
        }
        let k = t.kind(kind);
        let occ = self.occupied();
        let mut bb = k.leap_both[sq.index()] | k.leap_capture[sq.index()];
        for lines in [k.slide_both, k.slide_capture].into_iter().flatten() {
            bb |= t.slide_attacks(lines, sq, occ);
        }
        for leap in &k.lame[sq.index()] {
            if leap.mode != crate::variant::Mode::MoveOnly && (leap.path & occ).is_empty() {
                bb = bb.with(leap.target);
            }
        }
        bb & t.board
    }

    /// Squares a non-pawn `kind` on `from` may move to (pseudo-legal).
    #[inline]
    fn targets(&self, kind: PieceKind, from: Square, f: &Frame) -> Bitboard {
        let t = self.tables();
        let k = t.kind(kind);
        let i = from.index();
        let mut both = k.leap_both[i];
        let mut quiet = k.leap_move[i];
        let mut capture = k.leap_capture[i];
        if let Some(lines) = k.slide_both {
            both |= t.slide_attacks(lines, from, f.occ);
        }
        if let Some(lines) = k.slide_move {
            quiet |= t.slide_attacks(lines, from, f.occ);
        }
        if let Some(lines) = k.slide_capture {
            capture |= t.slide_attacks(lines, from, f.occ);
        }
        for leap in &k.lame[i] {
            if (leap.path & f.occ).is_empty() {
                match leap.mode {
                    crate::variant::Mode::MoveAndCapture => both = both.with(leap.target),
                    crate::variant::Mode::MoveOnly => quiet = quiet.with(leap.target),
                    crate::variant::Mode::CaptureOnly => capture = capture.with(leap.target),
                }
            }
        }
        (both & !f.own & self.tables().board) | (quiet & f.empty) | (capture & f.enemy)
    }

    /// Own pieces that may be pinned: on a line between the king and an
    /// enemy slider with nothing else between, or on the path of an enemy
    /// lame leaper that would attack the king.
    fn pin_candidates(&self, king: Square, occ: Bitboard, us: Color) -> Bitboard {
        let t = self.tables();
        let them = !us;
        let own = self.by_color[us];
        let enemy = self.by_color[them];
        let mut found = Bitboard::EMPTY;
        let orth = t
            .orthogonal_attackers
            .iter()
            .fold(Bitboard::EMPTY, |a, k| a | self.by_kind[k.index()])
            & enemy;
        let diag = t
            .diagonal_attackers
            .iter()
            .fold(Bitboard::EMPTY, |a, k| a | self.by_kind[k.index()])
            & enemy;
        for (dir, &(dx, dy)) in DIRECTIONS.iter().enumerate() {
            let sliders = if dx == 0 || dy == 0 { orth } else { diag };
            if (t.rays[dir][king.index()] & sliders).is_empty() {
                continue;
            }
            let first = t.ray_attacks(dir, king, occ) & occ;
            let Some(blocker) = first.first() else {
                continue;
            };
            if !own.contains(blocker) {
                continue;
            }
            let beyond = t.ray_attacks(dir, blocker, occ) & occ;
            if (beyond & sliders).any() {
                found = found.with(blocker);
            }
        }
        for &kind in &t.lame_attackers {
            let pieces = self.by_kind[kind.index()] & enemy;
            if pieces.is_empty() {
                continue;
            }
            for src in &t.kind(kind).lame_attackers[king.index()] {
                if pieces.contains(src.source) {
                    found |= src.path & own;
                }
            }
        }
        found
    }

    /// Whether the mover's king is safe after moving the piece on `from` to
    /// `to` (capturing what is there), also removing `extra_capture` (en passant).
    #[inline]
    fn safe_after(
        &self,
        from: Square,
        to: Square,
        extra_capture: Option<Square>,
        f: &Frame,
    ) -> bool {
        let mut occ = f.occ.without(from).with(to);
        let mut enemy = f.enemy.without(to);
        if let Some(c) = extra_capture {
            occ = occ.without(c);
            enemy = enemy.without(c);
        }
        let king = if from == f.king { to } else { f.king };
        !self.is_attacked(king, occ, enemy, f.them)
    }

    fn king_moves<S: Sink>(&self, sink: &mut S, f: &Frame) {
        let mut targets = self.targets(PieceKind::KING, f.king, f);
        if S::TACTICAL {
            targets &= f.enemy;
        }
        let gated = f.gating.contains(f.king);
        let occ = f.occ.without(f.king);
        for to in targets {
            if !self.is_attacked(to, occ, f.enemy.without(to), f.them) {
                emit_gated(sink, Move::normal(f.king, to), gated);
            }
        }
    }

    fn pawn_moves<S: Sink>(&self, sink: &mut S, f: &Frame) {
        let t = self.tables();
        let height = self.variant.height();
        let pawns = self.pieces(f.us, PieceKind::PAWN);
        if pawns.is_empty() {
            return;
        }
        let promotions = &self.variant.def.pawn.promotions;
        let last = t.relative_rank(f.us, height - 1, height);
        let third = t.relative_rank(f.us, 2, height);
        let fwd = forward(f.us);
        let shift = |bb: Bitboard, by: i32| -> Bitboard {
            if by >= 0 {
                bb.shl(by.unsigned_abs())
            } else {
                bb.shr(by.unsigned_abs())
            }
        };

        // Pawns that cannot be pinned, in bulk; the rest one move at a time.
        let free = pawns & !f.suspects;
        let mut single = shift(free, fwd) & f.empty;
        let double = if S::TACTICAL {
            single &= last;
            Bitboard::EMPTY
        } else {
            shift(single & third, fwd) & f.empty
        };
        let left = shift(free, fwd - 1) & f.enemy;
        let right = shift(free, fwd + 1) & f.enemy;
        for (set, delta) in [
            (single, fwd),
            (double, 2 * fwd),
            (left, fwd - 1),
            (right, fwd + 1),
        ] {
            let plain = set & !last;
            let promoting = set & last;
            if S::COUNTS {
                sink.add(
                    u64::from(plain.count())
                        + u64::from(promoting.count()) * promotions.len() as u64,
                );
                continue;
            }
            for to in plain {
                sink.push(Move::normal(offset(to, -delta), to));
            }
            for to in promoting {
                let from = offset(to, -delta);
                for &kind in promotions {
                    sink.push(Move::promotion(from, to, kind));
                }
            }
        }

        for from in pawns & f.suspects {
            let one = offset_checked(from, fwd).filter(|s| f.empty.contains(*s));
            let mut targets = t.pawn_attacks[f.us.index()][from.index()] & f.enemy;
            if let Some(one) = one.filter(|s| !S::TACTICAL || last.contains(*s)) {
                targets = targets.with(one);
                if let Some(two) = offset_checked(one, fwd)
                    .filter(|two| third.contains(one) && f.empty.contains(*two))
                {
                    targets = targets.with(two);
                }
            }
            for to in targets {
                if !self.safe_after(from, to, None, f) {
                    continue;
                }
                if last.contains(to) {
                    for &kind in promotions {
                        sink.push(Move::promotion(from, to, kind));
                    }
                } else {
                    sink.push(Move::normal(from, to));
                }
            }
        }

        if let Some(ep) = self.en_passant {
            let captured = offset(ep, -fwd);
            for from in t.pawn_attacks[f.them.index()][ep.index()] & pawns {
                if self.safe_after(from, ep, Some(captured), f) {
                    sink.push(Move::en_passant(from, ep));
                }
            }
        }
    }

    fn drops<S: Sink>(&self, sink: &mut S, f: &Frame) {
        let HandRule::Drops { kind, .. } = self.variant.def.hand else {
            return;
        };
        if self.hand[f.us] == 0 {
            return;
        }
        let height = self.variant.height();
        let targets = self.tables().relative_rank(f.us, 0, height) & f.empty;
        if !f.in_check {
            if S::COUNTS {
                sink.add(u64::from(targets.count()));
            } else {
                for to in targets {
                    sink.push(Move::drop(kind, to));
                }
            }
            return;
        }
        for to in targets {
            if !self.is_attacked(f.king, f.occ.with(to), f.enemy, f.them) {
                sink.push(Move::drop(kind, to));
            }
        }
    }

    fn castling_moves<S: Sink>(&self, sink: &mut S, f: &Frame) {
        for side in CastleSide::BOTH {
            let Some(rook) = self.castling[f.us][side as usize] else {
                continue;
            };
            let Some((king_to, rook_to)) = self.castle_destinations(f.us, side) else {
                continue;
            };
            let t = self.tables();
            let king = f.king;
            let path = (t.span_on_rank(rook, rook_to) | t.span_on_rank(king, king_to))
                .without(king)
                .without(rook);
            if (path & f.occ).any() {
                continue;
            }
            let passes = t.span_on_rank(king, king_to).without(king).without(king_to);
            if Iterator::any(&mut passes.clone(), |s| {
                self.is_attacked(s, f.occ, f.enemy, f.them)
            }) {
                continue;
            }
            let after = f
                .occ
                .without(king)
                .without(rook)
                .with(king_to)
                .with(rook_to);
            if self.is_attacked(king_to, after, f.enemy, f.them) {
                continue;
            }
            let m = Move::castle(king, rook);
            sink.push(m);
            if !f.gating.is_empty() {
                let free = |s: Square| s != king_to && s != rook_to;
                if f.gating.contains(king) && free(king) {
                    sink.push(m.with_gate(Gate::AtFrom));
                }
                if f.gating.contains(rook) && free(rook) {
                    sink.push(m.with_gate(Gate::AtRook));
                }
            }
        }
    }

    /// Where king and rook land when `color` castles on `side`.
    pub(crate) fn castle_destinations(
        &self,
        color: Color,
        side: CastleSide,
    ) -> Option<(Square, Square)> {
        let rule = self.variant.def.castling?;
        let rank = self.tables().relative_rank(color, 0, self.variant.height());
        let back = rank.first().map_or(0, |s| s.rank().index());
        let file = match side {
            CastleSide::KingSide => rule.king_side_file,
            CastleSide::QueenSide => rule.queen_side_file,
        };
        let rook_file = match side {
            CastleSide::KingSide => file.index() - 1,
            CastleSide::QueenSide => file.index() + 1,
        };
        let rank = crate::square::Rank::new(back).unwrap_or_else(|| unreachable!());
        let rook_file = File::new(rook_file).unwrap_or_else(|| unreachable!());
        Some((Square::new(file, rank), Square::new(rook_file, rank)))
    }
}

#[inline]
fn emit_gated<S: Sink>(sink: &mut S, m: Move, gated: bool) {
    sink.push(m);
    if gated {
        sink.push(m.with_gate(Gate::AtFrom));
    }
}

/// `sq` moved by `delta` frame indices; only called where the result is on the board.
#[inline]
fn offset(sq: Square, delta: i32) -> Square {
    offset_checked(sq, delta).unwrap_or_else(|| unreachable!("pawn step off the frame"))
}

#[inline]
fn offset_checked(sq: Square, delta: i32) -> Option<Square> {
    let i = i32::try_from(sq.index()).ok()? + delta;
    Square::from_index(u8::try_from(i).ok()?)
}
