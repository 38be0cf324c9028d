//! The variants a run can play, looked up by name: the four built-ins
//! (by [`VariantKind`]'s names and aliases) and, beside them, every section
//! of a user's `variants.ini` loaded by [`Variant::load`].
//!
//! A file section may not take a built-in's name or alias, so a name means
//! the same variant in every run that loads the file; the file is loaded as
//! a whole (every error of every section reported at once) so a run never
//! starts with part of it.

use crate::ini::{IniErrors, parse_variants};
use crate::load::VariantError;
use crate::variant::{Variant, VariantKind};
use std::path::Path;

/// The built-in variants and those of at most one user's file.
#[derive(Clone, Debug, Default)]
pub struct VariantSet {
    /// The file's variants, in the order of their sections.
    file: Vec<&'static Variant>,
}

/// A variants file that does not load as a [`VariantSet`].
#[derive(Debug, thiserror::Error)]
pub enum VariantSetError {
    /// The file cannot be read.
    #[error("{file}: {error}")]
    Read {
        /// The file.
        file: String,
        /// Why.
        error: std::io::Error,
    },
    /// The text does not read as variants; every error names file, line
    /// and key.
    #[error(transparent)]
    Ini(#[from] IniErrors),
    /// Sections that read but cannot be in the set, every one of them.
    #[error("{}", .0.iter().map(ToString::to_string).collect::<Vec<_>>().join("\n"))]
    Sections(Vec<SectionError>),
}

/// One section of a file left out of a [`VariantSet`], and where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{file}:{line}: [{section}]: {problem}")]
pub struct SectionError {
    /// The file.
    pub file: String,
    /// The line of the section's header.
    pub line: usize,
    /// The section's name.
    pub section: String,
    /// What is wrong with it.
    pub problem: SectionProblem,
}

/// Why a section of a file is not in a [`VariantSet`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SectionProblem {
    /// The section takes the name or an alias of a built-in variant, which
    /// a name must keep meaning.
    #[error("the name of the built-in variant {0}; choose another name")]
    BuiltinName(VariantKind),
    /// The section does not load (every violation named).
    #[error("{0}")]
    Load(VariantError),
}

impl VariantSet {
    /// The four built-in variants only.
    pub fn builtin() -> VariantSet {
        VariantSet::default()
    }

    /// The built-ins and every section of the variants file at `path`.
    ///
    /// # Errors
    /// [`VariantSetError`]: the file unreadable, or every error of its text
    /// (file, line, key), or every section refused (a built-in's name, a
    /// variant that does not load).
    pub fn with_file(path: &Path) -> Result<VariantSet, VariantSetError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|error| VariantSetError::Read {
            file: file.clone(),
            error,
        })?;
        VariantSet::with_text(&file, &text)
    }

    /// The built-ins and every section of the variants text `text`, which
    /// errors call `file`.
    ///
    /// # Errors
    /// As [`VariantSet::with_file`], the reading aside.
    pub fn with_text(file: &str, text: &str) -> Result<VariantSet, VariantSetError> {
        let specs = parse_variants(file, text)?;
        let mut errors = Vec::new();
        let mut loaded = Vec::new();
        for spec in &specs {
            let problem = match VariantKind::from_name(&spec.name) {
                Ok(builtin) => SectionProblem::BuiltinName(builtin),
                Err(_) => match Variant::load(spec) {
                    Ok(variant) => {
                        loaded.push(variant);
                        continue;
                    }
                    Err(error) => SectionProblem::Load(error),
                },
            };
            errors.push(SectionError {
                file: file.to_owned(),
                line: spec.line,
                section: spec.name.clone(),
                problem,
            });
        }
        if errors.is_empty() {
            Ok(VariantSet { file: loaded })
        } else {
            Err(VariantSetError::Sections(errors))
        }
    }

    /// The variant named `name`: a built-in by its name or an alias (as
    /// [`VariantKind::from_name`], case-insensitive), else a section of the
    /// file by its exact name.
    pub fn get(&self, name: &str) -> Option<&'static Variant> {
        match VariantKind::from_name(name) {
            Ok(kind) => Some(kind.variant()),
            Err(_) => self.file.iter().copied().find(|v| v.name() == name),
        }
    }

    /// The names of the file's variants, in the file's order.
    pub fn file_names(&self) -> impl Iterator<Item = &str> {
        self.file.iter().map(|v| v.name())
    }
}
