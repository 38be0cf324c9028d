//! `ajaxlab`: one binary, one subcommand per job.

mod commands;

use clap::Parser;

/// mimalloc rather than the system allocator: a coordinator decodes,
/// converts and writes millions of small records a minute across threads,
/// where glibc's allocator spent about a quarter of the time (measured with
/// `ajaxlab loadgen`; see the README's Speed section).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
