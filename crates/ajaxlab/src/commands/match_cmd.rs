//! `ajaxlab match`: a match between two players from a TOML config, with
//! the common settings as flags that override it; with `--sprt` it stops
//! at the test's verdict. It is played as a campaign in its directory
//! (`ajaxlab_cluster::local`), as `campaign run` plays one: the flags
//! written into the file make the campaign's file.

use super::out::outln;
use super::sprt_args::SprtArgs;
use ajaxlab_arena::config::{OutChoice, directory_for_new_games, read_match_file};
use ajaxlab_arena::pair::check_player;
use ajaxlab_arena::tournament::TournamentKind;
use ajaxlab_arena::{MatchConfig, MatchFile, Overrides};
use ajaxlab_cluster::local::matches::{match_campaign, match_outcome, pairing_campaigns};
use ajaxlab_cluster::local::{CampaignDraft, CampaignText, LocalSummary, run_in};
use ajaxlab_stats::{Counts, Sprt, verdict_text};
use std::path::{Path, PathBuf};
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
    /// pairing a campaign of its own in the output directory.
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
    /// that started it, with --resume. The match its output directory holds
    /// must be this one (another time control, player, seed or opening is
    /// refused, naming it); only the units in flight are played again. A
    /// larger --games extends a finished match.
    #[arg(long, verbatim_doc_comment)]
    resume: bool,
    /// Stop when the SPRT crosses a bound (pentanomial counts, checked as each pair finishes).
    #[command(flatten)]
    sprt: SprtArgs,
}

pub(crate) fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let sprt = args.sprt.sprt()?;
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
    let run = Run {
        resume: args.resume,
        out_choice,
        quiet: args.quiet,
    };
    let mut written = file.clone().with_overrides(overrides.clone())?;
    if args.pgn {
        written.pgn = Some(true);
    }
    match args.tournament {
        Some(kind) => tournament(&run, file, overrides, &written, kind),
        None => one_match(&run, file, overrides, &written, sprt.as_ref()),
    }
}

/// How a match runs, beside what it plays.
struct Run {
    /// Going on with the run its directory holds.
    resume: bool,
    /// How its directory was chosen.
    out_choice: OutChoice,
    /// No progress.
    quiet: bool,
}

impl Run {
    /// The directory of a match whose own is `out`: a new one's holds no
    /// earlier run.
    fn directory(&self, out: PathBuf) -> anyhow::Result<PathBuf> {
        Ok(if self.resume {
            out
        } else {
            directory_for_new_games(out, self.out_choice)?
        })
    }

    /// Plays `campaigns` in `dir` with `threads` games at once; a new
    /// directory that ends up holding no games is removed on failure.
    fn play(
        &self,
        dir: &Path,
        campaigns: &[CampaignText],
        threads: usize,
    ) -> anyhow::Result<LocalSummary> {
        let drafts = campaigns
            .iter()
            .map(|c| CampaignDraft::read(c.clone()))
            .collect::<Result<Vec<_>, _>>()?;
        let created = !dir.exists();
        let played = run_in(dir, &drafts, threads, self.quiet);
        if played.is_err() && created && !holds_any_game(dir) {
            let _ = std::fs::remove_dir_all(dir);
        }
        Ok(played?)
    }
}

/// Whether a games file lies below `dir`.
fn holds_any_game(dir: &Path) -> bool {
    ajaxlab_store::find::games_files(&[dir.display().to_string()]).is_ok()
}

fn one_match(
    run: &Run,
    file: MatchFile,
    overrides: Overrides,
    written: &MatchFile,
    sprt: Option<&Sprt>,
) -> anyhow::Result<ExitCode> {
    let mut config = MatchConfig::build(file, overrides)?;
    config.out = run.directory(config.out)?;
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
    for player in &config.players {
        check_player(player, config.hash_mb)?;
    }
    let campaign = match_campaign(written, &config.run_id, sprt.map(Sprt::config))?;
    let summary = run.play(&config.out, &[campaign], config.concurrency)?;
    let [played] = summary.campaigns.as_slice() else {
        anyhow::bail!("{}: one campaign expected", config.out.display());
    };
    let outcome = match_outcome(played)?;
    let games = outcome.stats.games();
    let played_now = games.saturating_sub(played.pairs_before * 2);
    if played.pairs_before > 0 {
        outln!(
            "resumed: {} games were stored, {played_now} played now",
            played.pairs_before * 2
        )?;
    }
    outln!(
        "{} vs {}: {}",
        config.players[0].name,
        config.players[1].name,
        outcome.stats
    )?;
    outln!(
        "{played_now} games in {:.1} s ({:.0} games/hour)",
        summary.elapsed.as_secs_f64(),
        played_now as f64 * 3600.0 / summary.elapsed.as_secs_f64().max(1e-9)
    )?;
    if let Some(test) = &played.test {
        outln!("{}", sprt_line(test, outcome.stats.pentanomial.pairs()))?;
    }
    for f in &outcome.files {
        outln!("wrote {}", f.display())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn tournament(
    run: &Run,
    file: MatchFile,
    overrides: Overrides,
    written: &MatchFile,
    kind: TournamentKind,
) -> anyhow::Result<ExitCode> {
    let (mut base, field) = MatchConfig::build_field(file, overrides, 2..=64)?;
    base.out = run.directory(base.out)?;
    let campaigns = pairing_campaigns(written, &field, kind)?;
    eprintln!(
        "{kind} of {} players, {} pairings of {} games, output {}",
        field.len(),
        campaigns.len(),
        base.pairs * 2,
        base.out.display()
    );
    for player in &field {
        check_player(player, base.hash_mb)?;
    }
    let summary = run.play(&base.out, &campaigns, base.concurrency)?;
    // The campaigns come back in the order of the pairings.
    for ((a, b), played) in kind
        .pairings(field.len())
        .into_iter()
        .zip(&summary.campaigns)
    {
        let outcome = match_outcome(played)?;
        outln!("{} vs {}: {}", field[a].name, field[b].name, outcome.stats)?;
    }
    outln!("rating table: ajaxlab report {}", base.out.display())?;
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
