//! The referee: plays one game between two players from an opening. The
//! arena, not the engines, decides mate, stalemate, the 50-move rule and
//! repetition (docs/rules.md §4); optional adjudication is recorded as such.

use crate::opening::Opening;
use crate::player::{MoveRequest, Player, PlayerError};
use crate::tc::TimeControl;
use ajaxlab_rules::{Color, Game, GameResult};
use ajaxlab_store::{GameRecord, MoveRecord, PlayerRecord, Termination};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Optional adjudication rules. Each is off when its field is `None`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Adjudication {
    /// Resign when both engines' scores agree on at least this (centipawns) …
    pub resign_score: Option<i32>,
    /// … for this many moves of each side.
    #[serde(default = "default_moves")]
    pub resign_moves: u32,
    /// Draw when both engines report at most this (absolute, centipawns) …
    pub draw_score: Option<i32>,
    /// … for this many moves of each side …
    #[serde(default = "default_moves")]
    pub draw_moves: u32,
    /// … once this move number is reached.
    #[serde(default = "default_draw_after")]
    pub draw_after_move: u32,
    /// Draw after this many plies (from the opening position).
    pub max_plies: Option<u32>,
}

fn default_moves() -> u32 {
    4
}

fn default_draw_after() -> u32 {
    40
}

/// Applies [`Adjudication`] to the scores both engines report, move by move.
/// The referee and the coordinator's validation share it, so a declared
/// adjudication is checked by the same rule that made it.
#[derive(Clone, Debug)]
pub struct Adjudicator<'a> {
    rules: &'a Adjudication,
    last: [Option<i32>; 2],
    resign_streak: u32,
    draw_streak: u32,
}

impl<'a> Adjudicator<'a> {
    /// A fresh adjudicator for a game.
    pub fn new(rules: &'a Adjudication) -> Adjudicator<'a> {
        Adjudicator {
            rules,
            last: [None, None],
            resign_streak: 0,
            draw_streak: 0,
        }
    }

    /// Takes the score `mover` reported (its own view) for the move just
    /// played, with the move number after it; returns the verdict if the
    /// game is adjudicated now.
    pub fn after_move(
        &mut self,
        mover: Color,
        score: Option<i32>,
        fullmove: u32,
    ) -> Option<(GameResult, Termination)> {
        self.last[mover.index()] = score;
        let [Some(w), Some(b)] = self.last else {
            return None;
        };
        let adj = self.rules;
        if let Some(t) = adj.resign_score {
            let white_wins = w >= t && b <= -t;
            let black_wins = b >= t && w <= -t;
            self.resign_streak = if white_wins || black_wins {
                self.resign_streak + 1
            } else {
                0
            };
            if self.resign_streak >= 2 * adj.resign_moves {
                let winner = if white_wins {
                    Color::White
                } else {
                    Color::Black
                };
                return Some((GameResult::win_for(winner), Termination::AdjudicatedResign));
            }
        }
        if let Some(d) = adj.draw_score {
            let quiet = w.abs() <= d && b.abs() <= d;
            self.draw_streak = if quiet && fullmove >= adj.draw_after_move {
                self.draw_streak + 1
            } else {
                0
            };
            if self.draw_streak >= 2 * adj.draw_moves {
                return Some((GameResult::Draw, Termination::AdjudicatedDraw));
            }
        }
        None
    }
}

/// Time allowed beyond the clock before a loss on time.
pub const DEFAULT_TIME_MARGIN: Duration = Duration::from_millis(100);

/// Everything fixed about one game before it starts.
pub struct GameSpec<'a> {
    /// Run id.
    pub run_id: &'a str,
    /// Pair number.
    pub pair_id: u64,
    /// 0 or 1: which game of the pair (1 = colours swapped).
    pub game_in_pair: u64,
    /// The opening.
    pub opening: &'a Opening,
    /// The seed that fixed the opening.
    pub seed: u64,
    /// Time control of White and of Black.
    pub tc: [TimeControl; 2],
    /// Adjudication rules.
    pub adjudication: &'a Adjudication,
    /// Extra time a clock may overrun before a loss on time.
    pub time_margin: Duration,
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

fn player_record(p: &dyn Player) -> PlayerRecord {
    PlayerRecord {
        name: p.name().to_owned(),
        version: p.version(),
        params: p.param_values(),
    }
}

/// Plays one game, `white` against `black`.
pub fn play_game(
    spec: &GameSpec<'_>,
    white: &mut dyn Player,
    black: &mut dyn Player,
) -> GameRecord {
    let start = spec.opening.position();
    let mut game = Game::new(start);
    let started_at_ms = now_ms();
    let mut moves: Vec<MoveRecord> = Vec::new();
    let base = |tc: TimeControl| match tc {
        TimeControl::Clock { base, .. } => Some(base),
        _ => None,
    };
    let mut clocks = match (base(spec.tc[0]), base(spec.tc[1])) {
        (Some(w), Some(b)) => Some([w, b]),
        _ => None,
    };
    let mut adjudicator = Adjudicator::new(spec.adjudication);
    let adj = spec.adjudication;

    let ready = [white.new_game(), black.new_game()];
    let (result, termination) = 'game: {
        for (i, r) in ready.iter().enumerate() {
            if let Err(e) = r {
                let loser = if i == 0 { Color::White } else { Color::Black };
                break 'game (GameResult::win_for(!loser), failure_termination(e));
            }
        }
        loop {
            if let Some(outcome) = game.outcome() {
                break 'game (outcome.result(), Termination::from(outcome));
            }
            if adj.max_plies.is_some_and(|m| moves.len() as u32 >= m) {
                break 'game (GameResult::Draw, Termination::MaxPlies);
            }
            let side = game.position().side_to_move();
            let player: &mut dyn Player = if side == Color::White {
                &mut *white
            } else {
                &mut *black
            };
            let tc = spec.tc[side.index()].for_ply(spec.seed ^ spec.game_in_pair, moves.len());
            let request = MoveRequest {
                game: &game,
                tc,
                clocks,
            };
            let asked = Instant::now();
            let answer = player.play(&request);
            let spent = asked.elapsed();
            let reply = match answer {
                Ok(reply) => reply,
                Err(e) => break 'game (GameResult::win_for(!side), failure_termination(&e)),
            };
            if let (Some(c), TimeControl::Clock { increment, .. }) = (clocks.as_mut(), tc) {
                let left = &mut c[side.index()];
                if spent > *left + spec.time_margin {
                    break 'game (GameResult::win_for(!side), Termination::TimeForfeit);
                }
                *left = left.saturating_sub(spent) + increment;
            }
            let uci = game.position().uci(reply.mv).to_string();
            if game.play(reply.mv).is_err() {
                break 'game (GameResult::win_for(!side), Termination::IllegalMove);
            }
            moves.push(MoveRecord {
                uci,
                score: reply.score,
                depth: reply.depth,
                nodes: reply.nodes,
                time_ms: u32::try_from(spent.as_millis()).unwrap_or(u32::MAX),
            });
            // The rules decide first: a move that ends the game is never adjudicated.
            if let Some(outcome) = game.outcome() {
                break 'game (outcome.result(), Termination::from(outcome));
            }
            if let Some(verdict) =
                adjudicator.after_move(side, reply.score, game.position().fullmove_number())
            {
                break 'game verdict;
            }
        }
    };

    let opening_moves = spec.opening.move_texts();
    GameRecord {
        run_id: spec.run_id.to_owned(),
        game_id: spec.pair_id * 2 + spec.game_in_pair,
        pair_id: spec.pair_id,
        variant: start.variant().kind(),
        start_number: spec.opening.start_number,
        start_fen: spec.opening.start.fen(),
        opening_moves,
        seed: spec.seed,
        white: player_record(white),
        black: player_record(black),
        time_control: if spec.tc[0] == spec.tc[1] {
            spec.tc[0].to_string()
        } else {
            format!("{} / {}", spec.tc[0], spec.tc[1])
        },
        result,
        termination,
        moves,
        final_fen: game.position().fen(),
        started_at_ms,
        ended_at_ms: now_ms(),
    }
}

fn failure_termination(error: &PlayerError) -> Termination {
    match error {
        PlayerError::IllegalMove(_) => Termination::IllegalMove,
        PlayerError::Timeout(_) => Termination::EngineTimeout,
        PlayerError::Crashed(_) | PlayerError::Unusable(_) => Termination::EngineCrash,
    }
}
