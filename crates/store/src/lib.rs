//! The store: every game ajaxlab plays as one typed [`GameRecord`], the
//! Parquet files that hold them, and the coordinator's durable state.
//!
//! - [`record`]: the record of one game and its vocabulary ([`Termination`],
//!   the result as [`ajaxlab_rules::GameResult`], the variant as
//!   [`ajaxlab_rules::Variant`], by name), converted from and to text here
//!   only.
//! - [`games`]: the games file's schema, [`write_games`] and [`read_games`].
//! - [`metadata`]: a games file's key-value metadata as one typed
//!   [`FileMetadata`], written and read by the same code.
//! - [`spsa`]: an SPSA campaign's trajectory file, `spsa.parquet`.
//! - [`ids`]: the ids of campaigns, units and workers, checked where they
//!   are read.
//! - `state` (feature `state`): the coordinator's durable state in SQLite,
//!   behind a typed API.
//! - [`atomic`]: the one way files (Parquet or text) are written (a temporary file, synced,
//!   then renamed), so that a reader never sees a partial file.
//!
//! The store knows no engine: a reader of results (the report, a
//! coordinator) needs nothing but this crate, the rules and the statistics.

pub mod atomic;
mod campaign_state;
mod error;
mod file_name;
pub mod find;
pub mod games;
pub mod ids;
pub mod lock;
pub mod metadata;
pub mod positions;
pub mod record;
pub mod spsa;
#[cfg(feature = "state")]
pub mod state;

pub use campaign_state::{CampaignState, UnknownCampaignState};

/// The coordinator's database, in its state directory (a match's run
/// directory too): its presence marks a directory that holds a run, games
/// stored or not.
pub const STATE_FILE: &str = "coordinator.sqlite3";
pub use error::StoreError;
pub use file_name::file_safe;
pub use games::{GamesFile, read_games, write_games};
pub use ids::{CampaignId, LeaseToken, UnitId, WorkerId};
pub use metadata::{
    FileMetadata, KindMetadata, PartMetadata, RunKind, SprtDesign, SprtMetadata, sha256_hex,
};
pub use record::{EngineOption, GameRecord, MoveRecord, PlayerRecord, Termination};
pub use spsa::{SPSA_FILE, TrajectoryRow, read_trajectory, write_trajectory};
