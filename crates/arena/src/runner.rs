//! Runs a match: pairs of games on N threads, live statistics, a progress
//! bar (or log lines when not on a terminal), and Parquet files written as
//! the games come in.

use crate::config::{MatchConfig, OutError, PlayerConfig, PlayerKind, holds_games};
use crate::live::LiveStats;
use crate::pgn::game_pgn;
use crate::player::{BuiltinPlayer, Player, PlayerError, UciPlayer, bench};
use crate::pool::{Flow, Pairs, play_pairs};
use crate::referee::{GameSpec, play_game, player_record};
use crate::resume::{ResumeError, StoredPairs, stored_pairs};
use ajaxlab_rules::Variant;
use ajaxlab_stats::{Pentanomial, RandomSource, SplitMix64, Sprt, SprtError, Status};
use ajaxlab_store::lock::{DirectoryLock, LockError};
use ajaxlab_store::{FileMetadata, GameRecord, PlayerRecord, StoreError, write_games};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Games buffered before a Parquet file is written.
const GAMES_PER_FILE: usize = 500;

/// The longest finished games wait in memory before they are written: a
/// match killed at any moment loses only the pairs in flight and those
/// that finished within this time, and `--resume` plays them again.
const FLUSH_EVERY: Duration = Duration::from_secs(60);

/// The lock file a running match holds in its directory
/// ([`ajaxlab_store::lock`]).
pub const MATCH_LOCK: &str = "match.lock";

/// Whether a match starts afresh or goes on with the games its directory
/// holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Into a directory that holds no games (a match never adds to an
    /// earlier one's games).
    New,
    /// Goes on with the pairs the directory holds, each checked to be the
    /// pair this match would play ([`crate::resume`]); the rest are played.
    Resume,
}

/// A match that could not run.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    /// A player cannot be used (checked before any game).
    #[error("player '{name}': {error}")]
    Player {
        /// The player.
        name: String,
        /// Why.
        error: PlayerError,
    },
    /// A UCI player's build prints another bench than it states.
    #[error("player '{name}': {error}")]
    Bench {
        /// The player.
        name: String,
        /// Why.
        error: bench::BenchError,
    },
    /// The output directory or a file.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The output directory holds games already.
    #[error(transparent)]
    Out(#[from] OutError),
    /// A resumed match's directory holds games it would not play.
    #[error(transparent)]
    Resume(#[from] ResumeError),
    /// Another match writes to the directory.
    #[error("{0}: one match at a time writes a directory; wait for it, or stop it and --resume")]
    InUse(#[from] LockError),
    /// The SPRT cannot judge the results (bounds no distribution attains).
    #[error("SPRT: {0}")]
    Sprt(#[from] SprtError),
    /// The output directory.
    #[error("{path}: {source}")]
    Io {
        /// Path.
        path: String,
        /// Error.
        source: std::io::Error,
    },
}

/// What a finished match produced.
#[derive(Debug)]
pub struct MatchSummary {
    /// Final statistics, first player's view.
    pub stats: LiveStats,
    /// Parquet files written (and, resumed, those found).
    pub files: Vec<PathBuf>,
    /// Pairs found stored by a resumed match, counted in `stats`.
    pub resumed_pairs: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// How progress is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Progress {
    /// A bar on a terminal, log lines otherwise.
    Auto,
    /// Nothing.
    Quiet,
}

/// Creates a player; builtin players stop searching when `stop` is set.
///
/// # Errors
/// [`MatchError::Player`] if it cannot play (missing binary, no UCI, variant unsupported).
pub fn make_player(
    config: &PlayerConfig,
    hash_mb: usize,
    stop: &Arc<AtomicBool>,
) -> Result<Box<dyn Player>, MatchError> {
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
            .map_err(|error| MatchError::Player {
                name: config.name.clone(),
                error,
            }),
    }
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

/// The names of the parameters a builtin player records in games of
/// `variant`.
fn param_names(variant: &'static Variant) -> Vec<&'static str> {
    ajaxlab_engine::params::specs_for(variant)
        .iter()
        .map(|s| s.name)
        .collect()
}

/// Runs the match into `config.out`, which must hold no games for a
/// [`Start::New`]; a match that fails leaves no empty directory behind.
///
/// # Errors
/// [`MatchError`] if the output directory holds games (new) or others than
/// this match's (resumed), a player cannot be used or results cannot be
/// written.
pub fn run_match(
    config: &MatchConfig,
    progress: Progress,
    start: Start,
) -> Result<MatchSummary, MatchError> {
    play_into_directory(config, progress, None, start)
}

/// Runs the match as [`run_match`] does, but stops handing out pairs once
/// `sprt` decides: it is fed the cumulative pentanomial counts as each pair
/// finishes (Fishtest's model). Pairs already in flight are finished,
/// stored and fed too, so that the test's last update covers every stored
/// game; its verdict stays the one reached at the crossing.
///
/// # Errors
/// As [`run_match`], and [`MatchError::Sprt`] before any game if the test
/// cannot judge counts at all.
pub fn run_sprt_match(
    config: &MatchConfig,
    progress: Progress,
    sprt: &mut Sprt,
    start: Start,
) -> Result<MatchSummary, MatchError> {
    sprt.update(Pentanomial::default())?;
    play_into_directory(config, progress, Some(sprt), start)
}

fn play_into_directory(
    config: &MatchConfig,
    progress: Progress,
    sprt: Option<&mut Sprt>,
    start: Start,
) -> Result<MatchSummary, MatchError> {
    if start == Start::New && holds_games(&config.out) {
        return Err(OutError::HoldsGames(config.out.clone()).into());
    }
    let created = !config.out.exists();
    let result = create_and_play(config, progress, sprt, start);
    if result.is_err() && created {
        // Only a directory that holds nothing but the lock goes:
        // `remove_dir` refuses any other.
        let _ = std::fs::remove_file(config.out.join(MATCH_LOCK));
        let _ = std::fs::remove_dir(&config.out);
    }
    result
}

/// Checks that each player can play, and is the build its bench says,
/// before any game; returns what each would record of itself.
fn check_players(
    config: &MatchConfig,
    never: &Arc<AtomicBool>,
) -> Result<[PlayerRecord; 2], MatchError> {
    let check = |p: &PlayerConfig| -> Result<PlayerRecord, MatchError> {
        if let PlayerKind::Uci(u) = &p.kind
            && let Some(stated) = &u.bench
        {
            bench::check(&u.command, stated, bench::BENCH_TIMEOUT).map_err(|error| {
                MatchError::Bench {
                    name: p.name.clone(),
                    error,
                }
            })?;
        }
        let player = make_player(p, config.hash_mb, never)?;
        Ok(player_record(player.as_ref(), config.variant))
    };
    let [first, second] = &config.players;
    Ok([check(first)?, check(second)?])
}

fn create_and_play(
    config: &MatchConfig,
    progress: Progress,
    mut sprt: Option<&mut Sprt>,
    start: Start,
) -> Result<MatchSummary, MatchError> {
    // Set only when a player cannot start, which stops the others.
    let abort = Arc::new(AtomicBool::new(false));
    let records = check_players(config, &abort)?;
    std::fs::create_dir_all(&config.out).map_err(|source| MatchError::Io {
        path: config.out.display().to_string(),
        source,
    })?;
    // Held until the match returns: a second match on this directory, new
    // or resumed, is refused instead of storing the same pairs again.
    let _lock = DirectoryLock::take(&config.out, MATCH_LOCK)?;
    let stored = match start {
        Start::New => StoredPairs::default(),
        Start::Resume => stored_pairs(config, &records)?,
    };
    let started = Instant::now();
    let total_games = config.pairs * 2;
    let bar = match progress {
        Progress::Auto if std::io::stderr().is_terminal() => {
            let bar =
                ProgressBar::with_draw_target(Some(total_games), ProgressDrawTarget::stderr());
            let style = ProgressStyle::with_template(
                "{bar:30} {pos}/{len} games  {per_sec}  ETA {eta}  {msg}",
            )
            .unwrap_or_else(|_| ProgressStyle::default_bar());
            bar.set_style(style);
            bar
        }
        _ => ProgressBar::hidden(),
    };
    let log_lines = progress == Progress::Auto && !std::io::stderr().is_terminal();

    let todo: Vec<u64> = (0..config.pairs)
        .filter(|pair| !stored.pairs.contains_key(pair))
        .collect();
    let mut tally = Tally::default();
    let mut all_for_pgn: Vec<GameRecord> = Vec::new();
    for pair in stored.pairs.values() {
        tally.count(pair, sprt.as_deref_mut())?;
        if config.pgn {
            all_for_pgn.extend(pair.iter().cloned());
        }
    }
    let decided = sprt
        .as_deref()
        .is_some_and(|s| s.status() != Status::Continue);
    bar.set_position(tally.stats.games());
    let mut files = stored.files;
    let mut pending: Vec<GameRecord> = Vec::new();
    let names = param_names(config.variant);
    let mut last_log = Instant::now();
    let mut last_flush = Instant::now();
    let todo = if decided { &[][..] } else { &todo[..] };

    let result = play_pairs(
        config,
        Pairs::Listed(todo),
        config.concurrency,
        &abort,
        |games| {
            let flow = if tally.count(&games, sprt.as_deref_mut())? {
                Flow::NoMorePairs
            } else {
                Flow::Continue
            };
            let stats = &tally.stats;
            bar.inc(2);
            let line = match sprt.as_deref() {
                Some(sprt) => format!("{stats}  {}", sprt.standing()),
                None => format!("{stats}"),
            };
            bar.set_message(line.clone());
            if log_lines
                && (last_log.elapsed() >= Duration::from_secs(10) || stats.games() == total_games)
            {
                eprintln!(
                    "[{:>6.1}s] games {}/{}  {line}",
                    started.elapsed().as_secs_f64(),
                    stats.games(),
                    total_games
                );
                last_log = Instant::now();
            }
            if config.pgn {
                all_for_pgn.extend(games.iter().cloned());
            }
            pending.extend(games);
            if pending.len() >= GAMES_PER_FILE || last_flush.elapsed() >= FLUSH_EVERY {
                files.push(flush(config, &mut pending, files.len(), &names)?);
                last_flush = Instant::now();
            }
            Ok(flow)
        },
    )
    .and_then(|()| {
        if !pending.is_empty() {
            files.push(flush(config, &mut pending, files.len(), &names)?);
        }
        Ok(())
    });
    bar.finish_and_clear();
    result?;
    if config.pgn {
        all_for_pgn.sort_by_key(|g| g.game_id);
        let text: String = all_for_pgn.iter().filter_map(game_pgn).collect();
        ajaxlab_store::atomic::write_text(&config.out.join("games.pgn"), &text)?;
    }
    Ok(MatchSummary {
        stats: tally.stats,
        files,
        resumed_pairs: stored.pairs.len() as u64,
        elapsed: started.elapsed(),
    })
}

/// The running count of a match's pairs.
#[derive(Default)]
struct Tally {
    stats: LiveStats,
}

impl Tally {
    /// Counts a finished pair and feeds the SPRT; true once it has
    /// decided (the pairs counted after that leave it where it decided).
    fn count(
        &mut self,
        games: &[GameRecord; 2],
        sprt: Option<&mut Sprt>,
    ) -> Result<bool, SprtError> {
        self.stats.add_pair(&games[0], &games[1]);
        let Some(sprt) = sprt else {
            return Ok(false);
        };
        Ok(sprt.update(self.stats.pentanomial)? != Status::Continue)
    }
}

fn flush(
    config: &MatchConfig,
    pending: &mut Vec<GameRecord>,
    index: usize,
    names: &[&str],
) -> Result<PathBuf, MatchError> {
    pending.sort_by_key(|g| g.game_id);
    // The first free number from `index`: a resumed match never replaces
    // a file it found.
    let mut number = index;
    let path = loop {
        let path = config.out.join(format!("games-{number:05}.parquet"));
        if !path.exists() {
            break path;
        }
        number += 1;
    };
    let metadata = FileMetadata {
        param_names: names.iter().map(|&n| n.to_owned()).collect(),
        variants_ini: config.variant.definition().map(str::to_owned),
        ..FileMetadata::default()
    };
    write_games(&path, pending, &metadata)?;
    pending.clear();
    Ok(path)
}
