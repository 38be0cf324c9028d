//! The `unit_starts` table: White's wins, draws and losses per start
//! position in each counted unit of a first-move campaign, so that the
//! campaign's per-start scores are read from the state (summed over its
//! units, and counted out with a unit) rather than from its games files.

use super::row::count;
use crate::ids::{CampaignId, UnitId};
use ajaxlab_stats::Trinomial;
use rusqlite::{Connection, params};

/// A start position: its number (a numbered variant's), else its FEN.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Start {
    /// A numbered start (AMRC, Chess960).
    Number(u32),
    /// A start known by its FEN.
    Fen(String),
}

impl Start {
    /// As stored: the number (-1 for none) and the FEN (empty for a number).
    fn stored(&self) -> (i64, &str) {
        match self {
            Start::Number(n) => (i64::from(*n), ""),
            Start::Fen(fen) => (-1, fen),
        }
    }
}

/// Records unit `unit`'s White counts per start (replacing earlier rows).
///
/// # Errors
/// SQLite's.
pub fn insert(
    db: &Connection,
    unit: &UnitId,
    counts: &[(Start, Trinomial)],
) -> rusqlite::Result<()> {
    db.execute("delete from unit_starts where unit_id = ?1", [unit])?;
    let mut stmt = db.prepare(
        "insert into unit_starts (unit_id, campaign_id, start_number, start_fen, white_wins, white_draws, white_losses)
         values (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?;
    for (start, t) in counts {
        let (number, fen) = start.stored();
        let n = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        stmt.execute(params![
            unit,
            unit.campaign(),
            number,
            fen,
            n(t.wins),
            n(t.draws),
            n(t.losses)
        ])?;
    }
    Ok(())
}

/// Deletes unit `unit`'s rows (a unit counted out).
///
/// # Errors
/// SQLite's.
pub fn delete(db: &Connection, unit: &UnitId) -> rusqlite::Result<()> {
    db.execute("delete from unit_starts where unit_id = ?1", [unit])?;
    Ok(())
}

/// Campaign `campaign`'s White counts per start, over its counted units.
///
/// # Errors
/// SQLite's.
pub fn of_campaign(
    db: &Connection,
    campaign: &CampaignId,
) -> rusqlite::Result<Vec<(Start, Trinomial)>> {
    let mut stmt = db.prepare(
        "select start_number, start_fen, sum(white_wins), sum(white_draws), sum(white_losses)
         from unit_starts where campaign_id = ?1 group by start_number, start_fen",
    )?;
    let rows = stmt.query_map([campaign], |r| {
        let number: i64 = r.get(0)?;
        let start = match u32::try_from(number) {
            Ok(n) => Start::Number(n),
            Err(_) => Start::Fen(r.get(1)?),
        };
        let n = |i: usize| r.get::<_, i64>(i).map(count);
        Ok((start, Trinomial::new(n(4)?, n(3)?, n(2)?)))
    })?;
    rows.collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::schema;

    #[test]
    fn a_campaign_s_starts_sum_its_units_and_lose_a_unit_counted_out()
    -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        let c: CampaignId = "c".parse()?;
        let (u0, u2) = (UnitId::new(&c, 0), UnitId::new(&c, 2));
        let fen = Start::Fen("8/8/8/8/8/8/8/K6k w - - 0 1".into());
        insert(
            &db,
            &u0,
            &[
                (Start::Number(7), Trinomial::new(0, 1, 1)),
                (fen.clone(), Trinomial::new(1, 0, 0)),
            ],
        )?;
        insert(&db, &u2, &[(Start::Number(7), Trinomial::new(1, 1, 0))])?;
        let mut starts = of_campaign(&db, &c)?;
        starts.sort_by(|a, b| a.0.cmp(&b.0));
        assert_eq!(
            starts,
            [
                (Start::Number(7), Trinomial::new(1, 2, 1)),
                (fen, Trinomial::new(1, 0, 0))
            ]
        );
        delete(&db, &u0)?;
        assert_eq!(
            of_campaign(&db, &c)?,
            [(Start::Number(7), Trinomial::new(1, 1, 0))]
        );
        Ok(())
    }
}
