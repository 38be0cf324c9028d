//! The coordinator's errors, one enum per domain: operators' campaign
//! requests, workers' leases, workers' submissions, and the coordinator's
//! own storage. `service` maps them to gRPC status codes, in one place.

use super::CampaignState;
use super::validate::Rejection;
use crate::ids::{CampaignId, UnitId, WorkerId};
use ajaxlab_arena::ConfigError;
use ajaxlab_proto::convert::WireError;
use ajaxlab_stats::SpsaError;
use ajaxlab_store::StoreError;
use std::path::PathBuf;

/// A request the coordinator refuses, or a failure of its own.
#[derive(Debug, thiserror::Error)]
pub enum CoordinatorError {
    /// An operator's request about a campaign.
    #[error(transparent)]
    Campaign(#[from] CampaignError),
    /// A worker's request about a lease.
    #[error(transparent)]
    Lease(#[from] LeaseError),
    /// A worker's submission of games.
    #[error(transparent)]
    Submission(#[from] SubmissionError),
    /// The coordinator's own state.
    #[error("storage: {0}")]
    Storage(#[from] StorageError),
}

/// An operator's campaign request that cannot be done.
#[derive(Debug, thiserror::Error)]
pub enum CampaignError {
    /// The campaign file is not valid (the error names the key).
    #[error(transparent)]
    File(#[from] ConfigError),
    /// A campaign of that name exists.
    #[error("campaign '{0}' exists")]
    Exists(CampaignId),
    /// No campaign of that name.
    #[error("no campaign '{0}'")]
    Unknown(CampaignId),
    /// The campaign is over (finished or stopped): it cannot change state.
    #[error("campaign '{id}' is {state}")]
    Over {
        /// The campaign.
        id: CampaignId,
        /// Where it ended.
        state: CampaignState,
    },
    /// A worker cannot be counted out of an SPSA tune.
    #[error(
        "campaign '{0}' is an SPSA tune: its updates cannot be taken back; stop it and start a new one"
    )]
    SpsaExclusion(CampaignId),
    /// The campaign cannot be given the file it was run again with.
    #[error("campaign '{id}' cannot be extended: {reason}")]
    NotExtended {
        /// The campaign.
        id: CampaignId,
        /// Why.
        reason: String,
    },
    /// The campaign could not be rebuilt at start-up (a captured input
    /// missing or changed), and still cannot: it stays paused.
    #[error("campaign '{id}' cannot run: {reason}")]
    Unloaded {
        /// The campaign.
        id: CampaignId,
        /// Why it cannot be rebuilt.
        reason: String,
    },
}

/// A worker's lease request that cannot be done.
#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    /// The worker never registered (or registered with another coordinator).
    #[error("unknown worker '{0}'; register first")]
    UnknownWorker(WorkerId),
    /// No unit of that id.
    #[error("unknown unit '{0}'")]
    UnknownUnit(UnitId),
    /// The lease expired and passed to another worker.
    #[error("unit '{0}' is no longer leased to this worker")]
    Lost(UnitId),
    /// The worker does not hold the unit it gives back.
    #[error("unit '{0}' is not leased to this worker")]
    NotHeld(UnitId),
    /// One token registered more workers in the last minute than
    /// [`super::leases::REGISTRATIONS_PER_MINUTE`].
    #[error(
        "this token registered {} workers in the last minute: wait and register again",
        super::leases::REGISTRATIONS_PER_MINUTE
    )]
    TooManyRegistrations,
    /// A worker's name or version that is not printable text of at most
    /// [`ajaxlab_arena::names::MAX_NAME_CHARS`] characters.
    #[error("{key}: {problem}")]
    BadName {
        /// Which (`worker name`, `worker version`).
        key: &'static str,
        /// What is wrong with it.
        problem: ajaxlab_arena::names::NameError,
    },
}

/// A submission that is refused, and nothing of it is counted.
#[derive(Debug, thiserror::Error)]
pub enum SubmissionError {
    /// A game record does not make sense on the wire.
    #[error(transparent)]
    Wire(#[from] WireError),
    /// The games do not follow from the unit (validation).
    #[error("unit {unit} rejected: {rejection}")]
    Rejected {
        /// The unit.
        unit: UnitId,
        /// The first game that is wrong, and why.
        rejection: Rejection,
    },
}

/// A failure of the coordinator's own state: its database, its files, or
/// what they hold.
#[derive(Debug, thiserror::Error)]
pub enum StorageError {
    /// SQLite.
    #[error("{0}")]
    Database(#[from] rusqlite::Error),
    /// The database file cannot be opened (or migrated).
    #[error("{}: {source}", path.display())]
    OpenDatabase {
        /// The database file.
        path: PathBuf,
        /// SQLite's reason.
        source: rusqlite::Error,
    },
    /// A file or directory of the state directory.
    #[error("{}: {source}", path.display())]
    File {
        /// The path.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The state directory cannot be written to.
    #[error("state directory {} cannot be written to: {source}", dir.display())]
    NotWritable {
        /// The directory.
        dir: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// Another coordinator runs on the state directory.
    #[error("state directory {} is in use by another coordinator ({}); stop it first, or give this one a directory of its own", dir.display(), pid.map_or_else(|| "pid unknown".to_owned(), |p| format!("pid {p}")))]
    InUse {
        /// The directory.
        dir: PathBuf,
        /// The holder's process id, as its lock file says.
        pid: Option<u32>,
    },
    /// A games file.
    #[error(transparent)]
    Games(#[from] StoreError),
    /// A datagen unit's games that do not replay into training positions.
    #[error("{}: training positions: {source}", path.display())]
    Positions {
        /// The positions file.
        path: PathBuf,
        /// The game and move that do not replay.
        source: ajaxlab_store::positions::ReplayError,
    },
    /// The store of engine artifacts.
    #[error(transparent)]
    Artifacts(#[from] crate::artifacts::ArtifactError),
    /// A campaign in the database that is not loaded in memory.
    #[error("campaign {0} not loaded")]
    NotLoaded(CampaignId),
    /// A stored campaign that cannot be rebuilt from its stored file.
    #[error("campaign '{id}': {reason}")]
    Campaign {
        /// The campaign.
        id: CampaignId,
        /// Why.
        reason: String,
    },
    /// A stored SPSA state (a unit's perturbation, θ history) that does not read.
    #[error("spsa history: {0}")]
    Spsa(String),
    /// An SPSA update refused by the tuner for a unit.
    #[error("unit {unit}: {source}")]
    SpsaUpdate {
        /// The unit.
        unit: UnitId,
        /// The tuner's reason.
        source: SpsaError,
    },
    /// The system's randomness for tokens.
    #[error("reading /dev/urandom: {0}")]
    Randomness(std::io::Error),
}

impl From<rusqlite::Error> for CoordinatorError {
    fn from(e: rusqlite::Error) -> Self {
        CoordinatorError::Storage(StorageError::Database(e))
    }
}

impl From<StoreError> for CoordinatorError {
    fn from(e: StoreError) -> Self {
        CoordinatorError::Storage(StorageError::Games(e))
    }
}

/// `StorageError::File` for `path`, as a closure for `map_err`.
pub(super) fn file_error(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> StorageError {
    let path = path.into();
    move |source| StorageError::File { path, source }
}
