//! `ajaxlab uci`: the engine's UCI front end on standard input and output.

use ajaxlab_rules::VariantSet;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ajaxlab uci`.
#[derive(Debug, clap::Args)]
pub(crate) struct UciArgs {
    /// A variants file in Fairy-Stockfish's variants.ini format, whose
    /// sections UCI_Variant then lists beside the built-ins (as the
    /// VariantPath option does).
    #[arg(long, value_name = "FILE")]
    variants: Option<PathBuf>,
}

pub(crate) fn run(args: &UciArgs) -> anyhow::Result<ExitCode> {
    let variants = match &args.variants {
        Some(path) => VariantSet::with_file(path)?,
        None => VariantSet::builtin(),
    };
    let stdin = std::io::stdin();
    ajaxlab_engine::uci::run(variants, stdin.lock(), std::io::stdout());
    Ok(ExitCode::SUCCESS)
}
