//! The referee: plays one game between two players from an opening. The
//! arena, not the engines, decides mate, stalemate, the 50-move rule and
//! repetition (docs/rules.md §4); optional adjudication is recorded as such.

use crate::opening::Opening;
use crate::player::{MoveRequest, Player, PlayerError};
use crate::tc::TimeControl;
use ajaxlab_rules::{Color, Game, GameResult, PieceKind, Position, Variant};
use ajaxlab_store::{GameRecord, MoveRecord, PlayerRecord, Termination};
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// Optional adjudication rules. Each is off when its field is `None`; the
/// default is all off, with the counts a file that omits them gets.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
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

impl Default for Adjudication {
    fn default() -> Adjudication {
        Adjudication {
            resign_score: None,
            resign_moves: default_moves(),
            draw_score: None,
            draw_moves: default_moves(),
            draw_after_move: default_draw_after(),
            max_plies: None,
        }
    }
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
    /// The side both scores agree is winning, and for how many plies in a row.
    resign_streak: Option<(Color, u32)>,
    draw_streak: u32,
}

/// Plies in a row that `moves` moves of each side make, at least one: a
/// verdict always rests on a ply that showed it. Saturating, as no game
/// reaches `u32::MAX` plies.
fn plies_needed(moves: u32) -> u32 {
    moves.saturating_mul(2).max(1)
}

impl<'a> Adjudicator<'a> {
    /// A fresh adjudicator for a game.
    pub fn new(rules: &'a Adjudication) -> Adjudicator<'a> {
        Adjudicator {
            rules,
            last: [None, None],
            resign_streak: None,
            draw_streak: 0,
        }
    }

    /// Takes the score `mover` reported (its own view) for the move just
    /// played, with the move number after it; returns the verdict if the
    /// game is adjudicated now. Any scores and rules are safe: the
    /// comparisons are done in `i64`, so no score or threshold overflows.
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
        let (w, b) = (i64::from(w), i64::from(b));
        let adj = self.rules;
        if let Some(t) = adj.resign_score.map(i64::from) {
            let leader = match (w >= t && b <= -t, b >= t && w <= -t) {
                (true, false) => Some(Color::White),
                (false, true) => Some(Color::Black),
                // Neither, or both under a threshold of 0 or less: no winner.
                _ => None,
            };
            self.resign_streak = leader.map(|side| match self.resign_streak {
                Some((held, n)) if held == side => (side, n.saturating_add(1)),
                _ => (side, 1),
            });
            if let Some((winner, n)) = self.resign_streak
                && n >= plies_needed(adj.resign_moves)
            {
                return Some((GameResult::win_for(winner), Termination::AdjudicatedResign));
            }
        }
        if let Some(d) = adj.draw_score.map(i64::from) {
            let quiet = w.abs() <= d && b.abs() <= d;
            self.draw_streak = if quiet && fullmove >= adj.draw_after_move {
                self.draw_streak.saturating_add(1)
            } else {
                0
            };
            if self.draw_streak >= plies_needed(adj.draw_moves) {
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
    /// The variant the game is recorded as: the match's, whose opening is
    /// a position of it (a built-in, or one of a user's file).
    pub variant: &'static Variant,
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

/// How a game ends without a word from the players: by the rules, or
/// drawn by the runner when [`bare_kings`] holds. Each case names its own
/// termination, so a bare-kings draw is recorded as the runner's doing.
#[must_use]
pub fn game_over(game: &Game) -> Option<(GameResult, Termination)> {
    if let Some(outcome) = game.outcome() {
        return Some((outcome.result(), Termination::from(outcome)));
    }
    bare_kings(game.position()).then_some((GameResult::Draw, Termination::AdjudicatedBareKings))
}

/// Nothing but the two kings on the board and nothing in either hand: no
/// piece can ever appear again, so neither side can mate. The Ajax
/// variants' rules have no insufficient-material rule (docs/rules.md §4);
/// RULES.md lets a game runner adjudicate such a position if it records
/// that it did. In chess and Chess960 the rules end it first.
#[must_use]
pub fn bare_kings(pos: &Position) -> bool {
    pos.occupied() == pos.pieces_of_kind(PieceKind::KING)
        && Color::ALL.iter().all(|c| pos.hand_count(*c) == 0)
}

fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as i64)
}

/// What a game records of its player.
pub(crate) fn player_record(p: &dyn Player, variant: &'static Variant) -> PlayerRecord {
    PlayerRecord {
        name: p.name().to_owned(),
        version: p.version(),
        params: p.param_values(variant),
        options: p.options(),
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
    // Each side's moves on its clock, for periods (`40/60`).
    let mut made = [0u32; 2];
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
            if let Some(ended) = game_over(&game) {
                break 'game ended;
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
                moves_to_go: clocks.and(tc.moves_to_go(made[side.index()])),
            };
            let asked = Instant::now();
            let answer = player.play(&request);
            let spent = asked.elapsed();
            let reply = match answer {
                Ok(reply) => reply,
                Err(e) => break 'game (GameResult::win_for(!side), failure_termination(&e)),
            };
            if let (
                Some(c),
                TimeControl::Clock {
                    base,
                    increment,
                    moves,
                },
            ) = (clocks.as_mut(), tc)
            {
                let left = &mut c[side.index()];
                if spent > *left + spec.time_margin {
                    break 'game (GameResult::win_for(!side), Termination::TimeForfeit);
                }
                *left = left.saturating_sub(spent) + increment;
                made[side.index()] += 1;
                // A period completed: its time again, the unused time kept.
                if moves.is_some_and(|m| m > 0 && made[side.index()] % m == 0) {
                    *left += base;
                }
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
            if let Some(ended) = game_over(&game) {
                break 'game ended;
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
        variant: spec.variant,
        start_number: spec.opening.start_number,
        start_fen: spec.opening.start.fen(),
        opening_moves,
        seed: spec.seed,
        white: player_record(white, spec.variant),
        black: player_record(black, spec.variant),
        time_control: TimeControl::record_text(spec.tc[0], spec.tc[1]),
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

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_rules::VariantKind;

    /// Feeds `plies` plies of `white`/`black` scores (each side's own view)
    /// from move 50 on; the verdict and the ply it came at.
    fn adjudicate(
        rules: &Adjudication,
        plies: u32,
        white: i32,
        black: i32,
    ) -> Option<(GameResult, Termination, u32)> {
        let mut a = Adjudicator::new(rules);
        (0..plies).find_map(|ply| {
            let (mover, score) = if ply % 2 == 0 {
                (Color::White, white)
            } else {
                (Color::Black, black)
            };
            a.after_move(mover, Some(score), 50 + ply / 2)
                .map(|(r, t)| (r, t, ply))
        })
    }

    /// Plays the first legal move at once and notes what each request said.
    #[derive(Default)]
    struct FirstMove {
        seen: Vec<(Option<u32>, Option<[Duration; 2]>)>,
    }

    impl Player for FirstMove {
        fn name(&self) -> &str {
            "first-move"
        }
        fn version(&self) -> String {
            String::new()
        }
        fn param_values(&self, _variant: &'static Variant) -> Vec<i32> {
            Vec::new()
        }
        fn new_game(&mut self) -> Result<(), PlayerError> {
            Ok(())
        }
        fn play(
            &mut self,
            request: &MoveRequest<'_>,
        ) -> Result<crate::player::PlayerMove, PlayerError> {
            self.seen.push((request.moves_to_go, request.clocks));
            let mv = request.game.position().legal_moves()[0];
            Ok(crate::player::PlayerMove {
                mv,
                score: None,
                depth: None,
                nodes: None,
            })
        }
    }

    #[test]
    fn a_clock_period_counts_down_and_its_time_is_added_when_it_is_complete() {
        let tc: TimeControl = "2/10".parse().unwrap();
        let opening = Opening {
            start: Position::start(VariantKind::Chess, &ajaxlab_rules::StartSpec::Default).unwrap(),
            start_number: None,
            random_moves: Vec::new(),
        };
        let adjudication = Adjudication {
            max_plies: Some(10),
            ..Adjudication::default()
        };
        let spec = GameSpec {
            run_id: "periods",
            pair_id: 0,
            game_in_pair: 0,
            variant: VariantKind::Chess.variant(),
            opening: &opening,
            seed: 1,
            tc: [tc, tc],
            adjudication: &adjudication,
            time_margin: Duration::ZERO,
        };
        let (mut white, mut black) = (FirstMove::default(), FirstMove::default());
        play_game(&spec, &mut white, &mut black);
        let to_go: Vec<Option<u32>> = white.seen.iter().map(|s| s.0).collect();
        assert_eq!(to_go, [2, 1, 2, 1, 2].map(Some));
        // White's clock before each of its moves: 10 s, then a little less,
        // then the next period's 10 s on top of what was left.
        let white_clock: Vec<f64> = white
            .seen
            .iter()
            .map(|s| s.1.unwrap()[0].as_secs_f64())
            .collect();
        assert_eq!(white_clock[0], 10.0);
        assert!(
            white_clock[1] > 9.0 && white_clock[1] <= 10.0,
            "{white_clock:?}"
        );
        assert!(
            white_clock[2] > 19.0 && white_clock[2] <= 20.0,
            "{white_clock:?}"
        );
        assert!(
            white_clock[4] > 29.0 && white_clock[4] <= 30.0,
            "{white_clock:?}"
        );
    }

    fn ended(variant: VariantKind, fen: &str) -> Option<(GameResult, Termination)> {
        let pos = Position::from_fen(variant, fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        game_over(&Game::new(pos))
    }

    #[test]
    fn bare_kings_with_empty_hands_are_drawn_by_the_runner_and_recorded_so() {
        let drawn = Some((GameResult::Draw, Termination::AdjudicatedBareKings));
        assert_eq!(
            ended(
                VariantKind::AjaxFalcon,
                "4k5/10/10/10/10/10/10/5K4[] w - - 0 1"
            ),
            drawn
        );
        assert_eq!(
            ended(
                VariantKind::AjaxModernRandom,
                "4k4/9/9/9/9/9/9/9/5K3[] b - - 0 1"
            ),
            drawn
        );
        // A Falcon in hand can still be dropped: play on.
        assert_eq!(
            ended(
                VariantKind::AjaxFalcon,
                "4k5/10/10/10/10/10/10/5K4[F] w - - 0 1"
            ),
            None
        );
        // A pawn left: play on.
        assert_eq!(
            ended(
                VariantKind::AjaxFalcon,
                "4k5/10/10/10/10/10/4P5/5K4[] w - - 0 1"
            ),
            None
        );
        // In chess the rules end it first, under their own name.
        assert_eq!(
            ended(VariantKind::Chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
            Some((GameResult::Draw, Termination::InsufficientMaterial))
        );
    }

    fn rules(resign: Option<(i32, u32)>, draw: Option<(i32, u32)>) -> Adjudication {
        Adjudication {
            resign_score: resign.map(|r| r.0),
            resign_moves: resign.map_or(4, |r| r.1),
            draw_score: draw.map(|d| d.0),
            draw_moves: draw.map_or(4, |d| d.1),
            ..Adjudication::default()
        }
    }

    #[test]
    fn resign_moves_of_zero_never_makes_a_winner_of_nobody() {
        // Nobody is near 100000: once 2 * 0 plies "passed", Black won at ply 2.
        assert_eq!(
            adjudicate(&rules(Some((100_000, 0)), None), 100, 20, -20),
            None
        );
    }

    #[test]
    fn resign_and_draw_moves_past_two_to_the_31_do_not_overflow() {
        let r = rules(Some((300, 1 << 31)), Some((10, u32::MAX)));
        assert_eq!(adjudicate(&r, 100, 900, -900), None);
        assert_eq!(adjudicate(&r, 100, 0, 0), None);
    }

    #[test]
    fn draw_moves_of_zero_draws_only_a_quiet_position() {
        let r = rules(None, Some((10, 0)));
        assert_eq!(adjudicate(&r, 100, 200, -200), None);
        assert_eq!(
            adjudicate(&r, 100, 0, 0),
            Some((GameResult::Draw, Termination::AdjudicatedDraw, 1))
        );
    }

    #[test]
    fn the_winner_is_the_side_the_scores_agree_on() {
        let r = rules(Some((300, 2)), None);
        assert_eq!(
            adjudicate(&r, 100, -900, 900),
            Some((
                GameResult::win_for(Color::Black),
                Termination::AdjudicatedResign,
                4
            ))
        );
        assert_eq!(
            adjudicate(&r, 100, 900, -900),
            Some((
                GameResult::win_for(Color::White),
                Termination::AdjudicatedResign,
                4
            ))
        );
    }

    #[test]
    fn extreme_scores_and_thresholds_do_not_overflow() {
        for (threshold, score) in [(i32::MIN, i32::MIN), (i32::MAX, i32::MIN), (1, i32::MIN)] {
            let r = rules(Some((threshold, 1)), Some((threshold, 1)));
            let _ = adjudicate(&r, 10, score, score);
        }
    }
}
