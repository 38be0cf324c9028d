//! The protocol-free engine API: set a position, search it with limits while
//! a listener receives progress, stop from another thread.

use crate::eval::Evaluator;
use crate::evaluation::Evaluation;
use crate::features::Features;
use crate::history::Heuristics;
use crate::limits::Limits;
use crate::nnue::NetEval;
use crate::nnue::net::{NetProblem, Network};
use crate::params::Params;
use crate::search::{MAX_PLY, SearchInfo, SearchResult, Searcher};
use crate::tt::Table;
use ajaxlab_rules::{Game, IllegalMove, Move, Position, Variant};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// Default transposition table size.
pub const DEFAULT_HASH_MB: usize = 16;

/// ajaxlab's engine: one search thread, a transposition table, and the
/// evaluation of the current variant under the current parameters.
pub struct Engine {
    params: Params,
    /// The evaluation of the variant last searched, which it is kept for
    /// (a loaded variant is one `&'static` value, so compared by address).
    evaluator: Option<(&'static Variant, Evaluator)>,
    tt: Table,
    hash_mb: usize,
    heuristics: Heuristics,
    features: Features,
    /// The network that evaluates, `None` for the classical evaluation.
    network: Option<Arc<Network>>,
    game: Option<Game>,
}

impl Engine {
    /// An engine with default parameters and a `hash_mb` MB table.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            params: Params::default(),
            evaluator: None,
            tt: Table::new(hash_mb),
            hash_mb,
            heuristics: Heuristics::new(MAX_PLY),
            features: Features::default(),
            network: None,
            game: None,
        }
    }

    /// The parameters in use.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// Replaces the parameters.
    pub fn set_params(&mut self, params: Params) {
        self.params = params;
        self.evaluator = None;
    }

    /// Switches search features on or off (for ablation matches).
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
    }

    /// Evaluates with `network` (`None`: the classical evaluation). The
    /// table is cleared: the evaluations it keeps are the other's.
    pub fn set_network(&mut self, network: Option<Arc<Network>>) {
        self.network = network;
        self.tt.clear();
    }

    /// The network that evaluates, if one does.
    pub fn network(&self) -> Option<&Arc<Network>> {
        self.network.as_ref()
    }

    /// Whether the network set (if any) is one for the current position's
    /// variant: a search of another variant would not run.
    ///
    /// # Errors
    /// [`NetProblem`] saying how it does not fit.
    pub fn check_network(&self) -> Result<(), NetProblem> {
        match (&self.network, self.position()) {
            (Some(net), Some(pos)) => net.fits(pos.variant()),
            _ => Ok(()),
        }
    }

    /// Resizes (and clears) the transposition table.
    pub fn set_hash(&mut self, megabytes: usize) {
        self.hash_mb = megabytes;
        self.tt = Table::new(megabytes);
    }

    /// Transposition table size in MB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Forgets everything learnt in the previous game.
    pub fn new_game(&mut self) {
        self.tt.clear();
        self.heuristics.clear();
    }

    /// Sets the game to search: a start position and the moves played since.
    ///
    /// # Errors
    /// [`IllegalMove`] naming the first illegal move; the previous position stays.
    pub fn set_position(&mut self, start: Position, moves: &[Move]) -> Result<(), IllegalMove> {
        let mut game = Game::new(start);
        for &m in moves {
            game.play(m)?;
        }
        self.game = Some(game);
        Ok(())
    }

    /// Sets the game directly.
    pub fn set_game(&mut self, game: Game) {
        self.game = Some(game);
    }

    /// The current position, if one is set.
    pub fn position(&self) -> Option<&Position> {
        self.game.as_ref().map(Game::position)
    }

    /// Searches the current position within `limits`, reporting each completed
    /// iteration to `listener`, until a limit is reached or `stop` is set.
    /// Returns `None` if no position is set, or if the network set is not
    /// one for its variant ([`Engine::check_network`] says why).
    pub fn go(
        &mut self,
        limits: &Limits,
        stop: &AtomicBool,
        listener: &mut dyn FnMut(&SearchInfo),
    ) -> Option<SearchResult> {
        let game = self.game.as_ref()?;
        let root = *game.position();
        let variant = root.variant();
        if self
            .evaluator
            .as_ref()
            .is_none_or(|(v, _)| !std::ptr::eq(*v, variant))
        {
            self.evaluator = Some((variant, Evaluator::new(variant, &self.params)));
        }
        let (_, evaluator) = self.evaluator.as_ref()?;
        let evaluation = match &self.network {
            Some(net) => {
                Evaluation::Network(Box::new(NetEval::new(Arc::clone(net), variant).ok()?))
            }
            None => Evaluation::Classical(evaluator),
        };
        let mut history: Vec<u64> = Vec::with_capacity(game.moves().len() + 1);
        let mut pos = *game.start();
        for &m in game.moves() {
            history.push(pos.hash());
            pos.play_unchecked(m);
        }
        let mut searcher = Searcher::new(
            &self.params,
            (evaluator, evaluation),
            &mut self.tt,
            &mut self.heuristics,
            stop,
            limits,
            self.features,
            history,
            root.side_to_move(),
        );
        Some(searcher.run(&root, listener))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_rules::{StartSpec, VariantSet};

    /// A variant of a user's file is searched like a built-in, and the
    /// evaluation is rebuilt when the variant changes.
    #[test]
    fn the_engine_searches_a_variant_loaded_from_a_file() {
        let text = include_str!("../../../tests/fsf/model-variants.ini");
        let set = VariantSet::with_text("model-variants.ini", text).unwrap();
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let mut engine = Engine::new(1);
        for name in ["capablanca-ini", "chess", "dropwazir"] {
            let variant = set.get(name).unwrap();
            let start = Position::start_in(variant, &StartSpec::Default).unwrap();
            engine.set_position(start, &[]).unwrap();
            let result = engine
                .go(&limits, &AtomicBool::new(false), &mut |_| {})
                .unwrap();
            let best = result.best.unwrap();
            assert!(start.legal_moves().contains(best), "{name}");
            assert!(std::ptr::eq(engine.evaluator.as_ref().unwrap().0, variant));
        }
    }
}
