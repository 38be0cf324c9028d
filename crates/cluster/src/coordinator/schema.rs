//! The database: its tables (with the columns added since the first
//! schema, for state directories made before them) and the queries the
//! other parts share.

use super::CoordinatorError;
use super::error::StorageError;
use crate::ids::{CampaignId, WorkerId};
use crate::inputs::Input;
use ajaxlab_stats::Pentanomial;
use rusqlite::{Connection, params};
use std::path::Path;

/// The database's file name in the state directory.
pub(super) const DATABASE_FILE: &str = "coordinator.sqlite3";

/// Opens (or creates) the database at `path`: WAL, the tables, and the
/// columns added since the first schema.
pub(super) fn open_db(path: &Path) -> Result<Connection, rusqlite::Error> {
    let db = Connection::open(path)?;
    // WAL with synchronous = normal: a commit survives the coordinator's
    // crash (not the machine's). What must survive the machine is the
    // games, and their files are synced before the unit is counted; a
    // count lost with the machine is redone from the file on start-up.
    db.execute_batch("pragma journal_mode = wal; pragma synchronous = normal;")?;
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
    Ok(db)
}

/// Sets each campaign's running totals (all campaigns when ?1 is null) from
/// its counted units.
pub(super) const RECOUNT: &str = "
update campaigns set
    ll = (select coalesce(sum(ll), 0) from results r where r.campaign_id = campaigns.id),
    ld = (select coalesce(sum(ld), 0) from results r where r.campaign_id = campaigns.id),
    dd = (select coalesce(sum(dd), 0) from results r where r.campaign_id = campaigns.id),
    wd = (select coalesce(sum(wd), 0) from results r where r.campaign_id = campaigns.id),
    ww = (select coalesce(sum(ww), 0) from results r where r.campaign_id = campaigns.id),
    white_wins = (select coalesce(sum(white_wins), 0) from results r where r.campaign_id = campaigns.id),
    white_draws = (select coalesce(sum(white_draws), 0) from results r where r.campaign_id = campaigns.id),
    white_losses = (select coalesce(sum(white_losses), 0) from results r where r.campaign_id = campaigns.id)
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
";

pub(super) fn campaign_pentanomial(
    db: &Connection,
    campaign: &CampaignId,
    worker: Option<&WorkerId>,
) -> Result<Pentanomial, CoordinatorError> {
    let read = |r: &rusqlite::Row<'_>| -> rusqlite::Result<[i64; 5]> {
        Ok([r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?])
    };
    let row = match worker {
        None => db.query_row(
            "select ll, ld, dd, wd, ww from campaigns where id = ?1",
            [campaign],
            read,
        )?,
        Some(worker) => db.query_row(
            "select coalesce(sum(ll),0), coalesce(sum(ld),0), coalesce(sum(dd),0), coalesce(sum(wd),0), coalesce(sum(ww),0)
             from results where campaign_id = ?1 and worker_id = ?2",
            params![campaign, worker],
            read,
        )?,
    };
    Ok(Pentanomial(row.map(|n| n.max(0) as u64)))
}

/// A campaign's pentanomial after each counted unit, in the order counted.
pub(super) fn running_totals(
    db: &Connection,
    campaign: &CampaignId,
) -> Result<Vec<Pentanomial>, CoordinatorError> {
    let mut stmt =
        db.prepare("select ll, ld, dd, wd, ww from results where campaign_id = ?1 order by rowid")?;
    let rows = stmt.query_map([campaign], |r| {
        Ok([
            r.get::<_, i64>(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
        ])
    })?;
    let mut total = Pentanomial::default();
    let mut out = Vec::new();
    for row in rows {
        total += Pentanomial(row?.map(|n| n.max(0) as u64));
        out.push(total);
    }
    Ok(out)
}

/// Saves an SPSA tune's state after update `seq` (0: the start).
pub(super) fn save_spsa(
    db: &Connection,
    campaign: &CampaignId,
    seq: i64,
    unit: &str,
    spsa: &ajaxlab_stats::Spsa,
) -> Result<(), CoordinatorError> {
    let theta =
        serde_json::to_string(spsa.theta()).map_err(|e| StorageError::Spsa(e.to_string()))?;
    db.execute(
        "insert into spsa_history values (?1, ?2, ?3, ?4, ?5, ?6)",
        params![
            campaign,
            seq,
            unit,
            spsa.completed_iterations() as i64,
            spsa.next_id() as i64,
            theta
        ],
    )?;
    Ok(())
}

/// The files campaign `id` captured at create time.
pub(super) fn campaign_inputs(
    db: &Connection,
    id: &CampaignId,
) -> Result<Vec<Input>, CoordinatorError> {
    files_of(db, "campaign_inputs", id)
}

/// Records the files campaign `id` captured.
pub(super) fn save_campaign_inputs(
    db: &Connection,
    id: &CampaignId,
    inputs: &[Input],
) -> Result<(), CoordinatorError> {
    save_files(db, "campaign_inputs", id, inputs)
}

/// The artifacts campaign `id` ships to workers (engine binaries and option files).
pub(super) fn campaign_shipped(
    db: &Connection,
    id: &CampaignId,
) -> Result<Vec<Input>, CoordinatorError> {
    files_of(db, "campaign_shipped", id)
}

/// Records the artifacts campaign `id` ships.
pub(super) fn save_campaign_shipped(
    db: &Connection,
    id: &CampaignId,
    files: &[Input],
) -> Result<(), CoordinatorError> {
    save_files(db, "campaign_shipped", id, files)
}

/// The rows of `table` (`campaign_inputs` or `campaign_shipped`) of campaign `id`.
fn files_of(db: &Connection, table: &str, id: &CampaignId) -> Result<Vec<Input>, CoordinatorError> {
    let mut stmt = db.prepare(&format!(
        "select key, path, sha256 from {table} where campaign_id = ?1 order by rowid"
    ))?;
    let rows = stmt.query_map([id], |r| {
        Ok(Input {
            key: r.get(0)?,
            path: r.get(1)?,
            sha256: r.get(2)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn save_files(
    db: &Connection,
    table: &str,
    id: &CampaignId,
    files: &[Input],
) -> Result<(), CoordinatorError> {
    for file in files {
        db.execute(
            &format!(
                "insert or replace into {table} (campaign_id, key, path, sha256) values (?1, ?2, ?3, ?4)"
            ),
            params![id, file.key, file.path, file.sha256],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A state directory made before the columns added since the first
    /// schema gets them, and keeps its rows.
    #[test]
    fn an_old_database_gets_the_new_columns() -> Result<(), CoordinatorError> {
        let dir = std::env::temp_dir().join(format!("ajaxlab-schema-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(super::super::error::file_error(&dir))?;
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
        let db = open_db(&path)?;
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
