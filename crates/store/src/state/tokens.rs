//! The `tokens` table: each token a random secret shown once, kept only as
//! its SHA-256 hash, with the scope of what it may do.

use rusqlite::types::{ToSql, ToSqlOutput, ValueRef};
use rusqlite::{Connection, OptionalExtension, params};
use std::fmt;
use std::str::FromStr;

/// What a token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// Register, lease, play, submit.
    Worker,
    /// Create and control campaigns.
    Operator,
}

impl Scope {
    /// Both scopes.
    pub const ALL: [Scope; 2] = [Scope::Worker, Scope::Operator];

    /// The name stored in the database.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Scope::Worker => "worker",
            Scope::Operator => "operator",
        }
    }
}

impl fmt::Display for Scope {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Text that names no [`Scope`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a token scope (worker, operator)")]
pub struct UnknownScope(pub String);

impl FromStr for Scope {
    type Err = UnknownScope;

    /// The scope named `text` (`worker` or `operator`).
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        Scope::ALL
            .into_iter()
            .find(|s| s.as_str() == text)
            .ok_or_else(|| UnknownScope(text.to_owned()))
    }
}

/// A token as the coordinator keeps it: its SHA-256, in hex. Workers are
/// bound to the token that registered them, and exclusions apply to
/// tokens: a worker can neither act under another's id nor shed an
/// exclusion by registering again.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TokenHash(String);

impl TokenHash {
    /// The hash of a presented token, without the whitespace around it.
    #[must_use]
    pub fn of(token: &str) -> TokenHash {
        TokenHash(crate::sha256_hex(token.trim().as_bytes()))
    }

    /// The hash as stored (64 hex digits; empty for a worker registered
    /// before workers were bound to tokens).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// A hash as stored, read back.
    pub(crate) fn stored(hash: String) -> TokenHash {
        TokenHash(hash)
    }
}

impl ToSql for TokenHash {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        Ok(ToSqlOutput::Borrowed(ValueRef::Text(self.0.as_bytes())))
    }
}

/// A stored token: its hash and scope.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredToken {
    /// The token's hash.
    pub hash: TokenHash,
    /// What it may do.
    pub scope: Scope,
}

/// Stores the token of `hash` with `scope`, `label` (for the operator)
/// and its creation time.
///
/// # Errors
/// SQLite's (a hash stored before included).
pub fn insert(
    db: &Connection,
    hash: &TokenHash,
    scope: Scope,
    label: &str,
    created_ms: i64,
) -> rusqlite::Result<()> {
    db.execute(
        "insert into tokens values (?1, ?2, ?3, ?4)",
        params![hash, scope.as_str(), label, created_ms],
    )?;
    Ok(())
}

/// The scope of the token of `hash`, if it is stored (with a scope this
/// build knows).
///
/// # Errors
/// SQLite's.
pub fn scope_of(db: &Connection, hash: &TokenHash) -> rusqlite::Result<Option<Scope>> {
    let stored: Option<String> = db
        .query_row("select scope from tokens where hash = ?1", [hash], |r| {
            r.get(0)
        })
        .optional()?;
    Ok(stored.and_then(|s| s.parse().ok()))
}

/// Who holds a token: its scope and the label it was issued with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenHolder {
    /// What it may do.
    pub scope: Scope,
    /// The label given when it was issued (`ajaxlab token --label`).
    pub label: String,
}

/// The holder of the token of `hash`, if it is stored (with a scope this
/// build knows).
///
/// # Errors
/// SQLite's.
pub fn holder(db: &Connection, hash: &TokenHash) -> rusqlite::Result<Option<TokenHolder>> {
    let stored: Option<(String, String)> = db
        .query_row(
            "select scope, label from tokens where hash = ?1",
            [hash],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    Ok(stored
        .and_then(|(scope, label)| scope.parse().ok().map(|scope| TokenHolder { scope, label })))
}

/// Every stored token whose scope this build knows.
///
/// # Errors
/// SQLite's.
pub fn all(db: &Connection) -> rusqlite::Result<Vec<StoredToken>> {
    let mut stmt = db.prepare("select hash, scope from tokens")?;
    let rows = stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
    let mut out = Vec::new();
    for row in rows {
        let (hash, scope) = row?;
        if let Ok(scope) = scope.parse() {
            out.push(StoredToken {
                hash: TokenHash::stored(hash),
                scope,
            });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::schema;

    #[test]
    fn scopes_round_trip_through_their_names() {
        for scope in Scope::ALL {
            assert_eq!(scope.as_str().parse(), Ok(scope));
        }
        assert!("admin".parse::<Scope>().is_err());
    }

    #[test]
    fn a_token_is_hashed_without_the_whitespace_around_it() {
        assert_eq!(TokenHash::of("secret\n"), TokenHash::of(" secret"));
        assert_ne!(TokenHash::of("secret"), TokenHash::of("Secret"));
        assert_eq!(TokenHash::of("").as_str().len(), 64);
    }

    #[test]
    fn stored_tokens_are_found_by_their_hash() -> rusqlite::Result<()> {
        let db = schema::open_in_memory()?;
        let (worker, operator) = (TokenHash::of("w"), TokenHash::of("o"));
        insert(&db, &worker, Scope::Worker, "workers", 1)?;
        insert(&db, &operator, Scope::Operator, "me", 2)?;
        db.execute(
            "insert into tokens values ('odd', 'admin', 'from a later build', 3)",
            [],
        )?;
        assert_eq!(scope_of(&db, &worker)?, Some(Scope::Worker));
        assert_eq!(scope_of(&db, &TokenHash::of("x"))?, None);
        assert_eq!(
            holder(&db, &operator)?,
            Some(TokenHolder {
                scope: Scope::Operator,
                label: "me".into()
            })
        );
        assert_eq!(holder(&db, &TokenHash::stored("odd".into()))?, None);
        let mut stored: Vec<_> = all(&db)?.into_iter().map(|t| t.scope).collect();
        stored.sort_by_key(|s| s.as_str());
        assert_eq!(
            stored,
            [Scope::Operator, Scope::Worker],
            "'admin' is skipped"
        );
        assert!(
            insert(&db, &worker, Scope::Operator, "again", 4).is_err(),
            "a hash is stored once"
        );
        Ok(())
    }
}
