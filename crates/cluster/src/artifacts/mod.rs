//! Engine artifacts: the binaries a campaign plays and the files they read
//! (a `VariantPath` ini), content-addressed by SHA-256.
//!
//! The coordinator keeps each once under its state directory
//! ([`ArtifactStore`]); an operator uploads them and a worker fetches what
//! it lacks into a bounded cache ([`ArtifactCache`], least recently used
//! out). Both land bytes the same way ([`Landing`]): into a temporary file,
//! counted against the stated size and hashed as they come, synced and
//! renamed into place only when the hash matches, so that nothing but a
//! complete, verified artifact is ever under its name. [`service`] is the
//! gRPC adapter, [`client`] the operator's and worker's side of it,
//! [`shipped`] runs a UCI player from its fetched copies, and [`shared`]
//! sends the texts all of a campaign's units share once.

pub mod cache;
pub(crate) mod chunks;
pub mod client;
mod landing;
pub mod shared;
pub mod shipped;
pub mod store;

pub use cache::ArtifactCache;
pub use chunks::CHUNK_BYTES;
pub use landing::Landing;
pub use store::{ArtifactStore, DEFAULT_ARTIFACT_LIMIT};

use sha2::{Digest, Sha256};
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// The SHA-256 of an artifact, its name in stores, caches and on the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArtifactHash([u8; 32]);

impl ArtifactHash {
    /// The hash of `bytes`.
    pub fn of(bytes: &[u8]) -> ArtifactHash {
        ArtifactHash(Sha256::digest(bytes).into())
    }

    fn from_digest(hasher: Sha256) -> ArtifactHash {
        ArtifactHash(hasher.finalize().into())
    }
}

impl fmt::Display for ArtifactHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.iter().try_for_each(|b| write!(f, "{b:02x}"))
    }
}

impl FromStr for ArtifactHash {
    type Err = ArtifactError;

    /// 64 hex digits, either case.
    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let bad = || ArtifactError::BadHash(text.to_owned());
        if text.len() != 64 || !text.is_ascii() {
            return Err(bad());
        }
        let mut bytes = [0u8; 32];
        for (i, byte) in bytes.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).map_err(|_| bad())?;
        }
        Ok(ArtifactHash(bytes))
    }
}

/// Why an artifact was refused or could not be stored, read or fetched;
/// whenever one is returned, nothing was kept under the artifact's name.
#[derive(Debug, thiserror::Error)]
pub enum ArtifactError {
    /// Not a SHA-256 in hex.
    #[error("sha256 '{0}': expected 64 hex digits")]
    BadHash(String),
    /// The stated size is above the limit.
    #[error("artifact {hash}: {size} bytes exceed the limit of {limit} bytes")]
    TooLarge {
        /// The artifact.
        hash: ArtifactHash,
        /// Its stated size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// More or fewer bytes arrived than were stated.
    #[error("artifact {hash}: {received} bytes received, {stated} stated")]
    SizeMismatch {
        /// The artifact.
        hash: ArtifactHash,
        /// The stated size.
        stated: u64,
        /// Bytes received (so far, when too many).
        received: u64,
    },
    /// The bytes hash to something else.
    #[error("artifact {stated}: the bytes received hash to {computed}, not to the stated sha256")]
    HashMismatch {
        /// The stated hash.
        stated: ArtifactHash,
        /// The hash of the bytes.
        computed: ArtifactHash,
    },
    /// Not stored here.
    #[error(
        "artifact {0} is not stored on the coordinator (upload it with `ajaxlab campaign create`)"
    )]
    NotFound(ArtifactHash),
    /// The coordinator's copy no longer hashes to its name (a disk fault,
    /// an edit): it is set aside, never served, and the next upload of
    /// the right bytes replaces it.
    #[error(
        "the coordinator's copy of artifact {0} is damaged and set aside; upload it again (`ajaxlab campaign create` does)"
    )]
    Damaged(ArtifactHash),
    /// A file named for upload does not exist or cannot be read.
    #[error("{path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The store or cache directory.
    #[error("artifact storage {path}: {source}")]
    Io {
        /// File or directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A file a campaign names is not there.
    #[error("{key}: '{}' is not a file (engines are uploaded when the campaign is created)", .path.display())]
    MissingFile {
        /// Where the campaign names it.
        key: String,
        /// The path as written.
        path: PathBuf,
    },
    /// A message out of order or a transport failure.
    #[error("{0}")]
    Protocol(String),
}

impl ArtifactError {
    pub(crate) fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ArtifactError {
        let path = path.into();
        move |source| ArtifactError::Io { path, source }
    }
}

/// The SHA-256 and size of a file, read in pieces.
///
/// # Errors
/// [`ArtifactError::Read`] naming the file.
pub fn hash_file(path: &std::path::Path) -> Result<(ArtifactHash, u64), ArtifactError> {
    let read = |source| ArtifactError::Read {
        path: path.to_owned(),
        source,
    };
    let mut file = std::fs::File::open(path).map_err(read)?;
    let mut hasher = Sha256::new();
    let size = std::io::copy(&mut file, &mut hasher).map_err(read)?;
    Ok((ArtifactHash::from_digest(hasher), size))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_read_back_as_written_and_bad_ones_are_named() {
        let h = ArtifactHash::of(b"abc");
        assert_eq!(
            h.to_string(),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(
            h.to_string().to_uppercase().parse::<ArtifactHash>().ok(),
            Some(h)
        );
        for bad in ["", "ab", &"g".repeat(64), &"é".repeat(32)] {
            let e = bad.parse::<ArtifactHash>().unwrap_err();
            assert!(e.to_string().contains("expected 64 hex digits"), "{e}");
        }
    }
}
