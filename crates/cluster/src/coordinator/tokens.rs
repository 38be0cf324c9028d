//! Tokens: each is a random secret shown once, kept only as its SHA-256
//! hash, with the scope of what it may do.

use super::error::{StorageError, file_error};
use super::schema::{DATABASE_FILE, open_db};
use super::{Coordinator, CoordinatorError, now_ms};
use rusqlite::{Connection, OptionalExtension, params};
use sha2::{Digest, Sha256};
use std::io::Read;
use std::path::Path;

/// What a token may do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Register, lease, play, submit.
    Worker,
    /// Create and control campaigns.
    Operator,
}

impl Scope {
    fn as_str(self) -> &'static str {
        match self {
            Scope::Worker => "worker",
            Scope::Operator => "operator",
        }
    }

    /// The scope named `text` (`worker` or `operator`).
    pub fn parse(text: &str) -> Option<Scope> {
        match text {
            "worker" => Some(Scope::Worker),
            "operator" => Some(Scope::Operator),
            _ => None,
        }
    }
}

impl std::fmt::Display for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

/// 32 bytes from the operating system's random source, as hex (tokens,
/// lease tokens, worker ids). Without that source no token could be
/// secret, so its absence is an error rather than a weaker fallback.
///
/// # Errors
/// `Internal` if `/dev/urandom` cannot be read.
pub fn random_hex() -> Result<String, CoordinatorError> {
    let mut bytes = [0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(StorageError::Randomness)?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

fn hash_token(token: &str) -> String {
    Sha256::digest(token.trim().as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The token a request came with, as the coordinator keeps it (its
/// SHA-256). Workers are bound to the token that registered them, and
/// exclusions apply to tokens: a worker can neither act under another's id
/// nor shed an exclusion by registering again.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TokenHash(String);

impl TokenHash {
    /// The hash of a presented token.
    #[must_use]
    pub fn of(token: &str) -> TokenHash {
        TokenHash(hash_token(token))
    }

    /// The hash as stored (64 hex digits).
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A new token of `scope`, stored hashed in `db`: the token and its hash.
fn insert_token(
    db: &Connection,
    scope: Scope,
    label: &str,
) -> Result<(String, String), CoordinatorError> {
    let token = random_hex()?;
    let hash = hash_token(&token);
    db.execute(
        "insert into tokens values (?1, ?2, ?3, ?4)",
        params![hash, scope.as_str(), label, now_ms()],
    )?;
    Ok((token, hash))
}

/// Issues a token of `scope` into the state directory `dir` without taking
/// it over: `ajaxlab token` runs beside the coordinator that holds `dir`,
/// which finds the token in the database when it is first presented.
///
/// # Errors
/// The directory or its database cannot be opened or written; no
/// operating-system randomness ([`random_hex`]).
pub fn issue_token_in(dir: &Path, scope: Scope, label: &str) -> Result<String, CoordinatorError> {
    std::fs::create_dir_all(dir).map_err(file_error(dir))?;
    let path = dir.join(DATABASE_FILE);
    let db = open_db(&path).map_err(|source| StorageError::OpenDatabase { path, source })?;
    Ok(insert_token(&db, scope, label)?.0)
}

impl Coordinator {
    /// Stores a new token of `scope` (hashed) and returns it; shown once.
    ///
    /// # Errors
    /// Storage failure, or no operating-system randomness ([`random_hex`]).
    pub fn issue_token(&self, scope: Scope, label: &str) -> Result<String, CoordinatorError> {
        let (token, hash) = insert_token(&self.db(), scope, label)?;
        self.tokens
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(hash, scope);
        Ok(token)
    }

    /// The scope of a presented token, if it is known. Tokens issued by
    /// `ajaxlab token` while this coordinator runs are found in the database
    /// and remembered.
    pub fn token_scope(&self, token: &str) -> Option<Scope> {
        let hash = hash_token(token);
        let cached = self
            .tokens
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&hash)
            .copied();
        if cached.is_some() {
            return cached;
        }
        let stored: Option<String> = self
            .db()
            .query_row("select scope from tokens where hash = ?1", [&hash], |r| {
                r.get(0)
            })
            .optional()
            .ok()
            .flatten();
        let scope = stored.as_deref().and_then(Scope::parse)?;
        self.tokens
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(hash, scope);
        Some(scope)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_round_trip_through_their_names() {
        for scope in [Scope::Worker, Scope::Operator] {
            assert_eq!(Scope::parse(scope.as_str()), Some(scope));
        }
        assert_eq!(Scope::parse("admin"), None);
    }

    #[test]
    fn a_token_is_hashed_without_the_whitespace_around_it() {
        assert_eq!(hash_token("secret\n"), hash_token(" secret"));
        assert_ne!(hash_token("secret"), hash_token("Secret"));
        assert_eq!(hash_token("").len(), 64);
    }

    #[test]
    fn random_tokens_are_64_hex_digits_and_differ() -> Result<(), CoordinatorError> {
        let (a, b) = (random_hex()?, random_hex()?);
        assert_eq!(a.len(), 64);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        Ok(())
    }
}
