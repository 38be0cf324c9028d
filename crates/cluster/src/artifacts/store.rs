//! The coordinator's artifact store: `STATE_DIR/artifacts/sha256/HEX`, one
//! file per artifact, written only through a [`Landing`] (so only complete,
//! verified files ever carry a name), with a size limit per artifact.
//!
//! A stored file is hashed again before it is first served or counted as
//! stored (and again whenever its size or modification time changes): one
//! that no longer matches its name is moved to `artifacts/damaged/` and
//! never served, and the next upload of the right bytes replaces it.
//! Without this, one damaged copy made every worker record a lasting
//! engine failure, and uploads answered "stored already".

use super::{ArtifactError, ArtifactHash, Landing};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::SystemTime;

/// The largest artifact a coordinator takes unless told otherwise: room for
/// a statically linked engine with an embedded network.
pub const DEFAULT_ARTIFACT_LIMIT: u64 = 256 * 1024 * 1024;

/// Artifacts stored by their SHA-256.
#[derive(Debug)]
pub struct ArtifactStore {
    dir: PathBuf,
    limit: u64,
    /// Files checked against their hash, by the size and modification
    /// time they had then.
    verified: Mutex<HashMap<ArtifactHash, (u64, SystemTime)>>,
}

/// What a stored file's check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DamagedArtifact {
    /// The artifact.
    pub hash: ArtifactHash,
    /// Where its damaged copy now is.
    pub set_aside: PathBuf,
}

impl ArtifactStore {
    /// The store in `dir` (created), taking artifacts up to `limit` bytes.
    ///
    /// # Errors
    /// [`ArtifactError::Io`] if the directory cannot be created.
    pub fn open(dir: &Path, limit: u64) -> Result<ArtifactStore, ArtifactError> {
        let dir = dir.join("sha256");
        std::fs::create_dir_all(&dir).map_err(ArtifactError::io(&dir))?;
        Ok(ArtifactStore {
            dir,
            limit,
            verified: Mutex::default(),
        })
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

    /// Where a damaged copy of `hash` is set aside.
    fn damaged_path(&self, hash: ArtifactHash) -> PathBuf {
        self.dir.with_file_name("damaged").join(hash.to_string())
    }

    /// The stored file of `hash` and its size, if it is stored and its
    /// bytes hash to its name (checked once per size and modification
    /// time).
    ///
    /// # Errors
    /// [`ArtifactError::NotFound`]; [`ArtifactError::Damaged`] for a copy
    /// that does not match (set aside now or before); a file-system failure.
    pub fn get(&self, hash: ArtifactHash) -> Result<(PathBuf, u64), ArtifactError> {
        let path = self.path(hash);
        let meta = match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => m,
            _ if self.damaged_path(hash).exists() => return Err(ArtifactError::Damaged(hash)),
            _ => return Err(ArtifactError::NotFound(hash)),
        };
        let stamp = (
            meta.len(),
            meta.modified().map_err(ArtifactError::io(&path))?,
        );
        if self.verified_lock().get(&hash) != Some(&stamp) {
            let (actual, _) = super::hash_file(&path)?;
            if actual != hash {
                self.set_aside(hash)?;
                return Err(ArtifactError::Damaged(hash));
            }
            self.verified_lock().insert(hash, stamp);
            // A damaged copy set aside earlier has been replaced.
            let _ = std::fs::remove_file(self.damaged_path(hash));
        }
        Ok((path, meta.len()))
    }

    fn verified_lock(&self) -> std::sync::MutexGuard<'_, HashMap<ArtifactHash, (u64, SystemTime)>> {
        self.verified
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Moves the stored copy of `hash` to `artifacts/damaged/`.
    fn set_aside(&self, hash: ArtifactHash) -> Result<PathBuf, ArtifactError> {
        let (from, to) = (self.path(hash), self.damaged_path(hash));
        if let Some(dir) = to.parent() {
            std::fs::create_dir_all(dir).map_err(ArtifactError::io(dir))?;
        }
        std::fs::rename(&from, &to).map_err(ArtifactError::io(&from))?;
        self.verified_lock().remove(&hash);
        tracing::warn!(
            "artifact {hash} does not hash to its name; moved to {}",
            to.display()
        );
        Ok(to)
    }

    /// Removes every stored artifact not in `kept` whose file is older than
    /// `age` (younger ones may belong to a campaign being created): what
    /// refused campaigns uploaded. Returns what was removed.
    ///
    /// # Errors
    /// A file-system failure.
    pub fn remove_unreferenced(
        &self,
        kept: &std::collections::HashSet<ArtifactHash>,
        age: std::time::Duration,
    ) -> Result<Vec<ArtifactHash>, ArtifactError> {
        let mut removed = Vec::new();
        let listing = std::fs::read_dir(&self.dir).map_err(ArtifactError::io(&self.dir))?;
        for entry in listing {
            let entry = entry.map_err(ArtifactError::io(&self.dir))?;
            let Ok(hash) = entry.file_name().to_string_lossy().parse::<ArtifactHash>() else {
                continue;
            };
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|elapsed| elapsed >= age);
            if old && !kept.contains(&hash) {
                let path = entry.path();
                std::fs::remove_file(&path).map_err(ArtifactError::io(&path))?;
                self.verified_lock().remove(&hash);
                removed.push(hash);
            }
        }
        Ok(removed)
    }

    /// Hashes every stored file: those that do not match their names are
    /// set aside (as [`ArtifactStore::get`] would) and returned.
    ///
    /// # Errors
    /// A file-system failure.
    pub fn verify_all(&self) -> Result<Vec<DamagedArtifact>, ArtifactError> {
        let mut damaged = Vec::new();
        let listing = std::fs::read_dir(&self.dir).map_err(ArtifactError::io(&self.dir))?;
        for entry in listing {
            let entry = entry.map_err(ArtifactError::io(&self.dir))?;
            let Ok(hash) = entry.file_name().to_string_lossy().parse::<ArtifactHash>() else {
                continue;
            };
            self.verified_lock().remove(&hash);
            if let Err(ArtifactError::Damaged(hash)) = self.get(hash) {
                damaged.push(DamagedArtifact {
                    hash,
                    set_aside: self.damaged_path(hash),
                });
            }
        }
        Ok(damaged)
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

    /// Stores `bytes` (a text the coordinator shares with workers) unless
    /// they are stored already; returns their hash.
    ///
    /// # Errors
    /// As [`ArtifactStore::receive`].
    pub fn put_bytes(&self, bytes: &[u8]) -> Result<ArtifactHash, ArtifactError> {
        let hash = ArtifactHash::of(bytes);
        if self.contains(hash) {
            return Ok(hash);
        }
        let mut landing = self.receive(hash, bytes.len() as u64)?;
        landing.write(bytes)?;
        landing.finish()?;
        Ok(hash)
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

    fn store_bytes(store: &ArtifactStore, bytes: &[u8]) -> ArtifactHash {
        let hash = ArtifactHash::of(bytes);
        let mut l = store.receive(hash, bytes.len() as u64).unwrap();
        l.write(bytes).unwrap();
        l.finish().unwrap();
        hash
    }

    #[test]
    fn a_damaged_copy_is_set_aside_never_served_and_replaced_by_an_upload() {
        let dir = std::env::temp_dir().join(format!("ajaxlab-damaged-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let store = ArtifactStore::open(&dir, 1 << 20).unwrap();
        let hash = store_bytes(&store, b"engine bytes");
        assert!(store.contains(hash));
        let (path, _) = store.get(hash).unwrap();
        std::fs::write(&path, b"engine bytez").unwrap();

        assert!(matches!(store.get(hash), Err(ArtifactError::Damaged(h)) if h == hash));
        assert!(!store.contains(hash), "an upload is taken again");
        assert!(!path.exists());
        assert!(dir.join("damaged").join(hash.to_string()).exists());
        assert!(
            matches!(store.get(hash), Err(ArtifactError::Damaged(_))),
            "still damaged, not missing, until it is uploaded again"
        );

        store_bytes(&store, b"engine bytes");
        assert_eq!(store.get(hash).unwrap().1, 12);
        assert!(!dir.join("damaged").join(hash.to_string()).exists());

        std::fs::write(&path, b"x").unwrap();
        let found = store.verify_all().unwrap();
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].hash, hash);
    }
}
