//! The registry of variants (`VariantSet`): the built-ins by name and
//! alias, a user's file loaded beside them as a whole, a built-in's name
//! refused to a section, and every error of a file named at once.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::{
    Position, SectionProblem, StartSpec, VariantKind, VariantProblem, VariantSet, VariantSetError,
};
use std::path::Path;

mod model;
use model::MODEL_SECTIONS;

const MODEL_FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fsf/model-variants.ini"
);

fn model() -> VariantSet {
    VariantSet::with_file(Path::new(MODEL_FILE)).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_file_variant_is_found_by_its_section_name_and_is_no_built_in() {
    let set = model();
    let names: Vec<&str> = set.file_names().collect();
    assert_eq!(names, MODEL_SECTIONS);
    let capablanca = set.get("capablanca-ini").unwrap();
    assert_eq!(capablanca.name(), "capablanca-ini");
    assert_eq!(capablanca.builtin(), None);
    assert_eq!((capablanca.width(), capablanca.height()), (10, 8));
    // Its start is the file's startFen, and it plays.
    let start = Position::start_in(capablanca, &StartSpec::Default).unwrap();
    assert_eq!(
        start.fen(),
        "rnabqkbcnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNABQKBCNR w KQkq - 0 1"
    );
    assert_eq!(start.legal_moves().len(), 28);
    let fen = "4k3/8/8/8/8/8/8/4K2W[Ww] w - - 0 1";
    let dropwazir = set.get("dropwazir").unwrap();
    assert_eq!(Position::from_fen_in(dropwazir, fen).unwrap().fen(), fen);
    assert!(Position::start_in(dropwazir, &StartSpec::Number(3)).is_err());
}

#[test]
fn built_ins_are_found_by_name_and_alias_beside_a_file() {
    for set in [VariantSet::builtin(), model()] {
        for kind in VariantKind::ALL {
            for name in std::iter::once(kind.name()).chain(kind.aliases().iter().copied()) {
                let v = set.get(name).unwrap();
                assert!(std::ptr::eq(v, kind.variant()), "{name}");
                assert_eq!((v.name(), v.builtin()), (kind.name(), Some(kind)));
            }
        }
        assert!(set.get("AFC").is_some());
    }
}

#[test]
fn a_missing_name_is_none() {
    assert!(VariantSet::builtin().get("capablanca-ini").is_none());
    let set = model();
    assert!(set.get("capablanca").is_none());
    assert!(set.get("Capablanca-INI").is_none());
    assert!(set.get("").is_none());
}

#[test]
fn a_section_may_not_take_a_built_in_name_and_every_refusal_is_named() {
    let text = "\
[afc:chess]

[Chess960:chess]
chess960 = true

[fine:chess]

[many:chess]
customPiece1 = a:W
customPiece2 = c:F
customPiece3 = d:D
customPiece4 = e:A
customPiece5 = f:WF
customPiece6 = g:WD
customPiece7 = h:FA
";
    let errors = match VariantSet::with_text("mine.ini", text) {
        Err(VariantSetError::Sections(errors)) => errors,
        other => panic!("{other:?}"),
    };
    let found: Vec<(usize, &str)> = errors
        .iter()
        .map(|e| (e.line, e.section.as_str()))
        .collect();
    assert_eq!(found, [(1, "afc"), (3, "Chess960"), (8, "many")]);
    assert_eq!(
        errors[0].problem,
        SectionProblem::BuiltinName(VariantKind::AjaxFalcon)
    );
    assert_eq!(
        errors[1].problem,
        SectionProblem::BuiltinName(VariantKind::Chess960)
    );
    assert!(
        matches!(&errors[2].problem, SectionProblem::Load(e) if e.problems == [VariantProblem::TooManyKinds { pieces: 11 }]),
        "{:?}",
        errors[2]
    );
    let message = VariantSetError::Sections(errors).to_string();
    assert!(
        message.starts_with("mine.ini:1: [afc]: the name of the built-in variant ajax-falcon"),
        "{message}"
    );
    assert!(message.contains("\nmine.ini:8: [many]: "), "{message}");
}

#[test]
fn a_file_that_does_not_read_names_its_file_line_and_key() {
    let err = VariantSet::with_text(
        "mine.ini",
        "[v:chess]\nmaxFile = 10\nknight = n\nbogus = 1\n",
    )
    .unwrap_err();
    assert!(matches!(err, VariantSetError::Ini(_)), "{err:?}");
    assert!(err.to_string().contains("mine.ini:4: bogus"), "{err}");
    let missing = Path::new("/nonexistent/variants.ini");
    let err = VariantSet::with_file(missing).unwrap_err();
    assert!(matches!(err, VariantSetError::Read { .. }), "{err:?}");
    assert!(
        err.to_string().starts_with("/nonexistent/variants.ini: "),
        "{err}"
    );
}

#[test]
fn a_numbered_setup_starts_by_default_from_the_file_start_fen() {
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w HFhf - 0 1";
    let text =
        format!("[c960:chess]\nchess960 = true\najaxlabSetup = chess960\nstartFen = {fen}\n");
    let set = VariantSet::with_text("mine.ini", &text).unwrap_or_else(|e| panic!("{e}"));
    let variant = set.get("c960").unwrap();
    let start = |spec| Position::start_in(variant, &spec).unwrap().fen();
    assert_eq!(start(StartSpec::Default), fen);
    assert_eq!(
        start(StartSpec::Number(518)),
        Position::start(VariantKind::Chess960, &StartSpec::Default)
            .unwrap()
            .fen()
    );
}

/// A text is loaded once per process: loading it again (another games file
/// of the same run) gives the same variants, which keep the text they came
/// from; the built-ins keep none.
#[test]
fn a_text_loads_once_and_its_variants_keep_it() {
    let text = std::fs::read_to_string(MODEL_FILE).unwrap();
    let first = model();
    let again = VariantSet::with_text("elsewhere.ini", &text).unwrap();
    for name in MODEL_SECTIONS {
        let (a, b) = (first.get(name).unwrap(), again.get(name).unwrap());
        assert!(std::ptr::eq(a, b), "{name}");
        assert_eq!(a, b);
        assert_eq!(a.definition(), Some(text.as_str()), "{name}");
    }
    assert_eq!(first.definition(), Some(text.as_str()));
    assert!(first.contains(first.get("gothic-ini").unwrap()));
    assert!(first.contains(VariantKind::Chess.variant()));
    assert_eq!(VariantKind::Chess.variant().definition(), None);
    assert_eq!(VariantSet::builtin().definition(), None);
    // Another text is another set, whose variants the first does not hold.
    let other = VariantSet::with_text("other.ini", &format!("{text}\n# changed\n")).unwrap();
    let gothic = other.get("gothic-ini").unwrap();
    assert_ne!(gothic, first.get("gothic-ini").unwrap());
    assert!(!first.contains(gothic));
}

/// `find` names what is known when a name is not.
#[test]
fn a_name_not_in_the_set_lists_the_built_ins_and_the_sections() {
    let e = model().find("capablanca").unwrap_err();
    let text = e.to_string();
    assert!(text.starts_with("unknown variant 'capablanca'"), "{text}");
    assert!(text.contains("ajax-falcon"), "{text}");
    assert!(
        text.ends_with("the variants file's: capablanca-ini, gothic-ini, embassy-ini, janus-ini, modern-ini, chancellor-ini, lamehorse, dropwazir, nocastle"),
        "{text}"
    );
    let builtin = VariantSet::builtin().find("gothic-ini").unwrap_err();
    assert!(!builtin.to_string().contains("variants file"), "{builtin}");
}
