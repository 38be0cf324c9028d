//! Move ordering: every move of a node gets a score, and the search takes
//! them best first. The hash move, then captures and queen promotions that
//! do not lose material, the killers, the quiet moves by their histories
//! and whether they take a piece out of (or into) attack by a cheaper one,
//! and last the captures that lose material and the under-promotions.

use crate::search::{MAX_PLY, Searcher};
use crate::see::see_at_least;
use crate::threats::Threats;
use ajaxlab_rules::{Move, MoveList, Position};
use std::cell::OnceCell;

const HASH_SCORE: i32 = 1 << 30;
const GOOD_CAPTURE_SCORE: i32 = 1 << 28;
/// The first killer's score; the second scores one less.
pub(crate) const KILLER_SCORE: i32 = 1 << 26;
const BAD_CAPTURE_SCORE: i32 = -(1 << 26);

/// The move list of a node with each move's ordering score.
pub(crate) struct Ordered {
    pub(crate) moves: MoveList,
    scores: Vec<i32>,
}

impl Ordered {
    /// Brings the best-scored remaining move to `index` and returns it with its score.
    #[inline]
    pub(crate) fn pick(&mut self, index: usize) -> (Move, i32) {
        let scores = &mut self.scores;
        let mut best = index;
        for i in index + 1..scores.len() {
            if scores[i] > scores[best] {
                best = i;
            }
        }
        self.moves.as_mut_slice().swap(index, best);
        scores.swap(index, best);
        (self.moves[index], scores[index])
    }
}

impl Searcher<'_> {
    /// Scores every move for ordering: the hash move, then captures and
    /// queen promotions that do not lose material (most valuable victim
    /// first, then by capture history), killers, quiet moves by history,
    /// and last the captures that lose material and under-promotions.
    pub(crate) fn order(
        &self,
        pos: &Position,
        moves: MoveList,
        hash_move: Option<Move>,
        ply: usize,
    ) -> Ordered {
        let side = pos.side_to_move();
        let killers = self.heuristics.killers(ply);
        let previous = self.previous(ply.min(MAX_PLY));
        let threat_weight = self.params.threat_order;
        // Built at the first quiet move that needs it: a quiescence node's
        // captures never do.
        let threats = OnceCell::new();
        let scores = moves
            .iter()
            .map(|&m| {
                if Some(m) == hash_move {
                    return HASH_SCORE;
                }
                let played = Self::played(pos, m);
                if let Some(victim) = pos.captured_kind(m) {
                    let value = self.eval.piece_value(victim) * 8
                        + self.heuristics.capture(played.kind, played.to, victim) / 16;
                    return if see_at_least(pos, self.eval, m, 0) {
                        GOOD_CAPTURE_SCORE + value
                    } else {
                        BAD_CAPTURE_SCORE + value
                    };
                }
                if let Some(p) = m.promotion_kind() {
                    return if p == self.eval.best_promotion() {
                        GOOD_CAPTURE_SCORE + self.eval.piece_value(p)
                    } else {
                        BAD_CAPTURE_SCORE
                    };
                }
                if !self.features.history {
                    return 0;
                }
                if killers[0] == Some(m) {
                    return KILLER_SCORE;
                }
                if killers[1] == Some(m) {
                    return KILLER_SCORE - 1;
                }
                let threat = if threat_weight > 0 {
                    threats
                        .get_or_init(|| Threats::of(pos, self.eval))
                        .ordering_bonus(self.eval, played.kind, m, threat_weight)
                } else {
                    0
                };
                self.heuristics.quiet(side, m)
                    + self.heuristics.continuation(side, &previous, played)
                    + threat
            })
            .collect();
        Ordered { moves, scores }
    }
}
