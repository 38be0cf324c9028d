//! The variants reader on Fairy-Stockfish's definitions of the Ajax variants
//! (`tests/fsf/fsf-variants.ini`) and on ajaxlab's four built-in variants
//! written as a file (`configs/variants/ajaxlab.ini`), each compared with the
//! built-in definition: board, piece moves, promotion, hand, castling, setup.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::betza::{Atom, Range, Reach, Step};
use ajaxlab_rules::ini::{CastlingSpec, HandSpec, SetupSpec, VariantSpec, parse_variants};
use ajaxlab_rules::variant::{
    CastlingStyle, Component, Geometry, HandRule, Lines, Mode, Setup, VariantDef, definition,
};
use ajaxlab_rules::{FIFTY_MOVE_PLIES, PieceKind, Position, StartSpec, VariantKind};

const FSF_FILE: &str = include_str!("../../../tests/fsf/fsf-variants.ini");
const AJAXLAB_FILE: &str = include_str!("../../../configs/variants/ajaxlab.ini");

/// A way of moving in a form both descriptions reduce to: what it lands
/// on, how it travels, and its atom (every piece here is symmetric).
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Shape {
    mode: u8,
    reach: &'static str,
    long: i8,
    short: i8,
}

fn mode_code(mode: Mode) -> u8 {
    match mode {
        Mode::MoveAndCapture => 0,
        Mode::MoveOnly => 1,
        Mode::CaptureOnly => 2,
    }
}

fn atom_of(dx: i8, dy: i8) -> (i8, i8) {
    (dx.abs().max(dy.abs()), dx.abs().min(dy.abs()))
}

fn builtin_shape(c: &Component) -> Shape {
    let mode = mode_code(c.mode);
    let (reach, (long, short)) = match &c.geometry {
        Geometry::Slide(Lines::Orthogonal) => ("ride", (1, 0)),
        Geometry::Slide(Lines::Diagonal) => ("ride", (1, 1)),
        Geometry::Leap(dx, dy) => ("leap", atom_of(*dx, *dy)),
        Geometry::Lame(steps) => {
            // The built-in path (squares before the target) must be the one
            // Fairy-Stockfish's lame leaper walks.
            let mut at = (0, 0);
            let mut squares = Vec::new();
            for (dx, dy) in steps.iter() {
                at = (at.0 + dx, at.1 + dy);
                squares.push(ajaxlab_rules::betza::Offset { dx: at.0, dy: at.1 });
            }
            let target = squares.pop().unwrap();
            assert_eq!(Step::lame_path(target), squares, "lame path to {target}");
            ("lame", atom_of(target.dx, target.dy))
        }
    };
    Shape {
        mode,
        reach,
        long,
        short,
    }
}

fn spec_shape(s: &Step) -> Shape {
    assert!(s.is_symmetric(), "{s:?}");
    let reach = match s.reach {
        Reach::Leap => "leap",
        Reach::Lame => "lame",
        Reach::Ride(Range::Unlimited) => "ride",
        Reach::Ride(Range::Limited(_)) => panic!("limited rider {s:?}"),
    };
    let Atom { long, short } = s.atom;
    Shape {
        mode: mode_code(s.mode),
        reach,
        long,
        short,
    }
}

fn kind_in(def: &VariantDef, letter: char) -> PieceKind {
    def.names
        .from_letter(letter)
        .unwrap_or_else(|| panic!("no kind has letter {letter}"))
}

/// Asserts that `spec` describes the built-in `variant`, naming the first
/// difference.
fn assert_matches_builtin(spec: &VariantSpec, variant: VariantKind) {
    let def = definition(variant);
    let name = variant.name();
    let kind = |letter: char| kind_in(&def, letter);
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
        let mut want: Vec<Shape> = piece.components.iter().map(builtin_shape).collect();
        let mut got: Vec<Shape> = if piece.kind == PieceKind::KING {
            let king = ajaxlab_rules::betza::PieceMoves::parse("K").unwrap();
            king.steps.iter().map(spec_shape).collect()
        } else {
            let p = spec
                .pieces
                .iter()
                .find(|p| kind(p.letter) == piece.kind)
                .unwrap();
            p.moves.steps.iter().map(spec_shape).collect()
        };
        want.sort();
        got.sort();
        let piece_name = def.names.name(piece.kind);
        assert_eq!(got, want, "{name}: moves of the {piece_name}");
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
    assert_eq!(
        king_side_file, def.castling.king_side_file,
        "{name}: O-O file"
    );
    assert_eq!(
        queen_side_file, def.castling.queen_side_file,
        "{name}: O-O-O file"
    );
    assert_eq!(kind(rook), def.castling.rook, "{name}: castling rook");
    assert_eq!(
        chess960,
        def.castling.style != CastlingStyle::Orthodox,
        "{name}: castling style"
    );
    match (&spec.setup, &def.setup) {
        (SetupSpec::Fixed(f), Setup::Fixed(g)) => assert_eq!(f, g, "{name}: start"),
        (SetupSpec::Chess960(_), Setup::Chess960)
        | (SetupSpec::ModernRandom(_), Setup::ModernRandom) => {}
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
    let specs = parse_variants("ajaxlab.ini", AJAXLAB_FILE).unwrap_or_else(|e| panic!("{e}"));
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
    assert_eq!(
        names,
        [
            "capablanca-ini",
            "gothic-ini",
            "embassy-ini",
            "janus-ini",
            "modern-ini",
            "chancellor-ini",
            "lamehorse",
            "dropwazir"
        ]
    );
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
