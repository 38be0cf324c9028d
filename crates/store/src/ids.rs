//! The ids of campaigns, work units and workers, checked once where they
//! come in (a campaign file, a request on the wire, the command line, a
//! database row, a games file's metadata) so that past that point the
//! coordinator, the workers, the binary and the report handle ids, never
//! bare strings; and the opaque token issued with a unit's lease. All
//! travel as text: on the wire, in the database, in file names and file
//! metadata.
//!
//! They live in the store because the store writes and reads them (a
//! games file names its campaign, the coordinator's state its units);
//! `ajaxlab_cluster::ids` re-exports them.

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
    #[must_use]
    pub fn name(&self) -> &str {
        self.0.split('.').next().unwrap_or(&self.0)
    }

    /// The id as text.
    #[must_use]
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

impl fmt::Display for CampaignId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.0)
    }
}

/// A work unit's id: its campaign's id, `-`, and the unit's first pair
/// (`CAMPAIGN-FIRSTPAIR`, `sprt-1-120`), as the coordinator issues it with
/// a lease and names the unit's games file. One id per campaign and first
/// pair: the pair is written in decimal without leading zeros.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UnitId {
    campaign: CampaignId,
    first_pair: u64,
}

/// Text that is no [`UnitId`], and why. The text is not echoed: it may be
/// anything.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("not a unit id ({problem}): use CAMPAIGN-FIRSTPAIR, as the coordinator issued it")]
pub struct UnitIdError {
    problem: String,
}

impl UnitId {
    /// The id of `campaign`'s unit whose first pair is `first_pair`.
    #[must_use]
    pub fn new(campaign: &CampaignId, first_pair: u64) -> UnitId {
        UnitId {
            campaign: campaign.clone(),
            first_pair,
        }
    }

    /// The campaign the unit belongs to.
    #[must_use]
    pub fn campaign(&self) -> &CampaignId {
        &self.campaign
    }

    /// The unit's first pair.
    #[must_use]
    pub fn first_pair(&self) -> u64 {
        self.first_pair
    }
}

impl FromStr for UnitId {
    type Err = UnitIdError;

    /// Reads `CAMPAIGN-FIRSTPAIR`: the last `-` ends the campaign id (whose
    /// names may hold `-` themselves).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let problem = |problem: String| UnitIdError { problem };
        let (campaign, pair) = text
            .rsplit_once('-')
            .ok_or_else(|| problem("no '-' before the first pair".to_owned()))?;
        let canonical = !pair.is_empty()
            && pair.chars().all(|c| c.is_ascii_digit())
            && (pair == "0" || !pair.starts_with('0'));
        let first_pair = pair
            .parse()
            .ok()
            .filter(|_| canonical)
            .ok_or_else(|| problem("the first pair is not a number".to_owned()))?;
        let campaign = campaign
            .parse()
            .map_err(|e: NameError| problem(format!("campaign: {e}")))?;
        Ok(UnitId {
            campaign,
            first_pair,
        })
    }
}

impl fmt::Display for UnitId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&format!("{}-{}", self.campaign, self.first_pair))
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
    /// taken): the coordinator's at registration.
    #[must_use]
    pub fn issue(hex: &str) -> WorkerId {
        WorkerId(format!("w-{}", hex.get(..12).unwrap_or(hex)))
    }

    /// The id as text.
    #[must_use]
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

impl fmt::Display for WorkerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.0)
    }
}

/// The secret issued with a lease: a unit is renewed, given back or
/// submitted only under the very token it was leased with. It is opaque
/// text (random hex as the coordinator issues it); any text a request
/// carries is taken, and simply matches no lease if it is not the one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct LeaseToken(String);

impl LeaseToken {
    /// The token `text`, as issued or as a request presents it.
    #[must_use]
    pub fn new(text: impl Into<String>) -> LeaseToken {
        LeaseToken(text.into())
    }

    /// The token as text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for LeaseToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(&self.0)
    }
}

/// The ids as SQLite values, stored as their text. They are read back
/// through [`crate::state::row::parsed`], never a bare `FromSql`, so that a
/// row that holds no id is an error naming its table, row and column.
#[cfg(feature = "state")]
mod sql {
    use super::{CampaignId, LeaseToken, UnitId, WorkerId};
    use rusqlite::types::{ToSql, ToSqlOutput, ValueRef};

    impl ToSql for CampaignId {
        fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
            Ok(ToSqlOutput::Borrowed(ValueRef::Text(self.0.as_bytes())))
        }
    }

    impl ToSql for WorkerId {
        fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
            Ok(ToSqlOutput::Borrowed(ValueRef::Text(self.0.as_bytes())))
        }
    }

    impl ToSql for UnitId {
        fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
            Ok(ToSqlOutput::from(self.to_string()))
        }
    }

    impl ToSql for LeaseToken {
        fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
            Ok(ToSqlOutput::Borrowed(ValueRef::Text(self.0.as_bytes())))
        }
    }
}

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
    fn a_unit_id_is_its_campaign_and_its_first_pair() {
        let campaign: CampaignId = "fixture-pv.pawn-odds".parse().unwrap();
        let id = UnitId::new(&campaign, 120);
        assert_eq!(id.to_string(), "fixture-pv.pawn-odds-120");
        assert_eq!("fixture-pv.pawn-odds-120".parse(), Ok(id.clone()));
        assert_eq!(id.campaign(), &campaign);
        assert_eq!(id.first_pair(), 120);
        assert_eq!(format!("{id:>26}|"), "  fixture-pv.pawn-odds-120|");
        assert_eq!(
            "sprt-0".parse::<UnitId>().map(|u| u.first_pair()),
            Ok(0),
            "the first unit starts at pair 0"
        );
    }

    #[test]
    fn text_that_is_no_unit_id_is_refused_with_the_reason() {
        let problem = |text: &str| text.parse::<UnitId>().map_err(|e| e.problem);
        assert_eq!(
            problem("sprt"),
            Err("no '-' before the first pair".to_owned())
        );
        for bad in ["sprt-", "sprt-x", "sprt-012", "sprt-+1", "sprt-1 ", "-"] {
            assert_eq!(
                problem(bad),
                Err("the first pair is not a number".to_owned()),
                "{bad:?}"
            );
        }
        assert_eq!(
            problem("-0"),
            Err("campaign: empty: use 1 to 64 letters, digits, - and _".to_owned())
        );
        assert!(problem("../x-1").is_err());
        assert!(problem("a.b.c-1").is_err());
        assert!(problem(&format!("sprt-{}0", u64::MAX)).is_err());
        let message = "x".parse::<UnitId>().map_err(|e| e.to_string());
        assert_eq!(
            message,
            Err("not a unit id (no '-' before the first pair): use CAMPAIGN-FIRSTPAIR, as the coordinator issued it".to_owned())
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
