//! Errors of the variants reader: each names the file, the line and the key.

use crate::betza::BetzaError;
use std::fmt;

/// What is wrong with one line or key.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum IniErrorKind {
    /// A line that is neither a section header, a `key = value`, a comment
    /// nor blank, or one outside any section.
    #[error("malformed line: {0}")]
    Malformed(String),
    /// A key Fairy-Stockfish does not have, and the known key it is
    /// closest to, if one is close.
    #[error("unknown key{}", .0.as_ref().map(|k| format!("; did you mean '{k}'?")).unwrap_or_default())]
    UnknownKey(Option<String>),
    /// A key given twice in one section.
    #[error("given twice in this section (first at line {first_line})")]
    DuplicateKey {
        /// Line of the first occurrence.
        first_line: usize,
    },
    /// A section name used twice.
    #[error("variant defined twice (first at line {first_line})")]
    DuplicateSection {
        /// Line of the first definition.
        first_line: usize,
    },
    /// A key or value Fairy-Stockfish accepts but the rules model cannot play.
    #[error("not playable by the rules model: {0}")]
    Refused(String),
    /// A value of the wrong shape.
    #[error("invalid value '{value}': expected {expected}")]
    BadValue {
        /// The value as written.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
    /// A piece's Betza string does not parse.
    #[error(transparent)]
    Betza(#[from] BetzaError),
    /// A piece letter already taken in this section.
    #[error("piece letter '{letter}' is already used by {other_key} at line {other_line}")]
    LetterTwice {
        /// The letter (upper case).
        letter: char,
        /// The key that took it first.
        other_key: String,
        /// Its line.
        other_line: usize,
    },
    /// A piece letter that no piece of the variant has.
    #[error("no piece of this variant has the letter '{0}'")]
    UnknownLetter(char),
    /// The start position does not fit the board or the pieces.
    #[error("start position '{fen}' {why}")]
    StartFen {
        /// The FEN.
        fen: String,
        /// What does not fit.
        why: String,
    },
    /// A section named as a built-in variant, which Fairy-Stockfish keeps
    /// ("already exists") and skips.
    #[error(
        "variant '{0}' already exists (built in): a section cannot redefine it; name it otherwise, e.g. [my{0}:{0}]"
    )]
    NameTaken(String),
    /// The parent is neither in the file nor built in.
    #[error("parent variant '{0}' does not exist (built-in parents: chess, normal, fischerandom)")]
    MissingParent(String),
    /// The parent is defined further down the file.
    #[error("parent variant '{parent}' is defined later, at line {line}; it must come first")]
    ParentLater {
        /// The parent's name.
        parent: String,
        /// Its line.
        line: usize,
    },
    /// Following parents leads back to the section.
    #[error("cycle of parents: {}", .0.join(" -> "))]
    ParentCycle(Vec<String>),
}

/// One error, located.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: {key}: {kind}")]
pub struct IniError {
    /// The file's name as given to the reader.
    pub file: String,
    /// 1-based line.
    pub line: usize,
    /// The key, or `[section]` for errors of a section header.
    pub key: String,
    /// What is wrong.
    pub kind: IniErrorKind,
}

/// Every error found in a file, in the order of the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct IniErrors(pub Vec<IniError>);

impl fmt::Display for IniErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}
