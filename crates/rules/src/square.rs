//! Colours, files, ranks and squares.
//!
//! Every board ajaxlab plays fits in an 11 × 11 frame laid out with a fixed
//! stride of [`STRIDE`] squares per rank, so a [`Square`] means the same thing
//! on every variant: `a1` is always index 0 and `b2` is always index 12. A
//! variant's board is the part of that frame its width and height cover.

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// Squares per rank in the frame, whatever the variant's width.
pub const STRIDE: u8 = 11;
/// Largest number of files or ranks a board may have.
pub const MAX_SIDE: u8 = 11;
/// Largest number of files a variant's board may have (one fewer than the
/// frame's [`STRIDE`]).
pub const MAX_FILES: u8 = 10;
/// Number of square indices in the frame.
pub const SQUARE_COUNT: usize = (STRIDE as usize) * (MAX_SIDE as usize);

/// A side: White moves first and starts on the low ranks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White,
    /// The side that moves second.
    Black,
}

impl Color {
    /// Both colours, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `'w'` or `'b'`, as in FEN.
    pub const fn fen_char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// One value per colour, indexed by [`Color`] instead of a bare integer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByColor<T> {
    /// White's value.
    pub white: T,
    /// Black's value.
    pub black: T,
}

impl<T> ByColor<T> {
    /// Builds both values from a function of the colour.
    pub fn from_fn(mut f: impl FnMut(Color) -> T) -> Self {
        ByColor {
            white: f(Color::White),
            black: f(Color::Black),
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::White => &mut self.white,
            Color::Black => &mut self.black,
        }
    }
}

/// A file (column), 0 = `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct File(u8);

impl File {
    /// The file with this 0-based index, if it fits the frame.
    pub const fn new(index: u8) -> Option<File> {
        if index < MAX_SIDE {
            Some(File(index))
        } else {
            None
        }
    }

    /// The file named by a lower-case letter (`'a'` = 0).
    pub fn from_char(c: char) -> Option<File> {
        let c = c as u32;
        let a = 'a' as u32;
        if c >= a {
            u8::try_from(c - a).ok().and_then(File::new)
        } else {
            None
        }
    }

    /// 0-based index.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Lower-case letter of the file.
    pub const fn char(self) -> char {
        (b'a' + self.0) as char
    }

    /// Upper-case letter of the file (Shredder-FEN castling, White).
    pub const fn upper_char(self) -> char {
        (b'A' + self.0) as char
    }
}

/// A rank (row), 0 = rank `1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Rank(u8);

impl Rank {
    /// The rank with this 0-based index, if it fits the frame.
    pub const fn new(index: u8) -> Option<Rank> {
        if index < MAX_SIDE {
            Some(Rank(index))
        } else {
            None
        }
    }

    /// 0-based index.
    #[inline]
    pub const fn index(self) -> u8 {
        self.0
    }
}

/// A square of the frame. Construct it from a file and a rank, or parse it
/// from algebraic text with [`Square::parse`]; whether it lies on a given
/// board is the board's business ([`crate::Variant::contains`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square at this file and rank.
    #[inline]
    pub const fn new(file: File, rank: Rank) -> Square {
        Square(rank.0 * STRIDE + file.0)
    }

    /// The square with this frame index, if the index is inside the frame.
    #[inline]
    pub const fn from_index(index: u8) -> Option<Square> {
        if (index as usize) < SQUARE_COUNT && index % STRIDE < MAX_SIDE {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square `(file, rank)` from signed coordinates, if inside the frame.
    pub fn from_coords(file: i32, rank: i32) -> Option<Square> {
        let f = File::new(u8::try_from(file).ok()?)?;
        let r = Rank::new(u8::try_from(rank).ok()?)?;
        Some(Square::new(f, r))
    }

    /// Frame index (`rank * STRIDE + file`).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Frame index as a byte, for packing.
    #[inline]
    pub const fn to_u8(self) -> u8 {
        self.0
    }

    /// The file of the square.
    #[inline]
    pub const fn file(self) -> File {
        File(self.0 % STRIDE)
    }

    /// The rank of the square.
    #[inline]
    pub const fn rank(self) -> Rank {
        Rank(self.0 / STRIDE)
    }

    /// Parses algebraic text: a file letter followed by a 1-based rank number
    /// (`e4`, `j8`, `i9`; ranks may have two digits on tall boards). Whether
    /// the square lies on a particular board is not checked here.
    pub fn parse(text: &str) -> Option<Square> {
        let mut chars = text.chars();
        let file = File::from_char(chars.next()?)?;
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if digits.starts_with('0') {
            return None;
        }
        let number: u8 = digits.parse().ok()?;
        Some(Square::new(file, Rank::new(number - 1)?))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().index() + 1)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_and_print() {
        for text in ["a1", "j8", "i9", "e4", "k11"] {
            let sq = Square::parse(text).unwrap();
            assert_eq!(sq.to_string(), text);
        }
        for bad in ["", "a", "a0", "l1", "a12", "A1", "a01", "a1x", "1a"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }

    #[test]
    fn frame_layout_is_fixed() {
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("b2").unwrap().index(), 12);
    }
}
