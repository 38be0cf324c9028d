//! What the coordinator says at info level while it runs: a line per
//! campaign created and per verdict, and for the units leased and counted
//! one summary per campaign at most every [`SUMMARY_EVERY`], so that a
//! cluster of ten thousand workers logs at a readable rate. Each unit is
//! logged at debug level (`RUST_LOG=ajaxlab_cluster=debug`).

use crate::ids::CampaignId;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often a campaign's units are summed up at most.
pub(super) const SUMMARY_EVERY: Duration = Duration::from_secs(10);

/// Units leased and counted per campaign since its last summary line.
#[derive(Debug, Default)]
pub(super) struct Activity {
    campaigns: Mutex<HashMap<CampaignId, Since>>,
}

/// One campaign's units since its last summary line.
#[derive(Debug)]
struct Since {
    logged: Instant,
    leased: u64,
    counted: u64,
    pairs: u64,
}

/// What a summary line says: the units since the last one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Summary {
    /// Units handed out.
    pub(super) leased: u64,
    /// Units counted.
    pub(super) counted: u64,
    /// Pairs in the counted units.
    pub(super) pairs: u64,
}

/// What happened to a unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum UnitEvent {
    /// Handed to a worker.
    Leased,
    /// Counted, with its pairs.
    Counted {
        /// The pairs it held.
        pairs: u64,
    },
}

impl Activity {
    /// Notes `event` for `campaign`; the summary to log when the last one
    /// for it is [`SUMMARY_EVERY`] old (the first event starts the clock).
    pub(super) fn note(&self, campaign: &CampaignId, event: UnitEvent) -> Option<Summary> {
        self.note_at(campaign, event, Instant::now())
    }

    fn note_at(&self, campaign: &CampaignId, event: UnitEvent, now: Instant) -> Option<Summary> {
        let mut campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let since = campaigns.entry(campaign.clone()).or_insert(Since {
            logged: now,
            leased: 0,
            counted: 0,
            pairs: 0,
        });
        match event {
            UnitEvent::Leased => since.leased += 1,
            UnitEvent::Counted { pairs } => {
                since.counted += 1;
                since.pairs += pairs;
            }
        }
        if now.duration_since(since.logged) < SUMMARY_EVERY {
            return None;
        }
        let summary = Summary {
            leased: since.leased,
            counted: since.counted,
            pairs: since.pairs,
        };
        *since = Since {
            logged: now,
            leased: 0,
            counted: 0,
            pairs: 0,
        };
        Some(summary)
    }
}

impl super::Coordinator {
    /// Logs a campaign just created: its kind, size and players.
    pub(super) fn log_created(&self, live: &super::kinds::Live) {
        let players = &live.spec.config.players;
        tracing::info!(
            campaign = %live.spec.name,
            "campaign created: {} of {} games, {} against {}",
            live.spec.kind.run_kind(),
            live.spec.config.pairs * 2,
            players[0].name,
            players[1].name
        );
    }

    /// Notes a unit of `campaign` leased or counted: a debug line for it,
    /// and at most every [`SUMMARY_EVERY`] an info line summing up the
    /// campaign's units since the last one, with where it stands.
    pub(super) fn log_unit(&self, campaign: &CampaignId, unit: &super::UnitId, event: UnitEvent) {
        tracing::debug!(%campaign, %unit, "unit {event:?}");
        let Some(s) = self.activity.note(campaign, event) else {
            return;
        };
        let standing = self.campaign(campaign).map_or_else(
            |e| format!("standing unknown: {e}"),
            |v| format!("{}/{} pairs, {}", v.pairs_done, v.pairs_total, elo_text(&v)),
        );
        tracing::info!(
            %campaign,
            "{} units leased, {} counted ({} pairs) in the last {}s; {standing}",
            s.leased,
            s.counted,
            s.pairs,
            SUMMARY_EVERY.as_secs()
        );
    }

    /// Logs a campaign's SPRT verdict, once, when it is reached.
    pub(super) fn log_verdict(&self, campaign: &CampaignId) {
        if let Ok(view) = self.campaign(campaign)
            && let Some(s) = &view.sprt
        {
            tracing::info!(
                %campaign,
                "{}  {}",
                ajaxlab_stats::llr_text(s.llr, s.bounds),
                ajaxlab_stats::verdict_text(s.verdict, s.pairs_at_verdict, view.pairs_done)
            );
        }
    }
}

/// `Elo +12.3 ± 4.5`, or `Elo n/a` before a pair is counted.
fn elo_text(view: &super::CampaignView) -> String {
    view.pentanomial.elo().map_or("Elo n/a".to_owned(), |e| {
        format!("Elo {:+.1} ± {:.1}", e.elo, e.interval.half_width())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_are_summed_up_once_per_period() -> Result<(), Box<dyn std::error::Error>> {
        let activity = Activity::default();
        let id: CampaignId = "c".parse()?;
        let start = Instant::now();
        assert_eq!(activity.note_at(&id, UnitEvent::Leased, start), None);
        let later = start + Duration::from_secs(3);
        assert_eq!(
            activity.note_at(&id, UnitEvent::Counted { pairs: 8 }, later),
            None
        );
        let due = start + SUMMARY_EVERY;
        assert_eq!(
            activity.note_at(&id, UnitEvent::Leased, due),
            Some(Summary {
                leased: 2,
                counted: 1,
                pairs: 8
            })
        );
        assert_eq!(activity.note_at(&id, UnitEvent::Leased, due), None);
        Ok(())
    }
}
