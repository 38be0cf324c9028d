//! Checks of a submitted unit before anything of it is stored: the right
//! games for the right pairs, the issued openings, parameters and UCI
//! options (a file an option names must be read from the copy of the issued
//! file, named by its hash), moves that
//! replay legally, and results and terminations that follow from them. The
//! same checks hold for external UCI engines' games; what cannot be
//! re-derived is not claimed to be checked: node counts, depths and scores
//! (of any engine: only adjudication reads the scores), and that an
//! external engine crashed, hung or sent an illegal move (accepted only as
//! a loss of that engine, on its turn).

use crate::artifacts::ArtifactHash;
use ajaxlab_arena::config::PlayerKind;
use ajaxlab_arena::opening::Opening;
use ajaxlab_arena::pair::pair_seed;
use ajaxlab_arena::referee::{Adjudicator, game_over};
use ajaxlab_arena::{MatchConfig, TimeControl};
use ajaxlab_rules::{Game, GameResult};
use ajaxlab_store::{EngineOption, GameRecord, Termination};
use std::collections::HashMap;
use std::path::Path;

/// A UCI option a player was issued, as its games must record it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IssuedOption {
    /// The option's name.
    pub name: String,
    /// What its value must be.
    pub value: IssuedValue,
}

/// The value of an issued option as a game records it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum IssuedValue {
    /// The value as issued.
    Text(String),
    /// A file the worker fetched or wrote: the path of its copy, whose
    /// name is the file's hash.
    File(ArtifactHash),
}

impl IssuedOption {
    /// Whether `recorded` is this option as issued.
    fn matches(&self, recorded: &EngineOption) -> bool {
        recorded.name == self.name
            && match &self.value {
                IssuedValue::Text(value) => recorded.value == *value,
                IssuedValue::File(hash) => {
                    Path::new(&recorded.value).file_name() == Some(hash.to_string().as_ref())
                }
            }
    }
}

/// Whether `recorded` are the `issued` options, in order.
fn options_match(recorded: &[EngineOption], issued: &[IssuedOption]) -> bool {
    recorded.len() == issued.len() && issued.iter().zip(recorded).all(|(i, r)| i.matches(r))
}

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

/// Checks the games of pairs `first_pair..first_pair+pair_count` of `config`,
/// whose players were issued `options`.
///
/// # Errors
/// The first [`Rejection`] found.
pub fn validate_unit(
    config: &MatchConfig,
    options: &[Vec<IssuedOption>; 2],
    first_pair: u64,
    pair_count: u64,
    games: &[GameRecord],
) -> Result<(), Rejection> {
    check_ids(first_pair, pair_count, games)?;
    let params: Vec<Vec<i32>> = config
        .players
        .iter()
        .map(|p| match &p.kind {
            PlayerKind::Builtin(params, _) => {
                params.iter_for(config.variant).map(|(_, v)| v).collect()
            }
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
            let pair = g.game_id / 2;
            config
                .openings
                .pick_for_pair(pair, pair_seed(config.seed, pair), side)
        });
        validate_game(config, &params, opening, g)?;
        let (white, black) = if g.game_id % 2 == 1 { (1, 0) } else { (0, 1) };
        if !options_match(&g.white.options, &options[white])
            || !options_match(&g.black.options, &options[black])
        {
            return Err(reject(g.game_id, "UCI options differ from the ones issued"));
        }
    }
    Ok(())
}

/// Checks that `games` are games `first_pair*2 ..` of the unit's pairs,
/// each game once.
pub fn check_ids(first_pair: u64, pair_count: u64, games: &[GameRecord]) -> Result<(), Rejection> {
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
    Ok(())
}

/// Checks that `games`, found on disk under the name of the unit of pairs
/// `first_pair..first_pair+pair_count` of `config`, are that unit's: its
/// game ids, each game's pair and the pair's seed, and the run. (The games
/// themselves were validated when they were submitted, perhaps by an older
/// build whose parameters differ.)
///
/// # Errors
/// The first [`Rejection`] found.
pub fn check_identity(
    config: &MatchConfig,
    first_pair: u64,
    pair_count: u64,
    games: &[GameRecord],
) -> Result<(), Rejection> {
    check_ids(first_pair, pair_count, games)?;
    for g in games {
        let pair = g.game_id / 2;
        if g.pair_id != pair {
            return Err(reject(
                g.game_id,
                format!("pair_id {} does not match game_id", g.pair_id),
            ));
        }
        if g.seed != pair_seed(config.seed, pair) {
            return Err(reject(g.game_id, "its seed is not its pair's"));
        }
        if g.run_id != config.run_id {
            return Err(reject(
                g.game_id,
                format!("run {} is not the campaign's", g.run_id),
            ));
        }
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
    if g.start_number != opening.start_number {
        return Err(reject(
            id,
            format!(
                "start_number {:?} differs from the one issued ({:?})",
                g.start_number, opening.start_number
            ),
        ));
    }
    let issued_tc = TimeControl::record_text(config.players[white].tc, config.players[black].tc);
    if g.time_control != issued_tc {
        return Err(reject(
            id,
            format!(
                "time control {} differs from the one issued ({issued_tc})",
                g.time_control
            ),
        ));
    }
    check_versions(g)?;
    check_times(g)?;
    let mut game = Game::new(opening.position());
    let mut adjudicator = Adjudicator::new(&config.adjudication);
    let mut verdict = None;
    for (i, m) in g.moves.iter().enumerate() {
        if let Some(limit) = config.adjudication.max_plies
            && i >= limit as usize
        {
            return Err(reject(
                id,
                format!(
                    "move {} ({}) after the game was drawn at max_plies = {limit}",
                    i + 1,
                    m.uci
                ),
            ));
        }
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

/// The longest engine version kept, in characters (a UCI engine's `id
/// name`; the builtin engine's is a few words).
pub const MAX_VERSION_TEXT: usize = 128;

/// Versions are the engines' word and cannot be re-derived, but they are
/// shown and stored: bounded, and free of control characters.
fn check_versions(g: &GameRecord) -> Result<(), Rejection> {
    for (side, version) in [("white", &g.white.version), ("black", &g.black.version)] {
        let length = version.chars().count();
        if length > MAX_VERSION_TEXT || version.chars().any(char::is_control) {
            return Err(reject(
                g.game_id,
                format!(
                    "{side}_version: {length} characters{}: at most {MAX_VERSION_TEXT}, no control characters",
                    if version.chars().any(char::is_control) {
                        ", with control characters"
                    } else {
                        ""
                    }
                ),
            ));
        }
    }
    Ok(())
}

/// The earliest time a game may start: 2000-01-01, Unix milliseconds.
pub const EARLIEST_GAME_MS: i64 = 946_684_800_000;
/// The latest time a game may end: 2100-01-01, Unix milliseconds.
pub const LATEST_GAME_MS: i64 = 4_102_444_800_000;

/// Times are the worker's clock, which the coordinator does not trust to
/// agree with its own (leases use durations); but they must be times:
/// between [`EARLIEST_GAME_MS`] and [`LATEST_GAME_MS`], the start first.
fn check_times(g: &GameRecord) -> Result<(), Rejection> {
    let range = EARLIEST_GAME_MS..=LATEST_GAME_MS;
    if !range.contains(&g.started_at_ms)
        || !range.contains(&g.ended_at_ms)
        || g.started_at_ms > g.ended_at_ms
    {
        return Err(reject(
            g.game_id,
            format!(
                "started_at_ms {} and ended_at_ms {}: must be Unix milliseconds from {EARLIEST_GAME_MS} (2000) to {LATEST_GAME_MS} (2100), the start first",
                g.started_at_ms, g.ended_at_ms
            ),
        ));
    }
    Ok(())
}

fn white_index(swapped: bool) -> usize {
    usize::from(swapped)
}
