//! `ajaxlab uci`: the engine's UCI front end on standard input and output.

use std::process::ExitCode;

pub(crate) fn run() -> anyhow::Result<ExitCode> {
    let stdin = std::io::stdin();
    ajaxlab_engine::uci::run(stdin.lock(), std::io::stdout());
    Ok(ExitCode::SUCCESS)
}
