use super::net::{Activation, NetProblem, Network};
use super::*;
use ajaxlab_rules::{StartSpec, VariantKind, VariantSet};

/// A seeded stream for picking moves.
fn pick(state: &mut u64, n: usize) -> usize {
    *state = state
        .wrapping_mul(6_364_136_223_846_793_005)
        .wrapping_add(1_442_695_040_888_963_407);
    ((*state >> 33) % n as u64) as usize
}

/// Plays random games of `variant` from its start and checks, after every
/// move (and after a null move), that the accumulators updated move by move
/// equal those computed from the position alone. Returns the positions
/// checked.
fn incremental_equals_refresh(variant: &'static Variant, games: usize, plies: usize) -> usize {
    let net = Arc::new(Network::random(variant, 32, Activation::SCReLU, 7));
    let mut eval = NetEval::new(Arc::clone(&net), variant).unwrap();
    let mut fresh = NetEval::new(net, variant).unwrap();
    let mut state = 11u64;
    let mut checked = 0;
    for game in 0..games {
        let spec = if variant.builtin() == Some(VariantKind::AjaxModernRandom) {
            StartSpec::Number(u32::try_from(game * 997 % 15_120).unwrap())
        } else {
            StartSpec::Default
        };
        let mut pos = Position::start_in(variant, &spec).unwrap();
        eval.refresh(0, &pos);
        for ply in 0..plies.min(MAX_PLY - 1) {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[pick(&mut state, moves.len())];
            let mut next = pos;
            next.play_unchecked(m);
            eval.descend(ply, &pos, &next);
            fresh.refresh(ply + 1, &next);
            assert_eq!(
                eval.accumulators(ply + 1),
                fresh.accumulators(ply + 1),
                "{variant} game {game}: after {} from {}",
                pos.uci(m),
                pos.fen()
            );
            assert_eq!(
                eval.evaluate(ply + 1, &next),
                fresh.evaluate(ply + 1, &next)
            );
            pos = next;
            checked += 1;
        }
        if pos.in_check() {
            continue;
        }
        let mut passed = pos;
        passed.play_null();
        let ply = plies.min(MAX_PLY - 1) - 1;
        eval.refresh(ply, &pos);
        eval.descend(ply, &pos, &passed);
        fresh.refresh(ply + 1, &passed);
        assert_eq!(eval.accumulators(ply + 1), fresh.accumulators(ply + 1));
    }
    checked
}

#[test]
fn the_accumulators_updated_move_by_move_equal_a_refresh_in_every_built_in() {
    for kind in VariantKind::ALL {
        let checked = incremental_equals_refresh(kind.variant(), 12, 120);
        assert!(checked > 1000, "{kind:?}: {checked} positions");
    }
}

#[test]
fn the_accumulators_updated_move_by_move_equal_a_refresh_in_a_file_variant_with_drops() {
    let set = VariantSet::with_text(
        "model-variants.ini",
        include_str!("../../../../tests/fsf/model-variants.ini"),
    )
    .unwrap();
    let dropwazir = set.find("dropwazir").unwrap();
    assert!(dropwazir.has_hand());
    assert!(incremental_equals_refresh(dropwazir, 12, 120) > 1000);
}

#[test]
fn a_network_file_reads_back_as_written_and_a_bad_one_is_refused_saying_why() {
    let afc = VariantKind::AjaxFalcon.variant();
    let net = Network::random(afc, 16, Activation::CReLU, 3);
    let bytes = net.to_bytes();
    assert_eq!(Network::from_bytes(&bytes).unwrap(), net);
    let problem = |bytes: &[u8]| Network::from_bytes(bytes).unwrap_err().to_string();
    assert!(
        problem(&bytes[..bytes.len() - 9]).starts_with("cut short"),
        "{}",
        problem(&bytes[..100])
    );
    let mut damaged = bytes.clone();
    damaged[200] ^= 1;
    assert!(problem(&damaged).contains("checksum"));
    assert!(problem(b"PK\x03\x04 a zip file").contains("not an ajaxlab network file"));
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(problem(&longer).contains("1 bytes after"));
    let amrc = VariantKind::AjaxModernRandom.variant();
    let e = net.fits(amrc).unwrap_err();
    assert!(matches!(e, NetProblem::Variant { .. }), "{e}");
    assert_eq!(
        e.to_string(),
        "a network for ajax-falcon, not for ajax-modern-random"
    );
    // A hidden width of 0: the header says so before anything else is read.
    let name = afc.name().len();
    let hidden_at = 8 + 4 + 4 + 2 + name + 8 + 4;
    let mut empty = bytes[..hidden_at].to_vec();
    empty.extend_from_slice(&0u32.to_le_bytes());
    assert_eq!(problem(&empty), "a hidden layer of 0 units");
    let dir = std::env::temp_dir().join(format!("ajaxlab-net-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("afc.nnue");
    net.write(&path).unwrap();
    assert_eq!(Network::read(&path, afc).unwrap(), net);
    let e = Network::read(&path, amrc).unwrap_err().to_string();
    assert!(
        e.starts_with(&path.display().to_string()) && e.contains("not for ajax-modern-random"),
        "{e}"
    );
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_search_with_a_network_is_deterministic_and_differs_from_the_classical_one() {
    use crate::engine::Engine;
    use crate::limits::Limits;
    use std::sync::atomic::AtomicBool;
    let afc = VariantKind::AjaxFalcon.variant();
    let search = |net: Option<Arc<Network>>| {
        let mut engine = Engine::new(4);
        engine.set_network(net);
        let start = Position::start_in(afc, &StartSpec::Default).unwrap();
        engine.set_position(start, &[]).unwrap();
        let limits = Limits {
            nodes: Some(3000),
            ..Limits::default()
        };
        let result = engine
            .go(&limits, &AtomicBool::new(false), &mut |_| {})
            .unwrap();
        (
            result.best,
            result.info.nodes,
            result.info.score,
            result.info.pv,
        )
    };
    let net = Arc::new(Network::random(afc, 64, Activation::SCReLU, 5));
    let first = search(Some(Arc::clone(&net)));
    assert_eq!(first, search(Some(net)));
    assert_ne!(first, search(None));
    let chess = Arc::new(Network::random(
        VariantKind::Chess.variant(),
        8,
        Activation::CReLU,
        1,
    ));
    let mut engine = Engine::new(1);
    engine.set_network(Some(chess));
    engine
        .set_position(Position::start_in(afc, &StartSpec::Default).unwrap(), &[])
        .unwrap();
    assert!(engine.check_network().is_err());
    assert!(
        engine
            .go(&Limits::default(), &AtomicBool::new(false), &mut |_| {})
            .is_none()
    );
}
