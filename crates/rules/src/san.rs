//! Standard algebraic notation in two forms ([`SanForm`]): the seeds' forms
//! for display (`PM` for the Prime Minister, gating suffix `Ngf3(Mg1)`,
//! Falcon drop `(Fb1)`, castling `O-O-Oc`/`O-O-Og` in AMRC), and the forms
//! Fairy-Stockfish and pychess write, for PGN (`A`, `Nf3/M`, `O-O/Me1`,
//! `F@b1`), in which no parenthesis starts a variation. Both are read.

use crate::moves::{Gate, Move, MoveKind};
use crate::piece::{PieceKind, PieceTable};
use crate::position::{CastleSide, Position};
use crate::square::Square;
use crate::variant::CastlingStyle;

/// SAN text that names no legal move, or more than one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SanError {
    /// Not of the form of any SAN move.
    #[error(
        "'{0}' is not SAN (expected e.g. e4, Nxf3, O-O, Ngf3(Mg1) or Ngf3/M, (Fb1) or F@b1, e8=Q)"
    )]
    Syntax(String),
    /// Well-formed but no legal move matches.
    #[error("illegal move {san} in position {fen}")]
    Illegal {
        /// The text.
        san: String,
        /// The position, as FEN.
        fen: String,
    },
    /// Several legal moves match.
    #[error("ambiguous move {san} in position {fen}")]
    Ambiguous {
        /// The text.
        san: String,
        /// The position, as FEN.
        fen: String,
    },
}

/// Which SAN dialect is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SanForm {
    /// The seeds' forms, for display: `PMd3`, `Ngf3(Mg1)`, `(Fb1)`, `O-O-Og`.
    Seeds,
    /// Fairy-Stockfish's `get_san` forms, for PGN that other tools read:
    /// `Ad3`, `Ngf3/M`, `F@b1`, `O-O/Me1` (castling names the gate square,
    /// a piece move gates on the square it leaves).
    Pgn,
}

impl Position {
    /// SAN of `m`, a legal move of this position, with `+` or `#`, in the
    /// seeds' forms.
    pub fn san(&self, m: Move) -> String {
        self.san_in(m, SanForm::Seeds)
    }

    /// SAN of `m`, a legal move of this position, with `+` or `#`, in `form`.
    pub fn san_in(&self, m: Move, form: SanForm) -> String {
        let mut out = self.san_without_check(m, form);
        let mut next = *self;
        next.play_unchecked(m);
        if next.in_check() {
            out.push(if !next.has_legal_move() { '#' } else { '+' });
        }
        out
    }

    fn san_without_check(&self, m: Move, form: SanForm) -> String {
        let v = self.variant;
        // The seeds write the table's SAN letters (`PM`), PGN the FEN letter.
        let letters = |kind: PieceKind| match form {
            SanForm::Seeds => v.san_letters(kind).to_owned(),
            SanForm::Pgn if kind == PieceKind::PAWN => String::new(),
            SanForm::Pgn => v.letter(kind).to_string(),
        };
        let gate_square = m.gate_square();
        let mut out = match m.kind() {
            MoveKind::Drop => {
                let kind = m.dropped_kind().unwrap_or(PieceKind::PAWN);
                return match form {
                    SanForm::Seeds => format!("({}{})", letters(kind), m.to()),
                    SanForm::Pgn => format!("{}@{}", letters(kind), m.to()),
                };
            }
            MoveKind::Castle => {
                let side = CastleSide::of_rook(m.from(), m.to());
                // A castling move exists only where the variant castles.
                let king_to = self
                    .castle_destinations(self.side, side)
                    .map_or(m.from(), |(king_to, _)| king_to);
                match (self.variant.castling_style(), side, form) {
                    (CastlingStyle::ModernRandom, _, SanForm::Seeds) => {
                        format!("O-O-O{}", king_to.file().char())
                    }
                    (_, CastleSide::KingSide, _) => "O-O".to_owned(),
                    (_, CastleSide::QueenSide, _) => "O-O-O".to_owned(),
                }
            }
            MoveKind::Normal | MoveKind::EnPassant => {
                let (from, to) = (m.from(), m.to());
                let kind = self.piece_at(from).map_or(PieceKind::PAWN, |p| p.kind);
                let capture = m.kind() == MoveKind::EnPassant || self.piece_at(to).is_some();
                let mut s = String::new();
                if kind == PieceKind::PAWN {
                    if capture {
                        s.push(from.file().char());
                    }
                } else {
                    s.push_str(&letters(kind));
                    s.push_str(&self.disambiguation(m, kind));
                }
                if capture {
                    s.push('x');
                }
                s.push_str(&to.to_string());
                if let Some(p) = m.promotion_kind() {
                    s.push('=');
                    s.push_str(&letters(p));
                }
                s
            }
        };
        if let (Some(sq), Some(kind)) = (gate_square, self.hand_kind()) {
            let gate = match (form, m.kind()) {
                (SanForm::Seeds, _) => format!("({}{sq})", letters(kind)),
                (SanForm::Pgn, MoveKind::Castle) => format!("/{}{sq}", letters(kind)),
                (SanForm::Pgn, _) => format!("/{}", letters(kind)),
            };
            out.push_str(&gate);
        }
        out
    }

    /// File, rank or both of `m`'s origin when another piece of the same kind
    /// could also legally go to the same square.
    fn disambiguation(&self, m: Move, kind: PieceKind) -> String {
        let (from, to) = (m.from(), m.to());
        let rivals: Vec<Square> = self
            .legal_moves()
            .iter()
            .filter(|o| {
                matches!(o.kind(), MoveKind::Normal)
                    // A rival with gating only where this move gates (`N1i1/M`
                    // would name a knight that cannot gate).
                    && (o.gate() == Gate::None) == (m.gate() == Gate::None)
                    && o.to() == to
                    && o.from() != from
                    && self.piece_at(o.from()).is_some_and(|p| p.kind == kind)
            })
            .map(|o| o.from())
            .collect();
        if rivals.is_empty() {
            String::new()
        } else if rivals.iter().all(|r| r.file() != from.file()) {
            from.file().char().to_string()
        } else if rivals.iter().all(|r| r.rank() != from.rank()) {
            (from.rank().index() + 1).to_string()
        } else {
            from.to_string()
        }
    }

    /// The legal move named by SAN `text`. Accepts over-disambiguation,
    /// a missing `x`, `0-0` for `O-O`, and trailing `+`, `#`, `!`, `?`.
    ///
    /// # Errors
    /// [`SanError`] if the text is malformed, names no legal move, or several.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanError> {
        let pattern = SanPattern::parse(text, self.variant.piece_table())
            .ok_or_else(|| SanError::Syntax(text.to_owned()))?;
        let moves = self.legal_moves();
        let mut found = moves.iter().copied().filter(|m| pattern.matches(self, *m));
        match (found.next(), found.next()) {
            (Some(m), None) => Ok(m),
            (None, _) => Err(SanError::Illegal {
                san: text.to_owned(),
                fen: self.fen(),
            }),
            (Some(_), Some(_)) => Err(SanError::Ambiguous {
                san: text.to_owned(),
                fen: self.fen(),
            }),
        }
    }
}

/// Where a SAN move's gating suffix places the piece from hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GateHint {
    /// Named: `(Mg1)`, `/Mg1`.
    At(Square),
    /// Unnamed, the square the piece leaves: `/M`.
    Vacated,
}

impl GateHint {
    fn matches(hint: Option<GateHint>, m: Move) -> bool {
        match hint {
            None => m.gate() == Gate::None,
            Some(GateHint::At(sq)) => m.gate_square() == Some(sq),
            Some(GateHint::Vacated) => m.gate() == Gate::AtFrom,
        }
    }
}

/// The parts of a SAN move, to match against legal moves.
#[derive(Debug, PartialEq, Eq)]
enum SanPattern {
    Castle {
        king_file: Option<char>,
        side: Option<CastleSide>,
        gate: Option<GateHint>,
    },
    Drop {
        kind: PieceKind,
        to: Square,
    },
    Piece {
        kind: PieceKind,
        from_file: Option<u8>,
        from_rank: Option<u8>,
        to: Square,
        promotion: Option<PieceKind>,
        gate: Option<GateHint>,
    },
}

impl SanPattern {
    /// The pattern of `text`, its piece letters read with `names` (a
    /// letter no kind of the variant has is no SAN of the variant).
    fn parse(text: &str, names: &PieceTable) -> Option<SanPattern> {
        let kind_from_san = |letters: &str| names.from_san_letters(letters);
        let mut s = text.trim().trim_end_matches(['+', '#', '!', '?']);
        if !s.is_ascii() || s.is_empty() {
            return None;
        }
        // Drop: (Fb1) or F@b1
        let drop = match s.split_once('@') {
            Some((letters, to)) => Some((letters, to)),
            None if s.starts_with('(') && s.ends_with(')') => {
                let inner = &s[1..s.len() - 1];
                let split = inner.find(|c: char| c.is_ascii_lowercase())?;
                Some(inner.split_at(split))
            }
            None => None,
        };
        if let Some((letters, to)) = drop {
            let kind = kind_from_san(letters).filter(|k| *k != PieceKind::PAWN)?;
            return Some(SanPattern::Drop {
                kind,
                to: Square::parse(to)?,
            });
        }
        // Gating suffix: (Mg1), /Mg1 or /M
        let mut gate = None;
        let suffix = if s.ends_with(')') {
            let open = s.rfind('(')?;
            let inner = &s[open + 1..s.len() - 1];
            s = &s[..open];
            Some(inner)
        } else if let Some((body, inner)) = s.rsplit_once('/') {
            s = body;
            Some(inner)
        } else {
            None
        };
        if let Some(inner) = suffix {
            let split = inner
                .find(|c: char| c.is_ascii_lowercase())
                .unwrap_or(inner.len());
            kind_from_san(&inner[..split]).filter(|k| *k != PieceKind::PAWN)?;
            gate = Some(match &inner[split..] {
                "" => GateHint::Vacated,
                square => GateHint::At(Square::parse(square)?),
            });
        }
        let castle = s.replace('0', "O");
        if castle.starts_with("O-O") {
            return match castle.as_str() {
                "O-O" => Some(SanPattern::Castle {
                    king_file: None,
                    side: Some(CastleSide::KingSide),
                    gate,
                }),
                "O-O-O" => Some(SanPattern::Castle {
                    king_file: None,
                    side: Some(CastleSide::QueenSide),
                    gate,
                }),
                other => {
                    let f = other.strip_prefix("O-O-O")?;
                    let mut chars = f.chars();
                    let c = chars.next().filter(|c| c.is_ascii_lowercase())?;
                    if chars.next().is_some() {
                        return None;
                    }
                    Some(SanPattern::Castle {
                        king_file: Some(c),
                        side: None,
                        gate,
                    })
                }
            };
        }
        let (body, promotion) = match s.split_once('=') {
            Some((body, p)) => (
                body,
                Some(kind_from_san(p).filter(|k| *k != PieceKind::PAWN)?),
            ),
            None => (s, None),
        };
        // Destination: the last letter+digits at the end.
        let digits = body.bytes().rev().take_while(u8::is_ascii_digit).count();
        if digits == 0 || body.len() < digits + 1 {
            return None;
        }
        let to_start = body.len() - digits - 1;
        let to = Square::parse(&body[to_start..])?;
        let mut head = &body[..to_start];
        if let Some(h) = head.strip_suffix('x') {
            head = h;
        }
        let letters_end = head
            .find(|c: char| !c.is_ascii_uppercase())
            .unwrap_or(head.len());
        let kind = kind_from_san(&head[..letters_end])?;
        let hint = &head[letters_end..];
        let mut from_file = None;
        let mut from_rank = None;
        let hint_digits = hint.trim_start_matches(|c: char| c.is_ascii_lowercase());
        let file_part = &hint[..hint.len() - hint_digits.len()];
        match file_part.len() {
            0 => {}
            1 => from_file = file_part.bytes().next().map(|b| b - b'a'),
            _ => return None,
        }
        if !hint_digits.is_empty() {
            let n: u8 = hint_digits.parse().ok()?;
            from_rank = Some(n.checked_sub(1)?);
        }
        Some(SanPattern::Piece {
            kind,
            from_file,
            from_rank,
            to,
            promotion,
            gate,
        })
    }

    fn matches(&self, pos: &Position, m: Move) -> bool {
        match *self {
            SanPattern::Drop { kind, to } => m.dropped_kind() == Some(kind) && m.to() == to,
            SanPattern::Castle {
                king_file,
                side,
                gate,
            } => {
                if m.kind() != MoveKind::Castle || !GateHint::matches(gate, m) {
                    return false;
                }
                let m_side = CastleSide::of_rook(m.from(), m.to());
                let Some((king_to, _)) = pos.castle_destinations(pos.side_to_move(), m_side) else {
                    return false;
                };
                side.is_none_or(|s| s == m_side)
                    && king_file.is_none_or(|f| f == king_to.file().char())
            }
            SanPattern::Piece {
                kind,
                from_file,
                from_rank,
                to,
                promotion,
                gate,
            } => {
                matches!(m.kind(), MoveKind::Normal | MoveKind::EnPassant)
                    && m.to() == to
                    && pos.piece_at(m.from()).is_some_and(|p| p.kind == kind)
                    && from_file.is_none_or(|f| f == m.from().file().index())
                    && from_rank.is_none_or(|r| r == m.from().rank().index())
                    && m.promotion_kind() == promotion
                    && GateHint::matches(gate, m)
            }
        }
    }
}
