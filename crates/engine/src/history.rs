//! What the search learns about moves while it runs, for move ordering and
//! reductions: killer moves per ply, the quiet-move history (gated moves
//! apart from their ungated twins), the capture history, and the
//! continuation history (how good a move is as the answer to the move
//! before it and the one before that), and the correction history of the
//! static eval. Kept between the searches of one game, cleared by a new
//! game.

use crate::correction::Correction;
use ajaxlab_rules::{Color, Gate, MAX_KINDS, Move, PieceKind, SQUARE_COUNT};

/// Largest magnitude a history value reaches (the update is a gravity
/// formula, so values saturate towards it).
pub(crate) const HISTORY_MAX: i32 = 16_384;

/// A move as the history tables see it: the piece that makes it and where
/// it lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Played {
    /// The moving (or dropped) piece.
    pub(crate) kind: PieceKind,
    /// The destination square (the rook's square for castling).
    pub(crate) to: usize,
}

/// Killers, history tables and the correction history.
pub(crate) struct Heuristics {
    /// The static eval's corrections by pawn structure and by each side's other pieces.
    pub(crate) correction: Correction,
    killers: Vec<[Option<Move>; 2]>,
    quiet: Vec<i32>,
    capture: Vec<i32>,
    continuation: Vec<i16>,
}

const SQ: usize = SQUARE_COUNT;

fn gravity(value: &mut i32, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    *value += bonus - *value * bonus.abs() / HISTORY_MAX;
}

impl Heuristics {
    pub(crate) fn new(max_ply: usize) -> Heuristics {
        Heuristics {
            correction: Correction::new(),
            killers: vec![[None; 2]; max_ply + 2],
            quiet: vec![0; 2 * 2 * SQ * SQ],
            capture: vec![0; MAX_KINDS * SQ * MAX_KINDS],
            continuation: vec![0; MAX_KINDS * SQ * MAX_KINDS * SQ],
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.correction.clear();
        self.killers.iter_mut().for_each(|k| *k = [None; 2]);
        self.quiet.iter_mut().for_each(|v| *v = 0);
        self.capture.iter_mut().for_each(|v| *v = 0);
        self.continuation.iter_mut().for_each(|v| *v = 0);
    }

    #[inline]
    fn quiet_index(color: Color, m: Move) -> usize {
        let gated = usize::from(m.gate() != Gate::None);
        ((color.index() * 2 + gated) * SQ + m.from().index()) * SQ + m.to().index()
    }

    #[inline]
    fn capture_index(mover: PieceKind, to: usize, victim: PieceKind) -> usize {
        (mover.index() * SQ + to) * MAX_KINDS + victim.index()
    }

    #[inline]
    fn continuation_index(previous: Played, current: Played) -> usize {
        ((previous.kind.index() * SQ + previous.to) * MAX_KINDS + current.kind.index()) * SQ
            + current.to
    }

    /// The killers of `ply`.
    pub(crate) fn killers(&self, ply: usize) -> [Option<Move>; 2] {
        self.killers.get(ply).copied().unwrap_or([None; 2])
    }

    /// The quiet-move history of `m` for `color`.
    #[inline]
    pub(crate) fn quiet(&self, color: Color, m: Move) -> i32 {
        self.quiet[Self::quiet_index(color, m)]
    }

    /// The capture history of `mover` taking `victim` on `to`.
    #[inline]
    pub(crate) fn capture(&self, mover: PieceKind, to: usize, victim: PieceKind) -> i32 {
        self.capture[Self::capture_index(mover, to, victim)]
    }

    /// The continuation history of `current` after each of `previous`.
    #[inline]
    pub(crate) fn continuation(&self, previous: &[Option<Played>], current: Played) -> i32 {
        previous
            .iter()
            .flatten()
            .map(|&p| i32::from(self.continuation[Self::continuation_index(p, current)]))
            .sum()
    }

    /// Rewards the quiet move `best` that cut off, punishes the quiet moves
    /// tried before it, and makes `best` a killer of `ply`.
    pub(crate) fn reward_quiet(
        &mut self,
        color: Color,
        ply: usize,
        best: (Move, Played),
        tried: &[(Move, Played)],
        previous: &[Option<Played>],
        bonus: i32,
    ) {
        for &(m, played) in tried {
            let signed = if m == best.0 { bonus } else { -bonus };
            gravity(&mut self.quiet[Self::quiet_index(color, m)], signed);
            for &p in previous.iter().flatten() {
                let slot = &mut self.continuation[Self::continuation_index(p, played)];
                let mut value = i32::from(*slot);
                gravity(&mut value, signed);
                *slot = i16::try_from(value).unwrap_or(0);
            }
        }
        if let Some(killers) = self.killers.get_mut(ply)
            && killers[0] != Some(best.0)
        {
            killers[1] = killers[0];
            killers[0] = Some(best.0);
        }
    }

    /// Rewards the capture that cut off and punishes those tried before it.
    pub(crate) fn reward_capture(
        &mut self,
        best: (Played, PieceKind),
        tried: &[(Played, PieceKind)],
        bonus: i32,
    ) {
        for &(played, victim) in tried {
            let signed = if (played, victim) == best {
                bonus
            } else {
                -bonus
            };
            gravity(
                &mut self.capture[Self::capture_index(played.kind, played.to, victim)],
                signed,
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_rules::Square;

    #[test]
    fn a_gated_move_has_a_history_of_its_own() {
        let mut h = Heuristics::new(8);
        let (Some(from), Some(to)) = (Square::from_coords(1, 0), Square::from_coords(2, 2)) else {
            panic!("squares exist");
        };
        let plain = Move::normal(from, to);
        let gated = plain.with_gate(Gate::AtFrom);
        let played = Played {
            kind: PieceKind::KNIGHT,
            to: to.index(),
        };
        h.reward_quiet(
            Color::White,
            0,
            (gated, played),
            &[(gated, played)],
            &[],
            400,
        );
        assert!(h.quiet(Color::White, gated) > 0);
        assert_eq!(h.quiet(Color::White, plain), 0);
    }

    #[test]
    fn history_saturates_below_its_bound() {
        let mut value = 0;
        for _ in 0..1000 {
            gravity(&mut value, 10_000);
        }
        assert!(value <= HISTORY_MAX && value > HISTORY_MAX / 2, "{value}");
    }
}
