//! The coordinator's artifact store: `STATE_DIR/artifacts/sha256/HEX`, one
//! file per artifact, written only through a [`Landing`] (so only complete,
//! verified files ever carry a name), with a size limit per artifact.

use super::{ArtifactError, ArtifactHash, Landing};
use std::path::{Path, PathBuf};

/// The largest artifact a coordinator takes unless told otherwise: room for
/// a statically linked engine with an embedded network.
pub const DEFAULT_ARTIFACT_LIMIT: u64 = 256 * 1024 * 1024;

/// Artifacts stored by their SHA-256.
#[derive(Debug)]
pub struct ArtifactStore {
    dir: PathBuf,
    limit: u64,
}

impl ArtifactStore {
    /// The store in `dir` (created), taking artifacts up to `limit` bytes.
    ///
    /// # Errors
    /// [`ArtifactError::Io`] if the directory cannot be created.
    pub fn open(dir: &Path, limit: u64) -> Result<ArtifactStore, ArtifactError> {
        let dir = dir.join("sha256");
        std::fs::create_dir_all(&dir).map_err(ArtifactError::io(&dir))?;
        Ok(ArtifactStore { dir, limit })
    }

    /// The largest artifact taken, bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Changes the limit (before serving).
    pub fn set_limit(&mut self, limit: u64) {
        self.limit = limit;
    }

    fn path(&self, hash: ArtifactHash) -> PathBuf {
        self.dir.join(hash.to_string())
    }

    /// The stored file of `hash` and its size, if it is stored.
    ///
    /// # Errors
    /// [`ArtifactError::NotFound`].
    pub fn get(&self, hash: ArtifactHash) -> Result<(PathBuf, u64), ArtifactError> {
        let path = self.path(hash);
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => Ok((path, m.len())),
            _ => Err(ArtifactError::NotFound(hash)),
        }
    }

    /// Whether `hash` is stored.
    pub fn contains(&self, hash: ArtifactHash) -> bool {
        self.get(hash).is_ok()
    }

    /// Starts receiving an artifact of `size` bytes.
    ///
    /// # Errors
    /// [`ArtifactError::TooLarge`] above the limit (nothing is written), or
    /// a file-system failure.
    pub fn receive(&self, hash: ArtifactHash, size: u64) -> Result<Landing, ArtifactError> {
        if size > self.limit {
            return Err(ArtifactError::TooLarge {
                hash,
                size,
                limit: self.limit,
            });
        }
        Landing::start(hash, size, self.path(hash), false)
    }

    /// Stores the file at `path` (one on this machine, for `ajaxlab
    /// campaign run`), checked as an upload is; returns its hash.
    ///
    /// # Errors
    /// [`ArtifactError::Read`] naming the file, or as [`ArtifactStore::receive`].
    pub fn put_file(&self, path: &Path) -> Result<ArtifactHash, ArtifactError> {
        let (hash, size) = super::hash_file(path)?;
        if self.contains(hash) {
            return Ok(hash);
        }
        let read = |source| ArtifactError::Read {
            path: path.to_owned(),
            source,
        };
        let mut file = std::fs::File::open(path).map_err(read)?;
        let mut landing = self.receive(hash, size)?;
        let mut buffer = vec![0; super::CHUNK_BYTES];
        loop {
            let n = std::io::Read::read(&mut file, &mut buffer).map_err(read)?;
            if n == 0 {
                break;
            }
            landing.write(&buffer[..n])?;
        }
        landing.finish()?;
        Ok(hash)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_artifact_over_the_limit_is_refused_before_a_byte_is_written() {
        let dir = std::env::temp_dir().join(format!("ajaxlab-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = ArtifactStore::open(&dir, 4).unwrap();
        let hash = ArtifactHash::of(b"12345");
        let e = store.receive(hash, 5).unwrap_err();
        assert!(
            e.to_string()
                .contains("5 bytes exceed the limit of 4 bytes"),
            "{e}"
        );
        assert_eq!(std::fs::read_dir(dir.join("sha256")).unwrap().count(), 0);
        let small = ArtifactHash::of(b"1234");
        let mut l = store.receive(small, 4).unwrap();
        l.write(b"1234").unwrap();
        l.finish().unwrap();
        assert_eq!(store.get(small).unwrap().1, 4);
        assert!(!store.contains(hash));
    }
}
