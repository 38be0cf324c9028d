//! Workers and their leases: registration, the choice of a campaign for
//! an asking worker, the size of a new unit, renewal and release.

use super::activity::UnitEvent;
use super::error::{LeaseError, StorageError};
use super::tokens::{TokenHash, random_hex};
use super::{Coordinator, CoordinatorError, bump, now_ms};
use crate::coordinator::kinds::UnitPerturbation;
use crate::ids::{CampaignId, UnitId, WorkerId};
use crate::work::Lease;
use crate::work::unit::WorkUnit;
use ajaxlab_arena::names::check_name;
use ajaxlab_proto::codec::MAX_UNIT_PAIRS;
use ajaxlab_proto::v1;
use ajaxlab_store::state::units::{self, LeaseCandidate, LeaseGrant, NewUnit};
use ajaxlab_store::state::{NewWorker, WorkerPace, campaigns, workers};
use rusqlite::Connection;
use std::time::Duration;

/// The secret issued with a lease: a unit is renewed, given back or
/// submitted only under the very token it was leased with.
pub use crate::ids::LeaseToken;
/// A worker that cannot start an engine of a campaign (at most
/// [`MAX_FAILURE_TEXT`] characters of its reason are kept).
pub use ajaxlab_store::state::EngineFailure;
/// A unit as a submission or renewal finds it.
pub(super) use ajaxlab_store::state::HeldUnit;
/// How many units are in one state.
pub use ajaxlab_store::state::UnitCount;
/// A registered worker.
pub use ajaxlab_store::state::WorkerInfo;

/// The longest engine-failure report kept, in characters.
pub const MAX_FAILURE_TEXT: usize = 1000;

/// Whether a unit of candidate `c` is free or can still be made.
fn has_work(c: &LeaseCandidate) -> bool {
    c.free_units > 0 || c.next_pair < c.pairs_total
}

/// Candidate `c`'s share per unit of priority: the least served goes first.
fn share(c: &LeaseCandidate) -> f64 {
    c.pairs_out as f64 / f64::from(c.priority.max(1))
}

/// What the size of a new unit depends on.
struct UnitSizing {
    /// The asking worker's pace so far (0 before its first unit).
    pairs_per_minute: f64,
    /// Its cores: a unit has at least a pair per core.
    cores: u32,
    /// How much play a unit is sized to.
    duration: Duration,
    /// Whether the campaign is an SPSA tune (a unit is one perturbation).
    spsa: bool,
    /// The campaign's pairs.
    pairs_total: i64,
    /// Its first pair not yet in a unit.
    next_pair: i64,
}

impl UnitSizing {
    /// Pairs in the new unit, `spread` (a random byte) varying its length.
    ///
    /// About `duration` of play for this worker, at least one pair per
    /// core, and at most a tenth of the campaign so that progress shows and
    /// other workers get a share. An SPSA unit is one perturbation: at most
    /// 1/200 of the tune (but a pair per core), so that θ moves in many
    /// small steps. The length varies by up to ±20% (drawn from the lease
    /// token's first byte) so that workers started together, after an
    /// outage or a mass start, drift out of step instead of submitting in
    /// waves for ever. Never more than [`MAX_UNIT_PAIRS`] (a submission's
    /// budget on the wire), nor more than are left.
    fn pairs(&self, spread: u8) -> i64 {
        let spread = 0.8 + 0.4 * f64::from(spread) / 255.0;
        let minutes = spread * self.duration.as_secs_f64() / 60.0;
        let wanted = (self.pairs_per_minute * minutes)
            .round()
            .max(f64::from(self.cores)) as i64;
        let total = self.pairs_total;
        let cap = if self.spsa {
            (total / 200).max(i64::from(self.cores))
        } else {
            (total + 9) / 10
        };
        wanted
            .min(cap)
            .clamp(1, i64::from(MAX_UNIT_PAIRS))
            .min(total - self.next_pair)
    }
}

/// Registrations one token may make in a minute: enough for a cluster's
/// mass start with one shared token, too few to flood the database.
pub const REGISTRATIONS_PER_MINUTE: u64 = 600;

/// A worker as its requests name it: the id the coordinator issued at
/// registration, and the token the request came with. Every worker request
/// is served only if the id was registered under that very token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerKey {
    /// The issued id (`w-…`), as the web UI shows it.
    pub id: WorkerId,
    /// The token it registered with.
    pub token: TokenHash,
}

impl Coordinator {
    /// Sizes new units to `duration` of play on the asking worker.
    pub fn set_unit_duration(&mut self, duration: Duration) {
        self.unit_duration = duration;
    }

    /// Registers a worker under `token`, the token its request came with;
    /// its later requests must come with the same token.
    ///
    /// # Errors
    /// `InvalidArgument` for a name or version that is not printable text
    /// of at most [`ajaxlab_arena::names::MAX_NAME_CHARS`] characters; `ResourceExhausted` past
    /// [`REGISTRATIONS_PER_MINUTE`] of one token; storage failure, or no
    /// operating-system randomness ([`random_hex`]).
    pub fn register(
        &self,
        token: &TokenHash,
        name: &str,
        version: &str,
        cores: u32,
        signature: u64,
    ) -> Result<WorkerKey, CoordinatorError> {
        for (key, text) in [("worker name", name), ("worker version", version)] {
            check_name(text).map_err(|problem| LeaseError::BadName { key, problem })?;
        }
        let now = now_ms();
        let db = self.db();
        let recent = workers::registered_since(&db, token, now - 60_000)?;
        if recent >= REGISTRATIONS_PER_MINUTE {
            return Err(LeaseError::TooManyRegistrations.into());
        }
        let id = WorkerId::issue(&random_hex()?);
        workers::insert(
            &db,
            &NewWorker {
                id: &id,
                name,
                version,
                cores,
                signature,
                token,
                registered_ms: now,
            },
        )?;
        Ok(WorkerKey {
            id,
            token: token.clone(),
        })
    }

    /// The pace of the worker `key` names, if it registered under the
    /// token `key` carries.
    fn worker_row(db: &Connection, key: &WorkerKey) -> Result<WorkerPace, CoordinatorError> {
        workers::pace(db, &key.id, &key.token)?
            .ok_or_else(|| LeaseError::UnknownWorker(key.id.clone()).into())
    }

    /// Leases a unit to the worker `key` names, in its wire form, or `None`
    /// if there is no work it may do now.
    ///
    /// # Errors
    /// As [`Coordinator::lease_unit`].
    pub fn request_work(&self, key: &WorkerKey) -> Result<Option<v1::WorkUnit>, CoordinatorError> {
        Ok(self.lease_unit(key)?.map(|unit| unit.to_wire()))
    }

    /// Leases a unit to the worker `key` names, or `None` if there is no
    /// work it may do now.
    ///
    /// # Errors
    /// `NotFound` for a worker unknown under `key`'s token; `Internal`
    /// without operating-system randomness for the lease token.
    pub fn lease_unit(&self, key: &WorkerKey) -> Result<Option<WorkUnit>, CoordinatorError> {
        let worker = &key.id;
        let _span = tracing::debug_span!("request_work", %worker).entered();
        let now = now_ms();
        let deadline = now + self.lease_ms();
        let db = self.db();
        let WorkerPace {
            cores,
            signature,
            pairs_per_minute: rate,
        } = Self::worker_row(&db, key)?;
        // Expired leases go back to the pool.
        let expired = units::expire(&db, now)?;
        bump(&self.counters.expired, expired);
        // Running campaigns for this engine build, least served (per priority) first.
        let mut candidates = units::candidates(&db, signature, worker, &key.token)?;
        candidates.retain(has_work);
        candidates.sort_by(|a, b| share(a).total_cmp(&share(b)).then_with(|| a.id.cmp(&b.id)));
        let Some(LeaseCandidate {
            id: campaign,
            pairs_total: total,
            next_pair: next,
            free_units: free,
            ..
        }) = candidates.into_iter().next()
        else {
            return Ok(None);
        };
        let token = LeaseToken::new(random_hex()?);
        let grant = LeaseGrant {
            token: &token,
            worker,
            deadline_ms: deadline,
            leased_ms: now,
        };
        let mut campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let live = campaigns
            .get_mut(&campaign)
            .ok_or_else(|| StorageError::NotLoaded(campaign.clone()))?;
        let (unit_id, first, count, perturbation) = if free > 0 {
            let unit = units::first_free(&db, &campaign)?;
            units::lease(&db, &unit.id, &grant)?;
            let perturbation =
                UnitPerturbation::from_text(&unit.spsa).map_err(StorageError::Spsa)?;
            (unit.id, unit.first_pair, unit.pair_count, perturbation)
        } else {
            let sizing = UnitSizing {
                pairs_per_minute: rate,
                cores,
                duration: self.unit_duration,
                spsa: live.spsa.is_some(),
                pairs_total: total,
                next_pair: next,
            };
            let spread = token
                .as_str()
                .get(..2)
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
                .unwrap_or(128);
            let count = u64::try_from(sizing.pairs(spread)).unwrap_or(0);
            let first = u64::try_from(next).unwrap_or(0);
            let id = UnitId::new(&campaign, first);
            let perturbation = live.issue_perturbation();
            let spsa = perturbation
                .as_ref()
                .map_or(String::new(), UnitPerturbation::to_text);
            units::insert_leased(
                &db,
                &NewUnit {
                    id: &id,
                    pair_count: count,
                    spsa: &spsa,
                    lease: grant,
                },
            )?;
            campaigns::set_next_pair(&db, &campaign, first + count)?;
            (id, first, count, perturbation)
        };
        drop(db);
        let config = live.unit_config(perturbation.as_ref());
        let filled = live.filled_templates(perturbation.as_ref());
        let shipped = live.shipped.clone();
        let shared = live.shared;
        drop(campaigns);
        bump(&self.counters.leased, 1);
        self.log_unit(&campaign, &unit_id, UnitEvent::Leased);
        Ok(Some(WorkUnit {
            campaign,
            lease: Lease {
                unit: unit_id,
                token,
            },
            lease_duration: self.lease,
            first_pair: first,
            pair_count: u32::try_from(count).unwrap_or(u32::MAX),
            config,
            shipped,
            filled,
            shared,
        }))
    }

    /// The unit of `lease` as the worker `key` finds it: held only under
    /// the very lease issued to it (never under the empty lease of a unit
    /// given back).
    pub(super) fn held_unit(
        &self,
        key: &WorkerKey,
        lease: &Lease,
    ) -> Result<HeldUnit, CoordinatorError> {
        let unit = &lease.unit;
        let db = self.db();
        Self::worker_row(&db, key)?;
        units::held(&db, unit, &lease.token, &key.id)?
            .ok_or_else(|| LeaseError::UnknownUnit(unit.clone()).into())
    }

    /// Extends a lease by the coordinator's lease time, which it returns:
    /// the worker times its next renewal from that duration, never from
    /// the deadline, as the two machines' clocks need not agree.
    ///
    /// # Errors
    /// `NotFound`; `FailedPrecondition` if the lease is no longer this worker's.
    pub fn renew(&self, key: &WorkerKey, lease: &Lease) -> Result<Duration, CoordinatorError> {
        let unit = &lease.unit;
        let held = self.held_unit(key, lease)?;
        if !held.held || held.done {
            return Err(LeaseError::Lost(unit.clone()).into());
        }
        let deadline = now_ms() + self.lease_ms();
        units::renew(&self.db(), unit, deadline)?;
        Ok(self.lease)
    }

    /// The lease time, milliseconds.
    fn lease_ms(&self) -> i64 {
        i64::try_from(self.lease.as_millis()).unwrap_or(i64::MAX / 2)
    }

    /// Gives a unit back.
    ///
    /// # Errors
    /// `NotFound`; `FailedPrecondition` if it is not this worker's.
    pub fn release(&self, key: &WorkerKey, lease: &Lease) -> Result<(), CoordinatorError> {
        let unit = &lease.unit;
        let held = self.held_unit(key, lease)?;
        if !held.held || held.done {
            return Err(LeaseError::NotHeld(unit.clone()).into());
        }
        units::release(&self.db(), unit)?;
        Ok(())
    }

    /// Gives back a unit whose engine `worker` cannot start (`reason`):
    /// nothing of it is counted, and `worker` gets no more units of its
    /// campaign.
    ///
    /// # Errors
    /// As [`Coordinator::release`].
    pub fn release_failed(
        &self,
        key: &WorkerKey,
        lease: &Lease,
        reason: &str,
    ) -> Result<(), CoordinatorError> {
        let held = self.held_unit(key, lease)?;
        self.release(key, lease)?;
        let worker = &key.id;
        let reason: String = reason.chars().take(MAX_FAILURE_TEXT).collect();
        tracing::warn!(
            %worker,
            campaign = %held.campaign,
            "cannot start an engine: {reason}"
        );
        workers::record_failure(&self.db(), &held.campaign, worker, &reason, now_ms())?;
        self.changed();
        Ok(())
    }

    /// The workers that cannot start an engine of `campaign`, with why.
    ///
    /// # Errors
    /// Storage failure.
    pub fn engine_failures(
        &self,
        campaign: &CampaignId,
    ) -> Result<Vec<EngineFailure>, CoordinatorError> {
        Ok(workers::failures(&self.reader(), campaign)?)
    }

    /// Registered workers, in the order they registered.
    ///
    /// # Errors
    /// Storage failure.
    pub fn workers(&self) -> Result<Vec<WorkerInfo>, CoordinatorError> {
        Ok(workers::all(&self.reader())?)
    }

    /// Units by state (leased, free, done).
    ///
    /// # Errors
    /// Storage failure.
    pub fn unit_states(&self) -> Result<Vec<UnitCount>, CoordinatorError> {
        Ok(units::counts(&self.reader())?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sizing(pairs_per_minute: f64, spsa: bool, pairs_total: i64, next_pair: i64) -> UnitSizing {
        UnitSizing {
            pairs_per_minute,
            cores: 4,
            duration: Duration::from_secs(180),
            spsa,
            pairs_total,
            next_pair,
        }
    }

    #[test]
    fn a_unit_is_the_duration_of_play_at_the_worker_s_pace() {
        // 10 pairs a minute for 3 minutes, spread ±20%.
        let s = sizing(10.0, false, 100_000, 0);
        assert_eq!(s.pairs(0), 24);
        assert_eq!(s.pairs(255), 36);
        assert!((24..=36).contains(&s.pairs(128)));
    }

    #[test]
    fn a_unit_has_a_pair_per_core_and_at_most_a_tenth_of_the_campaign() {
        assert_eq!(sizing(0.0, false, 100_000, 0).pairs(128), 4);
        assert_eq!(sizing(1_000.0, false, 1_000, 0).pairs(128), 100);
        assert_eq!(sizing(1_000.0, false, 100_000, 0).pairs(128), 500);
    }

    #[test]
    fn an_spsa_unit_is_at_most_a_two_hundredth_of_the_tune() {
        assert_eq!(sizing(1_000.0, true, 20_000, 0).pairs(128), 100);
        assert_eq!(sizing(1_000.0, true, 200, 0).pairs(128), 4);
    }

    #[test]
    fn a_unit_never_runs_past_the_last_pair() {
        assert_eq!(sizing(10.0, false, 1_000, 990).pairs(128), 10);
        assert_eq!(sizing(10.0, false, 1_000, 999).pairs(255), 1);
    }

    #[test]
    fn the_least_served_campaign_per_priority_goes_first() {
        let candidate = |priority, free_units, next_pair, pairs_out| LeaseCandidate {
            id: CampaignId::new("c").unwrap(),
            priority,
            pairs_total: 100,
            next_pair,
            free_units,
            pairs_out,
        };
        assert!(has_work(&candidate(1, 0, 50, 50)));
        assert!(has_work(&candidate(1, 1, 100, 90)));
        assert!(!has_work(&candidate(1, 0, 100, 100)));
        assert!(share(&candidate(2, 0, 50, 50)) < share(&candidate(1, 0, 40, 40)));
        assert!(share(&candidate(0, 0, 50, 50)) == share(&candidate(1, 0, 50, 50)));
    }
}
