//! `ajaxlab check FILE`: a variants file checked section by section, as
//! Fairy-Stockfish's `check` does: every error once with its file, line
//! and key (and the key meant, for a misspelt one), then each section
//! that plays with its board, pieces and moves from the start.

use super::out::outln;
use ajaxlab_rules::{Position, StartSpec, Variant, check_variants, perft};
use anyhow::Context;
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ajaxlab check`.
#[derive(Debug, clap::Args)]
pub(crate) struct CheckArgs {
    /// A variants file in Fairy-Stockfish's variants.ini format.
    file: PathBuf,
}

/// Exits non-zero if any section has an error.
pub(crate) fn run(args: &CheckArgs) -> anyhow::Result<ExitCode> {
    let file = args.file.display().to_string();
    let text = ajaxlab_files::read_text(&args.file, ajaxlab_files::limits::VARIANTS_FILE)
        .with_context(|| format!("reading {file}"))?;
    let check = check_variants(&file, &text);
    for error in &check.errors {
        outln!("{error}")?;
    }
    for variant in &check.playable {
        outln!("[{}] plays: {}", variant.name(), summary(variant))?;
    }
    let errors = check.errors.len();
    outln!(
        "{file}: {} sections, {} play, {errors} error{}",
        check.sections,
        check.playable.len(),
        if errors == 1 { "" } else { "s" }
    )?;
    Ok(if errors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// A playable variant in a line: board, pieces, and the moves from its
/// default start.
fn summary(variant: &'static Variant) -> String {
    let table = variant.piece_table();
    let pieces: Vec<String> = table
        .kinds()
        .filter_map(|k| table.get(k).map(|n| format!("{} {}", n.letter, n.name)))
        .collect();
    let moves = match Position::start_in(variant, &StartSpec::Default) {
        Ok(start) => format!("{} moves from the start", perft(&start, 1)),
        Err(e) => format!("no default start: {e}"),
    };
    format!(
        "{}x{}, {}; {moves}",
        variant.width(),
        variant.height(),
        pieces.join(", ")
    )
}
