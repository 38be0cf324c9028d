//! Values as Fairy-Stockfish writes them: booleans, numbers, files, square
//! regions, piece-letter lists, piece values, game values.

use super::error::IniErrorKind;

/// Files and ranks of Fairy-Stockfish's largest frame (12 × 10), which
/// bounds what a region may name.
pub(super) const FSF_FILES: u8 = 12;
/// Ranks of Fairy-Stockfish's largest frame.
pub(super) const FSF_RANKS: u8 = 10;

fn bad(value: &str, expected: &'static str) -> IniErrorKind {
    IniErrorKind::BadValue {
        value: value.to_owned(),
        expected,
    }
}

/// `true` or `false`.
pub(super) fn boolean(value: &str) -> Result<bool, IniErrorKind> {
    match value {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(bad(value, "true or false")),
    }
}

/// A non-negative whole number.
pub(super) fn number(value: &str) -> Result<u32, IniErrorKind> {
    value
        .parse()
        .map_err(|_| bad(value, "a whole number 0..4294967295"))
}

/// A file: a letter (`a` = 0) or a 1-based number; 0-based result.
pub(super) fn file(value: &str) -> Result<u8, IniErrorKind> {
    let expected = "a file letter a..l or number 1..12";
    let index = match value.chars().next() {
        Some(c) if c.is_ascii_digit() => number(value)
            .ok()
            .and_then(|n| u8::try_from(n).ok())
            .and_then(|n| n.checked_sub(1)),
        Some(c @ 'a'..='z') if value.len() == 1 => Some(c as u8 - b'a'),
        _ => None,
    };
    index
        .filter(|&i| i < FSF_FILES)
        .ok_or_else(|| bad(value, expected))
}

/// A 1-based rank number; 0-based result.
pub(super) fn rank(value: &str) -> Result<u8, IniErrorKind> {
    number(value)
        .ok()
        .and_then(|n| u8::try_from(n).ok())
        .and_then(|n| n.checked_sub(1))
        .filter(|&r| r < FSF_RANKS)
        .ok_or_else(|| bad(value, "a rank number 1..10"))
}

/// A set of squares of the 12 × 10 frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Region {
    /// Bit `f` of `rows[r]`: the square on file `f`, rank `r` (0-based).
    rows: [u16; FSF_RANKS as usize],
}

impl Region {
    /// No square.
    pub(super) const EMPTY: Region = Region {
        rows: [0; FSF_RANKS as usize],
    };
    /// Every square.
    pub(super) const ALL: Region = Region {
        rows: [(1 << FSF_FILES) - 1; FSF_RANKS as usize],
    };

    /// One whole rank (0-based).
    pub(super) fn rank(r: u8) -> Region {
        let mut region = Region::EMPTY;
        if let Some(row) = region.rows.get_mut(usize::from(r)) {
            *row = Region::ALL.rows[0];
        }
        region
    }

    /// The part of the region on a board of `files` × `ranks`.
    pub(super) fn on_board(self, files: u8, ranks: u8) -> Region {
        let mask = (1u16 << files.min(FSF_FILES)) - 1;
        let mut rows = [0; FSF_RANKS as usize];
        for (r, row) in rows.iter_mut().enumerate().take(usize::from(ranks)) {
            *row = self.rows[r] & mask;
        }
        Region { rows }
    }

    /// Whether every square of `other` is in the region.
    pub(super) fn covers(self, other: Region) -> bool {
        self.rows.iter().zip(other.rows).all(|(a, b)| b & !a == 0)
    }

    /// Parses space-separated `e4` squares, `a*` files and `*1` ranks, up
    /// to an optional `-`.
    pub(super) fn parse(value: &str) -> Result<Region, IniErrorKind> {
        let expected = "squares (e4), files (a*) and ranks (*1), space-separated";
        let mut region = Region::EMPTY;
        for symbol in value.split_whitespace() {
            if symbol == "-" {
                break;
            }
            let fail = || bad(value, expected);
            if let Some(r) = symbol.strip_prefix('*') {
                region.add_rank(rank(r).map_err(|_| fail())?);
            } else if let Some(f) = symbol.strip_suffix('*') {
                let f = file(f)
                    .ok()
                    .filter(|_| !f.starts_with(|c: char| c.is_ascii_digit()));
                region.add_file(f.ok_or_else(fail)?);
            } else {
                let split = symbol.find(|c: char| c.is_ascii_digit()).ok_or_else(fail)?;
                let (f, r) = symbol.split_at(split);
                let f = Some(f).filter(|f| f.len() == 1).ok_or_else(fail)?;
                let (f, r) = (file(f).map_err(|_| fail())?, rank(r).map_err(|_| fail())?);
                region.rows[usize::from(r)] |= 1 << f;
            }
        }
        Ok(region)
    }

    fn add_rank(&mut self, r: u8) {
        self.rows[usize::from(r)] = Region::ALL.rows[0];
    }

    fn add_file(&mut self, f: u8) {
        for row in &mut self.rows {
            *row |= 1 << f;
        }
    }
}

/// Piece letters (upper case), whitespace allowed between them; `-` ends
/// the list (alone: no piece).
pub(super) fn letters(value: &str) -> Result<Vec<char>, IniErrorKind> {
    let mut out = Vec::new();
    for c in value.chars().filter(|c| !c.is_whitespace()) {
        match c {
            '-' => break,
            c if c.is_ascii_alphabetic() => out.push(c.to_ascii_uppercase()),
            _ => return Err(bad(value, "piece letters, or '-' for none")),
        }
    }
    Ok(out)
}

/// `letter:value` items, space-separated (`pieceValueMg = n:781 b:825`).
pub(super) fn piece_values(value: &str) -> Result<Vec<(char, i32)>, IniErrorKind> {
    let expected = "space-separated letter:value items, e.g. n:781 b:825";
    value
        .split_whitespace()
        .map(|item| {
            let (letter, number) = item.split_once(':').ok_or_else(|| bad(value, expected))?;
            let mut chars = letter.chars();
            let letter = match (chars.next(), chars.next()) {
                (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
                _ => return Err(bad(value, expected)),
            };
            let number = number.parse().map_err(|_| bad(value, expected))?;
            Ok((letter, number))
        })
        .collect()
}

/// The result a rule gives the side it applies to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameValue {
    /// A win.
    Win,
    /// A loss.
    Loss,
    /// A draw.
    Draw,
}

/// `win`, `loss` or `draw` (`none` is Fairy-Stockfish's "no such rule").
pub(super) fn game_value(value: &str) -> Result<Option<GameValue>, IniErrorKind> {
    match value {
        "win" => Ok(Some(GameValue::Win)),
        "loss" => Ok(Some(GameValue::Loss)),
        "draw" => Ok(Some(GameValue::Draw)),
        "none" => Ok(None),
        _ => Err(bad(value, "win, loss, draw or none")),
    }
}
