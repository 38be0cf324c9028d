//! Standard output that may close under us (`ajaxlab … | head -1`): the
//! [`out!`] and [`outln!`] of every command return an error where
//! `print!`/`println!` panic, and a closed pipe ends the command quietly
//! with the status a shell shows for a process that SIGPIPE ended, as git,
//! cutechess-cli and fastchess end. Whatever a command wrote before (a
//! match's games) stays as it was: commands print after storing.

use std::fmt;
use std::io::{self, Write};

/// 128 + SIGPIPE: the status a shell reports for `git log | head -1`'s git.
pub(crate) const CLOSED_EXIT: u8 = 141;

/// A write to standard output that failed.
#[derive(Debug, thiserror::Error)]
pub(crate) enum StdoutError {
    /// The reader has gone: the command ends quietly.
    #[error("standard output is closed")]
    Closed,
    /// Any other failure (a full disk behind a redirect), reported.
    #[error("writing to standard output: {0}")]
    Write(#[source] io::Error),
}

/// Writes `args` to standard output and flushes it, so that a closed
/// pipe is seen at the write that meets it.
///
/// # Errors
/// [`StdoutError::Closed`] on a broken pipe, [`StdoutError::Write`] else.
pub(crate) fn write(args: fmt::Arguments<'_>) -> Result<(), StdoutError> {
    let mut out = io::stdout().lock();
    out.write_fmt(args)
        .and_then(|()| out.flush())
        .map_err(|e| match e.kind() {
            io::ErrorKind::BrokenPipe => StdoutError::Closed,
            _ => StdoutError::Write(e),
        })
}

/// Whether `err` is, or was caused by, a closed standard output.
pub(crate) fn is_closed(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        matches!(
            cause.downcast_ref::<StdoutError>(),
            Some(StdoutError::Closed)
        )
    })
}

/// `print!` returning `Result<(), StdoutError>`.
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::commands::out::write(format_args!($($arg)*))
    };
}

/// `println!` returning `Result<(), StdoutError>`.
macro_rules! outln {
    () => {
        $crate::commands::out::write(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::commands::out::write(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub(crate) use {out, outln};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_closed_stdout_counts_as_closed() {
        let closed = anyhow::Error::from(StdoutError::Closed).context("printing the summary");
        assert!(is_closed(&closed));
        let other = anyhow::Error::from(StdoutError::Write(io::Error::other("disk full")));
        assert!(!is_closed(&other));
        // A broken pipe to an engine is the engine's failure, reported.
        let engine = anyhow::Error::from(io::Error::from(io::ErrorKind::BrokenPipe));
        assert!(!is_closed(&engine));
    }
}
