//! Tokens: each is a random secret shown once, kept only as its SHA-256
//! hash, with the scope of what it may do.

use super::error::StorageError;
use super::{Coordinator, CoordinatorError, now_ms};
use rusqlite::{OptionalExtension, params};
use sha2::{Digest, Sha256};
use std::io::Read;

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

    /// The scope named `text`.
    pub fn parse(text: &str) -> Option<Scope> {
        match text {
            "worker" => Some(Scope::Worker),
            "operator" => Some(Scope::Operator),
            _ => None,
        }
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

impl Coordinator {
    /// Stores a new token of `scope` (hashed) and returns it; shown once.
    ///
    /// # Errors
    /// Storage failure, or no operating-system randomness ([`random_hex`]).
    pub fn issue_token(&self, scope: Scope, label: &str) -> Result<String, CoordinatorError> {
        let token = random_hex()?;
        let hash = hash_token(&token);
        self.db().execute(
            "insert into tokens values (?1, ?2, ?3, ?4)",
            params![hash, scope.as_str(), label, now_ms()],
        )?;
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
