//! Where an artifact's bytes arrive: a temporary file in the directory of
//! its final name, counted against the stated size and hashed as written;
//! [`Landing::finish`] syncs it and renames it into place only if size and
//! hash match. A landing dropped unfinished removes its temporary file.

use super::{ArtifactError, ArtifactHash};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// An artifact being received.
#[derive(Debug)]
pub struct Landing {
    hash: ArtifactHash,
    size: u64,
    received: u64,
    hasher: Sha256,
    file: Option<File>,
    tmp: PathBuf,
    target: PathBuf,
    executable: bool,
}

impl Landing {
    /// Starts receiving `size` bytes that must hash to `hash`, to be kept at
    /// `target` (made executable when `executable`).
    pub(super) fn start(
        hash: ArtifactHash,
        size: u64,
        target: PathBuf,
        executable: bool,
    ) -> Result<Landing, ArtifactError> {
        static N: AtomicU64 = AtomicU64::new(0);
        let tmp = target.with_extension(format!(
            "tmp-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        let file = File::create(&tmp).map_err(ArtifactError::io(&tmp))?;
        Ok(Landing {
            hash,
            size,
            received: 0,
            hasher: Sha256::new(),
            file: Some(file),
            tmp,
            target,
            executable,
        })
    }

    /// The artifact expected.
    pub fn hash(&self) -> ArtifactHash {
        self.hash
    }

    /// Appends `data`.
    ///
    /// # Errors
    /// [`ArtifactError::SizeMismatch`] as soon as more than the stated size
    /// arrived, or a write failure.
    pub fn write(&mut self, data: &[u8]) -> Result<(), ArtifactError> {
        let received = self
            .received
            .saturating_add(u64::try_from(data.len()).unwrap_or(u64::MAX));
        if received > self.size {
            return Err(ArtifactError::SizeMismatch {
                hash: self.hash,
                stated: self.size,
                received,
            });
        }
        let file = self
            .file
            .as_mut()
            .ok_or_else(|| ArtifactError::Protocol("write after finish".into()))?;
        file.write_all(data).map_err(ArtifactError::io(&self.tmp))?;
        self.hasher.update(data);
        self.received = received;
        Ok(())
    }

    /// Checks size and hash, then syncs the file and renames it to its name.
    ///
    /// # Errors
    /// [`ArtifactError::SizeMismatch`], [`ArtifactError::HashMismatch`] or a
    /// file-system failure; the temporary file is gone either way.
    pub fn finish(mut self) -> Result<PathBuf, ArtifactError> {
        if self.received != self.size {
            return Err(ArtifactError::SizeMismatch {
                hash: self.hash,
                stated: self.size,
                received: self.received,
            });
        }
        let computed = ArtifactHash::from_digest(std::mem::take(&mut self.hasher));
        if computed != self.hash {
            return Err(ArtifactError::HashMismatch {
                stated: self.hash,
                computed,
            });
        }
        let file = self
            .file
            .take()
            .ok_or_else(|| ArtifactError::Protocol("finished twice".into()))?;
        file.sync_all().map_err(ArtifactError::io(&self.tmp))?;
        if self.executable {
            set_executable(&self.tmp)?;
        }
        drop(file);
        std::fs::rename(&self.tmp, &self.target).map_err(ArtifactError::io(&self.target))?;
        // The rename is durable once the directory is synced; where it
        // cannot be opened the file is still complete.
        if let Some(dir) = self.target.parent().and_then(|d| File::open(d).ok()) {
            let _ = dir.sync_all();
        }
        Ok(self.target.clone())
    }
}

impl Drop for Landing {
    fn drop(&mut self) {
        // After a successful rename the temporary name no longer exists.
        let _ = std::fs::remove_file(&self.tmp);
    }
}

#[cfg(unix)]
fn set_executable(path: &Path) -> Result<(), ArtifactError> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755))
        .map_err(ArtifactError::io(path))
}

#[cfg(not(unix))]
fn set_executable(_: &Path) -> Result<(), ArtifactError> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(tag: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("ajaxlab-landing-{}-{tag}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn files(d: &Path) -> usize {
        std::fs::read_dir(d).unwrap().count()
    }

    #[test]
    fn matching_bytes_land_under_their_name_and_nothing_else_does() {
        let d = dir("ok");
        let bytes = b"#!/bin/sh\necho uciok\n";
        let hash = ArtifactHash::of(bytes);
        let mut l = Landing::start(hash, bytes.len() as u64, d.join("a"), true).unwrap();
        l.write(&bytes[..5]).unwrap();
        l.write(&bytes[5..]).unwrap();
        let path = l.finish().unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), bytes);
        assert_eq!(files(&d), 1);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o111, 0o111, "{mode:o}");
        }
    }

    #[test]
    fn wrong_hash_too_many_or_too_few_bytes_leave_nothing() {
        let d = dir("bad");
        let hash = ArtifactHash::of(b"abc");
        let mut l = Landing::start(hash, 3, d.join("x"), false).unwrap();
        l.write(b"abd").unwrap();
        let e = l.finish().unwrap_err();
        assert!(matches!(e, ArtifactError::HashMismatch { .. }), "{e}");
        let mut l = Landing::start(hash, 3, d.join("x"), false).unwrap();
        let e = l.write(b"abcd").unwrap_err();
        assert!(e.to_string().contains("4 bytes received, 3 stated"), "{e}");
        drop(l);
        let mut l = Landing::start(hash, 3, d.join("x"), false).unwrap();
        l.write(b"ab").unwrap();
        let e = l.finish().unwrap_err();
        assert!(e.to_string().contains("2 bytes received, 3 stated"), "{e}");
        assert_eq!(files(&d), 0);
    }
}
