//! `ajaxlab match` as a campaign: the match file with its flags written in
//! becomes a campaign file (kind `match`, or `sprt` with a test) that
//! [`super::run_in`] plays in the match's directory, so that a match
//! resumes, stops at its verdict and shows its progress as every campaign
//! does. A tournament is one campaign per pairing in one directory.

use super::{CampaignText, LocalCampaign, LocalError};
use crate::ids::{CampaignId, MAX_NAME_LEN};
use ajaxlab_arena::config::{MatchFile, PlayerConfig, PlayerFile};
use ajaxlab_arena::live::LiveStats;
use ajaxlab_arena::tournament::TournamentKind;
use ajaxlab_stats::SprtConfig;
use ajaxlab_store::positions::PositionFilter;
use ajaxlab_store::{GameRecord, RunKind, SprtDesign, SprtMetadata, find, read_games};
use std::path::PathBuf;

/// The campaign file of a match: `file` (its flags written in) named
/// `name`, an SPRT of `sprt` if given. Where and how fast it plays (`out`,
/// `concurrency`) are left out, so that a resumed match may change them. A
/// UCI engine runs where it is (`worker_path`), as a match always ran it,
/// never a copy: an engine beside the files it reads still finds them.
///
/// # Errors
/// [`LocalError::Config`] for a name no campaign may have, or a file that
/// cannot be written as TOML.
pub fn match_campaign(
    file: &MatchFile,
    name: &str,
    sprt: Option<&SprtConfig>,
) -> Result<CampaignText, LocalError> {
    let bad = |e: &dyn std::fmt::Display| LocalError::Config(format!("the match's campaign: {e}"));
    let kind = match sprt {
        Some(config) => {
            let design = SprtDesign::from(&SprtMetadata::from(config));
            let design = toml::Table::try_from(&design).map_err(|e| bad(&e))?;
            KindTable::Sprt(design)
        }
        None => KindTable::Match,
    };
    campaign_of(file, name, kind).map_err(|e| bad(&e))
}

/// The campaign file of a datagen run: `file`'s one player against itself,
/// its positions kept as `filter` says, named `name`.
///
/// # Errors
/// [`LocalError::Config`] for a name no campaign may have, or a file that
/// cannot be written as TOML.
pub fn datagen_campaign(
    file: &MatchFile,
    name: &str,
    filter: PositionFilter,
) -> Result<CampaignText, LocalError> {
    let mut table = toml::Table::new();
    table.insert("min_ply".into(), i64::from(filter.min_ply).into());
    table.insert("quiet".into(), filter.quiet.into());
    campaign_of(file, name, KindTable::Datagen(table))
        .map_err(|e| LocalError::Config(format!("the datagen campaign: {e}")))
}

/// A campaign's kind with its own table, for [`campaign_of`].
enum KindTable {
    Match,
    Sprt(toml::Table),
    Datagen(toml::Table),
}

/// `file` as a campaign named `name` of `kind`. Where and how fast it
/// plays (`out`, `concurrency`) are left out, so that a resumed run may
/// change them, and a UCI engine runs where it is (`worker_path`).
fn campaign_of(file: &MatchFile, name: &str, kind: KindTable) -> Result<CampaignText, String> {
    CampaignId::new(name).map_err(|e| format!("run_id: {e}"))?;
    let mut file = file.clone();
    file.out = None;
    file.concurrency = None;
    file.run_id = None;
    for player in file.players.iter_mut().flatten() {
        if let PlayerFile::Uci(uci) = player
            && uci.worker_path.is_none()
        {
            uci.worker_path = uci.path.take();
        }
    }
    let mut table = toml::Table::try_from(&file).map_err(|e| e.to_string())?;
    let (run_kind, own) = match kind {
        KindTable::Match => (RunKind::Match, None),
        KindTable::Sprt(t) => (RunKind::Sprt, Some(("sprt", t))),
        KindTable::Datagen(t) => (RunKind::Datagen, Some(("datagen", t))),
    };
    let mut campaign = toml::Table::new();
    campaign.insert("name".into(), name.into());
    campaign.insert("kind".into(), run_kind.as_str().into());
    table.insert("campaign".into(), campaign.into());
    if let Some((key, own)) = own {
        table.insert(key.into(), own.into());
    }
    Ok(CampaignText {
        text: toml::to_string(&table).map_err(|e| e.to_string())?,
        origin: format!("the {run_kind} campaign ({name})"),
    })
}

/// Each pairing's campaign of a tournament of `kind` over `field` (the
/// players of `file`, validated and named apart), named `NN-A-vs-B`, in
/// playing order; each plays `file`'s games.
///
/// # Errors
/// As [`match_campaign`].
pub fn pairing_campaigns(
    file: &MatchFile,
    field: &[PlayerConfig],
    kind: TournamentKind,
) -> Result<Vec<CampaignText>, LocalError> {
    let written = file
        .players
        .clone()
        .unwrap_or_else(|| vec![PlayerFile::default(); field.len()]);
    let named = |i: usize| {
        written
            .get(i)
            .cloned()
            .unwrap_or_default()
            .named(&field[i].name)
    };
    kind.pairings(field.len())
        .into_iter()
        .enumerate()
        .map(|(k, (a, b))| {
            let mut pairing = file.clone();
            pairing.players = Some(vec![named(a), named(b)]);
            let name = pairing_name(k, &field[a].name, &field[b].name);
            match_campaign(&pairing, &name, None)
        })
        .collect()
}

/// `NN-A-vs-B`, with what a campaign name may not hold made `-`, cut to
/// the longest name allowed.
fn pairing_name(index: usize, a: &str, b: &str) -> String {
    format!("{:02}-{a}-vs-{b}", index + 1)
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '-'
            }
        })
        .take(MAX_NAME_LEN)
        .collect()
}

/// What a match's campaign stored, as `ajaxlab match` reports it.
#[derive(Debug)]
pub struct MatchOutcome {
    /// Every stored pair, first player's view: the test's and those that
    /// were in flight at its verdict.
    pub stats: LiveStats,
    /// Its games files, and its PGN file if it wrote one.
    pub files: Vec<PathBuf>,
}

/// Reads `campaign`'s games back.
///
/// # Errors
/// [`LocalError::Runtime`] for a games file that cannot be read.
pub fn match_outcome(campaign: &LocalCampaign) -> Result<MatchOutcome, LocalError> {
    let unreadable = |e: &dyn std::fmt::Display| LocalError::Runtime(e.to_string());
    let files = if campaign.games_dir.is_dir() {
        find::games_files(&[campaign.games_dir.display().to_string()])
            .map_err(|e| unreadable(&e))?
    } else {
        Vec::new()
    };
    let mut games: Vec<GameRecord> = Vec::new();
    for path in &files {
        games.extend(read_games(path).map_err(|e| unreadable(&e))?.games);
    }
    games.sort_by_key(|g| g.game_id);
    let mut stats = LiveStats::default();
    for pair in games.chunks_exact(2) {
        stats.add_pair(&pair[0], &pair[1]);
    }
    let mut files = files;
    let pgn = campaign.games_dir.join(crate::coordinator::PGN_FILE);
    if pgn.is_file() {
        files.push(pgn);
    }
    Ok(MatchOutcome { stats, files })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::campaign::{CampaignKind, parse_campaign};
    use ajaxlab_arena::{MatchConfig, Overrides};
    use ajaxlab_stats::EloModel;

    fn file(text: &str) -> MatchFile {
        toml::from_str(text).unwrap()
    }

    #[test]
    fn a_match_is_the_campaign_of_its_file_with_its_flags_written_in() {
        let written = file("variant = \"chess\"\ngames = 20\ntc = \"nodes=300\"\nout = \"somewhere\"\nconcurrency = 2\n[[players]]\nengine = \"builtin\"\nname = \"new\"\n[[players]]\nengine = \"uci\"\npath = \"/usr/games/engine\"\nname = \"old\"\n")
            .with_overrides(Overrides {
                seed: Some(7),
                ..Overrides::default()
            })
            .unwrap();
        let sprt = SprtConfig::new(0.0, 5.0, EloModel::Normalized);
        let text = match_campaign(&written, "match-chess-7", Some(&sprt)).unwrap();
        let specs = parse_campaign(&text.text).unwrap();
        let [spec] = specs.as_slice() else {
            panic!("{}", text.text)
        };
        assert_eq!(spec.name.as_str(), "match-chess-7");
        assert!(matches!(spec.kind, CampaignKind::Sprt(c) if c == sprt));
        let direct = MatchConfig::build(written, Overrides::default()).unwrap();
        assert_eq!(
            (spec.config.pairs, spec.config.seed),
            (direct.pairs, direct.seed)
        );
        assert_eq!(spec.installed, [false, true], "the engine runs in place");
        assert!(!text.text.contains("somewhere") && !text.text.contains("concurrency"));
    }

    #[test]
    fn a_run_id_no_campaign_may_have_is_refused_naming_it() {
        let e = match_campaign(&MatchFile::default(), "a/b", None).unwrap_err();
        assert!(e.to_string().contains("run_id"), "{e}");
    }

    #[test]
    fn each_pairing_is_a_campaign_of_two_named_players() {
        let written = file(
            "variant = \"chess\"\n[[players]]\nengine = \"builtin\"\nname = \"a.1\"\n[[players]]\nengine = \"builtin\"\nname = \"b\"\n[[players]]\nengine = \"builtin\"\nname = \"c\"\n",
        );
        let (_, field) =
            MatchConfig::build_field(written.clone(), Overrides::default(), 2..=64).unwrap();
        let texts = pairing_campaigns(&written, &field, TournamentKind::RoundRobin).unwrap();
        let names: Vec<(String, [String; 2])> = texts
            .iter()
            .map(|t| {
                let spec = parse_campaign(&t.text).unwrap().remove(0);
                let players = spec.config.players.map(|p| p.name);
                (spec.name.to_string(), players)
            })
            .collect();
        let pair = |n: &str, a: &str, b: &str| (n.to_owned(), [a.to_owned(), b.to_owned()]);
        assert_eq!(
            names,
            [
                pair("01-a-1-vs-b", "a.1", "b"),
                pair("02-a-1-vs-c", "a.1", "c"),
                pair("03-b-vs-c", "b", "c")
            ]
        );
    }
}
