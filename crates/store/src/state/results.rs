//! The `results` table, read: each counted unit's pair results, summed
//! per worker or run up in the order the units were counted.

use crate::ids::{CampaignId, WorkerId};
use ajaxlab_stats::Pentanomial;
use rusqlite::{Connection, Row, params};

/// The pair results of a row whose first five columns are `ll` to `ww`.
fn pentanomial(r: &Row<'_>) -> rusqlite::Result<Pentanomial> {
    let n = |i: usize| r.get::<_, i64>(i).map(|n| u64::try_from(n).unwrap_or(0));
    Ok(Pentanomial([n(0)?, n(1)?, n(2)?, n(3)?, n(4)?]))
}

/// The first player's pair results over the units of `campaign` that
/// `worker` played.
///
/// # Errors
/// SQLite's.
pub fn of_worker(
    db: &Connection,
    campaign: &CampaignId,
    worker: &WorkerId,
) -> rusqlite::Result<Pentanomial> {
    db.query_row(
        "select coalesce(sum(ll),0), coalesce(sum(ld),0), coalesce(sum(dd),0), coalesce(sum(wd),0), coalesce(sum(ww),0)
         from results where campaign_id = ?1 and worker_id = ?2",
        params![campaign, worker],
        pentanomial,
    )
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
        assert_eq!(
            of_worker(&db, &c, &"w-a".parse()?)?,
            Pentanomial([1, 1, 0, 1, 1])
        );
        assert_eq!(of_worker(&db, &c, &"w-z".parse()?)?, Pentanomial::default());
        Ok(())
    }
}
