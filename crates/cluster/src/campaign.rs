//! Campaign files: a match file (see `ajaxlab match`) with a `[campaign]`
//! table naming it and setting its priority. Cluster campaigns play the
//! builtin engine, whose parameters travel in the work units.

use ajaxlab_arena::config::PlayerKind;
use ajaxlab_arena::{ConfigError, MatchConfig, MatchFile, Overrides};
use serde::Deserialize;

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
    "match".into()
}

/// A validated campaign.
#[derive(Clone, Debug)]
pub struct CampaignSpec {
    /// Name (also the directory of its files).
    pub name: String,
    /// Share of the workers relative to other campaigns.
    pub priority: u32,
    /// The match it plays.
    pub config: MatchConfig,
}

fn err(key: &str, message: impl Into<String>) -> ConfigError {
    ConfigError {
        key: key.into(),
        message: message.into(),
    }
}

/// Parses and validates a campaign file.
///
/// # Errors
/// [`ConfigError`] naming the key.
pub fn parse_campaign(text: &str) -> Result<CampaignSpec, ConfigError> {
    let mut table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| err("campaign file", e.to_string()))?;
    let campaign = table
        .remove("campaign")
        .ok_or_else(|| err("campaign", "missing [campaign] table with name = \"...\""))?;
    let campaign: CampaignTable = campaign
        .try_into()
        .map_err(|e: toml::de::Error| err("campaign", e.to_string()))?;
    if campaign.kind != "match" {
        return Err(err(
            "campaign.kind",
            format!("'{}': only \"match\" campaigns exist so far", campaign.kind),
        ));
    }
    if campaign.name.is_empty()
        || !campaign
            .name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        return Err(err(
            "campaign.name",
            format!("'{}': use letters, digits, - and _", campaign.name),
        ));
    }
    if campaign.priority == 0 {
        return Err(err("campaign.priority", "must be at least 1"));
    }
    let file: MatchFile = toml::Value::Table(table)
        .try_into()
        .map_err(|e: toml::de::Error| err("campaign file", e.to_string()))?;
    let mut config = MatchConfig::build(file, Overrides::default())?;
    for (i, p) in config.players.iter().enumerate() {
        if !matches!(p.kind, PlayerKind::Builtin(..)) {
            return Err(err(
                &format!("players[{i}].engine"),
                "cluster campaigns play the builtin engine",
            ));
        }
    }
    config.run_id = campaign.name.clone();
    Ok(CampaignSpec {
        name: campaign.name,
        priority: campaign.priority,
        config,
    })
}
