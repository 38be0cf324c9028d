//! An artifact as a stream of chunks, the same way in both directions:
//! the first chunk names it (SHA-256 and size; an upload's also carries the
//! header), every chunk carries up to [`CHUNK_BYTES`] of its bytes, and an
//! empty artifact is one empty first chunk.

use super::ArtifactHash;
use ajaxlab_proto::v1;
use std::io::Read;

/// Bytes per chunk sent (well under gRPC's default 4 MiB message limit).
pub const CHUNK_BYTES: usize = 1024 * 1024;

/// Reads `source` to its end and hands each chunk to `send`, which returns
/// `false` when the other side stopped listening (reading stops then).
///
/// # Errors
/// A read failure.
pub(crate) fn send_chunks(
    mut source: impl Read,
    hash: ArtifactHash,
    size: u64,
    header: Option<v1::Header>,
    mut send: impl FnMut(v1::ArtifactChunk) -> bool,
) -> std::io::Result<()> {
    let mut buffer = vec![0u8; CHUNK_BYTES];
    let mut first = Some((header, hash.to_string(), size));
    loop {
        let n = source.read(&mut buffer)?;
        if n == 0 && first.is_none() {
            return Ok(());
        }
        let (header, sha256, size) = first.take().unwrap_or_default();
        let chunk = v1::ArtifactChunk {
            header,
            sha256,
            size,
            data: buffer[..n].to_vec(),
        };
        if !send(chunk) || n == 0 {
            return Ok(());
        }
    }
}
