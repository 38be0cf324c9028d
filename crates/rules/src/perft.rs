//! Perft (leaf counts of the legal move tree) and the `.perft` suite format
//! of `tests/perft/`: `id NAME`, `fen FEN`, `perft DEPTH NODES` lines,
//! `#` comments, and an optional `variant NAME` line.

use crate::moves::Move;
use crate::position::Position;
use crate::variant::VariantKind;

/// Leaves of the legal move tree `depth` plies deep. Standard perft: it does
/// not stop at 50-move or repetition draws. Counts leaves in bulk at depth 1.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut child = *pos;
                child.play_unchecked(m);
                perft(&child, depth - 1)
            })
            .sum(),
    }
}

/// Perft below each legal move (`depth` ≥ 1), in generation order.
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}

/// One position of a suite with its expected counts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftCase {
    /// Name from the `id` line.
    pub id: String,
    /// The position.
    pub fen: String,
    /// `(depth, nodes)` pairs, in file order.
    pub expected: Vec<(u32, u64)>,
}

/// A `.perft` file that does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct SuiteError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// A parsed suite: an optional variant named in the file, and its cases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PerftSuite {
    /// The variant from a `variant NAME` line, if the file has one.
    pub variant: Option<VariantKind>,
    /// The cases.
    pub cases: Vec<PerftCase>,
}

impl PerftSuite {
    /// Parses the text of a `.perft` file.
    ///
    /// # Errors
    /// [`SuiteError`] with the line number and the problem.
    pub fn parse(text: &str) -> Result<PerftSuite, SuiteError> {
        let mut suite = PerftSuite {
            variant: None,
            cases: Vec::new(),
        };
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let err = |message: String| SuiteError {
                line: i + 1,
                message,
            };
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (key, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let rest = rest.trim();
            match key {
                "variant" => {
                    suite.variant =
                        Some(VariantKind::from_name(rest).map_err(|e| err(e.to_string()))?);
                }
                "id" => suite.cases.push(PerftCase {
                    id: rest.to_owned(),
                    fen: String::new(),
                    expected: Vec::new(),
                }),
                "fen" => match suite.cases.last_mut() {
                    Some(case) if case.fen.is_empty() => case.fen = rest.to_owned(),
                    _ => return Err(err("'fen' line without a preceding 'id' line".into())),
                },
                "perft" => {
                    let case = suite
                        .cases
                        .last_mut()
                        .filter(|c| !c.fen.is_empty())
                        .ok_or_else(|| err("'perft' line before any 'id' and 'fen'".into()))?;
                    let mut parts = rest.split_whitespace();
                    let depth = parts.next().and_then(|d| d.parse().ok());
                    let nodes = parts.next().and_then(|n| n.parse().ok());
                    match (depth, nodes, parts.next()) {
                        (Some(d), Some(n), None) => case.expected.push((d, n)),
                        _ => {
                            return Err(err(format!("expected 'perft DEPTH NODES', got '{line}'")));
                        }
                    }
                }
                other => {
                    return Err(err(format!(
                        "unknown key '{other}' (expected id, fen, perft, variant)"
                    )));
                }
            }
        }
        Ok(suite)
    }
}
