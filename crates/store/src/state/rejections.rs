//! The `rejections` table: each refused submission of a unit, by the
//! token it came under, so that one token cannot stop a campaign for
//! everyone and a unit refused under many tokens is seen.

use super::tokens::TokenHash;
use crate::ids::{CampaignId, UnitId};
use rusqlite::{Connection, params};

/// Records that `unit` of `campaign` was refused under `token` at `at_ms`.
///
/// # Errors
/// SQLite's.
pub fn record(
    db: &Connection,
    campaign: &CampaignId,
    unit: &UnitId,
    token: &TokenHash,
    at_ms: i64,
) -> rusqlite::Result<()> {
    db.execute(
        "insert into rejections (campaign_id, unit_id, token_hash, at_ms) values (?1, ?2, ?3, ?4)",
        params![campaign, unit, token, at_ms],
    )?;
    Ok(())
}

/// Submissions of `campaign` refused under `token`.
///
/// # Errors
/// SQLite's.
pub fn of_token(
    db: &Connection,
    campaign: &CampaignId,
    token: &TokenHash,
) -> rusqlite::Result<u64> {
    db.query_row(
        "select count(*) from rejections where campaign_id = ?1 and token_hash = ?2",
        params![campaign, token],
        |r| r.get::<_, i64>(0).map(super::row::count),
    )
}

/// Different tokens under which `unit` was refused.
///
/// # Errors
/// SQLite's.
pub fn tokens_refusing(db: &Connection, unit: &UnitId) -> rusqlite::Result<u64> {
    db.query_row(
        "select count(distinct token_hash) from rejections where unit_id = ?1",
        [unit],
        |r| r.get::<_, i64>(0).map(super::row::count),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::schema;

    #[test]
    fn refusals_are_counted_by_token_and_by_unit() -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        let (c, d): (CampaignId, CampaignId) = ("c".parse()?, "d".parse()?);
        let (x, y) = (TokenHash::of("x"), TokenHash::of("y"));
        let (u0, u2) = (UnitId::new(&c, 0), UnitId::new(&c, 2));
        record(&db, &c, &u0, &x, 1)?;
        record(&db, &c, &u0, &x, 2)?;
        record(&db, &c, &u2, &x, 3)?;
        record(&db, &c, &u0, &y, 4)?;
        assert_eq!(of_token(&db, &c, &x)?, 3);
        assert_eq!(of_token(&db, &c, &y)?, 1);
        assert_eq!(of_token(&db, &d, &x)?, 0);
        assert_eq!(tokens_refusing(&db, &u0)?, 2);
        assert_eq!(tokens_refusing(&db, &u2)?, 1);
        assert_eq!(tokens_refusing(&db, &UnitId::new(&d, 0))?, 0);
        Ok(())
    }
}
