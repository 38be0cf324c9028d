//! The `workers` and `engine_failures` tables: each registered worker
//! (its id, name, build, cores and engine signature, the token it
//! registered under and its pace so far), and the workers that cannot
//! start an engine of a campaign, with why.

use super::row::parsed;
use super::tokens::TokenHash;
use crate::ids::{CampaignId, WorkerId};
use rusqlite::{Connection, OptionalExtension, params};

/// A worker as it registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewWorker<'a> {
    /// The id issued to it.
    pub id: &'a WorkerId,
    /// The name it gave (by default its host name).
    pub name: &'a str,
    /// Its build's version.
    pub version: &'a str,
    /// Games it plays at once (at least 1 is stored).
    pub cores: u32,
    /// Its engine build's signature (bench node count).
    pub signature: u64,
    /// The token it registered under.
    pub token: &'a TokenHash,
    /// When, Unix milliseconds.
    pub registered_ms: i64,
}

/// A registered worker, as the status page lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WorkerInfo {
    /// Its id (`w-…`).
    pub id: WorkerId,
    /// The name it gave (by default its host name).
    pub name: String,
    /// Its build's version.
    pub version: String,
    /// Games it plays at once.
    pub cores: u32,
}

/// What sizing a worker's next unit needs of its row.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerPace {
    /// Games it plays at once.
    pub cores: u32,
    /// Its engine build's signature, as stored (the bits of the `u64`).
    pub signature: i64,
    /// Pairs a minute over its last counted unit (0 before its first).
    pub pairs_per_minute: f64,
}

/// A worker that cannot start an engine of a campaign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineFailure {
    /// The worker's id.
    pub worker: WorkerId,
    /// Why, as the worker reported it.
    pub reason: String,
}

/// Workers registered under `token` after `since_ms`.
///
/// # Errors
/// SQLite's.
pub fn registered_since(
    db: &Connection,
    token: &TokenHash,
    since_ms: i64,
) -> rusqlite::Result<u64> {
    db.query_row(
        "select count(*) from workers where token_hash = ?1 and registered_ms > ?2",
        params![token, since_ms],
        |r| r.get::<_, i64>(0).map(|n| u64::try_from(n).unwrap_or(0)),
    )
}

/// Stores a newly registered worker.
///
/// # Errors
/// SQLite's (an id stored before included).
pub fn insert(db: &Connection, worker: &NewWorker<'_>) -> rusqlite::Result<()> {
    db.execute(
        "insert into workers (id, name, version, cores, signature, registered_ms, token_hash) values (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        params![
            worker.id,
            worker.name,
            worker.version,
            worker.cores.max(1),
            worker.signature.cast_signed(),
            worker.registered_ms,
            worker.token
        ],
    )?;
    Ok(())
}

/// The pace of worker `id`, if it registered under `token`.
///
/// # Errors
/// SQLite's.
pub fn pace(
    db: &Connection,
    id: &WorkerId,
    token: &TokenHash,
) -> rusqlite::Result<Option<WorkerPace>> {
    db.query_row(
        "select cores, signature, pairs_per_minute from workers where id = ?1 and token_hash = ?2",
        params![id, token],
        |r| {
            Ok(WorkerPace {
                cores: r.get(0)?,
                signature: r.get(1)?,
                pairs_per_minute: r.get(2)?,
            })
        },
    )
    .optional()
}

/// Sets worker `id`'s pace, pairs a minute.
///
/// # Errors
/// SQLite's.
pub fn set_pace(db: &Connection, id: &WorkerId, pairs_per_minute: f64) -> rusqlite::Result<()> {
    db.execute(
        "update workers set pairs_per_minute = ?2 where id = ?1",
        params![id, pairs_per_minute],
    )?;
    Ok(())
}

/// The hash of the token worker `id` registered under (empty for a worker
/// registered before workers were bound to tokens), if it is registered.
///
/// # Errors
/// SQLite's.
pub fn token_of(db: &Connection, id: &WorkerId) -> rusqlite::Result<Option<TokenHash>> {
    db.query_row("select token_hash from workers where id = ?1", [id], |r| {
        r.get(0).map(TokenHash::stored)
    })
    .optional()
}

/// Registered workers, in the order they registered.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a stored id that is no worker id.
pub fn all(db: &Connection) -> rusqlite::Result<Vec<WorkerInfo>> {
    let mut stmt =
        db.prepare("select id, name, version, cores, rowid from workers order by registered_ms")?;
    let rows = stmt.query_map([], |r| {
        Ok(WorkerInfo {
            id: parsed(r, 0, "workers", "id")?,
            name: r.get(1)?,
            version: r.get(2)?,
            cores: r.get(3)?,
        })
    })?;
    rows.collect()
}

/// The names of the workers with counted units of `campaign`, by id.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a stored id that is no worker id.
pub fn names_in(
    db: &Connection,
    campaign: &CampaignId,
) -> rusqlite::Result<Vec<(WorkerId, String)>> {
    let mut stmt = db.prepare(
        "select w.id, w.name, w.rowid from workers w
         where w.id in (select worker_id from results where campaign_id = ?1)",
    )?;
    let rows = stmt.query_map([campaign], |r| {
        Ok((parsed(r, 0, "workers", "id")?, r.get(1)?))
    })?;
    rows.collect()
}

/// A registered worker and how it has been doing, for the operator's
/// workers page.
#[derive(Clone, Debug, PartialEq)]
pub struct WorkerHealth {
    /// Who it is.
    pub info: WorkerInfo,
    /// When it registered, Unix milliseconds.
    pub registered_ms: i64,
    /// Its latest contact: registering, leasing a unit or having one
    /// counted, Unix milliseconds.
    pub last_contact_ms: i64,
    /// Units it holds now.
    pub units_held: u64,
    /// Units of it counted since the window's start.
    pub units_recent: u64,
    /// Pairs in those units.
    pub pairs_recent: u64,
    /// Submissions refused under its token, every campaign.
    pub refusals: u64,
    /// Campaigns that exclude its token.
    pub excluded_from: u64,
    /// Its pace over its last counted unit, pairs a minute.
    pub pairs_per_minute: f64,
}

/// Every registered worker's health, in the order they registered; the
/// recent counts are of units counted at or after `since_ms`. One pass
/// over each table, whatever the number of workers.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a stored id that is no worker id.
pub fn health(db: &Connection, since_ms: i64) -> rusqlite::Result<Vec<WorkerHealth>> {
    let mut stmt = db.prepare(
        "with leased as (
             select worker_id, max(leased_ms) at_ms, sum(state = 'leased') held
             from units where worker_id != '' group by worker_id),
         done as (
             select worker_id, max(done_ms) at_ms, sum(done_ms >= ?1) units,
                    sum(case when done_ms >= ?1 then ll + ld + dd + wd + ww else 0 end) pairs
             from results group by worker_id),
         refused as (select token_hash, count(*) n from rejections group by token_hash),
         excluded as (select token_hash, count(*) n from excluded_tokens group by token_hash)
         select w.id, w.name, w.version, w.cores, w.registered_ms,
                max(w.registered_ms, coalesce(l.at_ms, 0), coalesce(d.at_ms, 0)),
                coalesce(l.held, 0), coalesce(d.units, 0), coalesce(d.pairs, 0),
                case when w.token_hash = '' then 0 else coalesce(f.n, 0) end,
                case when w.token_hash = '' then 0 else coalesce(x.n, 0) end,
                w.pairs_per_minute, w.rowid
         from workers w
         left join leased l on l.worker_id = w.id
         left join done d on d.worker_id = w.id
         left join refused f on f.token_hash = w.token_hash
         left join excluded x on x.token_hash = w.token_hash
         order by w.registered_ms, w.rowid",
    )?;
    let rows = stmt.query_map([since_ms], |r| {
        let n = |i: usize| r.get::<_, i64>(i).map(super::row::count);
        Ok(WorkerHealth {
            info: WorkerInfo {
                id: parsed(r, 0, "workers", "id")?,
                name: r.get(1)?,
                version: r.get(2)?,
                cores: r.get(3)?,
            },
            registered_ms: r.get(4)?,
            last_contact_ms: r.get(5)?,
            units_held: n(6)?,
            units_recent: n(7)?,
            pairs_recent: n(8)?,
            refusals: n(9)?,
            excluded_from: n(10)?,
            pairs_per_minute: r.get(11)?,
        })
    })?;
    rows.collect()
}

/// Records that `worker` cannot start an engine of `campaign` (the
/// latest reason replaces an earlier one).
///
/// # Errors
/// SQLite's.
pub fn record_failure(
    db: &Connection,
    campaign: &CampaignId,
    worker: &WorkerId,
    reason: &str,
    at_ms: i64,
) -> rusqlite::Result<()> {
    db.execute(
        "insert or replace into engine_failures (campaign_id, worker_id, reason, at_ms) values (?1, ?2, ?3, ?4)",
        params![campaign, worker, reason, at_ms],
    )?;
    Ok(())
}

/// The workers that cannot start an engine of `campaign`, in the order
/// they reported it.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a stored id that is no worker id.
pub fn failures(db: &Connection, campaign: &CampaignId) -> rusqlite::Result<Vec<EngineFailure>> {
    let mut stmt = db.prepare(
        "select worker_id, reason, rowid from engine_failures where campaign_id = ?1 order by at_ms",
    )?;
    let rows = stmt.query_map([campaign], |r| {
        Ok(EngineFailure {
            worker: parsed(r, 0, "engine_failures", "worker_id")?,
            reason: r.get(1)?,
        })
    })?;
    rows.collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::schema;

    /// A worker `host` of 4 cores registered at 1 s under `token`.
    fn host<'a>(id: &'a WorkerId, token: &'a TokenHash) -> NewWorker<'a> {
        NewWorker {
            id,
            name: "host",
            version: "0.1.0",
            cores: 4,
            signature: 1,
            token,
            registered_ms: 1_000,
        }
    }

    #[test]
    fn a_worker_is_found_only_under_the_token_it_registered_with()
    -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        let (id, token) = (WorkerId::issue("0123456789ab"), TokenHash::of("t"));
        let worker = NewWorker {
            cores: 0,
            signature: u64::MAX,
            ..host(&id, &token)
        };
        assert_eq!(registered_since(&db, &token, 0)?, 0);
        insert(&db, &worker)?;
        assert!(insert(&db, &worker).is_err(), "an id is registered once");
        assert_eq!(registered_since(&db, &token, 0)?, 1);
        assert_eq!(registered_since(&db, &token, 1_000)?, 0);
        assert_eq!(pace(&db, &id, &TokenHash::of("other"))?, None);
        set_pace(&db, &id, 2.5)?;
        assert_eq!(
            pace(&db, &id, &token)?,
            Some(WorkerPace {
                cores: 1,
                signature: -1,
                pairs_per_minute: 2.5
            })
        );
        assert_eq!(token_of(&db, &id)?, Some(token));
        assert_eq!(token_of(&db, &WorkerId::issue("ffffffffffff"))?, None);
        let listed = all(&db)?;
        assert_eq!(listed.len(), 1);
        assert_eq!((listed[0].name.as_str(), listed[0].cores), ("host", 1));
        Ok(())
    }

    #[test]
    fn a_worker_s_health_counts_its_units_refusals_and_exclusions()
    -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        let (id, token) = (WorkerId::issue("0123456789ab"), TokenHash::of("t"));
        insert(&db, &host(&id, &token))?;
        let fresh = health(&db, 0)?;
        assert_eq!(fresh.len(), 1);
        assert_eq!(
            (
                fresh[0].last_contact_ms,
                fresh[0].units_held,
                fresh[0].refusals
            ),
            (1_000, 0, 0)
        );
        db.execute_batch(&format!(
            "insert into units (id, campaign_id, first_pair, pair_count, state, lease_token, worker_id, deadline_ms, leased_ms)
               values ('c-0', 'c', 0, 2, 'leased', 'x', '{id}', 0, 5000);
             insert into results (unit_id, campaign_id, worker_id, ll, ld, dd, wd, ww, done_ms)
               values ('c-2', 'c', '{id}', 0, 1, 1, 1, 0, 3000), ('c-4', 'c', '{id}', 0, 0, 2, 0, 0, 9000);
             insert into rejections values ('c', 'c-6', '{hash}', 1), ('d', 'd-0', '{hash}', 2);
             insert into excluded_tokens values ('d', '{hash}', 3);",
            hash = token.as_str()
        ))?;
        let seen = &health(&db, 4_000)?[0];
        assert_eq!(seen.last_contact_ms, 9_000, "its latest counted unit");
        assert_eq!(
            (seen.units_held, seen.units_recent, seen.pairs_recent),
            (1, 1, 2)
        );
        assert_eq!((seen.refusals, seen.excluded_from), (2, 1));
        let campaign: CampaignId = "c".parse()?;
        assert_eq!(names_in(&db, &campaign)?, [(id.clone(), "host".to_owned())]);
        Ok(())
    }

    #[test]
    fn an_engine_failure_is_kept_once_per_worker_and_campaign()
    -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        let campaign: CampaignId = "c".parse()?;
        let (a, b) = (
            WorkerId::issue("aaaaaaaaaaaa"),
            WorkerId::issue("bbbbbbbbbbbb"),
        );
        record_failure(&db, &campaign, &a, "no such file", 3)?;
        record_failure(&db, &campaign, &b, "exec format error", 2)?;
        record_failure(&db, &campaign, &a, "still no such file", 4)?;
        let reasons: Vec<String> = failures(&db, &campaign)?
            .into_iter()
            .map(|f| f.reason)
            .collect();
        assert_eq!(reasons, ["exec format error", "still no such file"]);
        assert_eq!(failures(&db, &"d".parse()?)?, []);
        Ok(())
    }
}
