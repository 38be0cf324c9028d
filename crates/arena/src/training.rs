//! Stored games as the evaluation tuner reads them ([`ajaxlab_engine::tune`]):
//! each game file of a run turned into [`TrainingGame`]s, the opening plies
//! without scores and the played moves with the scores their engines gave.
//! The arena is where the store's records and the engine's tuner meet.

use ajaxlab_engine::tune::{TrainingGame, TrainingMove};
use ajaxlab_rules::Color;
use ajaxlab_store::{GameRecord, StoreError};
use std::path::Path;

/// A stored game as the tuner reads it, labelled by its file and id.
pub fn training_game(file: &Path, game: GameRecord) -> TrainingGame {
    let white_score = game.score_of(Color::White).half_points() as f64 / 2.0;
    let opening = game
        .opening_moves
        .into_iter()
        .map(|uci| TrainingMove { uci, score: None });
    let played = game.moves.into_iter().map(|m| TrainingMove {
        uci: m.uci,
        score: m.score,
    });
    TrainingGame {
        label: format!("{} game {}", file.display(), game.game_id),
        variant: game.variant,
        start_fen: game.start_fen,
        moves: opening.chain(played).collect(),
        white_score,
    }
}

/// The games of one games file, as the tuner reads them.
///
/// # Errors
/// [`StoreError`] for a file that cannot be read or is not a games file.
pub fn training_games(path: &Path) -> Result<Vec<TrainingGame>, StoreError> {
    Ok(ajaxlab_store::read_games(path)?
        .games
        .into_iter()
        .map(|g| training_game(path, g))
        .collect())
}
