//! The builtin engine as a player: searched in-process, no pipes, no text.

use super::{MoveRequest, Player, PlayerError, PlayerMove};
use crate::tc::TimeControl;
use ajaxlab_engine::{Clock, Engine, Features, Limits, Params};
use ajaxlab_rules::Variant;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// The builtin engine with a parameter vector.
pub struct BuiltinPlayer {
    name: String,
    engine: Engine,
    /// Set from outside to make searches return at once (abandoning a unit).
    stop: Arc<AtomicBool>,
}

impl BuiltinPlayer {
    /// A builtin player named `name` with `params`, search `features` and a
    /// `hash_mb` MB table. Setting `stop` makes its searches return at once.
    pub fn new(
        name: &str,
        params: Params,
        features: Features,
        hash_mb: usize,
        stop: Arc<AtomicBool>,
    ) -> BuiltinPlayer {
        let mut engine = Engine::new(hash_mb);
        engine.set_params(params);
        engine.set_features(features);
        BuiltinPlayer {
            name: name.to_owned(),
            engine,
            stop,
        }
    }
}

/// Engine limits for the time control of a request.
fn limits(request: &MoveRequest<'_>) -> Limits {
    match request.tc {
        TimeControl::Nodes(n) | TimeControl::JitteredNodes { nodes: n, .. } => Limits {
            nodes: Some(n),
            ..Limits::default()
        },
        TimeControl::Depth(d) => Limits {
            depth: Some(d),
            ..Limits::default()
        },
        TimeControl::MoveTime(t) => Limits {
            movetime: Some(t),
            ..Limits::default()
        },
        TimeControl::Clock {
            base, increment, ..
        } => {
            let [w, b] = request.clocks.unwrap_or([base, base]);
            Limits {
                clocks: Some([
                    Clock {
                        remaining: w,
                        increment,
                    },
                    Clock {
                        remaining: b,
                        increment,
                    },
                ]),
                moves_to_go: request.moves_to_go,
                ..Limits::default()
            }
        }
    }
}

impl Player for BuiltinPlayer {
    fn name(&self) -> &str {
        &self.name
    }

    fn version(&self) -> String {
        format!("ajaxlab {}", env!("CARGO_PKG_VERSION"))
    }

    fn param_values(&self, variant: &'static Variant) -> Vec<i32> {
        self.engine
            .params()
            .iter_for(variant)
            .map(|(_, v)| v)
            .collect()
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        self.engine.new_game();
        Ok(())
    }

    fn play(&mut self, request: &MoveRequest<'_>) -> Result<PlayerMove, PlayerError> {
        self.engine.set_game(request.game.clone());
        let limits = limits(request);
        let result = self
            .engine
            .go(&limits, &self.stop, &mut |_| {})
            .ok_or_else(|| PlayerError::Unusable("no position".into()))?;
        let mv = result
            .best
            .ok_or_else(|| PlayerError::IllegalMove("(none)".into()))?;
        Ok(PlayerMove {
            mv,
            score: Some(result.info.score.to_centipawns()),
            depth: Some(result.info.depth),
            nodes: Some(result.info.nodes),
        })
    }
}
