//! One submission per unit at a time: a worker that retries while its
//! first attempt is still being validated, or two workers holding one unit
//! across an expired lease, must not write the unit's file twice or count
//! it twice. A submission claims its unit first; a second one finds the
//! claim and is answered as a duplicate.

use crate::ids::UnitId;
use std::collections::HashSet;
use std::sync::Mutex;

/// The units whose submissions are being processed now.
#[derive(Debug, Default)]
pub(super) struct SubmissionClaims(Mutex<HashSet<UnitId>>);

/// A unit claimed for one submission; the claim ends when this is dropped,
/// however the submission ends.
pub(super) struct Claim<'a> {
    claims: &'a SubmissionClaims,
    unit: UnitId,
}

impl SubmissionClaims {
    /// Claims `unit`, or `None` if another submission of it is in progress.
    pub(super) fn claim(&self, unit: &UnitId) -> Option<Claim<'_>> {
        let fresh = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(unit.clone());
        fresh.then(|| Claim {
            claims: self,
            unit: unit.clone(),
        })
    }
}

impl Drop for Claim<'_> {
    fn drop(&mut self) {
        self.claims
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&self.unit);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_unit_is_claimed_once_until_its_claim_ends() {
        let claims = SubmissionClaims::default();
        let (u0, u1): (UnitId, UnitId) = ("u-0".parse().unwrap(), "u-1".parse().unwrap());
        let first = claims.claim(&u0);
        assert!(first.is_some());
        assert!(claims.claim(&u0).is_none(), "a second claim waits its turn");
        assert!(claims.claim(&u1).is_some(), "other units are free");
        drop(first);
        assert!(claims.claim(&u0).is_some());
    }
}
