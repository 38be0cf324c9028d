//! Tables precomputed from a variant's definition: board masks, rays,
//! per-square move sets of every piece kind (and their reverses, for attack
//! detection), and Zobrist keys.

use crate::bitboard::Bitboard;
use crate::piece::{MAX_KINDS, PieceKind};
use crate::square::{Color, SQUARE_COUNT, STRIDE, Square};
use crate::variant::{Geometry, Lines, Mode, VariantDef};

/// The eight ray directions as `(dx, dy)`; the first four run towards higher
/// square indices (lowest blocker = nearest), the last four towards lower.
pub(crate) const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

/// A lame leap from one square: its target and the squares that must be empty.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LameLeap {
    pub(crate) target: Square,
    pub(crate) path: Bitboard,
    pub(crate) mode: Mode,
}

/// A lame leap seen from its target: where the piece stands and the path.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LameSource {
    pub(crate) source: Square,
    pub(crate) path: Bitboard,
}

/// Move sets of one piece kind.
#[derive(Clone, Debug, Default)]
pub(crate) struct KindTables {
    /// Slide lines that move and capture.
    pub(crate) slide_both: Option<SlideLines>,
    /// Slide lines that only move (no piece here has one, but the model allows it).
    pub(crate) slide_move: Option<SlideLines>,
    /// Slide lines that only capture.
    pub(crate) slide_capture: Option<SlideLines>,
    /// Leap targets that move and capture, per square.
    pub(crate) leap_both: Vec<Bitboard>,
    /// Leap targets that only move, per square.
    pub(crate) leap_move: Vec<Bitboard>,
    /// Leap targets that only capture, per square.
    pub(crate) leap_capture: Vec<Bitboard>,
    /// Lame leaps, per square.
    pub(crate) lame: Vec<Vec<LameLeap>>,
    /// Squares from which this kind attacks the square by a leap.
    pub(crate) leap_attackers: Vec<Bitboard>,
    /// Lame leaps that attack the square, seen from the square.
    pub(crate) lame_attackers: Vec<Vec<LameSource>>,
    /// Whether any leap attacks at all (to skip empty work).
    pub(crate) has_leap_attack: bool,
}

/// Which lines a slider uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SlideLines {
    pub(crate) orthogonal: bool,
    pub(crate) diagonal: bool,
}

impl SlideLines {
    fn add(slot: &mut Option<SlideLines>, lines: Lines) {
        let s = slot.get_or_insert(SlideLines {
            orthogonal: false,
            diagonal: false,
        });
        match lines {
            Lines::Orthogonal => s.orthogonal = true,
            Lines::Diagonal => s.diagonal = true,
        }
    }
}

/// Zobrist keys of a variant.
#[derive(Clone, Debug)]
pub(crate) struct Keys {
    pub(crate) piece: Vec<u64>,
    pub(crate) castle: Vec<u64>,
    pub(crate) gate: Vec<u64>,
    pub(crate) en_passant: Vec<u64>,
    pub(crate) hand: Vec<u64>,
    pub(crate) black_to_move: u64,
}

/// Largest hand count the keys distinguish.
pub(crate) const MAX_HAND: usize = 16;

/// Kinds whose keys come first in the key stream (the built-in variants' nine).
const KEYED_FIRST: usize = 9;

/// Keys laid out `(color * MAX_KINDS + kind) * per_kind + i`, taken from
/// `first` for the first [`KEYED_FIRST`] kinds of each colour and from
/// `more` for the others (both laid out by colour, then kind).
fn by_color_and_kind(first: &[u64], more: &[u64], per_kind: usize) -> Vec<u64> {
    let more_kinds = MAX_KINDS - KEYED_FIRST;
    let mut out = Vec::with_capacity(2 * MAX_KINDS * per_kind);
    for color in 0..2 {
        out.extend_from_slice(&first[color * KEYED_FIRST * per_kind..][..KEYED_FIRST * per_kind]);
        out.extend_from_slice(&more[color * more_kinds * per_kind..][..more_kinds * per_kind]);
    }
    out
}

impl Keys {
    fn build() -> Keys {
        // SplitMix64 from a fixed seed: the same keys on every run and machine.
        let mut state = 0x0A1A_C0DE_2026_u64;
        let mut next = move || {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut many = |n: usize| (0..n).map(|_| next()).collect::<Vec<u64>>();
        // The keys of the first nine kinds come first in the stream, as when
        // there were only nine: the built-in variants' hashes (and so the
        // engine's searches) do not depend on `MAX_KINDS`.
        let piece = many(2 * KEYED_FIRST * SQUARE_COUNT);
        let castle = many(2 * SQUARE_COUNT);
        let gate = many(2 * SQUARE_COUNT);
        let en_passant = many(SQUARE_COUNT);
        let hand = many(2 * KEYED_FIRST * (MAX_HAND + 1));
        let black_to_move = many(1)[0];
        let more = MAX_KINDS - KEYED_FIRST;
        let more_piece = many(2 * more * SQUARE_COUNT);
        let more_hand = many(2 * more * (MAX_HAND + 1));
        Keys {
            piece: by_color_and_kind(&piece, &more_piece, SQUARE_COUNT),
            castle,
            gate,
            en_passant,
            hand: by_color_and_kind(&hand, &more_hand, MAX_HAND + 1),
            black_to_move,
        }
    }

    #[inline]
    pub(crate) fn piece(&self, color: Color, kind: PieceKind, sq: Square) -> u64 {
        self.piece[(color.index() * MAX_KINDS + kind.index()) * SQUARE_COUNT + sq.index()]
    }

    #[inline]
    pub(crate) fn castle(&self, color: Color, rook: Square) -> u64 {
        self.castle[color.index() * SQUARE_COUNT + rook.index()]
    }

    #[inline]
    pub(crate) fn gate(&self, color: Color, sq: Square) -> u64 {
        self.gate[color.index() * SQUARE_COUNT + sq.index()]
    }

    #[inline]
    pub(crate) fn hand(&self, color: Color, kind: PieceKind, count: u8) -> u64 {
        let count = usize::from(count).min(MAX_HAND);
        self.hand[(color.index() * MAX_KINDS + kind.index()) * (MAX_HAND + 1) + count]
    }
}

/// Everything the move generator looks up.
#[derive(Clone, Debug)]
pub(crate) struct Tables {
    pub(crate) board: Bitboard,
    pub(crate) ranks: Vec<Bitboard>,
    pub(crate) files: Vec<Bitboard>,
    /// `rays[dir][sq]`: squares from `sq` (exclusive) to the edge.
    pub(crate) rays: [Vec<Bitboard>; 8],
    /// `between[a][b]` is computed on demand from rays; `line_through` neither.
    pub(crate) kinds: Vec<KindTables>,
    /// Kinds that exist in the variant other than the pawn.
    pub(crate) piece_kinds: Vec<PieceKind>,
    /// Kinds that slide orthogonally / diagonally with capture.
    pub(crate) orthogonal_attackers: Vec<PieceKind>,
    pub(crate) diagonal_attackers: Vec<PieceKind>,
    /// Kinds with capturing leaps.
    pub(crate) leap_attackers: Vec<PieceKind>,
    /// Kinds with capturing lame leaps.
    pub(crate) lame_attackers: Vec<PieceKind>,
    /// `pawn_attacks[color][sq]`: squares a pawn of `color` on `sq` attacks.
    pub(crate) pawn_attacks: [Vec<Bitboard>; 2],
    pub(crate) keys: Keys,
}

fn square_at(file: i32, rank: i32, width: u8, height: u8) -> Option<Square> {
    if file < 0 || rank < 0 || file >= i32::from(width) || rank >= i32::from(height) {
        return None;
    }
    Square::from_coords(file, rank)
}

/// The eight images of `(dx, dy)` under the board's symmetries, deduplicated.
fn images(dx: i32, dy: i32) -> Vec<(i32, i32)> {
    let mut out = Vec::with_capacity(8);
    for (x, y) in [(dx, dy), (dy, dx)] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let v = (x * sx, y * sy);
            if !out.contains(&v) {
                out.push(v);
            }
        }
    }
    out
}

/// The eight images of a path of unit steps (the same symmetry applied to each step).
fn path_images(steps: &[(i8, i8)]) -> Vec<Vec<(i32, i32)>> {
    let mut out: Vec<Vec<(i32, i32)>> = Vec::with_capacity(8);
    for swap in [false, true] {
        for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
            let path: Vec<(i32, i32)> = steps
                .iter()
                .map(|&(x, y)| {
                    let (x, y) = (i32::from(x), i32::from(y));
                    let (x, y) = if swap { (y, x) } else { (x, y) };
                    (x * sx, y * sy)
                })
                .collect();
            if !out.contains(&path) {
                out.push(path);
            }
        }
    }
    out
}

impl Tables {
    pub(crate) fn build(def: &VariantDef) -> Tables {
        let (w, h) = (def.width, def.height);
        let all_squares: Vec<Square> = (0..i32::from(h))
            .flat_map(|r| (0..i32::from(w)).filter_map(move |f| square_at(f, r, w, h)))
            .collect();
        let board: Bitboard = all_squares.iter().copied().collect();
        let ranks = (0..i32::from(h))
            .map(|r| {
                all_squares
                    .iter()
                    .copied()
                    .filter(|s| i32::from(s.rank().index()) == r)
                    .collect()
            })
            .collect();
        let files = (0..i32::from(w))
            .map(|f| {
                all_squares
                    .iter()
                    .copied()
                    .filter(|s| i32::from(s.file().index()) == f)
                    .collect()
            })
            .collect();

        let rays: [Vec<Bitboard>; 8] = std::array::from_fn(|d| {
            let (dx, dy) = DIRECTIONS[d];
            (0..SQUARE_COUNT)
                .map(|i| {
                    let Some(sq) = u8::try_from(i).ok().and_then(Square::from_index) else {
                        return Bitboard::EMPTY;
                    };
                    if !board.contains(sq) {
                        return Bitboard::EMPTY;
                    }
                    let (mut f, mut r) =
                        (i32::from(sq.file().index()), i32::from(sq.rank().index()));
                    let mut bb = Bitboard::EMPTY;
                    loop {
                        f += dx;
                        r += dy;
                        match square_at(f, r, w, h) {
                            Some(s) => bb = bb.with(s),
                            None => break bb,
                        }
                    }
                })
                .collect()
        });

        let mut kinds = vec![KindTables::default(); MAX_KINDS];
        let mut piece_kinds = Vec::new();
        for pdef in &def.pieces {
            piece_kinds.push(pdef.kind);
            kinds[pdef.kind.index()] = kind_tables(pdef, &all_squares, w, h);
        }
        let with = |pred: &dyn Fn(&KindTables) -> bool| -> Vec<PieceKind> {
            piece_kinds
                .iter()
                .copied()
                .filter(|k| pred(&kinds[k.index()]))
                .collect()
        };
        let attacking_lines = |t: &KindTables| {
            let both = t.slide_both.unwrap_or(SlideLines {
                orthogonal: false,
                diagonal: false,
            });
            let cap = t.slide_capture.unwrap_or(SlideLines {
                orthogonal: false,
                diagonal: false,
            });
            (
                both.orthogonal || cap.orthogonal,
                both.diagonal || cap.diagonal,
            )
        };
        let orthogonal_attackers = with(&|t| attacking_lines(t).0);
        let diagonal_attackers = with(&|t| attacking_lines(t).1);
        let leap_attackers = with(&|t| t.has_leap_attack);
        let lame_attackers = with(&|t| t.lame_attackers.iter().any(|v| !v.is_empty()));

        let pawn_attacks = std::array::from_fn(|c| {
            let dy = if c == 0 { 1 } else { -1 };
            (0..SQUARE_COUNT)
                .map(|i| {
                    let Some(sq) = u8::try_from(i).ok().and_then(Square::from_index) else {
                        return Bitboard::EMPTY;
                    };
                    if !board.contains(sq) {
                        return Bitboard::EMPTY;
                    }
                    let (f, r) = (i32::from(sq.file().index()), i32::from(sq.rank().index()));
                    [-1, 1]
                        .iter()
                        .filter_map(|dx| square_at(f + dx, r + dy, w, h))
                        .collect()
                })
                .collect()
        });

        Tables {
            board,
            ranks,
            files,
            rays,
            kinds,
            piece_kinds,
            orthogonal_attackers,
            diagonal_attackers,
            leap_attackers,
            lame_attackers,
            pawn_attacks,
            keys: Keys::build(),
        }
    }

    /// Squares a slider on `sq` reaches along direction `dir` with blockers `occ`
    /// (the first blocker included).
    #[inline]
    pub(crate) fn ray_attacks(&self, dir: usize, sq: Square, occ: Bitboard) -> Bitboard {
        let ray = self.rays[dir][sq.index()];
        let blockers = ray & occ;
        if blockers.is_empty() {
            return ray;
        }
        let nearest = if dir < 4 {
            blockers.first()
        } else {
            blockers.last()
        };
        match nearest {
            Some(b) => ray ^ self.rays[dir][b.index()],
            None => ray,
        }
    }

    /// Rook-line attacks from `sq`.
    #[inline]
    pub(crate) fn orthogonal_attacks(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.ray_attacks(0, sq, occ)
            | self.ray_attacks(1, sq, occ)
            | self.ray_attacks(4, sq, occ)
            | self.ray_attacks(5, sq, occ)
    }

    /// Bishop-line attacks from `sq`.
    #[inline]
    pub(crate) fn diagonal_attacks(&self, sq: Square, occ: Bitboard) -> Bitboard {
        self.ray_attacks(2, sq, occ)
            | self.ray_attacks(3, sq, occ)
            | self.ray_attacks(6, sq, occ)
            | self.ray_attacks(7, sq, occ)
    }

    /// Attacks along the given lines.
    #[inline]
    pub(crate) fn slide_attacks(&self, lines: SlideLines, sq: Square, occ: Bitboard) -> Bitboard {
        let mut bb = Bitboard::EMPTY;
        if lines.orthogonal {
            bb |= self.orthogonal_attacks(sq, occ);
        }
        if lines.diagonal {
            bb |= self.diagonal_attacks(sq, occ);
        }
        bb
    }

    /// Squares strictly between `a` and `b` if they share a line, else empty.
    pub(crate) fn between(&self, a: Square, b: Square) -> Bitboard {
        for dir in 0..8 {
            let ray = self.rays[dir][a.index()];
            if ray.contains(b) {
                return ray & !self.rays[dir][b.index()] & !Bitboard::from_square(b);
            }
        }
        Bitboard::EMPTY
    }

    /// Squares from `a` up to and including `b` on one rank (either order).
    pub(crate) fn span_on_rank(&self, a: Square, b: Square) -> Bitboard {
        if a == b {
            return Bitboard::from_square(a);
        }
        self.between(a, b).with(a).with(b)
    }

    #[inline]
    pub(crate) fn kind(&self, kind: PieceKind) -> &KindTables {
        &self.kinds[kind.index()]
    }

    /// Rank `rank` counted from `color`'s side (0 = its first rank).
    pub(crate) fn relative_rank(&self, color: Color, rank: u8, height: u8) -> Bitboard {
        let r = match color {
            Color::White => rank,
            Color::Black => height - 1 - rank,
        };
        self.ranks[usize::from(r)]
    }
}

fn kind_tables(pdef: &crate::variant::PieceDef, squares: &[Square], w: u8, h: u8) -> KindTables {
    let mut t = KindTables {
        leap_both: vec![Bitboard::EMPTY; SQUARE_COUNT],
        leap_move: vec![Bitboard::EMPTY; SQUARE_COUNT],
        leap_capture: vec![Bitboard::EMPTY; SQUARE_COUNT],
        lame: vec![Vec::new(); SQUARE_COUNT],
        leap_attackers: vec![Bitboard::EMPTY; SQUARE_COUNT],
        lame_attackers: vec![Vec::new(); SQUARE_COUNT],
        ..KindTables::default()
    };
    for comp in &pdef.components {
        match &comp.geometry {
            Geometry::Slide(lines) => match comp.mode {
                Mode::MoveAndCapture => SlideLines::add(&mut t.slide_both, *lines),
                Mode::MoveOnly => SlideLines::add(&mut t.slide_move, *lines),
                Mode::CaptureOnly => SlideLines::add(&mut t.slide_capture, *lines),
            },
            Geometry::Leap(dx, dy) => {
                for &sq in squares {
                    let (f, r) = (i32::from(sq.file().index()), i32::from(sq.rank().index()));
                    for (x, y) in images(i32::from(*dx), i32::from(*dy)) {
                        let Some(to) = square_at(f + x, r + y, w, h) else {
                            continue;
                        };
                        let slot = match comp.mode {
                            Mode::MoveAndCapture => &mut t.leap_both,
                            Mode::MoveOnly => &mut t.leap_move,
                            Mode::CaptureOnly => &mut t.leap_capture,
                        };
                        slot[sq.index()] = slot[sq.index()].with(to);
                        if comp.mode != Mode::MoveOnly {
                            t.leap_attackers[to.index()] = t.leap_attackers[to.index()].with(sq);
                            t.has_leap_attack = true;
                        }
                    }
                }
            }
            Geometry::Lame(steps) => {
                for &sq in squares {
                    for path in path_images(steps) {
                        let (mut f, mut r) =
                            (i32::from(sq.file().index()), i32::from(sq.rank().index()));
                        let mut visited = Vec::with_capacity(path.len());
                        let mut on_board = true;
                        for (x, y) in path {
                            f += x;
                            r += y;
                            match square_at(f, r, w, h) {
                                Some(s) => visited.push(s),
                                None => {
                                    on_board = false;
                                    break;
                                }
                            }
                        }
                        let Some((&target, before)) = visited.split_last() else {
                            continue;
                        };
                        if !on_board {
                            continue;
                        }
                        let path_bb: Bitboard = before.iter().copied().collect();
                        t.lame[sq.index()].push(LameLeap {
                            target,
                            path: path_bb,
                            mode: comp.mode,
                        });
                        if comp.mode != Mode::MoveOnly {
                            t.lame_attackers[target.index()].push(LameSource {
                                source: sq,
                                path: path_bb,
                            });
                        }
                    }
                }
            }
        }
    }
    t
}

/// Frame-index offset of one step forward for `color`.
#[inline]
pub(crate) const fn forward(color: Color) -> i32 {
    match color {
        Color::White => STRIDE as i32,
        Color::Black => -(STRIDE as i32),
    }
}
