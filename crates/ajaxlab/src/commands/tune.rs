//! `ajaxlab tune`: fits the evaluation's parameters to the results of
//! stored games (Texel's method, [`ajaxlab_engine::tune`]) and writes them
//! as a parameter file that `builtin:FILE` players and `[[players]] params`
//! load.

use super::out::{out, outln};
use ajaxlab_arena::training::training_games;
use ajaxlab_engine::params::ParamError;
use ajaxlab_engine::tune::{
    DataSet, Progress, SampleOptions, Selection, TuneOptions, TuneReport, read_by, tune,
};
use ajaxlab_engine::{ParamSpec, Params};
use ajaxlab_store::StoreError;
use ajaxlab_store::find::{FindError, games_files};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Arguments of `ajaxlab tune`.
#[derive(Debug, clap::Args)]
pub(crate) struct TuneArgs {
    /// Run directories (searched recursively for `games-*.parquet` and
    /// `unit-*.parquet`), games files, or quoted globs such as
    /// 'runs/*/unit-*.parquet'.
    #[arg(required = true, value_name = "RUN_DIR_OR_FILE")]
    inputs: Vec<String>,
    /// Fit exactly these parameters (comma-separated names) [default: every
    /// evaluation parameter of the data's variants].
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "NAME,NAME",
        conflicts_with = "prefix"
    )]
    params: Vec<String>,
    /// Fit the evaluation parameters whose names start with this (e.g. `afc.`).
    #[arg(long)]
    prefix: Option<String>,
    /// Start from this parameter file (TOML or JSON) instead of the defaults.
    #[arg(long, value_name = "PARAMS_FILE")]
    from: Option<PathBuf>,
    /// Where the fitted parameters go (TOML).
    #[arg(long, value_name = "FILE.toml", default_value = "tuned.toml")]
    out: PathBuf,
    /// Adam steps.
    #[arg(long, default_value_t = TuneOptions::default().iterations)]
    iterations: usize,
    /// Share of the games held out to measure the fit.
    #[arg(long, default_value_t = SampleOptions::default().holdout)]
    holdout: f64,
    /// Seed of the position sample and the held-out split.
    #[arg(long, default_value_t = SampleOptions::default().seed)]
    seed: u64,
    /// Weight of the stored search score in the target (0: results only).
    #[arg(long, default_value_t = TuneOptions::default().lambda)]
    lambda: f64,
    /// At most this many positions (a seeded sample beyond it).
    #[arg(long, default_value_t = SampleOptions::default().max_positions)]
    max_positions: usize,
    /// Plies at the start of each game never sampled.
    #[arg(long, default_value_t = SampleOptions::default().skip_plies)]
    skip_plies: usize,
    /// Adam's step as a share of each parameter's range.
    #[arg(long, default_value_t = TuneOptions::default().learning_rate)]
    learning_rate: f64,
    /// Weight of the ridge penalty μ·Σ((θ − θ₀)/100)² that holds fitted
    /// values near their start where the data say little (0: none).
    #[arg(long, default_value_t = TuneOptions::default().regularisation)]
    regularisation: f64,
    /// Threads evaluating positions [default: all cores].
    #[arg(long)]
    threads: Option<NonZeroUsize>,
}

/// Input that cannot be tuned on.
#[derive(Debug, thiserror::Error)]
enum InputError {
    /// Inputs that name no games file.
    #[error(transparent)]
    Find(#[from] FindError),
    /// A file that cannot be read.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A file that is not a games file.
    #[error("not a games file: {0}")]
    Store(#[from] StoreError),
    /// A starting parameter file that does not load.
    #[error("{path}: {source}")]
    Params {
        /// The file.
        path: String,
        /// Why.
        source: ParamError,
    },
}

fn start_params(from: Option<&Path>) -> Result<Params, InputError> {
    let Some(path) = from else {
        return Ok(Params::default());
    };
    let shown = path.display().to_string();
    let text =
        ajaxlab_files::read_text(path, ajaxlab_files::limits::PARAMS_FILE).map_err(|source| {
            InputError::Io {
                path: shown.clone(),
                source,
            }
        })?;
    Params::from_text(&text).map_err(|source| InputError::Params {
        path: shown,
        source,
    })
}

fn progress_bar(iterations: usize) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(
        Some(u64::try_from(iterations).unwrap_or(u64::MAX)),
        ProgressDrawTarget::stderr(),
    );
    if let Ok(style) = ProgressStyle::with_template(
        "{elapsed_precise} [{bar:40}] {pos}/{len} steps, {msg} (eta {eta})",
    ) {
        bar.set_style(style);
    }
    bar
}

/// The report, as printed.
fn summary(report: &TuneReport) -> String {
    let mut out = format!(
        "K = {:.4}\ntrain loss     {:.6} -> {:.6}\n",
        report.k, report.train.before, report.train.after
    );
    if let Some(h) = report.holdout {
        out += &format!("held-out loss  {:.6} -> {:.6}\n", h.before, h.after);
    }
    let changed: Vec<_> = report
        .fitted
        .iter()
        .filter(|c| c.before != c.after)
        .collect();
    out += &format!(
        "{} of {} parameters changed\n",
        changed.len(),
        report.fitted.len()
    );
    for c in changed {
        out += &format!(
            "  {:<28} {:>6} -> {:>6} ({:+})\n",
            c.name,
            c.before,
            c.after,
            c.after - c.before
        );
    }
    out
}

pub(crate) fn run(args: &TuneArgs) -> anyhow::Result<ExitCode> {
    let files = games_files(&args.inputs)?;
    let mut games = Vec::new();
    for file in &files {
        games.extend(training_games(file).map_err(InputError::from)?);
    }
    // After the games: a file variant's piece parameters (`squirrel.s.mg`)
    // are known once its definition, from the games' metadata, is loaded.
    let start = start_params(args.from.as_deref())?;
    let sample = SampleOptions {
        skip_plies: args.skip_plies,
        max_positions: args.max_positions,
        holdout: args.holdout,
        seed: args.seed,
    };
    let data = DataSet::from_games(&games, &start, &sample)?;
    let variants = data.variants();
    outln!(
        "{} games from {} files ({}): {} training and {} held-out quiet positions",
        data.games(),
        files.len(),
        variants
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", "),
        data.train_len(),
        data.holdout_len()
    )?;
    let selection = match (&args.prefix, args.params.is_empty()) {
        (Some(prefix), _) => Selection::Prefix(prefix.clone()),
        (None, false) => Selection::Names(args.params.clone()),
        (None, true) => Selection::Evaluation,
    };
    let options = TuneOptions {
        selection,
        iterations: args.iterations,
        lambda: args.lambda,
        learning_rate: args.learning_rate,
        regularisation: args.regularisation,
        threads: args.threads.unwrap_or(TuneOptions::default().threads),
    };
    let bar = progress_bar(args.iterations);
    let report = tune(&data, &start, &options, &mut |p: Progress| {
        bar.set_position(u64::try_from(p.iteration).unwrap_or(u64::MAX));
        bar.set_message(format!("loss {:.6}", p.loss));
    })?;
    bar.finish_and_clear();
    // Everything a player of these variants reads, so the file stands alone.
    let mut specs: Vec<&ParamSpec> = Vec::new();
    for &variant in &variants {
        for spec in read_by(variant) {
            if !specs.contains(&spec) {
                specs.push(spec);
            }
        }
    }
    let text = format!(
        "# ajaxlab tune {}: train loss {:.6} -> {:.6}, K {:.4}\n{}",
        args.inputs.join(" "),
        report.train.before,
        report.train.after,
        report.k,
        report.params.to_toml(&specs)
    );
    ajaxlab_store::atomic::write_text(&args.out, &text)?;
    // Printed once the file is written: a closed pipe loses no result.
    out!("{}", summary(&report))?;
    outln!("wrote {}", args.out.display())?;
    Ok(ExitCode::SUCCESS)
}
