//! The quiescence search: from a quiet enough position the static
//! evaluation stands; otherwise captures and queen promotions that do not
//! lose material by static exchange are searched (and, far below alpha,
//! only those that win material, recapture on the last move's square or
//! give check); in check, every move.

use super::node::{Found, Window, cuts_off};
use super::score::{INFINITY, MATE, from_tt};
use super::{MAX_PLY, Searcher};
use crate::see::see_at_least;
use ajaxlab_rules::{Move, Position};

/// What the quiescence search does with a tactical move out of check.
enum Filter {
    Skip,
    Search,
    /// Far below alpha and winning nothing: searched only if it checks.
    UnlessCheck,
}

impl Searcher<'_> {
    /// The quiescence search of `pos` with the window `(alpha, beta)`,
    /// `ply` plies from the root.
    pub(super) fn quiescence(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check {
                0
            } else {
                self.evaluation.evaluate(ply, pos)
            };
        }
        let hash = pos.hash();
        let entry = self.tt.probe(hash);
        if let Some(e) = entry
            && beta - alpha == 1
        {
            let score = from_tt(i32::from(e.score), ply);
            if cuts_off(e.bound, score, alpha, beta) {
                return score;
            }
        }
        let evals = (!in_check).then(|| self.static_eval(pos, ply, entry.as_ref()));
        let stand_pat = evals.map_or(-INFINITY, |e| e.corrected);
        if stand_pat >= beta {
            return stand_pat;
        }
        let original_alpha = alpha;
        alpha = alpha.max(stand_pat);
        let moves = if in_check {
            let all = pos.legal_moves();
            if all.is_empty() {
                return -MATE + ply as i32;
            }
            all
        } else {
            pos.legal_tactical_moves()
        };
        let hash_move = entry.and_then(|e| e.best);
        let mut ordered = self.order(pos, moves, hash_move, MAX_PLY);
        let mut best = stand_pat;
        let mut best_move = None;
        let recapture_square = ply
            .checked_sub(1)
            .and_then(|parent| self.stack[parent].played)
            .map(|played| played.to);
        for index in 0..ordered.moves.len() {
            let (m, _) = ordered.pick(index);
            let filter = if in_check {
                Filter::Search
            } else {
                self.tactical_filter(pos, m, (stand_pat, alpha), recapture_square)
            };
            if matches!(filter, Filter::Skip) {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(m);
            if matches!(filter, Filter::UnlessCheck) && !child.in_check() {
                continue;
            }
            self.stack[ply].played = Some(Self::played(pos, m));
            self.evaluation.descend(ply, pos, &child);
            self.nodes += 1;
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let window = Window {
            alpha: original_alpha,
            beta,
        };
        let raw = evals.map(|e| e.raw);
        let found = Found {
            score: best,
            best: best_move,
            tt_pv: entry.is_some_and(|e| e.tt_pv),
        };
        self.store(hash, window, found, raw, 0, ply);
        best
    }

    /// Whether to search the tactical move `m` with the stand-pat score
    /// and alpha `(stand_pat, alpha)`: not an under-promotion, not a
    /// capture that cannot reach alpha even with the delta margin, not one
    /// that loses material in exchange; far below alpha, only one that
    /// wins material or recaptures on `recapture_square` (or checks).
    fn tactical_filter(
        &self,
        pos: &Position,
        m: Move,
        (stand_pat, alpha): (i32, i32),
        recapture_square: Option<usize>,
    ) -> Filter {
        let p = self.params;
        if m.promotion_kind()
            .is_some_and(|k| k != self.eval.best_promotion())
        {
            return Filter::Skip;
        }
        let promotion = m.promotion_kind().is_some();
        let gain = pos.captured_kind(m).map_or(0, |k| self.eval.piece_value(k));
        if stand_pat + gain + p.delta_margin < alpha && !promotion {
            return Filter::Skip;
        }
        if !see_at_least(pos, self.eval, m, p.qs_see) {
            return Filter::Skip;
        }
        let far_below = !promotion
            && recapture_square != Some(m.to().index())
            && stand_pat + p.delta_margin <= alpha;
        if far_below && !see_at_least(pos, self.eval, m, 1) {
            Filter::UnlessCheck
        } else {
            Filter::Search
        }
    }
}
