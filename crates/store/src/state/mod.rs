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
//! (what a campaign reads and ships), [`results`] (the counted units'
//! pair results), [`spsa_history`] (an SPSA tune's updates), [`tokens`]
//! and [`workers`] (registrations, and engines they cannot start).
//!
//! Not here yet: the `units`, `exclusions`, `excluded_tokens` and
//! `rejections` tables and the writing of `results` rows, whose queries
//! are still the coordinator's (`leases`, `counting`, `exclude`, `verify`).
//!
//! Functions take a [`rusqlite::Connection`], so that a transaction (which
//! is one) groups them, and return SQLite's errors; a stored value that
//! does not read is one of them, carrying a [`RowError`].

pub mod campaigns;
pub mod files;
pub mod results;
pub mod row;
pub mod schema;
pub mod spsa_history;
pub mod tokens;
pub mod workers;

pub use campaigns::{
    CampaignRecord, CampaignState, NewCampaign, Progress, StoredCampaign, UnknownCampaignState,
};
pub use files::{FileSet, Input};
pub use row::RowError;
pub use spsa_history::SpsaSnapshot;
pub use tokens::{Scope, StoredToken, TokenHash, UnknownScope};
pub use workers::{EngineFailure, NewWorker, WorkerInfo, WorkerPace};
