//! `ajaxlab`: one binary, one subcommand per job.

mod commands;

use clap::Parser;

fn main() -> std::process::ExitCode {
    let cli = commands::Cli::parse();
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
