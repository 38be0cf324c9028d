//! Tokens: each is a random secret shown once, kept only as its SHA-256
//! hash ([`TokenHash`]), with the scope of what it may do. The table is
//! the store's ([`ajaxlab_store::state::tokens`]); here are the
//! randomness, the coordinator's cache and issuing beside a running
//! coordinator.

use super::error::{StorageError, file_error};
use super::{Coordinator, CoordinatorError, now_ms};
pub use ajaxlab_store::state::{Scope, TokenHash, TokenHolder};
use ajaxlab_store::state::{schema, tokens};
use rusqlite::Connection;
use std::io::Read;
use std::path::Path;

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

/// A new token of `scope`, stored hashed in `db`: the token and its hash.
fn insert_token(
    db: &Connection,
    scope: Scope,
    label: &str,
) -> Result<(String, TokenHash), CoordinatorError> {
    let token = random_hex()?;
    let hash = TokenHash::of(&token);
    tokens::insert(db, &hash, scope, label, now_ms())?;
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
    let path = dir.join(schema::DATABASE_FILE);
    let db = schema::open(&path).map_err(|source| StorageError::OpenDatabase { path, source })?;
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

    /// Who holds a presented token (its scope and label), if it is known:
    /// for signing in and for saying who did what, not on the hot path.
    ///
    /// # Errors
    /// Storage failure.
    pub fn token_holder(&self, token: &str) -> Result<Option<TokenHolder>, CoordinatorError> {
        Ok(tokens::holder(&self.reader(), &TokenHash::of(token))?)
    }

    /// The scope of a presented token, if it is known. Tokens issued by
    /// `ajaxlab token` while this coordinator runs are found in the database
    /// and remembered.
    pub fn token_scope(&self, token: &str) -> Option<Scope> {
        let hash = TokenHash::of(token);
        let cached = self
            .tokens
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(&hash)
            .copied();
        if cached.is_some() {
            return cached;
        }
        let scope = tokens::scope_of(&self.db(), &hash).ok().flatten()?;
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
    fn random_tokens_are_64_hex_digits_and_differ() -> Result<(), CoordinatorError> {
        let (a, b) = (random_hex()?, random_hex()?);
        assert_eq!(a.len(), 64);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
        Ok(())
    }

    #[test]
    fn a_token_issued_beside_a_coordinator_is_stored_hashed() -> Result<(), CoordinatorError> {
        let dir = std::env::temp_dir().join(format!("ajaxlab-tokens-{}", std::process::id()));
        let token = issue_token_in(&dir, Scope::Operator, "test")?;
        let db = schema::open(&dir.join(schema::DATABASE_FILE))?;
        assert_eq!(
            tokens::scope_of(&db, &TokenHash::of(&token))?,
            Some(Scope::Operator)
        );
        drop(db);
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    }
}
