//! Piece kinds and coloured pieces.
//!
//! A [`PieceKind`] is a role with a letter; how it moves is the variant's
//! business (an Ajax Knight and an orthodox Knight are both `Knight`, defined
//! differently by their variants).

use crate::square::Color;
use std::fmt;

/// Number of piece kinds.
pub const KIND_COUNT: usize = 9;

/// A piece role. Discriminants are dense indices for tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// Pawn.
    Pawn = 0,
    /// Knight (orthodox, or the Ajax Knight NmK).
    Knight = 1,
    /// Bishop (orthodox, or the Ajax Bishop BmW).
    Bishop = 2,
    /// Rook (orthodox, or the Ajax Rook RmF).
    Rook = 3,
    /// Queen.
    Queen = 4,
    /// King, the royal piece.
    King = 5,
    /// Ajax Minister (KAD).
    Minister = 6,
    /// Ajax Prime Minister (BNmW), letter `A`, SAN `PM`.
    PrimeMinister = 7,
    /// Ajax Falcon.
    Falcon = 8,
}

impl PieceKind {
    /// Every kind, in index order.
    pub const ALL: [PieceKind; KIND_COUNT] = [
        PieceKind::Pawn,
        PieceKind::Knight,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::Queen,
        PieceKind::King,
        PieceKind::Minister,
        PieceKind::PrimeMinister,
        PieceKind::Falcon,
    ];

    /// Dense index, `0..KIND_COUNT`.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this dense index.
    #[inline]
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < KIND_COUNT {
            Some(PieceKind::ALL[index])
        } else {
            None
        }
    }

    /// Upper-case FEN letter.
    pub const fn letter(self) -> char {
        match self {
            PieceKind::Pawn => 'P',
            PieceKind::Knight => 'N',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            PieceKind::Queen => 'Q',
            PieceKind::King => 'K',
            PieceKind::Minister => 'M',
            PieceKind::PrimeMinister => 'A',
            PieceKind::Falcon => 'F',
        }
    }

    /// The kind with this FEN letter (either case).
    pub fn from_letter(c: char) -> Option<PieceKind> {
        let upper = c.to_ascii_uppercase();
        PieceKind::ALL.into_iter().find(|k| k.letter() == upper)
    }

    /// Letters in SAN: the FEN letter, except `PM` for the Prime Minister
    /// and nothing for the pawn.
    pub const fn san_letters(self) -> &'static str {
        match self {
            PieceKind::Pawn => "",
            PieceKind::Knight => "N",
            PieceKind::Bishop => "B",
            PieceKind::Rook => "R",
            PieceKind::Queen => "Q",
            PieceKind::King => "K",
            PieceKind::Minister => "M",
            PieceKind::PrimeMinister => "PM",
            PieceKind::Falcon => "F",
        }
    }

    /// English name, for messages.
    pub const fn name(self) -> &'static str {
        match self {
            PieceKind::Pawn => "pawn",
            PieceKind::Knight => "knight",
            PieceKind::Bishop => "bishop",
            PieceKind::Rook => "rook",
            PieceKind::Queen => "queen",
            PieceKind::King => "king",
            PieceKind::Minister => "minister",
            PieceKind::PrimeMinister => "prime minister",
            PieceKind::Falcon => "falcon",
        }
    }
}

impl fmt::Display for PieceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Owner.
    pub color: Color,
    /// Role.
    pub kind: PieceKind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { color, kind }
    }

    /// FEN letter: upper case for White, lower case for Black.
    pub const fn fen_char(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece named by a FEN letter.
    pub fn from_fen_char(c: char) -> Option<Piece> {
        let kind = PieceKind::from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
    }

    /// Packed form for the mailbox: `1 + color * KIND_COUNT + kind`, 0 = empty.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        (1 + self.color.index() * KIND_COUNT + self.kind.index()) as u8
    }

    /// Inverse of [`Piece::code`].
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            return None;
        }
        let i = (code - 1) as usize;
        let color = if i >= KIND_COUNT {
            Color::Black
        } else {
            Color::White
        };
        match PieceKind::from_index(i % KIND_COUNT) {
            Some(kind) => Some(Piece { color, kind }),
            None => None,
        }
    }
}
