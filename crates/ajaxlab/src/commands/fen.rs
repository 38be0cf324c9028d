//! `ajaxlab fen`: the FEN reached after a sequence of UCI moves.

use super::out::outln;
use super::position_args::PositionArgs;
use anyhow::Context;
use std::process::ExitCode;

/// Arguments of `ajaxlab fen`.
#[derive(Debug, clap::Args)]
pub(crate) struct FenArgs {
    #[command(flatten)]
    position: PositionArgs,
    /// UCI moves to play from the position, in order.
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
}

pub(crate) fn run(args: &FenArgs) -> anyhow::Result<ExitCode> {
    let mut pos = args.position.position()?;
    for (i, text) in args.moves.iter().enumerate() {
        let m = pos
            .parse_uci(text)
            .with_context(|| format!("move {} of --moves", i + 1))?;
        pos.play_unchecked(m);
    }
    outln!("{}", pos.fen())?;
    Ok(ExitCode::SUCCESS)
}
