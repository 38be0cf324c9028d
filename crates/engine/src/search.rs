//! The search: iterative deepening, principal variation search with
//! aspiration windows, a transposition table, quiescence search, move
//! ordering (hash move, MVV-LVA, killers, history), null-move pruning,
//! reverse futility, futility and late-move pruning, late-move reductions
//! and a check extension. Drops and gating moves are searched like any other
//! move. One thread; a node-limited search is deterministic.

use crate::eval::Evaluator;
use crate::limits::{Deadline, Limits};
use crate::params::Params;
use crate::tt::{Bound, Table};
use ajaxlab_rules::{Color, Move, MoveKind, MoveList, PieceKind, Position};
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

/// Search features that can be switched off, to measure what each is worth
/// (ablation matches). All are on by default.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Features {
    /// Null-move pruning.
    pub null_move: bool,
    /// Late-move reductions.
    pub lmr: bool,
    /// Reverse futility, futility and late-move pruning.
    pub pruning: bool,
    /// Aspiration windows.
    pub aspiration: bool,
    /// Check extension.
    pub check_extension: bool,
    /// Killer and history move ordering (hash move and MVV-LVA stay).
    pub history: bool,
}

impl Default for Features {
    fn default() -> Features {
        Features {
            null_move: true,
            lmr: true,
            pruning: true,
            aspiration: true,
            check_extension: true,
            history: true,
        }
    }
}

impl Features {
    /// Names accepted by [`Features::disable`].
    pub const NAMES: [&'static str; 6] = [
        "null-move",
        "lmr",
        "pruning",
        "aspiration",
        "check-extension",
        "history",
    ];

    /// The names of the features switched off.
    pub fn disabled(&self) -> Vec<&'static str> {
        let flags = [
            self.null_move,
            self.lmr,
            self.pruning,
            self.aspiration,
            self.check_extension,
            self.history,
        ];
        Self::NAMES
            .iter()
            .zip(flags)
            .filter(|(_, on)| !on)
            .map(|(name, _)| *name)
            .collect()
    }

    /// Switches off the feature `name`; false if there is no such feature.
    pub fn disable(&mut self, name: &str) -> bool {
        let flag = match name {
            "null-move" => &mut self.null_move,
            "lmr" => &mut self.lmr,
            "pruning" => &mut self.pruning,
            "aspiration" => &mut self.aspiration,
            "check-extension" => &mut self.check_extension,
            "history" => &mut self.history,
            _ => return false,
        };
        *flag = false;
        true
    }
}

/// Killer moves and history, kept between searches of one game.
pub(crate) struct Heuristics {
    killers: Vec<[Option<Move>; 2]>,
    history: Vec<i32>,
}

const HISTORY_SQUARES: usize = ajaxlab_rules::SQUARE_COUNT;
const HISTORY_MAX: i32 = 16_384;

impl Heuristics {
    pub(crate) fn new() -> Heuristics {
        Heuristics {
            killers: vec![[None; 2]; MAX_PLY + 2],
            history: vec![0; 2 * HISTORY_SQUARES * HISTORY_SQUARES],
        }
    }

    pub(crate) fn clear(&mut self) {
        *self = Heuristics::new();
    }

    #[inline]
    fn history_index(color: Color, m: Move) -> usize {
        (color.index() * HISTORY_SQUARES + m.from().index()) * HISTORY_SQUARES + m.to().index()
    }

    fn reward(&mut self, color: Color, m: Move, bonus: i32) {
        let h = &mut self.history[Self::history_index(color, m)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }
}

/// Late-move reduction, in plies, for the `index`-th move at `depth`.
fn reduction(params: &Params, depth: i32, index: usize) -> i32 {
    let d = f64::from(depth.max(1)).ln();
    let i = (index.max(1) as f64).ln();
    let r = f64::from(params.lmr_base) / 100.0 + d * i / (f64::from(params.lmr_div) / 100.0);
    r.max(0.0) as i32
}

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
    pv: Vec<[Option<Move>; MAX_PLY]>,
    pv_len: [usize; MAX_PLY + 1],
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
            pv: vec![[None; MAX_PLY]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
        }
    }

    /// Iterative deepening from `root`, calling `listener` after every
    /// completed iteration.
    pub(crate) fn run(
        &mut self,
        root: &Position,
        listener: &mut dyn FnMut(&SearchInfo),
    ) -> SearchResult {
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
        for depth in 1..=max_depth {
            self.seldepth = 0;
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
            result.best = pv.first().copied().or(result.best);
            result.info = SearchInfo {
                depth,
                seldepth: self.seldepth as u32,
                score: Score::from_internal(score),
                nodes: self.nodes,
                time: self.started.elapsed(),
                pv,
            };
            listener(&result.info);
            if self.stopped || self.deadline.soft_expired(self.started) {
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

    fn aspiration(&mut self, root: &Position, depth: i32, previous: i32) -> i32 {
        if depth < 5 || !self.features.aspiration {
            return self.negamax(root, depth, -INFINITY, INFINITY, 0, true);
        }
        let mut window = self.params.aspiration;
        let (mut alpha, mut beta) = (previous - window, previous + window);
        loop {
            let score = self.negamax(root, depth, alpha, beta, 0, true);
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

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        null_ok: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let in_check = pos.in_check();
        if depth <= 0 && !in_check {
            return self.quiescence(pos, alpha, beta, ply);
        }
        self.nodes += 1;
        if ply > 0 && self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        if ply > 0 {
            if pos.halfmove_clock() >= 100 || self.is_repetition(pos) {
                return 0;
            }
            if ply >= MAX_PLY - 1 {
                return self.eval.evaluate(pos);
            }
            let mated = -MATE + ply as i32;
            if mated >= beta {
                return mated;
            }
        }
        let depth = depth.max(1);

        let hash = pos.hash();
        let entry = self.tt.probe(hash);
        let hash_move = entry.and_then(|e| e.best);
        if let Some(e) = entry.filter(|e| !pv_node && ply > 0 && i32::from(e.depth) >= depth) {
            let score = from_tt(i32::from(e.score), ply);
            let cutoff = match e.bound {
                Bound::Exact => true,
                Bound::Lower => score >= beta,
                Bound::Upper => score <= alpha,
            };
            if cutoff {
                return score;
            }
        }

        let static_eval = if in_check {
            -INFINITY
        } else {
            self.eval.evaluate(pos)
        };
        if !pv_node && !in_check && ply > 0 {
            if self.features.pruning
                && depth <= 6
                && static_eval - self.params.rfp_margin * depth >= beta
                && beta.abs() < MATE_BOUND
            {
                return static_eval;
            }
            if self.features.null_move
                && null_ok
                && depth >= 3
                && static_eval >= beta
                && self.has_pieces(pos)
            {
                let r = self.params.nmp_base + depth / self.params.nmp_depth_div.max(1);
                let mut child = *pos;
                child.play_null();
                self.history.push(hash);
                let score = -self.negamax(&child, depth - 1 - r, -beta, -beta + 1, ply + 1, false);
                self.history.pop();
                if self.stopped {
                    return 0;
                }
                if score >= beta {
                    return if score >= MATE_BOUND { beta } else { score };
                }
            }
        }

        let mut moves = pos.legal_moves();
        if moves.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut scores = self.score_moves(pos, &moves, hash_move, ply);

        let original_alpha = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried: Vec<Move> = Vec::new();
        self.history.push(hash);
        for index in 0..moves.len() {
            let m = pick(&mut moves, &mut scores, index);
            let quiet = is_quiet(pos, m);
            if self.features.pruning
                && !pv_node
                && !in_check
                && quiet
                && best > -MATE_BOUND
                && index > 0
            {
                if depth <= 8 && quiets_tried.len() as i32 >= self.params.lmp_base + depth * depth {
                    continue;
                }
                if depth <= 4 && static_eval + self.params.futility_margin * depth <= alpha {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(m);
            let gives_check = child.in_check();
            let new_depth = depth - 1 + i32::from(gives_check && self.features.check_extension);
            let score = if index == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true)
            } else {
                let r = if self.features.lmr
                    && depth >= 3
                    && index >= 3
                    && quiet
                    && !in_check
                    && !gives_check
                {
                    let mut r = reduction(self.params, depth, index);
                    if pv_node {
                        r -= 1;
                    }
                    r.clamp(0, new_depth - 1)
                } else {
                    0
                };
                let mut s = -self.negamax(&child, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if s > alpha && r > 0 {
                    s = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1, true);
                }
                if s > alpha && s < beta {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1, true);
                }
                s
            };
            if self.stopped {
                self.history.pop();
                return 0;
            }
            if quiet {
                quiets_tried.push(m);
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if alpha >= beta {
                        if quiet {
                            self.reward_cutoff(pos.side_to_move(), m, &quiets_tried, depth, ply);
                        }
                        break;
                    }
                }
            }
        }
        self.history.pop();
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt
            .store(hash, best_move, to_tt(best, ply), depth, bound);
        best
    }

    fn quiescence(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.out_of_budget() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let in_check = pos.in_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { 0 } else { self.eval.evaluate(pos) };
        }
        let stand_pat = if in_check {
            -INFINITY
        } else {
            self.eval.evaluate(pos)
        };
        if stand_pat >= beta {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let all = pos.legal_moves();
        if all.is_empty() {
            return if in_check { -MATE + ply as i32 } else { 0 };
        }
        let mut moves = MoveList::new();
        for &m in all.iter() {
            let tactical =
                pos.captured_kind(m).is_some() || m.promotion_kind() == Some(PieceKind::Queen);
            if in_check || tactical {
                moves.push(m);
            }
        }
        let mut scores = self.score_moves(pos, &moves, None, MAX_PLY);
        let mut best = stand_pat;
        for index in 0..moves.len() {
            let m = pick(&mut moves, &mut scores, index);
            if !in_check {
                let gain = pos.captured_kind(m).map_or(0, |k| self.eval.piece_value(k));
                if stand_pat + gain + self.params.delta_margin < alpha
                    && m.promotion_kind().is_none()
                {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(m);
            let score = -self.quiescence(&child, -beta, -alpha, ply + 1);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn has_pieces(&self, pos: &Position) -> bool {
        let us = pos.side_to_move();
        let pawns_and_king = pos.pieces(us, PieceKind::Pawn) | pos.pieces(us, PieceKind::King);
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

    fn reward_cutoff(&mut self, side: Color, m: Move, tried: &[Move], depth: i32, ply: usize) {
        let bonus = (depth * depth).min(400);
        self.heuristics.reward(side, m, bonus * 32);
        for &other in tried {
            if other != m {
                self.heuristics.reward(side, other, -bonus * 32);
            }
        }
        let killers = &mut self.heuristics.killers[ply];
        if killers[0] != Some(m) {
            killers[1] = killers[0];
            killers[0] = Some(m);
        }
    }

    fn score_moves(
        &self,
        pos: &Position,
        moves: &MoveList,
        hash_move: Option<Move>,
        ply: usize,
    ) -> Vec<i32> {
        let side = pos.side_to_move();
        let killers = self
            .heuristics
            .killers
            .get(ply)
            .copied()
            .unwrap_or([None; 2]);
        moves
            .iter()
            .map(|&m| {
                if Some(m) == hash_move {
                    return 1 << 30;
                }
                if let Some(victim) = pos.captured_kind(m) {
                    let attacker = pos
                        .moving_piece(m)
                        .map_or(0, |p| self.eval.piece_value(p.kind));
                    return (1 << 28) + self.eval.piece_value(victim) * 16 - attacker / 16;
                }
                if let Some(p) = m.promotion_kind() {
                    return (1 << 27) + self.eval.piece_value(p);
                }
                if !self.features.history {
                    return 0;
                }
                if killers[0] == Some(m) {
                    return 1 << 26;
                }
                if killers[1] == Some(m) {
                    return (1 << 26) - 1;
                }
                self.heuristics.history[Heuristics::history_index(side, m)]
            })
            .collect()
    }
}

/// Brings the best-scored remaining move to `index` and returns it.
#[inline]
fn pick(moves: &mut MoveList, scores: &mut [i32], index: usize) -> Move {
    let mut best = index;
    for i in index + 1..scores.len() {
        if scores[i] > scores[best] {
            best = i;
        }
    }
    moves.as_mut_slice().swap(index, best);
    scores.swap(index, best);
    moves[index]
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
