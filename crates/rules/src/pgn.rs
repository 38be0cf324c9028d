//! PGN movetext: numbered SAN moves in Fairy-Stockfish's forms
//! ([`SanForm::Pgn`]), wrapped at 80 columns, ending with the result token.

use crate::game::GameResult;
use crate::moves::Move;
use crate::position::Position;
use crate::san::{SanError, SanForm};
use crate::square::Color;

/// Movetext that does not replay from its start position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("movetext token {index} ('{token}'): {source}")]
pub struct MovetextError {
    /// 1-based index of the move token.
    pub index: usize,
    /// The token.
    pub token: String,
    /// Why it does not replay.
    pub source: SanError,
}

/// Writes `moves` (legal from `start`) as PGN movetext, each followed by
/// its `{comment}` where `comments` has a non-empty one at its index, with
/// `result` (or `*` when the game is unfinished) at the end.
///
/// # Panics
/// If a move is not legal where it is played.
pub fn write_movetext(
    start: &Position,
    moves: &[Move],
    comments: &[String],
    result: Option<GameResult>,
) -> String {
    let mut tokens = Vec::with_capacity(moves.len() * 3 / 2 + 1);
    let mut pos = *start;
    for (i, &m) in moves.iter().enumerate() {
        let number = pos.fullmove_number();
        if pos.side_to_move() == Color::White {
            tokens.push(format!("{number}."));
        } else if i == 0 {
            tokens.push(format!("{number}..."));
        }
        tokens.push(pos.san_in(m, SanForm::Pgn));
        if let Some(comment) = comments.get(i).filter(|c| !c.is_empty()) {
            tokens.push(format!("{{{comment}}}"));
        }
        pos.play_unchecked(m);
    }
    tokens.push(result.map_or("*", GameResult::pgn).to_owned());
    let mut out = String::new();
    let mut line_len = 0;
    for token in tokens {
        if line_len > 0 && line_len + 1 + token.len() > 80 {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        line_len += token.len();
        out.push_str(&token);
    }
    out
}

/// Reads movetext from `start`: move numbers, `{comments}`, `;` comments,
/// NAGs (`$1`) and the result token are skipped.
///
/// # Errors
/// [`MovetextError`] naming the first move that does not replay.
pub fn parse_movetext(start: &Position, text: &str) -> Result<Vec<Move>, MovetextError> {
    let mut cleaned = String::with_capacity(text.len());
    let mut depth = 0usize;
    for line in text.lines() {
        for c in line.chars() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                ';' if depth == 0 => break,
                _ if depth == 0 => cleaned.push(c),
                _ => {}
            }
        }
        cleaned.push(' ');
    }
    let mut pos = *start;
    let mut moves = Vec::new();
    for token in cleaned.split_whitespace() {
        let token = token
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .trim_start_matches('.');
        if token.is_empty()
            || token.starts_with('$')
            || matches!(
                token,
                "*" | "1-0" | "0-1" | "1/2-1/2" | "-0" | "-1" | "/2-1/2"
            )
        {
            continue;
        }
        let m = pos.parse_san(token).map_err(|source| MovetextError {
            index: moves.len() + 1,
            token: token.to_owned(),
            source,
        })?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(moves)
}
