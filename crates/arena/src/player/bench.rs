//! An engine build's bench signature, as OpenBench checks it: run with its
//! bench arguments (`bench` for Stockfish, Fairy-Stockfish and ajaxlab) the
//! engine searches a fixed set of positions and prints the node count; a
//! player that states the count refuses a build that prints another.

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The longest a bench may run before the build is refused.
pub const BENCH_TIMEOUT: Duration = Duration::from_secs(600);

/// A stated bench signature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Bench {
    /// Arguments that make the engine print its bench (instead of its
    /// UCI arguments).
    pub args: Vec<String>,
    /// The node count it must print.
    pub nodes: u64,
}

/// Why a build's bench does not check out.
#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    /// The engine cannot be run.
    #[error("bench: cannot run {command}: {source}")]
    Run {
        /// The command line.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// It ran longer than allowed (and was killed).
    #[error("bench: {command} did not finish within {timeout:?}")]
    Timeout {
        /// The command line.
        command: String,
        /// The time allowed.
        timeout: Duration,
    },
    /// Its output has no node count.
    #[error("bench: {command} printed no node count (a line such as 'Nodes searched : N')")]
    NoCount {
        /// The command line.
        command: String,
    },
    /// It printed another node count: another build.
    #[error("bench: {command} searched {found} nodes, the player states bench = {stated}")]
    Mismatch {
        /// The command line.
        command: String,
        /// What the build printed.
        found: u64,
        /// What the player states.
        stated: u64,
    },
}

/// The node count in a bench's output: the last integer of the last line
/// that speaks of nodes but not of a rate (Stockfish prints `Nodes
/// searched : N` and then `Nodes/second : R`; ajaxlab `nodes N`).
pub fn node_count(output: &str) -> Option<u64> {
    output
        .lines()
        .filter(|line| {
            let l = line.to_ascii_lowercase();
            l.contains("nodes") && !l.contains("second") && !l.contains("nps") && !l.contains("/s")
        })
        .filter_map(|line| {
            line.split(|c: char| !c.is_ascii_digit())
                .rfind(|w| !w.is_empty())
                .and_then(|w| w.parse().ok())
        })
        .next_back()
}

/// Runs `command` with the bench's arguments (killed after `timeout`) and
/// checks the node count it prints against the stated one.
///
/// # Errors
/// [`BenchError`] saying why the build does not check out, with both
/// numbers for a mismatch.
pub fn check(command: &Path, bench: &Bench, timeout: Duration) -> Result<(), BenchError> {
    let line = format!("{} {}", command.display(), bench.args.join(" "));
    let run = |source| BenchError::Run {
        command: line.clone(),
        source,
    };
    let mut child = Command::new(command)
        .args(&bench.args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(run)?;
    // Read both pipes while it runs, so that a full pipe cannot stall it.
    let readers = [
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    ]
    .map(|pipe| {
        std::thread::spawn(move || {
            let mut text = String::new();
            if let Some(mut pipe) = pipe {
                let _ = pipe.read_to_string(&mut text);
            }
            text
        })
    });
    let deadline = Instant::now() + timeout;
    while child.try_wait().map_err(run)?.is_none() {
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Err(BenchError::Timeout {
                command: line,
                timeout,
            });
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output: String = readers
        .into_iter()
        .map(|r| r.join().unwrap_or_default())
        .collect::<Vec<_>>()
        .join("\n");
    match node_count(&output) {
        None => Err(BenchError::NoCount { command: line }),
        Some(found) if found != bench.nodes => Err(BenchError::Mismatch {
            command: line,
            found,
            stated: bench.nodes,
        }),
        Some(_) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_node_count_is_read_from_stockfish_s_and_ajaxlab_s_output() {
        let stockfish = "info depth 13 nodes 99 nps 5\n\n===========================\nTotal time (ms) : 1754\nNodes searched  : 2345678\nNodes/second    : 1337343\n";
        assert_eq!(node_count(stockfish), Some(2_345_678));
        assert_eq!(
            node_count("time 4343 ms\nnps 38619\nnodes 151414\n"),
            Some(151_414)
        );
        assert_eq!(node_count("no count here\n"), None);
    }

    #[test]
    fn a_build_that_prints_another_count_is_refused_with_both_numbers() {
        let sh = Path::new("/bin/sh");
        let bench = |nodes| Bench {
            args: vec!["-c".into(), "echo 'Nodes searched : 42' >&2".into()],
            nodes,
        };
        assert!(check(sh, &bench(42), Duration::from_secs(10)).is_ok());
        let e = check(sh, &bench(41), Duration::from_secs(10)).unwrap_err();
        assert!(
            e.to_string()
                .contains("searched 42 nodes, the player states bench = 41"),
            "{e}"
        );
        let slow = Bench {
            args: vec!["-c".into(), "sleep 5".into()],
            nodes: 1,
        };
        let e = check(sh, &slow, Duration::from_millis(200)).unwrap_err();
        assert!(matches!(e, BenchError::Timeout { .. }), "{e}");
        let e = check(
            Path::new("/no/such/engine"),
            &bench(1),
            Duration::from_secs(1),
        )
        .unwrap_err();
        assert!(
            e.to_string()
                .starts_with("bench: cannot run /no/such/engine"),
            "{e}"
        );
    }
}
