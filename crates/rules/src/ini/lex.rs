//! The file's shape: sections `[name]` or `[name:parent]`, `key = value`
//! lines, comments (`#` or `;` first on the line) and blank lines.

use super::error::{IniError, IniErrorKind};
use std::collections::HashMap;

/// One `key = value` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    /// Key, trimmed.
    pub(super) key: String,
    /// Value, trimmed.
    pub(super) value: String,
    /// 1-based line.
    pub(super) line: usize,
}

/// One section: a variant and the keys it sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Section {
    /// Variant name.
    pub(super) name: String,
    /// Parent variant, if any.
    pub(super) parent: Option<String>,
    /// Line of the header.
    pub(super) line: usize,
    /// Its keys, in file order, each once.
    pub(super) entries: Vec<Entry>,
}

/// Splits `text` into sections, collecting every malformed line.
pub(super) fn sections(file: &str, text: &str) -> (Vec<Section>, Vec<IniError>) {
    let mut out: Vec<Section> = Vec::new();
    let mut errors = Vec::new();
    let mut seen_keys: HashMap<String, usize> = HashMap::new();
    let mut seen_sections: HashMap<String, usize> = HashMap::new();
    let error = |line: usize, key: &str, kind| IniError {
        file: file.to_owned(),
        line,
        key: key.to_owned(),
        kind,
    };
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with(';') {
            continue;
        }
        if let Some(header) = trimmed.strip_prefix('[') {
            seen_keys.clear();
            match parse_header(header) {
                Ok((name, parent)) => {
                    if let Some(&first_line) = seen_sections.get(&name) {
                        let kind = IniErrorKind::DuplicateSection { first_line };
                        errors.push(error(line, &format!("[{name}]"), kind));
                    }
                    seen_sections.entry(name.clone()).or_insert(line);
                    out.push(Section {
                        name,
                        parent,
                        line,
                        entries: Vec::new(),
                    });
                }
                Err(why) => {
                    errors.push(error(
                        line,
                        "[section]",
                        IniErrorKind::Malformed(why.into()),
                    ));
                }
            }
            continue;
        }
        let Some((key, value)) = trimmed.split_once('=') else {
            // The line is named, never echoed: the file may be anything.
            let why = "neither 'key = value', a [section] header nor a comment".to_owned();
            errors.push(error(line, "line", IniErrorKind::Malformed(why)));
            continue;
        };
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() || key.contains(char::is_whitespace) {
            let why = "no single-word key before '='".to_owned();
            errors.push(error(line, "line", IniErrorKind::Malformed(why)));
            continue;
        }
        let Some(section) = out.last_mut() else {
            let why = "a key before the first [section]".to_owned();
            errors.push(error(line, key, IniErrorKind::Malformed(why)));
            continue;
        };
        if let Some(&first_line) = seen_keys.get(key) {
            errors.push(error(line, key, IniErrorKind::DuplicateKey { first_line }));
            continue;
        }
        seen_keys.insert(key.to_owned(), line);
        section.entries.push(Entry {
            key: key.to_owned(),
            value: value.to_owned(),
            line,
        });
    }
    (out, errors)
}

/// `name]` or `name:parent]` (the `[` already taken off).
fn parse_header(header: &str) -> Result<(String, Option<String>), &'static str> {
    let inner = header
        .strip_suffix(']')
        .ok_or("a section header must end with ']'")?;
    let (name, parent) = match inner.split_once(':') {
        Some((name, parent)) => (name.trim(), Some(parent.trim())),
        None => (inner.trim(), None),
    };
    let word =
        |s: &str| !s.is_empty() && !s.contains(|c: char| c.is_whitespace() || "[]:".contains(c));
    if !word(name) {
        return Err("a section needs a one-word variant name");
    }
    if parent.is_some_and(|p| !word(p)) {
        return Err("the parent after ':' must be a one-word variant name");
    }
    Ok((name.to_owned(), parent.map(str::to_owned)))
}
