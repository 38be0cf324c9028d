//! A datagen campaign's training positions: written beside each unit's
//! games file when the unit is counted (before its count commits, so that
//! a counted unit always has them; a crash between the two counts the unit
//! again at start and writes them again, the same rows), and removed when
//! the unit is counted out, so that a replaced unit's positions are never
//! read twice.

use super::Coordinator;
use super::error::{CoordinatorError, StorageError, file_error};
use crate::campaign::CampaignKind;
use ajaxlab_store::positions::{self, PositionFilter, write_positions};
use ajaxlab_store::{CampaignId, GameRecord, UnitId};

impl Coordinator {
    /// The positions a datagen campaign keeps; `None` for another kind.
    fn datagen_filter(&self, id: &CampaignId) -> Option<PositionFilter> {
        self.campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
            .and_then(|live| match live.spec.kind {
                CampaignKind::Datagen(filter) => Some(filter),
                _ => None,
            })
    }

    /// Writes the training positions of `unit`'s `games` when `campaign`
    /// is a datagen campaign; nothing otherwise.
    pub(super) fn write_unit_positions(
        &self,
        campaign: &CampaignId,
        unit: &UnitId,
        games: &[GameRecord],
    ) -> Result<(), CoordinatorError> {
        let Some(filter) = self.datagen_filter(campaign) else {
            return Ok(());
        };
        let path = positions::file_of(&self.unit_file(campaign, unit));
        let mut rows = Vec::new();
        for game in games {
            let replayed = positions::positions_of(game, filter).map_err(|source| {
                StorageError::Positions {
                    path: path.clone(),
                    source,
                }
            })?;
            rows.extend(replayed);
        }
        write_positions(&path, &rows).map_err(StorageError::from)?;
        self.counters
            .positions
            .fetch_add(rows.len() as u64, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    }

    /// Removes the training positions of `unit`, counted out (if it has any).
    pub(super) fn remove_unit_positions(
        &self,
        campaign: &CampaignId,
        unit: &UnitId,
    ) -> Result<(), CoordinatorError> {
        let path = positions::file_of(&self.unit_file(campaign, unit));
        match std::fs::remove_file(&path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(file_error(&path)(e).into()),
            _ => Ok(()),
        }
    }
}
