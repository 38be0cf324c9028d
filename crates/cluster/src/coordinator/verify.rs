//! The counted games' files, checked against what was recorded when each
//! was counted (its SHA-256, size and game count): a file deleted,
//! truncated or changed since is moved aside to `quarantine/`, its games
//! are taken out of the counts and its pairs go back to the pool, and the
//! coordinator says so. Start-up checks that each file is there at its
//! size (a stat per file); `ajaxlab coordinator --verify` reads every
//! file, checks its hash and its games, and prints what it found.
//!
//! An SPSA tune's updates cannot be taken back: a bad file of one is moved
//! aside and reported, and its update to θ stays.

use super::error::file_error;
use super::{Coordinator, CoordinatorError};
use crate::artifacts::hash_file;
use crate::ids::{CampaignId, UnitId};
use ajaxlab_store::read_games;
use ajaxlab_store::state::{CountedFile, GamesFileRecord, results, units};
use std::path::Path;

/// A file that did not hold up, moved to its campaign's `quarantine/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quarantined {
    /// The campaign.
    pub campaign: CampaignId,
    /// The file: a unit's, or one named like a unit's that is of none.
    pub file: QuarantinedFile,
    /// What was wrong with the file.
    pub reason: String,
    /// What became of its games.
    pub outcome: QuarantineOutcome,
}

/// Whose file was quarantined.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuarantinedFile {
    /// A unit's games file.
    Unit(UnitId),
    /// A file named like a unit's games (`unit-*.parquet`) that is of no
    /// unit of its campaign, by its name.
    Stray(String),
}

impl std::fmt::Display for QuarantinedFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            QuarantinedFile::Unit(unit) => write!(f, "unit {unit}"),
            QuarantinedFile::Stray(name) => write!(f, "file {name}"),
        }
    }
}

/// What became of a quarantined unit's games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuarantineOutcome {
    /// They were counted: they are taken out, and the unit is played again.
    CountedOut,
    /// They were never counted: the unit is played again.
    Replayed,
    /// An SPSA tune's: its update stands, the games are lost.
    UpdateKept,
    /// Of no unit: nothing of it was counted, and nothing is played again.
    Stray,
}

impl Quarantined {
    /// A quarantine, logged as a warning as it happens.
    fn said(
        campaign: &CampaignId,
        file: QuarantinedFile,
        reason: String,
        outcome: QuarantineOutcome,
    ) -> Quarantined {
        let quarantined = Quarantined {
            campaign: campaign.clone(),
            file,
            reason,
            outcome,
        };
        tracing::warn!("{quarantined}");
        quarantined
    }
}

impl std::fmt::Display for Quarantined {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let outcome = match self.outcome {
            QuarantineOutcome::CountedOut => {
                "its games are taken out of the counts and played again"
            }
            QuarantineOutcome::Replayed => "it was not counted and is played again",
            QuarantineOutcome::UpdateKept => {
                "an SPSA update: it stays in the tune, its games are lost"
            }
            QuarantineOutcome::Stray => "nothing of it was counted",
        };
        write!(
            f,
            "campaign '{}', {}: {}; moved to quarantine/, {outcome}",
            self.campaign, self.file, self.reason
        )
    }
}

/// What a check of the counted files found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileCheck {
    /// Counted units whose files were checked.
    pub checked: u64,
    /// The files moved aside, and why.
    pub quarantined: Vec<Quarantined>,
    /// Stored artifacts (engines, option files) that no longer hash to
    /// their names, set aside (the full check only).
    pub damaged_artifacts: Vec<crate::artifacts::store::DamagedArtifact>,
}

/// How much of each file a check reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Depth {
    /// That it is there, at the size it was counted with.
    Size,
    /// Its hash and its games as well.
    Contents,
}

/// What a games file holds, as recorded when its unit is counted.
pub(super) struct FileDigest {
    pub(super) sha256: String,
    pub(super) bytes: u64,
}

/// The SHA-256 and size of `path`.
pub(super) fn digest(path: &Path) -> Result<FileDigest, CoordinatorError> {
    let (hash, bytes) = hash_file(path).map_err(super::StorageError::from)?;
    Ok(FileDigest {
        sha256: hash.to_string(),
        bytes,
    })
}

impl Coordinator {
    /// Checks every counted unit's file to `depth`; quarantines those that
    /// do not hold up (module docs). A unit counted before files were
    /// recorded gets its record now, if its file reads.
    pub(super) fn check_counted_files(&self, depth: Depth) -> Result<FileCheck, CoordinatorError> {
        let rows = results::counted_files(&self.db())?;
        let mut check = FileCheck::default();
        // A campaign that could not be rebuilt is left as it is until it is.
        let unloaded = self.unloaded_lock().clone();
        for row in rows
            .into_iter()
            .filter(|r| !unloaded.contains_key(&r.campaign))
        {
            check.checked += 1;
            if let Some(reason) = self.file_fault(&row, depth)? {
                check.quarantined.push(self.quarantine_counted(
                    &row.campaign,
                    &row.unit,
                    reason,
                )?);
            }
        }
        Ok(check)
    }

    /// What is wrong with a counted unit's file, if anything.
    fn file_fault(
        &self,
        row: &CountedFile,
        depth: Depth,
    ) -> Result<Option<String>, CoordinatorError> {
        let path = self.unit_file(&row.campaign, &row.unit);
        let Ok(meta) = std::fs::metadata(&path) else {
            return Ok(Some("its games file is missing".to_owned()));
        };
        let size = meta.len();
        if let Some(bytes) = row.bytes
            && size != bytes
        {
            return Ok(Some(format!(
                "its games file is {size} bytes; it was counted at {bytes} bytes"
            )));
        }
        if row.bytes.is_some() && depth == Depth::Size {
            return Ok(None);
        }
        let found = digest(&path)?;
        if row.bytes.is_some() && found.sha256 != row.sha256 {
            return Ok(Some(format!(
                "its games file changed since it was counted (SHA-256 {}, counted as {})",
                found.sha256, row.sha256
            )));
        }
        let games = match read_games(&path) {
            Ok(file) => u64::try_from(file.games.len()).unwrap_or(u64::MAX),
            Err(e) => return Ok(Some(format!("its games file does not read: {e}"))),
        };
        if let Some(counted) = row.games
            && games != counted
        {
            return Ok(Some(format!(
                "its games file holds {games} games; {counted} were counted"
            )));
        }
        if row.bytes.is_none() {
            results::record_file(
                &self.db(),
                &row.unit,
                &GamesFileRecord {
                    sha256: found.sha256,
                    bytes: found.bytes,
                    games,
                },
            )?;
        }
        Ok(None)
    }

    /// Moves a counted unit's file (if any) to `quarantine/` and takes its
    /// games out of the counts (an SPSA update stays).
    fn quarantine_counted(
        &self,
        campaign: &CampaignId,
        unit: &UnitId,
        reason: String,
    ) -> Result<Quarantined, CoordinatorError> {
        self.move_to_quarantine(campaign, unit)?;
        let spsa = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(campaign)
            .is_some_and(|l| l.spsa.is_some());
        let outcome = if spsa {
            QuarantineOutcome::UpdateKept
        } else {
            self.count_out(campaign, std::slice::from_ref(unit))?;
            QuarantineOutcome::CountedOut
        };
        Ok(Quarantined::said(
            campaign,
            QuarantinedFile::Unit(unit.clone()),
            reason,
            outcome,
        ))
    }

    /// Moves an uncounted unit's file that does not read to `quarantine/`;
    /// the unit goes back to the pool.
    pub(super) fn quarantine_uncounted(
        &self,
        campaign: &CampaignId,
        unit: &UnitId,
        reason: String,
    ) -> Result<Quarantined, CoordinatorError> {
        self.move_to_quarantine(campaign, unit)?;
        units::recycle_uncounted(&self.db(), unit)?;
        Ok(Quarantined::said(
            campaign,
            QuarantinedFile::Unit(unit.clone()),
            reason,
            QuarantineOutcome::Replayed,
        ))
    }

    /// Moves `path` (named `name`), a file of `campaign`'s directory named
    /// like a unit's games that is of no unit of it, into `quarantine/`.
    pub(super) fn quarantine_stray(
        &self,
        campaign: &CampaignId,
        path: &Path,
        name: &str,
    ) -> Result<Quarantined, CoordinatorError> {
        let dir = self.campaign_dir(campaign).join("quarantine");
        std::fs::create_dir_all(&dir).map_err(file_error(&dir))?;
        let target = (0..)
            .map(|n| dir.join(format!("{name}.{n}")))
            .find(|p| !p.exists())
            .unwrap_or_else(|| dir.join(name));
        std::fs::rename(path, &target).map_err(file_error(path))?;
        Ok(Quarantined::said(
            campaign,
            QuarantinedFile::Stray(name.to_owned()),
            "named like a unit's games, but of no unit of the campaign".to_owned(),
            QuarantineOutcome::Stray,
        ))
    }

    /// Moves a unit's file, if there is one, into its campaign's
    /// `quarantine/`, under a name no earlier quarantine of it has taken.
    fn move_to_quarantine(
        &self,
        campaign: &CampaignId,
        unit: &UnitId,
    ) -> Result<(), CoordinatorError> {
        let file = self.unit_file(campaign, unit);
        if !file.exists() {
            return Ok(());
        }
        let dir = self.campaign_dir(campaign).join("quarantine");
        std::fs::create_dir_all(&dir).map_err(file_error(&dir))?;
        let target = (0..)
            .map(|n| dir.join(format!("unit-{unit}.{n}.parquet")))
            .find(|p| !p.exists())
            .unwrap_or_else(|| dir.join(format!("unit-{unit}.parquet")));
        std::fs::rename(&file, &target).map_err(file_error(&file))?;
        Ok(())
    }

    /// Reads every counted unit's file in full: hash, size and games
    /// against what was recorded when it was counted, and hashes every
    /// stored artifact. Bad files are quarantined as at start-up; damaged
    /// artifacts are set aside, to be uploaded again.
    ///
    /// # Errors
    /// Storage failure.
    pub fn verify(&self) -> Result<FileCheck, CoordinatorError> {
        let mut check = self.check_counted_files(Depth::Contents)?;
        check.damaged_artifacts = self
            .artifacts()
            .verify_all()
            .map_err(super::error::StorageError::from)?;
        Ok(check)
    }

    /// What the start-up check of the counted files found.
    pub fn startup_check(&self) -> &FileCheck {
        &self.startup_check
    }
}
