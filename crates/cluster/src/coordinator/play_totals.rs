//! How each token's counted games of a campaign went (games, claimed
//! engine failures, plies), kept in memory so that the check of every
//! submission ([`super::outliers::implausible_play`]) costs no scan of the
//! campaign's results: read from the database once per campaign, added to
//! as units are counted, and read again after games are counted out.

use super::{Coordinator, CoordinatorError};
use crate::ids::CampaignId;
use ajaxlab_store::state::{TokenHash, UnitPlay, results};
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

/// One campaign's totals, by token.
#[derive(Debug, Default)]
pub(super) struct CampaignPlay {
    all: UnitPlay,
    by_token: HashMap<TokenHash, UnitPlay>,
}

/// The totals of the campaigns asked about so far.
#[derive(Debug, Default)]
pub(super) struct PlayTotals(Mutex<HashMap<CampaignId, CampaignPlay>>);

impl PlayTotals {
    fn lock(&self) -> MutexGuard<'_, HashMap<CampaignId, CampaignPlay>> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Adds a counted unit's games to `campaign`'s totals, if they are held.
    pub(super) fn add(&self, campaign: &CampaignId, token: &TokenHash, play: UnitPlay) {
        if let Some(totals) = self.lock().get_mut(campaign) {
            totals.all = totals.all + play;
            let mine = totals.by_token.entry(token.clone()).or_default();
            *mine = *mine + play;
        }
    }

    /// Forgets `campaign`'s totals (games were counted out): they are read
    /// again when next asked for.
    pub(super) fn forget(&self, campaign: &CampaignId) {
        self.lock().remove(campaign);
    }
}

impl Coordinator {
    /// How the counted games of `token` in `campaign` went, and those of
    /// every other token together.
    ///
    /// # Errors
    /// Storage failure.
    pub(super) fn token_play(
        &self,
        campaign: &CampaignId,
        token: &TokenHash,
    ) -> Result<(UnitPlay, UnitPlay), CoordinatorError> {
        // The database's lock first, as counting takes them: no unit is
        // counted between reading the totals and keeping them.
        let db = self.db();
        let mut held = self.play_totals.lock();
        if !held.contains_key(campaign) {
            let mut totals = CampaignPlay::default();
            for (hash, play) in results::play_by_token(&db, campaign)? {
                totals.all = totals.all + play;
                totals.by_token.insert(hash, play);
            }
            held.insert(campaign.clone(), totals);
        }
        let totals = held
            .get(campaign)
            .ok_or_else(|| super::StorageError::NotLoaded(campaign.clone()))?;
        let mine = totals.by_token.get(token).copied().unwrap_or_default();
        Ok((mine, totals.all - mine))
    }
}
