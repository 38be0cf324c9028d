//! The `spsa_history` table: an SPSA tune's state after each update (θ,
//! the iterations completed, the next perturbation's id), from which a
//! restarted coordinator resumes the tune and its trajectory file is
//! written.

use super::row::{parsed_or_empty, row_error};
use crate::ids::{CampaignId, UnitId};
use rusqlite::{Connection, OptionalExtension, Row, params};

/// An SPSA tune's state after one update.
#[derive(Clone, Debug, PartialEq)]
pub struct SpsaSnapshot {
    /// The update's number: 0 for the start, then 1, 2, … per counted unit.
    pub seq: u64,
    /// The unit whose games made the update; `None` for the start.
    pub unit: Option<UnitId>,
    /// Iterations (pairs) applied so far.
    pub completed: u64,
    /// The id the tune's next perturbation gets.
    pub next_id: u64,
    /// θ, in the order of the tune's parameters.
    pub theta: Vec<f64>,
}

/// A count as stored: `u64` beyond `i64::MAX` saturates.
fn stored(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A count as stored (never negative) as `u64`.
fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// Saves `snapshot` of campaign `campaign`'s tune.
///
/// # Errors
/// SQLite's (an update number saved before included).
pub fn save(
    db: &Connection,
    campaign: &CampaignId,
    snapshot: &SpsaSnapshot,
) -> rusqlite::Result<()> {
    let theta = serde_json::to_string(&snapshot.theta)
        .map_err(|e| rusqlite::Error::ToSqlConversionFailure(Box::new(e)))?;
    db.execute(
        "insert into spsa_history values (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            campaign,
            stored(snapshot.seq),
            snapshot
                .unit
                .as_ref()
                .map_or_else(String::new, ToString::to_string),
            stored(snapshot.completed),
            stored(snapshot.next_id),
            theta
        ],
    )?;
    Ok(())
}

const COLUMNS: &str = "seq, unit_id, completed, next_id, theta, rowid";

/// A snapshot of a row selected with [`COLUMNS`].
fn snapshot(r: &Row<'_>) -> rusqlite::Result<SpsaSnapshot> {
    let text: String = r.get(4)?;
    let theta = serde_json::from_str(&text)
        .map_err(|e| row_error(r, 4, "spsa_history", "theta", format!("{text:?}: {e}")))?;
    Ok(SpsaSnapshot {
        seq: count(r.get(0)?),
        unit: parsed_or_empty(r, 1, "spsa_history", "unit_id")?,
        completed: count(r.get(2)?),
        next_id: count(r.get(3)?),
        theta,
    })
}

/// Campaign `campaign`'s snapshots, the start first.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a unit id or θ that does not read.
pub fn history(db: &Connection, campaign: &CampaignId) -> rusqlite::Result<Vec<SpsaSnapshot>> {
    let mut stmt = db.prepare(&format!(
        "select {COLUMNS} from spsa_history where campaign_id = ?1 order by seq"
    ))?;
    let rows = stmt.query_map([campaign], snapshot)?;
    rows.collect()
}

/// Campaign `campaign`'s latest snapshot, if any.
///
/// # Errors
/// As [`history`].
pub fn latest(db: &Connection, campaign: &CampaignId) -> rusqlite::Result<Option<SpsaSnapshot>> {
    db.query_row(
        &format!(
            "select {COLUMNS} from spsa_history where campaign_id = ?1 order by seq desc limit 1"
        ),
        [campaign],
        snapshot,
    )
    .optional()
}

/// The number of campaign `campaign`'s next update.
///
/// # Errors
/// SQLite's.
pub fn next_seq(db: &Connection, campaign: &CampaignId) -> rusqlite::Result<u64> {
    db.query_row(
        "select coalesce(max(seq), 0) + 1 from spsa_history where campaign_id = ?1",
        [campaign],
        |r| r.get(0).map(count),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::schema;

    #[test]
    fn a_tune_s_snapshots_come_back_in_order() -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        let campaign: CampaignId = "tune".parse()?;
        assert_eq!(latest(&db, &campaign)?, None);
        assert_eq!(next_seq(&db, &campaign)?, 1);
        let start = SpsaSnapshot {
            seq: 0,
            unit: None,
            completed: 0,
            next_id: 0,
            theta: vec![1.0, -2.5],
        };
        let first = SpsaSnapshot {
            seq: 1,
            unit: Some(UnitId::new(&campaign, 0)),
            completed: 8,
            next_id: 2,
            theta: vec![1.25, -2.0],
        };
        save(&db, &campaign, &start)?;
        save(&db, &campaign, &first)?;
        assert!(save(&db, &campaign, &first).is_err(), "one row per update");
        assert_eq!(history(&db, &campaign)?, [start, first.clone()]);
        assert_eq!(latest(&db, &campaign)?, Some(first));
        assert_eq!(next_seq(&db, &campaign)?, 2);
        Ok(())
    }

    #[test]
    fn a_theta_that_does_not_read_names_its_row() -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        db.execute(
            "insert into spsa_history values ('tune', 0, '', 0, 0, '[1,')",
            [],
        )?;
        let message = history(&db, &"tune".parse()?).map_err(|e| e.to_string());
        assert!(
            message
                .as_ref()
                .is_err_and(|m| m.contains("spsa_history row 1: theta: \"[1,\"")),
            "{message:?}"
        );
        Ok(())
    }
}
