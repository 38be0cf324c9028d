//! Checks of a submitted unit before anything of it is stored: the right
//! games for the right pairs, the issued openings and parameters, moves that
//! replay legally, and results and terminations that follow from them. The
//! same checks hold for external UCI engines' games; what cannot be
//! re-derived is not claimed to be checked: node counts, depths and scores
//! (of any engine: only adjudication reads the scores), and that an
//! external engine crashed, hung or sent an illegal move (accepted only as
//! a loss of that engine, on its turn).

use ajaxlab_arena::config::PlayerKind;
use ajaxlab_arena::opening::Opening;
use ajaxlab_arena::referee::{Adjudicator, game_over};
use ajaxlab_arena::runner::pair_seed;
use ajaxlab_arena::{MatchConfig, TimeControl};
use ajaxlab_rules::{Game, GameResult};
use ajaxlab_store::{GameRecord, Termination};
use std::collections::HashMap;

/// Why a submission is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("game {game_id}: {reason}")]
pub struct Rejection {
    /// The game (or the first missing one).
    pub game_id: u64,
    /// What is wrong.
    pub reason: String,
}

fn reject(game_id: u64, reason: impl Into<String>) -> Rejection {
    Rejection {
        game_id,
        reason: reason.into(),
    }
}

/// Checks the games of pairs `first_pair..first_pair+pair_count` of `config`.
///
/// # Errors
/// The first [`Rejection`] found.
pub fn validate_unit(
    config: &MatchConfig,
    first_pair: u64,
    pair_count: u64,
    games: &[GameRecord],
) -> Result<(), Rejection> {
    let expected: Vec<u64> = (first_pair * 2..(first_pair + pair_count) * 2).collect();
    let mut ids: Vec<u64> = games.iter().map(|g| g.game_id).collect();
    ids.sort_unstable();
    if ids != expected {
        let first_wrong = expected
            .iter()
            .zip(&ids)
            .find(|(a, b)| a != b)
            .map_or(first_pair * 2, |(a, _)| *a);
        return Err(reject(
            first_wrong,
            format!(
                "{} games submitted; the unit is games {}..{}",
                games.len(),
                first_pair * 2,
                (first_pair + pair_count) * 2
            ),
        ));
    }
    let params: Vec<Vec<i32>> = config
        .players
        .iter()
        .map(|p| match &p.kind {
            PlayerKind::Builtin(params, _) => params.iter().map(|(_, v)| v).collect(),
            PlayerKind::Uci(_) => Vec::new(),
        })
        .collect();
    let mut openings: HashMap<(u64, u64), Opening> = HashMap::new();
    for g in games {
        // Both games of a pair share their opening unless an imbalance
        // follows the players: work it out once per pair.
        let side = if config.openings.imbalance.is_empty() {
            0
        } else {
            g.game_id % 2
        };
        let opening = openings.entry((g.game_id / 2, side)).or_insert_with(|| {
            config
                .openings
                .pick(pair_seed(config.seed, g.game_id / 2), side)
        });
        validate_game(config, &params, opening, g)?;
    }
    Ok(())
}

fn validate_game(
    config: &MatchConfig,
    params: &[Vec<i32>],
    opening: &Opening,
    g: &GameRecord,
) -> Result<(), Rejection> {
    let id = g.game_id;
    let pair = id / 2;
    if g.pair_id != pair {
        return Err(reject(
            id,
            format!("pair_id {} does not match game_id", g.pair_id),
        ));
    }
    let swapped = id % 2 == 1;
    let (white, black) = if swapped { (1, 0) } else { (0, 1) };
    if g.white.params != params[white] || g.black.params != params[black] {
        return Err(reject(id, "parameters differ from the ones issued"));
    }
    if g.white.name != config.players[white].name || g.black.name != config.players[black].name {
        return Err(reject(id, "players differ from the ones issued"));
    }
    let seed = pair_seed(config.seed, pair);
    let issued_moves = opening.move_texts();
    if g.seed != seed || g.start_fen != opening.start.fen() || g.opening_moves != issued_moves {
        return Err(reject(id, "opening differs from the one issued"));
    }
    let mut game = Game::new(opening.position());
    let mut adjudicator = Adjudicator::new(&config.adjudication);
    let mut verdict = None;
    for (i, m) in g.moves.iter().enumerate() {
        if verdict.is_some() {
            return Err(reject(
                id,
                format!("move {} ({}) after the game was adjudicated", i + 1, m.uci),
            ));
        }
        if let Some((_, ended)) = game_over(&game) {
            return Err(reject(
                id,
                format!("move {} ({}) after the game ended ({ended})", i + 1, m.uci),
            ));
        }
        let mv = game
            .position()
            .parse_uci(&m.uci)
            .map_err(|e| reject(id, format!("move {}: {e}", i + 1)))?;
        let mover = game.position().side_to_move();
        game.play(mv)
            .map_err(|e| reject(id, format!("move {}: {e}", i + 1)))?;
        if game_over(&game).is_none() {
            verdict = adjudicator.after_move(mover, m.score, game.position().fullmove_number());
        }
    }
    if g.final_fen != game.position().fen() {
        return Err(reject(id, "final FEN does not follow from the moves"));
    }
    let to_move = &config.players[if game.position().side_to_move() == ajaxlab_rules::Color::White {
        white_index(swapped)
    } else {
        1 - white_index(swapped)
    }];
    let side_to_move_loses =
        |result: GameResult| result == GameResult::win_for(!game.position().side_to_move());
    let consistent = match (game_over(&game), g.termination) {
        (Some(ended), termination) => ended == (g.result, termination),
        (None, Termination::MaxPlies) => {
            config.adjudication.max_plies == Some(g.moves.len() as u32)
                && g.result == GameResult::Draw
                && verdict.is_none()
        }
        (None, Termination::AdjudicatedDraw | Termination::AdjudicatedResign) => {
            // The recorded scores must trigger this very adjudication at the last move.
            verdict == Some((g.result, g.termination))
        }
        (None, Termination::TimeForfeit) => {
            matches!(to_move.tc, TimeControl::Clock { .. }) && side_to_move_loses(g.result)
        }
        // The builtin engine neither crashes, hangs nor plays illegal
        // moves; an external engine may, and loses the game when it is
        // its turn. That it did cannot be re-derived: it is the worker's word.
        (
            None,
            Termination::EngineCrash | Termination::EngineTimeout | Termination::IllegalMove,
        ) => matches!(to_move.kind, PlayerKind::Uci(_)) && side_to_move_loses(g.result),
        (None, _) => false,
    };
    if !consistent {
        return Err(reject(
            id,
            format!(
                "result {} by {} does not follow from the moves",
                g.result.pgn(),
                g.termination
            ),
        ));
    }
    Ok(())
}

fn white_index(swapped: bool) -> usize {
    usize::from(swapped)
}
