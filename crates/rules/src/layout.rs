//! A board's shape as sets of squares, for whatever reads positions by
//! their pawn files and ranks (an evaluation's passed pawns, its open
//! files, its king's distance from the edges): each file, the files beside
//! it, the squares ahead of a square for each side, on its file and with
//! the files beside it, the light squares. They depend on the board's size
//! only, and are made once per variant ([`crate::Variant::layout`]).

use crate::{Bitboard, Color, SQUARE_COUNT, Square};

/// A board's files, spans ahead and colours of squares.
#[derive(Clone, Debug)]
pub struct Layout {
    width: u8,
    height: u8,
    squares: Vec<Square>,
    files: Vec<Bitboard>,
    neighbour_files: Vec<Bitboard>,
    /// Per colour: the squares strictly ahead on the same file.
    file_ahead: [Vec<Bitboard>; 2],
    /// Per colour: the squares strictly ahead on the same and the
    /// neighbouring files.
    span_ahead: [Vec<Bitboard>; 2],
    edge_distance: Vec<i32>,
    light: Bitboard,
}

impl Layout {
    /// The layout of a board of `width` files and `height` ranks.
    pub fn new(width: u8, height: u8) -> Layout {
        let (w, h) = (i32::from(width), i32::from(height));
        let square = |f: i32, r: i32| {
            ((0..w).contains(&f) && (0..h).contains(&r))
                .then(|| Square::from_coords(f, r))
                .flatten()
        };
        let mut layout = Layout {
            width,
            height,
            squares: Vec::new(),
            files: (0..w)
                .map(|f| (0..h).filter_map(|r| square(f, r)).collect())
                .collect(),
            neighbour_files: Vec::new(),
            file_ahead: [
                vec![Bitboard::EMPTY; SQUARE_COUNT],
                vec![Bitboard::EMPTY; SQUARE_COUNT],
            ],
            span_ahead: [
                vec![Bitboard::EMPTY; SQUARE_COUNT],
                vec![Bitboard::EMPTY; SQUARE_COUNT],
            ],
            edge_distance: vec![0; SQUARE_COUNT],
            light: Bitboard::EMPTY,
        };
        layout.neighbour_files = (0..w)
            .map(|f| layout.file_or_empty(f - 1) | layout.file_or_empty(f + 1))
            .collect();
        for f in 0..w {
            for r in 0..h {
                let Some(sq) = square(f, r) else { continue };
                layout.squares.push(sq);
                if (f + r) % 2 == 1 {
                    layout.light = layout.light.with(sq);
                }
                layout.edge_distance[sq.index()] = f.min(w - 1 - f) + r.min(h - 1 - r);
                for color in Color::ALL {
                    let step = if color == Color::White { 1 } else { -1 };
                    let c = color.index();
                    for ahead in (1..h).map(|n| r + step * n) {
                        for ff in [f - 1, f, f + 1] {
                            let Some(s) = square(ff, ahead) else { continue };
                            layout.span_ahead[c][sq.index()] =
                                layout.span_ahead[c][sq.index()].with(s);
                            if ff == f {
                                layout.file_ahead[c][sq.index()] =
                                    layout.file_ahead[c][sq.index()].with(s);
                            }
                        }
                    }
                }
            }
        }
        layout
    }

    fn file_or_empty(&self, file: i32) -> Bitboard {
        usize::try_from(file)
            .ok()
            .and_then(|f| self.files.get(f).copied())
            .unwrap_or(Bitboard::EMPTY)
    }

    /// Number of files.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Number of ranks.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Every square of the board, file by file.
    pub fn squares(&self) -> &[Square] {
        &self.squares
    }

    /// The squares of the file of `sq`.
    pub fn file_of(&self, sq: Square) -> Bitboard {
        self.files[usize::from(sq.file().index())]
    }

    /// The squares of the files beside the file of `sq`.
    pub fn neighbour_files_of(&self, sq: Square) -> Bitboard {
        self.neighbour_files[usize::from(sq.file().index())]
    }

    /// The squares strictly ahead of `sq` for `color`, on its file: a
    /// pawn's path.
    pub fn file_ahead(&self, color: Color, sq: Square) -> Bitboard {
        self.file_ahead[color.index()][sq.index()]
    }

    /// The squares strictly ahead of `sq` for `color`, on its file and the
    /// files beside it: where an enemy pawn stops a pawn being passed.
    pub fn span_ahead(&self, color: Color, sq: Square) -> Bitboard {
        self.span_ahead[color.index()][sq.index()]
    }

    /// The number of steps from `sq` to the nearer side edge plus those to
    /// the nearer back edge: 0 in a corner, largest in the centre.
    pub fn edge_distance(&self, sq: Square) -> i32 {
        self.edge_distance[sq.index()]
    }

    /// The light squares (a1 is dark).
    pub fn light_squares(&self) -> Bitboard {
        self.light
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let bytes = name.as_bytes();
        Square::from_coords(
            i32::from(bytes[0] - b'a'),
            name[1..].parse::<i32>().expect("a rank") - 1,
        )
        .expect("on the board")
    }

    #[test]
    fn a_pawns_path_and_span_run_to_its_last_rank_on_any_board() {
        let chess = Layout::new(8, 8);
        assert_eq!(chess.file_ahead(Color::White, sq("e2")).count(), 6);
        assert_eq!(chess.file_ahead(Color::Black, sq("e2")).count(), 1);
        assert_eq!(chess.span_ahead(Color::White, sq("a2")).count(), 12);
        let afc = Layout::new(10, 8);
        assert!(afc.span_ahead(Color::White, sq("i2")).contains(sq("j8")));
        let amrc = Layout::new(9, 9);
        assert_eq!(amrc.file_ahead(Color::White, sq("e2")).count(), 7);
        assert_eq!(amrc.squares().len(), 81);
    }

    #[test]
    fn files_corners_and_colours() {
        let chess = Layout::new(8, 8);
        assert_eq!(chess.neighbour_files_of(sq("a4")), chess.file_of(sq("b1")));
        assert_eq!(chess.edge_distance(sq("a1")), 0);
        assert_eq!(chess.edge_distance(sq("d4")), 6);
        assert!(!chess.light_squares().contains(sq("a1")));
        assert!(chess.light_squares().contains(sq("h1")));
    }
}
