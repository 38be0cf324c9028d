//! The `campaigns` table: each campaign's file, where it is in its life,
//! its priority and size, and its running totals (the first player's pair
//! results and White's game results over its counted units).

use super::row::{count, parsed, stored};
pub use crate::campaign_state::{CampaignState, UnknownCampaignState};
use crate::ids::CampaignId;
use ajaxlab_stats::{Pentanomial, Trinomial};
use rusqlite::{Connection, OptionalExtension, params};

/// A campaign as it is created: running, no pair handed out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewCampaign<'a> {
    /// Its id.
    pub id: &'a CampaignId,
    /// The campaign file it was created from.
    pub config_toml: &'a str,
    /// Its share of the workers, relative to other campaigns'.
    pub priority: u32,
    /// Pairs to play.
    pub pairs_total: u64,
    /// Which workers' builds may play it.
    pub gate: BuildGate,
    /// When it was created, Unix milliseconds.
    pub created_ms: i64,
    /// Who created it: the label of the operator's token, or what ran it
    /// (`local` for `campaign run` and `match`).
    pub created_by: &'a str,
}

/// Which workers' builds may play a campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BuildGate {
    /// Only workers whose builtin engine benches to this signature (its
    /// node count): the campaign's games are the builtin engine's, which
    /// must be one build for its results to mean one thing.
    Signature(u64),
    /// Every worker: the players are UCI engines that travel with the
    /// campaign (their builds checked by their own `bench`).
    AnyBuild,
}

impl BuildGate {
    /// As stored: the signature's bits, or 0 (no bench counts no nodes).
    fn stored(self) -> i64 {
        match self {
            BuildGate::Signature(signature) => signature.cast_signed(),
            BuildGate::AnyBuild => 0,
        }
    }
}

/// A stored campaign's life and totals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CampaignRecord {
    /// Where it is in its life.
    pub state: CampaignState,
    /// Its share of the workers.
    pub priority: u32,
    /// Pairs to play.
    pub pairs_total: u64,
    /// The first player's pair results over its counted units.
    pub pentanomial: Pentanomial,
    /// White's game results over its counted units.
    pub white: Trinomial,
    /// The first player's game results over its counted units (short of
    /// its games if some were counted before they were kept).
    pub first: Trinomial,
    /// When it was created, Unix milliseconds.
    pub created_ms: i64,
    /// Who created it (empty for campaigns created before this was kept).
    pub created_by: String,
}

/// A stored campaign's id and file, as a coordinator rebuilds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredCampaign {
    /// Its id.
    pub id: CampaignId,
    /// The campaign file it was created from.
    pub config_toml: String,
}

/// Whether a campaign of id `id` is stored.
///
/// # Errors
/// SQLite's.
pub fn exists(db: &Connection, id: &CampaignId) -> rusqlite::Result<bool> {
    Ok(db
        .query_row("select 1 from campaigns where id = ?1", [id], |_| Ok(()))
        .optional()?
        .is_some())
}

/// Stores a new campaign, running.
///
/// # Errors
/// SQLite's (an id stored before included).
pub fn insert(db: &Connection, campaign: &NewCampaign<'_>) -> rusqlite::Result<()> {
    db.execute(
        "insert into campaigns (id, config_toml, state, priority, pairs_total, next_pair, signature, created_ms, created_by)
         values (?1, ?2, ?7, ?3, ?4, 0, ?5, ?6, ?8)",
        params![
            campaign.id,
            campaign.config_toml,
            campaign.priority,
            stored(campaign.pairs_total),
            campaign.gate.stored(),
            campaign.created_ms,
            CampaignState::Running.as_str(),
            campaign.created_by
        ],
    )?;
    Ok(())
}

/// Campaign `id`'s life and totals, if it is stored.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a state this build does not know.
pub fn record(db: &Connection, id: &CampaignId) -> rusqlite::Result<Option<CampaignRecord>> {
    db.query_row(
        "select state, priority, pairs_total, ll, ld, dd, wd, ww,
                white_wins, white_draws, white_losses, created_ms, created_by,
                first_wins, first_draws, first_losses, rowid
         from campaigns where id = ?1",
        [id],
        |r| {
            let n = |i: usize| r.get::<_, i64>(i).map(count);
            Ok(CampaignRecord {
                state: parsed(r, 0, "campaigns", "state")?,
                priority: r.get(1)?,
                pairs_total: n(2)?,
                pentanomial: Pentanomial([n(3)?, n(4)?, n(5)?, n(6)?, n(7)?]),
                white: Trinomial::new(n(10)?, n(9)?, n(8)?),
                created_ms: r.get(11)?,
                created_by: r.get(12)?,
                first: Trinomial::new(n(15)?, n(14)?, n(13)?),
            })
        },
    )
    .optional()
}

/// Every stored campaign's id, in the order they were created.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for an id that breaks the rule.
pub fn ids(db: &Connection) -> rusqlite::Result<Vec<CampaignId>> {
    let mut stmt = db.prepare("select id, rowid from campaigns order by created_ms")?;
    let rows = stmt.query_map([], |r| parsed(r, 0, "campaigns", "id"))?;
    rows.collect()
}

/// Every stored campaign with its file.
///
/// # Errors
/// As [`ids`].
pub fn all(db: &Connection) -> rusqlite::Result<Vec<StoredCampaign>> {
    let mut stmt = db.prepare("select id, config_toml, rowid from campaigns")?;
    let rows = stmt.query_map([], |r| {
        Ok(StoredCampaign {
            id: parsed(r, 0, "campaigns", "id")?,
            config_toml: r.get(1)?,
        })
    })?;
    rows.collect()
}

/// The campaign file `id` was created from, if it is stored.
///
/// # Errors
/// SQLite's.
pub fn config_toml(db: &Connection, id: &CampaignId) -> rusqlite::Result<Option<String>> {
    db.query_row(
        "select config_toml from campaigns where id = ?1",
        [id],
        |r| r.get(0),
    )
    .optional()
}

/// Records that campaign `id`'s pairs up to `next_pair` are in units.
///
/// # Errors
/// SQLite's.
pub fn set_next_pair(db: &Connection, id: &CampaignId, next_pair: u64) -> rusqlite::Result<()> {
    db.execute(
        "update campaigns set next_pair = ?2 where id = ?1",
        params![id, stored(next_pair)],
    )?;
    Ok(())
}

/// Gives campaign `id` a new file that asks for `pairs_total` pairs, at
/// least as many as it had (the pairs handed out stay handed out).
///
/// # Errors
/// SQLite's.
pub fn extend(
    db: &Connection,
    id: &CampaignId,
    config_toml: &str,
    pairs_total: u64,
) -> rusqlite::Result<()> {
    db.execute(
        "update campaigns set config_toml = ?2, pairs_total = max(pairs_total, ?3) where id = ?1",
        params![id, config_toml, stored(pairs_total)],
    )?;
    Ok(())
}

/// Sets campaign `id`'s state.
///
/// # Errors
/// SQLite's.
pub fn set_state(db: &Connection, id: &CampaignId, state: CampaignState) -> rusqlite::Result<()> {
    db.execute(
        "update campaigns set state = ?2 where id = ?1",
        params![id, state.as_str()],
    )?;
    Ok(())
}

/// Sets campaign `id`'s priority (its share of the workers).
///
/// # Errors
/// SQLite's.
pub fn set_priority(db: &Connection, id: &CampaignId, priority: u32) -> rusqlite::Result<()> {
    db.execute(
        "update campaigns set priority = ?2 where id = ?1",
        params![id, priority],
    )?;
    Ok(())
}

/// Moves campaign `id` from state `from` to `to`; whether it was in `from`.
///
/// # Errors
/// SQLite's.
pub fn change_state(
    db: &Connection,
    id: &CampaignId,
    from: CampaignState,
    to: CampaignState,
) -> rusqlite::Result<bool> {
    let changed = db.execute(
        "update campaigns set state = ?2 where id = ?1 and state = ?3",
        params![id, to.as_str(), from.as_str()],
    )?;
    Ok(changed > 0)
}

/// Marks campaign `id` finished, unless an operator stopped it.
///
/// # Errors
/// SQLite's.
pub fn finish(db: &Connection, id: &CampaignId) -> rusqlite::Result<()> {
    db.execute(
        "update campaigns set state = ?2 where id = ?1 and state != ?3",
        params![
            id,
            CampaignState::Finished.as_str(),
            CampaignState::Stopped.as_str()
        ],
    )?;
    Ok(())
}

/// Campaign `id`'s first player's pair results over its counted units.
///
/// # Errors
/// SQLite's, an unknown campaign included.
pub fn pentanomial(db: &Connection, id: &CampaignId) -> rusqlite::Result<Pentanomial> {
    db.query_row(
        "select ll, ld, dd, wd, ww from campaigns where id = ?1",
        [id],
        |r| {
            let n = |i: usize| r.get::<_, i64>(i).map(count);
            Ok(Pentanomial([n(0)?, n(1)?, n(2)?, n(3)?, n(4)?]))
        },
    )
}

/// How far a campaign is: pairs to play, and pairs counted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Pairs to play.
    pub pairs_total: u64,
    /// Pairs counted.
    pub pairs_done: u64,
}

impl Progress {
    /// Whether every pair is counted.
    #[must_use]
    pub const fn complete(self) -> bool {
        self.pairs_done >= self.pairs_total
    }
}

/// Campaign `id`'s progress.
///
/// # Errors
/// SQLite's, an unknown campaign included.
pub fn progress(db: &Connection, id: &CampaignId) -> rusqlite::Result<Progress> {
    db.query_row(
        "select pairs_total, ll + ld + dd + wd + ww from campaigns where id = ?1",
        [id],
        |r| {
            Ok(Progress {
                pairs_total: count(r.get(0)?),
                pairs_done: count(r.get(1)?),
            })
        },
    )
}

/// What a counted unit adds to its campaign's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct UnitCounts {
    /// The first player's pair results.
    pub pentanomial: Pentanomial,
    /// White's game results.
    pub white: Trinomial,
    /// The first player's game results.
    pub first: Trinomial,
}

/// Adds a counted unit's results to campaign `id`'s totals.
///
/// # Errors
/// SQLite's.
pub fn add_counts(db: &Connection, id: &CampaignId, counts: &UnitCounts) -> rusqlite::Result<()> {
    let p = counts.pentanomial.0.map(stored);
    let trio = |t: &Trinomial| [t.wins, t.draws, t.losses].map(stored);
    let (w, f) = (trio(&counts.white), trio(&counts.first));
    db.execute(
        "update campaigns set ll = ll + ?2, ld = ld + ?3, dd = dd + ?4, wd = wd + ?5, ww = ww + ?6,
             white_wins = white_wins + ?7, white_draws = white_draws + ?8, white_losses = white_losses + ?9,
             first_wins = first_wins + ?10, first_draws = first_draws + ?11, first_losses = first_losses + ?12
         where id = ?1",
        params![id, p[0], p[1], p[2], p[3], p[4], w[0], w[1], w[2], f[0], f[1], f[2]],
    )?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::schema;

    fn new(id: &CampaignId, created_ms: i64) -> NewCampaign<'_> {
        NewCampaign {
            id,
            config_toml: "games = 2\n",
            priority: 2,
            pairs_total: 10,
            gate: BuildGate::Signature(u64::MAX),
            created_ms,
            created_by: "test",
        }
    }

    fn id(name: &str) -> CampaignId {
        CampaignId::new(name).unwrap_or_else(|e| panic!("{name}: {e}"))
    }

    #[test]
    fn a_new_campaign_runs_with_nothing_counted() -> rusqlite::Result<()> {
        let db = schema::open_in_memory()?;
        let (a, b) = (id("b-first"), id("a-second"));
        assert!(!exists(&db, &a)?);
        insert(&db, &new(&a, 1))?;
        insert(&db, &new(&b, 2))?;
        assert!(insert(&db, &new(&a, 3)).is_err(), "an id is stored once");
        assert!(exists(&db, &a)?);
        assert_eq!(ids(&db)?, [a.clone(), b.clone()], "in the order created");
        assert_eq!(all(&db)?.len(), 2);
        assert_eq!(config_toml(&db, &a)?.as_deref(), Some("games = 2\n"));
        assert_eq!(config_toml(&db, &id("none"))?, None);
        assert_eq!(
            record(&db, &a)?,
            Some(CampaignRecord {
                state: CampaignState::Running,
                priority: 2,
                pairs_total: 10,
                pentanomial: Pentanomial::default(),
                white: Trinomial::default(),
                created_ms: 1,
                created_by: "test".into(),
                first: Trinomial::default(),
            })
        );
        set_priority(&db, &a, 7)?;
        assert_eq!(record(&db, &a)?.map(|r| r.priority), Some(7));
        let signature: i64 =
            db.query_row("select signature from campaigns where id = ?1", [&a], |r| {
                r.get(0)
            })?;
        assert_eq!(signature, -1, "a signature is stored as its bits");
        Ok(())
    }

    #[test]
    fn counts_add_up_to_the_progress() -> rusqlite::Result<()> {
        let db = schema::open_in_memory()?;
        let a = id("a");
        insert(&db, &new(&a, 1))?;
        let counts = UnitCounts {
            pentanomial: Pentanomial([1, 0, 2, 0, 1]),
            white: Trinomial::new(3, 2, 3),
            first: Trinomial::new(2, 4, 2),
        };
        add_counts(&db, &a, &counts)?;
        add_counts(&db, &a, &counts)?;
        assert_eq!(pentanomial(&db, &a)?, Pentanomial([2, 0, 4, 0, 2]));
        let record = record(&db, &a)?.map(|r| (r.white, r.first));
        assert_eq!(
            record,
            Some((Trinomial::new(6, 4, 6), Trinomial::new(4, 8, 4)))
        );
        let done = progress(&db, &a)?;
        assert_eq!((done.pairs_total, done.pairs_done), (10, 8));
        assert!(!done.complete());
        Ok(())
    }

    #[test]
    fn states_change_as_asked_and_finished_never_undoes_a_stop() -> rusqlite::Result<()> {
        let db = schema::open_in_memory()?;
        let a = id("a");
        insert(&db, &new(&a, 1))?;
        let state = |db: &Connection| record(db, &a).map(|r| r.map(|r| r.state));
        assert!(change_state(
            &db,
            &a,
            CampaignState::Running,
            CampaignState::Paused
        )?);
        assert!(!change_state(
            &db,
            &a,
            CampaignState::Running,
            CampaignState::Paused
        )?);
        assert_eq!(state(&db)?, Some(CampaignState::Paused));
        finish(&db, &a)?;
        assert_eq!(state(&db)?, Some(CampaignState::Finished));
        set_state(&db, &a, CampaignState::Stopped)?;
        finish(&db, &a)?;
        assert_eq!(state(&db)?, Some(CampaignState::Stopped));
        Ok(())
    }

    #[test]
    fn a_state_this_build_does_not_know_names_its_row() -> rusqlite::Result<()> {
        let db = schema::open_in_memory()?;
        let a = id("a");
        insert(&db, &new(&a, 1))?;
        db.execute("update campaigns set state = 'done'", [])?;
        let message = record(&db, &a).map_err(|e| e.to_string());
        assert!(
            message
                .as_ref()
                .is_err_and(|m| m.contains("campaigns row 1: state: \"done\"")),
            "{message:?}"
        );
        Ok(())
    }
}
