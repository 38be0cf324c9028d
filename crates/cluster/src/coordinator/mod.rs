//! The coordinator's state: campaigns, work units with leases, workers and
//! tokens, kept in SQLite so that a coordinator killed at any moment resumes
//! exactly. No tonic here: the gRPC services are thin adapters over it.
//!
//! Exactly-once: a unit's games are written to their own Parquet file
//! (atomically) before the database marks the unit done in one transaction;
//! on start-up a file without its "done" mark is counted then, so a crash
//! between the two neither loses nor double-counts a game.

pub mod outliers;
pub mod service;
pub mod validate;

use crate::campaign::{CampaignSpec, parse_campaign};
use crate::convert::{game_from_proto, work_unit};
use ajaxlab_arena::GameRecord;
use ajaxlab_arena::live::LiveStats;
use ajaxlab_arena::parquet_io::{read_games, write_games};
use ajaxlab_proto::v1;
use ajaxlab_stats::Pentanomial;
use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// What a token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Register, lease, play, submit.
    Worker,
    /// Create and control campaigns.
    Operator,
}

impl Scope {
    fn as_str(self) -> &'static str {
        match self {
            Scope::Worker => "worker",
            Scope::Operator => "operator",
        }
    }

    /// The scope named `text`.
    pub fn parse(text: &str) -> Option<Scope> {
        match text {
            "worker" => Some(Scope::Worker),
            "operator" => Some(Scope::Operator),
            _ => None,
        }
    }
}

/// A request the coordinator refuses, or a failure of its own.
#[derive(Debug, thiserror::Error)]
pub enum CoordinatorError {
    /// Malformed request.
    #[error("{0}")]
    InvalidArgument(String),
    /// Unknown campaign, unit or worker.
    #[error("{0}")]
    NotFound(String),
    /// The request cannot apply in the current state (lease, version, name taken).
    #[error("{0}")]
    FailedPrecondition(String),
    /// Storage failure.
    #[error("storage: {0}")]
    Internal(String),
}

impl From<rusqlite::Error> for CoordinatorError {
    fn from(e: rusqlite::Error) -> Self {
        CoordinatorError::Internal(e.to_string())
    }
}

/// Progress of a campaign.
#[derive(Clone, Debug, PartialEq)]
pub struct CampaignView {
    /// Id (its name).
    pub id: String,
    /// running, paused, stopped, finished.
    pub state: String,
    /// Priority.
    pub priority: u32,
    /// Pairs to play.
    pub pairs_total: u64,
    /// Pairs counted.
    pub pairs_done: u64,
    /// First player's pair results.
    pub pentanomial: Pentanomial,
}

impl CampaignView {
    /// The wire form.
    pub fn to_proto(&self) -> v1::Campaign {
        let (elo, elo_error) = self
            .pentanomial
            .elo()
            .map_or((0.0, 0.0), |e| (e.elo, e.interval.half_width()));
        v1::Campaign {
            campaign_id: self.id.clone(),
            name: self.id.clone(),
            state: self.state.clone(),
            priority: self.priority,
            pairs_total: self.pairs_total,
            pairs_done: self.pairs_done,
            pentanomial: self.pentanomial.0.to_vec(),
            elo,
            elo_error,
        }
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
}

/// The coordinator.
pub struct Coordinator {
    /// Event counters (metrics).
    pub counters: Counters,
    db: Mutex<Connection>,
    dir: PathBuf,
    lease: Duration,
    signature: u64,
    campaigns: Mutex<HashMap<String, CampaignSpec>>,
    tokens: Mutex<HashMap<String, Scope>>,
    changes: tokio::sync::watch::Sender<u64>,
}

/// Unix time in milliseconds.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// 32 random bytes as hex (tokens, lease tokens).
pub fn random_hex() -> String {
    let mut bytes = [0u8; 32];
    if std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .is_err()
    {
        // Fall back to the clock and the process id; unique, if not secret.
        let seed = now_ms().unsigned_abs() ^ u64::from(std::process::id()) << 32;
        bytes[..8].copy_from_slice(&seed.to_le_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn hash_token(token: &str) -> String {
    Sha256::digest(token.trim().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

const SCHEMA: &str = "
create table if not exists campaigns(
    id text primary key, config_toml text not null, state text not null, priority integer not null,
    pairs_total integer not null, next_pair integer not null, signature integer not null, created_ms integer not null);
create table if not exists units(
    id text primary key, campaign_id text not null, first_pair integer not null, pair_count integer not null,
    state text not null, lease_token text not null, worker_id text not null, deadline_ms integer not null,
    leased_ms integer not null, rejections integer not null default 0);
create table if not exists results(
    unit_id text primary key, campaign_id text not null, worker_id text not null,
    ll integer, ld integer, dd integer, wd integer, ww integer, done_ms integer not null default 0);
create table if not exists workers(
    id text primary key, name text not null, version text not null, cores integer not null,
    signature integer not null, registered_ms integer not null, pairs_per_minute real not null default 0);
create table if not exists tokens(hash text primary key, scope text not null, label text not null, created_ms integer not null);
";

impl Coordinator {
    /// Opens (or creates) the state in `dir` and reconciles it: units whose
    /// games are on disk but not yet counted are counted now.
    ///
    /// # Errors
    /// [`CoordinatorError::Internal`] if the state cannot be opened.
    pub fn open(
        dir: &Path,
        lease: Duration,
        signature: u64,
    ) -> Result<Coordinator, CoordinatorError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| CoordinatorError::Internal(format!("{}: {e}", dir.display())))?;
        let db = Connection::open(dir.join("coordinator.sqlite3"))?;
        db.execute_batch("pragma journal_mode = wal; pragma synchronous = full;")?;
        db.execute_batch(SCHEMA)?;
        let (changes, _) = tokio::sync::watch::channel(0);
        let c = Coordinator {
            counters: Counters::default(),
            db: Mutex::new(db),
            dir: dir.to_owned(),
            lease,
            signature,
            campaigns: Mutex::new(HashMap::new()),
            tokens: Mutex::new(HashMap::new()),
            changes,
        };
        c.load()?;
        c.reconcile()?;
        Ok(c)
    }

    fn db(&self) -> MutexGuard<'_, Connection> {
        self.db
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn load(&self) -> Result<(), CoordinatorError> {
        let db = self.db();
        let mut campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut stmt = db.prepare("select id, config_toml from campaigns")?;
        for row in stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))? {
            let (id, text) = row?;
            let spec = parse_campaign(&text)
                .map_err(|e| CoordinatorError::Internal(format!("campaign {id}: {e}")))?;
            campaigns.insert(id, spec);
        }
        let mut tokens = self
            .tokens
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut stmt = db.prepare("select hash, scope from tokens")?;
        for row in stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))? {
            let (hash, scope) = row?;
            if let Some(scope) = Scope::parse(&scope) {
                tokens.insert(hash, scope);
            }
        }
        Ok(())
    }

    fn unit_file(&self, campaign: &str, unit: &str) -> PathBuf {
        self.dir
            .join("campaigns")
            .join(campaign)
            .join(format!("unit-{unit}.parquet"))
    }

    /// Directory of a campaign's game files.
    pub fn campaign_dir(&self, campaign: &str) -> PathBuf {
        self.dir.join("campaigns").join(campaign)
    }

    fn reconcile(&self) -> Result<(), CoordinatorError> {
        let pending: Vec<(String, String, String)> = {
            let db = self.db();
            let mut stmt =
                db.prepare("select id, campaign_id, worker_id from units where state != 'done'")?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect::<Result<_, _>>()?
        };
        for (unit, campaign, worker) in pending {
            let file = self.unit_file(&campaign, &unit);
            if file.exists() {
                let (games, _) =
                    read_games(&file).map_err(|e| CoordinatorError::Internal(e.to_string()))?;
                self.count_unit(&campaign, &unit, &worker, &games)?;
            }
        }
        Ok(())
    }

    /// Stores a new token of `scope` (hashed) and returns it; shown once.
    ///
    /// # Errors
    /// Storage failure.
    pub fn issue_token(&self, scope: Scope, label: &str) -> Result<String, CoordinatorError> {
        let token = random_hex();
        let hash = hash_token(&token);
        self.db().execute(
            "insert into tokens values (?1, ?2, ?3, ?4)",
            params![hash, scope.as_str(), label, now_ms()],
        )?;
        self.tokens
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(hash, scope);
        Ok(token)
    }

    /// The scope of a presented token, if it is known.
    pub fn token_scope(&self, token: &str) -> Option<Scope> {
        self.tokens
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&hash_token(token))
            .copied()
    }

    /// A receiver that changes whenever a campaign makes progress.
    pub fn subscribe(&self) -> tokio::sync::watch::Receiver<u64> {
        self.changes.subscribe()
    }

    fn changed(&self) {
        self.changes.send_modify(|n| *n += 1);
    }

    // ---- operators ----

    /// Creates a campaign from its TOML file.
    ///
    /// # Errors
    /// `InvalidArgument` naming the bad key; `FailedPrecondition` if the name is taken.
    pub fn create_campaign(&self, toml_text: &str) -> Result<CampaignView, CoordinatorError> {
        let spec = parse_campaign(toml_text)
            .map_err(|e| CoordinatorError::InvalidArgument(e.to_string()))?;
        let id = spec.name.clone();
        {
            let db = self.db();
            let taken: Option<String> = db
                .query_row("select id from campaigns where id = ?1", [&id], |r| {
                    r.get(0)
                })
                .optional()?;
            if taken.is_some() {
                return Err(CoordinatorError::FailedPrecondition(format!(
                    "campaign '{id}' exists"
                )));
            }
            db.execute(
                "insert into campaigns values (?1, ?2, 'running', ?3, ?4, 0, ?5, ?6)",
                params![
                    id,
                    toml_text,
                    spec.priority,
                    spec.config.pairs as i64,
                    self.signature as i64,
                    now_ms()
                ],
            )?;
        }
        std::fs::create_dir_all(self.campaign_dir(&id))
            .map_err(|e| CoordinatorError::Internal(e.to_string()))?;
        self.campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(id.clone(), spec);
        self.changed();
        self.campaign(&id)
    }

    /// A campaign's progress.
    ///
    /// # Errors
    /// `NotFound` for an unknown id.
    pub fn campaign(&self, id: &str) -> Result<CampaignView, CoordinatorError> {
        let db = self.db();
        let row = db
            .query_row(
                "select state, priority, pairs_total from campaigns where id = ?1",
                [id],
                |r| {
                    Ok((
                        r.get::<_, String>(0)?,
                        r.get::<_, u32>(1)?,
                        r.get::<_, i64>(2)?,
                    ))
                },
            )
            .optional()?
            .ok_or_else(|| CoordinatorError::NotFound(format!("no campaign '{id}'")))?;
        let penta = campaign_pentanomial(&db, id, None)?;
        Ok(CampaignView {
            id: id.to_owned(),
            state: row.0,
            priority: row.1,
            pairs_total: row.2 as u64,
            pairs_done: penta.pairs(),
            pentanomial: penta,
        })
    }

    /// Every campaign.
    ///
    /// # Errors
    /// Storage failure.
    pub fn campaigns(&self) -> Result<Vec<CampaignView>, CoordinatorError> {
        let ids: Vec<String> = {
            let db = self.db();
            let mut stmt = db.prepare("select id from campaigns order by created_ms")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect::<Result<_, _>>()?
        };
        ids.iter().map(|id| self.campaign(id)).collect()
    }

    /// Pauses, resumes or stops a campaign.
    ///
    /// # Errors
    /// `NotFound`; `FailedPrecondition` for a finished or stopped campaign.
    pub fn set_campaign_state(
        &self,
        id: &str,
        state: &str,
    ) -> Result<CampaignView, CoordinatorError> {
        let current = self.campaign(id)?.state;
        if current == "finished" || current == "stopped" {
            return Err(CoordinatorError::FailedPrecondition(format!(
                "campaign '{id}' is {current}"
            )));
        }
        self.db().execute(
            "update campaigns set state = ?2 where id = ?1",
            params![id, state],
        )?;
        self.changed();
        self.campaign(id)
    }

    // ---- workers ----

    /// Registers a worker.
    ///
    /// # Errors
    /// Storage failure.
    pub fn register(
        &self,
        name: &str,
        version: &str,
        cores: u32,
        signature: u64,
    ) -> Result<String, CoordinatorError> {
        let id = format!("w-{}", &random_hex()[..12]);
        self.db().execute(
            "insert into workers (id, name, version, cores, signature, registered_ms) values (?1, ?2, ?3, ?4, ?5, ?6)",
            params![id, name, version, cores.max(1), signature as i64, now_ms()],
        )?;
        Ok(id)
    }

    /// Leases a unit to `worker`, or `None` if there is no work it may do now.
    ///
    /// # Errors
    /// `NotFound` for an unknown worker.
    pub fn request_work(&self, worker: &str) -> Result<Option<v1::WorkUnit>, CoordinatorError> {
        let now = now_ms();
        let deadline = now + i64::try_from(self.lease.as_millis()).unwrap_or(60_000);
        let db = self.db();
        let (cores, signature, rate): (u32, i64, f64) = db
            .query_row(
                "select cores, signature, pairs_per_minute from workers where id = ?1",
                [worker],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?
            .ok_or_else(|| {
                CoordinatorError::NotFound(format!("unknown worker '{worker}'; register first"))
            })?;
        // Expired leases go back to the pool.
        let expired = db.execute(
            "update units set state = 'free' where state = 'leased' and deadline_ms < ?1",
            [now],
        )?;
        bump(&self.counters.expired, expired as u64);
        // Running campaigns for this engine build, least served (per priority) first.
        let mut stmt = db.prepare(
            "select c.id, c.priority, c.pairs_total, c.next_pair,
                    (select count(*) from units u where u.campaign_id = c.id and u.state = 'free'),
                    (select coalesce(sum(pair_count), 0) from units u where u.campaign_id = c.id and u.state != 'free')
             from campaigns c where c.state = 'running' and c.signature = ?1",
        )?;
        let mut candidates: Vec<(String, u32, i64, i64, i64, i64)> = stmt
            .query_map([signature], |r| {
                Ok((
                    r.get(0)?,
                    r.get(1)?,
                    r.get(2)?,
                    r.get(3)?,
                    r.get(4)?,
                    r.get(5)?,
                ))
            })?
            .collect::<Result<_, _>>()?;
        drop(stmt);
        candidates.retain(|c| c.4 > 0 || c.3 < c.2);
        candidates.sort_by(|a, b| {
            let share = |c: &(String, u32, i64, i64, i64, i64)| c.5 as f64 / f64::from(c.1.max(1));
            share(a).total_cmp(&share(b)).then_with(|| a.0.cmp(&b.0))
        });
        let Some((campaign, _, total, next, free, _)) = candidates.into_iter().next() else {
            return Ok(None);
        };
        let token = random_hex();
        let (unit_id, first, count) = if free > 0 {
            let (id, first, count): (String, i64, i64) = db.query_row(
                "select id, first_pair, pair_count from units where campaign_id = ?1 and state = 'free' order by first_pair limit 1",
                [&campaign],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )?;
            db.execute(
                "update units set state = 'leased', lease_token = ?2, worker_id = ?3, deadline_ms = ?4, leased_ms = ?5 where id = ?1",
                params![id, token, worker, deadline, now],
            )?;
            (id, first, count)
        } else {
            // About three minutes of play for this worker, at least one pair
            // per core, and at most a tenth of the campaign so that progress
            // shows and other workers get a share.
            let wanted = (rate * 3.0).round().max(f64::from(cores)) as i64;
            let count = wanted.min((total + 9) / 10).clamp(1, 500).min(total - next);
            let id = format!("{campaign}-{next}");
            db.execute(
                "insert into units values (?1, ?2, ?3, ?4, 'leased', ?5, ?6, ?7, ?8, 0)",
                params![id, campaign, next, count, token, worker, deadline, now],
            )?;
            db.execute(
                "update campaigns set next_pair = ?2 where id = ?1",
                params![campaign, next + count],
            )?;
            (id, next, count)
        };
        drop(db);
        let campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let spec = campaigns
            .get(&campaign)
            .ok_or_else(|| CoordinatorError::Internal(format!("campaign {campaign} not loaded")))?;
        let count = u32::try_from(count).unwrap_or(u32::MAX);
        bump(&self.counters.leased, 1);
        Ok(Some(work_unit(
            &spec.config,
            &campaign,
            &unit_id,
            &token,
            deadline,
            first as u64,
            count,
        )))
    }

    fn held_unit(
        &self,
        worker: &str,
        unit: &str,
        token: &str,
    ) -> Result<(String, String, i64, i64, String), CoordinatorError> {
        let db = self.db();
        let row: Option<(String, String, String, i64, i64, String)> = db
            .query_row("select campaign_id, lease_token, worker_id, first_pair, pair_count, state from units where id = ?1", [unit], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
            })
            .optional()?;
        let (campaign, held_token, held_worker, first, count, state) =
            row.ok_or_else(|| CoordinatorError::NotFound(format!("unknown unit '{unit}'")))?;
        if held_token != token || held_worker != worker {
            return Ok((campaign, "stale".into(), first, count, state));
        }
        Ok((campaign, "held".into(), first, count, state))
    }

    /// Extends a lease.
    ///
    /// # Errors
    /// `NotFound`; `FailedPrecondition` if the lease is no longer this worker's.
    pub fn renew(&self, worker: &str, unit: &str, token: &str) -> Result<i64, CoordinatorError> {
        let (_, held, _, _, state) = self.held_unit(worker, unit, token)?;
        if held != "held" || state == "done" {
            return Err(CoordinatorError::FailedPrecondition(format!(
                "unit '{unit}' is no longer leased to this worker"
            )));
        }
        let deadline = now_ms() + i64::try_from(self.lease.as_millis()).unwrap_or(60_000);
        self.db().execute(
            "update units set deadline_ms = ?2, state = 'leased' where id = ?1",
            params![unit, deadline],
        )?;
        Ok(deadline)
    }

    /// Gives a unit back.
    ///
    /// # Errors
    /// `NotFound`; `FailedPrecondition` if it is not this worker's.
    pub fn release(&self, worker: &str, unit: &str, token: &str) -> Result<(), CoordinatorError> {
        let (_, held, _, _, state) = self.held_unit(worker, unit, token)?;
        if held != "held" || state == "done" {
            return Err(CoordinatorError::FailedPrecondition(format!(
                "unit '{unit}' is not leased to this worker"
            )));
        }
        self.db()
            .execute("update units set state = 'free' where id = ?1", [unit])?;
        Ok(())
    }

    /// Validates, stores and counts the games of a unit, exactly once.
    ///
    /// # Errors
    /// `NotFound` for an unknown unit; `InvalidArgument` with the reason if a
    /// game does not hold up (nothing of the unit is stored).
    pub fn submit(
        &self,
        worker: &str,
        unit: &str,
        token: &str,
        games: &[v1::GameRecord],
    ) -> Result<Submitted, CoordinatorError> {
        let (campaign, held, first, count, state) = self.held_unit(worker, unit, token)?;
        if state == "done" {
            bump(&self.counters.duplicate, 1);
            return Ok(Submitted::Duplicate);
        }
        if held != "held" {
            bump(&self.counters.stale, 1);
            return Ok(Submitted::Stale);
        }
        let config = {
            let campaigns = self
                .campaigns
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            campaigns
                .get(&campaign)
                .map(|s| s.config.clone())
                .ok_or_else(|| {
                    CoordinatorError::Internal(format!("campaign {campaign} not loaded"))
                })?
        };
        let records: Vec<GameRecord> = games
            .iter()
            .enumerate()
            .map(|(i, g)| game_from_proto(g, &config.run_id, config.variant, i))
            .collect::<Result<_, _>>()
            .map_err(|e| CoordinatorError::InvalidArgument(e.to_string()))?;
        if let Err(e) = validate::validate_unit(&config, first as u64, count as u64, &records) {
            bump(&self.counters.rejected, 1);
            self.note_rejection(&campaign, unit)?;
            return Err(CoordinatorError::InvalidArgument(format!(
                "unit {unit} rejected: {e}"
            )));
        }
        let mut sorted = records;
        sorted.sort_by_key(|g| g.game_id);
        let names: Vec<&str> = ajaxlab_engine::params::SPECS
            .iter()
            .map(|s| s.name)
            .collect();
        let file = self.unit_file(&campaign, unit);
        write_games(&file, &sorted, &names)
            .map_err(|e| CoordinatorError::Internal(e.to_string()))?;
        self.count_unit(&campaign, unit, worker, &sorted)?;
        bump(&self.counters.accepted, 1);
        bump(&self.counters.games, sorted.len() as u64);
        Ok(Submitted::Accepted)
    }

    /// A refused unit goes back to the pool; refused three times (a worker
    /// build that disagrees with this one, or a bug), its campaign is paused
    /// for an operator to look at rather than replayed forever.
    fn note_rejection(&self, campaign: &str, unit: &str) -> Result<(), CoordinatorError> {
        let db = self.db();
        db.execute(
            "update units set state = 'free', rejections = rejections + 1 where id = ?1",
            [unit],
        )?;
        let rejections: i64 =
            db.query_row("select rejections from units where id = ?1", [unit], |r| {
                r.get(0)
            })?;
        if rejections >= 3 {
            db.execute(
                "update campaigns set state = 'paused' where id = ?1 and state = 'running'",
                [campaign],
            )?;
            eprintln!(
                "coordinator: unit {unit} refused {rejections} times; campaign {campaign} paused"
            );
        }
        Ok(())
    }

    /// Marks a unit done and adds its pairs to the campaign, in one transaction.
    fn count_unit(
        &self,
        campaign: &str,
        unit: &str,
        worker: &str,
        games: &[GameRecord],
    ) -> Result<(), CoordinatorError> {
        let mut live = LiveStats::default();
        for pair in games.chunks_exact(2) {
            live.add_pair(&pair[0], &pair[1]);
        }
        let penta = live.pentanomial;
        let mut db = self.db();
        let tx = db.transaction()?;
        let already: Option<String> = tx
            .query_row("select state from units where id = ?1", [unit], |r| {
                r.get(0)
            })
            .optional()?;
        if already.as_deref() == Some("done") {
            return Ok(());
        }
        let p = penta.0.map(|n| n as i64);
        tx.execute(
            "insert or replace into results values (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                unit,
                campaign,
                worker,
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                now_ms()
            ],
        )?;
        tx.execute("update units set state = 'done' where id = ?1", [unit])?;
        let elapsed_min: Option<f64> = tx
            .query_row(
                "select (?2 - leased_ms) / 60000.0 from units where id = ?1",
                params![unit, now_ms()],
                |r| r.get(0),
            )
            .optional()?;
        if let Some(minutes) = elapsed_min.filter(|m| *m > 0.0) {
            let rate = penta.pairs() as f64 / minutes;
            tx.execute(
                "update workers set pairs_per_minute = ?2 where id = ?1",
                params![worker, rate],
            )?;
        }
        let (total, done): (i64, i64) = tx.query_row(
            "select pairs_total, (select coalesce(sum(ll + ld + dd + wd + ww), 0) from results where campaign_id = ?1) from campaigns where id = ?1",
            [campaign],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        if done >= total {
            tx.execute(
                "update campaigns set state = 'finished' where id = ?1",
                [campaign],
            )?;
        }
        tx.commit()?;
        drop(db);
        self.changed();
        Ok(())
    }

    /// Pair counts of a campaign after each counted unit, in order (for plots).
    ///
    /// # Errors
    /// Storage failure.
    pub fn history(&self, campaign: &str) -> Result<Vec<Pentanomial>, CoordinatorError> {
        let db = self.db();
        let mut stmt = db.prepare("select ll, ld, dd, wd, ww from results where campaign_id = ?1 order by done_ms, unit_id")?;
        let mut total = Pentanomial::default();
        let rows = stmt.query_map([campaign], |r| {
            Ok([
                r.get::<_, i64>(0)?,
                r.get(1)?,
                r.get(2)?,
                r.get(3)?,
                r.get(4)?,
            ])
        })?;
        let mut out = Vec::new();
        for row in rows {
            let add = Pentanomial(row?.map(|n| n.max(0) as u64));
            total += add;
            out.push(total);
        }
        Ok(out)
    }

    /// Registered workers: id, name, version, cores.
    ///
    /// # Errors
    /// Storage failure.
    pub fn workers(&self) -> Result<Vec<(String, String, String, u32)>, CoordinatorError> {
        let db = self.db();
        let mut stmt =
            db.prepare("select id, name, version, cores from workers order by registered_ms")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Units by state (leased, free, done).
    ///
    /// # Errors
    /// Storage failure.
    pub fn unit_states(&self) -> Result<Vec<(String, u64)>, CoordinatorError> {
        let db = self.db();
        let mut stmt =
            db.prepare("select state, count(*) from units group by state order by state")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get::<_, i64>(1)? as u64)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Every worker's standing in a campaign (outlier check).
    ///
    /// # Errors
    /// Storage failure.
    pub fn standings(
        &self,
        campaign: &str,
    ) -> Result<Vec<outliers::WorkerStanding>, CoordinatorError> {
        let workers: Vec<String> = {
            let db = self.db();
            let mut stmt = db.prepare(
                "select distinct worker_id from results where campaign_id = ?1 order by worker_id",
            )?;
            let rows = stmt.query_map([campaign], |r| r.get(0))?;
            rows.collect::<Result<_, _>>()?
        };
        let db = self.db();
        let per_worker = workers
            .into_iter()
            .map(|w| Ok((w.clone(), campaign_pentanomial(&db, campaign, Some(&w))?)))
            .collect::<Result<Vec<_>, CoordinatorError>>()?;
        Ok(outliers::standings(&per_worker))
    }
}

fn bump(counter: &std::sync::atomic::AtomicU64, n: u64) {
    counter.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
}

fn campaign_pentanomial(
    db: &Connection,
    campaign: &str,
    worker: Option<&str>,
) -> Result<Pentanomial, CoordinatorError> {
    let row: (i64, i64, i64, i64, i64) = db.query_row(
        "select coalesce(sum(ll),0), coalesce(sum(ld),0), coalesce(sum(dd),0), coalesce(sum(wd),0), coalesce(sum(ww),0)
         from results where campaign_id = ?1 and (?2 is null or worker_id = ?2)",
        params![campaign, worker],
        |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
    )?;
    Ok(Pentanomial(
        [row.0, row.1, row.2, row.3, row.4].map(|n| n.max(0) as u64),
    ))
}
