//! The moves of a node, each in its stages: pruned (late moves, futility,
//! exchange), extended (singular, check), searched with a reduction and
//! re-searched (principal variation search), and on a cut-off the
//! histories rewarded.

use super::node::{Found, Here, Node, NodeType, NonPv, Pv, Window};
use super::score::{INFINITY, MATE_BOUND};
use super::{CUTOFFS_MANY, MAX_DOUBLE_EXTENSIONS, REDUCTION_TABLE, Searcher, is_quiet};
use crate::history::{Played, Previous};
use crate::ordering::KILLER_SCORE;
use crate::see::see_at_least;
use crate::tt::Bound;
use ajaxlab_rules::{Move, MoveList, PieceKind, Position};
use std::ops::ControlFlow;

/// One move of a node, as its stages see it.
struct Candidate {
    m: Move,
    played: Played,
    /// Neither a capture nor a promotion nor en passant.
    quiet: bool,
    gives_check: bool,
    killer: bool,
    /// The quiet and continuation histories of a quiet move (0 otherwise).
    quiet_history: i32,
}

/// The moves of a node searched so far.
struct Tried {
    best: i32,
    best_move: Option<Move>,
    searched: usize,
    quiets: Vec<(Move, Played)>,
    captures: Vec<(Played, PieceKind)>,
}

impl Searcher<'_> {
    /// Searches the moves of the node `here` best first within `window`:
    /// what the node found, `None` when its only legal move was the
    /// excluded one; or a score to return at once (the search stopped, or
    /// the singular test showed several moves beating beta).
    pub(super) fn search_moves<NT: NodeType>(
        &mut self,
        pos: &Position,
        moves: MoveList,
        here: &Here,
        window: Window,
    ) -> ControlFlow<i32, Option<Found>> {
        let Window { mut alpha, beta } = window;
        let mut ordered = self.order(pos, moves, here.hash_move, here.ply);
        let previous = self.previous(here.ply);
        let mut tried = Tried {
            best: -INFINITY,
            best_move: None,
            searched: 0,
            quiets: Vec::new(),
            captures: Vec::new(),
        };
        for index in 0..ordered.moves.len() {
            let (m, order_score) = ordered.pick(index);
            if Some(m) == here.excluded {
                continue;
            }
            let (candidate, child) = self.candidate(pos, m, order_score, &previous);
            if self.prunes_move::<NT>(pos, here, &candidate, &tried, alpha) {
                continue;
            }
            let extension = self.extension::<NT>(pos, here, &candidate, beta)?;
            let score = self.search_move::<NT>(
                (pos, &child),
                here,
                &candidate,
                extension,
                (alpha, beta),
                &tried,
            );
            if self.stopped {
                return ControlFlow::Break(0);
            }
            tried.searched += 1;
            if candidate.quiet {
                tried.quiets.push((m, candidate.played));
            } else if let Some(victim) = pos.captured_kind(m) {
                tried.captures.push((candidate.played, victim));
            }
            if score > tried.best {
                tried.best = score;
                if score > alpha {
                    alpha = score;
                    tried.best_move = Some(m);
                    self.update_pv(here.ply, m);
                    if alpha >= beta {
                        self.reward_cutoff(pos, here, &candidate, &tried, &previous);
                        break;
                    }
                }
            }
        }
        ControlFlow::Continue((tried.searched > 0).then_some(Found {
            score: tried.best,
            best: tried.best_move,
            tt_pv: here.tt_pv,
        }))
    }

    /// The move `m` (ordered with `order_score`) as the stages see it, and
    /// the position it leads to.
    fn candidate(
        &self,
        pos: &Position,
        m: Move,
        order_score: i32,
        previous: &Previous,
    ) -> (Candidate, Position) {
        let quiet = is_quiet(pos, m);
        let played = Self::played(pos, m);
        let mut child = *pos;
        child.play_unchecked(m);
        let side = pos.side_to_move();
        let quiet_history = if quiet {
            self.heuristics.quiet(side, m) + self.heuristics.continuation(side, previous, played)
        } else {
            0
        };
        let candidate = Candidate {
            m,
            played,
            quiet,
            gives_check: child.in_check(),
            killer: order_score == KILLER_SCORE || order_score == KILLER_SCORE - 1,
            quiet_history,
        };
        (candidate, child)
    }

    /// Whether to skip a move without searching it, once a move has been
    /// searched: a late quiet move (late-move pruning), a quiet move far
    /// below alpha (futility), or one that loses too much in exchange.
    /// Checking moves, and every move at the root or in check, are kept.
    fn prunes_move<NT: NodeType>(
        &self,
        pos: &Position,
        here: &Here,
        c: &Candidate,
        tried: &Tried,
        alpha: i32,
    ) -> bool {
        let p = self.params;
        let depth = here.depth;
        if NT::ROOT
            || !self.features.pruning
            || tried.best <= -MATE_BOUND
            || tried.searched == 0
            || c.gives_check
        {
            return false;
        }
        if !c.quiet {
            return depth <= p.see_depth
                && !see_at_least(pos, self.eval, c.m, -p.see_capture * depth);
        }
        if here.in_check {
            return false;
        }
        let lmp_limit = (p.lmp_base + depth * depth) / (2 - i32::from(here.improving));
        if depth <= p.lmp_depth && tried.quiets.len() as i32 >= lmp_limit {
            return true;
        }
        if let Some(eval) = here.pruning_eval
            && depth <= p.futility_depth
            && eval + p.futility_base + p.futility_margin * depth <= alpha
        {
            return true;
        }
        depth <= p.see_depth && !see_at_least(pos, self.eval, c.m, -p.see_quiet * depth * depth)
    }

    /// The plies a move is extended by: one or two for the hash move when
    /// every other move falls short of its table score (singular), one for
    /// a check that does not lose material. Breaks with the score to
    /// return when the search stopped, or when the singular test found
    /// other moves beating beta too.
    fn extension<NT: NodeType>(
        &mut self,
        pos: &Position,
        here: &Here,
        c: &Candidate,
        beta: i32,
    ) -> ControlFlow<i32, i32> {
        let p = self.params;
        let depth = here.depth;
        if self.features.singular
            && !NT::ROOT
            && Some(c.m) == here.hash_move
            && depth >= p.singular_depth
            && here.excluded.is_none()
            && let (Some(e), Some(score)) = (here.entry, here.tt_score)
            && i32::from(e.depth) >= depth - 3
            && e.bound != Bound::Upper
            && score.abs() < MATE_BOUND
        {
            let singular_beta = score - p.singular_margin * depth;
            let s = self.search_without(pos, here, c.m, singular_beta);
            if self.stopped {
                return ControlFlow::Break(0);
            }
            if s < singular_beta {
                let double = p.singular_double > 0
                    && !NT::PV
                    && s < singular_beta - p.singular_double
                    && self.stack[here.ply].doubles < MAX_DOUBLE_EXTENSIONS;
                return ControlFlow::Continue(if double { 2 } else { 1 });
            }
            if singular_beta >= beta {
                // Several moves beat beta: this node cuts off anyway.
                return ControlFlow::Break(singular_beta);
            }
            return ControlFlow::Continue(0);
        }
        let checks = c.gives_check
            && self.features.check_extension
            && (here.ply as i32) < 2 * self.root_depth
            && see_at_least(pos, self.eval, c.m, 0);
        ControlFlow::Continue(i32::from(checks))
    }

    /// The singular test: the node searched shallower with a zero window
    /// at `singular_beta`, the move `m` left out.
    fn search_without(&mut self, pos: &Position, here: &Here, m: Move, singular_beta: i32) -> i32 {
        let ply = here.ply;
        self.stack[ply].excluded = Some(m);
        self.history.pop();
        let s = self.negamax::<NonPv>(
            pos,
            (here.depth - 1) / 2,
            singular_beta - 1,
            singular_beta,
            ply,
            Node {
                null_ok: false,
                cut: here.node.cut,
            },
        );
        self.history.push(here.hash);
        self.stack[ply].excluded = None;
        self.stack[ply].static_eval = here.static_eval();
        s
    }

    /// Searches the move `c`, leading from `pos` to `child`, extended by `extension`
    /// plies: the first move with the node's window; a later one with a
    /// zero window, reduced, re-searched unreduced when it beats alpha and
    /// with the full window when it lands inside it.
    fn search_move<NT: NodeType>(
        &mut self,
        (pos, child): (&Position, &Position),
        here: &Here,
        c: &Candidate,
        extension: i32,
        (alpha, beta): (i32, i32),
        tried: &Tried,
    ) -> i32 {
        let ply = here.ply;
        let new_depth = here.depth - 1 + extension;
        self.stack[ply].played = Some(c.played);
        self.stack[ply].quiet_move = c.quiet.then_some(c.m);
        self.stack[ply + 1].doubles = self.stack[ply].doubles + u8::from(extension == 2);
        self.evaluation.descend(ply, pos, child);
        let nodes_before = self.nodes;
        self.nodes += 1;
        let score = if tried.searched == 0 {
            let first = Node::child(!NT::PV && !here.node.cut);
            -self.search_window(child, new_depth, (-beta, -alpha), ply + 1, first)
        } else {
            let r = self.reduction::<NT>(here, c, tried.searched, new_depth);
            let reduced = Node::child(true);
            let mut s =
                -self.negamax::<NonPv>(child, new_depth - r, -alpha - 1, -alpha, ply + 1, reduced);
            if s > alpha && r > 0 {
                let research_depth = self.research_depth(s, tried.best, new_depth);
                if research_depth > new_depth - r {
                    let full = Node::child(!here.node.cut);
                    s = -self.negamax::<NonPv>(
                        child,
                        research_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        full,
                    );
                }
            }
            if s > alpha && s < beta {
                let pv = Node::child(false);
                s = -self.negamax::<Pv>(child, new_depth, -beta, -alpha, ply + 1, pv);
            }
            s
        };
        if NT::ROOT {
            self.add_root_effort(c.m, self.nodes - nodes_before);
        }
        score
    }

    /// The late-move reduction of the quiet move `c`, the node's
    /// `searched`-th: by depth and move number, less on a principal
    /// variation, for killers, checks and moves with good history, more
    /// when not improving, in cut nodes and where moves keep being refuted.
    fn reduction<NT: NodeType>(
        &self,
        here: &Here,
        c: &Candidate,
        searched: usize,
        new_depth: i32,
    ) -> i32 {
        let p = self.params;
        if !self.features.lmr
            || here.depth < p.lmr_min_depth
            || searched < p.lmr_min_move.max(1) as usize
            || !c.quiet
        {
            return 0;
        }
        let d = (here.depth as usize).min(REDUCTION_TABLE - 1);
        let i = searched.min(REDUCTION_TABLE - 1);
        let mut r = self.reductions[d * REDUCTION_TABLE + i];
        r -= i32::from(NT::PV);
        r += i32::from(!here.improving);
        r -= i32::from(c.killer);
        r -= i32::from(c.gives_check);
        r -= c.quiet_history / p.lmr_history_div.max(1);
        r += p.lmr_cut_node * i32::from(here.node.cut);
        r -= p.lmr_tt_pv * i32::from(here.tt_pv && !NT::PV);
        r += p.lmr_cutoffs * i32::from(self.stack[here.ply + 1].cutoffs > CUTOFFS_MANY);
        r.clamp(0, (new_depth - 1).max(0))
    }

    /// The depth to re-search a reduced move at that scored `score` over
    /// alpha: a ply deeper when it beat the best by far, a ply shallower
    /// when it barely beat it.
    fn research_depth(&self, score: i32, best: i32, new_depth: i32) -> i32 {
        let deeper = self.params.lmr_deeper;
        if deeper > 0 {
            if score > best + deeper + 2 * new_depth {
                return new_depth + 1;
            }
            if score < best + new_depth {
                return new_depth - 1;
            }
        }
        new_depth
    }

    /// A cut-off by `c`: the node's count of refuted moves, and the
    /// history of the move against the moves tried before it.
    fn reward_cutoff(
        &mut self,
        pos: &Position,
        here: &Here,
        c: &Candidate,
        tried: &Tried,
        previous: &Previous,
    ) {
        self.stack[here.ply].cutoffs += 1;
        if !self.features.history {
            return;
        }
        let bonus = self.history_bonus(here.depth);
        if c.quiet {
            let side = pos.side_to_move();
            self.heuristics.reward_quiet(
                side,
                here.ply,
                (c.m, c.played),
                &tried.quiets,
                previous,
                bonus,
            );
        } else if let Some(victim) = pos.captured_kind(c.m) {
            self.heuristics
                .reward_capture((c.played, victim), &tried.captures, bonus);
        }
    }
}
