//! Match configuration: a TOML file (`deny_unknown_fields`) whose common
//! settings command-line flags override, validated into [`MatchConfig`]
//! with errors that name the key.

use crate::imbalance::Imbalance;
use crate::limits;
use crate::opening::{OpeningError, Openings};
use crate::player::UciPlayerConfig;
use crate::referee::{Adjudication, DEFAULT_TIME_MARGIN};
use crate::tc::TimeControl;
use ajaxlab_engine::{DEFAULT_HASH_MB, Features, Params};
use ajaxlab_rules::{Variant, VariantSet};
use serde::{Deserialize, Serialize};

pub use crate::config_error::ConfigError;
pub use crate::config_error::Gathered;
pub(crate) use crate::config_error::err;
pub use crate::flags::{Overrides, player_from_spec};
pub use crate::player_file::{BuiltinFile, PlayerFile, UciFile};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A match file as written.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MatchFile {
    /// Variant name: a built-in, or a section of `variants`.
    pub variant: Option<String>,
    /// A variants file in Fairy-Stockfish's format, loaded beside the
    /// built-in variants (a path from the working directory).
    pub variants: Option<PathBuf>,
    /// Games to play (played as games/2 pairs).
    pub games: Option<u64>,
    /// Games played at once.
    pub concurrency: Option<usize>,
    /// Seed of openings.
    pub seed: Option<u64>,
    /// Output directory.
    pub out: Option<PathBuf>,
    /// Run id stored in every record.
    pub run_id: Option<String>,
    /// Opening spec: start, random, range:A-B, list:FILE, file:FILE.
    pub openings: Option<String>,
    /// Random plies after each start.
    pub random_plies: Option<u32>,
    /// Time control for players that set none.
    pub tc: Option<String>,
    /// Transposition table per builtin player, MB.
    pub hash_mb: Option<usize>,
    /// Also write `games.pgn`.
    pub pgn: Option<bool>,
    /// Clock overrun allowed before a loss on time, milliseconds.
    pub time_margin_ms: Option<u64>,
    /// The two players. Without them (and without `--player`) both are the
    /// builtin engine with default parameters, `ajaxlab-a` and `ajaxlab-b`,
    /// at the file's `tc` (by default `nodes=5000`): self-play, as README
    /// "Matches" says.
    pub players: Option<Vec<PlayerFile>>,
    /// Adjudication rules.
    pub adjudication: Option<Adjudication>,
    /// Material changed in every start (see [`crate::imbalance`]).
    pub imbalance: Option<ImbalanceFile>,
}

/// The `[imbalance]` table: edits of each player's side.
#[derive(Clone, Debug, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ImbalanceFile {
    /// Edits of the first player's side, e.g. `["-P@f2"]`.
    #[serde(default)]
    pub first: Vec<String>,
    /// Edits of the second player's side.
    #[serde(default)]
    pub second: Vec<String>,
}

/// What a player is.
#[derive(Clone, Debug)]
pub enum PlayerKind {
    /// The builtin engine with these parameters and search features.
    Builtin(Box<Params>, Features),
    /// An external UCI engine.
    Uci(UciPlayerConfig),
}

/// A validated player.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// Display name.
    pub name: String,
    /// What it is.
    pub kind: PlayerKind,
    /// Its time control.
    pub tc: TimeControl,
}

/// A validated match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Variant: a built-in, or a section of a user's file (whose text the
    /// variant keeps, and the games file records).
    pub variant: &'static Variant,
    /// Pairs to play.
    pub pairs: u64,
    /// Games at once.
    pub concurrency: usize,
    /// Seed.
    pub seed: u64,
    /// Output directory.
    pub out: PathBuf,
    /// Run id.
    pub run_id: String,
    /// Openings.
    pub openings: Openings,
    /// The two players; the first is the one whose Elo is reported.
    pub players: [PlayerConfig; 2],
    /// Adjudication.
    pub adjudication: Adjudication,
    /// Hash per builtin player, MB.
    pub hash_mb: usize,
    /// Write PGN too.
    pub pgn: bool,
    /// Clock overrun allowed.
    pub time_margin: Duration,
}

/// An output directory that cannot take a match's games.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OutError {
    /// It holds an earlier run.
    #[error(
        "{} holds an earlier run, whose games are never overwritten or added to: name a new directory with --out, or go on with it with --resume",
        .0.display()
    )]
    HoldsGames(PathBuf),
}

/// Whether `dir`, or a directory below it (a tournament's pairings),
/// holds a run: games files, a PGN file, or a coordinator's state (a
/// match or campaign begun there, if no game is stored yet).
pub fn holds_games(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let path = e.path();
            ajaxlab_store::find::is_games_file(&path)
                || e.file_name() == "games.pgn"
                || e.file_name() == ajaxlab_store::STATE_FILE
                || e.file_type().is_ok_and(|t| t.is_dir()) && holds_games(&path)
        })
    })
}

/// Reads a match file.
///
/// # Errors
/// [`ConfigError`]: the TOML error (naming the line) of a file that is not
/// TOML, else every unknown or mistyped key ([`match_file_of`]).
pub fn read_match_file(path: &Path) -> Result<MatchFile, ConfigError> {
    let shown = path.display().to_string();
    let text = ajaxlab_files::read_text(path, ajaxlab_files::limits::CONFIG_FILE)
        .map_err(|e| err(&shown, e.to_string()))?;
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| err(&shown, e.to_string().trim_end().to_owned()))?;
    match_file_of(table).map_err(|e| e.map_keys(|key| format!("{shown}: {key}")))
}

/// The match file of a parsed TOML table. A table that does not fit is
/// read again a key at a time (every key of `MatchFile` is optional, so a
/// key alone fits exactly when it fits in the whole), and each player a
/// key at a time beside its `engine`, so that every unknown or mistyped
/// key is named at once (`players[1].path: unknown field …`).
///
/// # Errors
/// [`ConfigError`] naming every key that does not fit.
pub fn match_file_of(table: toml::Table) -> Result<MatchFile, ConfigError> {
    let whole = match MatchFile::deserialize(table.clone()) {
        Ok(file) => return Ok(file),
        Err(e) => e,
    };
    let mut found = Gathered::default();
    for (key, value) in table {
        match (key.as_str(), value) {
            ("players", toml::Value::Array(players)) => {
                for (i, player) in players.into_iter().enumerate() {
                    check_player_keys(&mut found, i, player);
                }
            }
            (_, value) => {
                let alone = toml::Table::from_iter([(key.clone(), value)]);
                found.check(
                    MatchFile::deserialize(alone)
                        .map(drop)
                        .map_err(|e| err(&key, e.message())),
                );
            }
        }
    }
    Err(found.into_error(|| err("match file", whole.message())))
}

/// Checks `players[index]` a key at a time beside its `engine`.
fn check_player_keys(found: &mut Gathered, index: usize, player: toml::Value) {
    let key = |k: &str| format!("players[{index}].{k}");
    let toml::Value::Table(table) = player else {
        found.check::<()>(Err(err(key("engine"), "a player is a table")));
        return;
    };
    let engine = table.get("engine").cloned();
    let with_engine = |pair: Option<(String, toml::Value)>| {
        let mut alone = toml::Table::new();
        if let Some(engine) = &engine {
            alone.insert("engine".into(), engine.clone());
        }
        alone.extend(pair);
        PlayerFile::deserialize(alone).map(drop)
    };
    if let Err(e) = with_engine(None) {
        found.check::<()>(Err(err(key("engine"), e.message())));
        return;
    }
    for (name, value) in table.into_iter().filter(|(k, _)| k != "engine") {
        found.check(
            with_engine(Some((name.clone(), value))).map_err(|e| err(key(&name), e.message())),
        );
    }
}

fn parse_tc(key: &str, text: &str) -> Result<TimeControl, ConfigError> {
    text.parse()
        .map_err(|e: crate::tc::TimeControlError| err(key, e.to_string()))
}

fn player(
    index: usize,
    file: &PlayerFile,
    variant: &'static Variant,
    default_tc: &Option<String>,
    tc_override: &Option<String>,
) -> Result<PlayerConfig, ConfigError> {
    let key = |k: &str| format!("players[{index}].{k}");
    let tc_text = tc_override.as_ref().or(file.tc()).or(default_tc.as_ref());
    let tc = match tc_text {
        Some(t) => parse_tc(
            &if tc_override.is_some() {
                "--tc".to_owned()
            } else if file.tc().is_some() {
                key("tc")
            } else {
                "tc".to_owned()
            },
            t,
        )?,
        None => TimeControl::Nodes(5000),
    };
    let kind = match file {
        PlayerFile::Builtin(b) => builtin_kind(index, b)?,
        PlayerFile::Uci(u) => crate::uci_config::uci_kind(index, u, variant)?,
    };
    let default_name = match &kind {
        // `ajaxlab-a`, `ajaxlab-b`, … in the order given (`ajaxlab-27` past z).
        PlayerKind::Builtin(..) => match u8::try_from(index).ok().filter(|i| *i < 26) {
            Some(i) => format!("ajaxlab-{}", char::from(b'a' + i)),
            None => format!("ajaxlab-{}", index + 1),
        },
        PlayerKind::Uci(c) => c
            .command
            .file_stem()
            .map_or("engine".into(), |s| s.to_string_lossy().into_owned()),
    };
    let name = file.name().map_or(default_name, str::to_owned);
    crate::names::check_name(&name)
        .map_err(|e| err(key("name"), format!("'{}': {e}", name.escape_debug())))?;
    let kind = match kind {
        PlayerKind::Uci(mut c) => {
            c.name = name.clone();
            PlayerKind::Uci(c)
        }
        other => other,
    };
    Ok(PlayerConfig { name, kind, tc })
}

/// The builtin player `players[index]` of a file: its parameters (a file,
/// then `set` over it) and the search features it switches off.
fn builtin_kind(index: usize, file: &BuiltinFile) -> Result<PlayerKind, ConfigError> {
    let key = |k: &str| format!("players[{index}].{k}");
    let mut params = match &file.params {
        Some(path) => {
            let text = ajaxlab_files::read_text(path, ajaxlab_files::limits::PARAMS_FILE)
                .map_err(|e| err(key("params"), format!("{}: {e}", path.display())))?;
            Params::from_text(&text)
                .map_err(|e| err(key("params"), format!("{}: {e}", path.display())))?
        }
        None => Params::default(),
    };
    for (name, value) in file.set.iter().flatten() {
        params
            .set(name, *value)
            .map_err(|e| err(key("set"), e.to_string()))?;
    }
    let mut features = Features::default();
    for name in file.disable.iter().flatten() {
        if !features.disable(name) {
            return Err(err(
                key("disable"),
                format!("'{name}': expected one of {}", Features::NAMES.join(", ")),
            ));
        }
    }
    Ok(PlayerKind::Builtin(Box::new(params), features))
}

/// How a match's output directory was chosen, which decides what happens
/// when it holds games already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OutChoice {
    /// Named by `--out` or the file's `out`: refused if it holds games.
    Named,
    /// The default `runs/RUN_ID`: the first of it, `RUN_ID-2`, `RUN_ID-3`, …
    /// that holds no games is used.
    Default,
}

/// The directory a new match writes to: `dir` if it holds no games; for a
/// default directory otherwise the first of `dir-2`, `dir-3`, … that holds
/// none. A match never overwrites or adds to earlier games.
///
/// # Errors
/// [`OutError::HoldsGames`] for a named directory that holds games.
pub fn directory_for_new_games(dir: PathBuf, choice: OutChoice) -> Result<PathBuf, OutError> {
    if !holds_games(&dir) {
        return Ok(dir);
    }
    if choice == OutChoice::Named {
        return Err(OutError::HoldsGames(dir));
    }
    let base = dir.as_os_str().to_string_lossy().into_owned();
    Ok((2u64..)
        .map(|n| PathBuf::from(format!("{base}-{n}")))
        .find(|d| !holds_games(d))
        .unwrap_or(dir))
}

impl MatchConfig {
    /// Validates a match file with flag overrides.
    ///
    /// # Errors
    /// [`ConfigError`] naming every bad key.
    pub fn build(file: MatchFile, o: Overrides) -> Result<MatchConfig, ConfigError> {
        Self::build_field(file, o, 2..=2).map(|(config, _)| config)
    }

    /// Validates a match file with flag overrides for a field of `count`
    /// players (a tournament): the config holds the first two, the list
    /// all of them, named apart (`NAME-2`, `NAME-3`, … for repeats).
    ///
    /// # Errors
    /// [`ConfigError`] naming every bad key (each player's first).
    pub fn build_field(
        file: MatchFile,
        o: Overrides,
        count: std::ops::RangeInclusive<usize>,
    ) -> Result<(MatchConfig, Vec<PlayerConfig>), ConfigError> {
        let variant_key = if o.variant.is_some() {
            "--variant"
        } else {
            "variant"
        };
        let variant_text = o
            .variant
            .or(file.variant)
            .unwrap_or_else(|| "ajax-falcon".to_owned());
        let variants = match (&o.variants, &file.variants) {
            (Some(path), _) => Some(("--variants", path)),
            (None, Some(path)) => Some(("variants", path)),
            (None, None) => None,
        };
        let mut found = Gathered::default();
        let variant = found
            .check(match variants {
                Some((key, path)) => {
                    VariantSet::with_file(path).map_err(|e| err(key, e.to_string()))
                }
                None => Ok(VariantSet::builtin()),
            })
            .and_then(|set| {
                found.check(
                    set.find(&variant_text)
                        .map_err(|e| err(variant_key, e.to_string())),
                )
            });
        let games = found.check(checked_games(o.games.or(file.games).unwrap_or(100)));
        let concurrency = o
            .concurrency
            .or(file.concurrency)
            .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
        let concurrency = found.check(limits::check(
            "concurrency",
            concurrency,
            &limits::CONCURRENCY,
        ));
        let files = found.check(player_files(file.players, &o.players, count));
        let field = match (variant, files) {
            (Some(variant), Some(files)) => {
                let mut field = Vec::with_capacity(files.len());
                for (i, f) in files.iter().enumerate() {
                    if let Some(p) = found.check(player(i, f, variant, &file.tc, &o.tc)) {
                        field.push(named_apart(p, &field));
                    }
                }
                (field.len() == files.len()).then_some(field)
            }
            _ => None,
        };
        let seed = o.seed.or(file.seed).unwrap_or(1);
        let random_plies = found.check(
            o.random_plies
                .or(file.random_plies)
                .map(|n| limits::check("random_plies", n, &limits::RANDOM_PLIES))
                .transpose(),
        );
        let openings = match (variant, random_plies) {
            (Some(variant), Some(random_plies)) => found.check(openings_of(
                variant,
                o.openings.or(file.openings),
                random_plies,
                file.imbalance.as_ref(),
            )),
            _ => None,
        };
        let hash_mb = found.check(limits::check(
            "hash_mb",
            file.hash_mb.unwrap_or(DEFAULT_HASH_MB),
            &limits::HASH_MB,
        ));
        let time_margin = found.check(match file.time_margin_ms {
            Some(ms) => limits::check("time_margin_ms", ms, &limits::TIME_MARGIN_MS)
                .map(Duration::from_millis),
            None => Ok(DEFAULT_TIME_MARGIN),
        });
        let adjudication = file.adjudication.unwrap_or_default();
        let adjudged = found.check(limits::check_adjudication(&adjudication));
        let (
            Some(variant),
            Some(games),
            Some(concurrency),
            Some(field),
            Some(openings),
            Some(hash_mb),
            Some(time_margin),
            Some(()),
        ) = (
            variant,
            games,
            concurrency,
            field,
            openings,
            hash_mb,
            time_margin,
            adjudged,
        )
        else {
            return Err(found.into_error(|| err("match file", "not valid")));
        };
        let players = [field[0].clone(), field[1].clone()];
        let run_id = file
            .run_id
            .unwrap_or_else(|| format!("match-{}-{seed}", variant.name()));
        let config = MatchConfig {
            variant,
            pairs: games / 2,
            concurrency,
            seed,
            out: o
                .out
                .or(file.out)
                .unwrap_or_else(|| PathBuf::from("runs").join(&run_id)),
            run_id,
            openings,
            players,
            adjudication,
            hash_mb,
            pgn: file.pgn.unwrap_or(false),
            time_margin,
        };
        Ok((config, field))
    }
}

/// `games` if it is even, at least 2 and within its limit.
fn checked_games(games: u64) -> Result<u64, ConfigError> {
    // The top of the range first: the even-number hint below is for
    // small and odd counts, and must never suggest one out of range.
    if games > *limits::GAMES.end() {
        limits::check("games", games, &limits::GAMES)?;
    }
    if games < 2 || !games.is_multiple_of(2) {
        let nearest = (games + 1).max(2) / 2 * 2;
        return Err(err(
            "games",
            format!(
                "{games}: must be an even number ≥ 2, e.g. {nearest}: every opening is played twice, colours swapped, and the statistics count pairs (pentanomial, as Fishtest and fastchess do), which an unpaired game would not fit"
            ),
        ));
    }
    Ok(games)
}

/// The players as written: `--player` flags over the file's `[[players]]`,
/// the builtin engine twice if neither names any; `count` of them.
fn player_files(
    in_file: Option<Vec<PlayerFile>>,
    flags: &[String],
    count: std::ops::RangeInclusive<usize>,
) -> Result<Vec<PlayerFile>, ConfigError> {
    let files: Vec<PlayerFile> = if flags.is_empty() {
        in_file.unwrap_or_else(|| vec![PlayerFile::default(); 2])
    } else {
        flags
            .iter()
            .map(|s| player_from_spec(s))
            .collect::<Result<_, _>>()?
    };
    if !count.contains(&files.len()) {
        let needed = if count.start() == count.end() {
            format!("exactly {}", count.start())
        } else {
            format!("at least {}", count.start())
        };
        return Err(err(
            if flags.is_empty() {
                "players"
            } else {
                "--player"
            },
            format!("{} given, {needed} needed", files.len()),
        ));
    }
    Ok(files)
}

/// `p`, renamed `NAME-2`, `NAME-3`, … if a player of `field` has its name.
fn named_apart(mut p: PlayerConfig, field: &[PlayerConfig]) -> PlayerConfig {
    let taken = |name: &str| field.iter().any(|q| q.name == name);
    if taken(&p.name) {
        let free = (2u32..)
            .map(|n| format!("{}-{n}", p.name))
            .find(|name| !taken(name));
        p.name = free.unwrap_or_default();
        if let PlayerKind::Uci(c) = &mut p.kind {
            c.name = p.name.clone();
        }
    }
    p
}

/// The openings `spec` names (random starts for variants that have them,
/// else the start position), with `imbalance` applied.
fn openings_of(
    variant: &'static Variant,
    spec: Option<String>,
    random_plies: Option<u32>,
    imbalance: Option<&ImbalanceFile>,
) -> Result<Openings, ConfigError> {
    let spec = spec.unwrap_or_else(|| {
        if variant.start_count().is_some() {
            "random".into()
        } else {
            "start".into()
        }
    });
    let mut openings = Openings::parse(variant, &spec, random_plies)
        .map_err(|e: OpeningError| err("openings", e.to_string()))?;
    if let Some(i) = imbalance {
        openings.imbalance =
            Imbalance::parse(&i.first, &i.second).map_err(|e| err("imbalance", e.to_string()))?;
        openings
            .check_imbalance()
            .map_err(|e| err("imbalance", e.to_string()))?;
    }
    Ok(openings)
}

/// The match of a file's text with flags, for tests (a text that is not
/// a match file is an error of key `file`).
#[cfg(test)]
pub(crate) fn build_text(toml_text: &str, o: Overrides) -> Result<MatchConfig, ConfigError> {
    let file: MatchFile = toml::from_str(toml_text).map_err(|e| err("file", e.to_string()))?;
    MatchConfig::build(file, o)
}

#[cfg(test)]
mod tests {
    use super::build_text as build;
    use super::*;

    #[test]
    fn errors_name_the_key() {
        let e = build(
            "[[players]]\nengine = \"builtin\"\n[[players]]\nengine = \"builtin\"\ntc = \"fast\"\n",
            Overrides::default(),
        )
        .unwrap_err();
        assert_eq!(e.key, "players[1].tc");
        assert!(e.message.contains("expected nodes=N"), "{e}");
        let odd = build("games = 3", Overrides::default()).unwrap_err();
        assert_eq!(odd.key, "games");
        assert!(
            odd.message
                .contains("e.g. 4: every opening is played twice"),
            "{odd}"
        );
        assert_eq!(
            build("variant = \"shogi\"", Overrides::default())
                .unwrap_err()
                .key,
            "variant"
        );
        let unknown = build("gmaes = 10", Overrides::default()).unwrap_err();
        assert!(
            unknown.message.contains("unknown field `gmaes`"),
            "{unknown}"
        );
        let e = build(
            "[[players]]\nengine = \"uci\"\n[[players]]\nengine = \"builtin\"\n",
            Overrides::default(),
        )
        .unwrap_err();
        assert_eq!(e.key, "players[0].path");
        let e = build(
            "variant = \"chess\"\nopenings = \"random\"",
            Overrides::default(),
        )
        .unwrap_err();
        assert_eq!(e.key, "openings");
    }

    #[test]
    fn every_unknown_or_mistyped_key_is_named_at_once() {
        let table: toml::Table = "games = \"ten\"\nseeds = 3\n[[players]]\nengine = \"builtin\"\npath = \"x\"\nname = \"a\"\n[[players]]\nengine = \"uci\"\npath = \"y\"\nparams = \"p\"\nbench = \"many\"\n"
            .parse()
            .unwrap();
        let e = match_file_of(table).unwrap_err();
        let keys: Vec<&str> = e.all().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            [
                "games",
                "players[0].path",
                "players[1].bench",
                "players[1].params",
                "seeds"
            ],
            "{e}"
        );
        assert!(e.to_string().contains("unknown field `path`"), "{e}");
        let table: toml::Table = "[[players]]\nname = \"a\"\n".parse().unwrap();
        let e = match_file_of(table).unwrap_err();
        assert_eq!(e.key, "players[0].engine", "{e}");
    }

    #[test]
    fn every_bad_key_is_named_at_once() {
        let e = build(
            "games = 7\nhash_mb = 0\ntc = \"fast\"\n[[players]]\nengine = \"builtin\"\n[[players]]\nengine = \"builtin\"\nname = \"a b\"\n[adjudication]\nmax_plies = 0\n",
            Overrides::default(),
        )
        .unwrap_err();
        let keys: Vec<&str> = e.all().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            ["games", "tc", "tc", "hash_mb", "adjudication.max_plies"],
            "{e}"
        );
        assert_eq!(e.to_string().lines().count(), 5, "{e}");
        let e = build("variant = \"nope\"\ngames = 3\n", Overrides::default()).unwrap_err();
        let keys: Vec<&str> = e.all().map(|(k, _)| k).collect();
        assert_eq!(keys, ["variant", "games"], "{e}");
    }

    #[test]
    fn a_clock_too_long_for_a_duration_is_refused_naming_the_flag() {
        let o = Overrides {
            tc: Some("1e20+0".into()),
            ..Overrides::default()
        };
        let e = build("variant = \"chess\"", o).unwrap_err();
        assert_eq!(e.key, "--tc");
        assert!(
            e.message.contains("base (s) must be from 0.001 to 86400"),
            "{e}"
        );
    }

    #[test]
    fn adjudication_keys_out_of_range_are_refused_naming_the_key() {
        for (table, key) in [
            (
                "resign_score = 100000\nresign_moves = 0",
                "adjudication.resign_moves",
            ),
            (
                "resign_score = 300\nresign_moves = 2147483648",
                "adjudication.resign_moves",
            ),
            ("draw_score = 10\ndraw_moves = 0", "adjudication.draw_moves"),
            ("draw_score = -1", "adjudication.draw_score"),
            ("resign_score = -2147483648", "adjudication.resign_score"),
            ("max_plies = 0", "adjudication.max_plies"),
        ] {
            let e = build(&format!("[adjudication]\n{table}\n"), Overrides::default());
            assert_eq!(
                e.map(|_| ()).map_err(|e| e.key),
                Err(key.to_owned()),
                "{table}"
            );
        }
        let ok = build(
            "[adjudication]\nresign_score = 600\nresign_moves = 3\nmax_plies = 400\n",
            Overrides::default(),
        );
        assert!(ok.is_ok(), "{:?}", ok.err());
    }

    #[test]
    fn numeric_keys_out_of_range_are_refused_naming_the_key() {
        for (text, key) in [
            ("hash_mb = 100000000", "hash_mb"),
            ("hash_mb = 0", "hash_mb"),
            ("games = 1000000000000000000", "games"),
            ("games = 18446744073709551615", "games"),
            ("random_plies = 100000", "random_plies"),
            ("concurrency = 0", "concurrency"),
            ("time_margin_ms = 18446744073709551615", "time_margin_ms"),
            (
                "[[players]]\nengine = \"uci\"\npath = \"/bin/x\"\nmove_timeout_s = 18446744073709551615\n[[players]]\nengine = \"builtin\"",
                "players[0].move_timeout_s",
            ),
            (
                "[[players]]\nengine = \"builtin\"\n[[players]]\nengine = \"uci\"\npath = \"/bin/x\"\nstartup_timeout_s = 0",
                "players[1].startup_timeout_s",
            ),
            ("tc = \"nodes=100000000000000\"", "tc"),
            (
                "[[players]]\nengine = \"uci\"\npath = \"/bin/x\"\nworker_path = \"/bin/y\"\n[[players]]\nengine = \"builtin\"",
                "players[0].worker_path",
            ),
        ] {
            let e = build(text, Overrides::default());
            assert_eq!(
                e.map(|_| ()).map_err(|e| e.key),
                Err(key.to_owned()),
                "{text}"
            );
        }
        let flag = Overrides {
            random_plies: Some(100_000),
            ..Overrides::default()
        };
        assert_eq!(
            build("", flag).map(|_| ()).map_err(|e| e.key),
            Err("random_plies".to_owned())
        );
    }

    #[test]
    fn a_file_without_players_plays_the_documented_builtin_self_play() {
        let c = build("variant = \"chess\"", Overrides::default()).unwrap();
        let names: Vec<&str> = c.players.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["ajaxlab-a", "ajaxlab-b"]);
        assert!(
            c.players
                .iter()
                .all(|p| matches!(p.kind, PlayerKind::Builtin(..))
                    && p.tc == TimeControl::Nodes(5000))
        );
    }

    #[test]
    fn inline_parameter_values_are_checked() {
        let ok = build("[[players]]\nengine = \"builtin\"\nset = { \"afc.falcon.mg\" = 550 }\n[[players]]\nengine = \"builtin\"\n", Overrides::default()).unwrap();
        match &ok.players[0].kind {
            PlayerKind::Builtin(p, _) => assert_eq!(p.afc_falcon_mg, 550),
            PlayerKind::Uci(_) => panic!("builtin expected"),
        }
        let e = build("[[players]]\nengine = \"builtin\"\nset = { \"afc.falcon.mg\" = 9999 }\n[[players]]\nengine = \"builtin\"\n", Overrides::default()).unwrap_err();
        assert_eq!(e.key, "players[0].set");
        // A UCI player's `set` is no key of its kind (player_file's tests).
    }

    #[test]
    fn a_run_directory_that_holds_games_is_never_reused() {
        let dir = std::env::temp_dir().join(format!("ajaxlab-free-dir-{}", std::process::id()));
        let second = PathBuf::from(format!("{}-2", dir.display()));
        let _ = std::fs::remove_dir_all(&dir);
        let _ = std::fs::remove_dir_all(&second);
        for choice in [OutChoice::Named, OutChoice::Default] {
            let free = directory_for_new_games(dir.clone(), choice);
            assert_eq!(free, Ok(dir.clone()), "an absent directory is free");
        }
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("notes.txt"), b"").unwrap();
        let free = directory_for_new_games(dir.clone(), OutChoice::Named);
        assert_eq!(free, Ok(dir.clone()), "a directory without games is free");
        std::fs::write(dir.join("games-00000.parquet"), b"").unwrap();
        let free = directory_for_new_games(dir.clone(), OutChoice::Default);
        assert_eq!(free, Ok(second));
        let named = directory_for_new_games(dir.clone(), OutChoice::Named).unwrap_err();
        assert!(
            named
                .to_string()
                .contains("name a new directory with --out"),
            "{named}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
        // A tournament's games lie one directory down, and count too.
        let pairing = dir.join("01-a-vs-b");
        std::fs::create_dir_all(&pairing).unwrap();
        assert_eq!(
            directory_for_new_games(dir.clone(), OutChoice::Default),
            Ok(dir.clone())
        );
        std::fs::write(pairing.join("games-00000.parquet"), b"").unwrap();
        let second = PathBuf::from(format!("{}-2", dir.display()));
        assert_eq!(
            directory_for_new_games(dir.clone(), OutChoice::Default),
            Ok(second)
        );
        assert!(directory_for_new_games(dir.clone(), OutChoice::Named).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
