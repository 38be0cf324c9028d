//! What is wrong with a match or campaign file: each bad key named with
//! why, all of them at once where the checks do not depend on each other,
//! so that a user fixes a file in one go instead of one error per run.

use std::fmt;

/// A configuration error naming the key, and the other keys found bad
/// beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The key (`players[1].tc`, `--games`, `openings`).
    pub key: String,
    /// What is wrong.
    pub message: String,
    /// The other bad keys found in the same check, in file order.
    more: Vec<ConfigError>,
}

impl ConfigError {
    /// The error of one key.
    pub fn new(key: impl Into<String>, message: impl Into<String>) -> ConfigError {
        ConfigError {
            key: key.into(),
            message: message.into(),
            more: Vec::new(),
        }
    }

    /// Every bad key with why: this one, then the others.
    pub fn all(&self) -> impl Iterator<Item = (&str, &str)> {
        std::iter::once(self)
            .chain(&self.more)
            .map(|e| (e.key.as_str(), e.message.as_str()))
    }

    /// The same errors with each key renamed by `rename` (a part's key
    /// named as its file writes it, a captured file by its original name).
    #[must_use]
    pub fn map_keys(self, rename: impl Fn(String) -> String) -> ConfigError {
        let more = self
            .more
            .into_iter()
            .map(|e| ConfigError::new(rename(e.key), e.message))
            .collect();
        ConfigError {
            key: rename(self.key),
            message: self.message,
            more,
        }
    }

    /// The same errors with each message rewritten by `rewrite`.
    #[must_use]
    pub fn map_messages(self, rewrite: impl Fn(String) -> String) -> ConfigError {
        let more = self
            .more
            .into_iter()
            .map(|e| ConfigError::new(e.key, rewrite(e.message)))
            .collect();
        ConfigError {
            key: self.key,
            message: rewrite(self.message),
            more,
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (key, message)) in self.all().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{key}: {message}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigError {}

/// The error of `key`.
pub(crate) fn err(key: impl Into<String>, message: impl Into<String>) -> ConfigError {
    ConfigError::new(key, message)
}

/// The errors of checks that do not depend on each other, gathered so
/// that all are reported at once.
#[derive(Debug, Default)]
pub struct Gathered(Vec<ConfigError>);

impl Gathered {
    /// The value of a check that passed; a failed one's errors are kept.
    pub fn check<T>(&mut self, result: Result<T, ConfigError>) -> Option<T> {
        result
            .map_err(|e| {
                let ConfigError { key, message, more } = e;
                self.0.push(ConfigError::new(key, message));
                self.0.extend(more);
            })
            .ok()
    }

    /// `Ok` if no check failed, else the errors gathered.
    ///
    /// # Errors
    /// The errors gathered, as one.
    pub fn finish(self) -> Result<(), ConfigError> {
        if self.0.is_empty() {
            Ok(())
        } else {
            Err(self.into_error(|| ConfigError::new("", "")))
        }
    }

    /// The errors gathered, as one: the first with the others after it.
    /// `fallback` stands for a check that failed without saying why.
    pub fn into_error(self, fallback: impl FnOnce() -> ConfigError) -> ConfigError {
        let mut errors = self.0.into_iter();
        match errors.next() {
            Some(first) => ConfigError {
                more: errors.collect(),
                ..first
            },
            None => fallback(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gathered_errors_are_reported_together_in_order() {
        let mut found = Gathered::default();
        assert_eq!(found.check(Ok::<_, ConfigError>(3)), Some(3));
        assert_eq!(found.check::<u8>(Err(err("games", "odd"))), None);
        assert_eq!(found.check::<u8>(Err(err("tc", "fast"))), None);
        let e = found.into_error(|| err("file", "?"));
        assert_eq!(e.key, "games");
        assert_eq!(e.to_string(), "games: odd\ntc: fast");
        let renamed = e.map_keys(|k| format!("part.{k}"));
        let keys: Vec<&str> = renamed.all().map(|(k, _)| k).collect();
        assert_eq!(keys, ["part.games", "part.tc"]);
    }
}
