//! The coordinator's state: campaigns, work units with leases, workers and
//! tokens, kept in SQLite so that a coordinator killed at any moment resumes
//! exactly. No tonic here: the gRPC services are thin adapters over it.
//!
//! Exactly-once: a unit's games are written to their own Parquet file
//! (atomically) before the database marks the unit done in one transaction;
//! on start-up a file without its "done" mark is counted then, so a crash
//! between the two neither loses nor double-counts a game.

mod exclude;
pub mod kinds;
pub mod outliers;
pub mod service;
pub mod validate;

use crate::campaign::parse_campaign;
use crate::convert::{game_from_proto, work_unit};
use ajaxlab_arena::GameRecord;
use ajaxlab_arena::live::LiveStats;
use ajaxlab_arena::parquet_io::{
    SPSA_FILE, TrajectoryRow, read_games, write_games, write_trajectory,
};
use ajaxlab_proto::v1;
use ajaxlab_stats::Pentanomial;
use kinds::{Live, UnitPerturbation, first_player_balance, white_counts};
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
    /// match, sprt, spsa, piece-value or first-move.
    pub kind: &'static str,
    /// White's wins, draws and losses over every counted game.
    pub white: [u64; 3],
    /// SPRT campaigns: the test.
    pub sprt: Option<SprtView>,
    /// SPSA campaigns: each tuned parameter's current value.
    pub spsa: Vec<(String, f64)>,
}

/// Where an SPRT stands.
#[derive(Clone, Debug, PartialEq)]
pub struct SprtView {
    /// Log-likelihood ratio.
    pub llr: f64,
    /// Its stopping bounds (with the overshoot correction).
    pub bounds: ajaxlab_stats::LlrBounds,
    /// "H0 accepted", "H1 accepted", or empty while running.
    pub verdict: &'static str,
}

impl CampaignView {
    /// White's score over every counted game, if any.
    pub fn white_score(&self) -> Option<f64> {
        let [w, d, l] = self.white;
        let n = w + d + l;
        (n > 0).then(|| (w as f64 + d as f64 / 2.0) / n as f64)
    }
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
            kind: self.kind.into(),
            llr: self.sprt.as_ref().map_or(0.0, |s| s.llr),
            llr_lower: self.sprt.as_ref().map_or(0.0, |s| s.bounds.lower),
            llr_upper: self.sprt.as_ref().map_or(0.0, |s| s.bounds.upper),
            verdict: self.sprt.as_ref().map_or("", |s| s.verdict).into(),
            spsa_names: self.spsa.iter().map(|(n, _)| n.clone()).collect(),
            spsa_values: self.spsa.iter().map(|(_, v)| *v).collect(),
            white_score: self.white_score().unwrap_or(0.0),
        }
    }
}

/// A unit as a submission or renewal finds it.
struct HeldUnit {
    campaign: String,
    /// Whether the presented lease is the unit's current one.
    held: bool,
    first_pair: u64,
    pair_count: u64,
    /// Already counted.
    done: bool,
    /// Its SPSA perturbation, as stored.
    spsa: String,
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
    campaigns: Mutex<HashMap<String, Live>>,
    tokens: Mutex<HashMap<String, Scope>>,
    changes: tokio::sync::watch::Sender<u64>,
    /// How much play a new unit is sized to, at the asking worker's rate.
    unit_duration: Duration,
    /// When each SPSA campaign's trajectory file was last written; held
    /// while writing, so that one file is written at a time.
    trajectories: Mutex<HashMap<String, std::time::Instant>>,
}

/// How much play a unit is sized to unless the operator says otherwise:
/// long enough that requests are rare, short enough that progress shows.
pub const DEFAULT_UNIT_DURATION: Duration = Duration::from_secs(180);

/// The longest an SPSA trajectory file lags behind the database while a tune runs.
const TRAJECTORY_EVERY: Duration = Duration::from_secs(2);

/// Unix time in milliseconds.
pub fn now_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| i64::try_from(d.as_millis()).unwrap_or(i64::MAX))
}

/// 32 bytes from the operating system's random source, as hex (tokens,
/// lease tokens, worker ids). Without that source no token could be
/// secret, so its absence is an error rather than a weaker fallback.
///
/// # Errors
/// `Internal` if `/dev/urandom` cannot be read.
pub fn random_hex() -> Result<String, CoordinatorError> {
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| CoordinatorError::Internal(format!("reading /dev/urandom: {e}")))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn hash_token(token: &str) -> String {
    Sha256::digest(token.trim().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Sets each campaign's running totals (all campaigns when ?1 is null) from
/// its counted units.
const RECOUNT: &str = "
update campaigns set
    ll = (select coalesce(sum(ll), 0) from results r where r.campaign_id = campaigns.id),
    ld = (select coalesce(sum(ld), 0) from results r where r.campaign_id = campaigns.id),
    dd = (select coalesce(sum(dd), 0) from results r where r.campaign_id = campaigns.id),
    wd = (select coalesce(sum(wd), 0) from results r where r.campaign_id = campaigns.id),
    ww = (select coalesce(sum(ww), 0) from results r where r.campaign_id = campaigns.id),
    white_wins = (select coalesce(sum(white_wins), 0) from results r where r.campaign_id = campaigns.id),
    white_draws = (select coalesce(sum(white_draws), 0) from results r where r.campaign_id = campaigns.id),
    white_losses = (select coalesce(sum(white_losses), 0) from results r where r.campaign_id = campaigns.id)
where ?1 is null or id = ?1";

const SCHEMA: &str = "
create table if not exists campaigns(
    id text primary key, config_toml text not null, state text not null, priority integer not null,
    pairs_total integer not null, next_pair integer not null, signature integer not null, created_ms integer not null);
create table if not exists units(
    id text primary key, campaign_id text not null, first_pair integer not null, pair_count integer not null,
    state text not null, lease_token text not null, worker_id text not null, deadline_ms integer not null,
    leased_ms integer not null, rejections integer not null default 0, spsa text not null default '');
create table if not exists results(
    unit_id text primary key, campaign_id text not null, worker_id text not null,
    ll integer, ld integer, dd integer, wd integer, ww integer, done_ms integer not null default 0,
    white_wins integer not null default 0, white_draws integer not null default 0,
    white_losses integer not null default 0);
create table if not exists exclusions(
    campaign_id text not null, worker_id text not null, primary key (campaign_id, worker_id));
create index if not exists units_by_campaign on units(campaign_id, state);
create index if not exists units_by_deadline on units(state, deadline_ms);
create index if not exists results_by_campaign on results(campaign_id, worker_id);
create table if not exists spsa_history(
    campaign_id text not null, seq integer not null, unit_id text not null,
    completed integer not null, next_id integer not null, theta text not null,
    primary key (campaign_id, seq));
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
        // SQLite says only "unable to open database file" of a directory it
        // cannot write to: try writing first, for an error with the reason.
        let probe = dir.join(".write-probe");
        std::fs::write(&probe, b"")
            .and_then(|()| std::fs::remove_file(&probe))
            .map_err(|e| {
                CoordinatorError::Internal(format!(
                    "state directory {} cannot be written to: {e}",
                    dir.display()
                ))
            })?;
        let db_path = dir.join("coordinator.sqlite3");
        let db = Connection::open(&db_path)
            .map_err(|e| CoordinatorError::Internal(format!("{}: {e}", db_path.display())))?;
        // WAL with synchronous = normal: a commit survives the coordinator's
        // crash (not the machine's). What must survive the machine is the
        // games, and their files are synced before the unit is counted; a
        // count lost with the machine is redone from the file on start-up.
        db.execute_batch("pragma journal_mode = wal; pragma synchronous = normal;")?;
        db.execute_batch(SCHEMA)?;
        // Columns added since the first schema, for state dirs made before them.
        for (table, column, decl) in [
            ("units", "spsa", "text not null default ''"),
            ("results", "white_wins", "integer not null default 0"),
            ("results", "white_draws", "integer not null default 0"),
            ("results", "white_losses", "integer not null default 0"),
            ("campaigns", "ll", "integer not null default 0"),
            ("campaigns", "ld", "integer not null default 0"),
            ("campaigns", "dd", "integer not null default 0"),
            ("campaigns", "wd", "integer not null default 0"),
            ("campaigns", "ww", "integer not null default 0"),
            ("campaigns", "white_wins", "integer not null default 0"),
            ("campaigns", "white_draws", "integer not null default 0"),
            ("campaigns", "white_losses", "integer not null default 0"),
        ] {
            let present: bool = db.query_row(
                &format!("select count(*) from pragma_table_info('{table}') where name = ?1"),
                [column],
                |r| r.get::<_, i64>(0).map(|n| n > 0),
            )?;
            if !present {
                db.execute_batch(&format!("alter table {table} add column {column} {decl}"))?;
            }
        }
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
            trajectories: Mutex::new(HashMap::new()),
            unit_duration: DEFAULT_UNIT_DURATION,
        };
        c.db().execute(RECOUNT, [Option::<String>::None])?;
        c.load()?;
        c.reconcile()?;
        c.finish_interrupted_exclusions()?;
        let ids: Vec<String> = c
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .keys()
            .cloned()
            .collect();
        for id in ids {
            c.write_spsa_trajectory(&id, true)?;
        }
        Ok(c)
    }

    /// Sizes new units to `duration` of play on the asking worker.
    pub fn set_unit_duration(&mut self, duration: Duration) {
        self.unit_duration = duration;
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
        let rows: Vec<(String, String)> = stmt
            .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        drop(stmt);
        for (id, text) in rows {
            let live = restore_campaign(&db, &id, &text)?;
            campaigns.insert(id, live);
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
    /// Storage failure, or no operating-system randomness ([`random_hex`]).
    pub fn issue_token(&self, scope: Scope, label: &str) -> Result<String, CoordinatorError> {
        let token = random_hex()?;
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

    /// The scope of a presented token, if it is known. Tokens issued by
    /// `ajaxlab token` while this coordinator runs are found in the database
    /// and remembered.
    pub fn token_scope(&self, token: &str) -> Option<Scope> {
        let hash = hash_token(token);
        let cached = self
            .tokens
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&hash)
            .copied();
        if cached.is_some() {
            return cached;
        }
        let stored: Option<String> = self
            .db()
            .query_row("select scope from tokens where hash = ?1", [&hash], |r| {
                r.get(0)
            })
            .optional()
            .ok()
            .flatten();
        let scope = stored.as_deref().and_then(Scope::parse)?;
        self.tokens
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(hash, scope);
        Some(scope)
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
    /// A piece-value file makes one campaign per part (`NAME.PART`); the
    /// first part's view is returned.
    ///
    /// # Errors
    /// `InvalidArgument` naming the bad key; `FailedPrecondition` if the name is taken.
    pub fn create_campaign(&self, toml_text: &str) -> Result<Vec<CampaignView>, CoordinatorError> {
        let specs = parse_campaign(toml_text)
            .map_err(|e| CoordinatorError::InvalidArgument(e.to_string()))?;
        let lives: Vec<Live> = specs
            .into_iter()
            .map(|spec| Live::new(spec, toml_text.to_owned()))
            .collect();
        {
            let mut db = self.db();
            let tx = db.transaction()?;
            for live in &lives {
                let id = &live.spec.name;
                let taken: Option<String> = tx
                    .query_row("select id from campaigns where id = ?1", [id], |r| r.get(0))
                    .optional()?;
                if taken.is_some() {
                    return Err(CoordinatorError::FailedPrecondition(format!(
                        "campaign '{id}' exists"
                    )));
                }
                tx.execute(
                    "insert into campaigns (id, config_toml, state, priority, pairs_total, next_pair, signature, created_ms)
                     values (?1, ?2, 'running', ?3, ?4, 0, ?5, ?6)",
                    params![
                        id,
                        toml_text,
                        live.spec.priority,
                        live.spec.config.pairs as i64,
                        self.signature as i64,
                        now_ms()
                    ],
                )?;
                if let Some(spsa) = &live.spsa {
                    save_spsa(&tx, id, 0, "", spsa)?;
                }
                std::fs::create_dir_all(self.campaign_dir(id))
                    .map_err(|e| CoordinatorError::Internal(e.to_string()))?;
            }
            tx.commit()?;
        }
        let ids: Vec<String> = lives.iter().map(|l| l.spec.name.clone()).collect();
        {
            let mut campaigns = self
                .campaigns
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            for live in lives {
                campaigns.insert(live.spec.name.clone(), live);
            }
        }
        for id in &ids {
            self.write_spsa_trajectory(id, true)?;
        }
        self.changed();
        ids.iter().map(|id| self.campaign(id)).collect()
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
        let white: (i64, i64, i64) = db.query_row(
            "select white_wins, white_draws, white_losses from campaigns where id = ?1",
            [id],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        drop(db);
        let campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let live = campaigns.get(id);
        Ok(CampaignView {
            id: id.to_owned(),
            state: row.0,
            priority: row.1,
            pairs_total: row.2 as u64,
            pairs_done: penta.pairs(),
            pentanomial: penta,
            kind: live.map_or("match", |l| l.spec.kind.name()),
            white: [white.0, white.1, white.2].map(|n| n.max(0) as u64),
            sprt: live.and_then(|l| {
                l.sprt.as_ref().map(|s| SprtView {
                    llr: s.llr(),
                    bounds: s.effective_bounds(),
                    verdict: l.verdict(),
                })
            }),
            spsa: live
                .and_then(|l| l.spsa.as_ref())
                .map(|s| {
                    s.params()
                        .iter()
                        .map(|p| p.name.clone())
                        .zip(s.theta().iter().copied())
                        .collect()
                })
                .unwrap_or_default(),
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
        self.write_spsa_trajectory(id, true)?;
        self.changed();
        self.campaign(id)
    }

    // ---- workers ----

    /// Registers a worker.
    ///
    /// # Errors
    /// Storage failure, or no operating-system randomness ([`random_hex`]).
    pub fn register(
        &self,
        name: &str,
        version: &str,
        cores: u32,
        signature: u64,
    ) -> Result<String, CoordinatorError> {
        let id = format!("w-{}", &random_hex()?[..12]);
        self.db().execute(
            "insert into workers (id, name, version, cores, signature, registered_ms) values (?1, ?2, ?3, ?4, ?5, ?6)",
            params![id, name, version, cores.max(1), signature as i64, now_ms()],
        )?;
        Ok(id)
    }

    /// Leases a unit to `worker`, or `None` if there is no work it may do now.
    ///
    /// # Errors
    /// `NotFound` for an unknown worker; `Internal` without operating-system
    /// randomness for the lease token.
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
                    c.next_pair - (select coalesce(sum(pair_count), 0) from units u where u.campaign_id = c.id and u.state = 'free')
             from campaigns c where c.state = 'running' and c.signature = ?1
               and not exists (select 1 from exclusions e where e.campaign_id = c.id and e.worker_id = ?2)",
        )?;
        let mut candidates: Vec<(String, u32, i64, i64, i64, i64)> = stmt
            .query_map(params![signature, worker], |r| {
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
        let token = random_hex()?;
        let mut campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let live = campaigns
            .get_mut(&campaign)
            .ok_or_else(|| CoordinatorError::Internal(format!("campaign {campaign} not loaded")))?;
        let (unit_id, first, count, perturbation) = if free > 0 {
            let (id, first, count, spsa): (String, i64, i64, String) = db.query_row(
                "select id, first_pair, pair_count, spsa from units where campaign_id = ?1 and state = 'free' order by first_pair limit 1",
                [&campaign],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)),
            )?;
            db.execute(
                "update units set state = 'leased', lease_token = ?2, worker_id = ?3, deadline_ms = ?4, leased_ms = ?5 where id = ?1",
                params![id, token, worker, deadline, now],
            )?;
            let perturbation =
                UnitPerturbation::from_text(&spsa).map_err(CoordinatorError::Internal)?;
            (id, first, count, perturbation)
        } else {
            // About three minutes (`unit_duration`) of play for this worker, at least one pair
            // per core, and at most a tenth of the campaign so that progress
            // shows and other workers get a share. An SPSA unit is one
            // perturbation: at most 1/200 of the tune (but a pair per core),
            // so that θ moves in many small steps. The length varies by up
            // to ±20% (drawn from the lease token's first byte) so that
            // workers started together, after an outage or a mass start,
            // drift out of step instead of submitting in waves for ever.
            let spread =
                0.8 + 0.4 * f64::from(u8::from_str_radix(&token[..2], 16).unwrap_or(128)) / 255.0;
            let minutes = spread * self.unit_duration.as_secs_f64() / 60.0;
            let wanted = (rate * minutes).round().max(f64::from(cores)) as i64;
            let cap = if live.spsa.is_some() {
                (total / 200).max(i64::from(cores))
            } else {
                (total + 9) / 10
            };
            let count = wanted.min(cap).clamp(1, 500).min(total - next);
            let id = format!("{campaign}-{next}");
            let perturbation = live.issue_perturbation();
            db.execute(
                "insert into units (id, campaign_id, first_pair, pair_count, state, lease_token, worker_id, deadline_ms, leased_ms, spsa)
                 values (?1, ?2, ?3, ?4, 'leased', ?5, ?6, ?7, ?8, ?9)",
                params![
                    id,
                    campaign,
                    next,
                    count,
                    token,
                    worker,
                    deadline,
                    now,
                    perturbation.as_ref().map_or(String::new(), UnitPerturbation::to_text)
                ],
            )?;
            db.execute(
                "update campaigns set next_pair = ?2 where id = ?1",
                params![campaign, next + count],
            )?;
            (id, next, count, perturbation)
        };
        drop(db);
        let config = live.unit_config(perturbation.as_ref());
        drop(campaigns);
        let count = u32::try_from(count).unwrap_or(u32::MAX);
        bump(&self.counters.leased, 1);
        Ok(Some(work_unit(
            &config,
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
    ) -> Result<HeldUnit, CoordinatorError> {
        let db = self.db();
        db.query_row(
            "select campaign_id, lease_token = ?2 and worker_id = ?3, first_pair, pair_count, state = 'done', spsa
             from units where id = ?1",
            params![unit, token, worker],
            |r| {
                Ok(HeldUnit {
                    campaign: r.get(0)?,
                    held: r.get(1)?,
                    first_pair: r.get::<_, i64>(2)? as u64,
                    pair_count: r.get::<_, i64>(3)? as u64,
                    done: r.get(4)?,
                    spsa: r.get(5)?,
                })
            },
        )
        .optional()?
        .ok_or_else(|| CoordinatorError::NotFound(format!("unknown unit '{unit}'")))
    }

    /// Extends a lease.
    ///
    /// # Errors
    /// `NotFound`; `FailedPrecondition` if the lease is no longer this worker's.
    pub fn renew(&self, worker: &str, unit: &str, token: &str) -> Result<i64, CoordinatorError> {
        let held = self.held_unit(worker, unit, token)?;
        if !held.held || held.done {
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
        let held = self.held_unit(worker, unit, token)?;
        if !held.held || held.done {
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
        let held = self.held_unit(worker, unit, token)?;
        if held.done {
            bump(&self.counters.duplicate, 1);
            return Ok(Submitted::Duplicate);
        }
        if !held.held {
            bump(&self.counters.stale, 1);
            return Ok(Submitted::Stale);
        }
        let campaign = held.campaign;
        let perturbation =
            UnitPerturbation::from_text(&held.spsa).map_err(CoordinatorError::Internal)?;
        let (config, metadata) = {
            let campaigns = self
                .campaigns
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            let live = campaigns.get(&campaign).ok_or_else(|| {
                CoordinatorError::Internal(format!("campaign {campaign} not loaded"))
            })?;
            (
                live.unit_config(perturbation.as_ref()),
                live.spec.file_metadata(&live.toml),
            )
        };
        let records: Vec<GameRecord> = games
            .iter()
            .enumerate()
            .map(|(i, g)| game_from_proto(g, &config.run_id, config.variant, i))
            .collect::<Result<_, _>>()
            .map_err(|e| CoordinatorError::InvalidArgument(e.to_string()))?;
        if let Err(e) = validate::validate_unit(&config, held.first_pair, held.pair_count, &records)
        {
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
        write_games(&file, &sorted, &names, &metadata)
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
        let mut stats = LiveStats::default();
        for pair in games.chunks_exact(2) {
            stats.add_pair(&pair[0], &pair[1]);
        }
        let penta = stats.pentanomial;
        let white = white_counts(games).map(|n| n as i64);
        let mut db = self.db();
        let tx = db.transaction()?;
        let unit_row: Option<(String, String)> = tx
            .query_row("select state, spsa from units where id = ?1", [unit], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .optional()?;
        let Some((state, spsa_text)) = unit_row else {
            return Err(CoordinatorError::NotFound(format!("unknown unit '{unit}'")));
        };
        if state == "done" {
            return Ok(());
        }
        let p = penta.0.map(|n| n as i64);
        tx.execute(
            "insert or replace into results (unit_id, campaign_id, worker_id, ll, ld, dd, wd, ww, done_ms, white_wins, white_draws, white_losses)
             values (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)",
            params![
                unit,
                campaign,
                worker,
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                now_ms(),
                white[0],
                white[1],
                white[2]
            ],
        )?;
        tx.execute("update units set state = 'done' where id = ?1", [unit])?;
        tx.execute(
            "update campaigns set ll = ll + ?2, ld = ld + ?3, dd = dd + ?4, wd = wd + ?5, ww = ww + ?6,
                 white_wins = white_wins + ?7, white_draws = white_draws + ?8, white_losses = white_losses + ?9
             where id = ?1",
            params![campaign, p[0], p[1], p[2], p[3], p[4], white[0], white[1], white[2]],
        )?;
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
            "select pairs_total, ll + ld + dd + wd + ww from campaigns where id = ?1",
            [campaign],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        // The kind's own state moves on a copy, saved in this transaction and
        // kept only once it commits.
        let mut campaigns = self
            .campaigns
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut next = campaigns.get(campaign).cloned();
        if let Some(live) = &mut next {
            if live.sprt.is_some() {
                live.update_sprt(campaign_pentanomial(&tx, campaign, None)?);
            }
            if let (Some(spsa), Some(perturbation)) = (
                &mut live.spsa,
                UnitPerturbation::from_text(&spsa_text).map_err(CoordinatorError::Internal)?,
            ) {
                spsa.apply(
                    &perturbation.perturbation(),
                    first_player_balance(games),
                    games.len() as u64,
                )
                .map_err(|e| CoordinatorError::Internal(format!("unit {unit}: {e}")))?;
                let seq: i64 = tx.query_row(
                    "select coalesce(max(seq), 0) + 1 from spsa_history where campaign_id = ?1",
                    [campaign],
                    |r| r.get(0),
                )?;
                save_spsa(&tx, campaign, seq, unit, spsa)?;
            }
        }
        let decided = next.as_ref().is_some_and(Live::decided);
        if done >= total || decided {
            tx.execute(
                "update campaigns set state = 'finished' where id = ?1 and state != 'stopped'",
                [campaign],
            )?;
        }
        tx.commit()?;
        if let Some(live) = next {
            campaigns.insert(campaign.to_owned(), live);
        }
        drop(campaigns);
        drop(db);
        self.write_spsa_trajectory(campaign, done >= total)?;
        self.changed();
        Ok(())
    }

    /// Rewrites an SPSA campaign's trajectory file from the stored history
    /// (nothing for other kinds): always if `now`, else at most every
    /// [`TRAJECTORY_EVERY`].
    fn write_spsa_trajectory(&self, campaign: &str, now: bool) -> Result<(), CoordinatorError> {
        let mut written = self
            .trajectories
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if !now
            && written
                .get(campaign)
                .is_some_and(|t| t.elapsed() < TRAJECTORY_EVERY)
        {
            return Ok(());
        }
        let names: Vec<String> = {
            let campaigns = self
                .campaigns
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            match campaigns.get(campaign).and_then(|l| l.spsa.as_ref()) {
                Some(spsa) => spsa.params().iter().map(|p| p.name.clone()).collect(),
                None => return Ok(()),
            }
        };
        let rows = {
            let db = self.db();
            let mut stmt = db.prepare(
                "select seq, completed, unit_id, theta from spsa_history where campaign_id = ?1 order by seq",
            )?;
            let rows = stmt.query_map([campaign], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                ))
            })?;
            let mut out = Vec::new();
            for row in rows {
                let (seq, completed, unit_id, theta) = row?;
                let theta: Vec<f64> = serde_json::from_str(&theta)
                    .map_err(|e| CoordinatorError::Internal(format!("spsa history: {e}")))?;
                for (param, value) in names.iter().zip(theta) {
                    out.push(TrajectoryRow {
                        seq: seq as u64,
                        completed_pairs: completed as u64,
                        unit_id: unit_id.clone(),
                        param: param.clone(),
                        value,
                    });
                }
            }
            out
        };
        write_trajectory(&self.campaign_dir(campaign).join(SPSA_FILE), &rows)
            .map_err(|e| CoordinatorError::Internal(e.to_string()))?;
        written.insert(campaign.to_owned(), std::time::Instant::now());
        Ok(())
    }

    /// Pair counts of a campaign after each counted unit, in order (for plots).
    ///
    /// # Errors
    /// Storage failure.
    pub fn history(&self, campaign: &str) -> Result<Vec<Pentanomial>, CoordinatorError> {
        running_totals(&self.db(), campaign)
    }

    /// An SPSA campaign's θ after each update: (pairs applied, θ).
    ///
    /// # Errors
    /// Storage failure.
    pub fn spsa_history(&self, campaign: &str) -> Result<Vec<(u64, Vec<f64>)>, CoordinatorError> {
        let db = self.db();
        let mut stmt = db.prepare(
            "select completed, theta from spsa_history where campaign_id = ?1 order by seq",
        )?;
        let rows = stmt.query_map([campaign], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (completed, theta) = row?;
            let theta = serde_json::from_str(&theta)
                .map_err(|e| CoordinatorError::Internal(format!("spsa history: {e}")))?;
            out.push((completed.max(0) as u64, theta));
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
    let read = |r: &rusqlite::Row<'_>| -> rusqlite::Result<[i64; 5]> {
        Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?])
    };
    let row = match worker {
        None => db.query_row(
            "select ll, ld, dd, wd, ww from campaigns where id = ?1",
            [campaign],
            read,
        )?,
        Some(worker) => db.query_row(
            "select coalesce(sum(ll),0), coalesce(sum(ld),0), coalesce(sum(dd),0), coalesce(sum(wd),0), coalesce(sum(ww),0)
             from results where campaign_id = ?1 and worker_id = ?2",
            params![campaign, worker],
            read,
        )?,
    };
    Ok(Pentanomial(row.map(|n| n.max(0) as u64)))
}

/// A campaign's pentanomial after each counted unit, in the order counted.
fn running_totals(db: &Connection, campaign: &str) -> Result<Vec<Pentanomial>, CoordinatorError> {
    let mut stmt =
        db.prepare("select ll, ld, dd, wd, ww from results where campaign_id = ?1 order by rowid")?;
    let rows = stmt.query_map([campaign], |r| {
        Ok([
            r.get::<_, i64>(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
        ])
    })?;
    let mut total = Pentanomial::default();
    let mut out = Vec::new();
    for row in rows {
        total += Pentanomial(row?.map(|n| n.max(0) as u64));
        out.push(total);
    }
    Ok(out)
}

/// Saves an SPSA tune's state after update `seq` (0: the start).
fn save_spsa(
    db: &Connection,
    campaign: &str,
    seq: i64,
    unit: &str,
    spsa: &ajaxlab_stats::Spsa,
) -> Result<(), CoordinatorError> {
    let theta = serde_json::to_string(spsa.theta())
        .map_err(|e| CoordinatorError::Internal(e.to_string()))?;
    db.execute(
        "insert into spsa_history values (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            campaign,
            seq,
            unit,
            spsa.completed_iterations() as i64,
            spsa.next_id() as i64,
            theta
        ],
    )?;
    Ok(())
}

/// Rebuilds a stored campaign: its SPRT from the counted units in order, its
/// SPSA tune from the last saved state and the perturbations still in flight.
fn restore_campaign(db: &Connection, id: &str, text: &str) -> Result<Live, CoordinatorError> {
    let internal = |e: String| CoordinatorError::Internal(format!("campaign {id}: {e}"));
    let spec = parse_campaign(text)
        .map_err(|e| internal(e.to_string()))?
        .into_iter()
        .find(|s| s.name == id)
        .ok_or_else(|| internal("its file no longer defines it".into()))?;
    let mut live = Live::new(spec, text.to_owned());
    if live.sprt.is_some() {
        for total in running_totals(db, id)? {
            live.update_sprt(total);
        }
    }
    if live.spsa.is_some() {
        let saved: Option<(i64, i64, String)> = db
            .query_row(
                "select completed, next_id, theta from spsa_history where campaign_id = ?1 order by seq desc limit 1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()?;
        if let Some((completed, next_id, theta)) = saved {
            let theta: Vec<f64> =
                serde_json::from_str(&theta).map_err(|e| internal(e.to_string()))?;
            let mut stmt = db.prepare(
                "select spsa from units where campaign_id = ?1 and state != 'done' and spsa != ''",
            )?;
            let in_flight = stmt
                .query_map([id], |r| r.get::<_, String>(0))?
                .map(|text| {
                    let text = text?;
                    UnitPerturbation::from_text(&text)
                        .map_err(internal)?
                        .map(|p| p.perturbation())
                        .ok_or_else(|| internal("empty perturbation".into()))
                })
                .collect::<Result<Vec<_>, CoordinatorError>>()?;
            let config = match &live.spec.kind {
                crate::campaign::CampaignKind::Spsa(c) => c.clone(),
                _ => return Err(internal("not an SPSA campaign".into())),
            };
            let restored = ajaxlab_stats::Spsa::restore(
                config,
                theta,
                completed as u64,
                next_id as u64,
                &in_flight,
            )
            .map_err(|e| internal(e.to_string()))?;
            live.spsa = Some(restored);
        }
    }
    Ok(live)
}
