//! Property tests over random playouts of every variant, and parser fuzzing.
//!
//! Playouts check, at every position: the internals agree (bitboards,
//! mailbox, incremental hash = hash from scratch); FEN → position → FEN
//! round-trips; every legal move's UCI and SAN text parse back to the same
//! move; every legal move leaves the mover's king safe; the bulk count equals
//! the generated list, and the early-stopping test for any legal move agrees
//! with it (here and after every move); the tactical generator gives exactly
//! the legal captures and promotions; and taking a move back restores the
//! exact position.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::{
    AMRC_START_COUNT, CHESS960_START_COUNT, Game, PerftSuite, Position, StartSpec, UciMove,
    VariantKind,
};
use proptest::prelude::*;

fn start(variant_index: usize, number: u32) -> Position {
    let variant = VariantKind::ALL[variant_index % VariantKind::ALL.len()];
    let spec = match variant {
        VariantKind::AjaxModernRandom => StartSpec::Number(number % AMRC_START_COUNT),
        VariantKind::Chess960 => StartSpec::Number(number % CHESS960_START_COUNT),
        _ => StartSpec::Default,
    };
    Position::start(variant, &spec).expect("start exists")
}

fn check_position(pos: &Position) -> Result<(), TestCaseError> {
    prop_assert_eq!(pos.validate_internals(), Ok(()));
    prop_assert_eq!(pos.hash(), pos.hash_from_scratch());
    let fen = pos.fen();
    let reparsed = Position::from_fen_in(pos.variant(), &fen);
    prop_assert_eq!(reparsed.as_ref(), Ok(pos), "FEN round trip of {}", fen);
    let moves = pos.legal_moves();
    prop_assert_eq!(pos.count_legal_moves(), moves.len() as u64);
    prop_assert_eq!(pos.has_legal_move(), !moves.is_empty(), "{}", fen);
    let mut tactical: Vec<_> = pos.legal_tactical_moves().iter().copied().collect();
    let mut expected: Vec<_> = moves
        .iter()
        .copied()
        .filter(|&m| pos.captured_kind(m).is_some() || m.promotion_kind().is_some())
        .collect();
    tactical.sort_by_key(|m| m.to_bits());
    expected.sort_by_key(|m| m.to_bits());
    prop_assert_eq!(tactical, expected, "tactical moves of {}", fen);
    let mover = pos.side_to_move();
    for &m in moves.iter() {
        let uci = pos.uci(m).to_string();
        prop_assert_eq!(
            pos.parse_uci(&uci),
            Ok(m),
            "UCI round trip of {} in {}",
            uci,
            fen
        );
        let san = pos.san(m);
        prop_assert_eq!(
            pos.parse_san(&san),
            Ok(m),
            "SAN round trip of {} in {}",
            san,
            fen
        );
        let mut next = *pos;
        next.play_unchecked(m);
        prop_assert_eq!(
            next.has_legal_move(),
            next.count_legal_moves() > 0,
            "after {} in {}",
            uci,
            fen
        );
        let king = next.king_square(mover);
        let attackers = next.attackers_to(king, next.occupied(), next.color_pieces(!mover), !mover);
        prop_assert!(
            attackers.is_empty(),
            "{} leaves the king in check in {}",
            uci,
            fen
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn random_playouts_keep_every_invariant(
        variant in 0usize..4,
        number in 0u32..20_000,
        choices in proptest::collection::vec(any::<u16>(), 1..90),
    ) {
        let mut game = Game::new(start(variant, number));
        for choice in choices {
            let pos = *game.position();
            check_position(&pos)?;
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = moves[usize::from(choice) % moves.len()];
            game.play(m).expect("generated moves are legal");
            prop_assert_eq!(game.undo(), Some(m));
            prop_assert_eq!(*game.position(), pos, "undo restores the exact position");
            game.play(m).expect("generated moves are legal");
        }
    }

    #[test]
    fn fen_parser_never_panics_on_arbitrary_text(text in "\\PC{0,120}") {
        for variant in VariantKind::ALL {
            let _ = Position::from_fen(variant, &text);
        }
    }

    #[test]
    fn fen_parser_never_panics_on_fen_like_text(
        text in "[rnbqkpmafRNBQKPMAFA-Jabcdefghij0-9/\\[\\] w\\-~]{0,100}"
    ) {
        for variant in VariantKind::ALL {
            if let Ok(pos) = Position::from_fen(variant, &text) {
                // Whatever parses prints a FEN that parses to the same position.
                prop_assert_eq!(Position::from_fen(variant, &pos.fen()), Ok(pos));
            }
        }
    }

    #[test]
    fn mutated_fens_parse_or_fail_cleanly(
        variant in 0usize..4,
        number in 0u32..20_000,
        edits in proptest::collection::vec((any::<u8>(), "[rnbqkpmafRNBQKPMAF0-9a-j/\\[\\] \\-]"), 1..4),
    ) {
        let pos = start(variant, number);
        let mut fen: Vec<char> = pos.fen().chars().collect();
        for (at, replacement) in edits {
            let i = usize::from(at) % fen.len();
            fen[i] = replacement.chars().next().unwrap_or(' ');
        }
        let text: String = fen.into_iter().collect();
        if let Ok(p) = Position::from_fen_in(pos.variant(), &text) {
            prop_assert_eq!(Position::from_fen_in(pos.variant(), &p.fen()), Ok(p));
            let _ = p.legal_moves();
        }
    }

    #[test]
    fn uci_and_san_parsers_never_panic(text in "\\PC{0,24}", san in "[KQRBNMAFPa-k0-9x=+#()O@-]{0,12}") {
        let _ = UciMove::parse(&text);
        for variant in VariantKind::ALL {
            let pos = start(variant as usize, 7813);
            let _ = pos.parse_uci(&text);
            let _ = pos.parse_san(&text);
            let _ = pos.parse_san(&san);
        }
    }

    #[test]
    fn perft_suite_parser_never_panics(text in "\\PC{0,200}") {
        let _ = PerftSuite::parse(&text);
    }
}
