//! What an operator reads and changes beside a campaign's life: its match
//! as validated, its priority, the workers it excludes and their
//! re-admission, and every worker's health. The web UI's actions and
//! pages stand on these; each change is logged with who made it.

use super::error::{CampaignError, LeaseError};
use super::{Coordinator, CoordinatorError, now_ms};
use crate::campaign::{CampaignSpec, PRIORITY};
use crate::ids::{CampaignId, WorkerId};
use ajaxlab_store::state::{WorkerHealth, campaigns, exclusions, results, starts, workers};

/// The window of a worker's recent units on the workers page.
pub const HEALTH_WINDOW_MS: i64 = 60 * 60 * 1000;

/// The window a campaign's pace (and so its time left) is measured over.
pub const PACE_WINDOW_MS: i64 = 10 * 60 * 1000;

/// What a campaign's line in a list says of its match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSummary {
    /// The variant's name.
    pub variant: String,
    /// The players' names, the measured one first.
    pub players: [String; 2],
    /// The time control, or both when they differ (`first / second`).
    pub tc: String,
}

impl Coordinator {
    /// Campaign `id`'s variant, players and time control, if it is loaded:
    /// the list's line, without copying the whole campaign (its opening
    /// list, say).
    pub fn match_summary(&self, id: &CampaignId) -> Option<MatchSummary> {
        let campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let config = &campaigns.get(id)?.spec.config;
        let [a, b] = &config.players;
        Some(MatchSummary {
            variant: config.variant.name().to_owned(),
            players: [a.name.clone(), b.name.clone()],
            tc: if a.tc == b.tc {
                a.tc.to_string()
            } else {
                format!("{} / {}", a.tc, b.tc)
            },
        })
    }

    /// The validated campaign `id` (players, variant, time control,
    /// openings), if it is loaded: a campaign that could not be rebuilt at
    /// start-up has only its file.
    pub fn campaign_spec(&self, id: &CampaignId) -> Option<CampaignSpec> {
        self.campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
            .map(|live| live.spec.clone())
    }

    /// Sets campaign `id`'s priority (its share of the workers); `by` says
    /// who, for the log.
    ///
    /// # Errors
    /// `NotFound`; `InvalidArgument` for a priority outside
    /// [`PRIORITY`]; `FailedPrecondition` for a campaign that is over.
    pub fn set_priority(
        &self,
        id: &CampaignId,
        priority: u32,
        by: &str,
    ) -> Result<super::CampaignView, CoordinatorError> {
        if !PRIORITY.contains(&priority) {
            return Err(CampaignError::File(ajaxlab_arena::ConfigError::new(
                "campaign.priority",
                format!(
                    "{priority} is not from {} to {}",
                    PRIORITY.start(),
                    PRIORITY.end()
                ),
            ))
            .into());
        }
        self.refuse_if_over(id)?;
        // Leasing reads the stored priority; the file keeps the one it
        // was created with.
        campaigns::set_priority(&self.db(), id, priority)?;
        tracing::info!(campaign = %id, by, "priority set to {priority}");
        self.changed();
        self.campaign(id)
    }

    /// Admits `worker`, and every worker of its token, to `campaign`
    /// again after an exclusion; `by` says who, for the log. The games
    /// counted out stay out (others played them again).
    ///
    /// # Errors
    /// `NotFound` for an unknown campaign or worker.
    pub fn readmit_worker(
        &self,
        campaign: &CampaignId,
        worker: &WorkerId,
        by: &str,
    ) -> Result<super::CampaignView, CoordinatorError> {
        self.campaign(campaign)?;
        let token = workers::token_of(&self.db(), worker)?
            .ok_or_else(|| LeaseError::UnknownWorker(worker.clone()))?;
        let readmitted = exclusions::readmit(&self.db(), campaign, &token, worker)?;
        tracing::info!(%campaign, %worker, by, "worker re-admitted with its token ({readmitted} workers)");
        self.changed();
        self.campaign(campaign)
    }

    /// The names of the workers that played `campaign`'s counted units,
    /// by id.
    ///
    /// # Errors
    /// Storage failure.
    pub fn worker_names(
        &self,
        campaign: &CampaignId,
    ) -> Result<std::collections::HashMap<WorkerId, String>, CoordinatorError> {
        Ok(workers::names_in(&self.reader(), campaign)?
            .into_iter()
            .collect())
    }

    /// The workers excluded from `campaign`, in the order excluded.
    ///
    /// # Errors
    /// Storage failure.
    pub fn excluded_workers(
        &self,
        campaign: &CampaignId,
    ) -> Result<Vec<WorkerId>, CoordinatorError> {
        Ok(exclusions::of_campaign(&self.reader(), campaign)?)
    }

    /// Campaign `id`'s pace: pairs counted a minute over the last
    /// [`PACE_WINDOW_MS`] (from the first unit counted in it to now);
    /// `None` if none was counted in that window.
    ///
    /// # Errors
    /// Storage failure.
    pub fn pairs_per_minute(&self, id: &CampaignId) -> Result<Option<f64>, CoordinatorError> {
        let now = now_ms();
        let (pairs, first) = results::pairs_since(&self.reader(), id, now - PACE_WINDOW_MS)?;
        Ok(first.map(|first| {
            // A minute at least, so that one unit just counted is no burst.
            let minutes = ((now - first) as f64 / 60_000.0).max(1.0);
            pairs as f64 / minutes
        }))
    }

    /// Whether campaign `id` is a first-move survey (whose units' counts
    /// per start are kept).
    pub(super) fn first_move(&self, id: &CampaignId) -> bool {
        self.campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(id)
            .is_some_and(|live| matches!(live.spec.kind, crate::campaign::CampaignKind::FirstMove))
    }

    /// A first-move campaign's White counts per start over its counted
    /// units (those counted before they were kept are missing).
    ///
    /// # Errors
    /// Storage failure.
    pub fn start_counts(
        &self,
        id: &CampaignId,
    ) -> Result<Vec<(starts::Start, ajaxlab_stats::Trinomial)>, CoordinatorError> {
        Ok(starts::of_campaign(&self.reader(), id)?)
    }

    /// Every registered worker's health, its recent units counted over
    /// the last [`HEALTH_WINDOW_MS`].
    ///
    /// # Errors
    /// Storage failure.
    pub fn worker_health(&self) -> Result<Vec<WorkerHealth>, CoordinatorError> {
        Ok(workers::health(
            &self.reader(),
            now_ms() - HEALTH_WINDOW_MS,
        )?)
    }
}
