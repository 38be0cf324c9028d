//! The value parameters of the pieces of a variant from a user's file:
//! `VARIANT.LETTER.mg` and `VARIANT.LETTER.eg` for the pawn and for every
//! piece but the king, the letter as the file writes it, in lower case
//! (`squirrel.s.mg` for `customPiece1 = s:NDA` of `[squirrel:chess]`), as
//! Fairy-Stockfish's `pieceValueMg = s:…` names a piece by its letter.
//!
//! Their defaults are the values the evaluation gives such a piece without
//! them: derived from its moves, or the file's `pieceValueMg`/`pieceValueEg`.
//! A run of the variant carries them beside the table's parameters
//! ([`crate::params::specs_for`]), so parameter files, `set = {…}`, UCI
//! `setoption`, SPSA and `ajaxlab tune` reach them as they reach
//! `afc.falcon.mg`; a name is known once its file is loaded.

use crate::eval::derived_values;
use crate::params::{ParamSpec, Params, Phase, PieceValue, Reader, Variants};
use ajaxlab_rules::{PieceKind, Variant, loaded_variant};
use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

/// The value parameters of one file variant's pieces.
#[derive(Debug)]
pub(crate) struct FilePieces {
    /// Each piece's middlegame and endgame parameters, the pawn first, in
    /// the order of the file's table ([`ParamSpec::piece`] names the piece).
    pub(crate) specs: Vec<ParamSpec>,
}

/// Every file variant's parameters made so far, by the variant's address
/// (a loaded variant lives, and keeps its address, for the life of the
/// process).
fn made() -> &'static Mutex<HashMap<usize, &'static FilePieces>> {
    static MADE: OnceLock<Mutex<HashMap<usize, &'static FilePieces>>> = OnceLock::new();
    MADE.get_or_init(Mutex::default)
}

/// The smallest value of a piece parameter: a quarter of its default, and
/// never below this.
const FLOOR: i32 = 10;

/// The parameters of `variant`'s pieces; none for a built-in variant,
/// whose values are the table's (`afc.*`, `amrc.*`, `chess.*`).
pub(crate) fn pieces_of(variant: &'static Variant) -> &'static FilePieces {
    static NONE: FilePieces = FilePieces { specs: Vec::new() };
    if variant.builtin().is_some() {
        return &NONE;
    }
    let mut made = made()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let key = std::ptr::from_ref(variant) as usize;
    made.entry(key)
        .or_insert_with(|| Box::leak(Box::new(make(variant))))
}

fn make(variant: &'static Variant) -> FilePieces {
    let values = derived_values(variant, &Params::default());
    let mut specs = Vec::new();
    for (kind, mg, eg) in values {
        if kind == PieceKind::KING {
            continue;
        }
        let letter = variant.letter(kind).to_ascii_lowercase();
        let piece = variant.piece_name(kind);
        for (suffix, phase, default, words) in [
            (".mg", Phase::Mg, mg, "middlegame"),
            (".eg", Phase::Eg, eg, "endgame"),
        ] {
            let name = format!("{}.{letter}{suffix}", variant.name());
            let doc = format!(
                "{piece} ({letter}) of {}, {words}: by default derived from its moves, or the file's pieceValue.",
                variant.name()
            );
            let default = default.max(FLOOR);
            specs.push(ParamSpec {
                name: Box::leak(name.into_boxed_str()),
                default,
                min: (default / 4).max(FLOOR),
                max: default * 4,
                c_end: ((f64::from(default) * 0.5).round() / 10.0).max(3.0),
                r_end: 0.002,
                doc: Box::leak(doc.into_boxed_str()),
                reader: Reader::Evaluation(Variants::FILES),
                piece: Some(PieceValue {
                    kind,
                    phase,
                    in_hand: false,
                }),
            });
        }
    }
    FilePieces { specs }
}

/// The piece parameter `name` (`VARIANT.LETTER.mg` or `.eg`) of a variant
/// of a file this process has loaded.
pub(crate) fn find(name: &str) -> Option<&'static ParamSpec> {
    let mut parts = name.rsplitn(3, '.');
    let (_phase, _letter, variant) = (parts.next()?, parts.next()?, parts.next()?);
    let variant = loaded_variant(variant)?;
    pieces_of(variant).specs.iter().find(|s| s.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_rules::VariantSet;

    const SQUIRREL: &str = "[squirrel:chess]\ncustomPiece1 = s:NDA\n\
        startFen = rsbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RSBQKBNR w KQkq - 0 1\n";

    #[test]
    fn a_file_variants_values_are_read_by_that_variant_alone() {
        let set = VariantSet::with_text("squirrel.ini", SQUIRREL).unwrap();
        let squirrel = set.find("squirrel").unwrap();
        let other =
            VariantSet::with_text("other.ini", &SQUIRREL.replace("squirrel", "other")).unwrap();
        let other = other.find("other").unwrap();
        let s = find("squirrel.s.mg").unwrap();
        assert!(s.evaluates(squirrel) && s.read_by(squirrel));
        assert!(!s.evaluates(other), "another file's variant");
        assert!(!s.evaluates(ajaxlab_rules::VariantKind::Chess.variant()));
        let squirrel_kind = s.piece.map(|p| (p.kind, p.phase, p.in_hand));
        assert_eq!(
            squirrel_kind,
            Some((
                squirrel.piece_table().from_letter('S').unwrap(),
                Phase::Mg,
                false
            ))
        );
        // Chess's positional terms are read by a file's variant too.
        let chess_term = crate::params::spec("chess.eval.tempo").unwrap();
        assert!(chess_term.evaluates(squirrel));
    }

    #[test]
    fn a_file_variant_has_a_value_pair_for_each_piece_but_the_king() {
        let set = VariantSet::with_text("squirrel.ini", SQUIRREL).unwrap();
        let squirrel = set.find("squirrel").unwrap();
        let names: Vec<&str> = pieces_of(squirrel).specs.iter().map(|s| s.name).collect();
        for name in [
            "squirrel.p.mg",
            "squirrel.n.eg",
            "squirrel.s.mg",
            "squirrel.q.eg",
        ] {
            assert!(names.contains(&name), "{name}: {names:?}");
        }
        assert!(
            !names.iter().any(|n| n.starts_with("squirrel.k.")),
            "{names:?}"
        );
        assert_eq!(names.len(), 2 * 6, "{names:?}");
        let s = find("squirrel.s.mg").unwrap();
        let n = find("squirrel.n.mg").unwrap();
        assert!(
            s.default > n.default,
            "a Squirrel reaches more than a Knight"
        );
        assert!(s.min <= s.default && s.default <= s.max);
        assert_eq!(find("squirrel.x.mg"), None);
        assert_eq!(find("nosuchvariant.s.mg"), None);
        assert!(
            pieces_of(ajaxlab_rules::VariantKind::AjaxFalcon.variant())
                .specs
                .is_empty()
        );
    }
}
