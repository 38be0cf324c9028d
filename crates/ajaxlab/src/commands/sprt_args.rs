//! The SPRT flags `ajaxlab stats` and `ajaxlab match` share: bounds as
//! Fishtest users write them (negative ones too: `--sprt -1.75,0.25`), the
//! error rates and the Elo model, and the one line that prints an LLR, so
//! that both commands show the same number for the same counts.

use ajaxlab_stats::{EloModel, Sprt, SprtConfig};
use anyhow::Context;

/// `--sprt ELO0,ELO1 [--alpha A] [--beta B] [--model M]`.
#[derive(Debug, clap::Args)]
pub(crate) struct SprtArgs {
    /// SPRT bounds elo0,elo1 (negative bounds as written: --sprt -1.75,0.25).
    #[arg(long, allow_hyphen_values = true)]
    sprt: Option<String>,
    /// SPRT false-positive rate.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    alpha: f64,
    /// SPRT false-negative rate.
    #[arg(long, default_value_t = 0.05, requires = "sprt")]
    beta: f64,
    /// SPRT model: normalized (Fishtest's default) or logistic.
    #[arg(long, default_value = "normalized", requires = "sprt")]
    model: String,
}

impl SprtArgs {
    /// The test the flags describe, or `None` without `--sprt`.
    ///
    /// # Errors
    /// Bounds that are not two numbers, an unknown model, or a design
    /// [`Sprt::new`] refuses (every violation named).
    pub(crate) fn sprt(&self) -> anyhow::Result<Option<Sprt>> {
        let Some(bounds) = &self.sprt else {
            return Ok(None);
        };
        let (e0, e1) = bounds
            .split_once(',')
            .with_context(|| format!("--sprt '{bounds}': expected elo0,elo1"))?;
        let number = |text: &str| -> anyhow::Result<f64> {
            text.trim()
                .parse()
                .with_context(|| format!("--sprt: '{text}' is not a number"))
        };
        let (elo0, elo1) = (number(e0)?, number(e1)?);
        let model: EloModel = self
            .model
            .parse()
            .map_err(|e| anyhow::anyhow!("--model: {e}"))?;
        let config = SprtConfig {
            alpha: self.alpha,
            beta: self.beta,
            ..SprtConfig::new(elo0, elo1, model)
        };
        Sprt::new(config)
            .map(Some)
            .map_err(|e| anyhow::anyhow!("--sprt/--alpha/--beta: {e}"))
    }
}
