//! Piece kinds and coloured pieces.
//!
//! A [`PieceKind`] is a dense index below [`MAX_KINDS`]; what it is called
//! and how it moves is the variant's business ([`PieceTable`] and the
//! variant's piece definitions). Two indices are fixed roles the rules
//! model plays itself, [`PieceKind::PAWN`] and [`PieceKind::KING`]; the
//! built-in variants use the consts of their nine kinds, so an Ajax Knight
//! and an orthodox Knight are both [`PieceKind::KNIGHT`], defined
//! differently by their variants.

use crate::square::Color;

/// How many piece kinds a variant may have (pawn and king included): the
/// size of every per-kind table.
pub const MAX_KINDS: usize = 12;

/// A piece kind: a dense index `0..MAX_KINDS` into per-kind tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceKind(u8);

impl PieceKind {
    /// The pawn, a fixed role: moves, captures, double-steps and promotes
    /// as the rules model's pawn.
    pub const PAWN: PieceKind = PieceKind(0);
    /// Knight (orthodox, or the Ajax Knight NmK).
    pub const KNIGHT: PieceKind = PieceKind(1);
    /// Bishop (orthodox, or the Ajax Bishop BmW).
    pub const BISHOP: PieceKind = PieceKind(2);
    /// Rook (orthodox, or the Ajax Rook RmF).
    pub const ROOK: PieceKind = PieceKind(3);
    /// Queen.
    pub const QUEEN: PieceKind = PieceKind(4);
    /// The king, a fixed role: the royal piece.
    pub const KING: PieceKind = PieceKind(5);
    /// Ajax Minister (KAD).
    pub const MINISTER: PieceKind = PieceKind(6);
    /// Ajax Prime Minister (BNmW).
    pub const PRIME_MINISTER: PieceKind = PieceKind(7);
    /// Ajax Falcon.
    pub const FALCON: PieceKind = PieceKind(8);

    /// Every index, in order (most variants use only some of them; ask the
    /// variant which).
    pub fn all() -> impl Iterator<Item = PieceKind> {
        (0..MAX_KINDS).filter_map(PieceKind::from_index)
    }

    /// Dense index, `0..MAX_KINDS`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The kind with this dense index, if it is below [`MAX_KINDS`].
    #[inline]
    pub const fn from_index(index: usize) -> Option<PieceKind> {
        if index < MAX_KINDS {
            Some(PieceKind(index as u8))
        } else {
            None
        }
    }
}

/// How one piece kind is written and called.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceNames {
    /// FEN letter, upper case (White's; Black's is its lower case).
    pub letter: char,
    /// Letters in SAN (the seeds' form): usually the FEN letter, `PM` for
    /// the Prime Minister, nothing for the pawn.
    pub san: String,
    /// English name, for messages.
    pub name: String,
}

/// What is wrong with the kinds given to [`PieceTable::new`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PieceTableError {
    /// A kind is named twice.
    #[error("piece kind {0} is named twice")]
    KindTwice(usize),
    /// Two kinds share a FEN letter.
    #[error("two piece kinds have the letter '{0}'")]
    LetterTwice(char),
    /// Two kinds share SAN letters.
    #[error("two piece kinds have the SAN letters '{0}'")]
    SanTwice(String),
    /// A FEN letter that is not an upper-case ASCII letter.
    #[error("'{0}' is not an upper-case ASCII letter")]
    BadLetter(char),
    /// SAN letters that are not upper-case ASCII letters (or empty for a
    /// non-pawn).
    #[error("SAN letters '{san}' of '{letter}' are not upper-case ASCII letters")]
    BadSan {
        /// The kind's FEN letter.
        letter: char,
        /// Its SAN letters.
        san: String,
    },
    /// The king is not named.
    #[error("the king is not named")]
    NoKing,
}

/// The names of a variant's piece kinds, indexed by kind: the one place
/// FEN, UCI, SAN, PGN and messages read letters and names from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceTable {
    entries: [Option<PieceNames>; MAX_KINDS],
}

impl PieceTable {
    /// A table of the kinds given, which must include the king.
    ///
    /// # Errors
    /// Every [`PieceTableError`] found: a kind or a letter twice, letters
    /// that are not upper-case ASCII, no king.
    pub fn new(
        kinds: impl IntoIterator<Item = (PieceKind, PieceNames)>,
    ) -> Result<PieceTable, Vec<PieceTableError>> {
        let mut entries: [Option<PieceNames>; MAX_KINDS] = Default::default();
        let mut errors = Vec::new();
        for (kind, names) in kinds {
            if !names.letter.is_ascii_uppercase() {
                errors.push(PieceTableError::BadLetter(names.letter));
            }
            let san_ok = names.san.bytes().all(|b| b.is_ascii_uppercase())
                && (kind == PieceKind::PAWN || !names.san.is_empty());
            if !san_ok {
                errors.push(PieceTableError::BadSan {
                    letter: names.letter,
                    san: names.san.clone(),
                });
            }
            let others = || entries.iter().flatten();
            if others().any(|n: &PieceNames| n.letter == names.letter) {
                errors.push(PieceTableError::LetterTwice(names.letter));
            }
            if others().any(|n: &PieceNames| n.san == names.san) {
                errors.push(PieceTableError::SanTwice(names.san.clone()));
            }
            let slot = &mut entries[kind.index()];
            if slot.is_some() {
                errors.push(PieceTableError::KindTwice(kind.index()));
            }
            *slot = Some(names);
        }
        if entries[PieceKind::KING.index()].is_none() {
            errors.push(PieceTableError::NoKing);
        }
        if errors.is_empty() {
            Ok(PieceTable { entries })
        } else {
            Err(errors)
        }
    }

    /// The names of `kind`, if the variant has it.
    #[inline]
    pub fn get(&self, kind: PieceKind) -> Option<&PieceNames> {
        self.entries[kind.index()].as_ref()
    }

    /// The kinds of the variant, in index order.
    pub fn kinds(&self) -> impl Iterator<Item = PieceKind> + '_ {
        PieceKind::all().filter(|k| self.get(*k).is_some())
    }

    /// Upper-case FEN letter of `kind`; `?` for a kind the variant lacks.
    pub fn letter(&self, kind: PieceKind) -> char {
        self.get(kind).map_or('?', |n| n.letter)
    }

    /// The kind with this FEN letter (either case).
    pub fn from_letter(&self, c: char) -> Option<PieceKind> {
        let upper = c.to_ascii_uppercase();
        self.kinds().find(|k| self.letter(*k) == upper)
    }

    /// Letters of `kind` in SAN (the seeds' form); empty for the pawn or a
    /// kind the variant lacks.
    pub fn san_letters(&self, kind: PieceKind) -> &str {
        self.get(kind).map_or("", |n| n.san.as_str())
    }

    /// The kind written with these SAN letters (the seeds' form or the FEN
    /// letter; `""` is the pawn).
    pub fn from_san_letters(&self, letters: &str) -> Option<PieceKind> {
        self.kinds().find(|&k| {
            self.san_letters(k) == letters
                || (letters.len() == 1 && letters.starts_with(self.letter(k)))
        })
    }

    /// English name of `kind`, for messages; `?` for a kind the variant lacks.
    pub fn name(&self, kind: PieceKind) -> &str {
        self.get(kind).map_or("?", |n| n.name.as_str())
    }

    /// FEN letter of `piece`: upper case for White, lower case for Black.
    pub fn fen_char(&self, piece: Piece) -> char {
        let c = self.letter(piece.kind);
        match piece.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece named by a FEN letter.
    pub fn piece_from_fen_char(&self, c: char) -> Option<Piece> {
        let kind = self.from_letter(c)?;
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        Some(Piece { color, kind })
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

    /// Packed form for the mailbox: `1 + color * MAX_KINDS + kind`, 0 = empty.
    #[inline]
    pub(crate) const fn code(self) -> u8 {
        (1 + self.color.index() * MAX_KINDS + self.kind.index()) as u8
    }

    /// Inverse of [`Piece::code`].
    #[inline]
    pub(crate) const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 {
            return None;
        }
        let i = (code - 1) as usize;
        let (color, kind) = if i >= MAX_KINDS {
            (Color::Black, i - MAX_KINDS)
        } else {
            (Color::White, i)
        };
        match PieceKind::from_index(kind) {
            Some(kind) => Some(Piece { color, kind }),
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(letter: char, san: &str) -> PieceNames {
        PieceNames {
            letter,
            san: san.to_owned(),
            name: "x".to_owned(),
        }
    }

    #[test]
    fn codes_round_trip() {
        for color in Color::ALL {
            for kind in PieceKind::all() {
                let p = Piece::new(color, kind);
                assert_eq!(Piece::from_code(p.code()), Some(p));
            }
        }
        assert_eq!(Piece::from_code(0), None);
    }

    #[test]
    fn a_table_reports_every_violation() {
        let errors = PieceTable::new([
            (PieceKind::PAWN, names('P', "")),
            (PieceKind::KNIGHT, names('N', "N")),
            (PieceKind::BISHOP, names('N', "B")),
            (PieceKind::ROOK, names('r', "R")),
            (PieceKind::QUEEN, names('Q', "")),
            (PieceKind::QUEEN, names('X', "X")),
        ])
        .unwrap_err();
        assert_eq!(
            errors,
            vec![
                PieceTableError::LetterTwice('N'),
                PieceTableError::BadLetter('r'),
                PieceTableError::BadSan {
                    letter: 'Q',
                    san: String::new()
                },
                PieceTableError::SanTwice(String::new()),
                PieceTableError::KindTwice(4),
                PieceTableError::NoKing,
            ]
        );
    }

    #[test]
    fn letters_and_san_letters_resolve() {
        let table = PieceTable::new([
            (PieceKind::PAWN, names('P', "")),
            (PieceKind::KING, names('K', "K")),
            (PieceKind::PRIME_MINISTER, names('A', "PM")),
        ])
        .unwrap();
        assert_eq!(table.from_letter('a'), Some(PieceKind::PRIME_MINISTER));
        assert_eq!(table.from_letter('M'), None);
        assert_eq!(
            table.from_san_letters("PM"),
            Some(PieceKind::PRIME_MINISTER)
        );
        assert_eq!(table.from_san_letters("A"), Some(PieceKind::PRIME_MINISTER));
        assert_eq!(table.from_san_letters(""), Some(PieceKind::PAWN));
        assert_eq!(table.from_san_letters("P"), Some(PieceKind::PAWN));
        assert_eq!(table.from_san_letters("Q"), None);
        let black_king = Piece::new(Color::Black, PieceKind::KING);
        assert_eq!(table.fen_char(black_king), 'k');
        assert_eq!(table.piece_from_fen_char('k'), Some(black_king));
        assert_eq!(
            table.kinds().collect::<Vec<_>>(),
            [PieceKind::PAWN, PieceKind::KING, PieceKind::PRIME_MINISTER]
        );
    }
}
