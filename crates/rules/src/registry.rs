//! The variants a run can play, looked up by name: the four built-ins
//! (by [`VariantKind`]'s names and aliases) and, beside them, every section
//! of a user's `variants.ini` loaded by [`Variant::load`].
//!
//! A file section may not take a built-in's name or alias, so a name means
//! the same variant in every run that loads the file; the file is loaded as
//! a whole (every error of every section reported at once) so a run never
//! starts with part of it.
//!
//! A text is loaded once per process: loading the same text again (a
//! second games file of the same run, say) gives the same variants, the
//! same addresses, so a variant is one value wherever it is used and two
//! references to it compare equal.

use crate::ini::{IniErrors, VariantSpec, parse_variants};
use crate::load::VariantError;
use crate::variant::{UnknownVariant, Variant, VariantKind};
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

/// The most sections a variants file may have: Fairy-Stockfish's own
/// `variants.ini` has 143. Each loaded section costs about 115 KB for as
/// long as the process runs, so a file of 20,000 chained sections once
/// took a coordinator past 2 GB.
pub const MAX_SECTIONS: usize = 256;

/// The most sections one process loads from all the files it is given
/// (about 470 MB; a coordinator rebuilds every stored campaign's file at
/// start, finished ones too): past it, a new file is refused until the
/// process is restarted, so that no stream of distinct files grows it
/// without end.
pub const MAX_LOADED_SECTIONS: usize = 4096;

/// The built-in variants and those of at most one user's file.
#[derive(Clone, Debug, Default)]
pub struct VariantSet {
    /// The file's variants, in the order of their sections.
    file: Vec<&'static Variant>,
    /// The file's text, which a run records so that its games can be read
    /// and replayed without the file.
    definition: Option<&'static str>,
}

/// The files loaded so far: each text (kept, as its variants are, for the
/// life of the process) and its variants, and every variant in the order
/// loaded.
#[derive(Default)]
struct Loaded {
    by_text: HashMap<&'static str, Vec<&'static Variant>>,
    in_order: Vec<&'static Variant>,
}

/// The first variant of a user's file loaded in this process under
/// `name`: what a name outside any one set (a parameter's, say
/// `squirrel.s.mg`) refers to.
pub fn loaded_variant(name: &str) -> Option<&'static Variant> {
    let loaded = loaded()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    loaded.in_order.iter().copied().find(|v| v.name() == name)
}

fn loaded() -> &'static Mutex<Loaded> {
    static LOADED: OnceLock<Mutex<Loaded>> = OnceLock::new();
    LOADED.get_or_init(Mutex::default)
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
    /// A text larger than a variants file may be.
    #[error("{file}: {size} bytes, more than the {limit} a variants file may have")]
    TooLarge {
        /// The file.
        file: String,
        /// Its size, bytes.
        size: usize,
        /// The limit, bytes.
        limit: u64,
    },
    /// More sections than a variants file may have ([`MAX_SECTIONS`]).
    #[error("{file}: {count} sections, more than the {MAX_SECTIONS} a variants file may have")]
    TooManySections {
        /// The file.
        file: String,
        /// Its sections.
        count: usize,
    },
    /// This process has loaded as many sections as it loads ([`MAX_LOADED_SECTIONS`]).
    #[error(
        "{file}: this process has loaded {loaded} variant sections, and {count} more would pass the {MAX_LOADED_SECTIONS} it loads; restart it to load more"
    )]
    ProcessFull {
        /// The file.
        file: String,
        /// Sections loaded so far.
        loaded: usize,
        /// The file's sections.
        count: usize,
    },
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

/// A name that is neither a built-in variant nor a section of the set's
/// file; it lists every name the set knows.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}{}", UnknownVariant(.name.clone()), file_list(.file))]
pub struct NotInSet {
    /// The name asked for.
    pub name: String,
    /// The sections of the set's file, in its order.
    pub file: Vec<String>,
}

fn file_list(file: &[String]) -> String {
    if file.is_empty() {
        String::new()
    } else {
        format!("; the variants file's: {}", file.join(", "))
    }
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
        let text = ajaxlab_files::read_text(path, ajaxlab_files::limits::VARIANTS_FILE).map_err(
            |error| VariantSetError::Read {
                file: file.clone(),
                error,
            },
        )?;
        VariantSet::with_text(&file, &text)
    }

    /// The built-ins and every section of the variants text `text`, which
    /// errors call `file`.
    ///
    /// # Errors
    /// As [`VariantSet::with_file`], the reading aside.
    pub fn with_text(file: &str, text: &str) -> Result<VariantSet, VariantSetError> {
        let mut sets = loaded()
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((definition, file)) = sets.by_text.get_key_value(text) {
            return Ok(VariantSet {
                file: file.clone(),
                definition: Some(*definition),
            });
        }
        if text.len() as u64 > ajaxlab_files::limits::VARIANTS_FILE {
            return Err(VariantSetError::TooLarge {
                file: file.to_owned(),
                size: text.len(),
                limit: ajaxlab_files::limits::VARIANTS_FILE,
            });
        }
        // Counted before they are parsed: headers are lines opening a '['.
        let count = text
            .lines()
            .filter(|l| l.trim_start().starts_with('['))
            .count();
        if count > MAX_SECTIONS {
            return Err(VariantSetError::TooManySections {
                file: file.to_owned(),
                count,
            });
        }
        if sets.in_order.len() + count > MAX_LOADED_SECTIONS {
            return Err(VariantSetError::ProcessFull {
                file: file.to_owned(),
                loaded: sets.in_order.len(),
                count,
            });
        }
        let specs = parse_variants(file, text)?;
        // Every section's rules are checked before any is loaded: what is
        // loaded stays for the life of the process, so a refused file
        // leaves nothing behind.
        VariantSet::check_sections(file, &specs)?;
        let definition: &'static str = Box::leak(Box::from(text));
        let variants = VariantSet::load_sections(file, &specs, definition)?;
        sets.by_text.insert(definition, variants.clone());
        sets.in_order.extend(&variants);
        Ok(VariantSet {
            file: variants,
            definition: Some(definition),
        })
    }

    /// Every section of a file whose rules hold, or every one that does not
    /// (its start position aside, which only a loaded variant can read).
    fn check_sections(file: &str, specs: &[VariantSpec]) -> Result<(), VariantSetError> {
        let errors: Vec<SectionError> = specs
            .iter()
            .filter_map(|spec| {
                let problem = match VariantKind::from_name(&spec.name) {
                    Ok(builtin) => SectionProblem::BuiltinName(builtin),
                    Err(_) => SectionProblem::Load(Variant::check(spec).err()?),
                };
                Some(SectionError {
                    file: file.to_owned(),
                    line: spec.line,
                    section: spec.name.clone(),
                    problem,
                })
            })
            .collect();
        if errors.is_empty() {
            Ok(())
        } else {
            Err(VariantSetError::Sections(errors))
        }
    }

    /// Every section of a file loaded, or every section refused.
    fn load_sections(
        file: &str,
        specs: &[VariantSpec],
        definition: &'static str,
    ) -> Result<Vec<&'static Variant>, VariantSetError> {
        let mut errors = Vec::new();
        let mut loaded = Vec::new();
        for spec in specs {
            let problem = match VariantKind::from_name(&spec.name) {
                Ok(builtin) => SectionProblem::BuiltinName(builtin),
                Err(_) => match Variant::load_from(spec, definition) {
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
            Ok(loaded)
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

    /// [`VariantSet::get`], or an error listing every name the set knows.
    ///
    /// # Errors
    /// [`NotInSet`] when `name` is neither a built-in nor a section.
    pub fn find(&self, name: &str) -> Result<&'static Variant, NotInSet> {
        self.get(name).ok_or_else(|| NotInSet {
            name: name.to_owned(),
            file: self.file_names().map(str::to_owned).collect(),
        })
    }

    /// The names of the file's variants, in the file's order.
    pub fn file_names(&self) -> impl Iterator<Item = &str> {
        self.file.iter().map(|v| v.name())
    }

    /// The text of the user's file the set was loaded from, `None` for the
    /// built-ins alone: what a run records beside its games so that they
    /// can be read and replayed without the file.
    pub fn definition(&self) -> Option<&'static str> {
        self.definition
    }

    /// Whether `variant` is one of the set's: a built-in, or a variant of
    /// its file (the same value, not merely the same name).
    pub fn contains(&self, variant: &Variant) -> bool {
        variant.builtin().is_some() || self.file.iter().any(|v| std::ptr::eq(*v, variant))
    }
}
