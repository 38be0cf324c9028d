//! The ids of campaigns and workers, checked once where they come in (a
//! campaign file, a request on the wire, the command line, a database row)
//! so that past that point the coordinator, the workers and the binary
//! handle ids, never bare strings. Both travel as text: on the wire, in
//! the database, in file names.

use rusqlite::types::{FromSql, FromSqlError, FromSqlResult, ToSql, ToSqlOutput, ValueRef};
use std::fmt;
use std::str::FromStr;

/// Longest campaign or part name, in characters: a campaign id
/// (`NAME.PART`) and the unit file names made of it stay far below the
/// 255 bytes a file name may have.
pub const MAX_NAME_LEN: usize = 64;

/// A campaign's id: its name (1 to [`MAX_NAME_LEN`] ASCII letters, digits,
/// `-` and `_`), or `NAME.PART` for a part of a piece-value campaign. It is
/// also the name of the campaign's directory, which the rule keeps safe.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CampaignId(String);

/// A campaign or part name that breaks the rule of [`CampaignId`]. The name
/// is not echoed: it may be anything.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{problem}: use 1 to {MAX_NAME_LEN} letters, digits, - and _")]
pub struct NameError {
    problem: String,
}

/// What is wrong with `name` as a campaign or part name, if anything.
fn check_name(name: &str) -> Result<(), NameError> {
    let problem = if name.is_empty() {
        "empty".to_owned()
    } else if let Some(c) = name
        .chars()
        .find(|c| !(c.is_ascii_alphanumeric() || *c == '-' || *c == '_'))
    {
        format!("{c:?} is not allowed")
    } else if name.len() > MAX_NAME_LEN {
        format!("{} characters long", name.len())
    } else {
        return Ok(());
    };
    Err(NameError { problem })
}

impl CampaignId {
    /// The id of the campaign named `name`.
    ///
    /// # Errors
    /// [`NameError`] for a name that breaks the rule (a `.` included).
    pub fn new(name: &str) -> Result<CampaignId, NameError> {
        check_name(name)?;
        Ok(CampaignId(name.to_owned()))
    }

    /// The id of this campaign's part named `part`: `NAME.PART`.
    ///
    /// # Errors
    /// [`NameError`] for a part name that breaks the rule.
    pub fn part(&self, part: &str) -> Result<CampaignId, NameError> {
        check_name(part)?;
        Ok(CampaignId(format!("{}.{part}", self.0)))
    }

    /// The campaign's name: the whole id, or `NAME` of `NAME.PART` (the
    /// parts of a piece-value campaign share its name).
    pub fn name(&self) -> &str {
        self.0.split('.').next().unwrap_or(&self.0)
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for CampaignId {
    type Err = NameError;

    /// Reads `NAME` or `NAME.PART`, as requests and the command line name
    /// campaigns.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        match text.split_once('.') {
            None => CampaignId::new(text),
            Some((name, part)) => CampaignId::new(name)?.part(part),
        }
    }
}

/// A worker's id as the coordinator issues it at registration: `w-` and
/// 12 hex digits. Read back, any `w-` and 1 to [`MAX_WORKER_ID_TAIL`]
/// ASCII letters and digits is taken, so that a request naming a worker
/// the coordinator never issued is answered "unknown worker", not refused
/// as malformed; nothing else can name a file or reach the database.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct WorkerId(String);

/// Longest part of a worker id after its `w-`.
pub const MAX_WORKER_ID_TAIL: usize = 32;

/// Text that is no [`WorkerId`]. The text is not echoed: it may be anything.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "not a worker id: use w- and 1 to {MAX_WORKER_ID_TAIL} letters and digits, as the status page shows them"
)]
pub struct WorkerIdError;

impl WorkerId {
    /// A new worker id made of `hex`, random hex digits (the first 12 are
    /// taken).
    pub(crate) fn issue(hex: &str) -> WorkerId {
        WorkerId(format!("w-{}", hex.get(..12).unwrap_or(hex)))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl FromStr for WorkerId {
    type Err = WorkerIdError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let tail = text.strip_prefix("w-").ok_or(WorkerIdError)?;
        if tail.is_empty()
            || tail.len() > MAX_WORKER_ID_TAIL
            || !tail.chars().all(|c| c.is_ascii_alphanumeric())
        {
            return Err(WorkerIdError);
        }
        Ok(WorkerId(text.to_owned()))
    }
}

/// `Display`, `ToSql` and a checked `FromSql` for an id type that is text.
macro_rules! text_id {
    ($id:ty) => {
        impl fmt::Display for $id {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.pad(&self.0)
            }
        }

        impl ToSql for $id {
            fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
                Ok(ToSqlOutput::Borrowed(ValueRef::Text(self.0.as_bytes())))
            }
        }

        /// A stored id is checked as one from a request is: a row that
        /// holds no id is an error of the database, not a new id.
        impl FromSql for $id {
            fn column_result(value: ValueRef<'_>) -> FromSqlResult<Self> {
                value
                    .as_str()?
                    .parse()
                    .map_err(|e| FromSqlError::Other(Box::new(e)))
            }
        }
    };
}

text_id!(CampaignId);
text_id!(WorkerId);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_campaign_id_is_a_name_or_a_name_and_a_part() {
        let id: CampaignId = "pv.falcon-for-minister".parse().unwrap();
        assert_eq!(id.name(), "pv");
        assert_eq!(id.to_string(), "pv.falcon-for-minister");
        assert_eq!(
            CampaignId::new("pv").and_then(|c| c.part("falcon-for-minister")),
            Ok(id)
        );
        for bad in [
            "",
            "a.b.c",
            "../x",
            "a b",
            ".x",
            "x.",
            &"n".repeat(MAX_NAME_LEN + 1),
        ] {
            assert!(bad.parse::<CampaignId>().is_err(), "{bad:?}");
        }
        assert!(
            CampaignId::new("a.b").is_err(),
            "a campaign's own name has no dot"
        );
        assert_eq!(
            CampaignId::new("").map_err(|e| e.to_string()),
            Err(format!(
                "empty: use 1 to {MAX_NAME_LEN} letters, digits, - and _"
            ))
        );
    }

    #[test]
    fn a_worker_id_is_w_and_letters_or_digits() {
        let issued = WorkerId::issue("0123456789abcdef");
        assert_eq!(issued.as_str(), "w-0123456789ab");
        assert_eq!(issued.as_str().parse(), Ok(issued));
        assert!("w-nobody".parse::<WorkerId>().is_ok());
        for bad in [
            "",
            "w-",
            "x-123",
            "w-../..",
            "w-a b",
            &format!("w-{}", "a".repeat(33)),
        ] {
            assert_eq!(bad.parse::<WorkerId>(), Err(WorkerIdError), "{bad:?}");
        }
    }
}
