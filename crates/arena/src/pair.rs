//! One pair of games, the unit of every match: the same opening twice,
//! colours swapped, from the pair's own seed; and the players that play
//! it, checked before the first game.

use crate::config::{MatchConfig, PlayerConfig, PlayerKind};
use crate::player::{BuiltinPlayer, Player, PlayerError, UciPlayer, bench};
use crate::referee::{GameSpec, play_game};
use ajaxlab_stats::{RandomSource, SplitMix64};
use ajaxlab_store::GameRecord;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

/// A player that cannot be started (missing binary, no UCI, variant
/// unsupported).
#[derive(Debug, thiserror::Error)]
#[error("player '{name}': {error}")]
pub struct PlayerFailure {
    /// The player.
    pub name: String,
    /// Why.
    pub error: PlayerError,
}

/// A player that cannot play.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// It cannot be started.
    #[error(transparent)]
    Player(#[from] PlayerFailure),
    /// A UCI player's build prints another bench than it states.
    #[error("player '{name}': {error}")]
    Bench {
        /// The player.
        name: String,
        /// Why.
        error: bench::BenchError,
    },
}

/// Creates a player; builtin players stop searching when `stop` is set.
///
/// # Errors
/// [`PlayerFailure`] if it cannot play (missing binary, no UCI, variant unsupported).
pub fn make_player(
    config: &PlayerConfig,
    hash_mb: usize,
    stop: &Arc<AtomicBool>,
) -> Result<Box<dyn Player>, PlayerFailure> {
    match &config.kind {
        PlayerKind::Builtin(params, features) => Ok(Box::new(BuiltinPlayer::new(
            &config.name,
            params.as_ref().clone(),
            *features,
            hash_mb,
            Arc::clone(stop),
        ))),
        PlayerKind::Uci(c) => UciPlayer::start(c.clone())
            .map(|p| Box::new(p) as Box<dyn Player>)
            .map_err(|error| PlayerFailure {
                name: config.name.clone(),
                error,
            }),
    }
}

/// Checks that `player` can play, and is the build its bench says, before
/// any game: a match refuses a player that cannot before it creates
/// anything.
///
/// # Errors
/// [`MatchError`] naming the player.
pub fn check_player(player: &PlayerConfig, hash_mb: usize) -> Result<(), MatchError> {
    if let PlayerKind::Uci(u) = &player.kind
        && let Some(stated) = &u.bench
    {
        bench::check(&u.command, stated, bench::BENCH_TIMEOUT).map_err(|error| {
            MatchError::Bench {
                name: player.name.clone(),
                error,
            }
        })?;
    }
    make_player(player, hash_mb, &Arc::new(AtomicBool::new(false)))?;
    Ok(())
}

/// The seed of pair `pair` of a run seeded `seed`.
pub fn pair_seed(seed: u64, pair: u64) -> u64 {
    SplitMix64::new(seed ^ pair.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64()
}

/// Plays both games of pair `pair`: the first player is White in game 0.
pub fn play_pair(
    config: &MatchConfig,
    pair: u64,
    players: &mut [Box<dyn Player>; 2],
) -> [GameRecord; 2] {
    let seed = pair_seed(config.seed, pair);
    let openings = [0, 1].map(|g| config.openings.pick_for_pair(pair, seed, g));
    let [a, b] = players;
    let tcs = [config.players[0].tc, config.players[1].tc];
    let spec = |game_in_pair: u64, tc| GameSpec {
        run_id: &config.run_id,
        pair_id: pair,
        game_in_pair,
        variant: config.openings.variant,
        opening: &openings[game_in_pair as usize],
        seed,
        tc,
        adjudication: &config.adjudication,
        time_margin: config.time_margin,
    };
    let first = play_game(&spec(0, tcs), a.as_mut(), b.as_mut());
    let second = play_game(&spec(1, [tcs[1], tcs[0]]), b.as_mut(), a.as_mut());
    [first, second]
}
