//! The `exclusions` and `excluded_tokens` tables: the workers, and the
//! worker tokens, that get no more units of a campaign. A worker is
//! excluded with every worker registered under its token, so that
//! registering again does not undo it; a worker registered before workers
//! were bound to tokens (an empty token hash) is excluded alone.

use super::row::parsed;
use super::tokens::TokenHash;
use super::unit_state::UnitState;
use crate::ids::{CampaignId, UnitId, WorkerId};
use rusqlite::{Connection, OptionalExtension, params};

/// The workers of token `?2` (none for the empty hash), and worker `?3`.
const SAME_TOKEN: &str = "select id from workers where (?2 != '' and token_hash = ?2) or id = ?3";

/// A worker excluded from a campaign.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exclusion {
    /// The campaign.
    pub campaign: CampaignId,
    /// The worker.
    pub worker: WorkerId,
}

/// A counted unit and the worker that played it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountedUnit {
    /// The unit.
    pub unit: UnitId,
    /// Its worker.
    pub worker: WorkerId,
}

/// Excludes token `token` from `campaign` (as of `at_ms`); whether it was
/// not excluded before.
///
/// # Errors
/// SQLite's.
pub fn exclude_token(
    db: &Connection,
    campaign: &CampaignId,
    token: &TokenHash,
    at_ms: i64,
) -> rusqlite::Result<bool> {
    let fresh = db.execute(
        "insert or ignore into excluded_tokens (campaign_id, token_hash, at_ms) values (?1, ?2, ?3)",
        params![campaign, token, at_ms],
    )?;
    Ok(fresh > 0)
}

/// Excludes `worker` and every worker registered under `token` (its
/// token) from `campaign`; how many were not excluded before.
///
/// # Errors
/// SQLite's.
pub fn exclude_workers(
    db: &Connection,
    campaign: &CampaignId,
    token: &TokenHash,
    worker: &WorkerId,
) -> rusqlite::Result<u64> {
    let fresh = db.execute(
        &format!("insert or ignore into exclusions select ?1, id from ({SAME_TOKEN})"),
        params![campaign, token, worker],
    )?;
    Ok(u64::try_from(fresh).unwrap_or(u64::MAX))
}

/// Returns the units of `campaign` that `worker` or a worker of `token`
/// holds now to the pool, with no worker or lease (what they submit for
/// them is stale); how many.
///
/// # Errors
/// SQLite's.
pub fn free_units_of(
    db: &Connection,
    campaign: &CampaignId,
    token: &TokenHash,
    worker: &WorkerId,
) -> rusqlite::Result<u64> {
    let freed = db.execute(
        &format!(
            "update units set state = ?4, worker_id = '', lease_token = ''
             where campaign_id = ?1 and state = ?5 and worker_id in ({SAME_TOKEN})"
        ),
        params![
            campaign,
            token,
            worker,
            UnitState::Free.as_str(),
            UnitState::Leased.as_str()
        ],
    )?;
    Ok(u64::try_from(freed).unwrap_or(u64::MAX))
}

/// The counted units of `campaign` that `worker` or a worker of `token`
/// played, in the order counted.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for an id that does not read.
pub fn counted_units_of(
    db: &Connection,
    campaign: &CampaignId,
    token: &TokenHash,
    worker: &WorkerId,
) -> rusqlite::Result<Vec<CountedUnit>> {
    let mut stmt = db.prepare(&format!(
        "select unit_id, worker_id, rowid from results
         where campaign_id = ?1 and worker_id in ({SAME_TOKEN}) order by rowid"
    ))?;
    let rows = stmt.query_map(params![campaign, token, worker], |r| {
        Ok(CountedUnit {
            unit: parsed(r, 0, "results", "unit_id")?,
            worker: parsed(r, 1, "results", "worker_id")?,
        })
    })?;
    rows.collect()
}

/// Admits token `token`'s workers to `campaign` again (and `worker`, for
/// a worker registered before workers were bound to tokens): they get its
/// units from now on. The games counted out stay out; they were played
/// again by others. How many workers were excluded before.
///
/// # Errors
/// SQLite's.
pub fn readmit(
    db: &Connection,
    campaign: &CampaignId,
    token: &TokenHash,
    worker: &WorkerId,
) -> rusqlite::Result<u64> {
    db.execute(
        "delete from excluded_tokens where campaign_id = ?1 and token_hash = ?2",
        params![campaign, token],
    )?;
    let workers = db.execute(
        &format!("delete from exclusions where campaign_id = ?1 and worker_id in ({SAME_TOKEN})"),
        params![campaign, token, worker],
    )?;
    Ok(u64::try_from(workers).unwrap_or(u64::MAX))
}

/// The workers excluded from `campaign`, in the order excluded.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for an id that does not read.
pub fn of_campaign(db: &Connection, campaign: &CampaignId) -> rusqlite::Result<Vec<WorkerId>> {
    let mut stmt = db
        .prepare("select worker_id, rowid from exclusions where campaign_id = ?1 order by rowid")?;
    let rows = stmt.query_map([campaign], |r| parsed(r, 0, "exclusions", "worker_id"))?;
    rows.collect()
}

/// Every excluded worker, in the order excluded.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for an id that does not read.
pub fn all(db: &Connection) -> rusqlite::Result<Vec<Exclusion>> {
    let mut stmt =
        db.prepare("select campaign_id, worker_id, rowid from exclusions order by rowid")?;
    let rows = stmt.query_map([], |r| {
        Ok(Exclusion {
            campaign: parsed(r, 0, "exclusions", "campaign_id")?,
            worker: parsed(r, 1, "exclusions", "worker_id")?,
        })
    })?;
    rows.collect()
}

/// Whether `worker` is excluded from `campaign`, itself or by its token.
///
/// # Errors
/// SQLite's.
pub fn is_excluded(
    db: &Connection,
    campaign: &CampaignId,
    worker: &WorkerId,
) -> rusqlite::Result<bool> {
    let found: Option<i64> = db
        .query_row(
            "select 1 from exclusions where campaign_id = ?1 and worker_id = ?2
             union select 1 from excluded_tokens t join workers w on w.token_hash = t.token_hash
               where t.campaign_id = ?1 and w.id = ?2",
            params![campaign, worker],
            |r| r.get(0),
        )
        .optional()?;
    Ok(found.is_some())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::LeaseToken;
    use crate::state::units::{self, LeaseGrant, NewUnit};
    use crate::state::{schema, workers};

    fn register(db: &Connection, hex: &str, token: &TokenHash) -> rusqlite::Result<WorkerId> {
        let id = WorkerId::issue(hex);
        workers::insert(
            db,
            &workers::NewWorker {
                id: &id,
                name: "host",
                version: "0",
                cores: 1,
                signature: 1,
                token,
                registered_ms: 0,
            },
        )?;
        Ok(id)
    }

    fn lease(db: &Connection, unit: &UnitId, worker: &WorkerId) -> rusqlite::Result<()> {
        let token = LeaseToken::new("t");
        units::insert_leased(
            db,
            &NewUnit {
                id: unit,
                pair_count: 2,
                spsa: "",
                lease: LeaseGrant {
                    token: &token,
                    worker,
                    deadline_ms: 0,
                    leased_ms: 0,
                },
            },
        )
    }

    #[test]
    fn a_worker_is_excluded_with_its_token() -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        let campaign: CampaignId = "c".parse()?;
        let (shared, own) = (TokenHash::of("shared"), TokenHash::of("own"));
        let a = register(&db, "aaaaaaaaaaaa", &shared)?;
        let b = register(&db, "bbbbbbbbbbbb", &shared)?;
        let c = register(&db, "cccccccccccc", &own)?;
        for (first, worker) in [(0, &a), (2, &b), (4, &c)] {
            lease(&db, &UnitId::new(&campaign, first), worker)?;
        }
        db.execute_batch(
            "insert into results (unit_id, campaign_id, worker_id) values ('c-0', 'c', 'w-aaaaaaaaaaaa');
             insert into results (unit_id, campaign_id, worker_id) values ('c-4', 'c', 'w-cccccccccccc');",
        )?;
        assert!(!is_excluded(&db, &campaign, &b)?);
        assert!(exclude_token(&db, &campaign, &shared, 1)?);
        assert!(!exclude_token(&db, &campaign, &shared, 2)?);
        assert!(is_excluded(&db, &campaign, &b)?, "by its token");
        assert_eq!(exclude_workers(&db, &campaign, &shared, &a)?, 2);
        assert_eq!(exclude_workers(&db, &campaign, &shared, &a)?, 0);
        assert_eq!(free_units_of(&db, &campaign, &shared, &a)?, 2);
        assert_eq!(
            counted_units_of(&db, &campaign, &shared, &a)?,
            [CountedUnit {
                unit: UnitId::new(&campaign, 0),
                worker: a.clone()
            }]
        );
        let excluded: Vec<WorkerId> = all(&db)?.into_iter().map(|e| e.worker).collect();
        assert_eq!(excluded, [a.clone(), b.clone()]);
        assert_eq!(of_campaign(&db, &campaign)?, [a.clone(), b.clone()]);
        assert!(!is_excluded(&db, &campaign, &c)?);
        assert_eq!(readmit(&db, &campaign, &shared, &a)?, 2, "with its token");
        assert!(!is_excluded(&db, &campaign, &b)?);
        assert!(of_campaign(&db, &campaign)?.is_empty());
        assert!(
            exclude_token(&db, &campaign, &shared, 3)?,
            "may be excluded again"
        );
        Ok(())
    }

    #[test]
    fn a_worker_without_a_token_is_excluded_alone() -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        let campaign: CampaignId = "c".parse()?;
        let none = TokenHash::stored(String::new());
        let a = register(&db, "aaaaaaaaaaaa", &none)?;
        register(&db, "bbbbbbbbbbbb", &none)?;
        assert_eq!(exclude_workers(&db, &campaign, &none, &a)?, 1);
        assert!(is_excluded(&db, &campaign, &a)?);
        db.execute("insert into exclusions values ('c', 'x')", [])?;
        let message = all(&db).map_err(|e| e.to_string());
        assert!(
            message
                .as_ref()
                .is_err_and(|m| m.contains("exclusions row 2: worker_id: \"x\"")),
            "{message:?}"
        );
        Ok(())
    }
}
