//! A campaign given more games: its file run again with a larger `games`
//! (`ajaxlab match --resume --games N`, `ajaxlab campaign run` of an edited
//! file). Nothing else of the file may change: the games played stay
//! counted, the new pairs are handed out after them, and a campaign that
//! had finished runs on. An SPSA tune's schedule is set by its games, and
//! an SPRT that decided stays decided, so neither runs on.

use super::campaigns::restore_campaign;
use super::error::CampaignError;
use super::{CampaignState, Coordinator, CoordinatorError};
use crate::campaign::CampaignKind;
use crate::coordinator::CampaignView;
use crate::ids::CampaignId;
use ajaxlab_stats::Status;
use ajaxlab_store::state::campaigns;

/// How a campaign file run again differs from the one stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FileChange {
    /// Not at all.
    Same,
    /// Only in its `games`.
    Games,
    /// Elsewhere: the first differing line (from 1), and the first key
    /// whose value differs when the texts are tables.
    Other {
        /// The line.
        line: usize,
        /// The key (`tc`, `players`, `campaign.name`).
        key: Option<String>,
    },
}

impl std::fmt::Display for FileChange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FileChange::Same => f.write_str("no change"),
            FileChange::Games => f.write_str("games changed"),
            FileChange::Other { line, key: None } => write!(f, "line {line} differs"),
            FileChange::Other {
                line,
                key: Some(key),
            } => write!(f, "line {line} ({key}) differs"),
        }
    }
}

/// How `new` differs from `stored`, a campaign's file.
pub fn file_change(stored: &str, new: &str) -> FileChange {
    let Some(line) = first_difference(stored, new) else {
        return FileChange::Same;
    };
    let without_games = |text: &str| {
        text.parse::<toml::Table>().ok().map(|mut table| {
            table.remove("games");
            table
        })
    };
    match (without_games(stored), without_games(new)) {
        (Some(a), Some(b)) if a == b => FileChange::Games,
        (Some(a), Some(b)) => FileChange::Other {
            line,
            key: first_key_apart("", &a, &b),
        },
        _ => FileChange::Other { line, key: None },
    }
}

/// The first key (in name order, dotted below `prefix`) whose value differs
/// between two tables.
fn first_key_apart(prefix: &str, a: &toml::Table, b: &toml::Table) -> Option<String> {
    let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
    keys.into_iter().find_map(|key| {
        let name = if prefix.is_empty() {
            key.clone()
        } else {
            format!("{prefix}.{key}")
        };
        match (a.get(key), b.get(key)) {
            (Some(x), Some(y)) if x == y => None,
            (Some(toml::Value::Table(x)), Some(toml::Value::Table(y))) => {
                first_key_apart(&name, x, y)
            }
            _ => Some(name),
        }
    })
}

/// The first line (from 1) where two texts differ, if they do.
fn first_difference(a: &str, b: &str) -> Option<usize> {
    let (mut a, mut b) = (a.lines(), b.lines());
    (1..).find_map(|n| match (a.next(), b.next()) {
        (None, None) => Some(None),
        (x, y) if x == y => None,
        _ => Some(Some(n)),
    })?
}

impl Coordinator {
    /// Gives campaign `id` the file `toml_text`, which differs from its
    /// own in `games` alone ([`file_change`]), and runs it on if it had
    /// finished and can go on.
    ///
    /// # Errors
    /// [`CampaignError::NotExtended`] saying why: another change, fewer
    /// games, an SPSA tune; `NotFound` for an unknown id.
    pub fn extend_campaign(
        &self,
        id: &CampaignId,
        toml_text: &str,
    ) -> Result<CampaignView, CoordinatorError> {
        let refuse = |reason: String| CampaignError::NotExtended {
            id: id.clone(),
            reason,
        };
        let stored = self.campaign_file(id)?;
        let change = file_change(&stored, toml_text);
        if let FileChange::Other { .. } = change {
            return Err(refuse(format!(
                "{change} from the file it was created from, and only games may change"
            ))
            .into());
        }
        let live = restore_campaign(
            &self.db(),
            id,
            toml_text,
            &self.inputs_dir(),
            self.artifacts(),
        )
        .map_err(|e| refuse(e.to_string()))?;
        if matches!(live.spec.kind, CampaignKind::Spsa { .. }) {
            return Err(refuse(
                "an SPSA tune's schedule is set by its games: start a new one".into(),
            )
            .into());
        }
        let before = self.campaign(id)?;
        let pairs = live.spec.config.pairs;
        if pairs < before.pairs_total {
            return Err(refuse(format!(
                "{} games are fewer than the {} it is set to play",
                pairs * 2,
                before.pairs_total * 2
            ))
            .into());
        }
        let runs_on = before.state == CampaignState::Finished
            && live.verdict() == Status::Continue
            && pairs > before.pairs_done;
        {
            let mut db = self.db();
            let tx = db.transaction()?;
            campaigns::extend(&tx, id, toml_text, pairs)?;
            if runs_on {
                campaigns::set_state(&tx, id, CampaignState::Running)?;
            }
            tx.commit()?;
        }
        self.campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id.clone(), live);
        tracing::info!(campaign = %id, games = pairs * 2, "campaign extended");
        self.changed();
        self.campaign(id)
    }
}

#[cfg(test)]
mod tests {
    use super::{FileChange, file_change, first_difference};

    #[test]
    fn the_first_differing_line_is_named() {
        assert_eq!(first_difference("a\nb\n", "a\nb\n"), None);
        assert_eq!(first_difference("a\nb\n", "a\nc\n"), Some(2));
        assert_eq!(first_difference("a\n", "a\nb\n"), Some(2));
        assert_eq!(first_difference("x\n", "a\n"), Some(1));
    }

    #[test]
    fn only_a_change_of_games_is_an_extension() {
        let file = "games = 10\ntc = \"nodes=100\"\n[campaign]\nname = \"x\"\n";
        assert_eq!(file_change(file, file), FileChange::Same);
        assert_eq!(
            file_change(file, &file.replace("games = 10", "games = 20")),
            FileChange::Games
        );
        let other = |line, key: &str| FileChange::Other {
            line,
            key: Some(key.to_owned()),
        };
        assert_eq!(
            file_change(file, &file.replace("nodes=100", "nodes=200")),
            other(2, "tc")
        );
        assert_eq!(
            file_change(file, &file.replace("name = \"x\"", "name = \"y\"")),
            other(4, "campaign.name")
        );
        assert_eq!(
            file_change(file, "not toml ="),
            FileChange::Other { line: 1, key: None }
        );
    }
}
