//! Direction modifiers and the targets they select.
//!
//! An atom (long, short) has eight labelled images: the long side runs
//! vertically (forward or backward, the short side to the right or left) or
//! horizontally (right or left, the short side forward or backward). A
//! single letter picks images by their long direction; a pair picks by long
//! direction (second letter) and side (first letter). Images that coincide
//! (orthogonal and diagonal atoms) give one target.

use super::{Atom, BetzaErrorKind, Offset};

/// One direction modifier as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum DirectionSpec {
    /// `f`, `ff`, `s`, …: the long direction.
    Single(char),
    /// `rf`, `fs`, …: side letter, then long direction.
    Pair {
        /// The side (short) letter.
        side: char,
        /// The long-direction letter.
        long: char,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Axis {
    Vertical,
    Horizontal,
}

fn axis(letter: char) -> Axis {
    if matches!(letter, 'f' | 'b' | 'v') {
        Axis::Vertical
    } else {
        Axis::Horizontal
    }
}

/// Whether `letter` accepts an image whose coordinate along its axis has `sign`.
fn sign_ok(letter: char, sign: i8) -> bool {
    match letter {
        'f' | 'r' => sign > 0,
        'b' | 'l' => sign < 0,
        _ => true,
    }
}

impl DirectionSpec {
    /// Whether `c` is a direction letter.
    pub(super) fn is_letter(c: char) -> bool {
        matches!(c, 'f' | 'b' | 'v' | 'l' | 'r' | 's')
    }

    /// Reads the modifier starting with `c` (followed by `next`), returning
    /// it and how many characters it took.
    pub(super) fn read(
        c: char,
        next: Option<char>,
    ) -> Result<(DirectionSpec, usize), BetzaErrorKind> {
        match next {
            Some(n) if n == c => Ok((DirectionSpec::Single(c), 2)),
            Some(n) if DirectionSpec::is_letter(n) && axis(n) != axis(c) => {
                if matches!(c, 'v' | 's') {
                    return Err(BetzaErrorKind::EmptyDirection(format!("{c}{n}")));
                }
                Ok((DirectionSpec::Pair { side: c, long: n }, 2))
            }
            _ => Ok((DirectionSpec::Single(c), 1)),
        }
    }

    fn accepts(self, image: Image, split_pairs: bool) -> bool {
        let single = |l: char| axis(l) == image.axis && sign_ok(l, image.long_sign);
        match self {
            DirectionSpec::Single(l) => single(l),
            DirectionSpec::Pair { side, long } if split_pairs => single(side) || single(long),
            DirectionSpec::Pair { side, long } => single(long) && sign_ok(side, image.side_sign),
        }
    }
}

#[derive(Clone, Copy)]
struct Image {
    axis: Axis,
    long_sign: i8,
    side_sign: i8,
}

/// The targets of `atom` that `specs` select (all when `specs` is empty).
/// `split_pairs`: the atom is a single orthogonal one, where a pair means
/// the union of its two letters.
pub(super) fn select(atom: Atom, specs: &[DirectionSpec], split_pairs: bool) -> Vec<Offset> {
    let split = split_pairs && atom.short == 0;
    let mut offsets = Vec::new();
    for axis in [Axis::Vertical, Axis::Horizontal] {
        for long_sign in [1, -1] {
            for side_sign in [1, -1] {
                let image = Image {
                    axis,
                    long_sign,
                    side_sign,
                };
                if !specs.is_empty() && !specs.iter().any(|s| s.accepts(image, split)) {
                    continue;
                }
                let (long, side) = (long_sign * atom.long, side_sign * atom.short);
                offsets.push(match axis {
                    Axis::Vertical => Offset { dx: side, dy: long },
                    Axis::Horizontal => Offset { dx: long, dy: side },
                });
            }
        }
    }
    offsets.sort_unstable();
    offsets.dedup();
    offsets
}
