//! `ajaxlab perft`: perft of one position (optionally divided), or a whole
//! `.perft` suite checked against its expected counts.

use super::out::outln;
use super::position_args::PositionArgs;
use ajaxlab_rules::{PerftSuite, Position, Variant, VariantKind, divide, perft};
use anyhow::{Context, bail};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `ajaxlab perft`.
#[derive(Debug, clap::Args)]
pub(crate) struct PerftArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// Depth in plies.
    #[arg(long, required_unless_present = "suite")]
    depth: Option<u32>,
    /// Print one `move: count` line per legal move.
    #[arg(long)]
    divide: bool,
    /// A .perft file to check (the format of tests/perft/, e.g. tests/perft/ajax-falcon.perft); exits non-zero on a mismatch.
    #[arg(long, conflicts_with_all = ["depth", "divide", "fen", "start"])]
    suite: Option<PathBuf>,
    /// With --suite: skip depths whose expected count is above N.
    #[arg(long, requires = "suite")]
    max_nodes: Option<u64>,
}

pub(crate) fn run(args: &PerftArgs) -> anyhow::Result<ExitCode> {
    if let Some(path) = &args.suite {
        return run_suite(
            path,
            args.position.variant.variant_flag()?,
            args.max_nodes.unwrap_or(u64::MAX),
        );
    }
    let pos = args.position.position()?;
    let depth = args.depth.context("--depth is required")?;
    let nodes = if args.divide {
        let mut total = 0;
        for (m, n) in divide(&pos, depth) {
            outln!("{}: {n}", pos.uci(m))?;
            total += n;
        }
        total
    } else {
        perft(&pos, depth)
    };
    outln!("nodes {nodes}")?;
    Ok(ExitCode::SUCCESS)
}

/// The variant of a suite: `--variant`, else a `variant` line, else the file name.
fn suite_variant(
    path: &Path,
    flag: Option<&'static Variant>,
    suite: &PerftSuite,
) -> anyhow::Result<&'static Variant> {
    if let Some(v) = flag.or(suite.variant.map(VariantKind::variant)) {
        return Ok(v);
    }
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default();
    let kind = VariantKind::from_name(stem).with_context(|| {
        format!(
            "{}: name the variant with --variant or a 'variant NAME' line",
            path.display()
        )
    })?;
    Ok(kind.variant())
}

fn run_suite(
    path: &Path,
    flag: Option<&'static Variant>,
    max_nodes: u64,
) -> anyhow::Result<ExitCode> {
    let text = ajaxlab_files::read_text(path, ajaxlab_files::limits::CONFIG_FILE)
        .with_context(|| format!("reading {}", path.display()))?;
    let suite = PerftSuite::parse(&text).with_context(|| path.display().to_string())?;
    let variant = suite_variant(path, flag, &suite)?;
    let mut failures = 0;
    let mut checked = 0;
    for case in &suite.cases {
        let pos = Position::from_fen_in(variant, &case.fen)
            .with_context(|| format!("case {}", case.id))?;
        for &(depth, expected) in &case.expected {
            if expected > max_nodes {
                outln!(
                    "{} perft {depth}: skipped (expected {expected} > --max-nodes {max_nodes})",
                    case.id
                )?;
                continue;
            }
            let started = Instant::now();
            let got = perft(&pos, depth);
            let secs = started.elapsed().as_secs_f64();
            checked += 1;
            if got == expected {
                outln!("{} perft {depth}: {got} ok ({secs:.2} s)", case.id)?;
            } else {
                failures += 1;
                outln!(
                    "{} perft {depth}: MISMATCH expected {expected}, got {got}",
                    case.id
                )?;
            }
        }
    }
    outln!("{checked} counts checked, {failures} mismatches")?;
    if checked == 0 {
        bail!("no count was checked (is --max-nodes too low?)");
    }
    Ok(if failures == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
