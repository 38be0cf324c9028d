//! Start positions: the fixed ones, Chess960 by its standard number, and
//! Ajax Modern Random Chess by the numbering of docs/rules.md §3.

use crate::fen::FenError;
use crate::position::Position;
use crate::variant::{Setup, Variant, VariantKind};
use std::sync::OnceLock;

/// Number of AMRC start positions.
pub const AMRC_START_COUNT: u32 = 15_120;
/// Number of Chess960 start positions.
pub const CHESS960_START_COUNT: u32 = 960;
/// The Chess960 number of the orthodox array RNBQKBNR.
pub const CHESS960_ORTHODOX: u32 = 518;
/// The AMRC number of RNBKQABNR, the arrangement of Fairy-Stockfish's `ajaxrandom` start.
pub const AMRC_DEFAULT: u32 = 13_602;

/// Which start position to set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartSpec {
    /// The variant's default: its only start, Chess960 518, or AMRC RNBKQABNR.
    Default,
    /// A numbered start (Chess960 0..960, AMRC 0..15120).
    Number(u32),
    /// White's first rank as letters, a→h / a→i (`RNBQKBNR`, `RNBKQABNR`).
    Rank1(String),
}

/// A start that does not exist.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StartError {
    /// The number is out of range for the variant.
    #[error("start number {number} is out of range: {variant} has starts 0..{count}")]
    OutOfRange {
        /// The variant's name.
        variant: String,
        /// Number given.
        number: u32,
        /// How many starts it has.
        count: u32,
    },
    /// The variant has one start and takes no number.
    #[error("{0} has a single start position; it takes no start number")]
    SingleStart(String),
    /// The rank string is not a valid start of the variant.
    #[error("'{text}' is not a {variant} start: {why}")]
    BadRank1 {
        /// The variant's name.
        variant: String,
        /// Text given.
        text: String,
        /// What is wrong.
        why: &'static str,
    },
    /// Internal: the generated FEN did not parse.
    #[error(transparent)]
    Fen(#[from] FenError),
}

/// Every AMRC first rank, sorted in ASCII order (index = start number).
fn amrc_arrays() -> &'static [[u8; 9]] {
    static ARRAYS: OnceLock<Vec<[u8; 9]>> = OnceLock::new();
    ARRAYS.get_or_init(|| {
        let mut letters = *b"ABBKNNQRR";
        let mut out = Vec::with_capacity(AMRC_START_COUNT as usize);
        loop {
            if king_between_rooks(&letters) {
                out.push(letters);
            }
            if !next_permutation(&mut letters) {
                break;
            }
        }
        out
    })
}

fn king_between_rooks(rank: &[u8]) -> bool {
    let rooks: Vec<usize> = rank
        .iter()
        .enumerate()
        .filter(|(_, c)| **c == b'R')
        .map(|(i, _)| i)
        .collect();
    let king = rank.iter().position(|c| *c == b'K');
    matches!((rooks.as_slice(), king), ([a, b], Some(k)) if *a < k && k < *b)
}

/// Advances to the next lexicographic permutation; false after the last.
fn next_permutation(v: &mut [u8]) -> bool {
    let Some(i) = (1..v.len()).rev().find(|&i| v[i - 1] < v[i]) else {
        return false;
    };
    let j = (i..v.len()).rev().find(|&j| v[j] > v[i - 1]).unwrap_or(i);
    v.swap(i - 1, j);
    v[i..].reverse();
    true
}

/// White's first rank of AMRC start `number`.
pub fn amrc_rank1(number: u32) -> Option<String> {
    amrc_arrays()
        .get(number as usize)
        .map(|a| String::from_utf8_lossy(a).into_owned())
}

/// The AMRC number of White's first rank `text` (upper case letters a→i).
pub fn amrc_number(text: &str) -> Option<u32> {
    let bytes: [u8; 9] = text.as_bytes().try_into().ok()?;
    amrc_arrays()
        .binary_search(&bytes)
        .ok()
        .and_then(|i| u32::try_from(i).ok())
}

/// White's first rank of Chess960 start `number` (Scharnagl numbering).
pub fn chess960_rank1(number: u32) -> Option<String> {
    if number >= CHESS960_START_COUNT {
        return None;
    }
    let mut rank = [0u8; 8];
    let mut n = number as usize;
    rank[2 * (n % 4) + 1] = b'B';
    n /= 4;
    rank[2 * (n % 4)] = b'B';
    n /= 4;
    let place_nth_empty = |rank: &mut [u8; 8], nth: usize, piece: u8| {
        if let Some(i) = rank
            .iter()
            .enumerate()
            .filter(|(_, c)| **c == 0)
            .nth(nth)
            .map(|(i, _)| i)
        {
            rank[i] = piece;
        }
    };
    place_nth_empty(&mut rank, n % 6, b'Q');
    n /= 6;
    const KNIGHTS: [(usize, usize); 10] = [
        (0, 1),
        (0, 2),
        (0, 3),
        (0, 4),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 3),
        (2, 4),
        (3, 4),
    ];
    let (a, b) = KNIGHTS[n];
    // Place the second knight first so the first one's index still counts empties correctly.
    place_nth_empty(&mut rank, b, b'N');
    place_nth_empty(&mut rank, a, b'N');
    for piece in [b'R', b'K', b'R'] {
        place_nth_empty(&mut rank, 0, piece);
    }
    Some(String::from_utf8_lossy(&rank).into_owned())
}

/// The Chess960 number of White's first rank `text`.
pub fn chess960_number(text: &str) -> Option<u32> {
    (0..CHESS960_START_COUNT).find(|&n| chess960_rank1(n).as_deref() == Some(text))
}

impl Position {
    /// The start position `spec` of the built-in `variant`.
    ///
    /// # Errors
    /// [`StartError`] if the variant has no such start.
    pub fn start(variant: VariantKind, spec: &StartSpec) -> Result<Position, StartError> {
        Position::start_in(variant.variant(), spec)
    }

    /// The start position `spec` of the loaded `variant`; with
    /// [`StartSpec::Default`], the file's `startFen` (for a numbered setup,
    /// the start of its number: 518 and [`AMRC_DEFAULT`] for the
    /// built-ins).
    ///
    /// # Errors
    /// [`StartError`] if the variant has no such start, or its FEN does
    /// not parse (never for a variant that [`Variant::load`] accepted).
    pub fn start_in(variant: &'static Variant, spec: &StartSpec) -> Result<Position, StartError> {
        match &variant.def.setup {
            Setup::Fixed(fen) => match spec {
                StartSpec::Default => Ok(Position::from_fen_in(variant, fen)?),
                _ => Err(StartError::SingleStart(variant.name().to_owned())),
            },
            Setup::Chess960 { default } => {
                let rank = match spec {
                    StartSpec::Default => chess960_rank1(*default),
                    StartSpec::Number(n) => chess960_rank1(*n),
                    StartSpec::Rank1(text) => chess960_number(text).and_then(chess960_rank1),
                };
                let rank = rank.ok_or_else(|| start_error(variant, spec, CHESS960_START_COUNT))?;
                let fen = format!(
                    "{}/pppppppp/8/8/8/8/PPPPPPPP/{rank} w KQkq - 0 1",
                    rank.to_ascii_lowercase()
                );
                Ok(Position::from_fen_in(variant, &fen)?)
            }
            Setup::ModernRandom { default } => {
                let rank = match spec {
                    StartSpec::Default => amrc_rank1(*default),
                    StartSpec::Number(n) => amrc_rank1(*n),
                    StartSpec::Rank1(text) => amrc_number(text).and_then(amrc_rank1),
                };
                let rank = rank.ok_or_else(|| start_error(variant, spec, AMRC_START_COUNT))?;
                let black: String = rank.chars().rev().collect::<String>().to_ascii_lowercase();
                let fen = format!(
                    "{black}/ppppppppp/9/9/9/9/9/PPPPPPPPP/{rank}[MMmm] w ABCDEFGHIabcdefghi - 0 1"
                );
                Ok(Position::from_fen_in(variant, &fen)?)
            }
        }
    }

    /// The start number of this position's variant for `rank1`, if numbered.
    pub fn start_number(variant: VariantKind, rank1: &str) -> Option<u32> {
        match &variant.variant().def.setup {
            Setup::Fixed(_) => None,
            Setup::Chess960 { .. } => chess960_number(rank1),
            Setup::ModernRandom { .. } => amrc_number(rank1),
        }
    }
}

impl Variant {
    /// How many numbered starts the variant has (Chess960's 960, AMRC's
    /// 15,120), or `None` when it has one start.
    pub fn start_count(&self) -> Option<u32> {
        match &self.def.setup {
            Setup::Fixed(_) => None,
            Setup::Chess960 { .. } => Some(CHESS960_START_COUNT),
            Setup::ModernRandom { .. } => Some(AMRC_START_COUNT),
        }
    }
}

fn start_error(variant: &Variant, spec: &StartSpec, count: u32) -> StartError {
    let name = variant.name().to_owned();
    match spec {
        StartSpec::Number(number) => StartError::OutOfRange {
            variant: name,
            number: *number,
            count,
        },
        StartSpec::Rank1(text) => StartError::BadRank1 {
            variant: name,
            text: text.clone(),
            why: if matches!(variant.def.setup, Setup::ModernRandom { .. }) {
                "it must hold K, Q, A, two R, two B and two N (upper case, a to i) with the king between the rooks"
            } else {
                "it must be one of the 960 arrays (upper case, a to h)"
            },
        },
        StartSpec::Default => unreachable!("the default start always exists"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amrc_has_15120_starts() {
        assert_eq!(amrc_arrays().len(), AMRC_START_COUNT as usize);
    }

    #[test]
    fn chess960_numbering_is_scharnagl() {
        assert_eq!(chess960_rank1(518).as_deref(), Some("RNBQKBNR"));
        assert_eq!(chess960_rank1(0).as_deref(), Some("BBQNNRKR"));
        assert_eq!(chess960_rank1(959).as_deref(), Some("RKRNNQBB"));
        assert_eq!(chess960_rank1(121).as_deref(), Some("NQRBBNKR"));
        assert_eq!(chess960_rank1(327).as_deref(), Some("NRBQKRNB"));
        let all: std::collections::HashSet<String> = (0..960).filter_map(chess960_rank1).collect();
        assert_eq!(all.len(), 960);
    }
}
