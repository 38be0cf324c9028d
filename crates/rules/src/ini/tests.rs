//! Each error the reader reports, named by file, line and key; and the
//! keys it reads.

use super::*;
use crate::betza::BetzaErrorKind;

fn errors(text: &str) -> Vec<IniError> {
    match parse_variants("test.ini", text) {
        Ok(specs) => panic!("expected errors, got {specs:?}"),
        Err(IniErrors(errors)) => errors,
    }
}

/// The one error of `text`, as (line, key, kind).
fn one(text: &str) -> (usize, String, IniErrorKind) {
    let mut all = errors(text);
    assert_eq!(all.len(), 1, "{all:?}");
    let e = all.remove(0);
    assert_eq!(e.file, "test.ini");
    (e.line, e.key, e.kind)
}

fn parsed(text: &str) -> VariantSpec {
    let mut specs = parse_variants("test.ini", text).unwrap_or_else(|e| panic!("{e}"));
    specs
        .pop()
        .unwrap_or_else(|| panic!("no variant in {text}"))
}

fn refused(kind: &IniErrorKind, needle: &str) -> bool {
    matches!(kind, IniErrorKind::Refused(why) if why.contains(needle))
}

#[test]
fn a_section_with_a_built_in_parent_is_chess() {
    let spec = parsed("# a comment\n; another\n\n[mini:chess]\n");
    assert_eq!((spec.name.as_str(), spec.files, spec.ranks), ("mini", 8, 8));
    assert_eq!(spec.promotions, ['Q', 'R', 'B', 'N']);
    assert_eq!(spec.hand, HandSpec::None);
    assert!(matches!(
        spec.castling,
        CastlingSpec::Castles {
            chess960: false,
            rook: 'R',
            ..
        }
    ));
    assert_eq!(spec.end.stalemate, GameValue::Draw);
}

#[test]
fn a_malformed_line_is_named_by_its_number_never_echoed() {
    for text in [
        "[v:chess]\nroot:SECRET:0:0\n",
        "[v:chess]\nexport SECRET = 1\n",
    ] {
        let all = errors(text);
        let shown = all.iter().map(ToString::to_string).collect::<String>();
        assert!(
            shown.starts_with("test.ini:2: line: malformed line"),
            "{shown}"
        );
        assert!(!shown.contains("SECRET"), "{shown}");
    }
}

#[test]
fn a_malformed_line_is_named() {
    assert!(matches!(
        one("[v:chess]\nthis is no key\n"),
        (2, _, IniErrorKind::Malformed(_))
    ));
    assert!(matches!(
        one("[v:chess\n"),
        (1, _, IniErrorKind::Malformed(_))
    ));
    assert!(
        matches!(one("pawn = p\n[v:chess]\n"), (1, k, IniErrorKind::Malformed(_)) if k == "pawn")
    );
    let (line, key, kind) = one("[v:chess]\nmaxFile = ten\n");
    assert_eq!((line, key.as_str()), (2, "maxFile"));
    assert!(matches!(kind, IniErrorKind::BadValue { .. }));
}

#[test]
fn an_unknown_key_is_named() {
    assert_eq!(
        one("[v:chess]\n\nfooBar = 1\n"),
        (3, "fooBar".into(), IniErrorKind::UnknownKey(None))
    );
}

#[test]
fn a_misspelt_key_is_told_the_key_it_is_closest_to() {
    for (written, meant) in [
        ("startfen", "startFen"),
        ("StartFen", "startFen"),
        ("maxFiles", "maxFile"),
        ("castlingRokPieces", "castlingRookPieces"),
        ("custompiece3", "customPiece3"),
        ("stalemateValeu", "stalemateValue"),
        ("flagRegon", "flagRegion"),
    ] {
        let (_, key, kind) = one(&format!("[v:chess]\n{written} = 1\n"));
        assert_eq!(key, written);
        assert_eq!(
            kind,
            IniErrorKind::UnknownKey(Some(meant.into())),
            "{written}"
        );
        assert!(
            kind.to_string()
                .ends_with(&format!("did you mean '{meant}'?"))
        );
    }
}

#[test]
fn every_key_read_is_a_key_the_reader_takes() {
    for key in super::keys::READ {
        let errors = super::parse_variants("t.ini", &format!("[v:chess]\n{key} = x\n"))
            .err()
            .map(|e| e.0)
            .unwrap_or_default();
        assert!(
            errors
                .iter()
                .all(|e| !matches!(e.kind, IniErrorKind::UnknownKey(_))),
            "{key}: {errors:?}"
        );
    }
}

#[test]
fn a_key_twice_and_a_section_twice_are_named() {
    let (line, key, kind) = one("[v:chess]\nnMoveRule = 50\nnMoveRule = 50\n");
    assert_eq!(
        (line, key.as_str(), kind),
        (3, "nMoveRule", IniErrorKind::DuplicateKey { first_line: 2 })
    );
    let (line, _, kind) = one("[v:chess]\n[v:chess]\n");
    assert_eq!(
        (line, kind),
        (2, IniErrorKind::DuplicateSection { first_line: 1 })
    );
}

#[test]
fn a_betza_string_that_does_not_parse_is_named_with_its_position() {
    let (line, key, kind) = one("[v:chess]\ncustomPiece1 = a:NX\n");
    assert_eq!((line, key.as_str()), (2, "customPiece1"));
    let IniErrorKind::Betza(e) = kind else {
        panic!("{kind:?}")
    };
    assert_eq!((e.position, e.kind), (2, BetzaErrorKind::UnknownChar('X')));
    let message = errors("[v:chess]\ncustomPiece1 = a:mRcpR\n")[0].to_string();
    assert!(
        message.starts_with("test.ini:2: customPiece1: Betza 'mRcpR' at position 4"),
        "{message}"
    );
}

#[test]
fn a_piece_letter_used_twice_is_named() {
    let (line, key, kind) = one("[v:chess]\ncustomPiece1 = a:N\ncustomPiece2 = a:B\n");
    assert_eq!((line, key.as_str()), (3, "customPiece2"));
    assert_eq!(
        kind,
        IniErrorKind::LetterTwice {
            letter: 'A',
            other_key: "customPiece1".into(),
            other_line: 2
        }
    );
}

#[test]
fn a_start_fen_that_does_not_fit_the_board_or_the_pieces_is_named() {
    let (line, key, kind) = one("[v:chess]\nmaxFile = 9\n");
    assert_eq!(key, "startFen");
    assert_eq!(line, 1, "the inherited FEN is named at the section");
    assert!(
        matches!(&kind, IniErrorKind::StartFen { why, .. } if why.contains("maxFile is 9")),
        "{kind:?}"
    );
    let bad_piece =
        "[v:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNX w KQkq - 0 1\n";
    let (line, _, kind) = one(bad_piece);
    assert_eq!(line, 2);
    assert!(
        matches!(&kind, IniErrorKind::StartFen { why, .. } if why.contains("'X'")),
        "{kind:?}"
    );
    // Fairy-Stockfish's default promotion region stays rank 8: refused too.
    let all = errors("[v:chess]\nmaxRank = 7\n");
    assert!(
        all.iter().any(|e| matches!(&e.kind, IniErrorKind::StartFen { why, .. } if why.contains("maxRank is 7"))),
        "{all:?}"
    );
    assert!(
        all.iter().any(|e| e.key == "promotionRegionWhite"),
        "{all:?}"
    );
    let two_kings = "[v:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBKKBNR w - - 0 1\n";
    assert!(matches!(one(two_kings).2, IniErrorKind::StartFen { .. }));
}

#[test]
fn a_missing_parent_is_named() {
    assert_eq!(
        one("[v:nosuch]\n"),
        (
            1,
            "[v:nosuch]".into(),
            IniErrorKind::MissingParent("nosuch".into())
        )
    );
}

#[test]
fn a_cycle_of_parents_is_named() {
    let (line, key, kind) = one("[a:b]\n[b:a]\n");
    assert_eq!((line, key.as_str()), (1, "[a:b]"));
    assert_eq!(
        kind,
        IniErrorKind::ParentCycle(vec!["a".into(), "b".into(), "a".into()])
    );
    assert!(matches!(one("[a:a]\n").2, IniErrorKind::ParentCycle(_)));
    assert_eq!(
        one("[a:b]\n[b:chess]\n"),
        (
            1,
            "[a:b]".into(),
            IniErrorKind::ParentLater {
                parent: "b".into(),
                line: 2
            }
        )
    );
}

#[test]
fn a_board_beyond_the_frame_is_refused_naming_max_file_or_max_rank() {
    let all = errors("[v:chess]\nmaxFile = 11\n");
    assert!(
        all.iter()
            .any(|e| e.key == "maxFile" && refused(&e.kind, "at most 10")),
        "{all:?}"
    );
    let (line, key, kind) = one("[v:chess]\nmaxRank = 12\n");
    assert_eq!((line, key.as_str()), (2, "maxRank"));
    assert!(matches!(kind, IniErrorKind::BadValue { .. }));
}

#[test]
fn keys_outside_the_rules_model_are_refused_with_the_reason() {
    for (text, key, why) in [
        ("mustCapture = true", "mustCapture", "mustCapture = false"),
        (
            "capturesToHand = true",
            "capturesToHand",
            "never go to a hand",
        ),
        ("nMoveRule = 40", "nMoveRule", "50-move"),
        ("stalemateValue = loss", "stalemateValue", "draw"),
        (
            "promotionRegionWhite = *7 *8",
            "promotionRegionWhite",
            "last rank",
        ),
        (
            "doubleStepRegionBlack = *6",
            "doubleStepRegionBlack",
            "second rank",
        ),
        ("promotedPieceType = p:q", "promotedPieceType", "shogi"),
        (
            "mobilityRegionWhiteKing = *1",
            "mobilityRegionWhiteKing",
            "regions",
        ),
        ("shogiPawn = s", "shogiPawn", "some directions"),
        ("cannon = c", "cannon", "hopper"),
        ("customPiece1 = a:R4", "customPiece1", "at most 4"),
        (
            "customPiece1 = a:NN",
            "customPiece1",
            "ranks, files and diagonals",
        ),
        ("king = k:KN", "king", "royal"),
        ("gating = true", "gating", "Seirawan"),
    ] {
        let all = errors(&format!("[v:chess]\n{text}\n"));
        let hit = all
            .iter()
            .any(|e| e.key == key && e.line == 2 && refused(&e.kind, why));
        assert!(hit, "{text}: {all:?}");
    }
}

#[test]
fn every_error_of_a_file_is_reported_at_once() {
    let all =
        errors("[a:chess]\nfoo = 1\ncustomPiece1 = a:Y\n[b:nosuch]\n[c:chess]\nnFoldRule = 2\n");
    let lines: Vec<usize> = all.iter().map(|e| e.line).collect();
    assert_eq!(lines, [2, 3, 4, 6], "{all:?}");
}

#[test]
fn a_child_inherits_and_overrides_an_earlier_section() {
    let text = "[base:chess]\ncustomPiece1 = n:NmK\npromotionPieceTypes = qrbn\n\
                [child:base]\ncustomPiece2 = c:RN\npromotionPieceTypes = qcrbn\n\
                pieceValueMg = c:900 n:300\npieceValueEg = c:950\n";
    let spec = parsed(text);
    assert_eq!(spec.name, "child");
    let knight = spec
        .pieces
        .iter()
        .find(|p| p.letter == 'N')
        .map(|p| p.key.as_str());
    assert_eq!(
        knight,
        Some("customPiece1"),
        "the custom piece took over the letter"
    );
    assert_eq!(spec.promotions, ['Q', 'C', 'R', 'B', 'N']);
    let chancellor = spec.values.iter().find(|v| v.letter == 'C');
    assert_eq!(
        chancellor,
        Some(&PieceValue {
            letter: 'C',
            mg: Some(900),
            eg: Some(950)
        })
    );
}

#[test]
fn a_piece_that_takes_over_a_letter_leaves_the_promotions_as_fairy_stockfish_does() {
    // As pyffish: in [base:chess] with customPiece1 = n:NmK a pawn promotes
    // to q, r, b only (the replaced knight's promotion goes with it).
    let spec = parsed("[base:chess]\ncustomPiece1 = n:NmK\n");
    assert_eq!(spec.promotions, ['Q', 'R', 'B']);
    // The same for a slot declared again with its own letter; a new letter
    // keeps the promotion.
    assert_eq!(
        parsed("[a:chess]\nknight = n\n").promotions,
        ['Q', 'R', 'B']
    );
    let renamed = "[b:chess]\nknight = h\nstartFen = rhbqkbhr/pppppppp/8/8/8/8/PPPPPPPP/RHBQKBHR w KQkq - 0 1\n";
    assert_eq!(parsed(renamed).promotions, ['Q', 'R', 'B', 'H']);
}

#[test]
fn drops_and_gating_read_the_hand_of_the_start_fen() {
    let drops = "[v:chess]\ncustomPiece1 = f:WnN\npieceDrops = true\ndropRegionWhite = *1\n\
                 dropRegionBlack = *8\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Ff] w KQkq - 0 1\n";
    assert_eq!(
        parsed(drops).hand,
        HandSpec::Drops {
            letter: 'F',
            count: 1
        }
    );
    let everywhere = drops.replace("dropRegionWhite = *1\n", "");
    let all = errors(&everywhere);
    assert!(
        all.iter()
            .any(|e| e.key == "dropRegionWhite" && refused(&e.kind, "first rank")),
        "{all:?}"
    );
    let empty =
        "[v:chess]\nstartFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[-] w KQkq - 0 1\n";
    assert_eq!(parsed(empty).hand, HandSpec::None);
    let uneven = drops.replace("[Ff]", "[FFf]");
    assert!(matches!(one(&uneven), (6, k, IniErrorKind::StartFen { .. }) if k == "startFen"));
}

#[test]
fn the_ajaxlab_setup_key_needs_a_start_of_its_numbering() {
    let chess960 = "[v:fischerandom]\n";
    assert!(matches!(parsed(chess960).setup, SetupSpec::Chess960(_)));
    let (line, key, kind) = one("[v:chess]\nchess960 = true\najaxlabSetup = amrc\n");
    assert_eq!((line, key.as_str()), (3, "ajaxlabSetup"));
    assert!(refused(&kind, "9x9"), "{kind:?}");
    let (_, _, kind) = one("[v:chess]\najaxlabSetup = chess960\n");
    assert!(refused(&kind, "chess960 = true"), "{kind:?}");
}

#[test]
fn a_section_named_as_a_built_in_variant_is_refused_and_its_children_inherit_the_built_in() {
    for text in ["[chess:chess]\nmaxRank = 8\n", "[chess]\nmaxRank = 8\n"] {
        let (line, key, kind) = one(text);
        assert_eq!(line, 1);
        assert!(key.starts_with("[chess"), "{key}");
        assert_eq!(kind, IniErrorKind::NameTaken("chess".into()));
    }
    // No cascade: the child of `chess` below inherits the built-in chess.
    let errors = errors("[chess]\npawn = p\n[mine:chess]\ndoubleStep = true\n");
    assert_eq!(errors.len(), 1, "{errors:?}");
}

#[test]
fn a_bad_setting_and_a_bad_start_are_told_at_once() {
    let all = errors("[v:chess]\nstalemateValue = maybe\nstartFen = 8/8/8/8/8/8/8/7X w - - 0 1\n");
    let keys: Vec<&str> = all.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["stalemateValue", "startFen"], "{all:?}");
}

#[test]
fn a_bad_piece_does_not_cascade_into_the_start_position() {
    let all = errors("[v:chess]\ncustomPiece1 = z:Zq\nstartFen = 8/8/8/8/8/8/8/6KZ w - - 0 1\n");
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(all[0].key, "customPiece1");
}
