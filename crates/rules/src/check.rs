//! A variants file checked whole, for `ajaxlab check FILE`: every section
//! read and loaded on its own, so that one section's error neither hides
//! nor causes another's; every error once, by line; and what each section
//! that loads is.
//!
//! A run loads a file whole or not at all ([`crate::VariantSet`]); this is
//! the designer's view of the same file, section by section.

use crate::ini::{IniError, read_variants};
use crate::registry::{SectionError, SectionProblem};
use crate::variant::{Variant, VariantKind};
use std::fmt;

/// What is wrong with one section or line of the file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CheckError {
    /// A line or key of the text (file, line and key named).
    Text(IniError),
    /// A section that reads but does not load (its header's line named).
    Section(SectionError),
}

impl CheckError {
    /// The line it is about.
    pub fn line(&self) -> usize {
        match self {
            CheckError::Text(e) => e.line,
            CheckError::Section(e) => e.line,
        }
    }
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CheckError::Text(e) => e.fmt(f),
            CheckError::Section(e) => e.fmt(f),
        }
    }
}

/// A checked file.
#[derive(Debug, Default)]
pub struct FileCheck {
    /// The section headers in the file.
    pub sections: usize,
    /// The sections that load, in the file's order.
    pub playable: Vec<&'static Variant>,
    /// Every error, by line.
    pub errors: Vec<CheckError>,
}

/// Checks the variants text `text`, which errors call `file`. The
/// sections that load stay loaded for the life of the process, as every
/// loaded section does.
pub fn check_variants(file: &str, text: &str) -> FileCheck {
    let (specs, text_errors) = read_variants(file, text);
    let mut errors: Vec<CheckError> = text_errors.into_iter().map(CheckError::Text).collect();
    let mut playable = Vec::new();
    for spec in &specs {
        let problem = match VariantKind::from_name(&spec.name) {
            Ok(builtin) => SectionProblem::BuiltinName(builtin),
            Err(_) => match Variant::load(spec) {
                Ok(variant) => {
                    playable.push(variant);
                    continue;
                }
                Err(e) => SectionProblem::Load(e),
            },
        };
        errors.push(CheckError::Section(SectionError {
            file: file.to_owned(),
            line: spec.line,
            section: spec.name.clone(),
            problem,
        }));
    }
    errors.sort_by_key(CheckError::line);
    FileCheck {
        sections: text
            .lines()
            .filter(|l| l.trim_start().starts_with('['))
            .count(),
        playable,
        errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_is_checked_and_each_error_told_once() {
        let text = "\
[good:chess]
doubleStep = true

[typo:chess]
startfen = 8/8/8/8/8/8/8/4K2k w - - 0 1

[chess]
maxRank = 8

[bad-piece:chess]
customPiece1 = z:Zq
startFen = 8/8/8/8/8/8/8/4K2k w - - 0 1

[child:bad-piece]
doubleStep = true

[afc:chess]
doubleStep = true
";
        let check = check_variants("t.ini", text);
        assert_eq!(check.sections, 6);
        let names: Vec<&str> = check.playable.iter().map(|v| v.name()).collect();
        assert_eq!(names, ["good"]);
        let lines: Vec<usize> = check.errors.iter().map(CheckError::line).collect();
        assert_eq!(lines, [5, 7, 11, 17], "{:#?}", check.errors);
        let told: Vec<String> = check.errors.iter().map(ToString::to_string).collect();
        assert!(told[0].contains("did you mean 'startFen'?"), "{told:?}");
        assert!(told[1].contains("already exists"), "{told:?}");
        assert!(told[3].contains("built-in variant"), "{told:?}");
    }
}
