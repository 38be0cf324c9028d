//! `ajaxlab book`: an opening book of distinct balanced positions.

use super::out::outln;
use super::position_args::VariantArgs;
use ajaxlab_arena::book::{BookConfig, generate};
use anyhow::bail;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ajaxlab book`.
#[derive(Debug, clap::Args)]
pub(crate) struct BookArgs {
    /// The variant.
    #[command(flatten)]
    variant: VariantArgs,
    /// Random plies from the start.
    #[arg(long)]
    plies: u32,
    /// Keep positions a short search scores within ±CP centipawns.
    #[arg(long)]
    max_eval: i32,
    /// Positions wanted.
    #[arg(long)]
    count: usize,
    /// Output EPD file.
    #[arg(long)]
    out: PathBuf,
    /// Random seed (recorded in the file's header).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Nodes of the balance search.
    #[arg(long, default_value_t = 5000)]
    nodes: u64,
}

pub(crate) fn run(args: &BookArgs) -> anyhow::Result<ExitCode> {
    if args.count == 0 {
        bail!("--count must be at least 1");
    }
    let book = generate(&BookConfig {
        variant: args.variant.variant()?,
        plies: args.plies,
        max_eval: args.max_eval,
        count: args.count,
        seed: args.seed,
        nodes: args.nodes,
    });
    let found = book.lines.len() - 1;
    let text = book.lines.join("\n") + "\n";
    ajaxlab_store::atomic::write_text(&args.out, &text)?;
    outln!(
        "{found} positions ({} candidates searched) written to {}",
        book.tried,
        args.out.display()
    )?;
    if found < args.count {
        eprintln!(
            "warning: only {found} of {} positions found; raise --max-eval or lower --plies",
            args.count
        );
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}
