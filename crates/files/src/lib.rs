//! Reading the files a user names (a variants file, an opening book, a
//! parameter file, a template), so that no name can make a process read
//! without end or wait for ever: the path must be a regular file (a FIFO,
//! a device such as `/dev/zero`, a socket or a directory is refused by
//! what it is, before it is opened), and no more than a stated number of
//! bytes is read. Text loses a leading UTF-8 byte-order mark, which
//! Windows editors write and no ajaxlab format means.
//!
//! The errors are [`std::io::Error`]s with a kind and a message that says
//! what is wrong, so that each caller wraps them as it wraps any failed
//! read: with the file's name and the key that named it.

use std::io::{self, Read};
use std::path::Path;

/// One mebibyte, the unit the limits are written in.
pub const MIB: u64 = 1 << 20;

/// The largest file of each kind a user may name, bytes: far above any
/// real one (Fairy-Stockfish's own `variants.ini` of 143 sections is
/// 60 KiB; the largest common opening books are a few MiB), and far below
/// what would take a coordinator's memory or a unit's message.
pub mod limits {
    use super::MIB;
    /// A variants file (Fairy-Stockfish's ini syntax).
    pub const VARIANTS_FILE: u64 = MIB;
    /// An opening book (`file:` EPD/FEN/PGN) or numbered start list (`list:`).
    pub const OPENINGS_FILE: u64 = 16 * MIB;
    /// A parameter file: TOML values, Fishtest's SPSA lines, a `ParamsFile`.
    pub const PARAMS_FILE: u64 = MIB;
    /// An SPSA template of an engine's file.
    pub const TEMPLATE: u64 = MIB;
    /// A campaign, match or coordinator file, or a perft suite.
    pub const CONFIG_FILE: u64 = MIB;
}

/// The UTF-8 byte-order mark.
const BOM: &str = "\u{feff}";

/// The bytes of the regular file at `path`, if it holds at most `limit`.
///
/// # Errors
/// [`io::ErrorKind::InvalidInput`] for a path that is not a regular file
/// (naming what it is), [`io::ErrorKind::FileTooLarge`] for a file over
/// `limit` bytes, or what the operating system says.
pub fn read_bytes(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let kind = std::fs::metadata(path)?.file_type();
    if !kind.is_file() {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{}, not a regular file", what_it_is(&kind)),
        ));
    }
    read_bounded(std::fs::File::open(path)?, limit)
}

/// At most `limit` bytes of `reader`, read to its end.
fn read_bounded(reader: impl Read, limit: u64) -> io::Result<Vec<u8>> {
    let mut bytes = Vec::new();
    // One byte past the limit tells a file at the limit from one over it,
    // whatever its metadata said (files under /proc report size 0).
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

/// The text of the regular file at `path`, if it holds at most `limit`
/// bytes of UTF-8, without a leading byte-order mark.
///
/// # Errors
/// As [`read_bytes`], and [`io::ErrorKind::InvalidData`] for bytes that
/// are not UTF-8 (naming the offset of the first bad one).
pub fn read_text(path: &Path, limit: u64) -> io::Result<String> {
    text_of(read_bytes(path, limit)?)
}

/// The text of standard input, read to its end, if it is at most `limit`
/// bytes of UTF-8, without a leading byte-order mark: what a command that
/// takes a file reads for `-`, so that a file on another machine can be
/// piped in (`docker compose exec -T coordinator ajaxlab campaign create -
/// < campaign.toml`).
///
/// # Errors
/// As [`read_text`].
pub fn read_stdin_text(limit: u64) -> io::Result<String> {
    text_of(read_bounded(io::stdin().lock(), limit)?)
}

/// `bytes` as UTF-8 text without a leading byte-order mark.
fn text_of(bytes: Vec<u8>) -> io::Result<String> {
    let text = String::from_utf8(bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "not UTF-8 text (byte {} is not)",
                e.utf8_error().valid_up_to()
            ),
        )
    })?;
    Ok(match text.strip_prefix(BOM) {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// The error of a text or file over `limit` bytes.
pub fn too_large(limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::FileTooLarge,
        format!("larger than the limit of {}", bytes_text(limit)),
    )
}

/// `limit` as people read it: `64 MiB`, `300 KiB`, `17 bytes`.
pub fn bytes_text(limit: u64) -> String {
    if limit >= MIB && limit.is_multiple_of(MIB) {
        format!("{} MiB", limit / MIB)
    } else if limit >= 1024 && limit.is_multiple_of(1024) {
        format!("{} KiB", limit / 1024)
    } else {
        format!("{limit} bytes")
    }
}

fn what_it_is(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        "a directory"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_char_device() {
        "a character device"
    } else if kind.is_block_device() {
        "a block device"
    } else if kind.is_socket() {
        "a socket"
    } else {
        "a special file"
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]
    use super::*;

    fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
        let path =
            std::env::temp_dir().join(format!("ajaxlab-files-{}-{name}", std::process::id()));
        std::fs::write(&path, bytes).unwrap();
        path
    }

    #[test]
    fn devices_and_directories_are_refused_by_what_they_are() {
        let e = read_bytes(Path::new("/dev/zero"), MIB).unwrap_err();
        assert_eq!(
            (e.kind(), e.to_string()),
            (
                io::ErrorKind::InvalidInput,
                "a character device, not a regular file".into()
            )
        );
        let e = read_text(Path::new("/"), MIB).unwrap_err();
        assert_eq!(e.to_string(), "a directory, not a regular file");
    }

    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let path = std::env::temp_dir().join(format!("ajaxlab-files-{}-fifo", std::process::id()));
        let _ = std::fs::remove_file(&path);
        let made = std::process::Command::new("mkfifo")
            .arg(&path)
            .status()
            .unwrap();
        assert!(made.success());
        let e = read_text(&path, MIB).unwrap_err();
        assert_eq!(e.to_string(), "a FIFO, not a regular file");
        std::fs::remove_file(&path).unwrap();
    }

    #[test]
    fn a_file_over_its_limit_is_refused_and_one_at_it_is_read() {
        let path = temp("limit", b"12345");
        assert_eq!(read_bytes(&path, 5).unwrap(), b"12345");
        let e = read_bytes(&path, 4).unwrap_err();
        assert_eq!(
            (e.kind(), e.to_string()),
            (
                io::ErrorKind::FileTooLarge,
                "larger than the limit of 4 bytes".into()
            )
        );
        assert_eq!(bytes_text(64 * MIB), "64 MiB");
        assert_eq!(bytes_text(300 * 1024), "300 KiB");
    }

    #[test]
    fn text_loses_its_byte_order_mark_and_bad_bytes_are_named() {
        let path = temp("bom", "\u{feff}[afc]\n".as_bytes());
        assert_eq!(read_text(&path, MIB).unwrap(), "[afc]\n");
        let path = temp("latin1", b"ab\xe9c");
        assert_eq!(
            read_text(&path, MIB).unwrap_err().to_string(),
            "not UTF-8 text (byte 2 is not)"
        );
    }

    #[test]
    fn a_proc_file_that_reports_no_size_is_still_bounded() {
        // /proc files report size 0 and may be longer than any limit.
        let e = read_bytes(Path::new("/proc/self/maps"), 16).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::FileTooLarge);
    }

    #[test]
    fn piped_text_is_held_to_the_limit_and_to_utf8_like_a_file() {
        let at_limit = read_bounded(&b"\xef\xbb\xbfgames = 2\n"[..], 14).unwrap();
        assert_eq!(text_of(at_limit).unwrap(), "games = 2\n");
        let over = read_bounded(&b"games = 20\n"[..], 10).unwrap_err();
        assert_eq!(over.kind(), io::ErrorKind::FileTooLarge);
        let e = text_of(b"ok\xff".to_vec()).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        assert!(e.to_string().contains("byte 2"), "{e}");
    }
}
