//! Openings: which start positions a match plays, each optionally followed
//! by a few random legal plies. Every opening is played twice, colours
//! swapped.

use crate::imbalance::{Imbalance, ImbalanceError};
use ajaxlab_rules::{
    AMRC_START_COUNT, CHESS960_START_COUNT, Color, Move, Position, StartSpec, VariantKind,
};
use ajaxlab_stats::{RandomSource, SplitMix64};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

thread_local! {
    /// Playable moves of recently seen positions, by hash (the position is
    /// kept to rule out collisions). Random openings start from few
    /// positions, so most plies are looked up rather than worked out: a
    /// coordinator picks one opening per pair it validates.
    static PLAYABLE: RefCell<HashMap<u64, (Position, Vec<Move>)>> = RefCell::new(HashMap::new());
}

/// Entries kept before the cache starts again: about 2 MB a thread, since
/// a coordinator validates on many threads at once.
const PLAYABLE_CACHE_ENTRIES: usize = 1 << 12;

/// Calls `f` with the legal moves of `pos` that leave the opponent a move
/// (a random opening never walks into a finished game), in generation order.
fn with_playable_moves<R>(pos: &Position, f: impl FnOnce(&[Move]) -> R) -> R {
    PLAYABLE.with_borrow_mut(|cache| {
        if let Some((seen, moves)) = cache.get(&pos.hash())
            && seen == pos
        {
            return f(moves);
        }
        let playable: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| {
                let mut next = *pos;
                next.play_unchecked(m);
                next.has_legal_move()
            })
            .collect();
        let answer = f(&playable);
        if cache.len() >= PLAYABLE_CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(pos.hash(), (*pos, playable));
        answer
    })
}

/// Where start positions come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// The variant's default start.
    Start,
    /// A uniformly random numbered start (AMRC 0..15120, Chess960 0..960).
    RandomNumber,
    /// A numbered start drawn uniformly from `first..=last`.
    NumberRange(u32, u32),
    /// Numbered starts drawn from a list.
    Numbers(Vec<u32>),
    /// Positions drawn from a FEN/EPD list.
    Fens(Vec<String>),
}

impl std::fmt::Display for OpeningSource {
    /// Short enough for a log line: a FEN list shows its size, not its positions.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpeningSource::Start => write!(f, "start"),
            OpeningSource::RandomNumber => write!(f, "random"),
            OpeningSource::NumberRange(a, b) => write!(f, "range:{a}-{b}"),
            OpeningSource::Numbers(list) => write!(f, "{} numbered starts", list.len()),
            OpeningSource::Fens(fens) => write!(f, "{} positions from a file", fens.len()),
        }
    }
}

/// A bad opening specification.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// Unknown or malformed spec text.
    #[error(
        "openings '{0}': expected start, random, range:A-B, numbers:A,B,C, list:FILE (start numbers) or file:FILE (FEN/EPD lines)"
    )]
    Spec(String),
    /// Numbered starts asked of a variant that has one start.
    #[error("openings: {0} has a single start position; use start or file:FILE")]
    NotNumbered(VariantKind),
    /// A number or range outside the variant's starts.
    #[error("openings: start {number} is outside {variant}'s 0..{count}")]
    OutOfRange {
        /// Variant.
        variant: VariantKind,
        /// Offending number.
        number: u32,
        /// Number of starts.
        count: u32,
    },
    /// A file that cannot be read or holds a bad line.
    #[error("openings file {path}: {message}")]
    File {
        /// The file.
        path: String,
        /// What is wrong (with the line number).
        message: String,
    },
}

/// The openings of a match: a source and how many random plies follow.
#[derive(Clone, Debug)]
pub struct Openings {
    /// The variant.
    pub variant: VariantKind,
    /// Where starts come from.
    pub source: OpeningSource,
    /// Random legal plies played after the start.
    pub random_plies: u32,
    /// Material changed in every start, following the players.
    pub imbalance: Imbalance,
}

/// One opening, ready to play.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The start position (before random plies).
    pub start: Position,
    /// Its number, for numbered variants.
    pub start_number: Option<u32>,
    /// The random plies played from it.
    pub random_moves: Vec<Move>,
}

impl Opening {
    /// The random plies as UCI text.
    pub fn move_texts(&self) -> Vec<String> {
        self.start.uci_line(&self.random_moves)
    }

    /// The position after the random plies.
    pub fn position(&self) -> Position {
        let mut p = self.start;
        for &m in &self.random_moves {
            p.play_unchecked(m);
        }
        p
    }
}

fn start_count(variant: VariantKind) -> Option<u32> {
    match variant {
        VariantKind::AjaxModernRandom => Some(AMRC_START_COUNT),
        VariantKind::Chess960 => Some(CHESS960_START_COUNT),
        _ => None,
    }
}

/// Reads FEN or EPD lines (`#` comments and blank lines skipped); EPD lines
/// (four fields, then `;`-separated opcodes) get clocks `0 1`.
///
/// # Errors
/// [`OpeningError::File`] for an unreadable file or a line that is not a
/// position of `variant`, with its line number.
pub fn read_positions(variant: VariantKind, path: &Path) -> Result<Vec<String>, OpeningError> {
    let file_err = |message: String| OpeningError::File {
        path: path.display().to_string(),
        message,
    };
    let text = std::fs::read_to_string(path).map_err(|e| file_err(e.to_string()))?;
    let mut fens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let body = line.split(';').next().unwrap_or("").trim();
        let fields: Vec<&str> = body.split_whitespace().collect();
        // EPD clocks: `hmvc N;` and `fmvn N;` opcodes, else 0 and 1.
        let opcode = |name: &str| {
            line.split(';')
                .filter_map(|op| op.trim().strip_prefix(name))
                .find_map(|v| v.trim().parse::<u32>().ok())
        };
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else if fields.len() >= 4 {
            let first = body
                .split_whitespace()
                .take(4)
                .collect::<Vec<_>>()
                .join(" ");
            let hmvc = opcode("hmvc").or_else(|| {
                fields
                    .get(5)
                    .and_then(|v| v.parse().ok())
                    .filter(|_| fields.get(4) == Some(&"hmvc"))
            });
            format!(
                "{first} {} {}",
                hmvc.unwrap_or(0),
                opcode("fmvn").unwrap_or(1)
            )
        } else {
            return Err(file_err(format!(
                "line {}: not a FEN or EPD position",
                i + 1
            )));
        };
        Position::from_fen(variant, &fen).map_err(|e| file_err(format!("line {}: {e}", i + 1)))?;
        fens.push(fen);
    }
    if fens.is_empty() {
        return Err(file_err("no positions".into()));
    }
    Ok(fens)
}

impl Openings {
    /// Parses a spec: `start`, `random`, `range:A-B`, `numbers:A,B,C`,
    /// `list:FILE`, `file:FILE`.
    ///
    /// # Errors
    /// [`OpeningError`] naming what is wrong.
    pub fn parse(
        variant: VariantKind,
        spec: &str,
        random_plies: u32,
    ) -> Result<Openings, OpeningError> {
        let numbered = |source: OpeningSource| -> Result<OpeningSource, OpeningError> {
            let count = start_count(variant).ok_or(OpeningError::NotNumbered(variant))?;
            let check = |n: u32| {
                if n < count {
                    Ok(())
                } else {
                    Err(OpeningError::OutOfRange {
                        variant,
                        number: n,
                        count,
                    })
                }
            };
            match &source {
                OpeningSource::NumberRange(a, b) => {
                    check(*a)?;
                    check(*b)?;
                }
                OpeningSource::Numbers(list) => list.iter().try_for_each(|n| check(*n))?,
                _ => {}
            }
            Ok(source)
        };
        let source = match spec.split_once(':') {
            None if spec == "start" => OpeningSource::Start,
            None if spec == "random" => numbered(OpeningSource::RandomNumber)?,
            Some(("range", r)) => {
                let (a, b) = r
                    .split_once('-')
                    .ok_or_else(|| OpeningError::Spec(spec.into()))?;
                let a: u32 = a
                    .trim()
                    .parse()
                    .map_err(|_| OpeningError::Spec(spec.into()))?;
                let b: u32 = b
                    .trim()
                    .parse()
                    .map_err(|_| OpeningError::Spec(spec.into()))?;
                if a > b {
                    return Err(OpeningError::Spec(spec.into()));
                }
                numbered(OpeningSource::NumberRange(a, b))?
            }
            Some(("numbers", list)) => {
                let numbers = list
                    .split(',')
                    .map(|n| n.trim().parse::<u32>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| OpeningError::Spec(spec.into()))?;
                numbered(OpeningSource::Numbers(numbers))?
            }
            Some(("list", file)) => {
                let path = Path::new(file);
                let text = std::fs::read_to_string(path).map_err(|e| OpeningError::File {
                    path: file.into(),
                    message: e.to_string(),
                })?;
                let numbers = text
                    .split(|c: char| c.is_whitespace() || c == ',')
                    .filter(|s| !s.is_empty())
                    .map(|s| {
                        s.parse::<u32>().map_err(|_| OpeningError::File {
                            path: file.into(),
                            message: format!("'{s}' is not a start number"),
                        })
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                if numbers.is_empty() {
                    return Err(OpeningError::File {
                        path: file.into(),
                        message: "no start numbers".into(),
                    });
                }
                numbered(OpeningSource::Numbers(numbers))?
            }
            Some(("file", file)) => OpeningSource::Fens(read_positions(variant, Path::new(file))?),
            _ => return Err(OpeningError::Spec(spec.into())),
        };
        Ok(Openings {
            variant,
            source,
            random_plies,
            imbalance: Imbalance::default(),
        })
    }

    /// Every start this source can give (for checking an imbalance against
    /// each); a random numbered source gives all of the variant's starts.
    fn all_starts(&self) -> Vec<Position> {
        let numbers: Vec<u32> = match &self.source {
            OpeningSource::Start => return vec![self.numbered_start(None)],
            OpeningSource::Fens(fens) => {
                return fens
                    .iter()
                    .filter_map(|f| Position::from_fen(self.variant, f).ok())
                    .collect();
            }
            OpeningSource::RandomNumber => (0..start_count(self.variant).unwrap_or(1)).collect(),
            OpeningSource::NumberRange(a, b) => (*a..=*b).collect(),
            OpeningSource::Numbers(list) => list.clone(),
        };
        numbers
            .into_iter()
            .map(|n| self.numbered_start(Some(n)))
            .collect()
    }

    /// Checks that the imbalance fits every start, with the first player on
    /// either colour, so that no game can meet an edit that does not apply.
    ///
    /// # Errors
    /// The first edit that does not fit, with the start it fails on.
    pub fn check_imbalance(&self) -> Result<(), ImbalanceError> {
        if self.imbalance.is_empty() {
            return Ok(());
        }
        for start in self.all_starts() {
            for color in [Color::White, Color::Black] {
                self.imbalance
                    .apply(&start, color)
                    .map_err(|e| ImbalanceError {
                        message: format!("{} (start {})", e.message, start.fen()),
                        ..e
                    })?;
            }
        }
        Ok(())
    }

    /// The opening of game `game_in_pair` (0 or 1) of a pair, fixed by
    /// `seed`. Both games share the start; an imbalance edits the first
    /// player's side, which is White in game 0 and Black in game 1, and the
    /// random plies are drawn afterwards from the same seed.
    pub fn pick(&self, seed: u64, game_in_pair: u64) -> Opening {
        let mut rng = SplitMix64::new(seed);
        let mut below = |n: u32| (rng.next_u64() % u64::from(n.max(1))) as u32;
        let (start, start_number) = match &self.source {
            OpeningSource::Start => (self.numbered_start(None), None),
            OpeningSource::RandomNumber => {
                let n = below(start_count(self.variant).unwrap_or(1));
                (self.numbered_start(Some(n)), Some(n))
            }
            OpeningSource::NumberRange(a, b) => {
                let n = a + below(b - a + 1);
                (self.numbered_start(Some(n)), Some(n))
            }
            OpeningSource::Numbers(list) => {
                let n = list[below(list.len() as u32) as usize];
                (self.numbered_start(Some(n)), Some(n))
            }
            OpeningSource::Fens(fens) => {
                let fen = &fens[below(fens.len() as u32) as usize];
                let pos = Position::from_fen(self.variant, fen)
                    .unwrap_or_else(|_| self.numbered_start(None));
                (pos, None)
            }
        };
        let start = if self.imbalance.is_empty() {
            start
        } else {
            let first = if game_in_pair == 0 {
                Color::White
            } else {
                Color::Black
            };
            // `check_imbalance` has tried every start, so this cannot fail.
            self.imbalance.apply(&start, first).unwrap_or(start)
        };
        let mut random_moves = Vec::new();
        let mut pos = start;
        for _ in 0..self.random_plies {
            let Some(m) = with_playable_moves(&pos, |playable| {
                (!playable.is_empty()).then(|| playable[below(playable.len() as u32) as usize])
            }) else {
                break;
            };
            pos.play_unchecked(m);
            random_moves.push(m);
        }
        Opening {
            start,
            start_number,
            random_moves,
        }
    }

    fn numbered_start(&self, number: Option<u32>) -> Position {
        let spec = number.map_or(StartSpec::Default, StartSpec::Number);
        Position::start(self.variant, &spec)
            .or_else(|_| Position::start(self.variant, &StartSpec::Default))
            .unwrap_or_else(|e| unreachable!("the default start exists: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The random plies of `openings.pick(seed, 0)` for seeds `0..n`.
    fn lines(openings: &Openings, n: u64) -> Vec<Vec<Move>> {
        (0..n)
            .map(|seed| openings.pick(seed, 0).random_moves)
            .collect()
    }

    #[test]
    fn random_plies_are_legal_and_never_end_the_game() {
        for variant in VariantKind::ALL {
            let openings = Openings::parse(variant, "start", 6).unwrap();
            for seed in 0..200 {
                let opening = openings.pick(seed, 0);
                let mut pos = opening.start;
                for &m in &opening.random_moves {
                    assert!(pos.is_legal(m), "{variant}: seed {seed}");
                    pos.play_unchecked(m);
                    assert!(pos.has_legal_move(), "{variant}: seed {seed}");
                }
                assert_eq!(opening.random_moves.len(), 6, "{variant}: seed {seed}");
            }
        }
    }

    #[test]
    fn a_pick_is_the_same_whatever_the_cache_holds() {
        let openings = Openings::parse(VariantKind::AjaxFalcon, "start", 3).unwrap();
        // This thread's cache fills as it goes; a new thread starts empty.
        let warm = lines(&openings, 300);
        let again = lines(&openings, 300);
        let fresh = std::thread::spawn({
            let openings = openings.clone();
            move || lines(&openings, 300)
        })
        .join()
        .unwrap();
        assert_eq!(warm, again);
        assert_eq!(warm, fresh);
        // And the seeds do spread the openings.
        let distinct: std::collections::HashSet<_> = warm.iter().collect();
        assert!(distinct.len() > 250, "{}", distinct.len());
    }
}
