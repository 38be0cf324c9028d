//! Fairy-Stockfish's `variants.ini` format, read into typed
//! [`VariantSpec`]s the rules model can play.
//!
//! A file is a list of sections `[name]` or `[name:parent]`, each a list of
//! `key = value` lines; `#` and `;` start comment lines. A section starts
//! from Fairy-Stockfish's defaults (an 8 × 8 board, chess rules, no
//! pieces), from a section earlier in the file, or from a built-in parent
//! (`chess`, `normal`, `fischerandom`), and its keys override them.
//!
//! Every key Fairy-Stockfish knows is either read, accepted only with the
//! value the rules model plays (`checking = true`), or refused with the
//! reason; a key it does not know is an error. Nothing is ignored except
//! the display-only `variantTemplate` and `pieceToCharTable`.
//!
//! One key is ajaxlab's own: `ajaxlabSetup = chess960 | amrc | fixed`
//! selects the numbered random starts (Chess960's, or AMRC's of
//! `docs/rules.md` §3), with `startFen` as the default start.
//! Fairy-Stockfish loads such a file and reports the key as an unknown
//! option only when asked to check the file.

mod draft;
mod error;
mod fen_shape;
mod keys;
mod lex;
mod spec;
mod validate;
mod values;

pub use error::{IniError, IniErrorKind, IniErrors};
pub use spec::{CastlingSpec, EndRules, HandSpec, PieceSpec, PieceValue, SetupSpec, VariantSpec};
pub use values::GameValue;

use draft::Draft;
use lex::Section;
use std::collections::HashMap;

/// Reads every variant of a `variants.ini` text; `file` names it in errors.
///
/// # Errors
/// [`IniErrors`] with every error of the file, each naming file, line and key.
pub fn parse_variants(file: &str, text: &str) -> Result<Vec<VariantSpec>, IniErrors> {
    whole(read(file, text, true))
}

/// Reads what can be read of a `variants.ini` text: the sections that
/// read well, and every error of the others (each once, in the order of
/// the file). A section's error never stops the reading of another; one
/// that inherits from a section with errors is left out without errors of
/// its own. For `ajaxlab check`, which goes on to check the sections read.
pub fn read_variants(file: &str, text: &str) -> (Vec<VariantSpec>, Vec<IniError>) {
    read(file, text, true)
}

/// Reads ajaxlab's own variants file, which defines `chess` itself: the
/// built-in names are its to use.
///
/// # Errors
/// As [`parse_variants`].
pub fn parse_builtin_variants(file: &str, text: &str) -> Result<Vec<VariantSpec>, IniErrors> {
    whole(read(file, text, false))
}

/// The sections read, if there was no error.
fn whole(
    (specs, errors): (Vec<VariantSpec>, Vec<IniError>),
) -> Result<Vec<VariantSpec>, IniErrors> {
    if errors.is_empty() {
        Ok(specs)
    } else {
        Err(IniErrors(errors))
    }
}

/// Reads a variants text; `reserved`: whether a section may not take a
/// built-in parent's name, as in Fairy-Stockfish.
fn read(file: &str, text: &str, reserved: bool) -> (Vec<VariantSpec>, Vec<IniError>) {
    let (sections, mut errors) = lex::sections(file, text);
    let located = |line: usize, key: String, kind| IniError {
        file: file.to_owned(),
        line,
        key,
        kind,
    };
    // A section named as a built-in variant is skipped, as Fairy-Stockfish
    // skips it: its children inherit the built-in one.
    let taken = |s: &Section| reserved && Draft::builtin(&s.name).is_some();
    let first: HashMap<&str, usize> = sections
        .iter()
        .enumerate()
        .rev()
        .filter(|(_, s)| !taken(s))
        .map(|(i, s)| (s.name.as_str(), i))
        .collect();
    let mut drafts: HashMap<&str, Draft> = HashMap::new();
    let mut specs = Vec::new();
    for (i, section) in sections.iter().enumerate() {
        let header = header_key(section);
        if taken(section) {
            let kind = error::IniErrorKind::NameTaken(section.name.clone());
            errors.push(located(section.line, header, kind));
            continue;
        }
        let parent = match &section.parent {
            None => Ok(Draft::base()),
            Some(p) => match (drafts.get(p.as_str()), first.get(p.as_str())) {
                (Some(d), _) => Ok(d.clone()),
                (None, Some(&j)) if j < i => continue, // the parent failed; its errors are reported
                (None, Some(&j)) => Err(match cycle(&sections, &first, i) {
                    Some(names) => error::IniErrorKind::ParentCycle(names),
                    None => error::IniErrorKind::ParentLater {
                        parent: p.clone(),
                        line: sections[j].line,
                    },
                }),
                (None, None) => {
                    Draft::builtin(p).ok_or_else(|| error::IniErrorKind::MissingParent(p.clone()))
                }
            },
        };
        let mut draft = match parent {
            Ok(d) => d,
            Err(kind) => {
                errors.push(located(section.line, header, kind));
                continue;
            }
        };
        let found = draft.apply(&section.entries);
        let applied = found.is_empty();
        // A bad setting leaves its inherited value, so the section is still
        // checked whole: every error at once, not one phase at a time. A
        // bad board size or piece would make the later checks (the start
        // position's letters, say) fail for its sake only: not then.
        let checkable = !found.iter().any(|(_, key, _)| draft::shapes_board(key));
        errors.extend(
            found
                .into_iter()
                .map(|(line, key, kind)| located(line, key, kind)),
        );
        if !checkable {
            continue;
        }
        match validate::lower(&section.name, section.line, &draft) {
            Ok(spec) if applied => specs.push(spec),
            Ok(_) => {}
            Err(found) => errors.extend(
                found
                    .into_iter()
                    .map(|(line, key, kind)| located(line, key, kind)),
            ),
        }
        if applied {
            drafts.entry(section.name.as_str()).or_insert(draft);
        }
    }
    errors.sort_by_key(|e| e.line);
    errors.dedup();
    (specs, errors)
}

fn header_key(s: &Section) -> String {
    match &s.parent {
        Some(p) => format!("[{}:{p}]", s.name),
        None => format!("[{}]", s.name),
    }
}

/// The names along the parent links from section `start` back to itself,
/// if they lead back.
fn cycle(sections: &[Section], first: &HashMap<&str, usize>, start: usize) -> Option<Vec<String>> {
    let mut names = vec![sections[start].name.clone()];
    let mut at = start;
    for _ in 0..sections.len() {
        let next = *first.get(sections[at].parent.as_deref()?)?;
        names.push(sections[next].name.clone());
        if next == start {
            return Some(names);
        }
        at = next;
    }
    None
}

#[cfg(test)]
mod tests;
