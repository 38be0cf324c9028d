//! A campaign's games as one PGN file, for campaigns whose file asks for
//! `pgn = true`: written from the stored unit files (the games as counted,
//! never a worker's copy) when the campaign ends, and again at start-up for
//! an ended campaign whose file is missing (a coordinator killed between
//! the two).

use super::{Coordinator, CoordinatorError, file_error};
use crate::ids::CampaignId;
use ajaxlab_arena::pgn::game_pgn;
use ajaxlab_store::{GameRecord, read_games};

/// The name of a campaign's PGN file, in its directory.
pub const PGN_FILE: &str = "games.pgn";

impl Coordinator {
    /// Whether `campaign`'s file asks for PGN.
    fn wants_pgn(&self, campaign: &CampaignId) -> bool {
        self.campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(campaign)
            .is_some_and(|live| live.spec.config.pgn)
    }

    /// Writes `games.pgn` of an ended campaign that asks for it, its games
    /// in game-id order; nothing for other campaigns.
    ///
    /// # Errors
    /// A unit file that cannot be read, or the PGN file not written.
    fn write_campaign_pgn(&self, campaign: &CampaignId) -> Result<(), CoordinatorError> {
        if !self.wants_pgn(campaign) {
            return Ok(());
        }
        let dir = self.campaign_dir(campaign);
        let mut games: Vec<GameRecord> = Vec::new();
        if dir.exists() {
            for entry in std::fs::read_dir(&dir).map_err(file_error(&dir))? {
                let path = entry.map_err(file_error(&dir))?.path();
                let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
                if name.starts_with("unit-") && name.ends_with(".parquet") {
                    games.extend(read_games(&path)?.games);
                }
            }
        } else {
            std::fs::create_dir_all(&dir).map_err(file_error(&dir))?;
        }
        games.sort_by_key(|g| g.game_id);
        let text: String = games.iter().filter_map(game_pgn).collect();
        ajaxlab_store::atomic::write_text(&dir.join(PGN_FILE), &text)?;
        Ok(())
    }

    /// `write_campaign_pgn`, a failure logged rather than returned: the
    /// unit that ended the campaign is counted already, and a coordinator
    /// must start whatever a PGN file says; the next start-up tries again.
    pub(super) fn write_campaign_pgn_or_warn(&self, campaign: &CampaignId) {
        if let Err(e) = self.write_campaign_pgn(campaign) {
            tracing::warn!(
                %campaign,
                "games.pgn not written (written again at start-up): {e}"
            );
        }
    }

    /// At start-up: the PGN of every ended campaign that asks for one and
    /// has none yet.
    pub(super) fn write_missing_pgn(&self, ids: &[CampaignId]) -> Result<(), CoordinatorError> {
        for id in ids {
            if self.campaign(id)?.state.is_over() && !self.campaign_dir(id).join(PGN_FILE).exists()
            {
                self.write_campaign_pgn_or_warn(id);
            }
        }
        Ok(())
    }
}
