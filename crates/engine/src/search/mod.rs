//! The search: iterative deepening, principal variation search with
//! aspiration windows, a bucketed transposition table (with the static
//! evaluation), a quiescence search over captures that do not lose material
//! by static exchange (and, far below alpha, only over those that win
//! material, recaptures and checks), move ordering (hash move, winning
//! captures by victim and capture history, killers, quiet moves by quiet and continuation
//! history and by the threats they escape or walk into, losing captures
//! last; a quiet move after which every reply failed low gains history as a
//! cut-off would), razoring, null-move pruning, reverse futility, futility,
//! late-move and exchange pruning (checking moves exempt), internal
//! iterative reduction, history-adjusted late-move reductions (deeper in
//! nodes expected to fail high and in nodes whose moves keep being
//! refuted, shallower in nodes the table remembers on a principal
//! variation; a reduced move that beats alpha re-searched a ply deeper or
//! shallower by how far it beat the best), singular extensions (two plies
//! for a move far better than the rest) and a check extension for checks
//! that do not lose material, and a static eval corrected by what the
//! search learnt about positions with the same pawns or the same other
//! pieces (correction history). Drops and gating moves are searched
//! like any other move. One thread; a node-limited search is deterministic.
//! A node is a move made and searched, as Stockfish and Fairy-Stockfish
//! count them (re-searches of the same move and the null move do not
//! count), so `go nodes N` buys about the same search in each.
//!
//! A node is searched in stages, each a function of its own: the early
//! ends, the table's probe, the static evaluation and the pruning of the
//! whole node ([`node`]); then each move pruned, extended, reduced,
//! searched and, on a cut-off, rewarded ([`moves`]); and the quiescence
//! search at the leaves ([`quiescence`]). The kind of node (root, PV,
//! zero-window) is a type ([`node::NodeType`]), known where it is called.

mod moves;
mod node;
mod quiescence;
mod score;

use crate::eval::Evaluator;
use crate::evaluation::Evaluation;
use crate::features::Features;
use crate::history::{CONTINUATION_PLIES, Heuristics, Played, Previous};
use crate::limits::{Deadline, Limits};
use crate::params::Params;
use crate::tt::{Entry, Table};
use ajaxlab_rules::{Color, Move, MoveKind, PieceKind, Position};
use node::{Node, Root};
use score::{INFINITY, MATE_BOUND};
pub use score::{MATE, Score};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Deepest ply the search reaches.
pub(crate) const MAX_PLY: usize = 128;

/// Progress of a search, reported after every completed iteration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Score of the principal variation.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
}

impl SearchInfo {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let ms = self.time.as_millis().max(1) as u64;
        self.nodes * 1000 / ms
    }
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` when the position has no legal move.
    pub best: Option<Move>,
    /// The last completed iteration's report.
    pub info: SearchInfo,
}

/// What the search keeps about each ply of the line it is on.
#[derive(Clone, Copy, Debug, Default)]
struct PlyState {
    /// Static evaluation, `None` when in check.
    static_eval: Option<i32>,
    /// The move that left this ply (`None` for a null move).
    played: Option<Played>,
    /// The same move when it was quiet (`None` for a capture, a promotion
    /// or a null move), for the history of a move no reply refuted.
    quiet_move: Option<Move>,
    /// A move left out by the singular-extension test.
    excluded: Option<Move>,
    /// Double extensions on the line from the root to this ply.
    doubles: u8,
    /// Cut-offs in the nodes searched at this ply below the current node
    /// of the ply before: how many of that node's moves were refuted.
    cutoffs: u32,
}

/// More refuted moves than this make a node's later moves reduced further
/// (`search.lmr.cutoffs`): a node whose moves keep being refuted is
/// unlikely to find one that is not.
const CUTOFFS_MANY: u32 = 3;

/// Most double extensions on one line from the root.
const MAX_DOUBLE_EXTENSIONS: u8 = 6;

/// Largest depth and move index of the reduction table.
const REDUCTION_TABLE: usize = 64;

/// Late-move reductions, in plies, by depth and move number.
fn reduction_table(params: &Params) -> Vec<i32> {
    let mut table = vec![0; REDUCTION_TABLE * REDUCTION_TABLE];
    for depth in 1..REDUCTION_TABLE {
        for index in 1..REDUCTION_TABLE {
            let d = (depth as f64).ln();
            let i = (index as f64).ln();
            let r =
                f64::from(params.lmr_base) / 100.0 + d * i / (f64::from(params.lmr_div) / 100.0);
            table[depth * REDUCTION_TABLE + index] = r.max(0.0) as i32;
        }
    }
    table
}

/// Marks a TT entry's static evaluation as absent (stored from a node in check).
const NO_EVAL: i32 = i16::MIN as i32;

/// One search.
pub(crate) struct Searcher<'a> {
    pub(crate) params: &'a Params,
    /// Piece values, for exchanges, ordering and pruning.
    pub(crate) eval: &'a Evaluator,
    /// What scores a position: the classical evaluation or a network.
    evaluation: Evaluation<'a>,
    pub(crate) tt: &'a mut Table,
    pub(crate) heuristics: &'a mut Heuristics,
    pub(crate) stop: &'a AtomicBool,
    pub(crate) limits: &'a Limits,
    pub(crate) features: Features,
    /// Hashes of the game's positions before the root (oldest first).
    pub(crate) history: Vec<u64>,
    started: Instant,
    deadline: Deadline,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    root_depth: i32,
    reductions: Vec<i32>,
    stack: Vec<PlyState>,
    pv: Vec<[Option<Move>; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Nodes spent below each root move over the whole search, for time
    /// management: a best move that takes most of the effort is settled.
    root_effort: Vec<RootEffort>,
}

/// The nodes searched below one root move.
#[derive(Clone, Copy, Debug)]
struct RootEffort {
    root_move: Move,
    nodes: u64,
}

impl<'a> Searcher<'a> {
    #[expect(
        clippy::too_many_arguments,
        reason = "a search is assembled from its parts once"
    )]
    pub(crate) fn new(
        params: &'a Params,
        (eval, evaluation): (&'a Evaluator, Evaluation<'a>),
        tt: &'a mut Table,
        heuristics: &'a mut Heuristics,
        stop: &'a AtomicBool,
        limits: &'a Limits,
        features: Features,
        history: Vec<u64>,
        side: Color,
    ) -> Searcher<'a> {
        let started = Instant::now();
        Searcher {
            params,
            eval,
            evaluation,
            tt,
            heuristics,
            stop,
            limits,
            features,
            history,
            started,
            deadline: limits.deadline(started, side),
            nodes: 0,
            seldepth: 0,
            stopped: false,
            root_depth: 1,
            reductions: reduction_table(params),
            stack: vec![PlyState::default(); MAX_PLY + 4],
            pv: vec![[None; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            root_effort: Vec::new(),
        }
    }

    /// Iterative deepening from `root`, calling `listener` after every
    /// completed iteration.
    pub(crate) fn run(
        &mut self,
        root: &Position,
        listener: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
        self.tt.new_search();
        self.evaluation.start(root);
        let legal = root.legal_moves();
        let mut result = SearchResult {
            best: legal.first().copied(),
            info: SearchInfo {
                depth: 0,
                seldepth: 0,
                score: Score::Centipawns(0),
                nodes: 0,
                time: Duration::ZERO,
                pv: Vec::new(),
            },
        };
        if legal.is_empty() {
            let score = if root.in_check() { -MATE } else { 0 };
            result.info.score = Score::from_internal(score);
            return result;
        }
        let max_depth = self
            .limits
            .depth
            .map_or(MAX_PLY as u32 - 2, |d| d.clamp(1, MAX_PLY as u32 - 2));
        let mut previous = 0;
        let mut stable_iterations = 0u32;
        for depth in 1..=max_depth {
            self.seldepth = 0;
            self.root_depth = depth as i32;
            let score = self.aspiration(root, depth as i32, previous);
            if self.stopped && depth > 1 {
                // A partial iteration may still have improved the root move.
                if let Some(m) = self.pv[0][0] {
                    result.best = Some(m);
                }
                break;
            }
            previous = score;
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0]]
                .iter()
                .flatten()
                .copied()
                .collect();
            let best = pv.first().copied().or(result.best);
            if depth > 1 && best == result.best {
                stable_iterations += 1;
            } else {
                stable_iterations = 0;
            }
            result.best = best;
            result.info = SearchInfo {
                depth,
                seldepth: self.seldepth as u32,
                score: Score::from_internal(score),
                nodes: self.nodes,
                time: self.started.elapsed(),
                pv,
            };
            listener(&result.info);
            let soft_percent = self.soft_time_percent(result.best, stable_iterations);
            if self.stopped || self.deadline.soft_expired(self.started, soft_percent) {
                break;
            }
            if score.abs() >= MATE_BOUND
                && self.limits.depth.is_none()
                && self.limits.nodes.is_none()
                && depth > 8
            {
                // A mate found and proven deeper is not going to change.
                if self.limits.infinite {
                    continue;
                }
                break;
            }
        }
        result.info.nodes = self.nodes;
        result.info.time = self.started.elapsed();
        result
    }

    /// How much of the soft time limit to allow, in percent: with the
    /// defaults, all of it while the best move keeps changing, less for each
    /// iteration it has stayed the same and the larger its share of the
    /// nodes; more (never past the hard limit) only when it took under half
    /// of them. The time saved on settled moves is there for later ones.
    fn soft_time_percent(&self, best: Option<Move>, stable_iterations: u32) -> u32 {
        let p = self.params;
        let stability = (p.time_stability_base
            - p.time_stability_step * stable_iterations.min(20) as i32)
            .max(p.time_stability_min);
        let total: u64 = self.root_effort.iter().map(|e| e.nodes).sum();
        let on_best = self
            .root_effort
            .iter()
            .find(|e| Some(e.root_move) == best)
            .map_or(0, |e| e.nodes);
        let share = (on_best * 100).checked_div(total).map_or(100, |s| s as i32);
        let effort = (p.time_nodes_base - share) * p.time_nodes_scale / 100;
        (stability * effort / 100).max(1) as u32
    }

    /// Counts `nodes` spent below the root move `root_move`.
    fn add_root_effort(&mut self, root_move: Move, nodes: u64) {
        match self
            .root_effort
            .iter_mut()
            .find(|e| e.root_move == root_move)
        {
            Some(e) => e.nodes += nodes,
            None => self.root_effort.push(RootEffort { root_move, nodes }),
        }
    }

    fn aspiration(&mut self, root: &Position, depth: i32, previous: i32) -> i32 {
        if depth < self.params.aspiration_depth || !self.features.aspiration {
            return self.negamax::<Root>(root, depth, -INFINITY, INFINITY, 0, Node::ROOT);
        }
        let mut window = self.params.aspiration;
        let (mut alpha, mut beta) = (previous - window, previous + window);
        loop {
            let score = self.negamax::<Root>(root, depth, alpha, beta, 0, Node::ROOT);
            if self.stopped {
                return score;
            }
            if score <= alpha {
                alpha = (score - window).max(-INFINITY);
            } else if score >= beta {
                beta = (score + window).min(INFINITY);
            } else {
                return score;
            }
            window = window.saturating_mul(2);
            if window > 1000 {
                alpha = -INFINITY;
                beta = INFINITY;
            }
        }
    }

    #[inline]
    fn out_of_budget(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.limits.nodes.is_some_and(|limit| self.nodes >= limit) {
            self.stopped = true;
            return true;
        }
        if self.nodes.is_multiple_of(1024)
            && (self.stop.load(Ordering::Relaxed) || self.deadline.hard_expired(self.started))
        {
            self.stopped = true;
        }
        self.stopped
    }

    fn is_repetition(&self, pos: &Position) -> bool {
        let window = pos.halfmove_clock() as usize;
        let hash = pos.hash();
        self.history
            .iter()
            .rev()
            .skip(1)
            .step_by(2)
            .take(window / 2)
            .any(|&h| h == hash)
    }

    /// The static evaluation of `pos` at `ply`, from the table when it has one: the raw
    /// evaluation (what the table keeps) and the one the search uses, with
    /// the correction history's correction added.
    fn static_eval(&self, pos: &Position, ply: usize, entry: Option<&Entry>) -> StaticEval {
        let raw = match entry.map(|e| i32::from(e.eval)) {
            Some(eval) if eval != NO_EVAL => eval,
            _ => self.evaluation.evaluate(ply, pos),
        };
        let correction = if self.features.correction {
            self.heuristics
                .correction
                .of(pos, self.params.correction_non_pawn)
        } else {
            0
        };
        StaticEval {
            raw,
            corrected: (raw + correction).clamp(-MATE_BOUND + 1, MATE_BOUND - 1),
        }
    }

    /// Whether the static eval at `ply` is better than two plies before.
    fn improving(&self, ply: usize, eval: Option<i32>) -> bool {
        let Some(eval) = eval else { return false };
        let earlier = [2, 4]
            .iter()
            .filter_map(|&back| ply.checked_sub(back))
            .find_map(|p| self.stack[p].static_eval);
        earlier.is_none_or(|e| eval > e)
    }

    /// The history bonus of a cut-off at `depth`.
    fn history_bonus(&self, depth: i32) -> i32 {
        let p = self.params;
        (p.history_mult * depth * depth + p.history_linear * depth).min(p.history_max)
    }

    /// Rewards the quiet move that led to the node at `ply` (where `side`
    /// moves), now that every move there failed low at `depth`
    /// (`search.history.refuting`, a share of a cut-off's bonus).
    fn reward_refuting_quiet(&mut self, ply: usize, side: Color, depth: i32) {
        let p = self.params;
        let Some(parent) = ply.checked_sub(1) else {
            return;
        };
        let state = self.stack[parent];
        let (Some(m), Some(played)) = (state.quiet_move, state.played) else {
            return;
        };
        if !self.features.history || p.history_refuting == 0 {
            return;
        }
        let bonus = self.history_bonus(depth) * p.history_refuting / 100;
        let previous = self.previous(parent);
        self.heuristics
            .reward_refuting_quiet(!side, (m, played), &previous, bonus);
    }

    /// The moves played [`CONTINUATION_PLIES`] before `ply`, for the
    /// continuation history.
    pub(crate) fn previous(&self, ply: usize) -> Previous {
        CONTINUATION_PLIES.map(|back| ply.checked_sub(back).and_then(|p| self.stack[p].played))
    }

    pub(crate) fn played(pos: &Position, m: Move) -> Played {
        Played {
            kind: pos.moving_piece(m).map_or(PieceKind::PAWN, |p| p.kind),
            to: m.to().index(),
        }
    }

    fn has_pieces(&self, pos: &Position) -> bool {
        let us = pos.side_to_move();
        let pawns_and_king = pos.pieces(us, PieceKind::PAWN) | pos.pieces(us, PieceKind::KING);
        (pos.color_pieces(us) & !pawns_and_king).any() || pos.hand_count(us) > 0
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.pv[ply][ply] = Some(m);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }
}

/// A node's static evaluation: as the evaluation gives it, and with the
/// correction history's correction that the search uses.
#[derive(Clone, Copy)]
struct StaticEval {
    raw: i32,
    corrected: i32,
}

/// Neither a capture (en passant included) nor a promotion.
fn is_quiet(pos: &Position, m: Move) -> bool {
    pos.captured_kind(m).is_none()
        && m.promotion_kind().is_none()
        && m.kind() != MoveKind::EnPassant
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_rules::{Square, VariantKind};

    /// Nodes a quiescence search of the chess position `fen` makes with
    /// the window (eval + `alpha_above_eval`, infinity) under `params`,
    /// after a last move that landed on `last_move_to` if given.
    fn quiescence_nodes(
        fen: &str,
        params: &Params,
        alpha_above_eval: i32,
        last_move_to: Option<Square>,
    ) -> u64 {
        let pos = Position::from_fen(VariantKind::Chess, fen).expect("the test FEN is valid");
        let eval = Evaluator::new(VariantKind::Chess.variant(), params);
        let mut tt = Table::new(1);
        let mut heuristics = Heuristics::new(MAX_PLY);
        let stop = AtomicBool::new(false);
        let limits = Limits::default();
        let mut searcher = Searcher::new(
            params,
            (&eval, Evaluation::Classical(&eval)),
            &mut tt,
            &mut heuristics,
            &stop,
            &limits,
            Features::default(),
            Vec::new(),
            pos.side_to_move(),
        );
        let alpha = eval
            .evaluate(&pos)
            .saturating_add(alpha_above_eval)
            .max(-INFINITY);
        let ply = match last_move_to {
            Some(to) => {
                searcher.stack[0].played = Some(Played {
                    kind: PieceKind::KNIGHT,
                    to: to.index(),
                });
                1
            }
            None => 0,
        };
        searcher.quiescence(&pos, alpha, INFINITY, ply);
        searcher.nodes
    }

    #[test]
    fn quiescence_skips_an_even_trade_far_below_alpha_but_not_a_recapture() {
        // Nxd5 takes a knight the e6 pawn defends: the exchange wins nothing.
        let fen = "7k/8/4p3/3n4/8/2N5/8/K7 w - - 0 1";
        let d5 = Square::from_coords(3, 4);
        let params = Params::default();
        let far_below = params.delta_margin;
        assert_eq!(quiescence_nodes(fen, &params, far_below, None), 0);
        assert!(
            quiescence_nodes(fen, &params, -INFINITY, None) > 0,
            "not when alpha is low"
        );
        assert!(
            quiescence_nodes(fen, &params, far_below, d5) > 0,
            "not when it recaptures"
        );
    }
}
