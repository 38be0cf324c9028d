//! The bench: a fixed set of positions of every variant searched to a fixed
//! depth. Its node total is the engine's determinism signature: a build
//! that changes it searches differently.

use crate::engine::Engine;
use crate::limits::Limits;
use ajaxlab_rules::{Position, VariantKind};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Depth of the standard bench.
pub const BENCH_DEPTH: u32 = 8;

/// The bench positions.
pub const POSITIONS: &[(VariantKind, &str)] = &[
    (
        VariantKind::AjaxFalcon,
        "rnbmqkmbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBMQKMBNR[FFff] w KQkq - 0 1",
    ),
    (
        VariantKind::AjaxFalcon,
        "r4k3r/ppp1mqm1Pp/2n1b2n2/1b1pP5/2B7/2N2M1N2/PPPP1QPPPP/R4K3R[FFf] w KQkq d6 0 20",
    ),
    (
        VariantKind::AjaxFalcon,
        "4k5/p2n1pp1pp/1R1m2n3/2Pp1f4/BPp1F5/5N4/P1p2PPPPP/3Q1K2BR[Ff] b - b3 0 30",
    ),
    (
        VariantKind::AjaxModernRandom,
        "rnbaqkbnr/ppppppppp/9/9/9/9/9/PPPPPPPPP/RNBKQABNR[MMmm] w IABCDEFGHiabcdefgh - 0 1",
    ),
    (
        VariantKind::AjaxModernRandom,
        "nrbaqbkrn/ppppppppp/9/9/9/9/9/PPPPPPPPP/NRKBQABRN[MMmm] w HBACDEFGIhbacdefgi - 0 1",
    ),
    (
        VariantKind::AjaxModernRandom,
        "1r4kr1/ppbnm1ppp/2pa2qn1/3pPp3/6b2/2BP2B2/3QN1PN1/PPP2A1PP/1RK4R1[MMm] w HBChbg f7 0 12",
    ),
    (
        VariantKind::Chess,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (
        VariantKind::Chess,
        "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    ),
    (
        VariantKind::Chess,
        "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    ),
    (
        VariantKind::Chess960,
        "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1",
    ),
];

/// What the bench measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Total nodes: the determinism signature.
    pub nodes: u64,
    /// Time spent searching.
    pub time: Duration,
    /// Nodes per position, in [`POSITIONS`] order.
    pub per_position: Vec<u64>,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.time.as_secs_f64().max(1e-9)) as u64
    }
}

/// Searches every bench position to `depth` with a fresh 16 MB table each.
pub fn run(engine: &mut Engine, depth: u32) -> BenchReport {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut per_position = Vec::with_capacity(POSITIONS.len());
    let started = Instant::now();
    for &(variant, fen) in POSITIONS {
        let Ok(pos) = Position::from_fen(variant, fen) else {
            continue;
        };
        engine.new_game();
        if engine.set_position(pos, &[]).is_err() {
            continue;
        }
        let nodes = engine
            .go(&limits, &stop, &mut |_| {})
            .map_or(0, |r| r.info.nodes);
        per_position.push(nodes);
    }
    BenchReport {
        nodes: per_position.iter().sum(),
        time: started.elapsed(),
        per_position,
    }
}
