//! The mobility tables of orthodox chess and Chess960: a middlegame and an
//! endgame value for each of the knight, bishop, rook and queen by the
//! number of squares it reaches in its mobility area, added to the concave
//! curve every variant's pieces share. The curve knows only that a trapped
//! piece is worse than a free one; these know by how much for each chess
//! piece, and are fitted by `ajaxlab tune` with an exact gradient.
//!
//! Each entry is a parameter named `chess.mobility.PIECE.COUNT.PHASE`
//! (`chess.mobility.knight.3.mg`), reached like any other by parameter
//! files, `set = {…}`, UCI `setoption` and the tuner. The defaults are the
//! values of [`DEFAULTS`].

use crate::entry_table::{EntryTable, Row};
use ajaxlab_rules::PieceKind;
use std::sync::OnceLock;

/// The pieces with tables, in row order.
pub(crate) const PIECES: [PieceKind; 4] = [
    PieceKind::KNIGHT,
    PieceKind::BISHOP,
    PieceKind::ROOK,
    PieceKind::QUEEN,
];

/// Every number of squares up to a queen's most on 8×8, 27.
static COUNTS: [u8; 28] = [
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    26, 27,
];

/// The tables: a row per piece of [`PIECES`], a column per number of
/// squares it can reach.
pub(crate) static TABLE: EntryTable = EntryTable {
    prefix: "chess.mobility",
    rows: &[
        Row {
            name: "knight",
            columns: COUNTS.split_at(9).0,
        },
        Row {
            name: "bishop",
            columns: COUNTS.split_at(14).0,
        },
        Row {
            name: "rook",
            columns: COUNTS.split_at(15).0,
        },
        Row {
            name: "queen",
            columns: &COUNTS,
        },
    ],
    meaning: |piece, count| {
        format!(
            "a {piece} reaching {count} squares of its mobility area, beside the mobility curve"
        )
    },
    default: |row, column, middlegame| i32::from(DEFAULTS[row][usize::from(!middlegame)][column]),
    specs: OnceLock::new(),
};

/// The row of `kind`, if it has one.
pub(crate) fn row_of(kind: PieceKind) -> Option<usize> {
    PIECES.iter().position(|&p| p == kind)
}

/// The fitted tables, per piece of [`PIECES`], middlegame then endgame, by
/// number of squares reached (counts past a piece's most unused), in
/// centipawns: `ajaxlab tune` of Stockfish's self-play from all entries at
/// 0, by the recipe in `configs/tune-data-stockfish-chess.toml`
/// (docs/strength.md, 2026-12-06).
#[rustfmt::skip]
const DEFAULTS: [[[i16; 28]; 2]; 4] = [
    // knight
    [
        [  8,  11,   8,   9,   8,   8,   7,   1,   6,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
        [  2,   0,   9,   9,  16,  22,  15,   6,  -3,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
    ],
    // bishop
    [
        [ 22,  13,  14,  16,  13,  14,  14,   5,   4,   6,  -1,  -5,  -2,  -3,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
        [ -6,   5,  -5,  -4,  11,   8,   9,   7,  11,  -3,  -5,  -7,  -5,  -8,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
    ],
    // rook
    [
        [ 10,   2,  -4,   1,  -2,  -9,  -6,  -9,  -4,  -4,  -9, -10,  -8,  -5,   3,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
        [  7,  -4,   4,   2,   7,  16,  13,   4,  11,   6,   5,   3,  -2,  -7, -40,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0],
    ],
    // queen
    [
        [ 19,  15,   7,   9,   8,   1,   2,  -1,   3,   3,   1,  -1, -11,  -7,  -8,  -5,   2,   0,   0,   5,  -2,   2,   1,  -2,  -1,  -1,   0,   0],
        [  0,   2,   1,  -2,  -1,   2,  -2,   2,  -1,   3,   7,   2,   8,   8,   6,   3,   5,   5,   3,   2,  -3,  -2,  -1,  -3,  -2,  -2,  -1,   0],
    ],
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_piece_has_a_column_per_number_of_squares_it_can_reach() {
        assert_eq!(TABLE.specs().len(), 2 * (9 + 14 + 15 + 28));
        assert!(TABLE.find("chess.mobility.queen.27.eg").is_some());
        assert!(TABLE.find("chess.mobility.knight.9.mg").is_none());
        assert!(TABLE.find("chess.mobility.king.1.mg").is_none());
    }
}
