//! Variants as data: board size, pieces and how they move, hands, castling,
//! promotion and setup. One move generator reads these definitions; adding a
//! variant adds a definition, not a code path.

use crate::ini::{IniErrors, VariantSpec, parse_builtin_variants};
use crate::piece::{Piece, PieceKind, PieceTable};
use crate::square::File;
use crate::tables::Tables;
use std::fmt;
use std::sync::OnceLock;

/// Where the built-in variants are defined, for messages.
const BUILTIN_FILE: &str = "configs/variants/ajaxlab.ini";

/// The text of `configs/variants/ajaxlab.ini`: the four built-in variants.
pub const BUILTIN_VARIANTS: &str = include_str!("../../../configs/variants/ajaxlab.ini");

/// The variants ajaxlab knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VariantKind {
    /// Ajax Falcon Chess, 10×8.
    AjaxFalcon,
    /// Ajax Modern Random Chess, 9×9, 15,120 starts.
    AjaxModernRandom,
    /// Orthodox chess.
    Chess,
    /// Chess960 (Fischer Random), 960 starts.
    Chess960,
}

impl VariantKind {
    /// Every variant.
    pub const ALL: [VariantKind; 4] = [
        VariantKind::AjaxFalcon,
        VariantKind::AjaxModernRandom,
        VariantKind::Chess,
        VariantKind::Chess960,
    ];

    /// ajaxlab's name for the variant.
    pub const fn name(self) -> &'static str {
        match self {
            VariantKind::AjaxFalcon => "ajax-falcon",
            VariantKind::AjaxModernRandom => "ajax-modern-random",
            VariantKind::Chess => "chess",
            VariantKind::Chess960 => "chess960",
        }
    }

    /// Other names accepted on input (NOTATION.md).
    pub const fn aliases(self) -> &'static [&'static str] {
        match self {
            VariantKind::AjaxFalcon => &["afc", "ajaxfalcon"],
            VariantKind::AjaxModernRandom => &["amrc", "ajaxrandom"],
            VariantKind::Chess => &[],
            VariantKind::Chess960 => &["fischerandom"],
        }
    }

    /// The `UCI_Variant` value Fairy-Stockfish uses for this variant.
    pub const fn fsf_name(self) -> &'static str {
        match self {
            VariantKind::AjaxFalcon => "ajaxfalcon",
            VariantKind::AjaxModernRandom => "ajaxrandom",
            VariantKind::Chess | VariantKind::Chess960 => "chess",
        }
    }

    /// The variant named `name` or one of its aliases (case-insensitive).
    ///
    /// # Errors
    /// [`UnknownVariant`] listing the known names.
    pub fn from_name(name: &str) -> Result<VariantKind, UnknownVariant> {
        let lower = name.trim().to_ascii_lowercase();
        VariantKind::ALL
            .into_iter()
            .find(|k| k.name() == lower || k.aliases().contains(&lower.as_str()))
            .ok_or_else(|| UnknownVariant(name.to_owned()))
    }

    /// The variant, loaded on first use from its section (named
    /// [`VariantKind::name`]) of `configs/variants/ajaxlab.ini`, which is
    /// compiled in: the file is the one definition of the built-ins.
    ///
    /// # Panics
    /// If the compiled-in file does not load: a build bug, which the rules
    /// crate's tests (`every_built_in_variant_loads_from_its_file`) catch.
    pub fn variant(self) -> &'static Variant {
        static CELLS: [OnceLock<&'static Variant>; 4] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        CELLS[self as usize].get_or_init(|| {
            self.load_builtin()
                .unwrap_or_else(|e| panic!("{BUILTIN_FILE}: {e}"))
        })
    }

    /// The variant loaded from its section of [`BUILTIN_VARIANTS`].
    fn load_builtin(self) -> Result<&'static Variant, String> {
        static SPECS: OnceLock<Result<Vec<VariantSpec>, IniErrors>> = OnceLock::new();
        let specs = SPECS
            .get_or_init(|| parse_builtin_variants(BUILTIN_FILE, BUILTIN_VARIANTS))
            .as_ref()
            .map_err(ToString::to_string)?;
        let spec = specs
            .iter()
            .find(|s| s.name == self.name())
            .ok_or_else(|| format!("no section [{}]", self.name()))?;
        Variant::load_as(spec, Some(self), None).map_err(|e| e.to_string())
    }
}

impl fmt::Display for VariantKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for VariantKind {
    type Err = UnknownVariant;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        VariantKind::from_name(s)
    }
}

/// A variant name that is not known.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "unknown variant '{0}'; known variants: ajax-falcon (afc, ajaxfalcon), ajax-modern-random (amrc, ajaxrandom), chess, chess960 (fischerandom)"
)]
pub struct UnknownVariant(pub String);

/// Which squares a component may end on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// To an empty square or onto an enemy piece (and it attacks).
    MoveAndCapture,
    /// To an empty square only; never captures, never gives check.
    MoveOnly,
    /// Onto an enemy piece only.
    CaptureOnly,
}

/// The lines a slider runs along.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lines {
    /// Ranks and files (rook).
    Orthogonal,
    /// Diagonals (bishop).
    Diagonal,
}

/// The shape of one way of moving. Leaps and lame leaps are given by one
/// representative and mean all eight images under reflection and rotation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Geometry {
    /// Slides any distance along lines until blocked.
    Slide(Lines),
    /// Jumps to the offset `(dx, dy)`, over anything.
    Leap(i8, i8),
    /// Walks the given unit steps; every square before the last must be
    /// empty (the Falcon's Korean horse and elephant paths).
    Lame(Vec<(i8, i8)>),
}

/// One way a piece moves: a shape and what it may land on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    /// Shape.
    pub geometry: Geometry,
    /// What it may land on.
    pub mode: Mode,
}

/// How a non-pawn piece kind moves in a variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceDef {
    /// The kind defined.
    pub kind: PieceKind,
    /// Its ways of moving (their union).
    pub components: Vec<Component>,
}

impl PieceDef {
    /// Whether the piece slides, capturing, along files and ranks but not
    /// along diagonals: a rook's way of moving, which an open file favours.
    pub fn is_rook_like(&self) -> bool {
        let slides = |lines: Lines| {
            self.components
                .iter()
                .any(|c| c.geometry == Geometry::Slide(lines) && c.mode == Mode::MoveAndCapture)
        };
        slides(Lines::Orthogonal) && !slides(Lines::Diagonal)
    }
}

/// Pawn rules: one step forward, capture one step diagonally forward, a
/// double step (with en passant) from the own second rank, promotion on the
/// last rank.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PawnRule {
    /// Kinds a pawn may promote to, in the order moves are generated.
    pub promotions: Vec<PieceKind>,
}

/// Pieces held in hand at the start and how they enter the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HandRule {
    /// No hand.
    None,
    /// `count` pieces of `kind` each, dropped as a whole move on any empty
    /// square of the own first rank.
    Drops {
        /// Kind held.
        kind: PieceKind,
        /// Pieces per side at the start.
        count: u8,
    },
    /// `count` pieces of `kind` each, placed on the square a back-rank piece
    /// vacates on its first move (Seirawan-style gating).
    Gating {
        /// Kind held.
        kind: PieceKind,
        /// Pieces per side at the start.
        count: u8,
    },
}

impl HandRule {
    /// The kind held in hand, if any.
    pub const fn kind(self) -> Option<PieceKind> {
        match self {
            HandRule::None => None,
            HandRule::Drops { kind, .. } | HandRule::Gating { kind, .. } => Some(kind),
        }
    }
}

/// How castling is written; the legality conditions are the same for all
/// (the Chess960 ones, which reduce to the orthodox ones from orthodox starts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastlingStyle {
    /// FEN `KQkq`, UCI king-from + king-destination, SAN `O-O`/`O-O-O`.
    Orthodox,
    /// FEN rook files (Shredder), UCI king-from + rook square, SAN `O-O`/`O-O-O`.
    Chess960,
    /// As Chess960, with gates in the FEN field and SAN `O-O-Oc`/`O-O-Og`.
    ModernRandom,
}

/// Castling: which piece castles with the king, where king and it land,
/// and how it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CastlingRule {
    /// The kind that castles with the king (the castling rook).
    pub rook: PieceKind,
    /// File the king lands on castling towards the high files (rook next to it, inside).
    pub king_side_file: File,
    /// File the king lands on castling towards the low files (rook next to it, inside).
    pub queen_side_file: File,
    /// Notation.
    pub style: CastlingStyle,
}

/// How the start position is chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Setup {
    /// One start position, given as FEN.
    Fixed(String),
    /// Chess960 numbering 0..960 (518 = the orthodox array).
    Chess960 {
        /// The number of the default start (the file's `startFen`).
        default: u32,
    },
    /// AMRC numbering 0..15120 (docs/rules.md §3).
    ModernRandom {
        /// The number of the default start (the file's `startFen`).
        default: u32,
    },
}

/// A piece value a variants file gives (`pieceValueMg`/`pieceValueEg`),
/// in Fairy-Stockfish's units (a pawn is 126 in the middlegame and 208 in
/// the endgame): kept for an engine, never read by the rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileValue {
    /// The kind valued.
    pub kind: PieceKind,
    /// Middlegame value, if given.
    pub mg: Option<i32>,
    /// Endgame value, if given.
    pub eg: Option<i32>,
}

/// The definition a [`Variant`] is built from.
#[derive(Clone, Debug)]
pub struct VariantDef {
    /// The variant's name: its section in the file it was loaded from.
    pub name: String,
    /// Which built-in variant this is: `Some` only for the four loaded from
    /// the compiled-in `configs/variants/ajaxlab.ini`, whose rules beyond
    /// the file (chess's insufficient material, the engine's tuned values)
    /// are chosen by kind; `None` for a variant from a user's file.
    pub builtin: Option<VariantKind>,
    /// The whole text of the user's file the variant is a section of, when
    /// it was loaded through a [`crate::VariantSet`]: what a run records
    /// and ships so that its games can be replayed without the file.
    /// `None` for the built-ins.
    pub definition: Option<&'static str>,
    /// Number of files.
    pub width: u8,
    /// Number of ranks.
    pub height: u8,
    /// Non-pawn piece kinds and their moves; the King must be among them.
    pub pieces: Vec<PieceDef>,
    /// Letters and names of every kind of the variant (the pawn and the
    /// pieces above).
    pub names: PieceTable,
    /// Pawn rules.
    pub pawn: PawnRule,
    /// Hand, drops and gating.
    pub hand: HandRule,
    /// Castling; `None` for a variant without it (`castling = false`).
    pub castling: Option<CastlingRule>,
    /// Start positions.
    pub setup: Setup,
    /// Piece values the file gives, if any.
    pub values: Vec<FileValue>,
}

/// A variant ready to play: its definition plus the tables the move
/// generator reads (attack sets per square, rays, hash keys).
#[derive(Debug)]
pub struct Variant {
    /// The definition.
    pub def: VariantDef,
    pub(crate) tables: Tables,
    pub(crate) layout: crate::Layout,
}

/// A variant is loaded once per process (a built-in once, a file's text
/// once: [`crate::VariantSet`]), so two references are the same variant
/// exactly when they are the same value.
impl PartialEq for Variant {
    fn eq(&self, other: &Variant) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Variant {}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl Variant {
    /// The variant's name (its section in the file it was loaded from;
    /// [`VariantKind::name`] for a built-in).
    pub fn name(&self) -> &str {
        &self.def.name
    }

    /// Which built-in variant this is, or `None` for a variant loaded from
    /// a user's file.
    pub fn builtin(&self) -> Option<VariantKind> {
        self.def.builtin
    }

    /// The text of the user's file this variant was loaded from (every
    /// section of it), `None` for a built-in.
    pub fn definition(&self) -> Option<&'static str> {
        self.def.definition
    }

    /// Number of files.
    pub fn width(&self) -> u8 {
        self.def.width
    }

    /// Number of ranks.
    pub fn height(&self) -> u8 {
        self.def.height
    }

    /// Whether `sq` lies on this variant's board.
    pub fn contains(&self, sq: crate::Square) -> bool {
        self.tables.board.contains(sq)
    }

    /// Squares a non-pawn `kind` on `sq` reaches in one move on an empty
    /// board, by moving or capturing: the piece's reach, from which an
    /// evaluation derives square tables for any piece.
    pub fn empty_board_reach(&self, kind: PieceKind, sq: crate::Square) -> crate::Bitboard {
        let t = &self.tables;
        let k = t.kind(kind);
        let i = sq.index();
        let mut bb = k.leap_both[i] | k.leap_move[i] | k.leap_capture[i];
        for lines in [k.slide_both, k.slide_move, k.slide_capture]
            .into_iter()
            .flatten()
        {
            bb |= t.slide_attacks(lines, sq, crate::Bitboard::EMPTY);
        }
        for leap in &k.lame[i] {
            bb = bb.with(leap.target);
        }
        bb & t.board
    }

    /// The board's files, spans ahead and colours of squares.
    pub fn layout(&self) -> &crate::Layout {
        &self.layout
    }

    /// Whether a piece of `kind` keeps to squares of one colour (a
    /// bishop): from every square it reaches only squares of that
    /// square's colour.
    pub fn is_colour_bound(&self, kind: PieceKind) -> bool {
        let light = self.layout.light_squares();
        self.has_kind(kind)
            && self.layout.squares().iter().all(|&sq| {
                let same = if light.contains(sq) { light } else { !light };
                !(self.empty_board_reach(kind, sq) & !same).any()
            })
    }

    /// Whether a FEN of this variant carries a `[...]` hand.
    pub fn has_hand(&self) -> bool {
        !matches!(self.def.hand, HandRule::None)
    }

    /// Whether `kind` occurs in this variant (on the board or in hand).
    #[inline]
    pub fn has_kind(&self, kind: PieceKind) -> bool {
        self.def.names.get(kind).is_some()
    }

    /// The letters and names of this variant's kinds.
    pub fn piece_table(&self) -> &PieceTable {
        &self.def.names
    }

    /// Upper-case FEN letter of `kind`; `?` for a kind the variant lacks.
    pub fn letter(&self, kind: PieceKind) -> char {
        self.def.names.letter(kind)
    }

    /// The kind of this variant with this FEN letter (either case).
    pub fn from_letter(&self, c: char) -> Option<PieceKind> {
        self.def.names.from_letter(c)
    }

    /// Letters of `kind` in SAN (the seeds' form: `PM` for the Prime
    /// Minister); empty for the pawn.
    pub fn san_letters(&self, kind: PieceKind) -> &str {
        self.def.names.san_letters(kind)
    }

    /// How castling is written: the rule's style, or orthodox for a
    /// variant without castling (whose positions have no castling rights
    /// and no castling moves to write).
    pub fn castling_style(&self) -> CastlingStyle {
        self.def
            .castling
            .map_or(CastlingStyle::Orthodox, |rule| rule.style)
    }

    /// English name of `kind`, for messages.
    pub fn piece_name(&self, kind: PieceKind) -> &str {
        self.def.names.name(kind)
    }

    /// FEN letter of `piece`: upper case for White, lower case for Black.
    pub fn fen_char(&self, piece: Piece) -> char {
        self.def.names.fen_char(piece)
    }

    /// The piece of this variant named by a FEN letter.
    pub fn piece_from_fen_char(&self, c: char) -> Option<Piece> {
        self.def.names.piece_from_fen_char(c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_resolve() {
        for (name, kind) in [
            ("ajax-falcon", VariantKind::AjaxFalcon),
            ("afc", VariantKind::AjaxFalcon),
            ("ajaxfalcon", VariantKind::AjaxFalcon),
            ("ajax-modern-random", VariantKind::AjaxModernRandom),
            ("amrc", VariantKind::AjaxModernRandom),
            ("ajaxrandom", VariantKind::AjaxModernRandom),
            ("chess", VariantKind::Chess),
            ("chess960", VariantKind::Chess960),
            ("fischerandom", VariantKind::Chess960),
            ("AFC", VariantKind::AjaxFalcon),
        ] {
            assert_eq!(VariantKind::from_name(name), Ok(kind), "{name}");
        }
    }

    #[test]
    fn unknown_variant_lists_the_known_ones() {
        let err = VariantKind::from_name("shogi").unwrap_err().to_string();
        assert!(err.contains("'shogi'"), "{err}");
        for kind in VariantKind::ALL {
            assert!(err.contains(kind.name()), "{err}");
        }
    }
}
