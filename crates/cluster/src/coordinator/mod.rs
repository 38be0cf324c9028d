//! The coordinator's state: campaigns, work units with leases, workers and
//! tokens, kept in SQLite so that a coordinator killed at any moment resumes
//! exactly. No tonic here: the gRPC services are thin adapters over it.
//!
//! Exactly-once: a unit's games are written to their own Parquet file
//! (atomically) before the database marks the unit done in one transaction;
//! on start-up a file without its "done" mark is counted then, so a crash
//! between the two neither loses nor double-counts a game.
//!
//! The tables and their typed queries are the store's
//! ([`ajaxlab_store::state`]); this module holds the policy over them.
//! One job per file: `tokens` (who may do what), `campaigns` (creating,
//! viewing and controlling campaigns), `leases` (workers, unit sizing,
//! leases), `counting` (submissions, exactly-once counting, SPSA
//! trajectories), `claims` (one submission of a unit at a time), `lock` (one coordinator per state directory), `exclude` (counting a worker out), [`operate`] (priority, re-admission, worker health), `shipping` (the
//! artifacts a campaign's UCI players come with), `pgn` (an ended
//! campaign's `games.pgn`), `verify` (the counted files checked), [`kinds`] (what each
//! campaign kind adds), [`validate`] (checks of submitted games).

mod activity;
mod campaigns;
mod claims;
mod counting;
mod error;
mod exclude;
pub mod extend;
pub mod in_process;
pub mod kinds;
mod leases;
mod lock;
pub mod operate;
pub mod outliers;
mod pgn;
mod play_totals;
mod positions;
pub mod serve;
mod shipping;
pub mod sprt_text;
mod spsa_final;
mod tokens;
pub mod validate;
mod verify;

pub use crate::work::{Lease, Submitted};
pub use ajaxlab_store::state::UnknownScope;
pub use ajaxlab_store::state::WorkerHealth;
pub use ajaxlab_store::state::{CampaignState, UnitState, UnknownCampaignState, UnknownUnitState};
pub use campaigns::{CampaignView, ParamValue, SprtView};
pub use counting::MAX_REJECTIONS;
pub use counting::SpsaStep;
pub use error::{CampaignError, CoordinatorError, LeaseError, StorageError, SubmissionError};
pub use leases::{
    EngineFailure, LeaseToken, MAX_FAILURE_TEXT, REGISTRATIONS_PER_MINUTE, UnitCount, WorkerInfo,
    WorkerKey,
};
pub use lock::LOCK_FILE;
pub use pgn::PGN_FILE;
pub use spsa_final::{FINAL_OPTIONS, FINAL_SPSA, FINAL_TOML};
pub use tokens::{Scope, TokenHash, TokenHolder, issue_token_in, random_hex};
pub use verify::{FileCheck, QuarantineOutcome, Quarantined, QuarantinedFile};

use crate::artifacts::{ArtifactStore, DEFAULT_ARTIFACT_LIMIT};
pub use crate::ids::{CampaignId, UnitId, WorkerId};
use ajaxlab_store::state::{self, schema};
use campaigns::restore_campaign;
use error::file_error;
use kinds::Live;
use rusqlite::Connection;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// Counters for the metrics endpoint.
#[derive(Debug, Default)]
pub struct Counters {
    /// Units validated, stored and counted.
    pub accepted: std::sync::atomic::AtomicU64,
    /// Units refused by validation.
    pub rejected: std::sync::atomic::AtomicU64,
    /// Submissions of units already counted.
    pub duplicate: std::sync::atomic::AtomicU64,
    /// Submissions under a lease that had passed to another worker.
    pub stale: std::sync::atomic::AtomicU64,
    /// Leases that expired and went back to the pool.
    pub expired: std::sync::atomic::AtomicU64,
    /// Units leased.
    pub leased: std::sync::atomic::AtomicU64,
    /// Games stored.
    pub games: std::sync::atomic::AtomicU64,
    /// Training positions written (datagen campaigns).
    pub positions: std::sync::atomic::AtomicU64,
}

/// The coordinator.
pub struct Coordinator {
    /// Event counters (metrics).
    pub counters: Counters,
    db: Mutex<Connection>,
    /// A second connection, for what is only read and may wait a moment:
    /// the web UI's pages and the operator's queries ([`schema::open_reader`]).
    reader: Mutex<Connection>,
    dir: PathBuf,
    lease: Duration,
    signature: u64,
    campaigns: Mutex<HashMap<CampaignId, Live>>,
    /// Campaigns that could not be rebuilt at start-up (a captured input
    /// missing or changed), with why: paused, and rebuilt when resumed.
    unloaded: Mutex<HashMap<CampaignId, String>>,
    tokens: Mutex<HashMap<TokenHash, Scope>>,
    changes: tokio::sync::watch::Sender<u64>,
    /// How much play a new unit is sized to, at the asking worker's rate.
    unit_duration: Duration,
    /// When each SPSA campaign's trajectory file was last written; held
    /// while writing, so that one file is written at a time.
    trajectories: Mutex<HashMap<CampaignId, std::time::Instant>>,
    /// Engine binaries and the files they read, by SHA-256.
    artifacts: ArtifactStore,
    /// Units whose submissions are being processed now.
    submitting: claims::SubmissionClaims,
    /// How each token's counted games went, per campaign.
    play_totals: play_totals::PlayTotals,
    /// Units leased and counted since each campaign's last log line.
    activity: activity::Activity,
    /// This coordinator's hold on its state directory.
    _lock: ajaxlab_store::lock::DirectoryLock,
    /// What the start-up check of the games files found.
    startup_check: FileCheck,
}

/// How old an artifact no campaign uses must be before start-up removes it:
/// younger ones may be the uploads of a campaign being created.
pub const UNREFERENCED_ARTIFACT_AGE: Duration = Duration::from_secs(24 * 3600);

/// How much play a unit is sized to unless the operator says otherwise:
/// long enough that requests are rare, short enough that progress shows.
pub const DEFAULT_UNIT_DURATION: Duration = Duration::from_secs(180);

/// Unix time in milliseconds.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

impl Coordinator {
    /// Opens (or creates) the state in `dir` and reconciles it: units whose
    /// games are on disk but not yet counted are counted now.
    ///
    /// # Errors
    /// [`CoordinatorError::Storage`] if the state cannot be opened.
    pub fn open(
        dir: &Path,
        lease: Duration,
        signature: u64,
    ) -> Result<Coordinator, CoordinatorError> {
        std::fs::create_dir_all(dir).map_err(file_error(dir))?;
        // SQLite says only "unable to open database file" of a directory it
        // cannot write to: try writing first, for an error with the reason.
        let probe = dir.join(".write-probe");
        std::fs::write(&probe, b"")
            .and_then(|()| std::fs::remove_file(&probe))
            .map_err(|e| StorageError::NotWritable {
                dir: dir.to_owned(),
                source: e,
            })?;
        let lock = lock::take(dir)?;
        let db_path = dir.join(schema::DATABASE_FILE);
        let db = schema::open(&db_path).map_err(|source| StorageError::OpenDatabase {
            path: db_path.clone(),
            source,
        })?;
        let reader =
            schema::open_reader(&db_path).map_err(|source| StorageError::OpenDatabase {
                path: db_path.clone(),
                source,
            })?;
        // The database holds token hashes and every campaign's file; SQLite
        // gives its journal files the database's mode.
        owner_only(&db_path, 0o600)?;
        let artifacts = ArtifactStore::open(&dir.join("artifacts"), DEFAULT_ARTIFACT_LIMIT)
            .map_err(StorageError::from)?;
        owner_only(&dir.join("artifacts"), 0o700)?;
        let (changes, _) = tokio::sync::watch::channel(0);
        let mut c = Coordinator {
            counters: Counters::default(),
            db: Mutex::new(db),
            reader: Mutex::new(reader),
            dir: dir.to_owned(),
            lease,
            signature,
            campaigns: Mutex::new(HashMap::new()),
            unloaded: Mutex::new(HashMap::new()),
            tokens: Mutex::new(HashMap::new()),
            changes,
            trajectories: Mutex::new(HashMap::new()),
            unit_duration: DEFAULT_UNIT_DURATION,
            artifacts,
            submitting: claims::SubmissionClaims::default(),
            play_totals: play_totals::PlayTotals::default(),
            activity: activity::Activity::default(),
            _lock: lock,
            startup_check: FileCheck::default(),
        };
        schema::recount(&c.db(), None)?;
        c.load()?;
        let unreadable = c.reconcile()?;
        c.finish_interrupted_exclusions()?;
        let mut check = c.check_counted_files(verify::Depth::Size)?;
        check.quarantined.splice(0..0, unreadable);
        c.startup_check = check;
        let ids = c.loaded_ids();
        for id in &ids {
            c.write_spsa_trajectory(id, true)?;
        }
        c.write_missing_pgn(&ids)?;
        c.remove_unreferenced_artifacts()?;
        Ok(c)
    }

    /// Removes the artifacts no campaign ships or shares that are older
    /// than [`UNREFERENCED_ARTIFACT_AGE`]: what campaigns refused after
    /// their upload left behind.
    fn remove_unreferenced_artifacts(&self) -> Result<(), CoordinatorError> {
        let mut kept = std::collections::HashSet::new();
        {
            let db = self.db();
            for stored in state::campaigns::all(&db)? {
                let shipped = state::files::of(&db, state::FileSet::Shipped, &stored.id)?;
                kept.extend(
                    shipped
                        .iter()
                        .filter_map(|f| f.sha256.parse::<crate::artifacts::ArtifactHash>().ok()),
                );
            }
        }
        for live in self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .values()
        {
            kept.extend(
                [live.shared.variants, live.shared.fens]
                    .into_iter()
                    .flatten(),
            );
        }
        let removed = self
            .artifacts
            .remove_unreferenced(&kept, UNREFERENCED_ARTIFACT_AGE)
            .map_err(StorageError::from)?;
        if !removed.is_empty() {
            tracing::warn!(
                "removed {} artifacts no campaign uses (uploads of refused campaigns)",
                removed.len()
            );
        }
        Ok(())
    }

    /// The ids of the campaigns rebuilt and running here.
    fn loaded_ids(&self) -> Vec<CampaignId> {
        self.campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keys()
            .cloned()
            .collect()
    }

    pub(super) fn unloaded_lock(&self) -> MutexGuard<'_, HashMap<CampaignId, String>> {
        self.unloaded
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The campaigns that could not be rebuilt at start-up, paused, with why.
    pub fn unloaded_campaigns(&self) -> Vec<(CampaignId, String)> {
        let mut list: Vec<(CampaignId, String)> = self
            .unloaded_lock()
            .iter()
            .map(|(id, why)| (id.clone(), why.clone()))
            .collect();
        list.sort();
        list
    }

    fn db(&self) -> MutexGuard<'_, Connection> {
        self.db
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The reading connection: for what the web UI and the operator's
    /// queries read, never for a read that a write then relies on.
    fn reader(&self) -> MutexGuard<'_, Connection> {
        self.reader
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Rebuilds every stored campaign. One that cannot be rebuilt (a
    /// captured input missing or changed) is paused and set aside with the
    /// reason, never stopping the coordinator and the other campaigns.
    fn load(&self) -> Result<(), CoordinatorError> {
        let db = self.db();
        let mut campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for stored in state::campaigns::all(&db)? {
            match restore_campaign(
                &db,
                &stored.id,
                &stored.config_toml,
                &self.inputs_dir(),
                &self.artifacts,
            ) {
                Ok(live) => {
                    campaigns.insert(stored.id, live);
                }
                Err(e) => {
                    state::campaigns::change_state(
                        &db,
                        &stored.id,
                        CampaignState::Running,
                        CampaignState::Paused,
                    )?;
                    tracing::warn!("campaign '{}' paused: {e}", stored.id);
                    self.unloaded_lock().insert(stored.id, e.to_string());
                }
            }
        }
        let mut tokens = self
            .tokens
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for token in state::tokens::all(&db)? {
            tokens.insert(token.hash, token.scope);
        }
        Ok(())
    }

    fn unit_file(&self, campaign: &CampaignId, unit: &UnitId) -> PathBuf {
        self.dir
            .join("campaigns")
            .join(campaign.as_str())
            .join(format!("unit-{unit}.parquet"))
    }

    /// Directory of the copies of the files campaigns name (opening lists,
    /// books, parameter files), each named by its SHA-256.
    fn inputs_dir(&self) -> PathBuf {
        self.dir.join("inputs")
    }

    /// Directory of a campaign's game files.
    pub fn campaign_dir(&self, campaign: &CampaignId) -> PathBuf {
        self.dir.join("campaigns").join(campaign.as_str())
    }

    /// The engine signature (bench node count) of the builds it gives
    /// units to.
    pub fn signature(&self) -> u64 {
        self.signature
    }

    /// The artifact store (`STATE_DIR/artifacts`).
    pub fn artifacts(&self) -> &ArtifactStore {
        &self.artifacts
    }

    /// Sets the largest artifact taken, bytes (before serving).
    pub fn set_artifact_limit(&mut self, bytes: u64) {
        self.artifacts.set_limit(bytes);
    }

    /// A receiver that changes whenever a campaign makes progress.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changes.subscribe()
    }

    fn changed(&self) {
        self.changes.send_modify(|n| *n += 1);
    }
}

/// Sets `path`'s mode to `mode` (owner-only: `0o600` for a file, `0o700`
/// for a directory), so that no other user of the host reads it.
fn owner_only(path: &Path, mode: u32) -> Result<(), StorageError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).map_err(file_error(path))
}

fn bump(counter: &std::sync::atomic::AtomicU64, n: u64) {
    counter.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
}
