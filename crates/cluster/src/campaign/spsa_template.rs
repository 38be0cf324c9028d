//! SPSA file templates: for an engine whose tunable values live in a file
//! rather than in UCI options (Fairy-Stockfish's `pieceValueMg` in the
//! variants file its `VariantPath` names), the file is written as a template
//! with a `{name}` placeholder per tuned value. Each unit's two players get
//! the template filled with their values (`θ+`, `θ−`), and the tune's result
//! is the template filled with the final values, ready for that engine.
//!
//! Placeholders are ASCII letters, digits, `_`, `.` and `-` in braces; `{{`
//! and `}}` stand for literal braces.

use std::collections::BTreeSet;
use std::fmt::Write as _;

/// The largest template accepted: it travels in every work unit.
pub const MAX_TEMPLATE_BYTES: usize = 256 * 1024;

/// A parsed template.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Template {
    pieces: Vec<Piece>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    Text(String),
    Placeholder(String),
}

/// Why a text is not a template, and where (1-based line and column).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: {problem}")]
pub struct TemplateError {
    /// The line.
    pub line: usize,
    /// The column, in characters.
    pub column: usize,
    /// What is wrong there.
    pub problem: String,
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-')
}

impl Template {
    /// Parses `text`.
    ///
    /// # Errors
    /// [`TemplateError`] at a brace that neither opens a placeholder nor
    /// is doubled, or when the text is over [`MAX_TEMPLATE_BYTES`].
    pub fn parse(text: &str) -> Result<Template, TemplateError> {
        if text.len() > MAX_TEMPLATE_BYTES {
            return Err(TemplateError {
                line: 1,
                column: 1,
                problem: format!(
                    "{} bytes, over the limit of {MAX_TEMPLATE_BYTES} (a template travels in every work unit)",
                    text.len()
                ),
            });
        }
        let mut pieces = Vec::new();
        let mut literal = String::new();
        for (row, line) in text.split_inclusive('\n').enumerate() {
            let mut chars = line.char_indices().peekable();
            let at = |byte: usize, problem: String| TemplateError {
                line: row + 1,
                column: line[..byte].chars().count() + 1,
                problem,
            };
            while let Some((byte, c)) = chars.next() {
                match c {
                    '{' if chars.peek().is_some_and(|&(_, n)| n == '{') => {
                        chars.next();
                        literal.push('{');
                    }
                    '}' if chars.peek().is_some_and(|&(_, n)| n == '}') => {
                        chars.next();
                        literal.push('}');
                    }
                    '{' => {
                        let rest = &line[byte + 1..];
                        let name: String = rest.chars().take_while(|&c| is_name_char(c)).collect();
                        if name.is_empty() || !rest[name.len()..].starts_with('}') {
                            return Err(at(
                                byte,
                                "'{' opens no placeholder: write {name} with letters, digits, '_', '.' or '-', or {{ for a literal brace".into(),
                            ));
                        }
                        for _ in 0..=name.chars().count() {
                            chars.next();
                        }
                        pieces.push(Piece::Text(std::mem::take(&mut literal)));
                        pieces.push(Piece::Placeholder(name));
                    }
                    '}' => {
                        return Err(at(
                            byte,
                            "'}' closes no placeholder: write }} for a literal brace".into(),
                        ));
                    }
                    c => literal.push(c),
                }
            }
        }
        pieces.push(Piece::Text(literal));
        pieces.retain(|p| !matches!(p, Piece::Text(t) if t.is_empty()));
        Ok(Template { pieces })
    }

    /// The names of its placeholders, each once, sorted.
    pub fn placeholders(&self) -> BTreeSet<&str> {
        self.pieces
            .iter()
            .filter_map(|p| match p {
                Piece::Placeholder(name) => Some(name.as_str()),
                Piece::Text(_) => None,
            })
            .collect()
    }

    /// The text with each placeholder replaced by the value of the same
    /// name (a placeholder without one is left as written, braces and all:
    /// campaigns check at create time that every placeholder has a value).
    pub fn fill(&self, values: &[(&str, i64)]) -> String {
        let mut out = String::new();
        for piece in &self.pieces {
            match piece {
                Piece::Text(text) => out.push_str(text),
                Piece::Placeholder(name) => {
                    match values.iter().find(|(n, _)| n == name) {
                        Some((_, value)) => write!(out, "{value}"),
                        None => write!(out, "{{{name}}}"),
                    }
                    .unwrap_or_default();
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_filled_and_doubled_braces_are_literal() {
        let t = Template::parse(
            "[ajax-falcon:ajax-falcon]\npieceValueMg = f:{falcon_mg} m:{minister.mg}\nx = {{a}} {falcon_mg}\n",
        )
        .unwrap();
        assert_eq!(
            t.placeholders().into_iter().collect::<Vec<_>>(),
            ["falcon_mg", "minister.mg"]
        );
        assert_eq!(
            t.fill(&[("falcon_mg", 700), ("minister.mg", -5)]),
            "[ajax-falcon:ajax-falcon]\npieceValueMg = f:700 m:-5\nx = {a} 700\n"
        );
    }

    #[test]
    fn a_stray_brace_is_refused_at_its_line_and_column() {
        for (text, line, column) in [
            ("a = 1\nb = {x\n", 2, 5),
            ("a = {}\n", 1, 5),
            ("a = {x y}\n", 1, 5),
            ("ok = {x}\nb = }\n", 2, 5),
            ("é = {", 1, 5),
        ] {
            let e = Template::parse(text).unwrap_err();
            assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
        }
    }

    #[test]
    fn an_oversized_template_is_refused() {
        let e = Template::parse(&"x".repeat(MAX_TEMPLATE_BYTES + 1)).unwrap_err();
        assert!(e.problem.contains("over the limit"), "{e}");
    }
}
