//! `ajaxlab train`: a network for one variant from the positions of
//! `ajaxlab datagen` (or a datagen campaign), on every core
//! ([`ajaxlab_engine::nnue::train`]). After each epoch it writes the
//! network (`--out`), a checkpoint beside it (`--out` + `.checkpoint`,
//! which `--resume` goes on from) and the learning curve (`.curve.svg`,
//! `.png`): training and held-out loss by epoch.

use super::out::outln;
use ajaxlab_engine::nnue::inputs::InputSet;
use ajaxlab_engine::nnue::net::Activation;
use ajaxlab_engine::nnue::train::{Model, Optimiser, Sample};
use ajaxlab_rules::{Position, Variant, VariantSet};
use ajaxlab_store::positions::{is_positions_file, read_positions};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

/// Arguments of `ajaxlab train`.
#[derive(Debug, clap::Args)]
pub(crate) struct TrainArgs {
    /// Positions files (`positions-*.parquet`) or directories searched for them.
    #[arg(required = true, value_name = "DATA")]
    data: Vec<PathBuf>,
    /// The variant to train for (the data's other variants are left out).
    #[arg(long)]
    variant: String,
    /// The variants file of a file variant.
    #[arg(long, value_name = "FILE")]
    variants: Option<PathBuf>,
    /// Where the network goes (its checkpoint and curve beside it).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Hidden units per perspective.
    #[arg(long, default_value_t = 128)]
    hidden: usize,
    /// The hidden layer's activation: screlu or crelu.
    #[arg(long, default_value = "screlu")]
    activation: String,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 10)]
    epochs: usize,
    /// Positions per step.
    #[arg(long, default_value_t = 4096)]
    batch: usize,
    /// Weight of the search score in the target (1: the score alone, 0:
    /// the game's result alone).
    #[arg(long, default_value_t = 0.5)]
    lambda: f32,
    /// AdamW's learning rate at the start; it falls to a tenth by the last
    /// epoch (cosine).
    #[arg(long, default_value_t = 0.001)]
    learning_rate: f32,
    /// Positions whose search score is beyond ± this many centipawns (won
    /// or lost already, mates) are left out: their result says nothing a
    /// static evaluation could not.
    #[arg(long, default_value_t = 3000)]
    max_score: i32,
    /// Share of the games held out to measure the fit (by game).
    #[arg(long, default_value_t = 0.05)]
    holdout: f64,
    /// Seed of the network's start, the shuffles and the held-out split.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// Go on from the checkpoint beside --out.
    #[arg(long)]
    resume: bool,
}

/// The positions of one variant, split by game.
struct Data {
    train: Vec<Sample>,
    held: Vec<Sample>,
    files: usize,
    other_variants: usize,
    /// Rows left out by `--max-score`.
    decided: usize,
}

fn positions_files(data: &[PathBuf]) -> anyhow::Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for path in data {
        if path.is_dir() {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .collect();
            entries.sort();
            let (dirs, files): (Vec<PathBuf>, Vec<PathBuf>) =
                entries.into_iter().partition(|p| p.is_dir());
            out.extend(files.into_iter().filter(|p| is_positions_file(p)));
            out.extend(positions_files(&dirs)?);
        } else {
            out.push(path.clone());
        }
    }
    Ok(out)
}

/// Whether game `game_id` of `run_id` is held out, a share `holdout` of the
/// games drawn by `seed`.
fn held_out(run_id: &str, game_id: u64, holdout: f64, seed: u64) -> bool {
    let mut h = seed ^ 0xcbf2_9ce4_8422_2325;
    for b in run_id.bytes().chain(game_id.to_le_bytes()) {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    ((h >> 11) as f64 / (1u64 << 53) as f64) < holdout
}

fn read_data(
    args: &TrainArgs,
    variant: &'static Variant,
    inputs: &InputSet,
) -> anyhow::Result<Data> {
    let files = positions_files(&args.data)?;
    let mut data = Data {
        train: Vec::new(),
        held: Vec::new(),
        files: files.len(),
        other_variants: 0,
        decided: 0,
    };
    for file in &files {
        let rows = read_positions(file)
            .map_err(|e| anyhow::anyhow!("{e} (is it a positions file of ajaxlab datagen?)"))?;
        for row in rows {
            if row.variant != variant.name() {
                data.other_variants += 1;
                continue;
            }
            if row.score.abs() > args.max_score {
                data.decided += 1;
                continue;
            }
            let pos = Position::from_fen_in(variant, &row.fen).map_err(|e| {
                anyhow::anyhow!("{}: game {}: {}: {e}", file.display(), row.game_id, row.fen)
            })?;
            let sample = Sample::of(inputs, &pos, row.score, row.result, args.lambda);
            if held_out(&row.run_id, row.game_id, args.holdout, args.seed) {
                data.held.push(sample);
            } else {
                data.train.push(sample);
            }
        }
    }
    if data.train.is_empty() {
        anyhow::bail!(
            "no positions of {} to train on in {} positions files ({} rows of other variants, {} beyond --max-score{})",
            variant.name(),
            data.files,
            data.other_variants,
            data.decided,
            if data.held.is_empty() {
                ""
            } else {
                "; all held out: lower --holdout"
            }
        );
    }
    Ok(data)
}

fn variant_of(args: &TrainArgs) -> anyhow::Result<&'static Variant> {
    let set = match &args.variants {
        Some(path) => VariantSet::with_file(path)?,
        None => VariantSet::builtin(),
    };
    Ok(set.find(&args.variant)?)
}

fn mean_loss(model: &Model, samples: &[Sample], threads: usize) -> f32 {
    let chunk = samples.len().div_ceil(threads).max(1);
    std::thread::scope(|scope| {
        let parts: Vec<_> = samples
            .chunks(chunk)
            .map(|part| scope.spawn(move || part.iter().map(|s| model.loss(s)).sum::<f32>()))
            .collect();
        parts.into_iter().filter_map(|h| h.join().ok()).sum::<f32>()
    }) / samples.len().max(1) as f32
}

/// A seeded shuffle of `0..n` for `epoch`.
fn order(n: usize, seed: u64, epoch: usize) -> Vec<usize> {
    let mut index: Vec<usize> = (0..n).collect();
    let mut state = seed ^ (epoch as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    for i in (1..n).rev() {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        index.swap(i, ((state >> 33) % (i as u64 + 1)) as usize);
    }
    index
}

/// A run as it stands after an epoch: what `--resume` goes on from.
struct Checkpoint {
    /// Epochs done.
    epoch: usize,
    /// Training and held-out loss after each.
    curve: Vec<(f32, f32)>,
    model: Model,
}

impl Checkpoint {
    fn to_bytes(&self) -> Vec<u8> {
        let mut out = (self.epoch as u64).to_le_bytes().to_vec();
        out.extend_from_slice(&(self.curve.len() as u64).to_le_bytes());
        for (a, b) in &self.curve {
            out.extend_from_slice(&a.to_le_bytes());
            out.extend_from_slice(&b.to_le_bytes());
        }
        out.extend(self.model.to_bytes());
        out
    }

    fn from_bytes(bytes: &[u8]) -> Option<Checkpoint> {
        let word = |at: usize| Some(u64::from_le_bytes(bytes.get(at..at + 8)?.try_into().ok()?));
        let epoch = usize::try_from(word(0)?).ok()?;
        let points = usize::try_from(word(8)?).ok()?;
        let float = |at: usize| Some(f32::from_le_bytes(bytes.get(at..at + 4)?.try_into().ok()?));
        let curve = (0..points)
            .map(|i| Some((float(16 + 8 * i)?, float(20 + 8 * i)?)))
            .collect::<Option<Vec<_>>>()?;
        let model = Model::from_bytes(bytes.get(16 + 8 * points..)?)?;
        Some(Checkpoint {
            epoch,
            curve,
            model,
        })
    }
}

fn beside(out: &Path, suffix: &str) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

fn write_curve(out: &Path, curve: &[(f32, f32)]) -> anyhow::Result<()> {
    let line = |label: &str, color, pick: fn(&(f32, f32)) -> f32| ajaxlab_plot::Line {
        label: label.to_owned(),
        color,
        points: curve
            .iter()
            .enumerate()
            .map(|(i, p)| (i as f64 + 1.0, f64::from(pick(p))))
            .collect(),
    };
    let chart = ajaxlab_plot::Chart {
        title: "Learning curve".to_owned(),
        x_desc: "epoch".to_owned(),
        y_desc: "mean squared error".to_owned(),
        lines: vec![
            line("training", ajaxlab_plot::PALETTE[0], |p| p.0),
            line("held out", ajaxlab_plot::PALETTE[1], |p| p.1),
        ],
        ..ajaxlab_plot::Chart::default()
    };
    let dir = out
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let stem = out
        .file_name()
        .map_or_else(|| "net".into(), |n| n.to_string_lossy().into_owned());
    ajaxlab_plot::write(&chart, dir, &format!("{stem}.curve"))?;
    Ok(())
}

fn progress(len: u64) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template("[{bar:30}] {pos}/{len} positions, {msg}") {
        bar.set_style(style);
    }
    bar
}

/// The run to go on with: the checkpoint beside `--out` with `--resume`,
/// else a new model.
fn start(
    args: &TrainArgs,
    inputs: &InputSet,
    activation: Activation,
) -> anyhow::Result<Checkpoint> {
    if !args.resume {
        return Ok(Checkpoint {
            epoch: 0,
            curve: Vec::new(),
            model: Model::new(inputs.len(), args.hidden, activation, args.seed),
        });
    }
    let path = beside(&args.out, ".checkpoint");
    let bytes =
        std::fs::read(&path).map_err(|e| anyhow::anyhow!("--resume: {}: {e}", path.display()))?;
    Checkpoint::from_bytes(&bytes)
        .filter(|c| c.model.inputs() == inputs.len() && c.model.hidden() == args.hidden)
        .ok_or_else(|| {
            anyhow::anyhow!(
                "--resume: {}: not a checkpoint of a network of {} inputs and {} hidden units",
                path.display(),
                inputs.len(),
                args.hidden
            )
        })
}

/// One pass over the training positions in a seeded order; the mean
/// training loss of its steps.
fn epoch_of(args: &TrainArgs, data: &Data, run: &mut Checkpoint, threads: usize) -> f32 {
    let started = Instant::now();
    let progress_at = std::f32::consts::PI * run.epoch as f32 / args.epochs as f32;
    let optimiser = Optimiser {
        learning_rate: args.learning_rate * (0.55 + 0.45 * progress_at.cos()),
        ..Optimiser::default()
    };
    let bar = progress(data.train.len() as u64);
    let mut batch = Vec::with_capacity(args.batch);
    let (mut loss_sum, mut steps) = (0.0f32, 0usize);
    for chunk in order(data.train.len(), args.seed, run.epoch).chunks(args.batch) {
        batch.clear();
        batch.extend(chunk.iter().map(|&i| data.train[i].clone()));
        let (loss, gradient) = run.model.gradient(&batch, threads);
        run.model.step(&gradient, optimiser);
        loss_sum += loss;
        steps += 1;
        bar.inc(chunk.len() as u64);
        let rate = bar.position() as f64 / started.elapsed().as_secs_f64().max(1e-9);
        bar.set_message(format!(
            "loss {:.5}, {rate:.0} positions/s",
            loss_sum / steps as f32
        ));
    }
    bar.finish_and_clear();
    loss_sum / steps.max(1) as f32
}

pub(crate) fn run(args: &TrainArgs) -> anyhow::Result<ExitCode> {
    if args.hidden == 0 {
        anyhow::bail!("--hidden: 0 hidden units; a network needs at least one");
    }
    if args.batch == 0 || args.epochs == 0 {
        anyhow::bail!("--batch and --epochs must be at least 1");
    }
    let activation = match args.activation.as_str() {
        "screlu" => Activation::SCReLU,
        "crelu" => Activation::CReLU,
        other => anyhow::bail!("--activation: '{other}' is neither screlu nor crelu"),
    };
    let variant = variant_of(args)?;
    let inputs = InputSet::of(variant);
    let data = read_data(args, variant, &inputs)?;
    let threads = args
        .threads
        .unwrap_or_else(super::cluster::all_cores)
        .max(1);
    let mut run = start(args, &inputs, activation)?;
    outln!(
        "{}: {} training and {} held-out positions from {} files ({} beyond ±{} cp left out); {} inputs, {} hidden units, {} threads",
        variant.name(),
        data.train.len(),
        data.held.len(),
        data.files,
        data.decided,
        args.max_score,
        inputs.len(),
        args.hidden,
        threads
    )?;
    while run.epoch < args.epochs {
        let started = Instant::now();
        let train_loss = epoch_of(args, &data, &mut run, threads);
        let seconds = started.elapsed().as_secs_f64();
        let held = if data.held.is_empty() {
            f32::NAN
        } else {
            mean_loss(&run.model, &data.held, threads)
        };
        run.curve.push((train_loss, held));
        run.epoch += 1;
        run.model.quantised(variant).write(&args.out)?;
        ajaxlab_store::atomic::write_bytes(&beside(&args.out, ".checkpoint"), &run.to_bytes())?;
        write_curve(&args.out, &run.curve)?;
        outln!(
            "epoch {}: training loss {train_loss:.5}, held out {held:.5}, {:.0} positions/s ({:.0} per thread)",
            run.epoch,
            data.train.len() as f64 / seconds,
            data.train.len() as f64 / seconds / threads as f64
        )?;
    }
    outln!(
        "wrote {} (UCI: setoption name EvalFile value {}), its curve {}.curve.svg",
        args.out.display(),
        args.out.display(),
        args.out.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
