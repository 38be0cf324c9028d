//! Going on with a match that stopped (killed, a crash, the machine
//! rebooted): the pairs its directory holds are read back, each checked
//! against the pair this match would play, and only the rest are played.
//!
//! A pair is stored whole or not at all (the runner writes both games of
//! a pair in one file), and a pair's opening is fixed by the seed and the
//! pair's number, so a resumed match plays exactly the games the
//! uninterrupted one would have, and counts each once.

use crate::config::MatchConfig;
use crate::runner::pair_seed;
use crate::tc::TimeControl;
use ajaxlab_rules::Variant;
use ajaxlab_store::{GameRecord, PlayerRecord, StoreError, read_games};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The games a match directory already holds, by pair.
#[derive(Debug, Default)]
pub struct StoredPairs {
    /// Both games of each stored pair, the first player's White game first.
    pub pairs: BTreeMap<u64, [GameRecord; 2]>,
    /// The games files they came from, in name order.
    pub files: Vec<PathBuf>,
}

/// Why a directory's games cannot be gone on with by this match.
#[derive(Debug, thiserror::Error)]
pub enum ResumeError {
    /// A games file cannot be read.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The directory cannot be listed.
    #[error("{path}: {source}")]
    Io {
        /// The directory.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A stored game is not the one this match would play there.
    #[error(
        "{file}: game {game_id} (pair {pair_id}) was played with {what} {stored}, where this match plays {expected}: resume a match with the settings that started it"
    )]
    Differs {
        /// The games file.
        file: String,
        /// The game.
        game_id: u64,
        /// Its pair.
        pair_id: u64,
        /// What differs.
        what: &'static str,
        /// As stored.
        stored: String,
        /// As this match would play it.
        expected: String,
    },
    /// A pair beyond the games this match asks for.
    #[error(
        "{file}: holds pair {pair_id}, beyond the {games} games asked for: resume with --games {needed} or more"
    )]
    BeyondGames {
        /// The games file.
        file: String,
        /// The pair.
        pair_id: u64,
        /// Games asked for.
        games: u64,
        /// Games the stored pairs need.
        needed: u64,
    },
    /// A game stored twice, or a pair with one game.
    #[error("{file}: {problem}: the directory holds games of more than one run, or was edited")]
    Broken {
        /// The games file.
        file: String,
        /// What is wrong.
        problem: String,
    },
}

/// The `games-*.parquet` files of `dir`, in name order.
///
/// # Errors
/// [`ResumeError::Io`] if the directory exists but cannot be listed.
pub fn games_files(dir: &Path) -> Result<Vec<PathBuf>, ResumeError> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(source) => {
            return Err(ResumeError::Io {
                path: dir.display().to_string(),
                source,
            });
        }
    };
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("games-") && n.ends_with(".parquet"))
        })
        .collect();
    files.sort();
    Ok(files)
}

/// Reads the pairs `config.out` holds and checks each game against the
/// one `config` would play in its place: run, variant, seed, opening,
/// time control, and each side's player (name, version, parameters and
/// options). `players` are the records of this match's two players.
///
/// # Errors
/// [`ResumeError`] naming the file and game of the first difference.
pub fn stored_pairs(
    config: &MatchConfig,
    players: &[PlayerRecord; 2],
) -> Result<StoredPairs, ResumeError> {
    let files = games_files(&config.out)?;
    let mut halves: BTreeMap<u64, [Option<GameRecord>; 2]> = BTreeMap::new();
    for file in &files {
        let shown = file.display().to_string();
        for game in read_games(file)?.games {
            check_game(config, players, &game).map_err(|d| d.into_error(&shown, &game))?;
            if game.pair_id >= config.pairs {
                let needed = (game.pair_id + 1) * 2;
                return Err(ResumeError::BeyondGames {
                    file: shown,
                    pair_id: game.pair_id,
                    games: config.pairs * 2,
                    needed,
                });
            }
            let slot = &mut halves.entry(game.pair_id).or_default()[(game.game_id % 2) as usize];
            if slot.is_some() {
                return Err(ResumeError::Broken {
                    file: shown,
                    problem: format!("game {} is stored twice", game.game_id),
                });
            }
            *slot = Some(game);
        }
    }
    let mut pairs = BTreeMap::new();
    for (pair_id, halves) in halves {
        match halves {
            [Some(first), Some(second)] => {
                pairs.insert(pair_id, [first, second]);
            }
            _ => {
                return Err(ResumeError::Broken {
                    file: config.out.display().to_string(),
                    problem: format!("pair {pair_id} has one game stored"),
                });
            }
        }
    }
    Ok(StoredPairs { pairs, files })
}

/// One field of a stored game that is not what the match would play.
struct Difference {
    what: &'static str,
    stored: String,
    expected: String,
}

impl Difference {
    fn into_error(self, file: &str, game: &GameRecord) -> ResumeError {
        ResumeError::Differs {
            file: file.to_owned(),
            game_id: game.game_id,
            pair_id: game.pair_id,
            what: self.what,
            stored: self.stored,
            expected: self.expected,
        }
    }
}

fn same<T: PartialEq + fmt::Debug>(
    what: &'static str,
    stored: &T,
    expected: &T,
) -> Result<(), Difference> {
    if stored == expected {
        Ok(())
    } else {
        Err(Difference {
            what,
            stored: format!("{stored:?}"),
            expected: format!("{expected:?}"),
        })
    }
}

fn check_game(
    config: &MatchConfig,
    players: &[PlayerRecord; 2],
    game: &GameRecord,
) -> Result<(), Difference> {
    let game_in_pair = game.game_id % 2;
    same("game number", &(game.game_id / 2), &game.pair_id)?;
    same("run id", &game.run_id, &config.run_id)?;
    same("variant", &game.variant.name(), &config.variant.name())?;
    let seed = pair_seed(config.seed, game.pair_id);
    same("seed", &game.seed, &seed)?;
    let opening = config
        .openings
        .pick_for_pair(game.pair_id, seed, game_in_pair);
    same("start", &game.start_fen, &opening.start.fen())?;
    same("opening moves", &game.opening_moves, &opening.move_texts())?;
    let [first, second] = &config.players;
    let (white, black) = if game_in_pair == 0 {
        (first, second)
    } else {
        (second, first)
    };
    same(
        "time control",
        &game.time_control,
        &TimeControl::record_text(white.tc, black.tc),
    )?;
    let (white_record, black_record) = if game_in_pair == 0 {
        (&players[0], &players[1])
    } else {
        (&players[1], &players[0])
    };
    same_player("White", &game.white, white_record, config.variant)?;
    same_player("Black", &game.black, black_record, config.variant)
}

/// A side's player: its name, version and options, and, for the builtin
/// engine, the first parameter whose value differs, by name.
fn same_player(
    side: &'static str,
    stored: &PlayerRecord,
    expected: &PlayerRecord,
    variant: &'static Variant,
) -> Result<(), Difference> {
    let what = |label: &'static str, stored: String, expected: String| Difference {
        what: label,
        stored: format!("{side} {stored}"),
        expected: format!("{side} {expected}"),
    };
    if stored.name != expected.name {
        return Err(what("player", stored.name.clone(), expected.name.clone()));
    }
    if stored.version != expected.version {
        return Err(what(
            "engine version",
            stored.version.clone(),
            expected.version.clone(),
        ));
    }
    if stored.options != expected.options {
        let text = |r: &PlayerRecord| {
            let options: Vec<String> = r
                .options
                .iter()
                .map(|o| format!("{}={}", o.name, o.value))
                .collect();
            format!("{} with options [{}]", r.name, options.join(", "))
        };
        return Err(what("options", text(stored), text(expected)));
    }
    if stored.params != expected.params {
        let names = ajaxlab_engine::params::specs_for(variant)
            .into_iter()
            .map(|s| s.name);
        let first = stored
            .params
            .iter()
            .zip(&expected.params)
            .zip(names)
            .find(|((a, b), _)| a != b);
        return Err(match first {
            Some(((a, b), name)) => what(
                "parameters",
                format!("{name} = {a}"),
                format!("{name} = {b}"),
            ),
            None => what(
                "parameters",
                format!("{} values", stored.params.len()),
                format!("{} values", expected.params.len()),
            ),
        });
    }
    Ok(())
}
