//! Betza's notation for how a piece moves, in the dialect Fairy-Stockfish
//! reads in `customPieceN = letter:Betza` (its `piece.cpp`).
//!
//! The result is a typed [`PieceMoves`]: a list of [`Step`]s, each one atom
//! (an offset such as the knight's (2,1)) with the target offsets its
//! direction modifiers select, how it travels (leap, lame leap, ride) and
//! what it may land on. Whether the rules model can play a description is a
//! separate question ([`Step::is_symmetric`], and the variants reader).
//!
//! Fairy-Stockfish's dialect, as read here:
//! - atoms `W F D N A H C Z G` (and its aliases `L` = `C`, `J` = `Z`), `K` =
//!   `WF`; riders `R B Q` (= `WW FF KK`); a doubled atom letter rides
//!   without limit, an atom followed by one digit `1..9` rides that far;
//! - `m` move only, `c` capture only, both or neither: move and capture;
//! - `n` makes the leapers `D N A Z` lame: the squares on their path must
//!   be empty (Fairy-Stockfish has lame leapers for these four only);
//! - directions `f b l r v s`, alone, doubled (`ff` = `f`) or combined
//!   across the axes (`fr`, `rf`, `fs`, `lv`, …). Unlike Müller's Betza, a
//!   single `f` on an oblique atom selects the narrow pair only (`fN` is the
//!   shogi knight); in a pair the second letter names the long direction and
//!   the first the side (`rfN` = (1,2), `frN` = (2,1)); on a single
//!   orthogonal atom a pair is the union of its letters (`fsW` = forward and
//!   sideways).
//!
//! Everything else is refused with its position: hoppers (`p`, `g`),
//! initial moves (`i`), the chiral `h` directions, `e` (en passant), and any
//! character the dialect does not know. Fairy-Stockfish skips such
//! characters silently; a designer would rather be told.

mod directions;
mod lower;

use crate::variant::Mode;
use directions::{DirectionSpec, select};
use std::fmt;
use std::num::NonZeroU8;

pub use lower::Unplayable;

/// A target offset from the mover's point of view: `dx` towards the high
/// files, `dy` forward (towards the opponent).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Offset {
    /// Files towards `h` and beyond.
    pub dx: i8,
    /// Ranks forward.
    pub dy: i8,
}

/// A leap shape, long side first: W = (1,0), N = (2,1), Z = (3,2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Atom {
    /// The longer side.
    pub long: i8,
    /// The shorter side (0 for orthogonal atoms).
    pub short: i8,
}

impl Atom {
    /// Every distinct target of the atom (4 or 8 offsets).
    pub fn all_offsets(self) -> Vec<Offset> {
        select(self, &[], false)
    }
}

/// How far a step may go between target offsets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Range {
    /// Until blocked or off the board.
    Unlimited,
    /// At most this many atom steps.
    Limited(NonZeroU8),
}

/// How a step travels to its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// Jumps over anything.
    Leap,
    /// Jumps only if every square of its path ([`Step::lame_path`]) is empty.
    Lame,
    /// Repeats the atom along a line while the squares are empty.
    Ride(Range),
}

/// One atom of a piece's move: where it goes, how, and onto what.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The shape.
    pub atom: Atom,
    /// The selected targets, sorted, without repeats.
    pub offsets: Vec<Offset>,
    /// Leap, lame leap or ride.
    pub reach: Reach,
    /// What it may land on.
    pub mode: Mode,
}

impl Step {
    /// Whether the step goes in every direction of its atom, as every
    /// piece of the rules model does.
    pub fn is_symmetric(&self) -> bool {
        self.offsets == self.atom.all_offsets()
    }

    /// The squares a lame leap to `to` passes, from the mover's square
    /// outwards (Fairy-Stockfish's path: step along the axis with the larger
    /// remaining distance, diagonally when they are equal).
    pub fn lame_path(to: Offset) -> Vec<Offset> {
        let mut path = Vec::new();
        let mut at = Offset { dx: 0, dy: 0 };
        while at != to {
            let (rx, ry) = (to.dx - at.dx, to.dy - at.dy);
            if rx.abs() >= ry.abs() {
                at.dx += rx.signum();
            }
            if ry.abs() >= rx.abs() {
                at.dy += ry.signum();
            }
            if at != to {
                path.push(at);
            }
        }
        path
    }
}

/// A piece's moves: the union of its steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceMoves {
    /// The steps, in the order written.
    pub steps: Vec<Step>,
}

/// What is wrong in a Betza string.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BetzaErrorKind {
    /// The string is empty: a piece without moves.
    #[error("no moves: the string is empty")]
    Empty,
    /// A character the dialect does not know.
    #[error("unknown character '{0}'")]
    UnknownChar(char),
    /// A construct Fairy-Stockfish has that ajaxlab does not read.
    #[error("'{construct}' ({what}) is not supported")]
    Unsupported {
        /// The character.
        construct: char,
        /// What it means in Fairy-Stockfish.
        what: &'static str,
    },
    /// Modifiers at the end with no atom after them.
    #[error("modifiers '{0}' are not followed by an atom")]
    DanglingModifiers(String),
    /// `n` before a rider (Fairy-Stockfish ignores it there).
    #[error("'n' (lame) applies to leapers only, not to the rider '{0}'")]
    LameRider(char),
    /// `n` before an atom Fairy-Stockfish has no lame leaper for.
    #[error("'n' (lame) applies to D, N, A and Z only, not to '{0}'")]
    LameAtom(char),
    /// A range of 0, or of more than one digit.
    #[error("range '{0}' is not a digit 1..9")]
    BadRange(String),
    /// A direction pair whose side letter is not one-sided (`vs`, `sv`).
    #[error("direction '{0}' selects no move (the side letter must be f, b, l or r)")]
    EmptyDirection(String),
    /// Direction modifiers that select none of the atom's targets.
    #[error("directions '{directions}' select none of the targets of '{atom}'")]
    NoTarget {
        /// The modifiers.
        directions: String,
        /// The atom letter.
        atom: char,
    },
}

/// A Betza string that does not parse, with the 1-based position of the
/// offending character.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("Betza '{text}' at position {position}: {kind}")]
pub struct BetzaError {
    /// The whole string.
    pub text: String,
    /// 1-based character position of the construct.
    pub position: usize,
    /// What is wrong.
    pub kind: BetzaErrorKind,
}

/// The atoms Fairy-Stockfish moves as lame leapers (`nD`, `nN`, `nA`,
/// `nZ`); on any other atom its `n` leaves the piece without that move.
const LAME_ATOMS: [Atom; 4] = [
    Atom { long: 2, short: 0 },
    Atom { long: 2, short: 1 },
    Atom { long: 2, short: 2 },
    Atom { long: 3, short: 2 },
];

/// The atoms a letter stands for and whether it rides by itself.
fn atoms_of(letter: char) -> Option<(&'static [Atom], bool)> {
    const W: &[Atom] = &[Atom { long: 1, short: 0 }];
    const F: &[Atom] = &[Atom { long: 1, short: 1 }];
    const WF: &[Atom] = &[Atom { long: 1, short: 0 }, Atom { long: 1, short: 1 }];
    Some(match letter {
        'W' => (W, false),
        'F' => (F, false),
        'D' => (&[Atom { long: 2, short: 0 }], false),
        'N' => (&[Atom { long: 2, short: 1 }], false),
        'A' => (&[Atom { long: 2, short: 2 }], false),
        'H' => (&[Atom { long: 3, short: 0 }], false),
        'C' | 'L' => (&[Atom { long: 3, short: 1 }], false),
        'Z' | 'J' => (&[Atom { long: 3, short: 2 }], false),
        'G' => (&[Atom { long: 3, short: 3 }], false),
        'K' => (WF, false),
        'R' => (W, true),
        'B' => (F, true),
        'Q' => (WF, true),
        _ => return None,
    })
}

fn unsupported(c: char) -> Option<&'static str> {
    Some(match c {
        'p' => "hopper",
        'g' => "grasshopper",
        'i' => "initial move",
        'h' => "chiral direction modifier",
        'e' => "en passant capture",
        _ => return None,
    })
}

/// Modifiers read since the last atom.
#[derive(Default)]
struct Pending {
    start: Option<usize>,
    text: String,
    moves: bool,
    captures: bool,
    lame: bool,
    directions: Vec<DirectionSpec>,
}

impl Pending {
    fn mode(&self) -> Mode {
        match (self.moves, self.captures) {
            (true, false) => Mode::MoveOnly,
            (false, true) => Mode::CaptureOnly,
            _ => Mode::MoveAndCapture,
        }
    }
}

impl PieceMoves {
    /// Parses a Betza string of Fairy-Stockfish's dialect.
    ///
    /// # Errors
    /// [`BetzaError`] naming the first construct that does not parse and
    /// its position.
    pub fn parse(text: &str) -> Result<PieceMoves, BetzaError> {
        let fail = |position: usize, kind| BetzaError {
            text: text.to_owned(),
            position,
            kind,
        };
        let chars: Vec<char> = text.chars().collect();
        if chars.is_empty() {
            return Err(fail(1, BetzaErrorKind::Empty));
        }
        let mut steps = Vec::new();
        let mut pending = Pending::default();
        let mut i = 0;
        while i < chars.len() {
            let c = chars[i];
            let position = i + 1;
            if let Some((atoms, rides)) = atoms_of(c) {
                let (range, used) = range_after(&chars[i + 1..], c, rides)
                    .map_err(|kind| fail(position + 1, kind))?;
                let reach = match (range, pending.lame) {
                    (Some(_), true) => return Err(fail(position, BetzaErrorKind::LameRider(c))),
                    (Some(range), false) => Reach::Ride(range),
                    (None, true) if atoms.iter().all(|a| LAME_ATOMS.contains(a)) => Reach::Lame,
                    (None, true) => return Err(fail(position, BetzaErrorKind::LameAtom(c))),
                    (None, false) => Reach::Leap,
                };
                let split = atoms.len() == 1;
                for &a in atoms {
                    let offsets = select(a, &pending.directions, split);
                    if offsets.is_empty() {
                        let kind = BetzaErrorKind::NoTarget {
                            directions: pending.text.clone(),
                            atom: c,
                        };
                        return Err(fail(pending.start.unwrap_or(position), kind));
                    }
                    let mode = pending.mode();
                    steps.push(Step {
                        atom: a,
                        offsets,
                        reach,
                        mode,
                    });
                }
                pending = Pending::default();
                i += 1 + used;
                continue;
            }
            pending.start.get_or_insert(position);
            match c {
                'm' => pending.moves = true,
                'c' => pending.captures = true,
                'n' => pending.lame = true,
                _ if DirectionSpec::is_letter(c) => {
                    let next = chars.get(i + 1).copied();
                    let (spec, used) =
                        DirectionSpec::read(c, next).map_err(|kind| fail(position, kind))?;
                    pending.directions.push(spec);
                    pending.text.extend(&chars[i..i + used]);
                    i += used;
                    continue;
                }
                _ => {
                    let kind = match unsupported(c) {
                        Some(what) => BetzaErrorKind::Unsupported { construct: c, what },
                        None => BetzaErrorKind::UnknownChar(c),
                    };
                    return Err(fail(position, kind));
                }
            }
            pending.text.push(c);
            i += 1;
        }
        if let Some(start) = pending.start {
            let rest: String = chars[start - 1..].iter().collect();
            return Err(fail(start, BetzaErrorKind::DanglingModifiers(rest)));
        }
        Ok(PieceMoves { steps })
    }
}

/// The range written after atom `letter` (a repeated letter or one digit),
/// and how many characters it took; `None` for a leaper.
fn range_after(
    rest: &[char],
    letter: char,
    rides: bool,
) -> Result<(Option<Range>, usize), BetzaErrorKind> {
    match rest.first() {
        Some(&d) if d.is_ascii_digit() => {
            if rest.get(1).is_some_and(char::is_ascii_digit) {
                let digits: String = rest.iter().take_while(|c| c.is_ascii_digit()).collect();
                return Err(BetzaErrorKind::BadRange(digits));
            }
            let n = d
                .to_digit(10)
                .and_then(|n| u8::try_from(n).ok())
                .and_then(NonZeroU8::new)
                .ok_or_else(|| BetzaErrorKind::BadRange(d.to_string()))?;
            Ok((Some(Range::Limited(n)), 1))
        }
        Some(&l) if l == letter => Ok((Some(Range::Unlimited), 1)),
        _ if rides => Ok((Some(Range::Unlimited), 0)),
        _ => Ok((None, 0)),
    }
}

impl std::str::FromStr for PieceMoves {
    type Err = BetzaError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        PieceMoves::parse(s)
    }
}

impl fmt::Display for Offset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{})", self.dx, self.dy)
    }
}

#[cfg(test)]
mod tests;
