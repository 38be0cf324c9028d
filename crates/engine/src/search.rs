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

use crate::eval::Evaluator;
use crate::features::Features;
use crate::history::{CONTINUATION_PLIES, Heuristics, Played, Previous};
use crate::limits::{Deadline, Limits};
use crate::ordering::KILLER_SCORE;
use crate::params::Params;
use crate::see::see_at_least;
use crate::tt::{Bound, Entry, Stored, Table};
use ajaxlab_rules::{Color, Move, MoveKind, PieceKind, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Score of delivering mate now; mate in n plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Deepest ply the search reaches.
pub(crate) const MAX_PLY: usize = 128;
const INFINITY: i32 = 31_000;
const MATE_BOUND: i32 = MATE - MAX_PLY as i32;

/// A score as UCI reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Centipawns(i32),
    /// Mate in this many moves (negative: being mated).
    Mate(i32),
}

impl Score {
    fn from_internal(score: i32) -> Score {
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
    pub(crate) eval: &'a Evaluator,
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
        eval: &'a Evaluator,
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
            return self.negamax(root, depth, -INFINITY, INFINITY, 0, Node::ROOT);
        }
        let mut window = self.params.aspiration;
        let (mut alpha, mut beta) = (previous - window, previous + window);
        loop {
            let score = self.negamax(root, depth, alpha, beta, 0, Node::ROOT);
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

    /// The static evaluation, from the table when it has one: the raw
    /// evaluation (what the table keeps) and the one the search uses, with
    /// the correction history's correction added.
    fn static_eval(&self, pos: &Position, entry: Option<&Entry>) -> StaticEval {
        let raw = match entry.map(|e| i32::from(e.eval)) {
            Some(eval) if eval != NO_EVAL => eval,
            _ => self.eval.evaluate(pos),
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
        CONTINUATION_PLIES.map(|back| {
            // The move four plies back counts only with `search.history.cont4` on.
            if back == 4 && self.params.history_cont4 == 0 {
                return None;
            }
            ply.checked_sub(back).and_then(|p| self.stack[p].played)
        })
    }

    pub(crate) fn played(pos: &Position, m: Move) -> Played {
        Played {
            kind: pos.moving_piece(m).map_or(PieceKind::PAWN, |p| p.kind),
            to: m.to().index(),
        }
    }

    #[expect(
        clippy::too_many_lines,
        reason = "the node's steps read best in their order"
    )]
    fn negamax(
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
        if ply > 0 && self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        let root = ply == 0;
        if !root {
            if pos.halfmove_clock() >= 100 || self.is_repetition(pos) {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return if in_check { 0 } else { self.eval.evaluate(pos) };
            }
            // Mate distance: no line from here beats a mate already found nearer the root.
            alpha = alpha.max(-MATE + ply as i32);
            beta = beta.min(MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
        }
        let mut depth = depth.max(1);
        let excluded = self.stack[ply].excluded;
        self.stack[ply + 1].doubles = self.stack[ply].doubles;
        self.stack[ply + 1].cutoffs = 0;

        let hash = pos.hash();
        let entry = if excluded.is_none() {
            self.tt.probe(hash)
        } else {
            None
        };
        let hash_move = entry.and_then(|e| e.best);
        let tt_pv = pv_node || entry.is_some_and(|e| e.tt_pv);
        let tt_score = entry.map(|e| from_tt(i32::from(e.score), ply));
        if let (Some(e), Some(score)) = (entry, tt_score)
            && !pv_node
            && i32::from(e.depth) >= depth
            && cuts_off(e.bound, score, alpha, beta)
        {
            return score;
        }

        let evals = (!in_check).then(|| self.static_eval(pos, entry.as_ref()));
        let static_eval = evals.map(|e| e.corrected);
        self.stack[ply].static_eval = static_eval;
        let improving = self.improving(ply, static_eval);
        let pruning_eval = static_eval.map(|eval| match (entry, tt_score) {
            (Some(e), Some(score)) => refined_by_table(eval, e.bound, score),
            _ => eval,
        });
        let p = self.params;
        if let Some(eval) = pruning_eval
            && !pv_node
            && !root
            && excluded.is_none()
        {
            if self.features.pruning
                && p.razor_margin > 0
                && eval < alpha - p.razor_margin * (2 + depth * depth)
            {
                let score = self.quiescence(pos, alpha - 1, alpha, ply);
                if self.stopped {
                    return 0;
                }
                if score < alpha && score.abs() < MATE_BOUND {
                    return score;
                }
            }
            let margin = (p.rfp_margin - p.rfp_improving * i32::from(improving)) * depth;
            if self.features.pruning
                && depth <= p.rfp_depth
                && eval - margin >= beta
                && beta.abs() < MATE_BOUND
            {
                return eval;
            }
            if self.features.null_move
                && node.null_ok
                && depth >= p.nmp_min_depth
                && eval >= beta
                && self.has_pieces(pos)
            {
                let r = p.nmp_base
                    + depth / p.nmp_depth_div.max(1)
                    + ((eval - beta) / p.nmp_eval_div.max(1)).min(3);
                let mut child = *pos;
                child.play_null();
                self.stack[ply].played = None;
                self.stack[ply].quiet_move = None;
                self.history.push(hash);
                let after_null = Node {
                    null_ok: false,
                    cut: !node.cut,
                };
                let score =
                    -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, after_null);
                self.history.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }
        if self.features.iir && depth >= p.iir_depth && hash_move.is_none() && excluded.is_none() {
            depth -= 1;
        }

        let moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut ordered = self.order(pos, moves, hash_move, ply);
        let previous = self.previous(ply);
        let side = pos.side_to_move();

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut searched = 0usize;
        let mut quiets_tried: Vec<(Move, Played)> = Vec::new();
        let mut captures_tried: Vec<(Played, PieceKind)> = Vec::new();
        self.history.push(hash);
        for index in 0..ordered.moves.len() {
            let (m, order_score) = ordered.pick(index);
            if Some(m) == excluded {
                continue;
            }
            let quiet = is_quiet(pos, m);
            let played = Self::played(pos, m);
            let mut child = *pos;
            child.play_unchecked(m);
            let gives_check = child.in_check();
            let killer = order_score == KILLER_SCORE || order_score == KILLER_SCORE - 1;
            let quiet_history = if quiet {
                self.heuristics.quiet(side, m)
                    + self.heuristics.continuation(side, &previous, played)
            } else {
                0
            };

            if self.features.pruning && !root && best > -MATE_BOUND && searched > 0 {
                if quiet && !gives_check && !in_check {
                    let lmp_limit = (p.lmp_base + depth * depth) / (2 - i32::from(improving));
                    if depth <= p.lmp_depth && quiets_tried.len() as i32 >= lmp_limit {
                        continue;
                    }
                    if let Some(eval) = pruning_eval
                        && depth <= p.futility_depth
                        && eval + p.futility_base + p.futility_margin * depth <= alpha
                    {
                        continue;
                    }
                    if depth <= p.see_depth
                        && !see_at_least(pos, self.eval, m, -p.see_quiet * depth * depth)
                    {
                        continue;
                    }
                } else if !quiet
                    && !gives_check
                    && depth <= p.see_depth
                    && !see_at_least(pos, self.eval, m, -p.see_capture * depth)
                {
                    continue;
                }
            }

            let mut extension = 0;
            if self.features.singular
                && !root
                && Some(m) == hash_move
                && depth >= p.singular_depth
                && excluded.is_none()
                && let (Some(e), Some(score)) = (entry, tt_score)
                && i32::from(e.depth) >= depth - 3
                && e.bound != Bound::Upper
                && score.abs() < MATE_BOUND
            {
                let singular_beta = score - p.singular_margin * depth;
                self.stack[ply].excluded = Some(m);
                self.history.pop();
                let s = self.negamax(
                    pos,
                    (depth - 1) / 2,
                    singular_beta - 1,
                    singular_beta,
                    ply,
                    Node {
                        null_ok: false,
                        cut: node.cut,
                    },
                );
                self.history.push(hash);
                self.stack[ply].excluded = None;
                self.stack[ply].static_eval = static_eval;
                if self.stopped {
                    self.history.pop();
                    return 0;
                }
                if s < singular_beta {
                    let double = p.singular_double > 0
                        && !pv_node
                        && s < singular_beta - p.singular_double
                        && self.stack[ply].doubles < MAX_DOUBLE_EXTENSIONS;
                    extension = if double { 2 } else { 1 };
                } else if singular_beta >= beta {
                    // Several moves beat beta: this node cuts off anyway.
                    self.history.pop();
                    return singular_beta;
                }
            } else if gives_check
                && self.features.check_extension
                && (ply as i32) < 2 * self.root_depth
                && see_at_least(pos, self.eval, m, 0)
            {
                extension = 1;
            }
            let new_depth = depth - 1 + extension;

            self.stack[ply].played = Some(played);
            self.stack[ply].quiet_move = quiet.then_some(m);
            self.stack[ply + 1].doubles = self.stack[ply].doubles + u8::from(extension == 2);
            let nodes_before = self.nodes;
            self.nodes += 1;
            let score = if searched == 0 {
                let first = Node::child(!pv_node && !node.cut);
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, first)
            } else {
                let mut r = 0;
                if self.features.lmr
                    && depth >= p.lmr_min_depth
                    && searched >= p.lmr_min_move.max(1) as usize
                    && quiet
                    && (!in_check || p.lmr_in_check > 0)
                {
                    let d = (depth as usize).min(REDUCTION_TABLE - 1);
                    let i = searched.min(REDUCTION_TABLE - 1);
                    r = self.reductions[d * REDUCTION_TABLE + i];
                    r -= i32::from(pv_node);
                    r += i32::from(!improving);
                    r -= i32::from(killer);
                    r -= i32::from(gives_check);
                    r -= quiet_history / p.lmr_history_div.max(1);
                    r += p.lmr_cut_node * i32::from(node.cut);
                    r -= p.lmr_tt_pv * i32::from(tt_pv && !pv_node);
                    r += p.lmr_cutoffs * i32::from(self.stack[ply + 1].cutoffs > CUTOFFS_MANY);
                    r = r.clamp(0, (new_depth - 1).max(0));
                }
                let reduced = Node::child(true);
                let mut s =
                    -self.negamax(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, reduced);
                if s > alpha && r > 0 {
                    // A reduced move that beat alpha by far is searched a
                    // ply deeper, one that barely beat the best a ply shallower.
                    let mut research_depth = new_depth;
                    if p.lmr_deeper > 0 {
                        if s > best + p.lmr_deeper + 2 * new_depth {
                            research_depth += 1;
                        } else if s < best + new_depth {
                            research_depth -= 1;
                        }
                    }
                    if research_depth > new_depth - r {
                        let full = Node::child(!node.cut);
                        s = -self.negamax(
                            &child,
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
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, pv);
                }
                s
            };
            if root {
                self.add_root_effort(m, self.nodes - nodes_before);
            }
            if self.stopped {
                self.history.pop();
                return 0;
            }
            searched += 1;
            if quiet {
                quiets_tried.push((m, played));
            } else if let Some(victim) = pos.captured_kind(m) {
                captures_tried.push((played, victim));
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        self.stack[ply].cutoffs += 1;
                        let bonus = self.history_bonus(depth);
                        if self.features.history {
                            if quiet {
                                self.heuristics.reward_quiet(
                                    side,
                                    ply,
                                    (m, played),
                                    &quiets_tried,
                                    &previous,
                                    bonus,
                                );
                            } else if let Some(victim) = pos.captured_kind(m) {
                                self.heuristics.reward_capture(
                                    (played, victim),
                                    &captures_tried,
                                    bonus,
                                );
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.history.pop();
        if searched == 0 {
            // Only the excluded move was legal: the singular test fails low.
            return alpha;
        }
        if excluded.is_none() && best_move.is_none() {
            self.reward_refuting_quiet(ply, side, depth);
        }
        if excluded.is_none() {
            let window = Window {
                alpha: original_alpha,
                beta,
            };
            let quiet_best = best_move.is_none_or(|m| is_quiet(pos, m));
            if let Some(e) = evals
                && self.features.correction
                && quiet_best
                && best.abs() < MATE_BOUND
                && !(best >= beta && best <= e.corrected)
                && !(best <= original_alpha && best >= e.corrected)
            {
                self.heuristics.correction.update(
                    pos,
                    best - e.corrected,
                    depth,
                    p.correction_non_pawn,
                );
            }
            let raw = evals.map(|e| e.raw);
            let found = Found {
                score: best,
                best: best_move,
                tt_pv,
            };
            self.store(hash, window, found, raw, depth, ply);
        }
        best
    }

    fn quiescence(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.eval.evaluate(pos) };
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
        let evals = (!in_check).then(|| self.static_eval(pos, entry.as_ref()));
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
        let p = self.params;
        for index in 0..ordered.moves.len() {
            let (m, _) = ordered.pick(index);
            let mut futile = false;
            if !in_check {
                if m.promotion_kind()
                    .is_some_and(|k| k != self.eval.best_promotion())
                {
                    continue;
                }
                let promotion = m.promotion_kind().is_some();
                let gain = pos.captured_kind(m).map_or(0, |k| self.eval.piece_value(k));
                if stand_pat + gain + p.delta_margin < alpha && !promotion {
                    continue;
                }
                if !see_at_least(pos, self.eval, m, p.qs_see) {
                    continue;
                }
                // Far below alpha, a capture must win material to be worth
                // a look, unless it recaptures on the last move's square.
                futile = p.qs_futility_see > 0
                    && !promotion
                    && recapture_square != Some(m.to().index())
                    && stand_pat + p.delta_margin <= alpha
                    && !see_at_least(pos, self.eval, m, 1);
            }
            let mut child = *pos;
            child.play_unchecked(m);
            if futile && !child.in_check() {
                continue;
            }
            self.stack[ply].played = Some(Self::played(pos, m));
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

    /// Stores a node's result: `found` is what it found,
    /// `window` the bounds the node was searched with, `static_eval` the
    /// raw static evaluation.
    fn store(
        &mut self,
        hash: u64,
        window: Window,
        found: Found,
        static_eval: Option<i32>,
        depth: i32,
        ply: usize,
    ) {
        let Found {
            score: best,
            best: best_move,
            tt_pv,
        } = found;
        let bound = if best >= window.beta {
            Bound::Lower
        } else if best > window.alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(
            hash,
            Stored {
                best: best_move,
                score: to_tt(best, ply),
                eval: static_eval.unwrap_or(NO_EVAL),
                depth,
                bound,
                tt_pv,
            },
        );
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

/// What a node is told by its parent: whether it may try a null move, and
/// whether it is expected to fail high (a cut node: the zero-window search
/// of a move after the first, or an alternate child of one), where late
/// moves may be reduced more.
#[derive(Clone, Copy)]
struct Node {
    null_ok: bool,
    cut: bool,
}

impl Node {
    /// The root: a PV node.
    const ROOT: Node = Node {
        null_ok: true,
        cut: false,
    };

    /// A child of an ordinary move, expected to cut off or not.
    fn child(cut: bool) -> Node {
        Node { null_ok: true, cut }
    }
}

/// What a node found, for the transposition table.
#[derive(Clone, Copy)]
struct Found {
    /// The best score.
    score: i32,
    /// The move that scored it, if one beat alpha.
    best: Option<Move>,
    /// Whether the node is or was on a principal variation.
    tt_pv: bool,
}

/// The alpha-beta window a node was entered with.
#[derive(Clone, Copy)]
struct Window {
    alpha: i32,
    beta: i32,
}

/// The static evaluation `eval` for the pruning decisions, replaced by the
/// table's `score` (stored with `bound`) where the bound says the true
/// score lies beyond `eval` on that side: a searched score is better
/// evidence than a static one. Mate scores are left out.
fn refined_by_table(eval: i32, bound: Bound, score: i32) -> i32 {
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
fn cuts_off(bound: Bound, score: i32, alpha: i32, beta: i32) -> bool {
    match bound {
        Bound::Exact => true,
        Bound::Lower => score >= beta,
        Bound::Upper => score <= alpha,
    }
}

fn is_quiet(pos: &Position, m: Move) -> bool {
    pos.captured_kind(m).is_none()
        && m.promotion_kind().is_none()
        && m.kind() != MoveKind::EnPassant
}

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
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
            &eval,
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
        let mut params = Params::default();
        let far_below = params.delta_margin;
        params.qs_futility_see = 0;
        assert!(quiescence_nodes(fen, &params, far_below, None) > 0);
        params.qs_futility_see = 1;
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
