//! `ajaxlab params`: the engine's tunable parameters of a variant, as TOML,
//! JSON or Fishtest's SPSA input lines.

use super::out::out;
use super::position_args::VariantArgs;
use ajaxlab_engine::tune::read_by;
use ajaxlab_engine::{ParamSpec, Params};
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

/// Output format.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
enum Format {
    Toml,
    Json,
    Spsa,
}

/// Arguments of `ajaxlab params`.
#[derive(Debug, clap::Args)]
pub(crate) struct ParamsArgs {
    /// The variant whose parameters to print: its piece values and the
    /// evaluation and search parameters it reads (a variant of a file:
    /// VARIANT.LETTER.mg and .eg for each piece); without it, the whole
    /// table.
    #[command(flatten)]
    variant: VariantArgs,
    /// Output format.
    #[arg(long, value_enum, default_value = "toml")]
    format: Format,
    /// Start from this parameter file (TOML or JSON) instead of the defaults.
    #[arg(long)]
    from: Option<PathBuf>,
}

pub(crate) fn run(args: &ParamsArgs) -> anyhow::Result<ExitCode> {
    // The variant first: its file's piece parameters are then known to
    // `--from`.
    let variant = args.variant.variant_flag()?;
    let params = match &args.from {
        Some(path) => {
            let text = ajaxlab_files::read_text(path, ajaxlab_files::limits::PARAMS_FILE)
                .with_context(|| format!("reading {}", path.display()))?;
            Params::from_text(&text).with_context(|| path.display().to_string())?
        }
        None => Params::default(),
    };
    let specs: Vec<&ParamSpec> = match variant {
        Some(v) => read_by(v),
        None => ajaxlab_engine::params::SPECS.iter().collect(),
    };
    let text = match args.format {
        Format::Toml => params.to_toml(&specs),
        Format::Json => params.to_json(&specs) + "\n",
        Format::Spsa => params.to_spsa(&specs),
    };
    out!("{text}")?;
    Ok(ExitCode::SUCCESS)
}
