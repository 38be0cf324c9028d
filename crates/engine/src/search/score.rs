//! Scores: mates as distances from the root, how UCI reports a score, and
//! how the transposition table keeps mates (as distances from the node).

use super::MAX_PLY;

/// Score of delivering mate now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Above any score a search returns.
pub(super) const INFINITY: i32 = 31_000;
/// Scores beyond this are mates found within the search's deepest ply.
pub(super) const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    pub(super) fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score + 1) / 2)
        } else {
            Score::Centipawns(score)
        }
    }

    /// Centipawns, with mates as ±(30000 − plies) for arithmetic (adjudication).
    pub fn to_centipawns(self) -> i32 {
        match self {
            Score::Centipawns(cp) => cp,
            Score::Mate(n) if n > 0 => MATE - (2 * n - 1),
            Score::Mate(n) => -MATE + 2 * -n,
        }
    }
}

/// `score` at `ply` as the table keeps it: a mate counted from the node.
pub(super) fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// A table's `score` read at `ply`: a mate counted from the root again.
pub(super) fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
