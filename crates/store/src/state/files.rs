//! The `campaign_inputs` and `campaign_shipped` tables: the files a
//! campaign's file names, as captured when it was created (opening lists,
//! books, parameter files), and the artifacts it ships to its workers
//! (engine binaries and the files they read), each by key and SHA-256.

use crate::ids::CampaignId;
use rusqlite::{Connection, params};

/// One file a campaign file names, as captured (or, for the artifacts a
/// campaign ships to its workers, as uploaded).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Input {
    /// The key that names it (`openings`, `players[1].params`).
    pub key: String,
    /// The path as written in the campaign file.
    pub path: String,
    /// SHA-256 of its contents, in hex.
    pub sha256: String,
}

/// Which of a campaign's files: those it reads, or those it ships.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileSet {
    /// The files its campaign file names, captured at create time.
    Inputs,
    /// The artifacts it ships to workers.
    Shipped,
}

impl FileSet {
    const fn table(self) -> &'static str {
        match self {
            FileSet::Inputs => "campaign_inputs",
            FileSet::Shipped => "campaign_shipped",
        }
    }
}

/// Campaign `id`'s files of `set`, in the order stored.
///
/// # Errors
/// SQLite's.
pub fn of(db: &Connection, set: FileSet, id: &CampaignId) -> rusqlite::Result<Vec<Input>> {
    let mut stmt = db.prepare(&format!(
        "select key, path, sha256 from {} where campaign_id = ?1 order by rowid",
        set.table()
    ))?;
    let rows = stmt.query_map([id], |r| {
        Ok(Input {
            key: r.get(0)?,
            path: r.get(1)?,
            sha256: r.get(2)?,
        })
    })?;
    rows.collect()
}

/// Records `files` as campaign `id`'s files of `set` (one per key: a key
/// stored before is replaced).
///
/// # Errors
/// SQLite's.
pub fn save(
    db: &Connection,
    set: FileSet,
    id: &CampaignId,
    files: &[Input],
) -> rusqlite::Result<()> {
    for file in files {
        db.execute(
            &format!(
                "insert or replace into {} (campaign_id, key, path, sha256) values (?1, ?2, ?3, ?4)",
                set.table()
            ),
            params![id, file.key, file.path, file.sha256],
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::schema;

    fn input(key: &str, sha256: &str) -> Input {
        Input {
            key: key.to_owned(),
            path: format!("{key}.txt"),
            sha256: sha256.to_owned(),
        }
    }

    #[test]
    fn files_are_kept_per_campaign_and_set_one_per_key() -> rusqlite::Result<()> {
        let db = schema::open_in_memory()?;
        let (a, b) = (CampaignId::new("a"), CampaignId::new("b"));
        let (Ok(a), Ok(b)) = (a, b) else {
            panic!("campaign ids")
        };
        save(
            &db,
            FileSet::Inputs,
            &a,
            &[input("openings", "01"), input("book", "02")],
        )?;
        save(
            &db,
            FileSet::Shipped,
            &a,
            &[input("players[0].binary", "03")],
        )?;
        save(&db, FileSet::Inputs, &b, &[input("openings", "04")])?;
        save(&db, FileSet::Inputs, &a, &[input("openings", "05")])?;
        let keys = |set, id| -> rusqlite::Result<Vec<(String, String)>> {
            Ok(of(&db, set, id)?
                .into_iter()
                .map(|f| (f.key, f.sha256))
                .collect())
        };
        assert_eq!(
            keys(FileSet::Inputs, &a)?,
            [
                ("book".to_owned(), "02".to_owned()),
                ("openings".to_owned(), "05".to_owned())
            ]
        );
        assert_eq!(keys(FileSet::Shipped, &a)?.len(), 1);
        assert_eq!(keys(FileSet::Shipped, &b)?, []);
        Ok(())
    }
}
