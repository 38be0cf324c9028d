//! Command-line interface: argument parsing and dispatch to one module per
//! subcommand.

mod bench;
mod book;
mod check;
mod cluster;
mod datagen;
mod fen;
mod loadgen;
mod match_cmd;
mod out;
mod params;
mod perft;
mod position_args;
mod report;
mod sprt_args;
mod stats;
mod train;
mod tune;
mod uci;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Fast engine games of the Ajax chess variants, and the answers they give.
#[derive(Debug, Parser)]
#[command(name = "ajaxlab", version, about, long_about = None)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Count the leaves of the legal move tree (one position, or a .perft suite).
    Perft(perft::PerftArgs),
    /// Print the FEN reached from a start position after UCI moves.
    Fen(fen::FenArgs),
    /// Check a variants file: every section, every error with its line.
    Check(check::CheckArgs),
    /// Engine bench (node-count signature and speed), or perft speed.
    Bench(bench::BenchArgs),
    /// Play a match between two players and store every game as Parquet.
    Match(match_cmd::MatchArgs),
    /// Training positions from self-play, one Parquet row each.
    Datagen(datagen::DatagenArgs),
    /// Generate an opening book of balanced positions.
    Book(book::BookArgs),
    /// Campaigns: run one on this machine, or control a coordinator's.
    Campaign(cluster::CampaignArgs),
    /// Run a coordinator: hands out work, validates and stores the games.
    Coordinator(cluster::CoordinatorArgs),
    /// Run a worker for a coordinator.
    Worker(cluster::WorkerArgs),
    /// Load-test a coordinator with simulated workers (synthetic games).
    Loadgen(loadgen::LoadgenArgs),
    /// Issue a worker or operator token for a coordinator.
    Token(cluster::TokenArgs),
    /// Elo, nElo, LOS and SPRT LLR from result counts played anywhere.
    Stats(stats::StatsArgs),
    /// Tables and plots (SVG, PNG) of every run stored below a directory.
    Report(report::ReportArgs),
    /// Run the engine as a UCI engine on standard input/output.
    Uci(uci::UciArgs),
    /// Print the engine's tunable parameters.
    Params(params::ParamsArgs),
    /// Fit the evaluation's parameters to the results of stored games (Texel).
    Tune(tune::TuneArgs),
    /// Train a network for a variant from the positions of `ajaxlab datagen`.
    Train(train::TrainArgs),
}

impl Cli {
    /// What is logged unless `RUST_LOG` says otherwise: the services that
    /// run for days (coordinator, worker) say what they do at info level
    /// (campaigns created, units at a readable rate, verdicts, exclusions);
    /// commands with their own output, warnings and errors only.
    pub(crate) fn default_log_filter(&self) -> &'static str {
        match self.command {
            Command::Coordinator(_) | Command::Worker(_) => "warn,ajaxlab_cluster=info",
            _ => "warn",
        }
    }
}

/// Runs the parsed command line; one that meets a closed standard output
/// (`| head -1`) ends quietly with [`out::CLOSED_EXIT`].
pub(crate) fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match dispatch(cli) {
        Err(e) if out::is_closed(&e) => Ok(ExitCode::from(out::CLOSED_EXIT)),
        result => result,
    }
}

fn dispatch(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Perft(args) => perft::run(&args),
        Command::Fen(args) => fen::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Bench(args) => bench::run(&args),
        Command::Uci(args) => uci::run(&args),
        Command::Stats(args) => stats::run(&args),
        Command::Report(args) => report::run(args),
        Command::Campaign(args) => cluster::campaign(args),
        Command::Coordinator(args) => cluster::coordinator(&args),
        Command::Worker(args) => cluster::worker(&args),
        Command::Token(args) => cluster::token(&args),
        Command::Loadgen(args) => loadgen::loadgen(&args),
        Command::Match(args) => match_cmd::run(args),
        Command::Datagen(args) => datagen::run(args),
        Command::Book(args) => book::run(&args),
        Command::Params(args) => params::run(&args),
        Command::Tune(args) => tune::run(&args),
        Command::Train(args) => train::run(&args),
    }
}
