//! One node of the principal variation search, in its stages: the early
//! ends (draws, the deepest ply, mate distance), the table's probe, the
//! static evaluation, the pruning of the whole node (razoring, reverse
//! futility, null move), internal iterative reduction, the moves
//! ([`super::moves`]), and what the node leaves behind (the refuted
//! quiet's history, the correction history, the table's entry).

use super::score::{MATE, MATE_BOUND, from_tt, to_tt};
use super::{MAX_PLY, NO_EVAL, Searcher, StaticEval, is_quiet};
use crate::tt::{Bound, Entry, Stored};
use ajaxlab_rules::{Move, Position};
use std::ops::ControlFlow;

/// What kind of node a search is, known where it is called.
pub(super) trait NodeType {
    /// Searched with an open window (its exact score matters): no node
    /// pruning, the table's score never taken as it stands.
    const PV: bool;
    /// The root: never a draw by repetition, no node or move pruning, and
    /// the effort below each move counted for time management.
    const ROOT: bool;
}

/// The root of the search.
pub(super) struct Root;
/// A node on the principal variation, searched with an open window.
pub(super) struct Pv;
/// A node searched with a zero window: only whether it beats a bound matters.
pub(super) struct NonPv;

impl NodeType for Root {
    const PV: bool = true;
    const ROOT: bool = true;
}

impl NodeType for Pv {
    const PV: bool = true;
    const ROOT: bool = false;
}

impl NodeType for NonPv {
    const PV: bool = false;
    const ROOT: bool = false;
}

/// What a node is told by its parent: whether it may try a null move, and
/// whether it is expected to fail high (a cut node: the zero-window search
/// of a move after the first, or an alternate child of one), where late
/// moves may be reduced more.
#[derive(Clone, Copy)]
pub(super) struct Node {
    pub(super) null_ok: bool,
    pub(super) cut: bool,
}

impl Node {
    /// The root, expected to fail neither way.
    pub(super) const ROOT: Node = Node {
        null_ok: true,
        cut: false,
    };

    /// A child of an ordinary move, expected to cut off or not.
    pub(super) fn child(cut: bool) -> Node {
        Node { null_ok: true, cut }
    }
}

/// What a node knows before it tries its moves, read once and used by
/// each of its stages.
pub(super) struct Here {
    pub(super) hash: u64,
    pub(super) ply: usize,
    pub(super) depth: i32,
    pub(super) in_check: bool,
    pub(super) node: Node,
    /// The move the singular-extension test leaves out, if this is that test.
    pub(super) excluded: Option<Move>,
    /// The table's entry (none in the singular test).
    pub(super) entry: Option<Entry>,
    /// The entry's score, from this ply.
    pub(super) tt_score: Option<i32>,
    pub(super) hash_move: Option<Move>,
    /// Whether the node is or was on a principal variation.
    pub(super) tt_pv: bool,
    /// The static evaluation, `None` in check.
    pub(super) evals: Option<StaticEval>,
    /// Whether the static evaluation is better than two plies before.
    pub(super) improving: bool,
    /// The static evaluation refined by the table's score, for pruning.
    pub(super) pruning_eval: Option<i32>,
}

impl Here {
    /// The corrected static evaluation, `None` in check.
    pub(super) fn static_eval(&self) -> Option<i32> {
        self.evals.map(|e| e.corrected)
    }
}

/// What a node found, for the transposition table.
#[derive(Clone, Copy)]
pub(super) struct Found {
    /// The best score.
    pub(super) score: i32,
    /// The move that scored it, if one beat alpha.
    pub(super) best: Option<Move>,
    /// Whether the node is or was on a principal variation.
    pub(super) tt_pv: bool,
}

/// The alpha-beta window a node was entered with.
#[derive(Clone, Copy)]
pub(super) struct Window {
    pub(super) alpha: i32,
    pub(super) beta: i32,
}

impl Searcher<'_> {
    /// The search of `pos` at `depth` with the window `(alpha, beta)`, `ply`
    /// plies from the root.
    pub(super) fn negamax<NT: NodeType>(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        node: Node,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let in_check = pos.in_check();
        if depth <= 0 && !in_check {
            return self.quiescence(pos, alpha, beta, ply);
        }
        if !NT::ROOT && self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if !NT::ROOT
            && let Some(score) = self.ends_early(pos, in_check, ply, (&mut alpha, &mut beta))
        {
            return score;
        }
        let mut here = self.probe::<NT>(pos, depth.max(1), ply, node, in_check);
        if let (Some(e), Some(score)) = (here.entry, here.tt_score)
            && !NT::PV
            && i32::from(e.depth) >= here.depth
            && cuts_off(e.bound, score, alpha, beta)
        {
            return score;
        }
        self.evaluate_node(pos, &mut here);
        if let Some(score) = self.prune_node::<NT>(pos, &here, alpha, beta) {
            return score;
        }
        let p = self.params;
        if self.features.iir
            && here.depth >= p.iir_depth
            && here.hash_move.is_none()
            && here.excluded.is_none()
        {
            here.depth -= 1;
        }
        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        self.history.push(here.hash);
        let searched = self.search_moves::<NT>(pos, moves, &here, Window { alpha, beta });
        self.history.pop();
        match searched {
            ControlFlow::Break(score) => score,
            ControlFlow::Continue(None) => alpha,
            ControlFlow::Continue(Some(found)) => {
                self.leave(pos, &here, found, Window { alpha, beta });
                found.score
            }
        }
    }

    /// The score of a node that is over before it is searched: a draw by
    /// the fifty-move rule or repetition, the deepest ply, or a window that
    /// mate distance closes (no line from here beats a mate already found
    /// nearer the root). Narrows the window by mate distance.
    fn ends_early(
        &self,
        pos: &Position,
        in_check: bool,
        ply: usize,
        (alpha, beta): (&mut i32, &mut i32),
    ) -> Option<i32> {
        if pos.halfmove_clock() >= 100 || self.is_repetition(pos) {
            return Some(0);
        }
        if ply >= MAX_PLY - 1 {
            return Some(if in_check {
                0
            } else {
                self.evaluation.evaluate(ply, pos)
            });
        }
        *alpha = (*alpha).max(-MATE + ply as i32);
        *beta = (*beta).min(MATE - ply as i32 - 1);
        (*alpha >= *beta).then_some(*alpha)
    }

    /// The node's table entry and what follows from it; the static
    /// evaluation is filled in by [`Searcher::evaluate_node`].
    fn probe<NT: NodeType>(
        &mut self,
        pos: &Position,
        depth: i32,
        ply: usize,
        node: Node,
        in_check: bool,
    ) -> Here {
        let excluded = self.stack[ply].excluded;
        self.stack[ply + 1].doubles = self.stack[ply].doubles;
        self.stack[ply + 1].cutoffs = 0;
        let hash = pos.hash();
        let entry = if excluded.is_none() {
            self.tt.probe(hash)
        } else {
            None
        };
        Here {
            hash,
            ply,
            depth,
            in_check,
            node,
            excluded,
            entry,
            tt_score: entry.map(|e| from_tt(i32::from(e.score), ply)),
            hash_move: entry.and_then(|e| e.best),
            tt_pv: NT::PV || entry.is_some_and(|e| e.tt_pv),
            evals: None,
            improving: false,
            pruning_eval: None,
        }
    }

    /// The static evaluation of the node (none in check), whether it is
    /// improving, and the evaluation pruning reads.
    fn evaluate_node(&mut self, pos: &Position, here: &mut Here) {
        here.evals = (!here.in_check).then(|| self.static_eval(pos, here.ply, here.entry.as_ref()));
        let static_eval = here.static_eval();
        self.stack[here.ply].static_eval = static_eval;
        here.improving = self.improving(here.ply, static_eval);
        here.pruning_eval = static_eval.map(|eval| match (here.entry, here.tt_score) {
            (Some(e), Some(score)) => refined_by_table(eval, e.bound, score),
            _ => eval,
        });
    }

    /// Prunes the whole node before its moves where its static evaluation
    /// says it will fail: razoring far below alpha, reverse futility far
    /// above beta, and a null move that still fails high.
    fn prune_node<NT: NodeType>(
        &mut self,
        pos: &Position,
        here: &Here,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        let eval = here.pruning_eval?;
        if NT::PV || here.excluded.is_some() {
            return None;
        }
        let p = self.params;
        let depth = here.depth;
        if self.features.pruning
            && p.razor_margin > 0
            && eval < alpha - p.razor_margin * (2 + depth * depth)
        {
            let score = self.quiescence(pos, alpha - 1, alpha, here.ply);
            if self.stopped {
                return Some(0);
            }
            if score < alpha && score.abs() < MATE_BOUND {
                return Some(score);
            }
        }
        let margin = (p.rfp_margin - p.rfp_improving * i32::from(here.improving)) * depth;
        if self.features.pruning
            && depth <= p.rfp_depth
            && eval - margin >= beta
            && beta.abs() < MATE_BOUND
        {
            return Some(eval);
        }
        if self.features.null_move
            && here.node.null_ok
            && depth >= p.nmp_min_depth
            && eval >= beta
            && self.has_pieces(pos)
        {
            return self.null_move(pos, here, eval, beta);
        }
        None
    }

    /// Passes the move: a side that stays above beta even so is pruned.
    fn null_move(&mut self, pos: &Position, here: &Here, eval: i32, beta: i32) -> Option<i32> {
        let p = self.params;
        let depth = here.depth;
        let r = p.nmp_base
            + depth / p.nmp_depth_div.max(1)
            + ((eval - beta) / p.nmp_eval_div.max(1)).min(3);
        let mut child = *pos;
        child.play_null();
        self.stack[here.ply].played = None;
        self.stack[here.ply].quiet_move = None;
        self.history.push(here.hash);
        self.evaluation.descend(here.ply, pos, &child);
        let after_null = Node {
            null_ok: false,
            cut: !here.node.cut,
        };
        let score = -self.negamax::<NonPv>(
            &child,
            depth - 1 - r,
            -beta,
            -beta + 1,
            here.ply + 1,
            after_null,
        );
        self.history.pop();
        if self.stopped {
            return Some(0);
        }
        (score >= beta).then_some(if score >= MATE_BOUND { beta } else { score })
    }

    /// What a searched node leaves behind: the history of the quiet move
    /// that led here when every move failed low, the correction history,
    /// and the table's entry (none of them in the singular test).
    fn leave(&mut self, pos: &Position, here: &Here, found: Found, window: Window) {
        if here.excluded.is_some() {
            return;
        }
        let best = found.score;
        if found.best.is_none() {
            self.reward_refuting_quiet(here.ply, pos.side_to_move(), here.depth);
        }
        let quiet_best = found.best.is_none_or(|m| is_quiet(pos, m));
        if let Some(e) = here.evals
            && self.features.correction
            && quiet_best
            && best.abs() < MATE_BOUND
            && !(best >= window.beta && best <= e.corrected)
            && !(best <= window.alpha && best >= e.corrected)
        {
            self.heuristics.correction.update(
                pos,
                best - e.corrected,
                here.depth,
                self.params.correction_non_pawn,
            );
        }
        let raw = here.evals.map(|e| e.raw);
        self.store(here.hash, window, found, raw, here.depth, here.ply);
    }

    /// Stores a node's result: `found` is what it found, `window` the
    /// bounds the node was searched with, `static_eval` the raw static
    /// evaluation.
    pub(super) fn store(
        &mut self,
        hash: u64,
        window: Window,
        found: Found,
        static_eval: Option<i32>,
        depth: i32,
        ply: usize,
    ) {
        let bound = if found.score >= window.beta {
            Bound::Lower
        } else if found.score > window.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            hash,
            Stored {
                best: found.best,
                score: to_tt(found.score, ply),
                eval: static_eval.unwrap_or(NO_EVAL),
                depth,
                bound,
                tt_pv: found.tt_pv,
            },
        );
    }

    /// The search of a child with the window `(alpha, beta)`: a PV node
    /// when the window is open, a zero-window node when mate distance has
    /// closed it to one.
    pub(super) fn search_window(
        &mut self,
        child: &Position,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
        node: Node,
    ) -> i32 {
        if beta - alpha > 1 {
            self.negamax::<Pv>(child, depth, alpha, beta, ply, node)
        } else {
            self.negamax::<NonPv>(child, depth, alpha, beta, ply, node)
        }
    }
}

/// The static evaluation `eval` for the pruning decisions, replaced by the
/// table's `score` (stored with `bound`) where the bound says the true
/// score lies beyond `eval` on that side: a searched score is better
/// evidence than a static one. Mate scores are left out.
pub(super) fn refined_by_table(eval: i32, bound: Bound, score: i32) -> i32 {
    let nearer = match bound {
        Bound::Exact => true,
        Bound::Lower => score > eval,
        Bound::Upper => score < eval,
    };
    if nearer && score.abs() < MATE_BOUND {
        score
    } else {
        eval
    }
}

/// Whether a stored score with `bound` decides the node for this window.
pub(super) fn cuts_off(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_score_refines_the_eval_only_on_its_bound_side() {
        assert_eq!(refined_by_table(10, Bound::Exact, -40), -40);
        assert_eq!(refined_by_table(10, Bound::Lower, 60), 60);
        assert_eq!(refined_by_table(10, Bound::Lower, -60), 10);
        assert_eq!(refined_by_table(10, Bound::Upper, -60), -60);
        assert_eq!(refined_by_table(10, Bound::Upper, 60), 10);
        assert_eq!(refined_by_table(10, Bound::Lower, MATE - 5), 10);
    }
}
