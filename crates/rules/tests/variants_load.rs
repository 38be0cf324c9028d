//! Loading a variant read from a file (`Variant::load`): the built-ins from
//! `configs/variants/ajaxlab.ini` with their kinds at the fixed indices,
//! other pieces at the free ones, and every whole-variant violation
//! reported at once, naming the variant.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::ini::{
    CastlingSpec, HandSpec, SetupSpec, VariantSpec, parse_builtin_variants, parse_variants,
};
use ajaxlab_rules::variant::{BUILTIN_VARIANTS, VariantDef};
use ajaxlab_rules::{
    FenError, PieceKind, PieceTableError, Position, StartSpec, Variant, VariantError, VariantKind,
    VariantProblem,
};

fn specs(file: &str, text: &str) -> Vec<VariantSpec> {
    parse_variants(file, text).unwrap_or_else(|e| panic!("{e}"))
}

fn section(specs: &[VariantSpec], name: &str) -> VariantSpec {
    specs
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no section {name}"))
        .clone()
}

/// The sections of ajaxlab's own file, which defines `chess` itself.
fn builtin_specs() -> Vec<VariantSpec> {
    parse_builtin_variants("ajaxlab.ini", BUILTIN_VARIANTS).unwrap_or_else(|e| panic!("{e}"))
}

fn chess() -> VariantSpec {
    section(&builtin_specs(), "chess")
}

/// `(index, FEN letter, SAN letters, name)` of every kind of `variant`.
fn table(variant: &Variant) -> Vec<(usize, char, String, String)> {
    let t = variant.piece_table();
    t.kinds()
        .map(|k| {
            let names = t.get(k).unwrap();
            (
                k.index(),
                names.letter,
                names.san.clone(),
                names.name.clone(),
            )
        })
        .collect()
}

fn row(index: usize, letter: char, san: &str, name: &str) -> (usize, char, String, String) {
    (index, letter, san.to_owned(), name.to_owned())
}

#[test]
fn every_built_in_variant_loads_from_its_file() {
    let specs = builtin_specs();
    assert_eq!(specs.len(), VariantKind::ALL.len());
    for kind in VariantKind::ALL {
        let spec = section(&specs, kind.name());
        let loaded = Variant::load(&spec).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(table(loaded), table(kind.variant()), "{kind}");
        // Loaded as a file's variant, the same section is the built-in in
        // all but the built-in kind.
        assert_eq!((loaded.name(), loaded.builtin()), (kind.name(), None));
        assert_eq!(kind.variant().builtin(), Some(kind));
        let as_file = VariantDef {
            builtin: None,
            ..kind.variant().def.clone()
        };
        assert_eq!(
            format!("{:?}", loaded.def),
            format!("{as_file:?}"),
            "{kind}"
        );
    }
}

#[test]
fn built_in_kinds_keep_their_indices_and_names() {
    let ajax = |last: (usize, char, &str, &str)| {
        let mut rows = vec![
            row(PieceKind::PAWN.index(), 'P', "", "pawn"),
            row(PieceKind::KNIGHT.index(), 'N', "N", "knight"),
            row(PieceKind::BISHOP.index(), 'B', "B", "bishop"),
            row(PieceKind::ROOK.index(), 'R', "R", "rook"),
            row(PieceKind::QUEEN.index(), 'Q', "Q", "queen"),
            row(PieceKind::KING.index(), 'K', "K", "king"),
            row(PieceKind::MINISTER.index(), 'M', "M", "minister"),
        ];
        rows.push(row(last.0, last.1, last.2, last.3));
        rows
    };
    assert_eq!(
        table(VariantKind::AjaxFalcon.variant()),
        ajax((PieceKind::FALCON.index(), 'F', "F", "falcon"))
    );
    assert_eq!(
        table(VariantKind::AjaxModernRandom.variant()),
        ajax((
            PieceKind::PRIME_MINISTER.index(),
            'A',
            "PM",
            "prime minister"
        ))
    );
    let orthodox = vec![
        row(0, 'P', "", "pawn"),
        row(1, 'N', "N", "knight"),
        row(2, 'B', "B", "bishop"),
        row(3, 'R', "R", "rook"),
        row(4, 'Q', "Q", "queen"),
        row(5, 'K', "K", "king"),
    ];
    assert_eq!(table(VariantKind::Chess.variant()), orthodox);
    assert_eq!(table(VariantKind::Chess960.variant()), orthodox);
}

#[test]
fn pieces_that_are_not_built_in_take_the_free_indices() {
    let text = include_str!("../../../tests/fsf/model-variants.ini");
    let specs = specs("model-variants.ini", text);
    let capablanca = section(&specs, "capablanca-ini");
    let v = Variant::load(&capablanca).unwrap();
    // The archbishop (BN) is not the Prime Minister (BNmW): the first free
    // index, its key's name and its letter in SAN.
    assert_eq!(
        table(v)[5..],
        [
            row(5, 'K', "K", "king"),
            row(6, 'A', "A", "archbishop"),
            row(7, 'C', "C", "chancellor")
        ]
    );
    let lame = Variant::load(&section(&specs, "lamehorse")).unwrap();
    let names: Vec<(char, String)> = table(lame).into_iter().map(|r| (r.1, r.3)).collect();
    assert!(names.contains(&('H', "piece H".to_owned())), "{names:?}");
    assert!(names.contains(&('E', "piece E".to_owned())), "{names:?}");
}

#[test]
fn every_section_of_the_model_file_loads_and_plays() {
    let text = include_str!("../../../tests/fsf/model-variants.ini");
    for spec in specs("model-variants.ini", text) {
        let v = Variant::load(&spec).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((v.name(), v.builtin()), (spec.name.as_str(), None));
        assert_eq!((v.width(), v.height()), (spec.files, spec.ranks));
        assert!(
            v.piece_table().kinds().count() <= ajaxlab_rules::MAX_KINDS,
            "{}",
            spec.name
        );
    }
    // The built-in start of chess is not changed by loading others.
    let start = Position::start(VariantKind::Chess, &StartSpec::Default).unwrap();
    assert_eq!(start.legal_moves().len(), 20);
}

#[test]
fn a_variant_reports_every_violation_at_once() {
    let mut spec = chess();
    spec.name = "broken".to_owned();
    spec.files = 12;
    let template = spec.pieces[0].clone();
    for letter in "CDEGHIJLO".chars() {
        let mut extra = template.clone();
        extra.letter = letter;
        extra.key = "customPiece1".to_owned();
        spec.pieces.push(extra);
    }
    spec.promotions.extend(['K', 'Z']);
    spec.hand = HandSpec::Drops {
        letter: 'X',
        count: 1,
    };
    if let CastlingSpec::Castles { rook, .. } = &mut spec.castling {
        *rook = 'Z';
    }
    let err = Variant::load(&spec).unwrap_err();
    assert_eq!(
        err,
        VariantError {
            variant: "broken".to_owned(),
            problems: vec![
                VariantProblem::BoardTooLarge {
                    files: 12,
                    ranks: 8
                },
                VariantProblem::TooManyKinds { pieces: 13 },
                VariantProblem::PromotionNotAPiece('K'),
                VariantProblem::PromotionNotAPiece('Z'),
                VariantProblem::HandNotAPiece('X'),
                VariantProblem::CastlingRookNotAPiece('Z'),
            ]
        }
    );
    let message = err.to_string();
    assert!(
        message.starts_with("variant 'broken': a board of 12 files"),
        "{message}"
    );
    assert!(message.contains("; promotion to 'K'"), "{message}");
}

#[test]
fn a_letter_twice_is_refused() {
    let mut spec = chess();
    let mut second_n = spec.pieces[0].clone();
    second_n.components.truncate(0);
    second_n.key = "customPiece1".to_owned();
    let letter = second_n.letter;
    spec.pieces.push(second_n);
    let err = Variant::load(&spec).unwrap_err();
    assert_eq!(
        err.problems,
        [
            VariantProblem::Table(PieceTableError::LetterTwice(letter)),
            VariantProblem::Table(PieceTableError::SanTwice(letter.to_string())),
        ]
    );
}

/// `castling = false`: the variant loads with no castling rule, its
/// positions grant no castling rights (a FEN that does is refused, naming
/// the key) and no castling move is generated.
#[test]
fn a_variant_without_castling_has_no_castling_rights_or_moves() {
    let mut spec = chess();
    spec.name = "nocastle".to_owned();
    spec.castling = CastlingSpec::None;
    spec.setup = SetupSpec::Fixed("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1".to_owned());
    let variant = Variant::load(&spec).unwrap();
    assert_eq!(variant.def.castling, None);
    let pos = Position::start_in(variant, &StartSpec::Default).unwrap();
    let moves: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.uci(m).to_string())
        .collect();
    assert!(!moves.contains(&"e1g1".to_owned()), "{moves:?}");
    assert!(!moves.contains(&"e1c1".to_owned()), "{moves:?}");
    assert_eq!(moves.len(), 24, "rook and king moves only: {moves:?}");
    let err = Position::from_fen_in(variant, "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").unwrap_err();
    assert!(
        err.to_string()
            .contains("'K': nocastle has no castling (castling = false)"),
        "{err}"
    );
}

#[test]
fn a_start_fen_the_variant_refuses_is_named() {
    let mut spec = chess();
    let fen = "4k3/8/8/8/8/8/8/4R2K w - - 0 1";
    spec.setup = SetupSpec::Fixed(fen.to_owned());
    let err = Variant::load(&spec).unwrap_err();
    assert_eq!(err.variant, "chess");
    assert!(
        matches!(
            &err.problems[..],
            [VariantProblem::StartFen { fen: f, error: FenError::Impossible(_) }] if f == fen
        ),
        "{err}"
    );
}

#[test]
fn a_numbered_setup_needs_a_numbered_start_fen() {
    let mut spec = chess();
    // Both bishops on dark squares: none of the 960 starts.
    let fen = "brbqknrn/pppppppp/8/8/8/8/PPPPPPPP/BRBQKNRN w - - 0 1";
    spec.setup = SetupSpec::Chess960(fen.to_owned());
    let err = Variant::load(&spec).unwrap_err();
    assert_eq!(
        err.problems,
        [VariantProblem::NotANumberedStart(fen.to_owned())]
    );
}

#[test]
fn the_file_piece_values_are_kept_by_kind_and_a_stray_letter_is_refused() {
    use ajaxlab_rules::ini::PieceValue;
    use ajaxlab_rules::variant::FileValue;
    let mut spec = chess();
    spec.name = "valued".to_owned();
    spec.values = vec![PieceValue {
        letter: 'N',
        mg: Some(800),
        eg: None,
    }];
    let v = Variant::load(&spec).unwrap();
    assert_eq!(
        v.def.values,
        [FileValue {
            kind: PieceKind::KNIGHT,
            mg: Some(800),
            eg: None
        }]
    );
    spec.values[0].letter = 'Z';
    let err = Variant::load(&spec).unwrap_err();
    assert_eq!(err.problems, [VariantProblem::ValueNotAPiece('Z')]);
}
