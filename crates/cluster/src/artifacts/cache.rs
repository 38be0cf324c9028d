//! A worker's cache of fetched artifacts: `DIR/HEX`, executable, at most
//! `max_bytes` in all. A file's modification time is its last use; room is
//! made by removing the least recently used. A cached file is hashed again
//! before it is handed out, and one that no longer matches is removed (and
//! so fetched anew).

use super::{ArtifactError, ArtifactHash, Landing};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The bytes a worker's cache holds unless told otherwise.
pub const DEFAULT_CACHE_BYTES: u64 = 1024 * 1024 * 1024;

/// Fetched artifacts on a worker.
#[derive(Clone, Debug)]
pub struct ArtifactCache {
    dir: PathBuf,
    max_bytes: u64,
}

/// One cached file.
struct Entry {
    path: PathBuf,
    size: u64,
    used: SystemTime,
}

impl ArtifactCache {
    /// The cache in `dir` (created), holding at most `max_bytes`.
    ///
    /// # Errors
    /// [`ArtifactError::Io`] if the directory cannot be created.
    pub fn open(dir: &Path, max_bytes: u64) -> Result<ArtifactCache, ArtifactError> {
        std::fs::create_dir_all(dir).map_err(ArtifactError::io(dir))?;
        Ok(ArtifactCache {
            dir: dir.to_owned(),
            max_bytes,
        })
    }

    /// The cached file of `hash`, checked and marked as just used; `None`
    /// if it is not cached (or was cached corrupted, and is now removed).
    ///
    /// # Errors
    /// [`ArtifactError::Io`] if a cached file cannot be read.
    pub fn get(&self, hash: ArtifactHash) -> Result<Option<PathBuf>, ArtifactError> {
        let path = self.dir.join(hash.to_string());
        let bytes = match std::fs::read(&path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(ArtifactError::io(&path)(e)),
        };
        if ArtifactHash::of(&bytes) != hash {
            std::fs::remove_file(&path).map_err(ArtifactError::io(&path))?;
            return Ok(None);
        }
        std::fs::File::options()
            .append(true)
            .open(&path)
            .and_then(|f| f.set_modified(SystemTime::now()))
            .map_err(ArtifactError::io(&path))?;
        Ok(Some(path))
    }

    /// Makes room for `size` bytes, removing the least recently used files,
    /// and starts receiving the artifact (executable once finished).
    ///
    /// # Errors
    /// [`ArtifactError::TooLarge`] if it exceeds the whole cache, or a
    /// file-system failure.
    pub fn receive(&self, hash: ArtifactHash, size: u64) -> Result<Landing, ArtifactError> {
        if size > self.max_bytes {
            return Err(ArtifactError::TooLarge {
                hash,
                size,
                limit: self.max_bytes,
            });
        }
        let mut entries = self.entries()?;
        entries.sort_by_key(|e| e.used);
        let mut total: u64 = entries.iter().map(|e| e.size).sum();
        for e in entries {
            if total.saturating_add(size) <= self.max_bytes {
                break;
            }
            std::fs::remove_file(&e.path).map_err(ArtifactError::io(&e.path))?;
            total -= e.size;
        }
        Landing::start(hash, size, self.dir.join(hash.to_string()), true)
    }

    /// Caches `bytes` made on this worker (an SPSA unit's filled template)
    /// as the artifact of their hash, unless cached already.
    ///
    /// # Errors
    /// As [`ArtifactCache::receive`].
    pub fn put(&self, bytes: &[u8]) -> Result<PathBuf, ArtifactError> {
        let hash = ArtifactHash::of(bytes);
        if let Some(path) = self.get(hash)? {
            return Ok(path);
        }
        let mut landing = self.receive(hash, bytes.len() as u64)?;
        landing.write(bytes)?;
        landing.finish()
    }

    /// The finished files (named by a hash) with their size and last use.
    fn entries(&self) -> Result<Vec<Entry>, ArtifactError> {
        let listing = std::fs::read_dir(&self.dir).map_err(ArtifactError::io(&self.dir))?;
        let mut entries = Vec::new();
        for item in listing {
            let item = item.map_err(ArtifactError::io(&self.dir))?;
            let named_by_hash = item
                .file_name()
                .to_str()
                .is_some_and(|n| n.parse::<ArtifactHash>().is_ok());
            let path = item.path();
            let meta = item.metadata().map_err(ArtifactError::io(&path))?;
            if named_by_hash && meta.is_file() {
                let used = meta.modified().map_err(ArtifactError::io(&path))?;
                entries.push(Entry {
                    path,
                    size: meta.len(),
                    used,
                });
            }
        }
        Ok(entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn put(cache: &ArtifactCache, bytes: &[u8]) -> ArtifactHash {
        cache.put(bytes).unwrap();
        ArtifactHash::of(bytes)
    }

    fn age(cache: &ArtifactCache, hash: ArtifactHash, seconds: u64) {
        let path = cache.dir.join(hash.to_string());
        let when = SystemTime::now() - Duration::from_secs(seconds);
        std::fs::File::options()
            .append(true)
            .open(path)
            .unwrap()
            .set_modified(when)
            .unwrap();
    }

    #[test]
    fn the_least_recently_used_goes_and_a_corrupted_file_is_dropped() {
        let dir = std::env::temp_dir().join(format!("ajaxlab-cache-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let cache = ArtifactCache::open(&dir, 10).unwrap();
        let a = put(&cache, b"aaaa");
        let b = put(&cache, b"bbbb");
        age(&cache, a, 100);
        age(&cache, b, 50);
        // Using `a` makes `b` the least recently used.
        assert!(cache.get(a).unwrap().is_some());
        let c = put(&cache, b"cccc");
        assert!(cache.get(b).unwrap().is_none(), "b should have gone");
        assert!(cache.get(a).unwrap().is_some() && cache.get(c).unwrap().is_some());

        std::fs::write(dir.join(a.to_string()), b"aaaX").unwrap();
        assert!(cache.get(a).unwrap().is_none());
        assert!(!dir.join(a.to_string()).exists());

        let e = cache.receive(ArtifactHash::of(b"big"), 11).unwrap_err();
        assert!(e.to_string().contains("exceed the limit of 10"), "{e}");
    }
}
