//! The Betza and variants.ini parsers, and the loading of what they accept
//! as a variant, on arbitrary and mutated input: they return a value or an
//! error, never panic (as the FEN parser is fuzzed in
//! `properties.rs`).

use ajaxlab_rules::Variant;
use ajaxlab_rules::betza::{PieceMoves, Reach, Step};
use ajaxlab_rules::ini::parse_variants;
use proptest::prelude::*;

const AJAX_FILE: &str = include_str!("../../../tests/fsf/fsf-variants.ini");

/// Whatever parses is well formed: every step has targets of its atom, and
/// lame paths end.
fn check_moves(moves: &PieceMoves) -> Result<(), TestCaseError> {
    for step in &moves.steps {
        prop_assert!(!step.offsets.is_empty());
        for o in &step.offsets {
            let (x, y) = (o.dx.abs(), o.dy.abs());
            prop_assert_eq!((x.max(y), x.min(y)), (step.atom.long, step.atom.short));
            if step.reach == Reach::Lame {
                prop_assert!(Step::lame_path(*o).len() < 3);
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn betza_parser_never_panics(text in "\\PC{0,30}") {
        if let Ok(moves) = PieceMoves::parse(&text) {
            check_moves(&moves)?;
        }
    }

    #[test]
    fn betza_parser_never_panics_on_betza_like_text(text in "[WFDNAHCZGKQRBLJmcnfblrvsh0-9pgie]{0,16}") {
        match PieceMoves::parse(&text) {
            Ok(moves) => check_moves(&moves)?,
            Err(e) => prop_assert!(e.position >= 1 && e.position <= text.chars().count().max(1) + 1),
        }
    }

    #[test]
    fn ini_parser_never_panics_on_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        let text = String::from_utf8_lossy(&bytes);
        let _ = parse_variants("fuzz.ini", &text);
    }

    #[test]
    fn ini_parser_never_panics_on_ini_like_lines(
        lines in proptest::collection::vec(
            "(\\[[a-z]{1,3}(:[a-z]{1,5})?\\]|[a-zA-Z]{1,12} ?= ?[a-zA-Z0-9*:/\\[\\] -]{0,20}|#.{0,5}|.{0,10})",
            0..30,
        ),
    ) {
        let _ = parse_variants("fuzz.ini", &lines.join("\n"));
    }

    #[test]
    fn mutated_ajax_files_parse_or_fail_cleanly(
        edits in proptest::collection::vec((any::<u16>(), "[a-zA-Z0-9*:=/\\[\\]# \n-]"), 1..6),
    ) {
        let mut text: Vec<char> = AJAX_FILE.chars().collect();
        for (at, replacement) in edits {
            let i = usize::from(at) % text.len();
            text[i] = replacement.chars().next().unwrap_or(' ');
        }
        let text: String = text.into_iter().collect();
        match parse_variants("mutated.ini", &text) {
            Ok(specs) => for spec in specs {
                for piece in &spec.pieces {
                    check_moves(&piece.moves)?;
                }
                // What the reader accepts loads as a variant or is refused
                // with at least one problem named; never a panic.
                if let Err(error) = Variant::load(&spec) {
                    prop_assert!(!error.problems.is_empty());
                    prop_assert_eq!(&error.variant, &spec.name);
                }
            },
            Err(errors) => for e in &errors.0 {
                prop_assert!(e.line >= 1 && e.line <= text.lines().count().max(1));
            },
        }
    }
}
