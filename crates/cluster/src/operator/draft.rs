//! A campaign file as the machine that submits it reads it, once: its TOML
//! parsed into one table, and from that table its campaigns validated, the
//! files it names read and the engine files it ships found. `ajaxlab
//! campaign create` sends a draft, and `campaign run` and `match` create
//! theirs in their own coordinator. The coordinator parses the file once
//! more where it is kept, from the copies it captured (it reads no path a
//! campaign names), when it creates the campaign and when it starts again.

use crate::artifacts::ArtifactError;
use crate::artifacts::client::{CampaignFile, shipped_files};
use crate::campaign::inputs::{SentFile, named_files};
use crate::campaign::{CampaignSpec, campaign_table, parse_campaign_table};
use crate::ids::CampaignId;
use crate::operator::engine_check::check_tuned_engine;
use ajaxlab_arena::ConfigError;
use std::path::Path;

/// A campaign file's text, and where it came from as messages name it.
#[derive(Clone, Debug)]
pub struct CampaignText {
    /// The text.
    pub text: String,
    /// Its file, or what else it is (the embedded quick start, a match).
    pub origin: String,
}

impl CampaignText {
    /// The campaign file at `path`.
    ///
    /// # Errors
    /// [`DraftError::Read`] naming the file if it cannot be read.
    pub fn read(path: &Path) -> Result<CampaignText, DraftError> {
        let origin = path.display().to_string();
        ajaxlab_files::read_text(path, ajaxlab_files::limits::CONFIG_FILE)
            .map(|text| CampaignText {
                text,
                origin: origin.clone(),
            })
            .map_err(|e| DraftError::Read(format!("{origin}: {e}")))
    }
}

/// A campaign file that cannot be submitted from here, naming its origin.
#[derive(Debug, thiserror::Error)]
pub enum DraftError {
    /// It cannot be read.
    #[error("{0}")]
    Read(String),
    /// A key is wrong, or a file it names cannot be read.
    #[error("{origin}: {error}")]
    Config {
        /// The file.
        origin: String,
        /// What is wrong.
        error: ConfigError,
    },
    /// An engine it ships is not there.
    #[error("{origin}: {error}")]
    Shipped {
        /// The file.
        origin: String,
        /// What is missing.
        error: ArtifactError,
    },
}

/// A campaign file read once where it is written.
#[derive(Clone, Debug)]
pub struct CampaignDraft {
    /// The file.
    pub file: CampaignText,
    /// Its campaigns, validated: one, or a piece-value campaign's parts.
    pub specs: Vec<CampaignSpec>,
    /// The files it names (variants, openings, parameters, templates),
    /// read to be sent with it.
    pub sent: Vec<SentFile>,
    /// The engine binaries and option files its UCI players ship.
    pub shipped: Vec<CampaignFile>,
}

impl CampaignDraft {
    /// Reads `file`: parses it once, validates its campaigns, reads the
    /// files it names and finds those it ships.
    ///
    /// # Errors
    /// [`DraftError`] naming the file and the key.
    pub fn read(file: CampaignText) -> Result<CampaignDraft, DraftError> {
        let config = |error| DraftError::Config {
            origin: file.origin.clone(),
            error,
        };
        let table = campaign_table(&file.text).map_err(config)?;
        let specs = parse_campaign_table(table.clone()).map_err(config)?;
        let sent = named_files(&table).map_err(config)?;
        let shipped = shipped_files(&table).map_err(|error| DraftError::Shipped {
            origin: file.origin.clone(),
            error,
        })?;
        Ok(CampaignDraft {
            file,
            specs,
            sent,
            shipped,
        })
    }

    /// Its campaigns' ids, in the file's order.
    pub fn ids(&self) -> Vec<CampaignId> {
        self.specs.iter().map(|s| s.name.clone()).collect()
    }

    /// Checks that the engine an SPSA campaign tunes offers what it tunes,
    /// by starting it here (it blocks while the engine starts).
    ///
    /// # Errors
    /// [`DraftError::Config`] naming the key the engine does not offer.
    pub fn check_engines(&self) -> Result<(), DraftError> {
        for spec in &self.specs {
            check_tuned_engine(spec).map_err(|error| DraftError::Config {
                origin: self.file.origin.clone(),
                error,
            })?;
        }
        Ok(())
    }
}
