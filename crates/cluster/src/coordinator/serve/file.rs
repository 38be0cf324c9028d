//! The coordinator's own file (`ajaxlab coordinator --config`, e.g.
//! `deploy/k8s/base/coordinator.toml`): addresses, the state directory,
//! lease and unit durations, TLS and the artifact limit. Text becomes
//! [`CoordinatorSettings`] only through [`parse_coordinator_file`], which
//! names the key of every fault at once.

use crate::coordinator::serve::web::ReadAccess;
use ajaxlab_arena::ConfigError;
use ajaxlab_arena::limits::check;
use serde::Deserialize;
use std::fmt;
use std::net::SocketAddr;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::Duration;
use toml::Spanned;
use toml::de::{DeTable, Deserializer};

/// A coordinator file as written, before its values are checked.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CoordinatorFile {
    /// Address to listen on.
    pub listen: Option<SocketAddr>,
    /// Directory of the state and the games.
    pub state_dir: Option<PathBuf>,
    /// Seconds a lease lasts without renewal (default 60).
    pub lease_seconds: Option<u64>,
    /// Seconds of play a unit is sized to on the worker that asks (default 180).
    pub unit_seconds: Option<u64>,
    /// Address of the web UI and /metrics.
    pub http_listen: Option<SocketAddr>,
    /// TLS certificate chain (PEM); with tls_key, gRPC is served over TLS.
    pub tls_cert: Option<PathBuf>,
    /// TLS private key (PEM).
    pub tls_key: Option<PathBuf>,
    /// Largest engine artifact taken, MiB (default 256).
    pub max_artifact_mb: Option<u64>,
    /// Who may read the web UI: "anyone" (the default) or "operators".
    pub web_read: Option<String>,
}

/// `lease_seconds`: how long a lease lasts unrenewed.
pub const LEASE_SECONDS: RangeInclusive<u64> = 5..=3_600;
/// `unit_seconds`: the play a unit is sized to.
pub const UNIT_SECONDS: RangeInclusive<u64> = 1..=86_400;
/// `max_artifact_mb`: the largest engine artifact.
pub const MAX_ARTIFACT_MB: RangeInclusive<u64> = 1..=65_536;
/// The lease when the file sets none.
pub const DEFAULT_LEASE: Duration = Duration::from_secs(60);
/// The key of a fault of the file as a whole (not TOML).
pub const FILE_KEY: &str = "coordinator file";

/// The TLS identity's files: both or neither are given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TlsFiles {
    /// Certificate chain (PEM).
    pub cert: PathBuf,
    /// Private key (PEM).
    pub key: PathBuf,
}

/// A checked coordinator file; unset addresses and directory are left to
/// the command line and its defaults.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoordinatorSettings {
    /// Address to listen on.
    pub listen: Option<SocketAddr>,
    /// Directory of the state and the games.
    pub state_dir: Option<PathBuf>,
    /// How long a lease lasts unrenewed.
    pub lease: Duration,
    /// The play a unit is sized to, if set.
    pub unit_duration: Option<Duration>,
    /// Address of the web UI and /metrics.
    pub http_listen: Option<SocketAddr>,
    /// Serve gRPC over TLS with these files.
    pub tls: Option<TlsFiles>,
    /// Largest engine artifact taken, bytes, if set.
    pub artifact_limit: Option<u64>,
    /// Who may read the web UI.
    pub web_read: ReadAccess,
}

impl Default for CoordinatorSettings {
    fn default() -> Self {
        CoordinatorSettings {
            listen: None,
            state_dir: None,
            lease: DEFAULT_LEASE,
            unit_duration: None,
            http_listen: None,
            tls: None,
            artifact_limit: None,
            web_read: ReadAccess::Anyone,
        }
    }
}

/// Every fault of a coordinator file, each naming its key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct CoordinatorFileError {
    /// One per key at fault, in the file's order of keys.
    pub violations: Vec<ConfigError>,
}

impl fmt::Display for CoordinatorFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, v) in self.violations.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{v}")?;
        }
        Ok(())
    }
}

impl TryFrom<CoordinatorFile> for CoordinatorSettings {
    type Error = CoordinatorFileError;

    /// Checks every value's range and that the TLS files come together.
    fn try_from(file: CoordinatorFile) -> Result<Self, Self::Error> {
        let mut violations = Vec::new();
        let mut in_range = |key: &str, value: Option<u64>, range: &RangeInclusive<u64>| {
            value.and_then(|v| check(key, v, range).map_err(|e| violations.push(e)).ok())
        };
        let lease = in_range("lease_seconds", file.lease_seconds, &LEASE_SECONDS);
        let unit = in_range("unit_seconds", file.unit_seconds, &UNIT_SECONDS);
        let artifact_mb = in_range("max_artifact_mb", file.max_artifact_mb, &MAX_ARTIFACT_MB);
        let web_read = file
            .web_read
            .as_deref()
            .map(|text| {
                text.parse::<ReadAccess>()
                    .map_err(|e| violations.push(ConfigError::new("web_read", e)))
                    .unwrap_or_default()
            })
            .unwrap_or_default();
        let tls = match (file.tls_cert, file.tls_key) {
            (Some(cert), Some(key)) => Some(TlsFiles { cert, key }),
            (None, None) => None,
            (Some(_), None) => {
                violations.push(missing_pair("tls_key", "tls_cert"));
                None
            }
            (None, Some(_)) => {
                violations.push(missing_pair("tls_cert", "tls_key"));
                None
            }
        };
        if !violations.is_empty() {
            return Err(CoordinatorFileError { violations });
        }
        Ok(CoordinatorSettings {
            listen: file.listen,
            state_dir: file.state_dir,
            lease: lease.map_or(DEFAULT_LEASE, Duration::from_secs),
            unit_duration: unit.map(Duration::from_secs),
            http_listen: file.http_listen,
            tls,
            artifact_limit: artifact_mb.map(|mb| mb * 1024 * 1024),
            web_read,
        })
    }
}

fn missing_pair(missing: &str, given: &str) -> ConfigError {
    ConfigError::new(
        missing.to_owned(),
        format!("missing: {given} is set, and tls_cert and tls_key go together"),
    )
}

/// Parses and checks a coordinator file.
///
/// # Errors
/// [`CoordinatorFileError`]: text that is not TOML under the key
/// [`FILE_KEY`] (the message gives line and column); otherwise one
/// violation per key that is unknown, of the wrong type or out of range.
pub fn parse_coordinator_file(text: &str) -> Result<CoordinatorSettings, CoordinatorFileError> {
    let single = |key: &str, message: String| CoordinatorFileError {
        violations: vec![ConfigError::new(key, message)],
    };
    // The document's raw values: integers stay text here, so that one
    // above i64's range still reaches its key as a u64.
    let root =
        DeTable::parse(text).map_err(|e| single(FILE_KEY, e.to_string().trim_end().to_owned()))?;
    let span = root.span();
    let table = root.into_inner();
    let read = |table: DeTable<'_>| {
        CoordinatorFile::deserialize(Deserializer::from(Spanned::new(span.clone(), table)))
    };
    // Every field is optional: a key alone is valid exactly when it is
    // valid in the whole file, so trying each alone names the faulty ones;
    // the rest are then checked for their ranges.
    let mut violations: Vec<ConfigError> = table
        .iter()
        .filter_map(|(key, value)| {
            let mut alone = DeTable::new();
            alone.insert(key.clone(), value.clone());
            read(alone)
                .err()
                .map(|e| ConfigError::new(key.get_ref().to_string(), e.message()))
        })
        .collect();
    let mut valid = DeTable::new();
    for (key, value) in table {
        if violations.iter().all(|v| v.key != *key.get_ref()) {
            valid.insert(key, value);
        }
    }
    let checked = read(valid)
        .map_err(|e| single(FILE_KEY, e.message().to_owned()))
        .and_then(CoordinatorSettings::try_from);
    match checked {
        Ok(settings) if violations.is_empty() => Ok(settings),
        Ok(_) => Err(CoordinatorFileError { violations }),
        Err(e) => {
            violations.extend(e.violations);
            Err(CoordinatorFileError { violations })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(text: &str) -> Vec<String> {
        match parse_coordinator_file(text) {
            Ok(s) => panic!("{text:?} was taken: {s:?}"),
            Err(e) => e.violations.into_iter().map(|v| v.key).collect(),
        }
    }

    #[test]
    fn lease_and_unit_seconds_out_of_range_are_refused_naming_the_key() {
        for (text, key) in [
            ("lease_seconds = 18446744073709551615", "lease_seconds"),
            ("lease_seconds = 1", "lease_seconds"),
            ("unit_seconds = 0", "unit_seconds"),
            ("unit_seconds = 18446744073709551615", "unit_seconds"),
            ("max_artifact_mb = 0", "max_artifact_mb"),
            ("max_artifact_mb = 65537", "max_artifact_mb"),
        ] {
            assert_eq!(keys(text), [key], "{text}");
        }
        let s = parse_coordinator_file("lease_seconds = 5\nunit_seconds = 30").unwrap();
        assert_eq!(
            (s.lease, s.unit_duration),
            (Duration::from_secs(5), Some(Duration::from_secs(30)))
        );
        assert_eq!(
            parse_coordinator_file(""),
            Ok(CoordinatorSettings::default())
        );
    }

    #[test]
    fn every_fault_is_named_at_once() {
        // Faults of type and unknown keys first (in the keys' order), then
        // the ranges and the TLS pair.
        assert_eq!(
            keys(
                "lease_seconds = 1\nlisten = \"nowhere\"\nport = 3\nunit_seconds = -4\ntls_cert = \"c.pem\""
            ),
            ["listen", "port", "unit_seconds", "lease_seconds", "tls_key"]
        );
        assert_eq!(keys("tls_key = \"k.pem\""), ["tls_cert"]);
        assert_eq!(keys("listen = "), [FILE_KEY]);
    }

    #[test]
    fn the_deploy_files_are_taken() {
        for text in [
            include_str!("../../../../../deploy/k8s/base/coordinator.toml"),
            include_str!("../../../../../deploy/k8s/overlays/tls/coordinator.toml"),
        ] {
            let s = parse_coordinator_file(text).unwrap();
            assert_eq!(s.listen, Some(SocketAddr::from(([0, 0, 0, 0], 50051))));
            assert_eq!(s.lease, Duration::from_secs(60));
        }
        let tls = parse_coordinator_file(include_str!(
            "../../../../../deploy/k8s/overlays/tls/coordinator.toml"
        ))
        .unwrap()
        .tls
        .unwrap();
        assert_eq!(tls.key, PathBuf::from("/etc/ajaxlab/tls/tls.key"));
    }
}
