//! FEN in Fairy-Stockfish's dialect (NOTATION.md): parse with errors that
//! name the field, print byte for byte as Fairy-Stockfish does.

use crate::bitboard::Bitboard;
use crate::piece::{Piece, PieceKind};
use crate::position::{CastleSide, Position};
use crate::square::{Color, File, Rank, Square};
use crate::tables::{MAX_HAND, forward};
use crate::variant::{CastlingStyle, HandRule, Variant, VariantKind};
use std::fmt::Write as _;

/// What is wrong with a FEN, and in which field.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FenError {
    /// Nothing but whitespace.
    #[error("FEN is empty")]
    Empty,
    /// The piece placement.
    #[error("board field: {0}")]
    Board(String),
    /// The `[...]` holdings.
    #[error("hand field: {0}")]
    Hand(String),
    /// The side to move.
    #[error("side to move field: '{0}' is not 'w' or 'b'")]
    Side(String),
    /// Castling and gating rights.
    #[error("castling field: {0}")]
    Castling(String),
    /// En passant square.
    #[error("en passant field: {0}")]
    EnPassant(String),
    /// Halfmove clock.
    #[error("halfmove clock field: '{0}' is not a non-negative number")]
    Halfmove(String),
    /// Fullmove number.
    #[error("fullmove number field: '{0}' is not a non-negative number")]
    Fullmove(String),
    /// Extra text after the fullmove number.
    #[error("unexpected text after the fullmove number: '{0}'")]
    TrailingText(String),
    /// A run of empty squares longer than its rank (`rn99k/…` on eight files).
    #[error(
        "board field: rank {rank}: a run of empty squares longer than the rank's {files} files"
    )]
    EmptyRunTooLong {
        /// The rank, counted from 1 as in the FEN's own notation.
        rank: u8,
        /// How many files the rank has.
        files: u8,
    },
    /// Fields are fine one by one but the position is impossible.
    #[error("impossible position: {0}")]
    Impossible(String),
}

impl Position {
    /// Parses a FEN of `variant`.
    ///
    /// # Errors
    /// [`FenError`] naming the field and what is wrong with it.
    pub fn from_fen(variant: VariantKind, fen: &str) -> Result<Position, FenError> {
        Position::from_fen_in(variant.variant(), fen)
    }

    /// Parses a FEN of the loaded variant `variant` (a built-in's, or one
    /// from a user's file: see [`Variant::load`] and `VariantSet`).
    ///
    /// # Errors
    /// [`FenError`] naming the field and what is wrong with it.
    pub fn from_fen_in(variant: &'static Variant, fen: &str) -> Result<Position, FenError> {
        let mut fields = fen.split_whitespace();
        let board_field = fields.next().ok_or(FenError::Empty)?;
        let mut pos = Position::empty(variant);
        let (placement, hand) = match board_field.find('[') {
            Some(i) => {
                let rest = &board_field[i + 1..];
                let Some(hand) = rest.strip_suffix(']') else {
                    return Err(FenError::Hand(format!(
                        "'{}' does not end with ']'",
                        &board_field[i..]
                    )));
                };
                (&board_field[..i], Some(hand))
            }
            None => (board_field, None),
        };
        parse_board(&mut pos, placement)?;
        parse_hand(&mut pos, hand)?;

        let side = fields.next().unwrap_or("w");
        pos.side = match side {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(FenError::Side(other.to_owned())),
        };
        parse_castling(&mut pos, fields.next().unwrap_or("-"))?;
        parse_en_passant(&mut pos, fields.next().unwrap_or("-"))?;
        if let Some(h) = fields.next() {
            pos.halfmove = h.parse().map_err(|_| FenError::Halfmove(h.to_owned()))?;
        }
        if let Some(f) = fields.next() {
            let n: u32 = f.parse().map_err(|_| FenError::Fullmove(f.to_owned()))?;
            // Like Fairy-Stockfish, read the common "fullmove 0" as 1.
            pos.fullmove = n.max(1);
        }
        if let Some(extra) = fields.next() {
            return Err(FenError::TrailingText(extra.to_owned()));
        }
        if pos.opponent_in_check() {
            return Err(FenError::Impossible(format!(
                "the side not to move ({}) is in check",
                !pos.side
            )));
        }
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }

    /// The FEN of this position, exactly as Fairy-Stockfish prints it.
    pub fn fen(&self) -> String {
        let v = self.variant;
        let mut out = String::with_capacity(96);
        for r in (0..v.height()).rev() {
            let mut empty = 0;
            for f in 0..v.width() {
                match self.piece_at(square(f, r)) {
                    Some(p) => {
                        if empty > 0 {
                            let _ = write!(out, "{empty}");
                            empty = 0;
                        }
                        out.push(v.fen_char(p));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                let _ = write!(out, "{empty}");
            }
            if r > 0 {
                out.push('/');
            }
        }
        if let Some(kind) = self.hand_kind() {
            out.push('[');
            for color in Color::ALL {
                let c = v.fen_char(Piece::new(color, kind));
                out.extend(std::iter::repeat_n(c, usize::from(self.hand[color])));
            }
            out.push(']');
        }
        out.push(' ');
        out.push(self.side.fen_char());
        out.push(' ');
        let rights = self.castling_field();
        out.push_str(if rights.is_empty() { "-" } else { &rights });
        out.push(' ');
        match self.en_passant {
            Some(sq) => {
                let _ = write!(out, "{sq}");
            }
            None => out.push('-'),
        }
        let _ = write!(out, " {} {}", self.halfmove, self.fullmove);
        out
    }

    fn castling_field(&self) -> String {
        let style = self.variant.castling_style();
        let mut out = String::new();
        for color in Color::ALL {
            let case = |c: char| {
                if color == Color::White {
                    c
                } else {
                    c.to_ascii_lowercase()
                }
            };
            for side in CastleSide::BOTH {
                let Some(rook) = self.castling[color][side as usize] else {
                    continue;
                };
                out.push(case(match style {
                    CastlingStyle::Orthodox => match side {
                        CastleSide::KingSide => 'K',
                        CastleSide::QueenSide => 'Q',
                    },
                    CastlingStyle::Chess960 | CastlingStyle::ModernRandom => {
                        rook.file().upper_char()
                    }
                }));
            }
            if self.can_gate(color) {
                let rooks: Vec<Square> = self.castling[color].into_iter().flatten().collect();
                for f in 0..self.variant.width() {
                    let gate = (self.gates[color] & self.tables().files[usize::from(f)]).first();
                    if let Some(sq) = gate.filter(|sq| !rooks.contains(sq)) {
                        out.push(case(sq.file().upper_char()));
                    }
                }
            }
        }
        out
    }
}

fn square(file: u8, rank: u8) -> Square {
    match (File::new(file), Rank::new(rank)) {
        (Some(f), Some(r)) => Square::new(f, r),
        _ => unreachable!("board dimensions fit the frame"),
    }
}

fn parse_board(pos: &mut Position, placement: &str) -> Result<(), FenError> {
    let v = pos.variant;
    let ranks: Vec<&str> = placement.split('/').collect();
    if ranks.len() != usize::from(v.height()) {
        return Err(FenError::Board(format!(
            "{} ranks given, the {} board has {}",
            ranks.len(),
            v.name(),
            v.height()
        )));
    }
    for (i, text) in ranks.iter().enumerate() {
        let rank = v.height() - 1 - i as u8;
        let rank_name = rank + 1;
        let mut file: u32 = 0;
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if let Some(d) = c.to_digit(10) {
                let mut n = d;
                while let Some(d2) = chars.peek().and_then(|c| c.to_digit(10)) {
                    // Refused at the first digit that makes the run longer
                    // than the rank, so no count of digits can overflow.
                    n = n
                        .checked_mul(10)
                        .and_then(|n| n.checked_add(d2))
                        .filter(|&n| file + n <= u32::from(v.width()))
                        .ok_or(FenError::EmptyRunTooLong {
                            rank: rank_name,
                            files: v.width(),
                        })?;
                    chars.next();
                }
                if n == 0 {
                    return Err(FenError::Board(format!(
                        "rank {rank_name}: empty-square count 0"
                    )));
                }
                if file + n > u32::from(v.width()) {
                    return Err(FenError::EmptyRunTooLong {
                        rank: rank_name,
                        files: v.width(),
                    });
                }
                file += n;
            } else if c == '~' {
                // Fairy-Stockfish's promoted-piece marker; meaningless here.
                continue;
            } else {
                let piece = v.piece_from_fen_char(c).ok_or_else(|| {
                    FenError::Board(format!(
                        "rank {rank_name}: '{c}' is not a piece of {}",
                        v.name()
                    ))
                })?;
                if file >= u32::from(v.width()) {
                    return Err(FenError::Board(format!(
                        "rank {rank_name} has more than {} files",
                        v.width()
                    )));
                }
                let sq = square(file as u8, rank);
                if piece.kind == PieceKind::PAWN && (rank == 0 || rank == v.height() - 1) {
                    return Err(FenError::Board(format!(
                        "a pawn on {sq}, a first or last rank"
                    )));
                }
                if piece.kind == PieceKind::KING && pos.pieces(piece.color, PieceKind::KING).any() {
                    return Err(FenError::Board(format!(
                        "{} has more than one king",
                        piece.color
                    )));
                }
                pos.put(piece, sq);
                file += 1;
            }
            if file > u32::from(v.width()) {
                return Err(FenError::Board(format!(
                    "rank {rank_name} has more than {} files",
                    v.width()
                )));
            }
        }
        if file != u32::from(v.width()) {
            return Err(FenError::Board(format!(
                "rank {rank_name} has {file} files, the board has {}",
                v.width()
            )));
        }
    }
    for color in Color::ALL {
        if pos.pieces(color, PieceKind::KING).is_empty() {
            return Err(FenError::Board(format!("{color} has no king")));
        }
    }
    Ok(())
}

fn parse_hand(pos: &mut Position, hand: Option<&str>) -> Result<(), FenError> {
    let v = pos.variant;
    let Some(kind) = pos.hand_kind() else {
        return match hand {
            Some(h) if !h.is_empty() => Err(FenError::Hand(format!(
                "'{h}': {} has no pieces in hand",
                v.name()
            ))),
            _ => Ok(()),
        };
    };
    let mut counts = [0u8; 2];
    for c in hand.unwrap_or("").chars() {
        match v.piece_from_fen_char(c) {
            Some(p) if p.kind == kind => counts[p.color.index()] += 1,
            _ => {
                return Err(FenError::Hand(format!(
                    "'{c}' cannot be in hand in {}; only {} ({}) can",
                    v.name(),
                    v.piece_name(kind),
                    v.letter(kind)
                )));
            }
        }
        if counts.iter().any(|&n| usize::from(n) > MAX_HAND) {
            return Err(FenError::Hand(format!(
                "more than {MAX_HAND} pieces in one hand"
            )));
        }
    }
    for color in Color::ALL {
        pos.hand[color] = counts[color.index()];
    }
    Ok(())
}

fn parse_castling(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let v = pos.variant;
    let gating = matches!(v.def.hand, HandRule::Gating { .. });
    let height = v.height();
    let mut gates = [Bitboard::EMPTY; 2];
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() {
            Color::White
        } else {
            Color::Black
        };
        let upper = c.to_ascii_uppercase();
        let back = pos.tables().relative_rank(color, 0, height);
        let king = pos.king[color];
        let king_home = back.contains(king);
        let needs_king = matches!(upper, 'K' | 'Q') || !(gating && pos.hand[color] > 0);
        if needs_king && !king_home {
            return Err(FenError::Castling(format!(
                "'{c}': the {color} king is not on its first rank"
            )));
        }
        let gate_right = gating && pos.hand[color] > 0 && !matches!(upper, 'K' | 'Q');
        let rooks = match v.def.castling {
            Some(rule) => pos.pieces(color, rule.rook) & back,
            None if gate_right => Bitboard::EMPTY,
            None => {
                return Err(FenError::Castling(format!(
                    "'{c}': {} has no castling (castling = false)",
                    v.name()
                )));
            }
        };
        let square = match upper {
            'K' => rooks.filter(|r| r.file() > king.file()).last(),
            'Q' => rooks.into_iter().find(|r| r.file() < king.file()),
            _ => File::from_char(upper.to_ascii_lowercase())
                .filter(|f| f.index() < v.width())
                .and_then(|f| back.into_iter().find(|s| s.file() == f)),
        };
        let Some(sq) = square else {
            return Err(FenError::Castling(match upper {
                'K' | 'Q' => format!("'{c}': {color} has no rook on that side of its king"),
                _ => format!("'{c}' is not a file of this board, nor K or Q"),
            }));
        };
        if gating && pos.hand[color] > 0 {
            let own_piece = pos.piece_at(sq).is_some_and(|p| p.color == color);
            if !own_piece {
                return Err(FenError::Castling(format!(
                    "'{c}': no {color} piece on {sq} to carry a gating right"
                )));
            }
            gates[color.index()] = gates[color.index()].with(sq);
            if matches!(upper, 'K' | 'Q') {
                gates[color.index()] = gates[color.index()].with(king);
            }
            continue;
        }
        if !rooks.contains(sq) {
            return Err(FenError::Castling(format!(
                "'{c}': no {color} rook on {sq}"
            )));
        }
        let side = CastleSide::of_rook(king, sq);
        match pos.castling[color][side as usize] {
            Some(existing) if existing != sq => {
                return Err(FenError::Castling(format!(
                    "'{c}': {color} already castles on that side with the rook on {existing}"
                )));
            }
            _ => pos.castling[color][side as usize] = Some(sq),
        }
    }
    if gating {
        for color in Color::ALL {
            let g = gates[color.index()];
            pos.gates[color] = g;
            // While the hand holds pieces, castling rights are the gated rooks
            // of a gated king (Fairy-Stockfish's reading of this field).
            if let Some(rule) = v.def.castling
                && g.contains(pos.king[color])
            {
                let king = pos.king[color];
                for rook in g & pos.pieces(color, rule.rook) {
                    let side = CastleSide::of_rook(king, rook);
                    pos.castling[color][side as usize] = Some(rook);
                }
            }
        }
    }
    Ok(())
}

fn parse_en_passant(pos: &mut Position, field: &str) -> Result<(), FenError> {
    if field == "-" {
        return Ok(());
    }
    let sq = Square::parse(field)
        .filter(|s| pos.variant.contains(*s))
        .ok_or_else(|| FenError::EnPassant(format!("'{field}' is not a square of this board")))?;
    let us = pos.side;
    let them = !us;
    let height = pos.variant.height();
    if !pos.tables().relative_rank(them, 2, height).contains(sq) {
        return Err(FenError::EnPassant(format!(
            "{sq} is not on the rank a {them} pawn passes with a double step"
        )));
    }
    let step = |s: Square, d: i32| {
        i32::try_from(s.index())
            .ok()
            .and_then(|i| u8::try_from(i + d).ok())
            .and_then(Square::from_index)
    };
    let pawn_at = step(sq, forward(them));
    let origin = step(sq, -forward(them));
    let pawn_there = pawn_at.is_some_and(|p| pos.pieces(them, PieceKind::PAWN).contains(p));
    let clear = !pos.occupied().contains(sq) && origin.is_some_and(|o| !pos.occupied().contains(o));
    if !pawn_there || !clear {
        return Err(FenError::EnPassant(format!(
            "{sq} does not follow a {them} pawn's double step (no pawn in front, or squares occupied)"
        )));
    }
    // Kept only when a capture is pseudo-legal, as Fairy-Stockfish does.
    let capturers =
        pos.tables().pawn_attacks[them.index()][sq.index()] & pos.pieces(us, PieceKind::PAWN);
    if capturers.any() {
        pos.en_passant = Some(sq);
    }
    Ok(())
}
