//! A variant read from a file ([`VariantSpec`]) becomes a [`Variant`] ready
//! to play: its letters become piece kinds, the whole variant is checked
//! (every violation reported at once) and the move generator's tables are
//! built. The four built-in variants are loaded this way from
//! `configs/variants/ajaxlab.ini` ([`VariantKind::variant`]).
//!
//! The reader has checked each key on its own; what is checked here is what
//! only the variant as a whole can tell: that the hand, the promotions and
//! the castling rook name pieces of the variant's table, that the pieces fit
//! [`MAX_KINDS`] and the board the frame, and that the start FEN is a
//! position of the variant built.

use crate::betza::PieceMoves;
use crate::fen::FenError;
use crate::ini::{CastlingSpec, HandSpec, PieceSpec, SetupSpec, VariantSpec};
use crate::piece::{MAX_KINDS, PieceKind, PieceNames, PieceTable, PieceTableError};
use crate::position::Position;
use crate::square::{MAX_FILES, MAX_SIDE};
use crate::start::{amrc_number, chess960_number};
use crate::tables::Tables;
use crate::variant::{
    CastlingRule, CastlingStyle, Component, FileValue, Geometry, HandRule, Mode, PawnRule,
    PieceDef, Setup, Variant, VariantDef, VariantKind,
};

/// A variant that cannot be built, with everything wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "variant '{variant}': {}",
    .problems.iter().map(ToString::to_string).collect::<Vec<_>>().join("; ")
)]
pub struct VariantError {
    /// The variant's name (the file's section).
    pub variant: String,
    /// Every violation found.
    pub problems: Vec<VariantProblem>,
}

/// One thing that keeps a [`VariantSpec`] from being a [`Variant`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VariantProblem {
    /// The board does not fit the rules crate's frame.
    #[error(
        "a board of {files} files and {ranks} ranks; the frame holds at most {MAX_FILES} files and {MAX_SIDE} ranks"
    )]
    BoardTooLarge {
        /// Files asked for.
        files: u8,
        /// Ranks asked for.
        ranks: u8,
    },
    /// More piece kinds than the per-kind tables hold.
    #[error(
        "{pieces} pieces besides pawn and king; at most {} fit the per-kind tables",
        MAX_KINDS - 2
    )]
    TooManyKinds {
        /// Pieces besides pawn and king.
        pieces: usize,
    },
    /// The letters do not make a piece table.
    #[error("{0}")]
    Table(PieceTableError),
    /// The hand holds a letter that is not a piece of the variant.
    #[error("'{0}' in hand is not a piece of the variant (pawns and kings are never held)")]
    HandNotAPiece(char),
    /// A promotion to a letter that is not a piece of the variant.
    #[error("promotion to '{0}', which is not a piece of the variant (nor pawn or king)")]
    PromotionNotAPiece(char),
    /// The castling rook's letter is not a piece of the variant.
    #[error("the castling rook '{0}' is not a piece of the variant (nor pawn or king)")]
    CastlingRookNotAPiece(char),
    /// A piece value for a letter that is not a piece of the variant.
    #[error("a piece value for '{0}', which is not a piece of the variant")]
    ValueNotAPiece(char),
    /// A numbered setup whose start FEN's first rank is none of its starts.
    #[error("start FEN '{0}': its first rank is not one of the setup's numbered starts")]
    NotANumberedStart(String),
    /// The start FEN is not a position of the variant.
    #[error("start FEN '{fen}': {error}")]
    StartFen {
        /// The FEN.
        fen: String,
        /// Why the variant refuses it.
        error: FenError,
    },
}

/// A piece kind of the built-in variants besides pawn and king, and the
/// moves under which a file's piece with its letter is that kind.
struct BuiltinKind {
    kind: PieceKind,
    letter: char,
    san: &'static str,
    name: &'static str,
    /// The ways it moves in the built-in variants, in Betza.
    betza: &'static [&'static str],
}

/// The built-in variants' kinds. A file's piece with one of these letters
/// and moves takes the kind's index (on which Zobrist keys, and so the
/// engine's bench signature, depend) and its names: the Prime Minister's
/// SAN letters `PM` and the English names are ajaxlab's, which the file
/// format has no key for.
const BUILTIN_KINDS: [BuiltinKind; 7] = [
    BuiltinKind {
        kind: PieceKind::KNIGHT,
        letter: 'N',
        san: "N",
        name: "knight",
        betza: &["N", "NmK"],
    },
    BuiltinKind {
        kind: PieceKind::BISHOP,
        letter: 'B',
        san: "B",
        name: "bishop",
        betza: &["B", "BmW"],
    },
    BuiltinKind {
        kind: PieceKind::ROOK,
        letter: 'R',
        san: "R",
        name: "rook",
        betza: &["R", "RmF"],
    },
    BuiltinKind {
        kind: PieceKind::QUEEN,
        letter: 'Q',
        san: "Q",
        name: "queen",
        betza: &["Q"],
    },
    BuiltinKind {
        kind: PieceKind::MINISTER,
        letter: 'M',
        san: "M",
        name: "minister",
        betza: &["KAD"],
    },
    BuiltinKind {
        kind: PieceKind::PRIME_MINISTER,
        letter: 'A',
        san: "PM",
        name: "prime minister",
        betza: &["BNmW"],
    },
    BuiltinKind {
        kind: PieceKind::FALCON,
        letter: 'F',
        san: "F",
        name: "falcon",
        betza: &["WnNnZmF"],
    },
];

/// Whether `components` and the moves `betza` describe are the same
/// (order aside).
fn same_moves(components: &[Component], betza: &str) -> bool {
    let Ok(moves) = PieceMoves::parse(betza) else {
        return false;
    };
    let theirs: Option<Vec<Component>> = moves.steps.iter().map(|s| s.component().ok()).collect();
    theirs.is_some_and(|theirs| {
        theirs.len() == components.len() && theirs.iter().all(|c| components.contains(c))
    })
}

/// The built-in kind `piece` is, if any.
fn builtin_kind(piece: &PieceSpec) -> Option<&'static BuiltinKind> {
    BUILTIN_KINDS.iter().find(|b| {
        b.letter == piece.letter && b.betza.iter().any(|m| same_moves(&piece.components, m))
    })
}

/// The names of a piece that is not a built-in kind: the key's name for
/// Fairy-Stockfish's named pieces (`archbishop`), `piece X` for a custom
/// piece; SAN writes its letter.
fn file_piece_names(piece: &PieceSpec) -> PieceNames {
    let name = if piece.key.starts_with("customPiece") {
        format!("piece {}", piece.letter)
    } else {
        piece.key.clone()
    };
    PieceNames {
        letter: piece.letter,
        san: piece.letter.to_string(),
        name,
    }
}

/// The kind of each of `pieces`: the built-in kind where the piece is one,
/// else the lowest index left (never the pawn's or the king's, which are
/// roles the rules model plays itself); `None` where none is left.
fn assign_kinds(pieces: &[PieceSpec]) -> Vec<Option<PieceKind>> {
    let builtin: Vec<Option<PieceKind>> = pieces
        .iter()
        .map(|p| builtin_kind(p).map(|b| b.kind))
        .collect();
    let mut free = PieceKind::all()
        .filter(|k| *k != PieceKind::PAWN && *k != PieceKind::KING && !builtin.contains(&Some(*k)));
    builtin
        .iter()
        .map(|kind| kind.or_else(|| free.next()))
        .collect()
}

/// The king's moves: one step in any direction (`K`).
fn king_components() -> Vec<Component> {
    [Geometry::Leap(1, 0), Geometry::Leap(1, 1)]
        .into_iter()
        .map(|geometry| Component {
            geometry,
            mode: Mode::MoveAndCapture,
        })
        .collect()
}

impl Variant {
    /// Builds the variant `spec` describes, as a variant of a user's file:
    /// named by its section, with no built-in kind ([`Variant::builtin`] is
    /// `None`).
    ///
    /// The variant is returned as `&'static` because positions hold their
    /// variant so (`Position` is `Copy`): a variant is loaded once and
    /// lives as long as the process. For the same reason the start FEN is
    /// checked only when everything else is sound (it is parsed with the
    /// variant built), and a variant refused for its start FEN alone is not
    /// freed.
    ///
    /// The pieces are tried by the move generator in the order: king, then
    /// the file's pieces in the order of their keys.
    ///
    /// # Errors
    /// [`VariantError`] naming the variant, with every [`VariantProblem`]:
    /// a board larger than the frame, more kinds than [`MAX_KINDS`], a piece
    /// table with a letter twice, a hand, promotion or castling rook that is
    /// not a piece of the variant, or a start FEN the variant
    /// refuses.
    pub fn load(spec: &VariantSpec) -> Result<&'static Variant, VariantError> {
        Variant::load_as(spec, None, None)
    }

    /// Whether `spec` describes a variant [`Variant::load`] takes, its start
    /// position aside, without loading it (a loaded variant stays for the
    /// life of the process).
    ///
    /// # Errors
    /// As [`Variant::load`], but for the start position.
    pub(crate) fn check(spec: &VariantSpec) -> Result<(), VariantError> {
        definition(spec, None)
            .map(drop)
            .map_err(|problems| VariantError {
                variant: spec.name.clone(),
                problems,
            })
    }

    /// [`Variant::load`] of a section of the file whose whole text is
    /// `definition` ([`Variant::definition`]).
    pub(crate) fn load_from(
        spec: &VariantSpec,
        definition: &'static str,
    ) -> Result<&'static Variant, VariantError> {
        Variant::load_as(spec, None, Some(definition))
    }

    /// [`Variant::load`], known as the built-in `builtin` when `Some` (the
    /// sections of the compiled-in file only), from the file `text`.
    pub(crate) fn load_as(
        spec: &VariantSpec,
        builtin: Option<VariantKind>,
        text: Option<&'static str>,
    ) -> Result<&'static Variant, VariantError> {
        let fail = |problems| VariantError {
            variant: spec.name.clone(),
            problems,
        };
        let mut def = definition(spec, builtin).map_err(fail)?;
        def.definition = text;
        let tables = Tables::build(&def);
        LOADED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let layout = crate::Layout::new(def.width, def.height);
        let variant: &'static Variant = Box::leak(Box::new(Variant {
            def,
            tables,
            layout,
        }));
        let fen = spec.setup.fen();
        match Position::from_fen_in(variant, fen) {
            Ok(_) => Ok(variant),
            Err(error) => Err(fail(vec![VariantProblem::StartFen {
                fen: fen.to_owned(),
                error,
            }])),
        }
    }
}

/// Variants loaded by this process: each stays for its life.
static LOADED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How many variants this process has loaded (each kept for its life,
/// about 115 KB): what a refused file must not add to.
pub fn loaded_sections() -> usize {
    LOADED.load(std::sync::atomic::Ordering::Relaxed)
}

/// The definition `spec` describes, or every problem found.
fn definition(
    spec: &VariantSpec,
    builtin: Option<VariantKind>,
) -> Result<VariantDef, Vec<VariantProblem>> {
    let mut problems = Vec::new();
    if spec.files > MAX_FILES || spec.ranks > MAX_SIDE {
        problems.push(VariantProblem::BoardTooLarge {
            files: spec.files,
            ranks: spec.ranks,
        });
    }
    let kinds = assign_kinds(&spec.pieces);
    if kinds.contains(&None) {
        problems.push(VariantProblem::TooManyKinds {
            pieces: spec.pieces.len(),
        });
    }
    let pieces: Vec<(PieceKind, &PieceSpec)> = kinds
        .iter()
        .zip(&spec.pieces)
        .filter_map(|(kind, piece)| Some(((*kind)?, piece)))
        .collect();
    let table = piece_table(spec, &pieces, &mut problems);
    let mut promotions = Vec::new();
    for &letter in &spec.promotions {
        match kind_of(&pieces, letter) {
            Some(kind) => promotions.push(kind),
            None => problems.push(VariantProblem::PromotionNotAPiece(letter)),
        }
    }
    let hand = hand_rule(spec, &pieces, &mut problems);
    let castling = castling_rule(spec, &pieces, &mut problems);
    let values = file_values(spec, &pieces, &mut problems);
    let setup = setup_of(spec, &mut problems);
    // A castling rook that is not a piece left `castling` empty and a
    // problem behind.
    match (table, hand, setup) {
        (Some(names), Some(hand), Some(setup)) if problems.is_empty() => {
            let king = PieceDef {
                kind: PieceKind::KING,
                components: king_components(),
            };
            let others = pieces.iter().map(|&(kind, piece)| PieceDef {
                kind,
                components: piece.components.clone(),
            });
            Ok(VariantDef {
                name: spec.name.clone(),
                builtin,
                definition: None,
                width: spec.files,
                height: spec.ranks,
                pieces: std::iter::once(king).chain(others).collect(),
                names,
                pawn: PawnRule { promotions },
                hand,
                castling,
                setup,
                values,
            })
        }
        _ => Err(problems),
    }
}

/// The kind of the piece (other than pawn and king) lettered `letter`.
fn kind_of(pieces: &[(PieceKind, &PieceSpec)], letter: char) -> Option<PieceKind> {
    pieces
        .iter()
        .find(|(_, p)| p.letter == letter)
        .map(|(kind, _)| *kind)
}

/// The names of every piece: pawn, king, and the others (a builtin
/// piece's own, or the file's).
fn piece_table(
    spec: &VariantSpec,
    pieces: &[(PieceKind, &PieceSpec)],
    problems: &mut Vec<VariantProblem>,
) -> Option<PieceTable> {
    let pawn = spec.pawn.map(|letter| {
        let names = PieceNames {
            letter,
            san: String::new(),
            name: "pawn".to_owned(),
        };
        (PieceKind::PAWN, names)
    });
    let king = PieceNames {
        letter: spec.king,
        san: spec.king.to_string(),
        name: "king".to_owned(),
    };
    let named = pieces.iter().map(|&(kind, piece)| {
        let names = builtin_kind(piece).map_or_else(
            || file_piece_names(piece),
            |b| PieceNames {
                letter: b.letter,
                san: b.san.to_owned(),
                name: b.name.to_owned(),
            },
        );
        (kind, names)
    });
    let table = PieceTable::new(
        pawn.into_iter()
            .chain([(PieceKind::KING, king)])
            .chain(named),
    );
    match table {
        Ok(table) => Some(table),
        Err(errors) => {
            problems.extend(errors.into_iter().map(VariantProblem::Table));
            None
        }
    }
}

/// What the hand holds: nothing, pieces to drop, or pieces to gate.
fn hand_rule(
    spec: &VariantSpec,
    pieces: &[(PieceKind, &PieceSpec)],
    problems: &mut Vec<VariantProblem>,
) -> Option<HandRule> {
    let mut held = |letter: char| {
        let kind = kind_of(pieces, letter);
        if kind.is_none() {
            problems.push(VariantProblem::HandNotAPiece(letter));
        }
        kind
    };
    match spec.hand {
        HandSpec::None => Some(HandRule::None),
        HandSpec::Drops { letter, count } => {
            held(letter).map(|kind| HandRule::Drops { kind, count })
        }
        HandSpec::Gating { letter, count } => {
            held(letter).map(|kind| HandRule::Gating { kind, count })
        }
    }
}

/// How castling goes, if there is castling; `None` too for a castling
/// rook that is not a piece (a problem then).
fn castling_rule(
    spec: &VariantSpec,
    pieces: &[(PieceKind, &PieceSpec)],
    problems: &mut Vec<VariantProblem>,
) -> Option<CastlingRule> {
    let CastlingSpec::Castles {
        king_side_file,
        queen_side_file,
        rook,
        chess960,
    } = spec.castling
    else {
        return None;
    };
    let style = match (chess960, spec.hand) {
        (false, _) => CastlingStyle::Orthodox,
        (true, HandSpec::Gating { .. }) => CastlingStyle::ModernRandom,
        (true, _) => CastlingStyle::Chess960,
    };
    let rook_kind = kind_of(pieces, rook);
    if rook_kind.is_none() {
        problems.push(VariantProblem::CastlingRookNotAPiece(rook));
    }
    rook_kind.map(|rook| CastlingRule {
        rook,
        king_side_file,
        queen_side_file,
        style,
    })
}

/// The piece values the file sets, each of a piece it defines.
fn file_values(
    spec: &VariantSpec,
    pieces: &[(PieceKind, &PieceSpec)],
    problems: &mut Vec<VariantProblem>,
) -> Vec<FileValue> {
    let mut values = Vec::new();
    for value in &spec.values {
        let kind = match value.letter {
            l if Some(l) == spec.pawn => Some(PieceKind::PAWN),
            l if l == spec.king => Some(PieceKind::KING),
            l => kind_of(pieces, l),
        };
        match kind {
            Some(kind) => values.push(FileValue {
                kind,
                mg: value.mg,
                eg: value.eg,
            }),
            None => problems.push(VariantProblem::ValueNotAPiece(value.letter)),
        }
    }
    values
}

/// The start position: fixed, or a numbered random start whose default
/// is the file's start.
fn setup_of(spec: &VariantSpec, problems: &mut Vec<VariantProblem>) -> Option<Setup> {
    let mut numbered = |fen: &str, number: fn(&str) -> Option<u32>| {
        let default = number(&white_first_rank(fen));
        if default.is_none() {
            problems.push(VariantProblem::NotANumberedStart(fen.to_owned()));
        }
        default
    };
    match &spec.setup {
        SetupSpec::Fixed(fen) => Some(Setup::Fixed(fen.clone())),
        SetupSpec::Chess960(fen) => {
            numbered(fen, chess960_number).map(|default| Setup::Chess960 { default })
        }
        SetupSpec::ModernRandom(fen) => {
            numbered(fen, amrc_number).map(|default| Setup::ModernRandom { default })
        }
    }
}

/// White's first rank of `fen` as written (its last rank, the hand left
/// out): the letters a numbered start is looked up by.
fn white_first_rank(fen: &str) -> String {
    let board = fen.split_whitespace().next().unwrap_or_default();
    let placement = board.split('[').next().unwrap_or_default();
    placement.rsplit('/').next().unwrap_or_default().to_owned()
}
