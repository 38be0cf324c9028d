//! Excluding a worker from a campaign: its games are counted out and played
//! again by others, and it gets no more of the campaign's units. The
//! exclusion holds for the token the worker registered with, so that
//! registering again does not undo it: every worker of that token is
//! counted out with it (give each contributor a token of its own to tell
//! them apart).
//!
//! Crash safety: each unit's file is first renamed into `excluded/` (an
//! atomic rename), then one transaction takes the unit's counts out and puts
//! it back in the pool. A coordinator killed between the two finds, on
//! start-up, a counted unit whose file is only under `excluded/`, and
//! finishes the exclusion.

use super::error::{CampaignError, LeaseError, file_error};
use super::{CampaignState, Coordinator, CoordinatorError, restore_campaign};
use crate::campaign::CampaignKind;
use crate::ids::{CampaignId, UnitId, WorkerId};
use ajaxlab_store::state::schema::recount;
use ajaxlab_store::state::{
    CountedUnit, Exclusion, campaigns, exclusions, results, units, workers,
};
use std::path::PathBuf;

impl Coordinator {
    fn excluded_file(&self, campaign: &CampaignId, unit: &UnitId, worker: &WorkerId) -> PathBuf {
        self.campaign_dir(campaign)
            .join("excluded")
            .join(format!("unit-{unit}.{worker}.parquet"))
    }

    /// Takes `worker`'s games out of `campaign`, with those of every worker
    /// registered under the same token: their units' files move to
    /// `excluded/` (kept for inspection), their counts are removed, the
    /// units go back to the pool for other workers, and the token gets no
    /// more units of this campaign, whatever worker id it registers.
    ///
    /// # Errors
    /// `NotFound` for an unknown campaign or worker; `FailedPrecondition` for an SPSA
    /// campaign, whose updates cannot be taken back.
    pub fn exclude_worker(
        &self,
        campaign: &CampaignId,
        worker: &WorkerId,
    ) -> Result<super::CampaignView, CoordinatorError> {
        let kind = {
            let campaigns = self
                .campaigns
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            campaigns
                .get(campaign)
                .map(|l| l.spec.kind.clone())
                .ok_or_else(|| CampaignError::Unknown(campaign.clone()))?
        };
        let token = workers::token_of(&self.db(), worker)?
            .ok_or_else(|| LeaseError::UnknownWorker(worker.clone()))?;
        if matches!(kind, CampaignKind::Spsa { .. }) {
            return Err(CampaignError::SpsaExclusion(campaign.clone()).into());
        }
        // The token's workers; only the one named for a worker registered
        // before workers were bound to tokens (an empty hash).
        let (units, workers): (Vec<CountedUnit>, u64) = {
            let db = self.db();
            if !token.as_str().is_empty() {
                exclusions::exclude_token(&db, campaign, &token, super::now_ms())?;
            }
            let workers = exclusions::exclude_workers(&db, campaign, &token, worker)?;
            // Units they hold now go back too: what they submit for them is stale.
            exclusions::free_units_of(&db, campaign, &token, worker)?;
            let units = exclusions::counted_units_of(&db, campaign, &token, worker)?;
            (units, workers)
        };
        let excluded = self.campaign_dir(campaign).join("excluded");
        std::fs::create_dir_all(&excluded).map_err(file_error(excluded))?;
        for CountedUnit { unit, worker: by } in &units {
            let file = self.unit_file(campaign, unit);
            if file.exists() {
                std::fs::rename(&file, self.excluded_file(campaign, unit, by))
                    .map_err(file_error(&file))?;
            }
        }
        let units: Vec<UnitId> = units.into_iter().map(|u| u.unit).collect();
        self.count_out(campaign, &units)?;
        tracing::info!(
            %worker,
            %campaign,
            "worker excluded with its token ({workers} workers newly excluded); {} units to play again",
            units.len()
        );
        self.campaign(campaign)
    }

    /// Removes the counts of `units` (whose files are already moved away),
    /// returns them to the pool, and rebuilds the campaign's running test.
    pub(super) fn count_out(
        &self,
        campaign: &CampaignId,
        units: &[UnitId],
    ) -> Result<(), CoordinatorError> {
        let mut db = self.db();
        let tx = db.transaction()?;
        for unit in units {
            results::delete(&tx, unit)?;
            units::recycle(&tx, unit)?;
            self.remove_unit_positions(campaign, unit)?;
        }
        let text = campaigns::config_toml(&tx, campaign)?
            .ok_or_else(|| CampaignError::Unknown(campaign.clone()))?;
        recount(&tx, Some(campaign))?;
        let live = restore_campaign(&tx, campaign, &text, &self.inputs_dir(), &self.artifacts)?;
        let complete = campaigns::progress(&tx, campaign)?.complete();
        if !complete && !live.decided() {
            campaigns::change_state(
                &tx,
                campaign,
                CampaignState::Finished,
                CampaignState::Running,
            )?;
        }
        tx.commit()?;
        // Under the database's lock, so that no reading of the totals
        // between the commit and here keeps the counted-out games.
        self.play_totals.forget(campaign);
        self.campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(campaign.clone(), live);
        drop(db);
        self.changed();
        Ok(())
    }

    /// Finishes exclusions a crash interrupted: counted units whose file is
    /// only under `excluded/`.
    pub(super) fn finish_interrupted_exclusions(&self) -> Result<(), CoordinatorError> {
        let excluded = exclusions::all(&self.db())?;
        let unloaded = self.unloaded_lock().clone();
        for Exclusion { campaign, worker } in excluded {
            if unloaded.contains_key(&campaign) {
                continue;
            }
            let units: Vec<UnitId> = results::units_of(&self.db(), &campaign, &worker)?
                .into_iter()
                .filter(|u| {
                    !self.unit_file(&campaign, u).exists()
                        && self.excluded_file(&campaign, u, &worker).exists()
                })
                .collect();
            if !units.is_empty() {
                self.count_out(&campaign, &units)?;
            }
        }
        Ok(())
    }

    /// Whether `worker` is excluded from `campaign` (itself, or by its token).
    ///
    /// # Errors
    /// Storage failure.
    pub fn is_excluded(
        &self,
        campaign: &CampaignId,
        worker: &WorkerId,
    ) -> Result<bool, CoordinatorError> {
        Ok(exclusions::is_excluded(&self.db(), campaign, worker)?)
    }
}
