//! The database's tables, with the columns added since the first schema
//! for state directories made before them, and the recount of every
//! campaign's totals from its counted units.

use crate::ids::CampaignId;
use rusqlite::Connection;
use std::path::Path;

/// The database's file name in the state directory.
pub const DATABASE_FILE: &str = crate::STATE_FILE;

/// Opens (or creates) the database at `path`: WAL, the tables, and the
/// columns added since the first schema.
///
/// # Errors
/// SQLite's, if the file cannot be opened or the tables made.
pub fn open(path: &Path) -> Result<Connection, rusqlite::Error> {
    let db = Connection::open(path)?;
    // WAL with synchronous = normal: a commit survives the coordinator's
    // crash (not the machine's). What must survive the machine is the
    // games, and their files are synced before the unit is counted; a
    // count lost with the machine is redone from the file on start-up.
    db.execute_batch("pragma journal_mode = wal; pragma synchronous = normal;")?;
    make_tables(&db)?;
    Ok(db)
}

/// A second connection to the database at `path`, for reading only.
/// What the web UI reads goes through it, so that a page's reading never
/// holds the connection the workers' requests write through: under WAL a
/// reader and the writer go on at once, and the reader sees what was
/// committed when its statement began.
///
/// # Errors
/// SQLite's, if the file cannot be opened.
pub fn open_reader(path: &Path) -> Result<Connection, rusqlite::Error> {
    let db = Connection::open_with_flags(
        path,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    db.busy_timeout(std::time::Duration::from_secs(5))?;
    Ok(db)
}

/// A database in memory with the tables, for tests of the state's queries.
///
/// # Errors
/// SQLite's.
pub fn open_in_memory() -> Result<Connection, rusqlite::Error> {
    let db = Connection::open_in_memory()?;
    make_tables(&db)?;
    Ok(db)
}

/// Makes the tables that are not there yet, and adds the columns and
/// indexes added since the first schema to those that are.
fn make_tables(db: &Connection) -> Result<(), rusqlite::Error> {
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
        ("workers", "token_hash", "text not null default ''"),
        ("results", "file_sha256", "text not null default ''"),
        ("results", "file_bytes", "integer not null default -1"),
        ("results", "games", "integer not null default -1"),
        // -1: counted before they were recorded, left out of the checks.
        ("results", "failures", "integer not null default -1"),
        ("results", "plies", "integer not null default -1"),
        ("campaigns", "created_by", "text not null default ''"),
        // The first player's games; 0 for units counted before they were
        // kept, so that a campaign's sum then falls short of its games.
        ("results", "first_wins", "integer not null default 0"),
        ("results", "first_draws", "integer not null default 0"),
        ("results", "first_losses", "integer not null default 0"),
        ("campaigns", "first_wins", "integer not null default 0"),
        ("campaigns", "first_draws", "integer not null default 0"),
        ("campaigns", "first_losses", "integer not null default 0"),
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
    // Indexes on the columns added above.
    db.execute_batch(
        "create index if not exists workers_by_token on workers(token_hash, registered_ms);",
    )?;
    Ok(())
}

/// Sets the running totals of `campaign` (of every campaign if `None`)
/// from its counted units.
///
/// # Errors
/// SQLite's.
pub fn recount(db: &Connection, campaign: Option<&CampaignId>) -> Result<(), rusqlite::Error> {
    db.execute(RECOUNT, [campaign])?;
    Ok(())
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
    white_losses = (select coalesce(sum(white_losses), 0) from results r where r.campaign_id = campaigns.id),
    first_wins = (select coalesce(sum(first_wins), 0) from results r where r.campaign_id = campaigns.id),
    first_draws = (select coalesce(sum(first_draws), 0) from results r where r.campaign_id = campaigns.id),
    first_losses = (select coalesce(sum(first_losses), 0) from results r where r.campaign_id = campaigns.id)
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
create table if not exists campaign_inputs(
    campaign_id text not null, key text not null, path text not null, sha256 text not null,
    primary key (campaign_id, key));
create table if not exists campaign_shipped(
    campaign_id text not null, key text not null, path text not null, sha256 text not null,
    primary key (campaign_id, key));
create table if not exists engine_failures(
    campaign_id text not null, worker_id text not null, reason text not null, at_ms integer not null,
    primary key (campaign_id, worker_id));
create table if not exists tokens(hash text primary key, scope text not null, label text not null, created_ms integer not null);
create table if not exists excluded_tokens(
    campaign_id text not null, token_hash text not null, at_ms integer not null,
    primary key (campaign_id, token_hash));
create table if not exists rejections(
    campaign_id text not null, unit_id text not null, token_hash text not null, at_ms integer not null);
create index if not exists rejections_by_token on rejections(campaign_id, token_hash);
create index if not exists rejections_by_unit on rejections(unit_id, token_hash);
create table if not exists unit_starts(
    unit_id text not null, campaign_id text not null, start_number integer not null,
    start_fen text not null, white_wins integer not null, white_draws integer not null,
    white_losses integer not null, primary key (unit_id, start_number, start_fen));
create index if not exists unit_starts_by_campaign on unit_starts(campaign_id);
";

#[cfg(test)]
mod tests {
    use super::*;

    /// A state directory made before the columns added since the first
    /// schema gets them, and keeps its rows.
    #[test]
    fn an_old_database_gets_the_new_columns() -> Result<(), Box<dyn std::error::Error>> {
        let dir = std::env::temp_dir().join(format!("ajaxlab-schema-{}", std::process::id()));
        std::fs::create_dir_all(&dir)?;
        let path = dir.join("old.sqlite3");
        let _ = std::fs::remove_file(&path);
        {
            let old = Connection::open(&path)?;
            old.execute_batch(
                "create table units(
                    id text primary key, campaign_id text not null, first_pair integer not null,
                    pair_count integer not null, state text not null, lease_token text not null,
                    worker_id text not null, deadline_ms integer not null, leased_ms integer not null,
                    rejections integer not null default 0);
                 insert into units values ('u', 'c', 0, 2, 'free', '', '', 0, 0, 0);",
            )?;
        }
        let db = open(&path)?;
        let spsa: String =
            db.query_row("select spsa from units where id = 'u'", [], |r| r.get(0))?;
        assert_eq!(spsa, "");
        let white: i64 = db.query_row(
            "select count(*) from pragma_table_info('campaigns') where name = 'white_losses'",
            [],
            |r| r.get(0),
        )?;
        assert_eq!(white, 1);
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    }
}
