//! Fairy-Stockfish as a perft counter (`go perft`), the reference that
//! `ajaxlab bench perft --fsf` measures the rules against: node counts
//! checked equal, speeds compared in one run.

use ajaxlab_rules::VariantKind;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// Fairy-Stockfish that cannot count.
#[derive(Debug, thiserror::Error)]
pub enum FsfPerftError {
    /// The binary or the variants file.
    #[error("{path}: {source}")]
    Start {
        /// What could not be used.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The pipe to or from it.
    #[error("Fairy-Stockfish: {0}")]
    Pipe(#[from] std::io::Error),
    /// It ended before answering.
    #[error("Fairy-Stockfish exited while waiting for '{0}'")]
    Exited(String),
    /// Its answer is not a node count.
    #[error("Fairy-Stockfish printed '{0}' where a node count was expected")]
    Garbled(String),
}

/// A Fairy-Stockfish process answering `go perft`.
pub struct FsfPerft {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl FsfPerft {
    /// Starts the binary at `path` with the Ajax variants of `variants` (a
    /// variants.ini).
    ///
    /// # Errors
    /// [`FsfPerftError::Start`] naming the binary or file that cannot be used.
    pub fn start(path: &Path, variants: &Path) -> Result<FsfPerft, FsfPerftError> {
        let start_error = |path: &Path| {
            let path = path.to_owned();
            move |source| FsfPerftError::Start { path, source }
        };
        let variants = std::fs::canonicalize(variants).map_err(start_error(variants))?;
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(start_error(path))?;
        let missing = |what: &str| std::io::Error::other(format!("no {what}"));
        let input = child.stdin.take().ok_or_else(|| missing("stdin"))?;
        let output = BufReader::new(child.stdout.take().ok_or_else(|| missing("stdout"))?);
        let mut engine = FsfPerft {
            child,
            input,
            output,
        };
        engine.send(&format!(
            "setoption name VariantPath value {}",
            variants.display()
        ))?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), FsfPerftError> {
        writeln!(self.input, "{line}")?;
        self.input.flush()?;
        Ok(())
    }

    /// Counts perft of `fen` to `depth`: the nodes, and the time as
    /// measured here (from `go perft` to its count).
    ///
    /// # Errors
    /// [`FsfPerftError`] if it stops answering or answers no count.
    pub fn perft(
        &mut self,
        variant: VariantKind,
        fen: &str,
        depth: u32,
    ) -> Result<(u64, Duration), FsfPerftError> {
        self.send(&format!(
            "setoption name UCI_Variant value {}",
            variant.fsf_name()
        ))?;
        self.send(&format!(
            "setoption name UCI_Chess960 value {}",
            variant == VariantKind::Chess960
        ))?;
        self.send(&format!("position fen {fen}"))?;
        self.send("isready")?;
        self.wait_for("readyok")?;
        let started = Instant::now();
        self.send(&format!("go perft {depth}"))?;
        let line = self.wait_for("Nodes searched")?;
        let elapsed = started.elapsed();
        let nodes = line
            .rsplit(':')
            .next()
            .and_then(|n| n.trim().parse().ok())
            .ok_or_else(|| FsfPerftError::Garbled(line.clone()))?;
        Ok((nodes, elapsed))
    }

    fn wait_for(&mut self, prefix: &str) -> Result<String, FsfPerftError> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line)? == 0 {
                return Err(FsfPerftError::Exited(prefix.to_owned()));
            }
            if line.starts_with(prefix) {
                return Ok(line.trim().to_owned());
            }
        }
    }
}

impl Drop for FsfPerft {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}
