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
use ajaxlab_store::state::row::parsed;
use ajaxlab_store::state::schema::recount;
use ajaxlab_store::state::{campaigns, workers};
use rusqlite::{OptionalExtension, params};
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
        if matches!(kind, CampaignKind::Spsa(_)) {
            return Err(CampaignError::SpsaExclusion(campaign.clone()).into());
        }
        // The token's workers; only the one named for a worker registered
        // before workers were bound to tokens (an empty hash).
        const SAME_TOKEN: &str =
            "select id from workers where (?2 != '' and token_hash = ?2) or id = ?3";
        let (units, workers): (Vec<(UnitId, WorkerId)>, usize) = {
            let db = self.db();
            if !token.as_str().is_empty() {
                db.execute(
                    "insert or ignore into excluded_tokens (campaign_id, token_hash, at_ms) values (?1, ?2, ?3)",
                    params![campaign, token, super::now_ms()],
                )?;
            }
            let workers = db.execute(
                &format!("insert or ignore into exclusions select ?1, id from ({SAME_TOKEN})"),
                params![campaign, token, worker],
            )?;
            // Units they hold now go back too: what they submit for them is stale.
            db.execute(
                &format!("update units set state = 'free', worker_id = '', lease_token = '' where campaign_id = ?1 and state = 'leased' and worker_id in ({SAME_TOKEN})"),
                params![campaign, token, worker],
            )?;
            let mut stmt = db.prepare(&format!(
                "select unit_id, worker_id, rowid from results where campaign_id = ?1 and worker_id in ({SAME_TOKEN}) order by rowid"
            ))?;
            let rows = stmt.query_map(params![campaign, token, worker], |r| {
                Ok((parsed(r, 0, "results", "unit_id")?, r.get(1)?))
            })?;
            (rows.collect::<Result<_, _>>()?, workers)
        };
        let excluded = self.campaign_dir(campaign).join("excluded");
        std::fs::create_dir_all(&excluded).map_err(file_error(excluded))?;
        for (unit, by) in &units {
            let file = self.unit_file(campaign, unit);
            if file.exists() {
                std::fs::rename(&file, self.excluded_file(campaign, unit, by))
                    .map_err(file_error(&file))?;
            }
        }
        let units: Vec<UnitId> = units.into_iter().map(|(unit, _)| unit).collect();
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
            tx.execute("delete from results where unit_id = ?1", [unit])?;
            tx.execute(
                "update units set state = 'free', worker_id = '', lease_token = '', deadline_ms = 0 where id = ?1",
                [unit],
            )?;
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
        let exclusions: Vec<(CampaignId, WorkerId)> = {
            let db = self.db();
            let mut stmt = db.prepare("select campaign_id, worker_id from exclusions")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect::<Result<_, _>>()?
        };
        for (campaign, worker) in exclusions {
            let units: Vec<UnitId> = {
                let db = self.db();
                let mut stmt = db.prepare(
                    "select unit_id, rowid from results where campaign_id = ?1 and worker_id = ?2",
                )?;
                let rows = stmt.query_map(params![campaign, worker], |r| {
                    parsed(r, 0, "results", "unit_id")
                })?;
                rows.collect::<Result<Vec<_>, _>>()?
                    .into_iter()
                    .filter(|u| {
                        !self.unit_file(&campaign, u).exists()
                            && self.excluded_file(&campaign, u, &worker).exists()
                    })
                    .collect()
            };
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
        let found: Option<i64> = self
            .db()
            .query_row(
                "select 1 from exclusions where campaign_id = ?1 and worker_id = ?2
                 union select 1 from excluded_tokens t join workers w on w.token_hash = t.token_hash
                   where t.campaign_id = ?1 and w.id = ?2",
                params![campaign, worker],
                |r| r.get(0),
            )
            .optional()?;
        Ok(found.is_some())
    }
}
