//! `ajaxlab bench perft`: perft speed over the public suite positions,
//! optionally against a Fairy-Stockfish binary measured in the same run.

use super::out::outln;
use ajaxlab_arena::player::fsf_perft::FsfPerft;
use ajaxlab_rules::{Position, VariantKind, perft};
use anyhow::{Context, bail};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `ajaxlab bench`.
#[derive(Debug, clap::Args)]
pub(crate) struct BenchArgs {
    #[command(subcommand)]
    what: Option<BenchKind>,
    /// Search depth of the engine bench.
    #[arg(long, default_value_t = ajaxlab_engine::bench::BENCH_DEPTH)]
    depth: u32,
}

#[derive(Debug, clap::Subcommand)]
enum BenchKind {
    /// Perft nodes per second, single thread, bulk-counted leaves.
    Perft {
        /// Also time this Fairy-Stockfish binary on the same positions
        /// (build one with scripts/build-fsf.sh).
        #[arg(long)]
        fsf: Option<PathBuf>,
        /// Variant definitions for Fairy-Stockfish.
        #[arg(long, default_value = "tests/fsf/fsf-variants.ini")]
        fsf_variants: PathBuf,
        /// Use the smaller depths (seconds instead of a minute).
        #[arg(long)]
        quick: bool,
    },
}

/// The benchmark positions: the reference points and one middlegame each.
const POSITIONS: &[(VariantKind, &str, u32)] = &[
    (
        VariantKind::AjaxFalcon,
        "rnbmqkmbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBMQKMBNR[FFff] w KQkq - 0 1",
        5,
    ),
    (
        VariantKind::AjaxFalcon,
        "r4k3r/ppp1mqm1Pp/2n1b2n2/1b1pP5/2B7/2N2M1N2/PPPP1QPPPP/R4K3R[FFf] w KQkq d6 0 20",
        4,
    ),
    (
        VariantKind::AjaxModernRandom,
        "nrbaqbkrn/ppppppppp/9/9/9/9/9/PPPPPPPPP/NRKBQABRN[MMmm] w HBACDEFGIhbacdefgi - 0 1",
        5,
    ),
    (
        VariantKind::AjaxModernRandom,
        "1r4kr1/ppbnm1ppp/2pa2qn1/3pPp3/6b2/2BP2B2/3QN1PN1/PPP2A1PP/1RK4R1[MMm] w HBChbg f7 0 12",
        4,
    ),
    (
        VariantKind::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
        4,
    ),
];

pub(crate) fn run(args: &BenchArgs) -> anyhow::Result<std::process::ExitCode> {
    let Some(BenchKind::Perft {
        fsf,
        fsf_variants,
        quick,
    }) = &args.what
    else {
        return engine_bench(args.depth);
    };
    let mut fsf_engine = match fsf {
        Some(path) => Some(FsfPerft::start(path, fsf_variants)?),
        None => None,
    };
    outln!(
        "{:<20} {:>5} {:>12} {:>10} {:>12} {:>10} {:>7}",
        "position",
        "depth",
        "nodes",
        "ajaxlab",
        "Mnps",
        "fsf Mnps",
        "ratio"
    )?;
    let (mut ours_nodes, mut ours_secs, mut fsf_secs) = (0u64, 0f64, 0f64);
    for &(variant, fen, depth) in POSITIONS {
        let depth = if *quick { depth - 1 } else { depth };
        let pos = Position::from_fen(variant, fen).with_context(|| fen.to_owned())?;
        let started = Instant::now();
        let nodes = perft(&pos, depth);
        let secs = started.elapsed().as_secs_f64();
        ours_nodes += nodes;
        ours_secs += secs;
        let mnps = nodes as f64 / secs / 1e6;
        let (fsf_col, ratio_col) = match fsf_engine.as_mut() {
            Some(engine) => {
                let (fsf_nodes, fsf_time) = engine.perft(variant, fen, depth)?;
                let fsf_time = fsf_time.as_secs_f64();
                if fsf_nodes != nodes {
                    bail!(
                        "Fairy-Stockfish counts {fsf_nodes} nodes, ajaxlab {nodes}: {fen} depth {depth}"
                    );
                }
                fsf_secs += fsf_time;
                let fsf_mnps = nodes as f64 / fsf_time / 1e6;
                (format!("{fsf_mnps:.1}"), format!("{:.2}x", mnps / fsf_mnps))
            }
            None => ("-".to_owned(), "-".to_owned()),
        };
        outln!(
            "{:<20} {depth:>5} {nodes:>12} {secs:>9.2}s {mnps:>12.1} {fsf_col:>10} {ratio_col:>7}",
            variant.name()
        )?;
    }
    let total = ours_nodes as f64 / ours_secs / 1e6;
    if fsf_engine.is_some() {
        let fsf_total = ours_nodes as f64 / fsf_secs / 1e6;
        outln!(
            "total: ajaxlab {total:.1} Mnps, Fairy-Stockfish {fsf_total:.1} Mnps, ratio {:.2}x",
            total / fsf_total
        )?;
    } else {
        outln!("total: ajaxlab {total:.1} Mnps")?;
    }
    Ok(std::process::ExitCode::SUCCESS)
}

/// Searches the bench positions; prints the node signature and the speed.
fn engine_bench(depth: u32) -> anyhow::Result<std::process::ExitCode> {
    let mut engine = ajaxlab_engine::Engine::new(ajaxlab_engine::DEFAULT_HASH_MB);
    let report = ajaxlab_engine::bench::run(&mut engine, depth);
    for ((variant, fen), nodes) in ajaxlab_engine::bench::POSITIONS
        .iter()
        .zip(&report.per_position)
    {
        outln!("{:<20} {nodes:>10}  {fen}", variant.name())?;
    }
    outln!("depth {depth}")?;
    outln!("time {} ms", report.time.as_millis())?;
    outln!("nps {}", report.nps())?;
    outln!("nodes {}", report.nodes)?;
    Ok(std::process::ExitCode::SUCCESS)
}
