//! How the search scores a position: the classical evaluation
//! ([`Evaluator`]) or a network ([`NetEval`]), one interface for both. The
//! search tells it where the line goes (the root, then each move from a
//! ply to the next) and asks for the value at a ply; the classical
//! evaluation needs nothing but the position, a network updates its
//! accumulators as the line moves.

use crate::eval::Evaluator;
use crate::nnue::NetEval;
use ajaxlab_rules::Position;

/// The evaluation a search uses.
pub(crate) enum Evaluation<'a> {
    /// The classical evaluation.
    Classical(&'a Evaluator),
    /// A network.
    Network(Box<NetEval>),
}

impl Evaluation<'_> {
    /// The search starts from `root` (ply 0).
    pub(crate) fn start(&mut self, root: &Position) {
        if let Evaluation::Network(net) = self {
            net.refresh(0, root);
        }
    }

    /// The line goes from `before` at `ply` to `after` at `ply + 1`.
    pub(crate) fn descend(&mut self, ply: usize, before: &Position, after: &Position) {
        if let Evaluation::Network(net) = self {
            net.descend(ply, before, after);
        }
    }

    /// The value of `pos`, at `ply` of the line, for the side to move.
    pub(crate) fn evaluate(&self, ply: usize, pos: &Position) -> i32 {
        match self {
            Evaluation::Classical(eval) => eval.evaluate(pos),
            Evaluation::Network(net) => net.evaluate(ply, pos),
        }
    }
}
