//! The `--variant`, `--start` and `--fen` arguments shared by commands that
//! take a position.

use ajaxlab_rules::{Position, StartSpec, VariantKind};
use anyhow::Context;

/// Which position to set up.
#[derive(Debug, clap::Args)]
pub(crate) struct PositionArgs {
    /// Variant: ajax-falcon (afc), ajax-modern-random (amrc), chess, chess960.
    #[arg(long, value_parser = parse_variant)]
    pub(crate) variant: Option<VariantKind>,
    /// Start position: a number (Chess960 0..960, AMRC 0..15120) or White's
    /// first rank (RNBQKBNR, RNBKQABNR).
    #[arg(long, conflicts_with = "fen")]
    pub(crate) start: Option<String>,
    /// A FEN in Fairy-Stockfish's dialect.
    #[arg(long)]
    pub(crate) fen: Option<String>,
}

/// Resolves a variant name or alias, listing the known ones on failure.
pub(crate) fn parse_variant(name: &str) -> Result<VariantKind, String> {
    VariantKind::from_name(name).map_err(|e| e.to_string())
}

impl PositionArgs {
    /// The variant, which must be given.
    pub(crate) fn variant(&self) -> anyhow::Result<VariantKind> {
        self.variant
            .context("--variant is required (ajax-falcon, ajax-modern-random, chess, chess960)")
    }

    /// The position these arguments name.
    pub(crate) fn position(&self) -> anyhow::Result<Position> {
        let variant = self.variant()?;
        if let Some(fen) = &self.fen {
            return Position::from_fen(variant, fen).with_context(|| format!("--fen '{fen}'"));
        }
        let spec = match &self.start {
            None => StartSpec::Default,
            Some(s) => match s.parse::<u32>() {
                Ok(n) => StartSpec::Number(n),
                Err(_) => StartSpec::Rank1(s.clone()),
            },
        };
        Position::start(variant, &spec)
            .with_context(|| format!("--start {}", self.start.as_deref().unwrap_or("")))
    }
}
