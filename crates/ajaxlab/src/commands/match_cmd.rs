//! `ajaxlab match`: a match between two players from a TOML config, with
//! the common settings as flags that override it; with `--sprt` it stops
//! at the test's verdict.

use super::out::outln;
use super::sprt_args::SprtArgs;
use ajaxlab_arena::config::{OutChoice, directory_for_new_games, read_match_file};
use ajaxlab_arena::tournament::{TournamentKind, pairing_configs, run_tournament};
use ajaxlab_arena::{
    MatchConfig, MatchFile, Overrides, Progress, Start, run_match, run_sprt_match,
};
use ajaxlab_stats::{Counts, Sprt, verdict_text};
use std::path::PathBuf;
use std::process::ExitCode;

/// Arguments of `ajaxlab match`.
#[derive(Debug, clap::Args)]
pub(crate) struct MatchArgs {
    /// A match file (TOML); flags below override it.
    #[arg(long)]
    config: Option<PathBuf>,
    /// Variant: ajax-falcon (afc), ajax-modern-random (amrc), chess, chess960,
    /// or with --variants a section of that file.
    #[arg(long)]
    variant: Option<String>,
    /// A variants file in Fairy-Stockfish's variants.ini format, loaded
    /// beside the built-in variants: --variant may name its sections. Its
    /// text is recorded in every games file and sent to UCI engines that
    /// have a VariantPath option.
    #[arg(long, value_name = "FILE")]
    variants: Option<PathBuf>,
    /// Games to play, an even number: each opening is played twice, colours swapped.
    /// With --sprt, the most games played if no bound is crossed first.
    #[arg(long, verbatim_doc_comment)]
    games: Option<u64>,
    /// Games at once (default: all cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Time control of both players: nodes=N, nodes=N~P%, depth=N, movetime=MS,
    /// BASE+INC (seconds, 10+0.1) or MOVES/BASE+INC (40 moves per 60 s: 40/60).
    #[arg(long)]
    tc: Option<String>,
    /// A player, twice (or more with --tournament): builtin[:PARAMS.toml] or
    /// uci:PATH[,option=value…] (arg=X adds an argument).
    #[arg(long = "player")]
    players: Vec<String>,
    /// More than two players: gauntlet (the first against each other) or
    /// round-robin (everyone against everyone), --games per pairing, each
    /// pairing in its own directory below the output.
    #[arg(long)]
    tournament: Option<TournamentKind>,
    /// Openings: start, random, range:A-B, list:FILE[,order=sequential|random] or
    /// file:FILE[,format=epd|pgn][,order=sequential|random][,plies=N] (a book, played as given).
    #[arg(long, verbatim_doc_comment)]
    openings: Option<String>,
    /// Random plies after each start (default: 4 after AFC's and chess's start, else 0).
    #[arg(long)]
    random_plies: Option<u32>,
    /// Output directory for Parquet (and PGN) files.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Seed of the openings.
    #[arg(long)]
    seed: Option<u64>,
    /// Also write games.pgn.
    #[arg(long)]
    pgn: bool,
    /// No progress bar or log lines.
    #[arg(long)]
    quiet: bool,
    /// Go on with a match that stopped (killed, a crash): give the command
    /// that started it, with --resume. The pairs its output directory holds
    /// are checked to be this match's and counted, and only the rest are
    /// played. A larger --games extends a finished match.
    #[arg(long, verbatim_doc_comment)]
    resume: bool,
    /// Stop when the SPRT crosses a bound (pentanomial counts, checked as each pair finishes).
    #[command(flatten)]
    sprt: SprtArgs,
}

pub(crate) fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let mut sprt = args.sprt.sprt()?;
    let file = match &args.config {
        Some(path) => read_match_file(path)?,
        None => MatchFile::default(),
    };
    if args.players.is_empty() && file.players.is_none() {
        if let Some(path) = &args.config {
            anyhow::bail!(
                "{}: players: none named; add two [[players]] tables, or --player builtin --player builtin for the builtin engine against itself",
                path.display()
            );
        }
        eprintln!(
            "players: none named; the builtin engine plays itself (ajaxlab-a against ajaxlab-b; --player names others)"
        );
    }
    let out_choice = if args.out.is_some() || file.out.is_some() {
        OutChoice::Named
    } else {
        OutChoice::Default
    };
    let overrides = Overrides {
        variant: args.variant,
        variants: args.variants,
        games: args.games,
        concurrency: args.concurrency,
        tc: args.tc,
        players: args.players,
        openings: args.openings,
        random_plies: args.random_plies,
        out: args.out,
        seed: args.seed,
    };
    let start = if args.resume {
        Start::Resume
    } else {
        Start::New
    };
    let progress = if args.quiet {
        Progress::Quiet
    } else {
        Progress::Auto
    };
    if let Some(kind) = args.tournament {
        let (mut base, field) = MatchConfig::build_field(file, overrides, 2..=64)?;
        base.pgn |= args.pgn;
        if start == Start::New {
            base.out = directory_for_new_games(base.out, out_choice)?;
        }
        let pairings = pairing_configs(&base, &field, kind);
        for (_, c) in &pairings {
            if start == Start::New && ajaxlab_arena::config::holds_games(&c.out) {
                anyhow::bail!(
                    "{} holds the games of an earlier run, which are never overwritten or added to: name a new directory with --out",
                    c.out.display()
                );
            }
        }
        eprintln!(
            "{kind} of {} players, {} pairings of {} games, output {}",
            field.len(),
            pairings.len(),
            base.pairs * 2,
            base.out.display()
        );
        let played = run_tournament(pairings, progress, start, |c| {
            eprintln!(
                "{} vs {} -> {}",
                c.players[0].name,
                c.players[1].name,
                c.out.display()
            );
        })?;
        for p in &played {
            outln!(
                "{} vs {}: {}",
                p.config.players[0].name,
                p.config.players[1].name,
                p.summary.stats
            )?;
        }
        outln!("rating table: ajaxlab report {}", base.out.display())?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut config = MatchConfig::build(file, overrides)?;
    config.pgn |= args.pgn;
    if start == Start::New {
        config.out = directory_for_new_games(config.out, out_choice)?;
    }
    eprintln!(
        "{}: {} vs {} ({} / {}), {} games, {} at once, openings {}, seed {}, output {}",
        config.variant,
        config.players[0].name,
        config.players[1].name,
        config.players[0].tc,
        config.players[1].tc,
        config.pairs * 2,
        config.concurrency,
        config.openings,
        config.seed,
        config.out.display()
    );
    let summary = match sprt.as_mut() {
        Some(sprt) => run_sprt_match(&config, progress, sprt, start)?,
        None => run_match(&config, progress, start)?,
    };
    let games = summary.stats.games();
    let played_now = games - summary.resumed_pairs * 2;
    if summary.resumed_pairs > 0 {
        outln!(
            "resumed: {} games were stored, {played_now} played now",
            summary.resumed_pairs * 2
        )?;
    }
    outln!(
        "{} vs {}: {}",
        config.players[0].name,
        config.players[1].name,
        summary.stats
    )?;
    outln!(
        "{played_now} games in {:.1} s ({:.0} games/hour)",
        summary.elapsed.as_secs_f64(),
        played_now as f64 * 3600.0 / summary.elapsed.as_secs_f64().max(1e-9)
    )?;
    if let Some(sprt) = &sprt {
        outln!("{}", sprt_line(sprt, summary.stats.pentanomial.pairs()))?;
    }
    for f in &summary.files {
        outln!("wrote {}", f.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// `SPRT <0.00, 5.00> logistic Elo  LLR 2.93 (-2.94, 2.94 Fishtest's
/// bounds)  H1 accepted after 12 pairs (1 pair played after the verdict:
/// stored, not in the test); the test's pairs: penta [0 1 4 5 2]`, or that
/// no bound was crossed before the cap.
fn sprt_line(sprt: &Sprt, played: u64) -> String {
    let verdict = match (sprt.decided_at(), sprt.counts()) {
        (Some(at), Some(Counts::Pentanomial(p))) => format!(
            "{}; the test's pairs: penta [{}]",
            verdict_text(sprt.status(), at, played),
            p.0.map(|n| n.to_string()).join(" ")
        ),
        (Some(at), _) => verdict_text(sprt.status(), at, played),
        (None, _) => format!("no bound crossed in {played} pairs (the cap: --games)"),
    };
    format!("{}  {verdict}", sprt.standing())
}
