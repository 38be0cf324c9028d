//! A variant as Fairy-Stockfish's keys describe it, before the rules model
//! is asked whether it can play it: the defaults, a parent's settings, and
//! a section's keys applied over them. Each setting remembers the line that
//! set it, so later checks can name it.

use super::error::IniErrorKind;
use super::keys::{self, STANDARD_PIECES};
use super::lex::Entry;
use super::values::{self, GameValue, Region};
use crate::betza::PieceMoves;
use crate::square::{ByColor, Color};
use std::collections::HashMap;

/// A value and the line that set it (`None`: a default or built-in parent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Setting<T> {
    pub(super) value: T,
    pub(super) line: Option<usize>,
}

fn default<T>(value: T) -> Setting<T> {
    Setting { value, line: None }
}

fn both<T: Clone>(value: T) -> ByColor<Setting<T>> {
    ByColor::from_fn(|_| default(value.clone()))
}

/// Defaults by colour: White's and Black's rank (0-based).
fn ranks(white: u8, black: u8) -> ByColor<Setting<Region>> {
    ByColor {
        white: default(Region::rank(white)),
        black: default(Region::rank(black)),
    }
}

/// What a piece slot holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// The pawn (Fairy-Stockfish's `fmWfceF`, the rules model's pawn).
    Pawn,
    /// The royal king.
    King,
    /// Any other piece.
    Piece(PieceMoves),
}

/// A piece slot in use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct DraftPiece {
    /// The key that defines it (`knight`, `customPiece3`).
    pub(super) key: String,
    /// Its letter, upper case.
    pub(super) letter: char,
    /// What it is.
    pub(super) role: Role,
    /// Line that defined it.
    pub(super) line: Option<usize>,
}

/// The ajaxlab key for start positions beyond one FEN.
pub(super) const SETUP_KEY: &str = "ajaxlabSetup";

/// How start positions are chosen (`ajaxlabSetup`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum SetupKind {
    /// `startFen` only.
    Fixed,
    /// Chess960 numbering.
    Chess960,
    /// AMRC numbering.
    ModernRandom,
}

/// Every setting the reader knows, with Fairy-Stockfish's defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Draft {
    pub(super) files: Setting<u8>,
    pub(super) ranks: Setting<u8>,
    pub(super) pieces: Vec<DraftPiece>,
    pub(super) start_fen: Setting<String>,
    pub(super) promotion_region: ByColor<Setting<Region>>,
    /// Piece keys, in the order written.
    pub(super) promotion_types: ByColor<Setting<Vec<String>>>,
    pub(super) double_step: Setting<bool>,
    pub(super) double_step_region: ByColor<Setting<Region>>,
    pub(super) en_passant_region: ByColor<Setting<Region>>,
    pub(super) castling: Setting<bool>,
    pub(super) castling_king_side: Setting<u8>,
    pub(super) castling_queen_side: Setting<u8>,
    pub(super) castling_rank: Setting<u8>,
    /// Only when given: Fairy-Stockfish reads it only where the FEN has no king.
    pub(super) castling_king_file: Setting<Option<u8>>,
    pub(super) castling_king_piece: ByColor<Setting<Vec<String>>>,
    pub(super) castling_rook_pieces: ByColor<Setting<Vec<String>>>,
    pub(super) chess960: Setting<bool>,
    pub(super) piece_drops: Setting<bool>,
    pub(super) captures_to_hand: Setting<bool>,
    pub(super) drop_region: ByColor<Setting<Region>>,
    pub(super) gating: Setting<bool>,
    pub(super) seirawan_gating: Setting<bool>,
    pub(super) n_move_rule: Setting<u32>,
    pub(super) n_fold_rule: Setting<u32>,
    pub(super) stalemate_value: Setting<Option<GameValue>>,
    pub(super) values_mg: Vec<Setting<(char, i32)>>,
    pub(super) values_eg: Vec<Setting<(char, i32)>>,
    pub(super) setup: Setting<SetupKind>,
}

const CHESS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

impl Draft {
    /// Fairy-Stockfish's defaults for a section without a parent: an 8 × 8
    /// board, chess rules, and no pieces.
    pub(super) fn base() -> Draft {
        Draft {
            files: default(8),
            ranks: default(8),
            pieces: Vec::new(),
            start_fen: default(CHESS_FEN.to_owned()),
            promotion_region: ranks(7, 0),
            promotion_types: both(Vec::new()),
            double_step: default(true),
            double_step_region: ranks(1, 6),
            en_passant_region: both(Region::ALL),
            castling: default(true),
            castling_king_side: default(6),
            castling_queen_side: default(2),
            castling_rank: default(0),
            castling_king_file: default(None),
            castling_king_piece: both(vec!["king".to_owned()]),
            castling_rook_pieces: both(vec!["rook".to_owned()]),
            chess960: default(false),
            piece_drops: default(false),
            captures_to_hand: default(false),
            drop_region: both(Region::ALL),
            gating: default(false),
            seirawan_gating: default(false),
            n_move_rule: default(50),
            n_fold_rule: default(3),
            stalemate_value: default(Some(GameValue::Draw)),
            values_mg: Vec::new(),
            values_eg: Vec::new(),
            setup: default(SetupKind::Fixed),
        }
    }

    /// Fairy-Stockfish's built-in parents: `chess` (also `normal`) and
    /// `fischerandom` (read as Chess960's numbered starts).
    pub(super) fn builtin(name: &str) -> Option<Draft> {
        let mut d = Draft::base();
        match name {
            "chess" | "normal" | "fischerandom" => {}
            _ => return None,
        }
        let piece = |key: &str, letter, role| DraftPiece {
            key: key.to_owned(),
            letter,
            role,
            line: None,
        };
        let moves = |betza: &str| PieceMoves::parse(betza).map(Role::Piece).ok();
        d.pieces.push(piece("pawn", 'P', Role::Pawn));
        for (key, letter, betza) in [
            ("knight", 'N', "N"),
            ("bishop", 'B', "B"),
            ("rook", 'R', "R"),
            ("queen", 'Q', "Q"),
        ] {
            d.pieces
                .extend(moves(betza).map(|role| piece(key, letter, role)));
        }
        d.pieces.push(piece("king", 'K', Role::King));
        let promotions: Vec<String> = ["queen", "rook", "bishop", "knight"]
            .map(String::from)
            .to_vec();
        d.promotion_types = both(promotions);
        if name == "fischerandom" {
            d.chess960 = default(true);
            d.setup = default(SetupKind::Chess960);
        }
        Some(d)
    }

    /// Applies a section's keys: board size and pieces first (later keys
    /// name pieces by letter), then the rest. Returns every error, each
    /// with the line and key it is about.
    pub(super) fn apply(&mut self, entries: &[Entry]) -> Vec<(usize, String, IniErrorKind)> {
        let mut errors = Vec::new();
        let mut letters: HashMap<char, (String, usize)> = HashMap::new();
        let (first, rest): (Vec<&Entry>, Vec<&Entry>) =
            entries.iter().partition(|e| shapes_board(&e.key));
        for e in first {
            let result = match e.key.as_str() {
                "maxFile" => values::file(&e.value).map(|f| self.files = set(f + 1, e)),
                "maxRank" => values::rank(&e.value).map(|r| self.ranks = set(r + 1, e)),
                _ => self.piece(e, &mut letters),
            };
            if let Err(kind) = result {
                errors.push((e.line, e.key.clone(), kind));
            }
        }
        for e in rest {
            if let Err(kind) = self.setting(e) {
                errors.push((e.line, e.key.clone(), kind));
            }
        }
        errors
    }

    /// A piece key: `letter`, `letter:Betza` (custom pieces), or `-`.
    fn piece(
        &mut self,
        e: &Entry,
        letters: &mut HashMap<char, (String, usize)>,
    ) -> Result<(), IniErrorKind> {
        let mut chars = e.value.chars();
        let letter = match chars.next() {
            Some('-') if e.value == "-" => {
                self.remove(|p| p.key == e.key);
                return Ok(());
            }
            Some(c) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
            _ => {
                return Err(IniErrorKind::BadValue {
                    value: e.value.clone(),
                    expected: "a piece letter (custom pieces: letter:Betza), or '-'",
                });
            }
        };
        let betza = match chars.next() {
            None => None,
            Some(':') => Some(chars.as_str()),
            Some(_) => {
                return Err(IniErrorKind::BadValue {
                    value: e.value.clone(),
                    expected: "a piece letter (custom pieces: letter:Betza), or '-'",
                });
            }
        };
        let role = role(&e.key, betza)?;
        if let Some((other_key, other_line)) = letters.get(&letter) {
            return Err(IniErrorKind::LetterTwice {
                letter,
                other_key: other_key.clone(),
                other_line: *other_line,
            });
        }
        letters.insert(letter, (e.key.clone(), e.line));
        // As Fairy-Stockfish's add_piece: whatever piece has the letter goes,
        // with its promotions (even this slot's own piece); a slot that only
        // changes its letter keeps them.
        self.remove(|p| p.letter == letter);
        let piece = DraftPiece {
            key: e.key.clone(),
            letter,
            role,
            line: Some(e.line),
        };
        match self.pieces.iter_mut().find(|p| p.key == e.key) {
            Some(slot) => *slot = piece,
            None => self.pieces.push(piece),
        }
        Ok(())
    }

    /// Drops the pieces `which` selects, and their promotions, as
    /// Fairy-Stockfish's `remove_piece` does.
    fn remove(&mut self, which: impl Fn(&DraftPiece) -> bool) {
        let gone: Vec<String> = self
            .pieces
            .iter()
            .filter(|p| which(p))
            .map(|p| p.key.clone())
            .collect();
        self.pieces.retain(|p| !which(p));
        for color in Color::ALL {
            self.promotion_types[color]
                .value
                .retain(|k| !gone.contains(k));
        }
    }

    /// The piece keys of `letters`, each a piece of the variant.
    fn piece_keys(&self, value: &str) -> Result<Vec<String>, IniErrorKind> {
        values::letters(value)?
            .into_iter()
            .map(|l| {
                self.pieces
                    .iter()
                    .find(|p| p.letter == l)
                    .map(|p| p.key.clone())
                    .ok_or(IniErrorKind::UnknownLetter(l))
            })
            .collect()
    }

    /// Any key but the board size and the pieces.
    fn setting(&mut self, e: &Entry) -> Result<(), IniErrorKind> {
        let v = e.value.as_str();
        let colors = |key: &str, base: &str| match key.strip_prefix(base) {
            Some("") => Some(&Color::ALL[..]),
            Some("White") => Some(&Color::ALL[..1]),
            Some("Black") => Some(&Color::ALL[1..]),
            _ => None,
        };
        let key = e.key.as_str();
        if let Some(cs) = colors(key, "promotionRegion").filter(|c| c.len() == 1) {
            let r = Region::parse(v)?;
            cs.iter()
                .for_each(|&c| self.promotion_region[c] = set(r, e));
        } else if let Some(cs) = colors(key, "promotionPieceTypes") {
            let keys = self.piece_keys(v)?;
            cs.iter()
                .for_each(|&c| self.promotion_types[c] = set(keys.clone(), e));
        } else if let Some(cs) = colors(key, "doubleStepRegion").filter(|c| c.len() == 1) {
            let r = Region::parse(v)?;
            cs.iter()
                .for_each(|&c| self.double_step_region[c] = set(r, e));
        } else if let Some(cs) = colors(key, "enPassantRegion") {
            let r = Region::parse(v)?;
            cs.iter()
                .for_each(|&c| self.en_passant_region[c] = set(r, e));
        } else if let Some(cs) = colors(key, "dropRegion").filter(|c| c.len() == 1) {
            let r = Region::parse(v)?;
            cs.iter().for_each(|&c| self.drop_region[c] = set(r, e));
        } else if let Some(cs) = colors(key, "castlingRookPieces") {
            let keys = self.piece_keys(v)?;
            cs.iter()
                .for_each(|&c| self.castling_rook_pieces[c] = set(keys.clone(), e));
        } else if let Some(cs) = colors(key, "castlingKingPiece") {
            let keys = self.piece_keys(v)?;
            cs.iter()
                .for_each(|&c| self.castling_king_piece[c] = set(keys.clone(), e));
        } else {
            return self.scalar(e);
        }
        Ok(())
    }

    fn scalar(&mut self, e: &Entry) -> Result<(), IniErrorKind> {
        let v = e.value.as_str();
        match e.key.as_str() {
            "startFen" => self.start_fen = set(v.to_owned(), e),
            "doubleStep" => self.double_step = set(values::boolean(v)?, e),
            "castling" => self.castling = set(values::boolean(v)?, e),
            "castlingKingsideFile" => self.castling_king_side = set(values::file(v)?, e),
            "castlingQueensideFile" => self.castling_queen_side = set(values::file(v)?, e),
            "castlingRank" => self.castling_rank = set(values::rank(v)?, e),
            "castlingKingFile" => self.castling_king_file = set(Some(values::file(v)?), e),
            "chess960" => self.chess960 = set(values::boolean(v)?, e),
            "pieceDrops" => self.piece_drops = set(values::boolean(v)?, e),
            "capturesToHand" => self.captures_to_hand = set(values::boolean(v)?, e),
            "gating" => self.gating = set(values::boolean(v)?, e),
            "seirawanGating" => self.seirawan_gating = set(values::boolean(v)?, e),
            "nMoveRule" => self.n_move_rule = set(values::number(v)?, e),
            "nFoldRule" => self.n_fold_rule = set(values::number(v)?, e),
            "stalemateValue" => self.stalemate_value = set(values::game_value(v)?, e),
            "pieceValueMg" => self.values_mg = self.values(v, e)?,
            "pieceValueEg" => self.values_eg = self.values(v, e)?,
            SETUP_KEY => self.setup = set(setup_kind(v)?, e),
            key => return check_other(key, v),
        }
        Ok(())
    }

    fn values(&self, v: &str, e: &Entry) -> Result<Vec<Setting<(char, i32)>>, IniErrorKind> {
        values::piece_values(v)?
            .into_iter()
            .map(|(letter, value)| {
                if self.pieces.iter().any(|p| p.letter == letter) {
                    Ok(set((letter, value), e))
                } else {
                    Err(IniErrorKind::UnknownLetter(letter))
                }
            })
            .collect()
    }
}

fn set<T>(value: T, e: &Entry) -> Setting<T> {
    Setting {
        value,
        line: Some(e.line),
    }
}

fn setup_kind(v: &str) -> Result<SetupKind, IniErrorKind> {
    match v {
        "fixed" => Ok(SetupKind::Fixed),
        "chess960" => Ok(SetupKind::Chess960),
        "amrc" => Ok(SetupKind::ModernRandom),
        _ => Err(IniErrorKind::BadValue {
            value: v.to_owned(),
            expected: "fixed, chess960 or amrc",
        }),
    }
}

/// Whether `key` shapes the board or its pieces, which the later keys
/// and checks read (piece letters, the start position).
pub(super) fn shapes_board(key: &str) -> bool {
    is_piece_key(key) || key == "maxFile" || key == "maxRank"
}

/// Whether `key` defines a piece slot.
fn is_piece_key(key: &str) -> bool {
    key == "pawn"
        || key == "king"
        || keys::custom_slot(key).is_some()
        || STANDARD_PIECES.iter().any(|(k, _)| *k == key)
}

/// What the piece key `key` defines, given the Betza after `letter:`.
fn role(key: &str, betza: Option<&str>) -> Result<Role, IniErrorKind> {
    let standard = STANDARD_PIECES
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, b)| *b);
    match (key, betza, standard) {
        ("pawn", None, _) => Ok(Role::Pawn),
        ("king", None, _) => Ok(Role::King),
        ("king", Some(_), _) => Err(IniErrorKind::Refused(
            "a custom royal piece (king = letter:Betza); the king moves as K".into(),
        )),
        (_, None, Some(betza)) => PieceMoves::parse(betza).map(Role::Piece).map_err(|e| {
            IniErrorKind::Refused(format!(
                "Fairy-Stockfish's {key} moves as '{betza}': {}",
                e.kind
            ))
        }),
        (_, Some(betza), None) if key != "pawn" => Ok(Role::Piece(PieceMoves::parse(betza)?)),
        (_, None, None) => Err(IniErrorKind::BadValue {
            value: String::new(),
            expected: "letter:Betza for a custom piece",
        }),
        _ => Err(IniErrorKind::BadValue {
            value: betza.unwrap_or_default().to_owned(),
            expected: "a letter only: this piece's moves are fixed",
        }),
    }
}

/// A key the reader does not store: display-only, accepted with the model's
/// value, refused, or unknown.
fn check_other(key: &str, value: &str) -> Result<(), IniErrorKind> {
    if keys::DISPLAY_ONLY.contains(&key) {
        return Ok(());
    }
    if let Some((_, accepted)) = keys::MODEL_VALUES.iter().find(|(k, _)| *k == key) {
        return if value == *accepted {
            Ok(())
        } else {
            Err(IniErrorKind::Refused(format!(
                "the rules model plays only {key} = {accepted}"
            )))
        };
    }
    if let Some(reason) = keys::REFUSED
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, r)| *r)
        .or_else(|| keys::mobility_region(key))
    {
        return Err(IniErrorKind::Refused(reason.to_owned()));
    }
    Err(IniErrorKind::UnknownKey(keys::closest(key)))
}
