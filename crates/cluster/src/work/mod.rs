//! What the coordinator and its workers agree on, whichever side of the
//! wire they are: the unit of work and its lease, how a submission came
//! out, the bench signature that says which builds may play a campaign of
//! the builtin engine, and the source a worker leases its units from.

pub mod source;
pub mod unit;

use crate::ids::{LeaseToken, UnitId, UnitIdError};
use ajaxlab_proto::v1;
use std::time::Duration;

/// The depth of the bench whose node count identifies an engine build.
pub const SIGNATURE_DEPTH: u32 = 6;

/// The builtin engine's determinism signature: the bench node count.
pub fn bench_signature() -> u64 {
    ajaxlab_engine::bench::run(&mut ajaxlab_engine::Engine::new(16), SIGNATURE_DEPTH).nodes
}

/// A lease as a worker holds it: the unit, and the token it was leased with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lease {
    /// The unit.
    pub unit: UnitId,
    /// The token issued with it.
    pub token: LeaseToken,
}

impl Lease {
    /// The lease of `unit` under `token`, as a request names them.
    pub fn new(unit: UnitId, token: impl Into<String>) -> Lease {
        Lease {
            unit,
            token: LeaseToken::new(token),
        }
    }

    /// The lease a work unit was issued with.
    ///
    /// # Errors
    /// [`UnitIdError`] if the unit's `unit_id` is no unit id.
    pub fn of(unit: &v1::WorkUnit) -> Result<Lease, UnitIdError> {
        Ok(Lease::new(unit.unit_id.parse()?, unit.lease_token.clone()))
    }
}

/// Outcome of a submission.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Submitted {
    /// Validated, stored and counted.
    Accepted,
    /// The unit was already counted: dropped.
    Duplicate,
    /// The lease had passed to another worker: dropped.
    Stale,
}

ajaxlab_proto::wire_enum!(Submitted, ajaxlab_proto::v1::SubmitStatus {
    Accepted <=> Accepted,
    Duplicate <=> Duplicate,
    Stale <=> Stale,
});

/// How long after a lease of `lease` was granted it is renewed: at a
/// third of it, so that two renewals may fail before it lapses.
pub fn renewal_interval(lease: Duration) -> Duration {
    (lease / 3).max(Duration::from_millis(200))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A worker whose clock is ten minutes behind the coordinator's once
    /// renewed every 203 s against a 10 s lease: the interval now comes from
    /// the lease's duration alone.
    #[test]
    fn a_lease_is_renewed_at_a_third_of_its_duration_whatever_the_clocks_say() {
        assert_eq!(
            renewal_interval(Duration::from_secs(10)),
            Duration::from_nanos(3_333_333_333)
        );
        assert_eq!(
            renewal_interval(Duration::from_secs(60)),
            Duration::from_secs(20)
        );
        assert_eq!(renewal_interval(Duration::ZERO), Duration::from_millis(200));
    }
}
