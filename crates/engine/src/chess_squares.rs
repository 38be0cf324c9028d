//! The square tables of orthodox chess and Chess960: a middlegame and an
//! endgame value for each piece on each square, from White's side (Black's
//! squares mirrored rank for rank), added to the square tables the
//! evaluation derives from every piece's reach. The derived tables know
//! only how far a piece reaches from a square; these know what chess games
//! teach beyond that (a pawn's advance by file, a king's shelter, a
//! knight's outpost), and are fitted by `ajaxlab tune` with an exact
//! gradient: the evaluation is linear in each entry.
//!
//! Each entry is a parameter named `chess.square.PIECE.SQUARE.PHASE`
//! (`chess.square.knight.e4.mg`), reached like any other by parameter
//! files, `set = {…}`, UCI `setoption` and the tuner; a pawn has none on
//! the first and last ranks, where it never stands. The defaults are the
//! fitted values of [`DEFAULTS`].

use crate::entry_table::Placed;
use crate::params::{ParamSpec, Reader, Variants};
use ajaxlab_rules::{Color, PieceKind, Position, Square};
use std::sync::OnceLock;

/// The board's side: tables are 8×8 whatever the engine's largest board.
const SIDE: usize = 8;
/// Squares of one table.
const TABLE: usize = SIDE * SIDE;

/// The pieces with tables, in table order, with the names their
/// parameters use.
pub(crate) const PIECES: [(PieceKind, &str); 6] = [
    (PieceKind::PAWN, "pawn"),
    (PieceKind::KNIGHT, "knight"),
    (PieceKind::BISHOP, "bishop"),
    (PieceKind::ROOK, "rook"),
    (PieceKind::QUEEN, "queen"),
    (PieceKind::KING, "king"),
];

/// The largest size of an entry, either way, in centipawns.
const LIMIT: i32 = 200;

/// One entry's place: a piece of [`PIECES`], a square from White's side
/// (`a1` = 0, `h8` = 63) and a phase.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    /// Index into [`PIECES`].
    pub(crate) piece: usize,
    /// Square index from White's side.
    pub(crate) square: usize,
    /// The middlegame entry, or the endgame one.
    pub(crate) middlegame: bool,
}

/// Whether a piece ever stands on the square (a pawn never on its first or
/// last rank).
fn exists(piece: usize, square: usize) -> bool {
    PIECES[piece].0 != PieceKind::PAWN || (SIDE..TABLE - SIDE).contains(&square)
}

/// Every entry, in the order of [`specs`].
fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(|| {
        let mut out = Vec::new();
        for piece in 0..PIECES.len() {
            for middlegame in [true, false] {
                for square in (0..TABLE).filter(|&s| exists(piece, s)) {
                    out.push(Entry {
                        piece,
                        square,
                        middlegame,
                    });
                }
            }
        }
        out
    })
}

/// The parameters of every entry: `chess.square.PIECE.SQUARE.PHASE`, the
/// default from [`DEFAULTS`], within ±[`LIMIT`].
pub(crate) fn specs() -> &'static [ParamSpec] {
    static SPECS: OnceLock<Vec<ParamSpec>> = OnceLock::new();
    SPECS.get_or_init(|| {
        entries()
            .iter()
            .map(|e| {
                let (_, piece) = PIECES[e.piece];
                let square = square_name(e.square);
                let (phase, words) = if e.middlegame {
                    ("mg", "middlegame")
                } else {
                    ("eg", "endgame")
                };
                let name = format!("chess.square.{piece}.{square}.{phase}");
                let doc = format!(
                    "Chess and Chess960: a {piece} on {square} (White's side; Black's mirrored), {words}, beside the table derived from its reach."
                );
                ParamSpec {
                    name: Box::leak(name.into_boxed_str()),
                    default: default_of(e),
                    min: -LIMIT,
                    max: LIMIT,
                    c_end: 4.0,
                    r_end: 0.002,
                    doc: Box::leak(doc.into_boxed_str()),
                    reader: Reader::Evaluation(Variants::CHESS),
                    piece: None,
                }
            })
            .collect()
    })
}

/// The index into [`specs`] of the entry named `name`, if it is one of
/// the tables'.
pub(crate) fn find(name: &str) -> Option<usize> {
    let mut parts = name.strip_prefix("chess.square.")?.split('.');
    let (piece, square, phase) = (parts.next()?, parts.next()?, parts.next()?);
    if parts.next().is_some() {
        return None;
    }
    let piece = PIECES.iter().position(|p| p.1 == piece)?;
    let square = square_index(square)?;
    let middlegame = match phase {
        "mg" => true,
        "eg" => false,
        _ => return None,
    };
    index(piece, square, middlegame)
}

/// Squares 0..63 for `a1`..`h8`.
fn square_index(name: &str) -> Option<usize> {
    match name.as_bytes() {
        &[file @ b'a'..=b'h', rank @ b'1'..=b'8'] => {
            Some(usize::from(rank - b'1') * SIDE + usize::from(file - b'a'))
        }
        _ => None,
    }
}

/// `a1`..`h8` for squares 0..63.
fn square_name(square: usize) -> String {
    let file = char::from(b'a' + (square % SIDE) as u8);
    format!("{file}{}", square / SIDE + 1)
}

/// The square index, from White's side, of a `color` piece on `sq`, if the
/// square is on an 8×8 board.
pub(crate) fn relative(color: Color, sq: Square) -> Option<usize> {
    let file = usize::from(sq.file().index());
    let rank = usize::from(sq.rank().index());
    if file >= SIDE || rank >= SIDE {
        return None;
    }
    let rank = if color == Color::White {
        rank
    } else {
        SIDE - 1 - rank
    };
    Some(rank * SIDE + file)
}

/// The index into [`specs`] of the entry of `piece` (of [`PIECES`]) on
/// `square` (White's side) in one phase, if it exists.
pub(crate) fn index(piece: usize, square: usize, middlegame: bool) -> Option<usize> {
    if !exists(piece, square) {
        return None;
    }
    // Entries before this piece's: the pawn has 48 squares per phase, the
    // others 64.
    let pawn = TABLE - 2 * SIDE;
    let before = if piece == 0 {
        0
    } else {
        2 * pawn + 2 * TABLE * (piece - 1)
    };
    let per_phase = if piece == 0 { pawn } else { TABLE };
    let within = if piece == 0 { square - SIDE } else { square };
    Some(before + if middlegame { 0 } else { per_phase } + within)
}

/// Every piece of `pos` that stands on the tables: the indices into
/// [`specs`] of its two entries, and which way it counts from White's side.
pub(crate) fn occupancy(pos: &Position) -> Vec<Placed> {
    let mut out = Vec::with_capacity(32);
    for color in Color::ALL {
        let sign = if color == Color::White { 1 } else { -1 };
        for (piece, &(kind, _)) in PIECES.iter().enumerate() {
            for sq in pos.pieces(color, kind) {
                let Some(square) = relative(color, sq) else {
                    continue;
                };
                if let (Some(middlegame), Some(endgame)) =
                    (index(piece, square, true), index(piece, square, false))
                {
                    out.push(Placed {
                        middlegame,
                        endgame,
                        sign,
                    });
                }
            }
        }
    }
    out
}

/// The default of an entry: [`DEFAULTS`], by piece, phase and rank (rank 8
/// first, as a board is read).
fn default_of(e: &Entry) -> i32 {
    let table = &DEFAULTS[e.piece][usize::from(!e.middlegame)];
    let row = SIDE - 1 - e.square / SIDE;
    i32::from(table[row * SIDE + e.square % SIDE])
}

/// The fitted tables, per piece of [`PIECES`], middlegame then endgame,
/// each as a board is read (the 8th rank first, a-file on the left), in
/// centipawns from White's side: `ajaxlab tune` of Stockfish's self-play
/// from all entries at 0, by the recipe in
/// `configs/tune-data-stockfish-chess.toml` (docs/strength.md, 2026-12-04).
#[rustfmt::skip]
const DEFAULTS: [[[i16; TABLE]; 2]; 6] = [
    // pawn
    [
        [
               0,    0,    0,    0,    0,    0,    0,    0,
               1,   -7,   -3,    1,   -1,   -4,    1,   -1,
              -6,  -17,   -7,  -17,  -17,   -2,   -5,   -7,
             -14,   -1,  -15,   18,    8,   15,  -14,   -6,
             -17,  -18,   -2,    8,   10,   10,   -2,  -13,
             -18,   -6,  -15,   -4,   10,    4,   15,  -10,
             -14,   -6,   -9,   -7,   -6,    5,   22,   -4,
               0,    0,    0,    0,    0,    0,    0,    0,
        ],
        [
               0,    0,    0,    0,    0,    0,    0,    0,
              -5,   -1,   -2,   -2,   -7,  -14,    4,  -16,
             -28,  -30,  -23,  -28,  -17,  -29,  -26,  -17,
             -24,  -17,   -4,  -19,  -15,  -16,   -6,  -12,
              -4,  -11,  -12,  -26,  -14,  -18,   -8,  -17,
             -14,    2,   -1,  -16,    1,   -6,  -18,  -16,
             -12,   11,   -1,    1,    1,   10,   -8,   -6,
               0,    0,    0,    0,    0,    0,    0,    0,
        ],
    ],
    // knight
    [
        [
             -20,    0,   -1,   -2,   -1,   -1,    0,   -4,
               0,    1,    1,    0,    1,    4,    0,   -6,
               1,    2,   -5,    4,   11,   -1,    4,    4,
              -1,    7,    4,    6,    3,    3,    9,   19,
              11,    2,    3,   11,   14,   10,    8,   14,
             -19,    9,  -14,    2,    6,    9,    5,   -1,
               8,    1,    8,   17,   13,    2,    1,    8,
               5,   -8,   -6,    6,    1,    9,   -2,   -7,
        ],
        [
             -10,    0,    1,   -4,    4,    0,   -2,   -4,
               0,    2,    3,    1,   -5,    2,   -3,   -2,
               3,    0,   -4,    5,    3,    0,   -1,    1,
              -2,    6,   10,    9,   15,    6,   10,    9,
              -1,    0,    9,   19,   15,   10,    3,    8,
               3,    9,    5,    9,   21,    4,   16,    0,
              -3,    2,   -6,    7,    4,    7,    2,   -2,
               1,   10,    0,    0,   10,    7,   10,   -2,
        ],
    ],
    // bishop
    [
        [
              -7,   -1,   -1,    0,   -2,    1,   -1,    3,
             -11,   -3,    1,   -2,    4,  -14,   -5,    2,
              -4,   10,   11,    6,   -6,    5,    7,   16,
               0,    9,   10,    7,   -9,    0,    2,   -3,
              12,    5,   -3,   11,   14,   -8,   -1,   11,
              -1,   -4,   -3,    3,   -4,   -7,   17,   -1,
              11,   19,    8,   10,   11,    5,   15,   12,
              -1,    3,    6,   14,    3,   -4,    4,    5,
        ],
        [
               0,   -6,   -8,   -1,   -3,    4,    1,   -2,
              -9,   -3,    3,   -3,   11,    0,   -1,    0,
               4,    1,    5,    3,  -10,    9,    5,    6,
               6,    9,    5,    4,    9,   -2,    1,   -6,
               6,   -2,    3,  -10,   -5,   -4,   -3,    2,
               5,    6,   -9,   -2,    5,   -1,    6,    2,
               1,  -10,    5,   -6,   -6,    2,  -13,    1,
              -6,    5,   -2,    4,    2,    2,    0,   12,
        ],
    ],
    // rook
    [
        [
               5,    1,    1,   -2,    2,    0,    4,    2,
               0,   -3,    2,    6,    4,    3,   -3,    3,
               1,    1,    8,    3,    2,    4,    6,    4,
              -6,   -7,   -4,    3,    3,    2,    5,    2,
              -8,   -7,   -2,    2,   -4,   -2,    2,  -13,
             -16,  -12,    4,   -4,   -6,   -5,  -19,    8,
             -22,   -3,  -11,   -2,   -3,   -5,  -11,  -25,
             -10,   -2,   -4,   28,   13,   12,   -6,  -11,
        ],
        [
              -1,   -1,    1,   -5,   -6,   -1,    0,   -2,
              -2,    0,    0,    0,   -1,    3,   -6,   -2,
              -1,   -6,    4,   -1,   -5,    1,   -4,   -9,
              -5,   -3,   -6,    7,    0,   -1,    3,  -12,
               3,   -2,    1,   -3,   10,    6,   -7,   -2,
              -5,   -1,    6,  -11,   -4,   -2,   -4,   -7,
               3,   -5,   -5,    1,   -1,   -9,   -6,   -4,
               2,    1,   -7,  -10,    3,   -2,    5,  -12,
        ],
    ],
    // queen
    [
        [
               4,    1,   -3,    6,    1,    2,    1,    4,
              -1,   -4,   -5,    3,    3,    0,   -5,    5,
              -1,    0,   -3,    5,    5,    7,    3,    1,
              -7,   -9,   -2,   -8,   -6,    4,    7,    3,
              -3,  -12,   -8,  -21,  -16,    3,   10,   10,
              -3,   -4,   -7,  -10,   -8,   -2,   -8,    6,
              -1,    2,   12,    9,   21,    7,   12,   -1,
              -2,    5,   11,   13,    7,   -1,    5,    1,
        ],
        [
               1,    3,   -1,    6,    3,    2,    2,    1,
               0,    1,    3,    2,    1,    1,    0,    3,
              -2,    0,    0,   -1,    3,    8,   -1,    1,
               1,   -3,    1,    1,   -1,    6,    8,    6,
              -3,  -10,    1,    1,   -5,   -1,    5,    0,
               0,   -2,   -4,   -2,   -1,    5,    5,    0,
              -4,   -1,    5,  -15,   -1,   -3,    1,    1,
              -3,    2,    5,   -4,    3,   -1,    1,   -1,
        ],
    ],
    // king
    [
        [
              -1,    1,    0,    0,   -1,    1,    1,    0,
              -1,    0,   -1,    0,    0,   -1,    0,    0,
              -1,    1,    0,    0,    1,    0,    1,   -1,
              -2,   -2,    0,   -3,   -1,    0,    2,   -2,
              -1,    2,    0,   -2,   -2,   -1,    2,   -1,
               1,    2,    1,    3,   -5,    7,   -2,   -2,
               9,    3,   11,   -2,   -5,  -11,    9,   12,
              -2,   22,   -2,  -17,    6,  -28,   16,  -19,
        ],
        [
               0,    3,   -1,   -1,    0,    5,    0,   -4,
              -2,   -2,   -7,    5,   -2,   -5,    8,   -5,
              -9,    1,    1,   -2,    5,    4,   -2,   -8,
             -18,  -13,   -1,   -4,   -6,    3,   -5,  -11,
              -5,    3,    0,  -11,   -5,   -6,    1,   -9,
              10,    2,    3,   -5,    2,   13,    7,    6,
              16,   19,    1,    6,   10,   14,   19,    1,
               2,   -8,   -1,   -9,   -8,    7,    1,   -6,
        ],
    ],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entry_has_one_name_and_one_index() {
        let specs = specs();
        assert_eq!(specs.len(), 2 * (48 + 5 * 64));
        for (at, e) in entries().iter().enumerate() {
            assert_eq!(index(e.piece, e.square, e.middlegame), Some(at), "{e:?}");
            assert_eq!(find(specs[at].name), Some(at));
        }
        let e4 = find("chess.square.knight.e4.mg").map(|at| entries()[at]);
        assert_eq!(
            e4,
            Some(Entry {
                piece: 1,
                square: 28,
                middlegame: true
            })
        );
        assert!(
            find("chess.square.pawn.e1.mg").is_none(),
            "a pawn never stands on e1"
        );
        assert!(find("chess.square.knight.i4.mg").is_none());
        assert!(find("chess.square.knight.e4").is_none());
    }

    #[test]
    fn black_reads_the_tables_mirrored() {
        let e2 = Square::parse("e2").unwrap();
        let e7 = Square::parse("e7").unwrap();
        assert_eq!(relative(Color::White, e2), relative(Color::Black, e7));
        let chess = ajaxlab_rules::VariantKind::Chess.variant();
        let pos = Position::start_in(chess, &ajaxlab_rules::StartSpec::Default).unwrap();
        let occupied = occupancy(&pos);
        assert_eq!(occupied.len(), 32);
        let net: i32 = occupied.iter().map(|o| o.sign).sum();
        assert_eq!(net, 0, "the start position is symmetric");
        let mut by_entry = std::collections::BTreeMap::new();
        for placed in occupied {
            *by_entry.entry(placed.middlegame).or_insert(0) += placed.sign;
            assert_eq!(
                entries()[placed.endgame].square,
                entries()[placed.middlegame].square
            );
        }
        assert!(
            by_entry.values().all(|&n| n == 0),
            "each White piece meets its Black mirror"
        );
    }
}
