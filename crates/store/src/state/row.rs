//! Stored values read back through their checked constructors: a value
//! that does not read (a unit id, a campaign state, an SPSA vector) is an
//! error of the database that names the table, the row and the column,
//! never a value taken on trust.

use rusqlite::Row;
use rusqlite::types::Type;
use std::fmt;
use std::str::FromStr;

/// A stored value that is not what its column holds.
#[derive(Debug, thiserror::Error)]
#[error("{table} row {}: {column}: {problem}", rowid.map_or_else(|| "?".to_owned(), |r| r.to_string()))]
pub struct RowError {
    /// The table.
    pub table: &'static str,
    /// The row's `rowid`, if the query selected it.
    pub rowid: Option<i64>,
    /// The column.
    pub column: &'static str,
    /// The value as stored, and what is wrong with it.
    pub problem: String,
}

/// A count as stored (never negative) as `u64`.
pub(crate) fn count(n: i64) -> u64 {
    u64::try_from(n).unwrap_or(0)
}

/// A count as stored: `u64` beyond `i64::MAX` saturates.
pub(crate) fn stored(n: u64) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

/// A [`RowError`] of column `idx` (`column` of `table`) of `row`, as the
/// conversion error SQLite's reads return. The row is named by its
/// `rowid` if the query selected a column of that name.
pub(crate) fn row_error(
    row: &Row<'_>,
    idx: usize,
    table: &'static str,
    column: &'static str,
    problem: String,
) -> rusqlite::Error {
    let error = RowError {
        table,
        rowid: row.get::<_, i64>("rowid").ok(),
        column,
        problem,
    };
    rusqlite::Error::FromSqlConversionFailure(idx, Type::Text, Box::new(error))
}

/// Column `idx` of `row` (`column` of `table`), text read as a `T` through
/// its `FromStr`.
///
/// # Errors
/// SQLite's for a column that is not text; a [`RowError`] (as a conversion
/// failure) for text that is no `T`.
pub fn parsed<T>(
    row: &Row<'_>,
    idx: usize,
    table: &'static str,
    column: &'static str,
) -> rusqlite::Result<T>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    let text: String = row.get(idx)?;
    text.parse()
        .map_err(|e: T::Err| row_error(row, idx, table, column, format!("{text:?}: {e}")))
}

/// As [`parsed`], with the empty text read as `None`.
///
/// # Errors
/// As [`parsed`].
pub fn parsed_or_empty<T>(
    row: &Row<'_>,
    idx: usize,
    table: &'static str,
    column: &'static str,
) -> rusqlite::Result<Option<T>>
where
    T: FromStr,
    T::Err: fmt::Display,
{
    let text: String = row.get(idx)?;
    if text.is_empty() {
        return Ok(None);
    }
    text.parse()
        .map(Some)
        .map_err(|e: T::Err| row_error(row, idx, table, column, format!("{text:?}: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::UnitId;
    use rusqlite::Connection;

    #[test]
    fn a_value_that_does_not_read_names_its_table_row_and_column() -> rusqlite::Result<()> {
        let db = Connection::open_in_memory()?;
        db.execute_batch(
            "create table units(id text not null);
             insert into units values ('sprt-0'), ('sprt-x'), ('');",
        )?;
        let read = |rowid: i64| {
            db.query_row(
                "select id, rowid from units where rowid = ?1",
                [rowid],
                |r| parsed::<UnitId>(r, 0, "units", "id"),
            )
        };
        assert_eq!(read(1)?.to_string(), "sprt-0");
        let message = read(2).map_err(|e| e.to_string());
        let expected =
            "units row 2: id: \"sprt-x\": not a unit id (the first pair is not a number)";
        assert!(
            message.as_ref().is_err_and(|m| m.contains(expected)),
            "{message:?}"
        );
        let empty = db.query_row("select id from units where rowid = 3", [], |r| {
            parsed_or_empty::<UnitId>(r, 0, "units", "id")
        })?;
        assert_eq!(empty, None);
        Ok(())
    }
}
