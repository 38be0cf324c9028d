//! A parsed step as the move generator's [`Component`]: the one place that
//! decides which Betza steps the rules model plays.

use super::{Atom, Offset, Range, Reach, Step};
use crate::variant::{Component, Geometry, Lines};
use std::num::NonZeroU8;

/// Why a step is outside what the rules model plays.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unplayable {
    /// The step goes in only some directions of its atom.
    #[error(
        "moves in only some directions of the ({},{}) atom; the rules model plays pieces the same in every direction",
        .0.long, .0.short
    )]
    Asymmetric(Atom),
    /// A rider limited to a number of squares.
    #[error("rides at most {0} squares; the rules model's riders are unlimited")]
    LimitedRide(NonZeroU8),
    /// A rider of an atom other than W and F.
    #[error(
        "rides the ({},{}) atom; the rules model slides along ranks, files and diagonals only",
        .0.long, .0.short
    )]
    ObliqueRide(Atom),
}

impl Step {
    /// The step as a component of a piece definition, or why the rules
    /// model cannot play it. A leap or lame leap is given by one
    /// representative, as the built-in definitions give theirs: a leap by
    /// `(long, short)`, a lame leap by the unit steps of its path to
    /// `(short, long)` (forward first, the Falcon's horse and elephant).
    ///
    /// # Errors
    /// [`Unplayable`] for a step that moves in only some directions, rides
    /// a limited distance, or rides an atom other than W and F.
    pub fn component(&self) -> Result<Component, Unplayable> {
        if !self.is_symmetric() {
            return Err(Unplayable::Asymmetric(self.atom));
        }
        let Atom { long, short } = self.atom;
        let geometry = match self.reach {
            Reach::Leap => Geometry::Leap(long, short),
            Reach::Lame => {
                let target = Offset {
                    dx: short,
                    dy: long,
                };
                let mut squares = Step::lame_path(target);
                squares.push(target);
                let mut at = Offset { dx: 0, dy: 0 };
                let unit_steps = squares
                    .into_iter()
                    .map(|next| {
                        let unit = (next.dx - at.dx, next.dy - at.dy);
                        at = next;
                        unit
                    })
                    .collect();
                Geometry::Lame(unit_steps)
            }
            Reach::Ride(Range::Limited(n)) => return Err(Unplayable::LimitedRide(n)),
            Reach::Ride(Range::Unlimited) => match (long, short) {
                (1, 0) => Geometry::Slide(Lines::Orthogonal),
                (1, 1) => Geometry::Slide(Lines::Diagonal),
                _ => return Err(Unplayable::ObliqueRide(self.atom)),
            },
        };
        Ok(Component {
            geometry,
            mode: self.mode,
        })
    }
}
