//! The `results` table: each counted unit's pair results and White's
//! game results, who played it, and its games file as counted (SHA-256,
//! size, games); written as a unit is counted, summed per worker or run
//! up in the order the units were counted, and read back to check the
//! files.

use super::row::{count, parsed, stored};
use crate::ids::{CampaignId, UnitId, WorkerId};
use ajaxlab_stats::{Pentanomial, Trinomial};
use rusqlite::{Connection, Row, params};

/// A games file as recorded when its unit is counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GamesFileRecord {
    /// SHA-256 of its bytes, in hex.
    pub sha256: String,
    /// Its size, bytes.
    pub bytes: u64,
    /// Games in it.
    pub games: u64,
}

/// A unit as it is counted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountedResult<'a> {
    /// The unit.
    pub unit: &'a UnitId,
    /// The worker that played it.
    pub worker: &'a WorkerId,
    /// The first player's pair results.
    pub pentanomial: Pentanomial,
    /// White's game results.
    pub white: Trinomial,
    /// The first player's game results.
    pub first: Trinomial,
    /// When it was counted, Unix milliseconds.
    pub done_ms: i64,
    /// Its games file.
    pub file: &'a GamesFileRecord,
    /// How its games went beyond their results.
    pub play: UnitPlay,
}

/// How games went beyond their results, for the check that flags a token
/// whose games end in claimed engine failures, or far sooner, than the
/// others': a worker can claim that the opponent's engine crashed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitPlay {
    /// Games.
    pub games: u64,
    /// Games ended by an engine's failure: a crash, a timeout, an illegal move.
    pub failures: u64,
    /// Plies played, over all the games.
    pub plies: u64,
}

impl UnitPlay {
    /// How `games` went.
    pub fn of(games: &[crate::GameRecord]) -> UnitPlay {
        use crate::Termination;
        UnitPlay {
            games: games.len() as u64,
            failures: games
                .iter()
                .filter(|g| {
                    matches!(
                        g.termination,
                        Termination::EngineCrash
                            | Termination::EngineTimeout
                            | Termination::IllegalMove
                    )
                })
                .count() as u64,
            plies: games.iter().map(|g| g.moves.len() as u64).sum(),
        }
    }
}

impl std::ops::Add for UnitPlay {
    type Output = UnitPlay;

    fn add(self, other: UnitPlay) -> UnitPlay {
        UnitPlay {
            games: self.games + other.games,
            failures: self.failures + other.failures,
            plies: self.plies + other.plies,
        }
    }
}

impl std::ops::Sub for UnitPlay {
    type Output = UnitPlay;

    fn sub(self, other: UnitPlay) -> UnitPlay {
        UnitPlay {
            games: self.games.saturating_sub(other.games),
            failures: self.failures.saturating_sub(other.failures),
            plies: self.plies.saturating_sub(other.plies),
        }
    }
}

/// A counted unit's file as its row recorded it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountedFile {
    /// The unit.
    pub unit: UnitId,
    /// Its campaign.
    pub campaign: CampaignId,
    /// SHA-256 of the file as counted (empty if not recorded).
    pub sha256: String,
    /// Its size as counted, bytes (`None` for a unit counted before files
    /// were recorded).
    pub bytes: Option<u64>,
    /// Its games as counted (`None` as for `bytes`).
    pub games: Option<u64>,
}

/// Records a counted unit's results (replacing an earlier row of it).
///
/// # Errors
/// SQLite's.
pub fn insert(db: &Connection, result: &CountedResult<'_>) -> rusqlite::Result<()> {
    let p = result.pentanomial.0.map(stored);
    let w = [result.white.wins, result.white.draws, result.white.losses].map(stored);
    let f = [result.first.wins, result.first.draws, result.first.losses].map(stored);
    db.execute(
        "insert or replace into results (unit_id, campaign_id, worker_id, ll, ld, dd, wd, ww, done_ms, white_wins, white_draws, white_losses, file_sha256, file_bytes, games, failures, plies, first_wins, first_draws, first_losses)
         values (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20)",
        params![
            result.unit,
            result.unit.campaign(),
            result.worker,
            p[0],
            p[1],
            p[2],
            p[3],
            p[4],
            result.done_ms,
            w[0],
            w[1],
            w[2],
            result.file.sha256,
            stored(result.file.bytes),
            stored(result.file.games),
            stored(result.play.failures),
            stored(result.play.plies),
            f[0],
            f[1],
            f[2]
        ],
    )?;
    Ok(())
}

/// Deletes unit `unit`'s results (a unit counted out), its counts per
/// start included.
///
/// # Errors
/// SQLite's.
pub fn delete(db: &Connection, unit: &UnitId) -> rusqlite::Result<()> {
    db.execute("delete from results where unit_id = ?1", [unit])?;
    super::starts::delete(db, unit)
}

/// Records unit `unit`'s games file, for a unit counted before files were.
///
/// # Errors
/// SQLite's.
pub fn record_file(db: &Connection, unit: &UnitId, file: &GamesFileRecord) -> rusqlite::Result<()> {
    db.execute(
        "update results set file_sha256 = ?2, file_bytes = ?3, games = ?4 where unit_id = ?1",
        params![unit, file.sha256, stored(file.bytes), stored(file.games)],
    )?;
    Ok(())
}

/// Every counted unit's file as recorded, in the order counted.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for an id that does not read.
pub fn counted_files(db: &Connection) -> rusqlite::Result<Vec<CountedFile>> {
    let mut stmt = db.prepare(
        "select unit_id, campaign_id, file_sha256, file_bytes, games, rowid from results order by rowid",
    )?;
    let recorded = |n: i64| u64::try_from(n).ok();
    let rows = stmt.query_map([], |r| {
        Ok(CountedFile {
            unit: parsed(r, 0, "results", "unit_id")?,
            campaign: parsed(r, 1, "results", "campaign_id")?,
            sha256: r.get(2)?,
            bytes: recorded(r.get(3)?),
            games: recorded(r.get(4)?),
        })
    })?;
    rows.collect()
}

/// The counted units of `campaign` that `worker` played.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a unit id that does not read.
pub fn units_of(
    db: &Connection,
    campaign: &CampaignId,
    worker: &WorkerId,
) -> rusqlite::Result<Vec<UnitId>> {
    let mut stmt = db.prepare(
        "select unit_id, rowid from results where campaign_id = ?1 and worker_id = ?2 order by rowid",
    )?;
    let rows = stmt.query_map(params![campaign, worker], |r| {
        parsed(r, 0, "results", "unit_id")
    })?;
    rows.collect()
}

/// The first player's pair results over the counted units of `campaign`,
/// per worker that played them, by id: one pass over its units.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a worker id that does not read.
pub fn per_worker(
    db: &Connection,
    campaign: &CampaignId,
) -> rusqlite::Result<Vec<(WorkerId, Pentanomial)>> {
    let mut stmt = db.prepare(
        "select worker_id, sum(ll), sum(ld), sum(dd), sum(wd), sum(ww), min(rowid) as rowid
         from results where campaign_id = ?1 group by worker_id order by worker_id",
    )?;
    let rows = stmt.query_map([campaign], |r| {
        let n = |i: usize| r.get::<_, Option<i64>>(i).map(|v| count(v.unwrap_or(0)));
        Ok((
            parsed(r, 0, "results", "worker_id")?,
            Pentanomial([n(1)?, n(2)?, n(3)?, n(4)?, n(5)?]),
        ))
    })?;
    rows.collect()
}

/// How the counted games of `campaign` went, by the token hash of the
/// workers that played them (empty for workers registered before workers
/// were bound to tokens); units counted before their failures and plies
/// were recorded are left out.
///
/// # Errors
/// SQLite's.
pub fn play_by_token(
    db: &Connection,
    campaign: &CampaignId,
) -> rusqlite::Result<Vec<(super::TokenHash, UnitPlay)>> {
    let mut stmt = db.prepare(
        "select coalesce(w.token_hash, ''), sum(r.ll + r.ld + r.dd + r.wd + r.ww) * 2,
                sum(r.failures), sum(r.plies)
         from results r left join workers w on w.id = r.worker_id
         where r.campaign_id = ?1 and r.plies >= 0 and r.failures >= 0 group by 1",
    )?;
    let rows = stmt.query_map([campaign], |r| {
        Ok((
            super::TokenHash::stored(r.get(0)?),
            UnitPlay {
                games: count(r.get(1)?),
                failures: count(r.get(2)?),
                plies: count(r.get(3)?),
            },
        ))
    })?;
    rows.collect()
}

/// The pair results of a row whose first five columns are `ll` to `ww`.
fn pentanomial(r: &Row<'_>) -> rusqlite::Result<Pentanomial> {
    let n = |i: usize| r.get::<_, i64>(i).map(count);
    Ok(Pentanomial([n(0)?, n(1)?, n(2)?, n(3)?, n(4)?]))
}

/// Campaign `campaign`'s pair results after each counted unit, in the
/// order counted.
///
/// # Errors
/// SQLite's.
pub fn running_totals(
    db: &Connection,
    campaign: &CampaignId,
) -> rusqlite::Result<Vec<Pentanomial>> {
    let mut stmt =
        db.prepare("select ll, ld, dd, wd, ww from results where campaign_id = ?1 order by rowid")?;
    let rows = stmt.query_map([campaign], pentanomial)?;
    let mut total = Pentanomial::default();
    let mut out = Vec::new();
    for row in rows {
        total += row?;
        out.push(total);
    }
    Ok(out)
}

/// Pairs of `campaign` counted at or after `since_ms`, and the time of the
/// first of those units (`None` if there is none): its recent pace.
///
/// # Errors
/// SQLite's.
pub fn pairs_since(
    db: &Connection,
    campaign: &CampaignId,
    since_ms: i64,
) -> rusqlite::Result<(u64, Option<i64>)> {
    db.query_row(
        "select coalesce(sum(ll + ld + dd + wd + ww), 0), min(done_ms) from results
         where campaign_id = ?1 and done_ms >= ?2",
        params![campaign, since_ms],
        |r| Ok((super::row::count(r.get(0)?), r.get(1)?)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::schema;

    #[test]
    fn totals_run_up_in_the_order_counted_and_split_by_worker()
    -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        db.execute_batch(
            "insert into results (unit_id, campaign_id, worker_id, ll, ld, dd, wd, ww)
               values ('c-0', 'c', 'w-a', 1, 0, 0, 0, 1), ('c-2', 'c', 'w-b', 0, 0, 2, 0, 0),
                      ('c-4', 'c', 'w-a', 0, 1, 0, 1, 0), ('d-0', 'd', 'w-a', 5, 5, 5, 5, 5);",
        )?;
        let c: CampaignId = "c".parse()?;
        assert_eq!(
            running_totals(&db, &c)?,
            [
                Pentanomial([1, 0, 0, 0, 1]),
                Pentanomial([1, 0, 2, 0, 1]),
                Pentanomial([1, 1, 2, 1, 1])
            ]
        );
        let by_worker = per_worker(&db, &c)?;
        assert_eq!(
            by_worker
                .iter()
                .find(|(w, _)| w.as_str() == "w-a")
                .map(|(_, p)| *p),
            Some(Pentanomial([1, 1, 0, 1, 1]))
        );
        assert!(by_worker.iter().all(|(w, _)| w.as_str() != "w-z"));
        Ok(())
    }

    #[test]
    fn a_counted_unit_is_written_checked_and_deleted() -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        let c: CampaignId = "c".parse()?;
        let (u0, u2) = (UnitId::new(&c, 0), UnitId::new(&c, 2));
        let (a, b): (WorkerId, WorkerId) = ("w-b".parse()?, "w-a".parse()?);
        let file = GamesFileRecord {
            sha256: "ab".to_owned(),
            bytes: 100,
            games: 4,
        };
        for (unit, worker) in [(&u0, &a), (&u2, &b)] {
            insert(
                &db,
                &CountedResult {
                    unit,
                    worker,
                    pentanomial: Pentanomial([0, 1, 1, 0, 0]),
                    white: Trinomial::new(1, 2, 1),
                    first: Trinomial::new(1, 2, 1),
                    done_ms: 5,
                    file: &file,
                    play: UnitPlay {
                        games: 4,
                        failures: 1,
                        plies: 200,
                    },
                },
            )?;
        }
        assert_eq!(
            running_totals(&db, &c)?.last(),
            Some(&Pentanomial([0, 2, 2, 0, 0]))
        );
        assert_eq!(
            play_by_token(&db, &c)?,
            [(
                super::super::TokenHash::stored(String::new()),
                UnitPlay {
                    games: 8,
                    failures: 2,
                    plies: 400
                }
            )]
        );
        let workers: Vec<WorkerId> = per_worker(&db, &c)?.into_iter().map(|(w, _)| w).collect();
        assert_eq!(workers, [b, a.clone()], "by id");
        assert_eq!(units_of(&db, &c, &a)?, std::slice::from_ref(&u0));
        db.execute(
            "insert into results (unit_id, campaign_id, worker_id) values ('c-4', 'c', 'w-a')",
            [],
        )?;
        let files = counted_files(&db)?;
        assert_eq!(
            files.iter().map(|f| (f.bytes, f.games)).collect::<Vec<_>>(),
            [(Some(100), Some(4)), (Some(100), Some(4)), (None, None)]
        );
        record_file(&db, &UnitId::new(&c, 4), &file)?;
        assert_eq!(counted_files(&db)?[2].bytes, Some(100));
        delete(&db, &u0)?;
        assert_eq!(units_of(&db, &c, &a)?, []);
        db.execute(
            "update results set worker_id = 'nobody' where unit_id = 'c-2'",
            [],
        )?;
        let message = per_worker(&db, &c).map_err(|e| e.to_string());
        assert!(
            message
                .as_ref()
                .is_err_and(|m| m.contains("results row 2: worker_id: \"nobody\"")),
            "{message:?}"
        );
        Ok(())
    }
}
