//! UCI move strings in Fairy-Stockfish's dialect (NOTATION.md): `e2e4`,
//! `i7j8f`, `F@b1`, gating `b1a3m`, castling `f1i1` (AFC, chess) or king +
//! rook square (AMRC, Chess960), castling with gating `c1h1m` / `h1c1m`.

use crate::moves::{Gate, Move, MoveKind};
use crate::piece::PieceKind;
use crate::position::{CastleSide, Position};
use crate::square::Square;
use crate::variant::CastlingStyle;
use std::fmt;

/// A syntactically valid UCI move string. It becomes a [`Move`] only
/// through [`UciMove::to_move`], which checks it against a position: the
/// piece letters it holds are the position's variant's to read, so a letter
/// no piece of the variant has makes the move illegal, not malformed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UciMove {
    origin: Origin,
    to: Square,
    /// Promotion letter or the gating `m`, lower case.
    suffix: Option<char>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Origin {
    Square(Square),
    /// The dropped piece's letter, upper case.
    Drop(char),
}

/// A UCI move that does not parse, or is not legal.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciError {
    /// Not of the form of any UCI move.
    #[error("'{0}' is not a UCI move (expected e.g. e2e4, i7j8q, F@b1, b1a3m)")]
    Syntax(String),
    /// Well-formed, but not a legal move in the position.
    #[error("illegal move {uci} in position {fen}")]
    Illegal {
        /// The move text.
        uci: String,
        /// The position, as FEN.
        fen: String,
    },
}

impl UciMove {
    /// Parses UCI move text.
    ///
    /// # Errors
    /// [`UciError::Syntax`] if the text has no UCI move shape.
    pub fn parse(text: &str) -> Result<UciMove, UciError> {
        let err = || UciError::Syntax(text.to_owned());
        if !text.is_ascii() {
            return Err(err());
        }
        if let Some((piece, square)) = text.split_once('@') {
            let mut letters = piece.chars();
            let letter = match (letters.next(), letters.next()) {
                (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
                _ => return Err(err()),
            };
            let to = Square::parse(square).ok_or_else(err)?;
            return Ok(UciMove {
                origin: Origin::Drop(letter),
                to,
                suffix: None,
            });
        }
        // from and to, each a letter and one or two digits, then maybe a suffix letter.
        let bytes = text.as_bytes();
        let split_square = |start: usize| -> Option<(Square, usize)> {
            let digits = bytes[start..]
                .iter()
                .skip(1)
                .take_while(|b| b.is_ascii_digit())
                .count();
            if digits == 0 {
                return None;
            }
            // With two digits possible, prefer the reading that leaves a square behind.
            let end = start + 1 + digits.min(2);
            Square::parse(&text[start..end]).map(|s| (s, end))
        };
        let (from, mid) = split_square(0).ok_or_else(err)?;
        let (to, end) = (mid < text.len())
            .then(|| split_square(mid))
            .flatten()
            .ok_or_else(err)?;
        let suffix = match &text[end..] {
            "" => None,
            rest if rest.len() == 1 => {
                let c = rest.chars().next().ok_or_else(err)?;
                if !c.is_ascii_lowercase() {
                    return Err(err());
                }
                Some(c)
            }
            _ => return Err(err()),
        };
        if from == to {
            return Err(err());
        }
        Ok(UciMove {
            origin: Origin::Square(from),
            to,
            suffix,
        })
    }

    /// The legal move of `pos` this text names.
    ///
    /// # Errors
    /// [`UciError::Illegal`] naming the move and the position.
    pub fn to_move(&self, pos: &Position) -> Result<Move, UciError> {
        let moves = pos.legal_moves();
        if let Some(m) = moves.iter().copied().find(|m| pos.uci(*m) == *self) {
            return Ok(m);
        }
        // Orthodox-style variants also accept castling written king-takes-rook.
        if let (CastlingStyle::Orthodox, None, Origin::Square(from)) =
            (pos.variant().castling_style(), self.suffix, self.origin)
            && let Some(m) = moves
                .iter()
                .copied()
                .find(|m| m.kind() == MoveKind::Castle && m.from() == from && m.to() == self.to)
        {
            return Ok(m);
        }
        Err(UciError::Illegal {
            uci: self.to_string(),
            fen: pos.fen(),
        })
    }
}

impl std::str::FromStr for UciMove {
    type Err = UciError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        UciMove::parse(s)
    }
}

impl fmt::Display for UciMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.origin {
            Origin::Square(from) => write!(f, "{from}{}", self.to)?,
            Origin::Drop(letter) => write!(f, "{letter}@{}", self.to)?,
        }
        if let Some(c) = self.suffix {
            write!(f, "{c}")?;
        }
        Ok(())
    }
}

impl Position {
    /// The UCI text of `m`, a move of this position.
    pub fn uci(&self, m: Move) -> UciMove {
        let gate_suffix = (m.gate() != Gate::None).then_some('m');
        let square = Origin::Square;
        match m.kind() {
            MoveKind::Drop => UciMove {
                origin: Origin::Drop(
                    self.variant
                        .letter(m.dropped_kind().unwrap_or(PieceKind::PAWN)),
                ),
                to: m.to(),
                suffix: None,
            },
            MoveKind::Castle => {
                let (king, rook) = (m.from(), m.to());
                match self.variant.castling_style() {
                    CastlingStyle::Orthodox => {
                        let side = CastleSide::of_rook(king, rook);
                        // A castling move exists only where the variant castles.
                        let king_to = self
                            .castle_destinations(self.side, side)
                            .map_or(king, |(king_to, _)| king_to);
                        UciMove {
                            origin: square(king),
                            to: king_to,
                            suffix: gate_suffix,
                        }
                    }
                    CastlingStyle::Chess960 | CastlingStyle::ModernRandom => match m.gate() {
                        Gate::AtRook => UciMove {
                            origin: square(rook),
                            to: king,
                            suffix: gate_suffix,
                        },
                        _ => UciMove {
                            origin: square(king),
                            to: rook,
                            suffix: gate_suffix,
                        },
                    },
                }
            }
            MoveKind::Normal | MoveKind::EnPassant => UciMove {
                origin: square(m.from()),
                to: m.to(),
                suffix: m
                    .promotion_kind()
                    .map(|k| self.variant.letter(k).to_ascii_lowercase())
                    .or(gate_suffix),
            },
        }
    }

    /// The UCI text of a line of moves played from this position (each move
    /// legal where it is played).
    pub fn uci_line(&self, moves: &[Move]) -> Vec<String> {
        let mut pos = *self;
        moves
            .iter()
            .map(|&m| {
                let text = pos.uci(m).to_string();
                pos.play_unchecked(m);
                text
            })
            .collect()
    }

    /// Parses and checks UCI move text in this position.
    ///
    /// # Errors
    /// [`UciError`] if the text is malformed or the move is illegal here.
    pub fn parse_uci(&self, text: &str) -> Result<Move, UciError> {
        UciMove::parse(text)?.to_move(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form_of_the_table() {
        for text in [
            "b1c3", "e2e4", "i7j8f", "c2d1a", "b8a9m", "F@b1", "F@c8", "b1a3m", "e9d8m", "f1c1",
            "f1i1", "e1g1", "c1h1", "c1b1", "c1h1m", "e9i9m", "h1c1m", "b1c1m", "i9e9m",
        ] {
            let m = UciMove::parse(text).unwrap();
            assert_eq!(m.to_string(), text);
        }
    }

    #[test]
    fn rejects_malformed_text() {
        for text in [
            "", "e2", "e2e", "e2e4qq", "e2e4K", "e2e4P", "z1a1", "@b1", "F@", "1@e1", "e2e2",
            "é2e4", "FF@b1",
        ] {
            assert!(
                matches!(UciMove::parse(text), Err(UciError::Syntax(_))),
                "{text}"
            );
        }
    }

    #[test]
    fn letters_the_variant_lacks_name_no_legal_move() {
        use crate::{StartSpec, VariantKind};
        let afc = Position::start(VariantKind::AjaxFalcon, &StartSpec::Default).unwrap();
        let chess = Position::start(VariantKind::Chess, &StartSpec::Default).unwrap();
        for (pos, text) in [
            (&afc, "K@e3"),
            (&afc, "P@e3"),
            (&chess, "F@e3"),
            (&chess, "e2e4p"),
            (&chess, "e2e4k"),
            (&chess, "e2e4x"),
        ] {
            assert!(
                matches!(pos.parse_uci(text), Err(UciError::Illegal { .. })),
                "{text}"
            );
        }
    }
}
