//! The `--variant` and `--variants` arguments shared by commands that play
//! or search a variant, and with `--start` and `--fen` by those that take a
//! position.

use ajaxlab_rules::{Position, StartSpec, Variant, VariantKind, VariantSet};
use anyhow::Context;
use std::path::PathBuf;

/// Which variant: a built-in, or a section of a user's variants file.
#[derive(Debug, clap::Args)]
pub(crate) struct VariantArgs {
    /// Variant: ajax-falcon (afc), ajax-modern-random (amrc), chess, chess960,
    /// or with --variants a section of that file.
    #[arg(long)]
    pub(crate) variant: Option<String>,
    /// A variants file in Fairy-Stockfish's variants.ini format, loaded
    /// beside the built-in variants: --variant may name its sections.
    #[arg(long, value_name = "FILE", requires = "variant")]
    pub(crate) variants: Option<PathBuf>,
}

/// Which position to set up.
#[derive(Debug, clap::Args)]
pub(crate) struct PositionArgs {
    /// The variant.
    #[command(flatten)]
    pub(crate) variant: VariantArgs,
    /// Start position: a number (Chess960 0..960, AMRC 0..15120) or White's
    /// first rank (RNBQKBNR, RNBKQABNR).
    #[arg(long, conflicts_with = "fen")]
    pub(crate) start: Option<String>,
    /// A FEN in Fairy-Stockfish's dialect.
    #[arg(long)]
    pub(crate) fen: Option<String>,
}

impl VariantArgs {
    /// The variant `--variant` names, if given: a built-in, or a section
    /// of the `--variants` file (loaded whole, every error reported).
    pub(crate) fn variant_flag(&self) -> anyhow::Result<Option<&'static Variant>> {
        let Some(name) = &self.variant else {
            return Ok(None);
        };
        let Some(path) = &self.variants else {
            let kind = VariantKind::from_name(name).map_err(|e| {
                anyhow::anyhow!("{e}; a section of a variants file needs --variants FILE")
            })?;
            return Ok(Some(kind.variant()));
        };
        let set = VariantSet::with_file(path)?;
        Ok(Some(set.find(name)?))
    }

    /// The variant, which must be given.
    pub(crate) fn variant(&self) -> anyhow::Result<&'static Variant> {
        self.variant_flag()?
            .context("--variant is required (ajax-falcon, ajax-modern-random, chess, chess960)")
    }
}

impl PositionArgs {
    /// The position these arguments name.
    pub(crate) fn position(&self) -> anyhow::Result<Position> {
        let variant = self.variant.variant()?;
        if let Some(fen) = &self.fen {
            return Position::from_fen_in(variant, fen).with_context(|| format!("--fen '{fen}'"));
        }
        let spec = match &self.start {
            None => StartSpec::Default,
            Some(s) => match s.parse::<u32>() {
                Ok(n) => StartSpec::Number(n),
                Err(_) => StartSpec::Rank1(s.clone()),
            },
        };
        Position::start_in(variant, &spec)
            .with_context(|| format!("--start {}", self.start.as_deref().unwrap_or("")))
    }
}
