//! The variants reader on Fairy-Stockfish's definitions of the Ajax variants
//! (`tests/fsf/fsf-variants.ini`) and on ajaxlab's four built-in variants
//! (`configs/variants/ajaxlab.ini`), each compared with the built-in
//! variant as loaded: board, piece moves, promotion, hand, castling, setup.
//! The built-ins are loaded from `ajaxlab.ini` itself, so Fairy-Stockfish's
//! file is the independent check of the Ajax variants; the perft suites
//! (`perft_suites.rs`) and the pinned hashes and move order
//! (`builtin_identity.rs`) check that loading them changed nothing.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::betza::Reach;
use ajaxlab_rules::ini::{
    CastlingSpec, HandSpec, SetupSpec, VariantSpec, parse_builtin_variants, parse_variants,
};
use ajaxlab_rules::variant::{CastlingStyle, Component, HandRule, Setup, VariantDef};
use ajaxlab_rules::{FIFTY_MOVE_PLIES, PieceKind, Position, StartSpec, VariantKind};

mod model;
use model::MODEL_SECTIONS;

const FSF_FILE: &str = include_str!("../../../tests/fsf/fsf-variants.ini");
const AJAXLAB_FILE: &str = include_str!("../../../configs/variants/ajaxlab.ini");

/// A piece's components in a canonical order, to compare two definitions
/// that list them differently.
fn sorted(components: &[Component]) -> Vec<String> {
    let mut out: Vec<String> = components.iter().map(|c| format!("{c:?}")).collect();
    out.sort();
    out
}

fn kind_in(def: &VariantDef, letter: char) -> PieceKind {
    def.names
        .from_letter(letter)
        .unwrap_or_else(|| panic!("no kind has letter {letter}"))
}

/// Asserts that `spec` describes the built-in `variant`, naming the first
/// difference.
fn assert_matches_builtin(spec: &VariantSpec, variant: VariantKind) {
    let def = &variant.variant().def;
    let name = variant.name();
    let kind = |letter: char| kind_in(def, letter);
    assert_eq!(
        (spec.files, spec.ranks),
        (def.width, def.height),
        "{name}: board"
    );
    assert_eq!(spec.pawn, Some('P'), "{name}: pawn");
    assert_eq!(kind(spec.king), PieceKind::KING, "{name}: king");
    let mut spec_kinds: Vec<PieceKind> = spec.pieces.iter().map(|p| kind(p.letter)).collect();
    spec_kinds.push(PieceKind::KING);
    spec_kinds.sort();
    let mut def_kinds: Vec<PieceKind> = def.pieces.iter().map(|p| p.kind).collect();
    def_kinds.sort();
    assert_eq!(spec_kinds, def_kinds, "{name}: piece set");
    for piece in &def.pieces {
        let got: Vec<Component> = if piece.kind == PieceKind::KING {
            let king = ajaxlab_rules::betza::PieceMoves::parse("K").unwrap();
            king.steps.iter().map(|s| s.component().unwrap()).collect()
        } else {
            let p = spec
                .pieces
                .iter()
                .find(|p| kind(p.letter) == piece.kind)
                .unwrap();
            p.components.clone()
        };
        let piece_name = def.names.name(piece.kind);
        assert_eq!(
            sorted(&got),
            sorted(&piece.components),
            "{name}: moves of the {piece_name}"
        );
    }
    let promotions: Vec<PieceKind> = spec.promotions.iter().map(|&l| kind(l)).collect();
    assert_eq!(promotions, def.pawn.promotions, "{name}: promotions");
    let hand = match spec.hand {
        HandSpec::None => HandRule::None,
        HandSpec::Drops { letter, count } => HandRule::Drops {
            kind: kind(letter),
            count,
        },
        HandSpec::Gating { letter, count } => HandRule::Gating {
            kind: kind(letter),
            count,
        },
    };
    assert_eq!(hand, def.hand, "{name}: hand");
    let CastlingSpec::Castles {
        king_side_file,
        queen_side_file,
        rook,
        chess960,
    } = spec.castling
    else {
        panic!("{name}: no castling");
    };
    let castling = def
        .castling
        .unwrap_or_else(|| panic!("{name}: loaded without castling"));
    assert_eq!(king_side_file, castling.king_side_file, "{name}: O-O file");
    assert_eq!(
        queen_side_file, castling.queen_side_file,
        "{name}: O-O-O file"
    );
    assert_eq!(kind(rook), castling.rook, "{name}: castling rook");
    assert_eq!(
        chess960,
        castling.style != CastlingStyle::Orthodox,
        "{name}: castling style"
    );
    match (&spec.setup, &def.setup) {
        (SetupSpec::Fixed(f), Setup::Fixed(g)) => assert_eq!(f, g, "{name}: start"),
        (SetupSpec::Chess960(_), Setup::Chess960 { .. })
        | (SetupSpec::ModernRandom(_), Setup::ModernRandom { .. }) => {}
        (s, d) => panic!("{name}: setup {s:?} against built-in {d:?}"),
    }
    let start = Position::start(variant, &StartSpec::Default).unwrap();
    assert_eq!(
        Position::from_fen(variant, spec.setup.fen()),
        Ok(start),
        "{name}: default start"
    );
    assert_eq!(
        u64::from(spec.end.n_move_rule) * 2,
        u64::from(FIFTY_MOVE_PLIES),
        "{name}: n-move rule"
    );
}

fn spec<'a>(specs: &'a [VariantSpec], name: &str) -> &'a VariantSpec {
    specs
        .iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no section {name}"))
}

#[test]
fn fairy_stockfish_s_ajax_file_reads_as_the_built_in_ajax_variants() {
    let specs = parse_variants("fsf-variants.ini", FSF_FILE).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(specs.len(), 2);
    assert_matches_builtin(spec(&specs, "ajaxfalcon"), VariantKind::AjaxFalcon);
    // The one difference: Fairy-Stockfish's file gives AMRC one fixed start
    // (RNBKQABNR, number 13602); the built-in variant has 15,120 numbered
    // starts, which a file states with `ajaxlabSetup = amrc`.
    let amrc = spec(&specs, "ajaxrandom");
    assert!(
        matches!(amrc.setup, SetupSpec::Fixed(_)),
        "{:?}",
        amrc.setup
    );
    let mut numbered = amrc.clone();
    numbered.setup = SetupSpec::ModernRandom(amrc.setup.fen().to_owned());
    assert_matches_builtin(&numbered, VariantKind::AjaxModernRandom);
    let with_key = FSF_FILE.replace("[ajaxrandom]\n", "[ajaxrandom]\najaxlabSetup = amrc\n");
    let specs = parse_variants("fsf-variants.ini", &with_key).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(spec(&specs, "ajaxrandom"), &numbered);
}

#[test]
fn the_four_built_in_variants_written_as_a_file_match_their_definitions() {
    let specs =
        parse_builtin_variants("ajaxlab.ini", AJAXLAB_FILE).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(specs.len(), VariantKind::ALL.len());
    for variant in VariantKind::ALL {
        assert_matches_builtin(spec(&specs, variant.name()), variant);
    }
}

#[test]
fn fairy_stockfish_s_coded_variants_and_two_invented_ones_read_as_files() {
    let text = include_str!("../../../tests/fsf/model-variants.ini");
    let specs = parse_variants("model-variants.ini", text).unwrap_or_else(|e| panic!("{e}"));
    let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(names, MODEL_SECTIONS);
    let gothic = spec(&specs, "gothic-ini");
    assert_eq!((gothic.files, gothic.ranks), (10, 8));
    assert_eq!(gothic.promotions, ['A', 'C', 'Q', 'R', 'B', 'N']);
    let letters: Vec<char> = gothic.pieces.iter().map(|p| p.letter).collect();
    assert_eq!(letters, ['N', 'B', 'R', 'Q', 'A', 'C']);
    let embassy = spec(&specs, "embassy-ini");
    let CastlingSpec::Castles {
        king_side_file,
        queen_side_file,
        ..
    } = embassy.castling
    else {
        panic!("embassy castles");
    };
    assert_eq!((king_side_file.char(), queen_side_file.char()), ('h', 'b'));
    let lame = spec(&specs, "lamehorse");
    assert!(
        lame.pieces.iter().all(|p| p.letter != 'N'),
        "the knight is removed"
    );
    let horse = lame.pieces.iter().find(|p| p.letter == 'H').unwrap();
    assert_eq!(horse.moves.steps[0].reach, Reach::Lame);
    assert_eq!(
        spec(&specs, "dropwazir").hand,
        HandSpec::Drops {
            letter: 'W',
            count: 2
        }
    );
}
