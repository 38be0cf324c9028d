//! What the search learns about moves while it runs, for move ordering and
//! reductions: killer moves per ply, the quiet-move history (gated moves
//! apart from their ungated twins), the capture history, and the
//! continuation history (how good a move is after the move one, two and
//! four plies before it, a table for each distance and each side), and the
//! correction history of the static eval. Kept between the searches of one
//! game, cleared by a new game.

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

/// The moves played [`CONTINUATION_PLIES`] before a node (`None`: a null
/// move, before the root, or switched off).
pub(crate) type Previous = [Option<Played>; CONTINUATION_PLIES.len()];

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

/// How many plies back the continuation history looks: the opponent's last
/// move, our own move before it, and our own move before that.
pub(crate) const CONTINUATION_PLIES: [usize; 3] = [1, 2, 4];

/// Entries of one continuation table: a previous move by a current move.
const CONTINUATION_TABLE: usize = MAX_KINDS * SQ * MAX_KINDS * SQ;

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
            continuation: vec![0; CONTINUATION_PLIES.len() * 2 * CONTINUATION_TABLE],
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

    /// The entry of `current` after `previous`, played `CONTINUATION_PLIES[slot]`
    /// plies before it; `color` moves `current`.
    #[inline]
    fn continuation_index(slot: usize, color: Color, previous: Played, current: Played) -> usize {
        let table = (slot * 2 + color.index()) * CONTINUATION_TABLE;
        table
            + ((previous.kind.index() * SQ + previous.to) * MAX_KINDS + current.kind.index()) * SQ
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

    /// The continuation history of `current`, played by `color`, after each
    /// of `previous` (the moves [`CONTINUATION_PLIES`] back, where known).
    #[inline]
    pub(crate) fn continuation(&self, color: Color, previous: &Previous, current: Played) -> i32 {
        previous
            .iter()
            .enumerate()
            .filter_map(|(slot, p)| p.map(|p| (slot, p)))
            .map(|(slot, p)| {
                i32::from(self.continuation[Self::continuation_index(slot, color, p, current)])
            })
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
        previous: &Previous,
        bonus: i32,
    ) {
        for &(m, played) in tried {
            let signed = if m == best.0 { bonus } else { -bonus };
            self.adjust_quiet(color, (m, played), previous, signed);
        }
        if let Some(killers) = self.killers.get_mut(ply)
            && killers[0] != Some(best.0)
        {
            killers[1] = killers[0];
            killers[0] = Some(best.0);
        }
    }

    /// Rewards the quiet move that led to a node where every reply failed
    /// low: the opponent had nothing against it.
    pub(crate) fn reward_refuting_quiet(
        &mut self,
        color: Color,
        refuting: (Move, Played),
        previous: &Previous,
        bonus: i32,
    ) {
        self.adjust_quiet(color, refuting, previous, bonus);
    }

    /// Moves the quiet and continuation history of one move by `signed`.
    fn adjust_quiet(
        &mut self,
        color: Color,
        (m, played): (Move, Played),
        previous: &Previous,
        signed: i32,
    ) {
        gravity(&mut self.quiet[Self::quiet_index(color, m)], signed);
        for (slot, p) in previous.iter().enumerate() {
            let Some(p) = *p else { continue };
            let entry = &mut self.continuation[Self::continuation_index(slot, color, p, played)];
            let mut value = i32::from(*entry);
            gravity(&mut value, signed);
            *entry = i16::try_from(value).unwrap_or(0);
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

    /// A knight's move between two squares given by (file, rank), and how
    /// the history tables see it.
    fn knight_move(from: (i32, i32), to: (i32, i32)) -> (Move, Played) {
        let (Some(from), Some(to)) = (
            Square::from_coords(from.0, from.1),
            Square::from_coords(to.0, to.1),
        ) else {
            panic!("squares exist");
        };
        let played = Played {
            kind: PieceKind::KNIGHT,
            to: to.index(),
        };
        (Move::normal(from, to), played)
    }

    /// A knight's move, how the history tables see it, and a pawn's move
    /// played before it.
    fn knight_reply_to_a_pawn() -> (Move, Played, Played) {
        let (m, played) = knight_move((6, 0), (5, 2));
        let before = Played {
            kind: PieceKind::PAWN,
            to: 52,
        };
        (m, played, before)
    }

    #[test]
    fn a_gated_move_has_a_history_of_its_own() {
        let mut h = Heuristics::new(8);
        let (plain, played) = knight_move((1, 0), (2, 2));
        let gated = plain.with_gate(Gate::AtFrom);
        h.reward_quiet(
            Color::White,
            0,
            (gated, played),
            &[(gated, played)],
            &[None; CONTINUATION_PLIES.len()],
            400,
        );
        assert!(h.quiet(Color::White, gated) > 0);
        assert_eq!(h.quiet(Color::White, plain), 0);
    }

    #[test]
    fn a_reply_a_follow_up_and_each_side_have_continuations_of_their_own() {
        let mut h = Heuristics::new(8);
        let (m, played, before) = knight_reply_to_a_pawn();
        let reply = [Some(before), None, None];
        h.reward_quiet(Color::White, 0, (m, played), &[(m, played)], &reply, 400);
        assert!(h.continuation(Color::White, &reply, played) > 0);
        assert_eq!(
            h.continuation(Color::Black, &reply, played),
            0,
            "the same answer by the other side"
        );
        let follow_up = [None, Some(before), None];
        assert_eq!(
            h.continuation(Color::White, &follow_up, played),
            0,
            "the same move after our own move"
        );
        let four_back = [None, None, Some(before)];
        assert_eq!(h.continuation(Color::White, &four_back, played), 0);
    }

    #[test]
    fn a_quiet_move_no_reply_refuted_gains_history_but_is_no_killer() {
        let mut h = Heuristics::new(8);
        let (m, played, before) = knight_reply_to_a_pawn();
        let reply = [Some(before), None, None];
        h.reward_refuting_quiet(Color::White, (m, played), &reply, 400);
        assert!(h.quiet(Color::White, m) > 0);
        assert!(h.continuation(Color::White, &reply, played) > 0);
        assert_eq!(h.quiet(Color::Black, m), 0, "the other side's history");
        assert_eq!(h.killers(0), [None; 2], "no cut-off, so no killer");
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
