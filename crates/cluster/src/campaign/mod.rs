//! Campaign files: a match file (see `ajaxlab match`) with a `[campaign]`
//! table naming it, setting its priority and its kind, plus the kind's own
//! table. Players are the builtin engine (its parameters travel in the work
//! units) or UCI engines: `path` names a binary shipped to the workers with
//! the campaign (uploaded by `ajaxlab campaign create`), `worker_path` one
//! every worker has installed.
//!
//! | kind | players | extra table | what it measures |
//! |---|---|---|---|
//! | `match` | two | — | Elo of the first player, with its interval |
//! | `sprt` | two | `[sprt]` elo0, elo1, alpha, beta, model | stops when the LLR crosses a bound |
//! | `spsa` | one | `[spsa]` with `[[spsa.params]]`, `params_text` or `params_file`; `template` for a UCI engine's file | tunes the builtin engine's parameters or a UCI engine's spin options or file: `θ+` against `θ−` per unit |
//! | `piece-value` | one | `[piece_value]` pawn and `[[piece_value.imbalances]]` | one part per imbalance plus the pawn-odds part |
//! | `first-move` | one | — | self-play: White's score per start |
//! | `datagen` | one | `[datagen]` min_ply, quiet | self-play whose positions are kept as training data, one Parquet row each |

use crate::campaign::inputs::Inputs;
use crate::campaign::spsa_list::param_list;
use crate::ids::CampaignId;
use ajaxlab_arena::config::{Gathered, match_file_of};
use ajaxlab_arena::config::{ImbalanceFile, PlayerFile};
use ajaxlab_arena::limits::check;
use ajaxlab_arena::{ConfigError, MatchConfig, MatchFile, Overrides};
use ajaxlab_stats::{InvalidSprtConfig, SprtConfig, SprtViolation, SpsaConfig, UnknownEloModel};
use ajaxlab_store::metadata::UnknownRunKind;
use ajaxlab_store::positions::PositionFilter;
use ajaxlab_store::{FileMetadata, KindMetadata, PartMetadata, RunKind, SprtDesign, SprtMetadata};
use serde::Deserialize;
use std::ops::RangeInclusive;

/// The `[campaign]` table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CampaignTable {
    name: String,
    #[serde(default = "default_priority")]
    priority: u32,
    #[serde(default = "default_kind")]
    kind: String,
}

fn default_priority() -> u32 {
    1
}

fn default_kind() -> String {
    RunKind::Match.to_string()
}

/// The `[piece_value]` table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PieceValueTable {
    #[serde(default = "default_pawn")]
    pawn: Vec<String>,
    imbalances: Vec<ImbalanceTable>,
}

fn default_pawn() -> Vec<String> {
    vec!["-P@f2".into()]
}

/// One `[[piece_value.imbalances]]` entry.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ImbalanceTable {
    name: String,
    #[serde(default)]
    first: Vec<String>,
    #[serde(default)]
    second: Vec<String>,
}

/// The `[datagen]` table: which positions of the games become rows.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DatagenTable {
    #[serde(default = "default_min_ply")]
    min_ply: u32,
    #[serde(default = "default_quiet")]
    quiet: bool,
}

fn default_min_ply() -> u32 {
    PositionFilter::default().min_ply
}

fn default_quiet() -> bool {
    PositionFilter::default().quiet
}

/// `campaign.priority`: a campaign's share of the workers, relative to the
/// others'.
pub const PRIORITY: RangeInclusive<u32> = 1..=1_000;

/// The name of a piece-value campaign's pawn-odds part.
pub const CALIBRATION_PART: &str = "pawn-odds";

/// What a campaign is for, with what that needs.
#[derive(Clone, Debug, PartialEq)]
pub enum CampaignKind {
    /// A fixed number of pairs.
    Match,
    /// Stops when the log-likelihood ratio crosses a bound.
    Sprt(SprtConfig),
    /// Tunes parameters; the first player plays `θ+`, the second `θ−`.
    Spsa {
        /// The tune.
        tune: SpsaConfig,
        /// What its values set in the engine.
        target: SpsaTarget,
    },
    /// One part of a piece-value campaign: an imbalance, or the pawn odds
    /// that calibrate the others.
    PieceValue {
        /// The imbalance's name.
        part: String,
        /// Whether this is the pawn-odds part.
        calibration: bool,
    },
    /// Self-play survey of start positions.
    FirstMove,
    /// Self-play whose positions `filter` keeps are written as training
    /// data beside each unit's games.
    Datagen(PositionFilter),
}

impl CampaignKind {
    /// The kind alone.
    pub const fn run_kind(&self) -> RunKind {
        match self {
            CampaignKind::Match => RunKind::Match,
            CampaignKind::Sprt(_) => RunKind::Sprt,
            CampaignKind::Spsa { .. } => RunKind::Spsa,
            CampaignKind::PieceValue { .. } => RunKind::PieceValue,
            CampaignKind::FirstMove => RunKind::FirstMove,
            CampaignKind::Datagen(_) => RunKind::Datagen,
        }
    }
}

pub mod inputs;
mod spsa;
pub(crate) mod spsa_list;
pub mod spsa_template;

pub use spsa::{FileTemplate, SpsaTarget};
use spsa::{SpsaTable, spsa_config, spsa_target, spsa_template_name};

/// A validated campaign (or one part of a piece-value campaign).
#[derive(Clone, Debug)]
pub struct CampaignSpec {
    /// Id: the name, or `NAME.PART` for a piece-value part (also the
    /// directory of its files).
    pub name: CampaignId,
    /// Share of the workers relative to other campaigns.
    pub priority: u32,
    /// What it is for.
    pub kind: CampaignKind,
    /// The match it plays.
    pub config: MatchConfig,
    /// Per player: whether it is a UCI engine installed on every worker
    /// (`worker_path`), which the campaign does not ship.
    pub installed: [bool; 2],
}

/// The match of a campaign, with which players' engines are installed.
struct Built {
    config: MatchConfig,
    installed: [bool; 2],
}

impl CampaignSpec {
    /// The metadata stored in each of its game files, so that reports
    /// need nothing but the Parquet files (the parameter names are the
    /// writer's to fill in).
    pub fn file_metadata(&self, toml_text: &str) -> FileMetadata {
        let kind = match &self.kind {
            CampaignKind::Match => KindMetadata::Match,
            CampaignKind::Sprt(s) => KindMetadata::Sprt(SprtMetadata::from(s)),
            CampaignKind::Spsa { .. } => KindMetadata::Spsa,
            CampaignKind::PieceValue { part, calibration } => {
                KindMetadata::PieceValue(PartMetadata {
                    name: Some(part.clone()),
                    calibration: *calibration,
                })
            }
            CampaignKind::FirstMove => KindMetadata::FirstMove,
            CampaignKind::Datagen(_) => KindMetadata::Datagen,
        };
        FileMetadata {
            param_names: Vec::new(),
            kind: Some(kind),
            campaign: Some(self.name.clone()),
            campaign_toml: Some(toml_text.to_owned()),
            variants_ini: self.config.variant.definition().map(str::to_owned),
        }
    }
}

fn err(key: &str, message: impl Into<String>) -> ConfigError {
    ConfigError::new(key, message)
}

fn take<T: serde::de::DeserializeOwned>(
    table: &mut toml::Table,
    key: &str,
) -> Result<Option<T>, ConfigError> {
    table
        .remove(key)
        .map(|v| {
            v.try_into()
                .map_err(|e: toml::de::Error| err(key, e.message().to_owned()))
        })
        .transpose()
}

pub use crate::ids::MAX_NAME_LEN;

/// Parses and validates a campaign file: one spec, or one per part of a
/// piece-value campaign (its imbalances, then the pawn-odds part).
///
/// # Errors
/// [`ConfigError`] naming the key.
pub fn parse_campaign(text: &str) -> Result<Vec<CampaignSpec>, ConfigError> {
    parse(text, None)
}

/// [`parse_campaign`] reading the files it names from their captured
/// copies; errors name the original files.
///
/// # Errors
/// [`ConfigError`] naming the key, or a file that was not captured.
pub fn parse_campaign_with(text: &str, inputs: &Inputs) -> Result<Vec<CampaignSpec>, ConfigError> {
    parse(text, Some(inputs)).map_err(|e| inputs.unredirect(e))
}

/// A campaign file's TOML, parsed.
///
/// # Errors
/// [`ConfigError`] of `campaign file` with TOML's error (line and column).
pub fn campaign_table(text: &str) -> Result<toml::Table, ConfigError> {
    text.parse()
        .map_err(|e: toml::de::Error| err("campaign file", e.to_string()))
}

/// [`parse_campaign`] of a file's parsed TOML.
///
/// # Errors
/// [`ConfigError`] naming the key.
pub fn parse_campaign_table(table: toml::Table) -> Result<Vec<CampaignSpec>, ConfigError> {
    parse_table(table, None)
}

fn parse(text: &str, inputs: Option<&Inputs>) -> Result<Vec<CampaignSpec>, ConfigError> {
    parse_table(campaign_table(text)?, inputs)
}

fn parse_table(
    mut table: toml::Table,
    inputs: Option<&Inputs>,
) -> Result<Vec<CampaignSpec>, ConfigError> {
    let template_name = spsa_template_name(&table);
    if let Some(inputs) = inputs {
        inputs.redirect(&mut table)?;
    }
    let campaign: CampaignTable = take(&mut table, "campaign")?
        .ok_or_else(|| err("campaign", "missing [campaign] table with name = \"...\""))?;
    let sprt: Option<SprtDesign> = take(&mut table, "sprt")?;
    let spsa: Option<SpsaTable> = take(&mut table, "spsa")?;
    let piece_value: Option<PieceValueTable> = take(&mut table, "piece_value")?;
    let datagen: Option<DatagenTable> = take(&mut table, "datagen")?;
    // The [campaign] table's keys and the kind's tables, all named at once.
    let mut found = Gathered::default();
    let name = found
        .check(CampaignId::new(&campaign.name).map_err(|e| err("campaign.name", e.to_string())));
    let priority = found.check(check("campaign.priority", campaign.priority, &PRIORITY));
    let kind = found.check(
        campaign
            .kind
            .parse::<RunKind>()
            .map_err(|e: UnknownRunKind| err("campaign.kind", e.to_string())),
    );
    for (present, key, wanted) in [
        (sprt.is_some(), "sprt", RunKind::Sprt),
        (spsa.is_some(), "spsa", RunKind::Spsa),
        (piece_value.is_some(), "piece_value", RunKind::PieceValue),
        (datagen.is_some(), "datagen", RunKind::Datagen),
    ] {
        if present && campaign.kind != wanted.as_str() {
            found.check::<()>(Err(err(
                key,
                format!("[{key}] belongs to kind = \"{wanted}\" campaigns"),
            )));
        }
    }
    let (Some(name), Some(_), Some(kind)) = (name, priority, kind) else {
        // The match's faults too, so that one reading names them all (a
        // piece-value or first-move file's match is built per part).
        if let Some(file) = found.check(match_file_of(table))
            && matches!(kind, Some(RunKind::Match | RunKind::Sprt))
        {
            found.check(build(file, &campaign.name));
        }
        return Err(found.into_error(|| err("campaign", "not valid")));
    };
    found.finish()?;
    let file: MatchFile = match_file_of(table)?;
    let spec = |name: CampaignId, kind: CampaignKind, built: Built| CampaignSpec {
        name,
        priority: campaign.priority,
        kind,
        config: built.config,
        installed: built.installed,
    };
    match kind {
        RunKind::Match => Ok(vec![spec(
            name,
            CampaignKind::Match,
            build(file, &campaign.name)?,
        )]),
        RunKind::Sprt => {
            let table = sprt.ok_or_else(|| err("sprt", "missing [sprt] table (elo0, elo1)"))?;
            let config = build(file, &campaign.name)?;
            Ok(vec![spec(
                name,
                CampaignKind::Sprt(sprt_config(&table)?),
                config,
            )])
        }
        RunKind::Spsa => {
            let table = spsa.ok_or_else(|| {
                err(
                    "spsa",
                    "missing [spsa] table with [[spsa.params]], params_text or params_file",
                )
            })?;
            let mut config = build(self_play(file, ["plus", "minus"])?, &campaign.name)?;
            let list = param_list(
                table.params.clone(),
                table.params_text.clone(),
                table.params_file.clone(),
            )?;
            let target = spsa_target(&table, &list, template_name, &mut config.config)?;
            let tune = spsa_config(&table, &list, &target, &config.config)?;
            Ok(vec![spec(
                name,
                CampaignKind::Spsa { tune, target },
                config,
            )])
        }
        RunKind::FirstMove => {
            let config = build(self_play(file, ["first", "second"])?, &campaign.name)?;
            Ok(vec![spec(name, CampaignKind::FirstMove, config)])
        }
        RunKind::Datagen => {
            let config = build(self_play(file, ["first", "second"])?, &campaign.name)?;
            let filter = datagen.map_or_else(PositionFilter::default, |t| PositionFilter {
                min_ply: t.min_ply,
                quiet: t.quiet,
            });
            Ok(vec![spec(name, CampaignKind::Datagen(filter), config)])
        }
        RunKind::PieceValue => {
            let table = piece_value.ok_or_else(|| {
                err(
                    "piece_value",
                    "missing [piece_value] table with [[piece_value.imbalances]]",
                )
            })?;
            piece_value_parts(&campaign, &name, &table, file)
        }
    }
}

/// Builds the match of a campaign, run id = the campaign id.
fn build(file: MatchFile, id: &str) -> Result<Built, ConfigError> {
    let mut installed = [false; 2];
    for (flag, p) in installed.iter_mut().zip(file.players.iter().flatten()) {
        *flag = matches!(p, PlayerFile::Uci(u) if u.worker_path.is_some());
    }
    let mut config = MatchConfig::build(file, Overrides::default())?;
    config.run_id = id.to_owned();
    Ok(Built { config, installed })
}

/// A one-player file made into a self-play match between two copies named `names`.
fn self_play(mut file: MatchFile, names: [&str; 2]) -> Result<MatchFile, ConfigError> {
    let base: PlayerFile = match file.players.take() {
        None => PlayerFile::default(),
        Some(list) if list.len() == 1 => list.into_iter().next().unwrap_or_default(),
        Some(list) => {
            return Err(err(
                "players",
                format!(
                    "{} given; this kind plays one engine against itself: give one [[players]]",
                    list.len()
                ),
            ));
        }
    };
    file.players = Some(names.iter().map(|n| base.clone().named(n)).collect());
    Ok(file)
}

fn sprt_config(t: &SprtDesign) -> Result<SprtConfig, ConfigError> {
    let config = SprtMetadata::try_from(t)
        .map_err(|e: UnknownEloModel| err("sprt.model", e.to_string()))?
        .config();
    ajaxlab_stats::Sprt::new(config).map_err(|e: InvalidSprtConfig| {
        let key = match e.violations.first() {
            Some(SprtViolation::AlphaOutOfRange(_)) => "sprt.alpha",
            Some(SprtViolation::BetaOutOfRange(_)) => "sprt.beta",
            Some(SprtViolation::InvalidBound(b)) if *b == t.elo1 => "sprt.elo1",
            _ => "sprt.elo0",
        };
        err(key, e.to_string())
    })?;
    Ok(config)
}

fn piece_value_parts(
    campaign: &CampaignTable,
    name: &CampaignId,
    table: &PieceValueTable,
    file: MatchFile,
) -> Result<Vec<CampaignSpec>, ConfigError> {
    if table.imbalances.is_empty() {
        return Err(err("piece_value.imbalances", "give at least one imbalance"));
    }
    let calibration = ImbalanceTable {
        name: CALIBRATION_PART.into(),
        first: table.pawn.clone(),
        second: Vec::new(),
    };
    let mut seen = std::collections::BTreeSet::new();
    let mut parts = Vec::new();
    for (i, imbalance) in table.imbalances.iter().chain([&calibration]).enumerate() {
        let is_calibration = i == table.imbalances.len();
        let key = if is_calibration {
            "piece_value.pawn".to_owned()
        } else {
            format!("piece_value.imbalances[{i}]")
        };
        let id = name
            .part(&imbalance.name)
            .map_err(|e| err(&format!("{key}.name"), e.to_string()))?;
        if !seen.insert(imbalance.name.as_str()) {
            return Err(err(
                &format!("{key}.name"),
                format!(
                    "'{}' is used twice ('{CALIBRATION_PART}' is the pawn odds)",
                    imbalance.name
                ),
            ));
        }
        let mut part_file = self_play(file.clone(), [imbalance.name.as_str(), "reference"])?;
        part_file.imbalance = Some(ImbalanceFile {
            first: imbalance.first.clone(),
            second: imbalance.second.clone(),
        });
        let built = build(part_file, id.as_str())
            .map_err(|e| e.map_keys(|k| if k == "imbalance" { key.clone() } else { k }))?;
        parts.push(CampaignSpec {
            name: id,
            priority: campaign.priority,
            kind: CampaignKind::PieceValue {
                part: imbalance.name.clone(),
                calibration: is_calibration,
            },
            config: built.config,
            installed: built.installed,
        });
    }
    Ok(parts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_arena::config::PlayerKind;

    fn error(text: &str) -> ConfigError {
        parse_campaign(text).unwrap_err()
    }

    #[test]
    fn a_datagen_campaign_plays_one_engine_against_itself_and_keeps_what_its_table_says() {
        let default =
            parse_campaign("variant = \"afc\"\n[campaign]\nname = \"d\"\nkind = \"datagen\"\n")
                .unwrap();
        assert_eq!(
            default[0].kind,
            CampaignKind::Datagen(PositionFilter::default())
        );
        assert_eq!(default[0].config.players[1].name, "second");
        let all = parse_campaign(
            "[campaign]\nname = \"d\"\nkind = \"datagen\"\n[datagen]\nmin_ply = 0\nquiet = false\n",
        )
        .unwrap();
        assert_eq!(
            all[0].kind,
            CampaignKind::Datagen(PositionFilter {
                min_ply: 0,
                quiet: false
            })
        );
        let shipped = parse_campaign(include_str!("../../../../configs/datagen-afc.toml")).unwrap();
        assert_eq!(shipped[0].kind.run_kind(), RunKind::Datagen);
        let e = error("[campaign]\nname = \"d\"\nkind = \"datagen\"\n[datagen]\nmin_plies = 3\n");
        assert!(
            e.to_string().contains("datagen") && e.to_string().contains("min_plies"),
            "{e}"
        );
        let e = error("[campaign]\nname = \"d\"\n[datagen]\nmin_ply = 3\n");
        assert!(
            e.to_string()
                .contains("[datagen] belongs to kind = \"datagen\""),
            "{e}"
        );
        let e = error(
            "[campaign]\nname = \"d\"\nkind = \"datagen\"\n[[players]]\nengine = \"builtin\"\n[[players]]\nengine = \"builtin\"\n",
        );
        assert!(e.to_string().contains("one engine against itself"), "{e}");
    }

    #[test]
    fn kinds_parse() {
        let sprt = parse_campaign(
            "[campaign]\nname = \"t\"\nkind = \"sprt\"\n[sprt]\nelo0 = 0\nelo1 = 5\n[[players]]\nengine = \"builtin\"\n[[players]]\nengine = \"builtin\"\n",
        )
        .unwrap();
        assert!(matches!(sprt[0].kind, CampaignKind::Sprt(c) if c.elo1 == 5.0));
        let spsa = parse_campaign(
            "games = 200\n[campaign]\nname = \"t\"\nkind = \"spsa\"\n[spsa]\n[[spsa.params]]\nname = \"afc.falcon.mg\"\nmin = 300\nmax = 900\nc_end = 20\nr_end = 0.002\n",
        )
        .unwrap();
        let CampaignKind::Spsa { tune, .. } = &spsa[0].kind else {
            panic!()
        };
        assert_eq!(tune.iterations.get(), 100);
        assert_eq!(spsa[0].config.players[1].name, "minus");
        let parts = parse_campaign(
            "[campaign]\nname = \"pv\"\nkind = \"piece-value\"\n[piece_value]\n[[piece_value.imbalances]]\nname = \"falcon-for-minister\"\nfirst = [\"M=F\"]\n",
        )
        .unwrap();
        let ids: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(ids, ["pv.falcon-for-minister", "pv.pawn-odds"]);
        assert_eq!(parts[1].config.openings.imbalance.texts().0, ["-P@f2"]);
    }

    #[test]
    fn uci_players_are_taken_and_installed_ones_marked() {
        let specs = parse_campaign(
            "[campaign]\nname = \"t\"\nkind = \"sprt\"\n[sprt]\nelo0 = 0\nelo1 = 5\n[[players]]\nengine = \"uci\"\npath = \"engines/new\"\n[[players]]\nengine = \"uci\"\nworker_path = \"/usr/games/stockfish\"\n",
        )
        .unwrap();
        assert_eq!(specs[0].installed, [false, true]);
        let PlayerKind::Uci(u) = &specs[0].config.players[1].kind else {
            panic!("{:?}", specs[0].config.players[1].kind)
        };
        assert_eq!(u.command, std::path::Path::new("/usr/games/stockfish"));
        let first_move = parse_campaign(
            "[campaign]\nname = \"t\"\nkind = \"first-move\"\n[[players]]\nengine = \"uci\"\nworker_path = \"/x\"\n",
        )
        .unwrap();
        assert_eq!(first_move[0].installed, [true, true]);
    }

    #[test]
    fn the_campaign_table_s_bad_keys_are_named_at_once() {
        let e =
            error("[campaign]\nname = \"a b\"\npriority = 0\n[spsa]\n[sprt]\nelo0 = 0\nelo1 = 5\n");
        let keys: Vec<&str> = e.all().map(|(k, _)| k).collect();
        assert_eq!(
            keys,
            ["campaign.name", "campaign.priority", "sprt", "spsa"],
            "{e}"
        );
        let e = error("games = 3\nhash_mb = 0\n[campaign]\nname = \"t\"\n");
        let keys: Vec<&str> = e.all().map(|(k, _)| k).collect();
        assert_eq!(keys, ["games", "hash_mb"], "{e}");
        // A bad header and a bad match, named in one reading.
        let e = error("games = 3\nhash_mb = 0\n[campaign]\nname = \"a b\"\n");
        let keys: Vec<&str> = e.all().map(|(k, _)| k).collect();
        assert_eq!(keys, ["campaign.name", "games", "hash_mb"], "{e}");
    }

    #[test]
    fn long_names_are_refused_naming_the_key_without_echoing_them() {
        let at_limit = "n".repeat(MAX_NAME_LEN);
        assert!(parse_campaign(&format!("[campaign]\nname = \"{at_limit}\"\n")).is_ok());
        for len in [MAX_NAME_LEN + 1, 232, 255, 10_000] {
            let name = "n".repeat(len);
            let e = error(&format!("[campaign]\nname = \"{name}\"\n"));
            assert_eq!(e.key, "campaign.name");
            assert!(e.message.contains(&format!("{len} characters long")), "{e}");
            assert!(!e.message.contains(&name), "{e}");
        }
        let part = "p".repeat(MAX_NAME_LEN + 1);
        let e = error(&format!(
            "[campaign]\nname = \"pv\"\nkind = \"piece-value\"\n[piece_value]\n[[piece_value.imbalances]]\nname = \"{part}\"\nfirst = [\"M=F\"]\n"
        ));
        assert_eq!(e.key, "piece_value.imbalances[0].name");
    }

    #[test]
    fn bad_files_name_the_key() {
        let base = "[campaign]\nname = \"t\"\n";
        for (text, key) in [
            ("[campaign]\nname = \"a b\"\n".to_owned(), "campaign.name"),
            ("[campaign]\nname = \"\"\n".to_owned(), "campaign.name"),
            ("[campaign]\nname = \"../x\"\n".to_owned(), "campaign.name"),
            ("[campaign]\nname = \"é\"\n".to_owned(), "campaign.name"),
            (format!("{base}kind = \"tune\"\n"), "campaign.kind"),
            (format!("{base}priority = 0\n"), "campaign.priority"),
            (
                format!("{base}priority = 4294967295\n"),
                "campaign.priority",
            ),
            (format!("hash_mb = 100000000\n{base}"), "hash_mb"),
            (format!("games = 1000000000000000000\n{base}"), "games"),
            (format!("random_plies = 100000\n{base}"), "random_plies"),
            (format!("tc = \"nodes=100000000000000\"\n{base}"), "tc"),
            (format!("tc = \"1e20+0\"\n{base}"), "tc"),
            (
                format!("{base}[adjudication]\nresign_score = 100000\nresign_moves = 0\n"),
                "adjudication.resign_moves",
            ),
            (
                format!("{base}[adjudication]\nmax_plies = 0\n"),
                "adjudication.max_plies",
            ),
            (format!("{base}kind = \"sprt\"\n"), "sprt"),
            (
                format!("{base}kind = \"sprt\"\n[sprt]\nelo0 = 5\nelo1 = 0\n"),
                "sprt.elo0",
            ),
            (
                format!("{base}kind = \"sprt\"\n[sprt]\nelo0 = 0\nelo1 = 5\nalpha = 0.5\n"),
                "sprt.alpha",
            ),
            (
                format!("{base}kind = \"sprt\"\n[sprt]\nelo0 = 0\nelo1 = 5\nbeta = 0\n"),
                "sprt.beta",
            ),
            (
                format!("{base}kind = \"sprt\"\n[sprt]\nelo0 = 0\nelo1 = 5\nmodel = \"bayes\"\n"),
                "sprt.model",
            ),
            (format!("{base}[sprt]\nelo0 = 0\nelo1 = 5\n"), "sprt"),
            (
                format!(
                    "{base}kind = \"spsa\"\n[spsa]\n[[spsa.params]]\nname = \"afc.nope\"\nmin = 0\nmax = 1\nc_end = 1\nr_end = 0.1\n"
                ),
                "spsa.params[0].name",
            ),
            (
                format!(
                    "{base}kind = \"spsa\"\n[spsa]\n[[spsa.params]]\nname = \"afc.falcon.mg\"\nmin = 300\nmax = 99999\nc_end = 1\nr_end = 0.1\n"
                ),
                "spsa.params[0].max",
            ),
            (
                format!(
                    "{base}kind = \"spsa\"\n[spsa]\n[[spsa.params]]\nname = \"afc.falcon.mg\"\nstart = 50\nmin = 300\nmax = 900\nc_end = 1\nr_end = 0.1\n"
                ),
                "spsa.params[0].start",
            ),
            (
                format!(
                    "{base}kind = \"spsa\"\n[spsa]\n[[spsa.params]]\nname = \"afc.falcon.mg\"\nmin = 300\nmax = 900\nc_end = 0\nr_end = 0.1\n"
                ),
                "spsa.params[0].c_end",
            ),
            (
                format!(
                    "{base}kind = \"first-move\"\n[[players]]\nengine = \"builtin\"\n[[players]]\nengine = \"builtin\"\n"
                ),
                "players",
            ),
            (
                format!("{base}kind = \"piece-value\"\n[piece_value]\nimbalances = []\n"),
                "piece_value.imbalances",
            ),
            (
                format!(
                    "{base}kind = \"piece-value\"\n[piece_value]\n[[piece_value.imbalances]]\nname = \"x\"\nfirst = [\"-Z\"]\n"
                ),
                "piece_value.imbalances[0]",
            ),
            (
                format!(
                    "{base}kind = \"piece-value\"\n[piece_value]\npawn = [\"-P@f7\"]\n[[piece_value.imbalances]]\nname = \"x\"\nfirst = [\"-N\"]\n"
                ),
                "piece_value.pawn",
            ),
        ] {
            assert_eq!(error(&text).key, key, "{text}");
        }
    }
}
