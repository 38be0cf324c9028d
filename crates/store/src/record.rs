//! The record of one game: everything needed to replay, audit and analyse
//! it, one Parquet row per game; and the text forms of its vocabulary
//! (terminations and results), converted here and nowhere else.

use ajaxlab_rules::{Color, GameResult, Outcome, Variant};
use ajaxlab_stats::{GameScore, Trinomial};
use std::fmt;
use std::str::FromStr;

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// Checkmate on the board.
    Checkmate,
    /// Stalemate on the board.
    Stalemate,
    /// The 50-move rule (automatic).
    FiftyMoveRule,
    /// Threefold repetition (automatic).
    ThreefoldRepetition,
    /// Neither side has the material to mate: a draw.
    InsufficientMaterial,
    /// Both engines agreed one side is lost.
    AdjudicatedResign,
    /// Both engines agreed the game is drawn.
    AdjudicatedDraw,
    /// The ply limit was reached: drawn by adjudication.
    MaxPlies,
    /// A side's clock ran out.
    TimeForfeit,
    /// A side sent an illegal move: it loses.
    IllegalMove,
    /// A side's engine crashed: it loses.
    EngineCrash,
    /// A side's engine stopped answering: it loses.
    EngineTimeout,
    /// Nothing but the two kings with empty hands, in a variant whose rules
    /// have no insufficient-material rule: drawn by the game runner.
    AdjudicatedBareKings,
}

impl Termination {
    /// Every termination.
    pub const ALL: [Termination; 13] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::FiftyMoveRule,
        Termination::ThreefoldRepetition,
        Termination::InsufficientMaterial,
        Termination::AdjudicatedResign,
        Termination::AdjudicatedDraw,
        Termination::MaxPlies,
        Termination::TimeForfeit,
        Termination::IllegalMove,
        Termination::EngineCrash,
        Termination::EngineTimeout,
        Termination::AdjudicatedBareKings,
    ];

    /// The stable name stored in records and sent on the wire.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::FiftyMoveRule => "fifty-move-rule",
            Termination::ThreefoldRepetition => "threefold-repetition",
            Termination::InsufficientMaterial => "insufficient-material",
            Termination::AdjudicatedResign => "adjudicated-resign",
            Termination::AdjudicatedDraw => "adjudicated-draw",
            Termination::MaxPlies => "max-plies",
            Termination::TimeForfeit => "time-forfeit",
            Termination::IllegalMove => "illegal-move",
            Termination::EngineCrash => "engine-crash",
            Termination::EngineTimeout => "engine-timeout",
            Termination::AdjudicatedBareKings => "adjudicated-bare-kings",
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Text that names no [`Termination`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a termination")]
pub struct UnknownTermination(pub String);

impl FromStr for Termination {
    type Err = UnknownTermination;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Termination::ALL
            .into_iter()
            .find(|t| t.as_str() == text)
            .ok_or_else(|| UnknownTermination(text.to_owned()))
    }
}

impl From<Outcome> for Termination {
    /// The termination of a game the rules ended.
    fn from(outcome: Outcome) -> Self {
        match outcome {
            Outcome::Checkmate { .. } => Termination::Checkmate,
            Outcome::Stalemate => Termination::Stalemate,
            Outcome::FiftyMoveRule => Termination::FiftyMoveRule,
            Outcome::ThreefoldRepetition => Termination::ThreefoldRepetition,
            Outcome::InsufficientMaterial => Termination::InsufficientMaterial,
        }
    }
}

/// Text that is not a result (`1-0`, `0-1` or `1/2-1/2`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not 1-0, 0-1 or 1/2-1/2")]
pub struct UnknownResult(pub String);

/// The result written as `1-0`, `0-1` or `1/2-1/2` (White's view, as in
/// PGN); the inverse of [`GameResult::pgn`].
///
/// # Errors
/// [`UnknownResult`] for any other text.
pub fn parse_result(text: &str) -> Result<GameResult, UnknownResult> {
    [
        GameResult::WhiteWins,
        GameResult::BlackWins,
        GameResult::Draw,
    ]
    .into_iter()
    .find(|r| r.pgn() == text)
    .ok_or_else(|| UnknownResult(text.to_owned()))
}

/// A player as recorded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRecord {
    /// Display name.
    pub name: String,
    /// Engine id / version.
    pub version: String,
    /// Parameter vector (names in the file metadata); empty for external engines.
    pub params: Vec<i32>,
    /// The UCI options the engine was set with, in the order sent; empty
    /// for the builtin engine. A file an option names is given by the
    /// path the player's machine read it from.
    pub options: Vec<EngineOption>,
}

/// One `setoption` a UCI player was given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineOption {
    /// The option's name.
    pub name: String,
    /// Its value.
    pub value: String,
}

/// One move as played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveRecord {
    /// UCI text.
    pub uci: String,
    /// The mover's score, centipawns, mover's view.
    pub score: Option<i32>,
    /// Depth reached.
    pub depth: Option<u32>,
    /// Nodes searched.
    pub nodes: Option<u64>,
    /// Time taken, milliseconds.
    pub time_ms: u32,
}

/// One game. Games `2k` and `2k + 1` of a run are a pair: the same opening
/// with colours swapped, the first player White in the even game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRecord {
    /// The run (match or campaign) it belongs to.
    pub run_id: String,
    /// Game number within the run (pair × 2 + 0/1).
    pub game_id: u64,
    /// Pair number within the run.
    pub pair_id: u64,
    /// The variant played: a built-in, or one of a user's file, whose text
    /// the games file's metadata then carries.
    pub variant: &'static Variant,
    /// Start position number (AMRC, Chess960), if numbered.
    pub start_number: Option<u32>,
    /// Start position FEN, before the random plies.
    pub start_fen: String,
    /// The random plies played from the start, UCI.
    pub opening_moves: Vec<String>,
    /// The seed that fixed the opening.
    pub seed: u64,
    /// White.
    pub white: PlayerRecord,
    /// Black.
    pub black: PlayerRecord,
    /// Time control, as text (`nodes=5000`, `10+0.1`, or `A / B` when the
    /// players had different ones).
    pub time_control: String,
    /// The result, from White's view.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
    /// The moves after the opening, with what the engines said.
    pub moves: Vec<MoveRecord>,
    /// FEN of the final position.
    pub final_fen: String,
    /// Unix time of the first move, milliseconds.
    pub started_at_ms: i64,
    /// Unix time of the end, milliseconds.
    pub ended_at_ms: i64,
}

impl GameRecord {
    /// The score of the player of `color`.
    #[must_use]
    pub const fn score_of(&self, color: Color) -> GameScore {
        match (self.result, color) {
            (GameResult::Draw, _) => GameScore::Draw,
            (GameResult::WhiteWins, Color::White) | (GameResult::BlackWins, Color::Black) => {
                GameScore::Win
            }
            (GameResult::WhiteWins, Color::Black) | (GameResult::BlackWins, Color::White) => {
                GameScore::Loss
            }
        }
    }

    /// The colour of the pair's first player (player 0): White in the even
    /// game, Black in the odd one.
    #[must_use]
    pub const fn first_player_color(&self) -> Color {
        if self.game_id.is_multiple_of(2) {
            Color::White
        } else {
            Color::Black
        }
    }

    /// The score of the pair's first player (player 0).
    #[must_use]
    pub const fn first_player_score(&self) -> GameScore {
        self.score_of(self.first_player_color())
    }
}

/// White's wins, draws and losses over `games`.
pub fn white_counts<'a>(games: impl IntoIterator<Item = &'a GameRecord>) -> Trinomial {
    let mut counts = Trinomial::default();
    for game in games {
        counts.record(game.score_of(Color::White));
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn terminations_round_trip_through_their_names() {
        for t in Termination::ALL {
            assert_eq!(t.as_str().parse::<Termination>(), Ok(t));
            assert_eq!(t.to_string(), t.as_str());
        }
        assert_eq!(
            "resigned".parse::<Termination>(),
            Err(UnknownTermination("resigned".to_owned()))
        );
    }

    #[test]
    fn results_round_trip_through_their_pgn_tokens() {
        for r in [
            GameResult::WhiteWins,
            GameResult::BlackWins,
            GameResult::Draw,
        ] {
            assert_eq!(parse_result(r.pgn()), Ok(r));
        }
        assert!(parse_result("*").is_err());
        assert!(parse_result("1-0 ").is_err());
    }

    #[test]
    fn the_first_player_scores_white_s_score_in_even_games_only() {
        use ajaxlab_rules::StartSpec;
        use ajaxlab_rules::VariantKind;
        let start = ajaxlab_rules::Position::start(VariantKind::Chess, &StartSpec::Default)
            .map(|p| p.fen())
            .unwrap_or_default();
        let player = |name: &str| PlayerRecord {
            name: name.to_owned(),
            version: String::new(),
            params: Vec::new(),
            options: Vec::new(),
        };
        let game = |game_id, result| GameRecord {
            run_id: "r".to_owned(),
            game_id,
            pair_id: game_id / 2,
            variant: VariantKind::Chess.variant(),
            start_number: None,
            start_fen: start.clone(),
            opening_moves: Vec::new(),
            seed: 0,
            white: player("a"),
            black: player("b"),
            time_control: "nodes=1".to_owned(),
            result,
            termination: Termination::AdjudicatedResign,
            moves: Vec::new(),
            final_fen: start.clone(),
            started_at_ms: 0,
            ended_at_ms: 0,
        };
        let cases = [
            (0, GameResult::WhiteWins, GameScore::Win, GameScore::Win),
            (1, GameResult::WhiteWins, GameScore::Win, GameScore::Loss),
            (1, GameResult::BlackWins, GameScore::Loss, GameScore::Win),
            (1, GameResult::Draw, GameScore::Draw, GameScore::Draw),
            (2, GameResult::BlackWins, GameScore::Loss, GameScore::Loss),
        ];
        for (id, result, white, first) in cases {
            let g = game(id, result);
            assert_eq!(
                (g.score_of(Color::White), g.first_player_score()),
                (white, first)
            );
            assert_eq!(
                g.score_of(Color::Black).half_points(),
                2 - white.half_points()
            );
        }
    }
}
