//! Game pairs: games `2k` and `2k + 1` of a run play the same opening with
//! colours swapped. Player 0 is White in the even game and Black in the odd
//! one; a pair's result is player 0's points over both games.

use crate::load::RunFile;
use ajaxlab_stats::Pentanomial;
use ajaxlab_store::GameRecord;
use std::collections::BTreeMap;

/// One completed pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PairResult {
    /// Player 0's points over the pair in half points, 0..=4.
    pub(crate) half_points: usize,
    /// When the later game of the pair ended (Unix milliseconds).
    pub(crate) ended_at_ms: i64,
    /// Index of the file holding the later game, then the pair number:
    /// the tie-breaks of the order.
    pub(crate) file: usize,
    pub(crate) pair: u64,
}

/// A run's pairs in the order they finished.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Pairs {
    pub(crate) pairs: Vec<PairResult>,
    /// Games whose partner is missing (a unit still in flight, or lost).
    pub(crate) unpaired_games: usize,
    /// Player 0's and player 1's names.
    pub(crate) players: [String; 2],
}

impl Pairs {
    /// The pentanomial counts of every pair.
    pub(crate) fn pentanomial(&self) -> Pentanomial {
        let mut p = Pentanomial::default();
        for pair in &self.pairs {
            p.0[pair.half_points] += 1;
        }
        p
    }

    /// Cumulative pentanomial counts after each pair.
    pub(crate) fn cumulative(&self) -> impl Iterator<Item = Pentanomial> + '_ {
        self.pairs.iter().scan(Pentanomial::default(), |p, pair| {
            p.0[pair.half_points] += 1;
            Some(*p)
        })
    }
}

/// Pairs the games of `files` (one run, or one piece-value part).
pub(crate) fn pair_up<'a>(files: impl IntoIterator<Item = &'a RunFile>) -> Pairs {
    let mut halves: BTreeMap<(&str, u64), Vec<(usize, &GameRecord)>> = BTreeMap::new();
    let mut players: Option<[String; 2]> = None;
    for (index, file) in files.into_iter().enumerate() {
        for game in &file.games {
            halves
                .entry((game.run_id.as_str(), game.game_id / 2))
                .or_default()
                .push((index, game));
            if players.is_none() {
                players = Some(if game.game_id.is_multiple_of(2) {
                    [game.white.name.clone(), game.black.name.clone()]
                } else {
                    [game.black.name.clone(), game.white.name.clone()]
                });
            }
        }
    }
    let mut out = Pairs {
        players: players.unwrap_or_default(),
        ..Pairs::default()
    };
    for ((_, pair), games) in halves {
        match games.as_slice() {
            [(fa, a), (fb, b)] if a.game_id % 2 != b.game_id % 2 => {
                let (file, ended_at_ms) = if a.ended_at_ms >= b.ended_at_ms {
                    (*fa, a.ended_at_ms)
                } else {
                    (*fb, b.ended_at_ms)
                };
                out.pairs.push(PairResult {
                    half_points: a.first_player_score().half_points()
                        + b.first_player_score().half_points(),
                    ended_at_ms,
                    file,
                    pair,
                });
            }
            other => out.unpaired_games += other.len(),
        }
    }
    out.pairs.sort_by_key(|p| (p.ended_at_ms, p.file, p.pair));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::synthetic::{game, result_for_white};
    use ajaxlab_rules::GameResult::{BlackWins, Draw, WhiteWins};

    fn file(games: Vec<GameRecord>) -> RunFile {
        RunFile {
            path: "unit-0.parquet".into(),
            part: None,
            sprt: None,
            games,
        }
    }

    #[test]
    fn pairs_score_from_player_zeros_view() {
        // Pair 0: player 0 wins as White, draws as Black → 3 half points.
        // Pair 1: player 0 loses as White, wins as Black → 2.
        let mut g0 = game("r", 0, WhiteWins);
        g0.white.name = "alpha".into();
        g0.black.name = "beta".into();
        let games = vec![
            g0,
            game("r", 1, Draw),
            game("r", 2, BlackWins),
            game("r", 3, BlackWins),
            game("r", 4, WhiteWins),
        ];
        let pairs = pair_up([&file(games)]);
        assert_eq!(pairs.pentanomial().0, [0, 0, 1, 1, 0]);
        assert_eq!(pairs.unpaired_games, 1);
        assert_eq!(pairs.players, ["alpha".to_owned(), "beta".to_owned()]);
        assert_eq!(result_for_white(2, 1), BlackWins);
        assert_eq!(result_for_white(1, 0), Draw);
    }

    #[test]
    fn pairs_are_ordered_by_their_later_game() {
        let mut games: Vec<GameRecord> = (0..4).map(|i| game("r", i, WhiteWins)).collect();
        // Pair 0 finishes last.
        games[1].ended_at_ms += 1_000_000;
        let pairs = pair_up([&file(games)]);
        assert_eq!(
            pairs.pairs.iter().map(|p| p.pair).collect::<Vec<_>>(),
            vec![1, 0]
        );
        assert_eq!(
            pairs.cumulative().last().map(|p| p.0),
            Some([0, 0, 2, 0, 0])
        );
    }
}
