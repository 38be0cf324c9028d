//! The coordinator's durable state, in SQLite: one file
//! ([`schema::DATABASE_FILE`]) in its state directory, so that a
//! coordinator killed at any moment resumes exactly. This is the typed
//! API over its tables: records in, records out, every stored id and
//! name read back through its checked constructor ([`row`]). The
//! coordinator's policy (which campaign a worker gets, when a campaign is
//! decided) is not here; what it stores and reads is.
//!
//! One module per table or group of tables: [`schema`] (the tables, and
//! the columns added since the first schema), [`campaigns`], [`files`]
//! (what a campaign reads and ships), [`units`] (leases, their expiry,
//! renewal and release, counting, in-flight SPSA perturbations; a unit's
//! [`UnitState`]), [`results`] (the counted units' pair results and games
//! files), [`exclusions`] (workers and tokens excluded from a campaign),
//! [`rejections`] (refused submissions), [`spsa_history`] (an SPSA tune's
//! updates), [`tokens`] and [`workers`] (registrations, and engines they
//! cannot start).
//!
//! Functions take a [`rusqlite::Connection`], so that a transaction (which
//! is one) groups them, and return SQLite's errors; a stored value that
//! does not read is one of them, carrying a [`RowError`].

pub mod campaigns;
pub mod exclusions;
pub mod files;
pub mod rejections;
pub mod results;
pub mod row;
pub mod schema;
pub mod spsa_history;
pub mod starts;
pub mod tokens;
mod unit_state;
pub mod units;
pub mod workers;

pub use campaigns::{
    BuildGate, CampaignRecord, CampaignState, NewCampaign, Progress, StoredCampaign, UnitCounts,
    UnknownCampaignState,
};
pub use exclusions::{CountedUnit, Exclusion};
pub use files::{FileSet, Input};
pub use results::{CountedFile, CountedResult, GamesFileRecord, UnitPlay};
pub use row::RowError;
pub use spsa_history::SpsaSnapshot;
pub use tokens::{Scope, StoredToken, TokenHash, TokenHolder, UnknownScope};
pub use unit_state::{UnitState, UnknownUnitState};
pub use units::{
    FreeUnit, HeldUnit, LeaseCandidate, LeaseGrant, NewUnit, PendingUnit, UnitCount, UnitStatus,
};
pub use workers::{EngineFailure, NewWorker, WorkerHealth, WorkerInfo, WorkerPace};
