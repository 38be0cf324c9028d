//! The `units` table: each work unit of a campaign (its pairs, where it is
//! in its life, the lease it is held under, its SPSA perturbation), and
//! the queries that lease, renew, give back, count and recycle units. The
//! coordinator decides which unit a worker gets and how large a new one
//! is; this module stores and reads what it decided.

use super::row::{count, parsed, parsed_or_empty, stored};
use super::tokens::TokenHash;
use super::unit_state::UnitState;
use crate::ids::{CampaignId, LeaseToken, UnitId, WorkerId};
use rusqlite::{Connection, OptionalExtension, params};

/// A lease as it is granted: to whom, under which token, until when.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseGrant<'a> {
    /// The token issued with the lease.
    pub token: &'a LeaseToken,
    /// The worker that holds it.
    pub worker: &'a WorkerId,
    /// When it expires, Unix milliseconds.
    pub deadline_ms: i64,
    /// When it was granted, Unix milliseconds.
    pub leased_ms: i64,
}

/// A unit as it is made, leased at once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewUnit<'a> {
    /// Its id (which names its campaign and first pair).
    pub id: &'a UnitId,
    /// Its pairs.
    pub pair_count: u64,
    /// Its SPSA perturbation, as text (empty for other kinds).
    pub spsa: &'a str,
    /// The lease it is made under.
    pub lease: LeaseGrant<'a>,
}

/// A running campaign of a worker's engine build that the worker may play
/// (not excluded, nor its token, and it can start the campaign's engines),
/// with what the choice among them weighs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaseCandidate {
    /// The campaign.
    pub id: CampaignId,
    /// Its share of the workers, relative to other campaigns'.
    pub priority: u32,
    /// Its pairs, as stored.
    pub pairs_total: i64,
    /// Pairs handed out in units so far, as stored.
    pub next_pair: i64,
    /// Units back in the pool (expired, released or refused).
    pub free_units: i64,
    /// Pairs out of the pool: the campaign's share of the workers so far.
    pub pairs_out: i64,
}

/// A unit in the pool, as it is leased again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FreeUnit {
    /// Its id.
    pub id: UnitId,
    /// Its first pair.
    pub first_pair: u64,
    /// Its pairs.
    pub pair_count: u64,
    /// Its SPSA perturbation, as text (empty for other kinds).
    pub spsa: String,
}

/// A unit as a worker presenting a lease of it finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeldUnit {
    /// Its campaign.
    pub campaign: CampaignId,
    /// Whether the presented lease is the unit's current one, and held by
    /// the presenting worker.
    pub held: bool,
    /// Its first pair.
    pub first_pair: u64,
    /// Its pairs.
    pub pair_count: u64,
    /// Whether it is already counted.
    pub done: bool,
    /// Its SPSA perturbation, as text (empty for other kinds).
    pub spsa: String,
}

/// A unit as counting finds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitStatus {
    /// Where it is in its life.
    pub state: UnitState,
    /// Its SPSA perturbation, as text (empty for other kinds).
    pub spsa: String,
}

/// A unit not yet counted, as a coordinator starting up checks for its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingUnit {
    /// Its id.
    pub id: UnitId,
    /// Its campaign.
    pub campaign: CampaignId,
    /// The worker it was last leased to (`None` once given back).
    pub worker: Option<WorkerId>,
    /// Its pairs (the first is in its id).
    pub pair_count: u64,
    /// Its SPSA perturbation, as text (empty for other kinds).
    pub spsa: String,
}

/// How many units are in one state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitCount {
    /// The state.
    pub state: UnitState,
    /// Units in it.
    pub units: u64,
}

/// Returns the leases past their deadline at `now_ms` to the pool; how many.
///
/// # Errors
/// SQLite's.
pub fn expire(db: &Connection, now_ms: i64) -> rusqlite::Result<u64> {
    let expired = db.execute(
        "update units set state = ?2 where state = ?3 and deadline_ms < ?1",
        params![now_ms, UnitState::Free.as_str(), UnitState::Leased.as_str()],
    )?;
    Ok(u64::try_from(expired).unwrap_or(u64::MAX))
}

/// The running campaigns of engine build `signature` (as stored), or of
/// any build ([`super::campaigns::BuildGate::AnyBuild`]), that
/// `worker`, registered under `token`, may play: not excluded, nor its
/// token, and not a campaign whose engines it cannot start.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a campaign id that breaks the rule.
pub fn candidates(
    db: &Connection,
    signature: i64,
    worker: &WorkerId,
    token: &TokenHash,
) -> rusqlite::Result<Vec<LeaseCandidate>> {
    let mut stmt = db.prepare(
        "select c.id, c.priority, c.pairs_total, c.next_pair,
                (select count(*) from units u where u.campaign_id = c.id and u.state = ?5),
                c.next_pair - (select coalesce(sum(pair_count), 0) from units u where u.campaign_id = c.id and u.state = ?5),
                c.rowid as rowid
         from campaigns c where c.state = ?3 and c.signature in (?1, 0)
           and not exists (select 1 from exclusions e where e.campaign_id = c.id and e.worker_id = ?2)
           and not exists (select 1 from excluded_tokens t where t.campaign_id = c.id and t.token_hash = ?4)
           and not exists (select 1 from engine_failures f where f.campaign_id = c.id and f.worker_id = ?2)",
    )?;
    let rows = stmt.query_map(
        params![
            signature,
            worker,
            crate::CampaignState::Running.as_str(),
            token,
            UnitState::Free.as_str()
        ],
        |r| {
            Ok(LeaseCandidate {
                id: parsed(r, 0, "campaigns", "id")?,
                priority: r.get(1)?,
                pairs_total: r.get(2)?,
                next_pair: r.get(3)?,
                free_units: r.get(4)?,
                pairs_out: r.get(5)?,
            })
        },
    )?;
    rows.collect()
}

/// Campaign `campaign`'s free unit of the lowest first pair.
///
/// # Errors
/// SQLite's, [`rusqlite::Error::QueryReturnedNoRows`] if none is free; a
/// [`super::RowError`] for a unit id that does not read.
pub fn first_free(db: &Connection, campaign: &CampaignId) -> rusqlite::Result<FreeUnit> {
    db.query_row(
        "select id, first_pair, pair_count, spsa, rowid from units
         where campaign_id = ?1 and state = ?2 order by first_pair limit 1",
        params![campaign, UnitState::Free.as_str()],
        |r| {
            Ok(FreeUnit {
                id: parsed(r, 0, "units", "id")?,
                first_pair: count(r.get(1)?),
                pair_count: count(r.get(2)?),
                spsa: r.get(3)?,
            })
        },
    )
}

/// Leases unit `id` under `lease`.
///
/// # Errors
/// SQLite's.
pub fn lease(db: &Connection, id: &UnitId, lease: &LeaseGrant<'_>) -> rusqlite::Result<()> {
    db.execute(
        "update units set state = ?6, lease_token = ?2, worker_id = ?3, deadline_ms = ?4, leased_ms = ?5 where id = ?1",
        params![
            id,
            lease.token,
            lease.worker,
            lease.deadline_ms,
            lease.leased_ms,
            UnitState::Leased.as_str()
        ],
    )?;
    Ok(())
}

/// Stores a new unit, leased.
///
/// # Errors
/// SQLite's (an id stored before included).
pub fn insert_leased(db: &Connection, unit: &NewUnit<'_>) -> rusqlite::Result<()> {
    let lease = &unit.lease;
    db.execute(
        "insert into units (id, campaign_id, first_pair, pair_count, state, lease_token, worker_id, deadline_ms, leased_ms, spsa)
         values (?1, ?2, ?3, ?4, ?10, ?5, ?6, ?7, ?8, ?9)",
        params![
            unit.id,
            unit.id.campaign(),
            stored(unit.id.first_pair()),
            stored(unit.pair_count),
            lease.token,
            lease.worker,
            lease.deadline_ms,
            lease.leased_ms,
            unit.spsa,
            UnitState::Leased.as_str()
        ],
    )?;
    Ok(())
}

/// Unit `id` as `worker` presenting `token` finds it, if it is stored:
/// held only under the very token issued to that worker (never under the
/// empty token of a unit given back).
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a campaign id that does not read.
pub fn held(
    db: &Connection,
    id: &UnitId,
    token: &LeaseToken,
    worker: &WorkerId,
) -> rusqlite::Result<Option<HeldUnit>> {
    db.query_row(
        "select campaign_id, lease_token != '' and lease_token = ?2 and worker_id = ?3,
                first_pair, pair_count, state = ?4, spsa, rowid
         from units where id = ?1",
        params![id, token, worker, UnitState::Done.as_str()],
        |r| {
            Ok(HeldUnit {
                campaign: parsed(r, 0, "units", "campaign_id")?,
                held: r.get(1)?,
                first_pair: count(r.get(2)?),
                pair_count: count(r.get(3)?),
                done: r.get(4)?,
                spsa: r.get(5)?,
            })
        },
    )
    .optional()
}

/// Extends unit `id`'s lease to `deadline_ms` (leased again, should it
/// have expired meanwhile).
///
/// # Errors
/// SQLite's.
pub fn renew(db: &Connection, id: &UnitId, deadline_ms: i64) -> rusqlite::Result<()> {
    db.execute(
        "update units set deadline_ms = ?2, state = ?3 where id = ?1",
        params![id, deadline_ms, UnitState::Leased.as_str()],
    )?;
    Ok(())
}

/// Returns unit `id` to the pool, as its worker gives it back (the lease
/// stays recorded, but a free unit is held by no one).
///
/// # Errors
/// SQLite's.
pub fn release(db: &Connection, id: &UnitId) -> rusqlite::Result<()> {
    db.execute(
        "update units set state = ?2 where id = ?1",
        params![id, UnitState::Free.as_str()],
    )?;
    Ok(())
}

/// Returns refused unit `id` to the pool, one refusal more.
///
/// # Errors
/// SQLite's.
pub fn refuse(db: &Connection, id: &UnitId) -> rusqlite::Result<()> {
    db.execute(
        "update units set state = ?2, rejections = rejections + 1 where id = ?1",
        params![id, UnitState::Free.as_str()],
    )?;
    Ok(())
}

/// Returns unit `id` to the pool with no worker, lease or deadline, to be
/// played again by anyone: a unit counted out, or refused with its worker.
///
/// # Errors
/// SQLite's.
pub fn recycle(db: &Connection, id: &UnitId) -> rusqlite::Result<()> {
    db.execute(
        "update units set state = ?2, worker_id = '', lease_token = '', deadline_ms = 0 where id = ?1",
        params![id, UnitState::Free.as_str()],
    )?;
    Ok(())
}

/// As [`recycle`], unless unit `id` is counted (it then stays done).
///
/// # Errors
/// SQLite's.
pub fn recycle_uncounted(db: &Connection, id: &UnitId) -> rusqlite::Result<()> {
    db.execute(
        "update units set state = ?2, worker_id = '', lease_token = '', deadline_ms = 0
         where id = ?1 and state != ?3",
        params![id, UnitState::Free.as_str(), UnitState::Done.as_str()],
    )?;
    Ok(())
}

/// Unit `id`'s state and perturbation, if it is stored.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a state this build does not know.
pub fn status(db: &Connection, id: &UnitId) -> rusqlite::Result<Option<UnitStatus>> {
    db.query_row(
        "select state, spsa, rowid from units where id = ?1",
        [id],
        |r| {
            Ok(UnitStatus {
                state: parsed(r, 0, "units", "state")?,
                spsa: r.get(1)?,
            })
        },
    )
    .optional()
}

/// Marks unit `id` counted.
///
/// # Errors
/// SQLite's.
pub fn mark_done(db: &Connection, id: &UnitId) -> rusqlite::Result<()> {
    db.execute(
        "update units set state = ?2 where id = ?1",
        params![id, UnitState::Done.as_str()],
    )?;
    Ok(())
}

/// Minutes from unit `id`'s last lease to `now_ms`, if it is stored.
///
/// # Errors
/// SQLite's.
pub fn minutes_leased(db: &Connection, id: &UnitId, now_ms: i64) -> rusqlite::Result<Option<f64>> {
    db.query_row(
        "select (?2 - leased_ms) / 60000.0 from units where id = ?1",
        params![id, now_ms],
        |r| r.get(0),
    )
    .optional()
}

/// Every unit not yet counted.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for an id that does not read.
pub fn pending(db: &Connection) -> rusqlite::Result<Vec<PendingUnit>> {
    let mut stmt = db.prepare(
        "select id, campaign_id, worker_id, pair_count, spsa, rowid from units where state != ?1",
    )?;
    let rows = stmt.query_map([UnitState::Done.as_str()], |r| {
        Ok(PendingUnit {
            id: parsed(r, 0, "units", "id")?,
            campaign: parsed(r, 1, "units", "campaign_id")?,
            worker: parsed_or_empty(r, 2, "units", "worker_id")?,
            pair_count: count(r.get(3)?),
            spsa: r.get(4)?,
        })
    })?;
    rows.collect()
}

/// The SPSA perturbations (as text) of campaign `campaign`'s units not
/// yet counted: those whose results its tune still awaits.
///
/// # Errors
/// SQLite's.
pub fn perturbations_in_flight(
    db: &Connection,
    campaign: &CampaignId,
) -> rusqlite::Result<Vec<String>> {
    let mut stmt = db.prepare(
        "select spsa from units where campaign_id = ?1 and state != ?2 and spsa != '' order by rowid",
    )?;
    let rows = stmt.query_map(params![campaign, UnitState::Done.as_str()], |r| r.get(0))?;
    rows.collect()
}

/// Units by state, in the order of the states' names.
///
/// # Errors
/// SQLite's; a [`super::RowError`] for a state this build does not know.
pub fn counts(db: &Connection) -> rusqlite::Result<Vec<UnitCount>> {
    let mut stmt = db.prepare(
        "select state, count(*), min(rowid) as rowid from units group by state order by state",
    )?;
    let rows = stmt.query_map([], |r| {
        Ok(UnitCount {
            state: parsed(r, 0, "units", "state")?,
            units: count(r.get(1)?),
        })
    })?;
    rows.collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::campaigns::{self, BuildGate, NewCampaign};
    use crate::state::{exclusions, schema, workers};

    fn id(text: &str) -> UnitId {
        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
    }

    fn campaign(db: &Connection, name: &str, gate: BuildGate) -> CampaignId {
        let id: CampaignId = name.parse().unwrap_or_else(|e| panic!("{name}: {e}"));
        let new = NewCampaign {
            id: &id,
            config_toml: "",
            priority: 1,
            pairs_total: 100,
            gate,
            created_ms: 0,
            created_by: "test",
        };
        campaigns::insert(db, &new).unwrap_or_else(|e| panic!("{name}: {e}"));
        id
    }

    fn leased(
        db: &Connection,
        unit: &UnitId,
        pairs: u64,
        token: &LeaseToken,
        worker: &WorkerId,
        deadline_ms: i64,
    ) -> rusqlite::Result<()> {
        insert_leased(
            db,
            &NewUnit {
                id: unit,
                pair_count: pairs,
                spsa: "",
                lease: LeaseGrant {
                    token,
                    worker,
                    deadline_ms,
                    leased_ms: 0,
                },
            },
        )
    }

    fn state(db: &Connection, unit: &UnitId) -> rusqlite::Result<Option<UnitState>> {
        Ok(status(db, unit)?.map(|s| s.state))
    }

    #[test]
    fn a_lease_is_held_only_under_its_token_by_its_worker() -> rusqlite::Result<()> {
        let db = schema::open_in_memory()?;
        let unit = id("c-0");
        let (token, worker) = (LeaseToken::new("t1"), WorkerId::issue("aaaaaaaaaaaa"));
        leased(&db, &unit, 4, &token, &worker, 1_000)?;
        let found = held(&db, &unit, &token, &worker)?;
        assert_eq!(
            found,
            Some(HeldUnit {
                campaign: unit.campaign().clone(),
                held: true,
                first_pair: 0,
                pair_count: 4,
                done: false,
                spsa: String::new(),
            })
        );
        let other = WorkerId::issue("bbbbbbbbbbbb");
        let held_by = |token: &LeaseToken, worker: &WorkerId| {
            held(&db, &unit, token, worker).map(|h| h.map(|h| h.held))
        };
        assert_eq!(held_by(&token, &other)?, Some(false));
        assert_eq!(held_by(&LeaseToken::new("t2"), &worker)?, Some(false));
        assert_eq!(held(&db, &id("c-4"), &token, &worker)?, None);
        renew(&db, &unit, 2_000)?;
        assert_eq!(state(&db, &unit)?, Some(UnitState::Leased));
        release(&db, &unit)?;
        assert_eq!(state(&db, &unit)?, Some(UnitState::Free));
        recycle_uncounted(&db, &unit)?;
        assert_eq!(
            held_by(&LeaseToken::new(""), &WorkerId::issue(""))?,
            Some(false),
            "the empty token of a unit given back holds nothing"
        );
        Ok(())
    }

    #[test]
    fn expired_and_refused_units_are_leased_again_lowest_first() -> rusqlite::Result<()> {
        let db = schema::open_in_memory()?;
        let (token, worker) = (LeaseToken::new("t"), WorkerId::issue("aaaaaaaaaaaa"));
        for (first, deadline) in [(0, 5_000), (4, 500), (8, 600)] {
            leased(
                &db,
                &id(&format!("c-{first}")),
                4,
                &token,
                &worker,
                deadline,
            )?;
        }
        assert_eq!(expire(&db, 1_000)?, 2);
        assert_eq!(expire(&db, 1_000)?, 0);
        let c = id("c-0").campaign().clone();
        let free = first_free(&db, &c)?;
        assert_eq!(
            (free.id, free.first_pair, free.pair_count),
            (id("c-4"), 4, 4)
        );
        let again = LeaseToken::new("t2");
        lease(
            &db,
            &id("c-4"),
            &LeaseGrant {
                token: &again,
                worker: &worker,
                deadline_ms: 9_000,
                leased_ms: 1_000,
            },
        )?;
        assert!(held(&db, &id("c-4"), &again, &worker)?.is_some_and(|h| h.held));
        refuse(&db, &id("c-0"))?;
        let rejections: i64 =
            db.query_row("select rejections from units where id = 'c-0'", [], |r| {
                r.get(0)
            })?;
        assert_eq!(rejections, 1);
        assert_eq!(first_free(&db, &c)?.id, id("c-0"));
        assert_eq!(minutes_leased(&db, &id("c-4"), 61_000)?, Some(1.0));
        assert_eq!(minutes_leased(&db, &id("c-12"), 61_000)?, None);
        Ok(())
    }

    #[test]
    fn counting_marks_done_and_a_counted_unit_is_recycled_only_when_asked() -> rusqlite::Result<()>
    {
        let db = schema::open_in_memory()?;
        let (token, worker) = (LeaseToken::new("t"), WorkerId::issue("aaaaaaaaaaaa"));
        leased(&db, &id("c-0"), 2, &token, &worker, 0)?;
        leased(&db, &id("c-2"), 2, &token, &worker, 0)?;
        insert_leased(
            &db,
            &NewUnit {
                id: &id("c-4"),
                pair_count: 2,
                spsa: "1:+-",
                lease: LeaseGrant {
                    token: &token,
                    worker: &worker,
                    deadline_ms: 0,
                    leased_ms: 0,
                },
            },
        )?;
        recycle_uncounted(&db, &id("c-2"))?;
        mark_done(&db, &id("c-0"))?;
        let pending = pending(&db)?;
        assert_eq!(
            pending,
            [
                PendingUnit {
                    id: id("c-2"),
                    campaign: id("c-2").campaign().clone(),
                    worker: None,
                    pair_count: 2,
                    spsa: String::new(),
                },
                PendingUnit {
                    id: id("c-4"),
                    campaign: id("c-4").campaign().clone(),
                    worker: Some(worker.clone()),
                    pair_count: 2,
                    spsa: "1:+-".into(),
                }
            ]
        );
        let c = id("c-0").campaign().clone();
        assert_eq!(perturbations_in_flight(&db, &c)?, ["1:+-"]);
        recycle_uncounted(&db, &id("c-0"))?;
        assert_eq!(state(&db, &id("c-0"))?, Some(UnitState::Done));
        recycle(&db, &id("c-0"))?;
        assert_eq!(state(&db, &id("c-0"))?, Some(UnitState::Free));
        assert_eq!(
            counts(&db)?,
            [
                UnitCount {
                    state: UnitState::Free,
                    units: 2
                },
                UnitCount {
                    state: UnitState::Leased,
                    units: 1
                }
            ]
        );
        Ok(())
    }

    #[test]
    fn a_state_this_build_does_not_know_names_its_row() -> rusqlite::Result<()> {
        let db = schema::open_in_memory()?;
        let (token, worker) = (LeaseToken::new("t"), WorkerId::issue("aaaaaaaaaaaa"));
        leased(&db, &id("c-0"), 2, &token, &worker, 0)?;
        db.execute("update units set state = 'lost'", [])?;
        let message = status(&db, &id("c-0")).map_err(|e| e.to_string());
        assert!(
            message
                .as_ref()
                .is_err_and(|m| m.contains("units row 1: state: \"lost\"")),
            "{message:?}"
        );
        assert!(counts(&db).is_err());
        db.execute("update units set state = 'free', campaign_id = 'a/b'", [])?;
        let message = pending(&db).map_err(|e| e.to_string());
        assert!(
            message
                .as_ref()
                .is_err_and(|m| m.contains("units row 1: campaign_id: \"a/b\"")),
            "{message:?}"
        );
        Ok(())
    }

    #[test]
    fn candidates_are_the_running_campaigns_a_worker_may_play()
    -> Result<(), Box<dyn std::error::Error>> {
        let db = schema::open_in_memory()?;
        let (a, b, c) = (
            campaign(&db, "a", BuildGate::Signature(7)),
            campaign(&db, "b", BuildGate::Signature(7)),
            campaign(&db, "c", BuildGate::Signature(7)),
        );
        campaign(&db, "other-build", BuildGate::Signature(8));
        let any = campaign(&db, "uci-only", BuildGate::AnyBuild);
        let token = TokenHash::of("w");
        let worker = WorkerId::issue("aaaaaaaaaaaa");
        workers::insert(
            &db,
            &workers::NewWorker {
                id: &worker,
                name: "host",
                version: "0",
                cores: 1,
                signature: 7,
                token: &token,
                registered_ms: 0,
            },
        )?;
        campaigns::set_state(&db, &c, crate::CampaignState::Paused)?;
        let lease_token = LeaseToken::new("t");
        leased(&db, &UnitId::new(&a, 0), 10, &lease_token, &worker, 0)?;
        leased(&db, &UnitId::new(&a, 10), 5, &lease_token, &worker, 0)?;
        campaigns::set_next_pair(&db, &a, 15)?;
        release(&db, &UnitId::new(&a, 10))?;
        let found = candidates(&db, 7, &worker, &token)?;
        assert_eq!(
            found,
            [
                LeaseCandidate {
                    id: a.clone(),
                    priority: 1,
                    pairs_total: 100,
                    next_pair: 15,
                    free_units: 1,
                    pairs_out: 10,
                },
                LeaseCandidate {
                    id: b.clone(),
                    priority: 1,
                    pairs_total: 100,
                    next_pair: 0,
                    free_units: 0,
                    pairs_out: 0,
                },
                LeaseCandidate {
                    id: any.clone(),
                    priority: 1,
                    pairs_total: 100,
                    next_pair: 0,
                    free_units: 0,
                    pairs_out: 0,
                }
            ]
        );
        assert_eq!(
            candidates(&db, 8, &worker, &token)?
                .into_iter()
                .map(|c| c.id.to_string())
                .collect::<Vec<_>>(),
            ["other-build", "uci-only"],
            "a campaign of UCI players only is every build's"
        );
        exclusions::exclude_token(&db, &b, &token, 0)?;
        campaigns::set_state(&db, &any, crate::CampaignState::Paused)?;
        workers::record_failure(&db, &a, &worker, "no engine", 0)?;
        assert_eq!(candidates(&db, 7, &worker, &token)?, []);
        Ok(())
    }
}
