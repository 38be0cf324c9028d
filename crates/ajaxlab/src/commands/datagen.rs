//! `ajaxlab datagen`: training positions from self-play, as a `datagen`
//! campaign played on this machine in its directory (`ajaxlab_cluster::local`),
//! as `campaign run` plays one: one player against itself at a low node
//! count from varied openings, each kept position a Parquet row with the
//! side to move's search score, the ply, the game's result and the
//! variant. The same command again goes on where a stopped run left off; a
//! larger `--games` extends it.

use super::out::outln;
use ajaxlab_arena::{MatchFile, Overrides};
use ajaxlab_cluster::local::matches::datagen_campaign;
use ajaxlab_cluster::local::{CampaignDraft, run_in};
use ajaxlab_store::file_safe;
use ajaxlab_store::positions::{PositionFilter, summary};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ajaxlab datagen`.
#[derive(Debug, clap::Args)]
pub(crate) struct DatagenArgs {
    /// Variant: ajax-falcon (afc), ajax-modern-random (amrc), chess, chess960,
    /// or with --variants a section of that file.
    #[arg(long)]
    variant: String,
    /// A variants file in Fairy-Stockfish's variants.ini format.
    #[arg(long, value_name = "FILE")]
    variants: Option<PathBuf>,
    /// Games to play (an even number); a larger number extends a run.
    #[arg(long, default_value_t = 200)]
    games: u64,
    /// Time control of each move: nodes=N (the usual), depth=N, movetime=MS.
    #[arg(long, default_value = "nodes=5000")]
    tc: String,
    /// The player, against itself: builtin[:PARAMS.toml] or uci:PATH[,option=value…].
    #[arg(long, default_value = "builtin")]
    player: String,
    /// Openings: start, random, range:A-B, list:FILE or file:FILE (a book).
    #[arg(long)]
    openings: Option<String>,
    /// Random plies after each start, for varied games.
    #[arg(long, default_value_t = 8)]
    random_plies: u32,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Positions before this ply (the random plies included) are left out.
    #[arg(long, default_value_t = PositionFilter::default().min_ply)]
    min_ply: u32,
    /// Keep every position with a score, not only quiet ones (not in check,
    /// the move played neither a capture nor a promotion).
    #[arg(long)]
    all_positions: bool,
    /// Output directory (default: runs/datagen-VARIANT).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Games at once (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    /// No progress bar or log lines.
    #[arg(long)]
    quiet: bool,
}

pub(crate) fn run(args: DatagenArgs) -> anyhow::Result<ExitCode> {
    let name = format!("datagen-{}", file_safe(&args.variant));
    let file = MatchFile::default().with_overrides(Overrides {
        variant: Some(args.variant.clone()),
        variants: args.variants.clone(),
        games: Some(args.games),
        tc: Some(args.tc.clone()),
        players: vec![args.player.clone()],
        openings: args.openings.clone(),
        random_plies: Some(args.random_plies),
        seed: Some(args.seed),
        ..Overrides::default()
    })?;
    let filter = PositionFilter {
        min_ply: args.min_ply,
        quiet: !args.all_positions,
    };
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from("runs").join(&name));
    let draft = CampaignDraft::read(datagen_campaign(&file, &name, filter)?)?;
    let threads = args.threads.unwrap_or_else(super::cluster::all_cores);
    eprintln!(
        "{}: {} against itself, {} games at {}, {} random plies, seed {}, positions from ply {}{}, output {}",
        args.variant,
        args.player,
        args.games,
        args.tc,
        args.random_plies,
        args.seed,
        filter.min_ply,
        if filter.quiet { ", quiet only" } else { "" },
        out.display()
    );
    let summary_before = out.join("campaigns").join(&name);
    let before = summary(&summary_before).map_or(0, |(_, rows)| rows);
    let played = run_in(&out, &[draft], threads, args.quiet)?;
    let [campaign] = played.campaigns.as_slice() else {
        anyhow::bail!("{}: one campaign expected", out.display());
    };
    let (files, rows) = summary(&campaign.games_dir)?;
    let seconds = played.elapsed.as_secs_f64().max(1e-9);
    let now = rows.saturating_sub(before);
    outln!(
        "{rows} positions from {} games ({now} this run in {seconds:.1} s, {:.0} positions/s)",
        campaign.view.pairs_done * 2,
        now as f64 / seconds
    )?;
    outln!(
        "in {} files {}/positions-*.parquet",
        files.len(),
        campaign.games_dir.display()
    )?;
    outln!(
        "read them with DuckDB: SELECT * FROM '{}/positions-*.parquet'",
        campaign.games_dir.display()
    )?;
    Ok(ExitCode::SUCCESS)
}
