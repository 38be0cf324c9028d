//! `ajaxlab report`: tables on the terminal and plots as SVG and PNG for
//! every run stored below a directory, read from the Parquet files only.

use super::out::{out, outln};
use ajaxlab_report::{ReportConfig, run as make_report};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ajaxlab report`.
#[derive(Debug, clap::Args)]
pub(crate) struct ReportArgs {
    /// Directory searched recursively for games files (`*.parquet`) and SPSA
    /// trajectories (`spsa.parquet`): a match's `--out`, a campaign's
    /// directory, or a whole coordinator state directory.
    run_dir: PathBuf,
    /// Where the plots (SVG and PNG) and CSV files go [default: RUN_DIR/report].
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
}

pub(crate) fn run(args: ReportArgs) -> anyhow::Result<ExitCode> {
    let mut config = ReportConfig::new(args.run_dir);
    if let Some(out) = args.out {
        config = config.with_out_dir(out);
    }
    let report = make_report(&config)?;
    out!("{report}")?;
    outln!(
        "\n{} files written to {}",
        report.files().len(),
        config.out_dir.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
