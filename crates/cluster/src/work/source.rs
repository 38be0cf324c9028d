//! Where a worker gets its work: a coordinator across the network
//! (`worker::grpc::GrpcSource`) or one in this very process
//! (`coordinator::in_process::InProcessSource`, `ajaxlab campaign run`).
//! The worker plays the same way from either; only the source speaks to
//! the coordinator, in the domain's types.

use super::unit::WorkUnit;
use super::{Lease, Submitted};
use crate::artifacts::{ArtifactError, ArtifactHash};
use crate::ids::WorkerId;
use ajaxlab_store::GameRecord;
use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

/// What a worker tells the coordinator about itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Registration {
    /// Its name on the web UI.
    pub name: String,
    /// Its build's version.
    pub version: String,
    /// Games it plays at once.
    pub cores: u32,
    /// Its builtin engine's bench signature.
    pub signature: u64,
}

/// What the coordinator has for a worker that asks.
#[derive(Debug)]
pub enum Offer {
    /// A unit to play.
    Unit(Box<WorkUnit>),
    /// Nothing now: ask again after this long.
    Wait(Duration),
}

/// Why a request to the source did not get its answer.
#[derive(Debug, thiserror::Error)]
pub enum SourceError {
    /// The coordinator cannot be reached or is overloaded now: wait, then
    /// register again.
    #[error("the coordinator is unavailable: {0}")]
    Unavailable(String),
    /// The coordinator does not know this worker (restarted, or it forgot
    /// it): register again.
    #[error("the coordinator does not know this worker: {0}")]
    UnknownWorker(String),
    /// The lease passed to another worker: stop playing the unit.
    #[error("the lease is no longer this worker's")]
    LeaseLost,
    /// The coordinator refuses this worker for good (a bad token, another
    /// protocol version).
    #[error("{0}")]
    Refused(String),
    /// A request the coordinator turned down (a refused submission).
    #[error("{0}")]
    Declined(String),
}

/// A coordinator as a worker uses it: register, lease a unit, renew the
/// lease while playing, submit the unit's games or give it back; and the
/// files a unit's players ship with, by hash.
pub trait WorkSource: Send {
    /// Registers this worker; the id it is known by.
    fn register(
        &mut self,
        me: &Registration,
    ) -> impl Future<Output = Result<WorkerId, SourceError>> + Send;

    /// A unit for `worker`, or how long to wait for one.
    fn lease(
        &mut self,
        worker: &WorkerId,
    ) -> impl Future<Output = Result<Offer, SourceError>> + Send;

    /// Extends `lease`; the time to the next renewal is timed from the
    /// lease time it returns.
    fn renew(
        &mut self,
        worker: &WorkerId,
        lease: &Lease,
    ) -> impl Future<Output = Result<Duration, SourceError>> + Send;

    /// Submits every game of the unit leased under `lease`.
    fn submit(
        &mut self,
        worker: &WorkerId,
        lease: &Lease,
        games: &[GameRecord],
    ) -> impl Future<Output = Result<Submitted, SourceError>> + Send;

    /// Gives the unit of `lease` back unplayed; with `failure`, as one this
    /// worker cannot play (it gets no more units of the campaign). Failing
    /// to, it logs why: the lease lapses in time anyway.
    fn release(
        &mut self,
        worker: &WorkerId,
        lease: &Lease,
        failure: Option<&str>,
    ) -> impl Future<Output = ()> + Send;

    /// A local file holding the artifact `hash` (fetched into the worker's
    /// cache if need be).
    fn artifact(
        &mut self,
        hash: ArtifactHash,
    ) -> impl Future<Output = Result<PathBuf, ArtifactError>> + Send;
}

impl From<tonic::Status> for SourceError {
    /// The one reading of the coordinator's answers, as its gRPC service
    /// codes them (an in-process source reads its errors the same way).
    fn from(status: tonic::Status) -> SourceError {
        let message = status.message().to_owned();
        match status.code() {
            tonic::Code::Unavailable
            | tonic::Code::DeadlineExceeded
            | tonic::Code::Internal
            | tonic::Code::Unknown
            | tonic::Code::ResourceExhausted
            | tonic::Code::Aborted
            // An answer too large to decode: one unit's trouble, not the
            // worker's end (it is asked again after a pause).
            | tonic::Code::OutOfRange => SourceError::Unavailable(message),
            tonic::Code::NotFound => SourceError::UnknownWorker(message),
            tonic::Code::FailedPrecondition => SourceError::LeaseLost,
            tonic::Code::InvalidArgument => SourceError::Declined(message),
            _ => SourceError::Refused(message),
        }
    }
}
