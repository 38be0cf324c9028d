//! `ajaxlab`: one binary, one subcommand per job.

mod commands;

use clap::Parser;
use std::io::IsTerminal;

/// mimalloc rather than the system allocator: a coordinator decodes,
/// converts and writes millions of small records a minute across threads,
/// where glibc's allocator spent about a quarter of the time (measured with
/// `ajaxlab loadgen`; see the README's Speed section).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    let cli = commands::Cli::parse();
    init_tracing(cli.default_log_filter());
    match commands::run(cli) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {}", error_text(&err));
            std::process::ExitCode::FAILURE
        }
    }
}

/// The error and its causes, `: `-separated, leaving out a cause whose
/// text the message already carries (many errors name their source).
fn error_text(err: &anyhow::Error) -> String {
    let mut text = err.to_string();
    for cause in err.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text.push_str(": ");
            text.push_str(&cause);
        }
    }
    text
}

/// Logs to stderr what `default` lets through (the command's choice)
/// unless `RUST_LOG` says otherwise (`RUST_LOG=warn`,
/// `RUST_LOG=ajaxlab_cluster=debug`); in colour only on a terminal, so
/// that a log file (a Slurm job's output, `docker logs`) holds plain text.
fn init_tracing(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .try_init();
}
