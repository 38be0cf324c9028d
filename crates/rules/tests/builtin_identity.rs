//! The built-in variants' identity, pinned: hash keys and the order moves
//! are generated in. The engine's bench signature depends on both, so a
//! change in how the built-ins are defined (since issue 14, step 3, read
//! from `configs/variants/ajaxlab.ini`) that moves a kind to another index
//! or reorders the pieces fails here, before the bench shows it.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::{Position, StartSpec, VariantKind};

/// FNV-1a over the UCI moves in generation order and the position hashes
/// along a fixed walk of `plies` from `start`.
fn fingerprint(start: &Position, plies: usize) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |bytes: &[u8]| {
        for b in bytes {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut pos = *start;
    for ply in 0..plies {
        eat(&pos.hash().to_le_bytes());
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        for m in moves.iter() {
            eat(pos.uci(*m).to_string().as_bytes());
        }
        let m = moves[(ply * 7 + 3) % moves.len()];
        pos.play(m).unwrap();
    }
    h
}

#[test]
fn built_in_hashes_and_move_order_are_unchanged() {
    let cases = [
        (VariantKind::AjaxFalcon, StartSpec::Default),
        (VariantKind::AjaxModernRandom, StartSpec::Default),
        (VariantKind::AjaxModernRandom, StartSpec::Number(77)),
        (VariantKind::Chess, StartSpec::Default),
        (VariantKind::Chess960, StartSpec::Number(0)),
    ];
    let got: Vec<u64> = cases
        .iter()
        .map(|(v, s)| fingerprint(&Position::start(*v, s).unwrap(), 120))
        .collect();
    // Computed by the hand-written definitions before the switch to the file.
    let pinned = [
        0x7881_af43_683e_8a6f,
        0xc932_1130_6fb7_765f,
        0xac58_b2bc_d772_93ad,
        0xd106_a5c4_5770_179b,
        0xa5fd_f2f5_2553_360c,
    ];
    assert_eq!(got, pinned, "{got:x?}");
}
