//! Every number the evaluation and the search use, as one declarative table.
//!
//! From the table come the [`Params`] struct, its defaults, the UCI spin
//! options, range-checked setting by name, TOML/JSON export and import, and
//! the SPSA description (`c_end`, `r_end` as Fishtest defines them: the final
//! perturbation and the final learning rate, `a_end = r_end * c_end²`).
//!
//! Piece values are per variant (`afc.*`, `amrc.*`, `chess.*`, the last
//! shared by chess and Chess960), in centipawns. Starting values come from
//! the published anchors in `shared/PIECE-VALUES.md`: orthodox pieces from
//! Kaufman and Muller; Ajax pieces from Muller's rule that a move-only step
//! adds about a third of the same step with capture (Ajax Knight ≈ 4.65,
//! Ajax Rook ≈ 5.67), the Minister from the K+A+D leaper value (≈ 6.5),
//! the Prime Minister from the Archbishop (≈ 8.5 on 9×9) plus a move-only
//! Wazir, the Falcon as Wazir + lame Knight + lame Zebra + move-only Ferz.
//! They are hypotheses for tuning to test, not measurements.

use ajaxlab_rules::{PieceKind, Variant, VariantKind};
use std::collections::BTreeMap;

/// One tunable parameter: its name, default, legal range and SPSA step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParamSpec {
    /// Dotted name, e.g. `afc.falcon.mg`; also the UCI option name.
    pub name: &'static str,
    /// Default value.
    pub default: i32,
    /// Smallest legal value.
    pub min: i32,
    /// Largest legal value.
    pub max: i32,
    /// SPSA perturbation at the end of a tuning run.
    pub c_end: f64,
    /// SPSA learning rate at the end of a tuning run.
    pub r_end: f64,
    /// What it is.
    pub doc: &'static str,
    /// Who reads it: the search, the clock, or some variants' evaluation.
    pub reader: Reader,
    /// The piece whose value it is, if it is one.
    pub piece: Option<PieceValue>,
}

/// Who reads a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reader {
    /// The search, in every variant.
    Search,
    /// Time management, on a clock.
    Clock,
    /// The evaluation of these variants.
    Evaluation(Variants),
}

/// A set of variants whose evaluation reads a parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Variants(u8);

impl Variants {
    /// Chess and Chess960.
    pub const CHESS: Variants = Variants(1);
    /// Ajax Falcon Chess.
    pub const AFC: Variants = Variants(2);
    /// Ajax Modern Random Chess.
    pub const AMRC: Variants = Variants(4);
    /// Both Ajax variants.
    pub const AJAX: Variants = Variants(2 | 4);
    /// Chess, Chess960 and every variant of a user's file (such a variant is
    /// chess with other pieces, and reads chess's positional terms).
    pub const CHESS_AND_FILES: Variants = Variants(1 | 8);
    /// Variants of users' files (each reads its own pieces' values only:
    /// [`specs_for`] gives a run of one variant its own).
    pub const FILES: Variants = Variants(8);

    /// Whether `variant` is in the set.
    pub fn contains(self, variant: &Variant) -> bool {
        let bit = match variant.builtin() {
            Some(VariantKind::Chess | VariantKind::Chess960) => 1,
            Some(VariantKind::AjaxFalcon) => 2,
            Some(VariantKind::AjaxModernRandom) => 4,
            None => 8,
        };
        self.0 & bit != 0
    }
}

/// What a piece-value parameter values: a kind in one phase, on the board
/// or in hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PieceValue {
    /// The piece.
    pub kind: PieceKind,
    /// Middlegame or endgame.
    pub phase: Phase,
    /// On the board, or in hand (a piece that is not yet in play).
    pub in_hand: bool,
}

/// The two phases the evaluation blends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// The middlegame.
    Mg,
    /// The endgame.
    Eg,
}

impl ParamSpec {
    /// Whether a player of `variant` reads this parameter: the search's
    /// always, an evaluation term when its variants include `variant`, the
    /// clock's only on a clock (never here).
    pub fn read_by(&self, variant: &'static Variant) -> bool {
        self.reader == Reader::Search || self.evaluates(variant)
    }

    /// Whether this parameter changes the evaluation of `variant` (a file
    /// variant's piece value only that variant's).
    pub fn evaluates(&self, variant: &'static Variant) -> bool {
        match self.reader {
            Reader::Evaluation(Variants::FILES) => file_piece_specs(variant)
                .iter()
                .any(|own| std::ptr::eq(own, self)),
            Reader::Evaluation(variants) => variants.contains(variant),
            Reader::Search | Reader::Clock => false,
        }
    }
}

/// A parameter name or value that cannot be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No parameter of that name.
    #[error("unknown parameter '{0}'")]
    Unknown(String),
    /// Outside the parameter's range.
    #[error("parameter '{name}': {value} is outside [{min}, {max}]")]
    OutOfRange {
        /// Name.
        name: String,
        /// Value given.
        value: i64,
        /// Smallest legal value.
        min: i32,
        /// Largest legal value.
        max: i32,
    },
    /// Not an integer.
    #[error("parameter '{name}': '{value}' is not an integer")]
    NotInteger {
        /// Name.
        name: String,
        /// Text given.
        value: String,
    },
    /// A file that is not a flat table of integers.
    #[error("parameter file: {0}")]
    File(String),
}

macro_rules! define_params {
    (@piece) => { None };
    (@piece $kind:ident $phase:ident $($hand:ident)?) => {
        Some(PieceValue {
            kind: PieceKind::$kind,
            phase: Phase::$phase,
            in_hand: define_params!(@hand $($hand)?),
        })
    };
    (@hand) => { false };
    (@hand hand) => { true };
    ($( [$reader:expr] $( $field:ident : $name:literal = $default:expr, [$min:expr, $max:expr], c_end $c:expr, r_end $r:expr, $(value($kind:ident $phase:ident $($hand:ident)?),)? $doc:literal; )* )*) => {
        /// The values of every tunable parameter.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Params {
            $( $( #[doc = $doc] pub $field: i32, )* )*
            /// The values set of the parameters made rather than declared
            /// here (the pieces of variants from users' files,
            /// [`crate::file_params`]; chess's square tables,
            /// [`crate::chess_squares`], and mobility tables,
            /// [`crate::chess_mobility`]), by name; one not set has its
            /// default, and none is kept at its default.
            pub(crate) generated: BTreeMap<&'static str, i32>,
        }

        impl Default for Params {
            fn default() -> Self {
                Params { $( $( $field: $default, )* )* generated: BTreeMap::new() }
            }
        }

        /// The table: every parameter in declaration order.
        pub const SPECS: &[ParamSpec] = &[
            $( $( ParamSpec {
                name: $name, default: $default, min: $min, max: $max, c_end: $c, r_end: $r, doc: $doc,
                reader: $reader, piece: define_params!(@piece $($kind $phase $($hand)?)?),
            }, )* )*
        ];

        impl Params {
    /// These parameters as chess and Chess960 play them: the positional
    /// terms the evaluation reads under `eval.*` replaced by the
    /// `chess.eval.*` set. The Ajax variants' fit to Fairy-Stockfish
    /// (`eval.*`) cost chess 105.6 ± 39.4 Elo at 4000 nodes, so the
    /// reference variants keep terms of their own.
    #[must_use]
    pub fn chess_positional(&self) -> Params {
        let mut p = self.clone();
        p.bishop_pair_mg = self.chess_bishop_pair_mg;
        p.bishop_pair_eg = self.chess_bishop_pair_eg;
        p.mobility_mg = self.chess_mobility_mg;
        p.mobility_eg = self.chess_mobility_eg;
        p.pst_mg = self.chess_pst_mg;
        p.pst_eg = self.chess_pst_eg;
        p.king_center_eg = self.chess_king_center_eg;
        p.king_home_mg = self.chess_king_home_mg;
        p.pawn_advance_mg = self.chess_pawn_advance_mg;
        p.pawn_advance_eg = self.chess_pawn_advance_eg;
        p.passed_mg = self.chess_passed_mg;
        p.passed_eg = self.chess_passed_eg;
        p.passed_king_eg = self.chess_passed_king_eg;
        p.passed_free_eg = self.chess_passed_free_eg;
        p.passed_safe_eg = self.chess_passed_safe_eg;
        p.passed_unstoppable = self.chess_passed_unstoppable;
        p.doubled = self.chess_doubled;
        p.isolated = self.chess_isolated;
        p.king_shield = self.chess_king_shield;
        p.king_attack = self.chess_king_attack;
        p.king_attackers = self.chess_king_attackers;
        p.king_safe_check = self.chess_king_safe_check;
        p.king_danger_div = self.chess_king_danger_div;
        p.threat_pawn_mg = self.chess_threat_pawn_mg;
        p.threat_pawn_eg = self.chess_threat_pawn_eg;
        p.threat_lesser_mg = self.chess_threat_lesser_mg;
        p.threat_lesser_eg = self.chess_threat_lesser_eg;
        p.hanging_mg = self.chess_hanging_mg;
        p.hanging_eg = self.chess_hanging_eg;
        p.king_file_mg = self.chess_king_file_mg;
        p.rook_open_mg = self.chess_rook_open_mg;
        p.rook_open_eg = self.chess_rook_open_eg;
        p.rook_semi_open_mg = self.chess_rook_semi_open_mg;
        p.rook_semi_open_eg = self.chess_rook_semi_open_eg;
        p.drawish_scale = self.chess_drawish_scale;
        p.tempo = self.chess_tempo;
        p
    }
}

impl Params {
            /// The value of the table's parameter `name`.
            fn get_static(&self, name: &str) -> Option<i32> {
                match name {
                    $( $( $name => Some(self.$field), )* )*
                    _ => None,
                }
            }

            fn slot(&mut self, name: &str) -> Option<&mut i32> {
                match name {
                    $( $( $name => Some(&mut self.$field), )* )*
                    _ => None,
                }
            }
        }
    };
}

define_params! {
    // ---- orthodox chess and Chess960 ----
    [Reader::Evaluation(Variants::CHESS)]
    chess_pawn_mg: "chess.pawn.mg" = 82, [40, 200], c_end 6.0, r_end 0.002, value(PAWN Mg), "Pawn, middlegame.";
    chess_pawn_eg: "chess.pawn.eg" = 105, [40, 200], c_end 6.0, r_end 0.002, value(PAWN Eg), "Pawn, endgame.";
    chess_knight_mg: "chess.knight.mg" = 325, [150, 600], c_end 15.0, r_end 0.002, value(KNIGHT Mg), "Knight, middlegame (Kaufman 3.25).";
    chess_knight_eg: "chess.knight.eg" = 310, [150, 600], c_end 15.0, r_end 0.002, value(KNIGHT Eg), "Knight, endgame.";
    chess_bishop_mg: "chess.bishop.mg" = 330, [150, 600], c_end 15.0, r_end 0.002, value(BISHOP Mg), "Bishop, middlegame (Kaufman 3.25).";
    chess_bishop_eg: "chess.bishop.eg" = 335, [150, 600], c_end 15.0, r_end 0.002, value(BISHOP Eg), "Bishop, endgame.";
    chess_rook_mg: "chess.rook.mg" = 480, [250, 900], c_end 20.0, r_end 0.002, value(ROOK Mg), "Rook, middlegame (Kaufman 5).";
    chess_rook_eg: "chess.rook.eg" = 530, [250, 900], c_end 20.0, r_end 0.002, value(ROOK Eg), "Rook, endgame.";
    chess_queen_mg: "chess.queen.mg" = 960, [500, 1600], c_end 30.0, r_end 0.002, value(QUEEN Mg), "Queen, middlegame (Muller 9.5).";
    chess_queen_eg: "chess.queen.eg" = 990, [500, 1600], c_end 30.0, r_end 0.002, value(QUEEN Eg), "Queen, endgame.";
    // ---- Ajax Falcon Chess (fitted by `ajaxlab tune` to Fairy-Stockfish self-play, configs/tune-data-fsf-afc.toml) ----
    [Reader::Evaluation(Variants::AFC)]
    afc_pawn_mg: "afc.pawn.mg" = 58, [40, 200], c_end 6.0, r_end 0.002, value(PAWN Mg), "AFC pawn, middlegame.";
    afc_pawn_eg: "afc.pawn.eg" = 152, [40, 200], c_end 6.0, r_end 0.002, value(PAWN Eg), "AFC pawn, endgame.";
    afc_knight_mg: "afc.knight.mg" = 470, [200, 800], c_end 20.0, r_end 0.002, value(KNIGHT Mg), "Ajax Knight NmK, middlegame (N 3.25 + a third of a commoner).";
    afc_knight_eg: "afc.knight.eg" = 367, [200, 800], c_end 20.0, r_end 0.002, value(KNIGHT Eg), "Ajax Knight, endgame.";
    afc_bishop_mg: "afc.bishop.mg" = 459, [200, 800], c_end 20.0, r_end 0.002, value(BISHOP Mg), "Ajax Bishop BmW, middlegame (B 3.25 + a third of a wazir).";
    afc_bishop_eg: "afc.bishop.eg" = 418, [200, 800], c_end 20.0, r_end 0.002, value(BISHOP Eg), "Ajax Bishop, endgame.";
    afc_rook_mg: "afc.rook.mg" = 479, [300, 1000], c_end 25.0, r_end 0.002, value(ROOK Mg), "Ajax Rook RmF, middlegame (R 5 + a third of a ferz, Muller: 5.67).";
    afc_rook_eg: "afc.rook.eg" = 723, [300, 1000], c_end 25.0, r_end 0.002, value(ROOK Eg), "Ajax Rook, endgame.";
    afc_queen_mg: "afc.queen.mg" = 759, [500, 1700], c_end 30.0, r_end 0.002, value(QUEEN Mg), "Queen, middlegame (Muller 9.5-9.75).";
    afc_queen_eg: "afc.queen.eg" = 1193, [500, 1700], c_end 30.0, r_end 0.002, value(QUEEN Eg), "Queen, endgame.";
    afc_minister_mg: "afc.minister.mg" = 582, [300, 1100], c_end 25.0, r_end 0.002, value(MINISTER Mg), "Minister KAD, middlegame (16-target leaper ~6.5).";
    afc_minister_eg: "afc.minister.eg" = 805, [300, 1100], c_end 25.0, r_end 0.002, value(MINISTER Eg), "Minister, endgame.";
    afc_falcon_mg: "afc.falcon.mg" = 556, [250, 1000], c_end 25.0, r_end 0.002, value(FALCON Mg), "Falcon on the board, middlegame (W + lame N + lame Z + mF).";
    afc_falcon_eg: "afc.falcon.eg" = 643, [250, 1000], c_end 25.0, r_end 0.002, value(FALCON Eg), "Falcon on the board, endgame.";
    afc_falcon_hand_mg: "afc.falcon.hand.mg" = 556, [150, 1000], c_end 25.0, r_end 0.002, value(FALCON Mg hand), "Falcon in hand (not yet dropped), middlegame (its board value: the fitted 440 dropped too eagerly).";
    afc_falcon_hand_eg: "afc.falcon.hand.eg" = 643, [150, 1000], c_end 25.0, r_end 0.002, value(FALCON Eg hand), "Falcon in hand, endgame.";
    // ---- Ajax Modern Random Chess (the board pieces fitted by `ajaxlab tune` to Fairy-Stockfish self-play, configs/tune-data-fsf-amrc.toml; the pawn hand-set; the Minister in hand at its board value, which beat 560 by 66.8 ± 38.1 Elo: see docs/strength.md) ----
    [Reader::Evaluation(Variants::AMRC)]
    amrc_pawn_mg: "amrc.pawn.mg" = 82, [40, 200], c_end 6.0, r_end 0.002, value(PAWN Mg), "AMRC pawn, middlegame.";
    amrc_pawn_eg: "amrc.pawn.eg" = 105, [40, 200], c_end 6.0, r_end 0.002, value(PAWN Eg), "AMRC pawn, endgame.";
    amrc_knight_mg: "amrc.knight.mg" = 493, [200, 800], c_end 20.0, r_end 0.002, value(KNIGHT Mg), "Ajax Knight, middlegame.";
    amrc_knight_eg: "amrc.knight.eg" = 412, [200, 800], c_end 20.0, r_end 0.002, value(KNIGHT Eg), "Ajax Knight, endgame.";
    amrc_bishop_mg: "amrc.bishop.mg" = 551, [200, 800], c_end 20.0, r_end 0.002, value(BISHOP Mg), "Ajax Bishop, middlegame.";
    amrc_bishop_eg: "amrc.bishop.eg" = 456, [200, 800], c_end 20.0, r_end 0.002, value(BISHOP Eg), "Ajax Bishop, endgame.";
    amrc_rook_mg: "amrc.rook.mg" = 732, [300, 1000], c_end 25.0, r_end 0.002, value(ROOK Mg), "Ajax Rook, middlegame.";
    amrc_rook_eg: "amrc.rook.eg" = 702, [300, 1000], c_end 25.0, r_end 0.002, value(ROOK Eg), "Ajax Rook, endgame.";
    amrc_queen_mg: "amrc.queen.mg" = 1078, [500, 1700], c_end 30.0, r_end 0.002, value(QUEEN Mg), "Queen, middlegame.";
    amrc_queen_eg: "amrc.queen.eg" = 1320, [500, 1700], c_end 30.0, r_end 0.002, value(QUEEN Eg), "Queen, endgame.";
    amrc_minister_mg: "amrc.minister.mg" = 638, [300, 1100], c_end 25.0, r_end 0.002, value(MINISTER Mg), "Minister on the board, middlegame.";
    amrc_minister_eg: "amrc.minister.eg" = 860, [300, 1100], c_end 25.0, r_end 0.002, value(MINISTER Eg), "Minister on the board, endgame.";
    amrc_minister_hand_mg: "amrc.minister.hand.mg" = 638, [0, 1100], c_end 25.0, r_end 0.002, value(MINISTER Mg hand), "Minister in hand that a gate left can still bring in, middlegame (its board value: a lower one gates too eagerly).";
    amrc_minister_hand_eg: "amrc.minister.hand.eg" = 860, [0, 1100], c_end 25.0, r_end 0.002, value(MINISTER Eg hand), "Minister in hand that a gate left can still bring in, endgame.";
    amrc_prime_minister_mg: "amrc.prime_minister.mg" = 691, [400, 1500], c_end 30.0, r_end 0.002, value(PRIME_MINISTER Mg), "Prime Minister BNmW, middlegame (Archbishop ~8.5 on 9x9).";
    amrc_prime_minister_eg: "amrc.prime_minister.eg" = 1152, [400, 1500], c_end 30.0, r_end 0.002, value(PRIME_MINISTER Eg), "Prime Minister, endgame.";
    // ---- evaluation terms of the Ajax variants (fitted by `ajaxlab tune` to Fairy-Stockfish self-play) ----
    [Reader::Evaluation(Variants::AJAX)]
    bishop_pair_mg: "eval.bishop_pair.mg" = 38, [0, 120], c_end 4.0, r_end 0.002, "Bonus for two bishops, middlegame (Kaufman ~0.5 pawn).";
    bishop_pair_eg: "eval.bishop_pair.eg" = 46, [0, 120], c_end 4.0, r_end 0.002, "Bonus for two bishops, endgame.";
    mobility_mg: "eval.mobility.mg" = 3, [0, 30], c_end 1.0, r_end 0.002, "Mobility, middlegame: per step of 4·sqrt(n) − 8, n the squares a piece reaches in its mobility area.";
    mobility_eg: "eval.mobility.eg" = 6, [0, 30], c_end 1.0, r_end 0.002, "Mobility, endgame, the same scale.";
    pst_mg: "eval.pst.mg" = 1, [0, 20], c_end 0.5, r_end 0.002, "Square table, middlegame: per square a piece reaches from its square on an empty board above its mean reach.";
    pst_eg: "eval.pst.eg" = 8, [0, 20], c_end 0.5, r_end 0.002, "Square table, endgame, the same scale.";
    king_center_eg: "eval.king_center.eg" = 0, [0, 30], c_end 1.5, r_end 0.002, "Per step of king centrality, endgame.";
    king_home_mg: "eval.king_home.mg" = 46, [0, 80], c_end 3.0, r_end 0.002, "King on its first rank, middlegame.";
    pawn_advance_mg: "eval.pawn_advance.mg" = 7, [0, 20], c_end 1.0, r_end 0.002, "Per rank a pawn has advanced, middlegame.";
    pawn_advance_eg: "eval.pawn_advance.eg" = 0, [0, 30], c_end 1.0, r_end 0.002, "Per rank a pawn has advanced, endgame.";
    passed_mg: "eval.passed.mg" = 0, [0, 40], c_end 1.0, r_end 0.002, "Passed pawn, times its progress squared (ranks advanced, on chess's scale), middlegame.";
    passed_eg: "eval.passed.eg" = 13, [0, 40], c_end 1.0, r_end 0.002, "Passed pawn, the same scale, endgame (halved when the square ahead is occupied).";
    passed_king_eg: "eval.passed.king.eg" = 2, [0, 20], c_end 0.5, r_end 0.002, "Passed pawn, endgame: per step the enemy king is farther than the own from the square ahead, times its progress.";
    passed_free_eg: "eval.passed.free.eg" = 0, [0, 40], c_end 1.0, r_end 0.002, "Passed pawn whose path to promotion is empty and not attacked by the enemy, endgame, times its progress (0: the Ajax fit predates the term).";
    passed_safe_eg: "eval.passed.safe.eg" = 0, [0, 40], c_end 1.0, r_end 0.002, "Passed pawn whose next square is empty and not attacked by the enemy (its path is not), endgame, times its progress.";
    passed_unstoppable: "eval.passed.unstoppable" = 0, [0, 900], c_end 20.0, r_end 0.002, "Passed pawn that the enemy king cannot catch (rule of the square) when the enemy has no pieces but pawns, endgame.";
    doubled: "eval.doubled" = 9, [0, 60], c_end 2.0, r_end 0.002, "Penalty per pawn behind another on its file.";
    isolated: "eval.isolated" = 14, [0, 60], c_end 2.0, r_end 0.002, "Penalty per pawn with no own pawn on neighbouring files.";
    king_shield: "eval.king_shield" = 18, [0, 60], c_end 2.0, r_end 0.002, "Per own pawn on the three squares in front of the king, middlegame.";
    king_attack: "eval.king_attack" = 14, [0, 40], c_end 1.0, r_end 0.002, "King danger units per enemy attack on the king's neighbourhood.";
    king_attackers: "eval.king.attackers" = 8, [0, 60], c_end 1.5, r_end 0.002, "King danger units per enemy piece attacking the king's neighbourhood.";
    king_safe_check: "eval.king.safe_check" = 25, [0, 100], c_end 3.0, r_end 0.002, "King danger units per safe check the enemy has (a move or drop to a square we do not attack).";
    king_danger_div: "eval.king.danger_div" = 40, [8, 400], c_end 4.0, r_end 0.002, "King danger in centipawns (middlegame) is units² divided by this.";
    threat_pawn_mg: "eval.threat.pawn.mg" = 70, [0, 200], c_end 4.0, r_end 0.002, "Per enemy piece our pawns attack, middlegame.";
    threat_pawn_eg: "eval.threat.pawn.eg" = 0, [0, 200], c_end 4.0, r_end 0.002, "Per enemy piece our pawns attack, endgame.";
    threat_lesser_mg: "eval.threat.lesser.mg" = 52, [0, 200], c_end 3.0, r_end 0.002, "Per enemy piece attacked by a piece worth less, middlegame.";
    threat_lesser_eg: "eval.threat.lesser.eg" = 76, [0, 200], c_end 3.0, r_end 0.002, "Per enemy piece attacked by a piece worth less, endgame.";
    hanging_mg: "eval.hanging.mg" = 0, [0, 200], c_end 3.0, r_end 0.002, "Per enemy piece we attack that nothing defends, middlegame.";
    hanging_eg: "eval.hanging.eg" = 25, [0, 200], c_end 3.0, r_end 0.002, "Per enemy piece we attack that nothing defends, endgame.";
    king_file_mg: "eval.king_file.mg" = 0, [0, 40], c_end 2.0, r_end 0.002, "Penalty per file the king stands from the nearer edge, middlegame (0: the Ajax fit predates the term).";
    rook_open_mg: "eval.rook_file.open.mg" = 0, [0, 100], c_end 3.0, r_end 0.002, "A rook-like piece (sliding along files, not diagonals) on a file without pawns, middlegame (0: the Ajax fit predates the term).";
    rook_open_eg: "eval.rook_file.open.eg" = 0, [0, 100], c_end 3.0, r_end 0.002, "The same, endgame.";
    rook_semi_open_mg: "eval.rook_file.semi_open.mg" = 0, [0, 100], c_end 3.0, r_end 0.002, "A rook-like piece on a file with enemy pawns but none of its own, middlegame.";
    rook_semi_open_eg: "eval.rook_file.semi_open.eg" = 0, [0, 100], c_end 3.0, r_end 0.002, "The same, endgame.";
    drawish_scale: "eval.drawish.scale" = 1, [1, 64], c_end 2.0, r_end 0.002, "Endgame score of a side without pawns and at most a minor piece ahead, in 64ths.";
    scale_pawns_base: "eval.scale.pawns.base" = 36, [0, 64], c_end 2.0, r_end 0.002, "Endgame score of the side ahead, in 64ths, when it has pawns: at most this plus a step per pawn it has (few pawns win less often).";
    scale_pawns_step: "eval.scale.pawns.step" = 7, [0, 64], c_end 1.0, r_end 0.002, "The step per pawn of the side ahead in that scale.";
    scale_ocb: "eval.scale.ocb" = 22, [0, 64], c_end 2.0, r_end 0.002, "Endgame score, in 64ths, when each side's only piece is a colour-bound bishop and the two stand on squares of opposite colours.";
    scale_ocb_step: "eval.scale.ocb.step" = 2, [0, 64], c_end 1.0, r_end 0.002, "The step per pawn of the side ahead when the bishops are of opposite colours and other pieces remain.";
    tempo: "eval.tempo" = 29, [0, 50], c_end 2.0, r_end 0.002, "Bonus for the side to move.";
    // ---- evaluation terms of chess and Chess960 (the hand-set values the Ajax fit started from) ----
    [Reader::Evaluation(Variants::CHESS_AND_FILES)]
    chess_bishop_pair_mg: "chess.eval.bishop_pair.mg" = 30, [0, 120], c_end 4.0, r_end 0.002, "Chess and Chess960: bonus for two bishops, middlegame (Kaufman ~0.5 pawn).";
    chess_bishop_pair_eg: "chess.eval.bishop_pair.eg" = 50, [0, 120], c_end 4.0, r_end 0.002, "Chess and Chess960: bonus for two bishops, endgame.";
    chess_mobility_mg: "chess.eval.mobility.mg" = 5, [0, 30], c_end 1.0, r_end 0.002, "Chess and Chess960: mobility, middlegame: per step of 4·sqrt(n) − 8, n the squares a piece reaches in its mobility area.";
    chess_mobility_eg: "chess.eval.mobility.eg" = 5, [0, 30], c_end 1.0, r_end 0.002, "Chess and Chess960: mobility, endgame, the same scale.";
    chess_pst_mg: "chess.eval.pst.mg" = 3, [0, 20], c_end 0.5, r_end 0.002, "Chess and Chess960: square table, middlegame: per square a piece reaches from its square on an empty board above its mean reach.";
    chess_pst_eg: "chess.eval.pst.eg" = 2, [0, 20], c_end 0.5, r_end 0.002, "Chess and Chess960: square table, endgame, the same scale.";
    chess_king_center_eg: "chess.eval.king_center.eg" = 8, [0, 30], c_end 1.5, r_end 0.002, "Chess and Chess960: per step of king centrality, endgame.";
    chess_king_home_mg: "chess.eval.king_home.mg" = 20, [0, 80], c_end 3.0, r_end 0.002, "Chess and Chess960: king on its first rank, middlegame.";
    chess_pawn_advance_mg: "chess.eval.pawn_advance.mg" = 3, [0, 20], c_end 1.0, r_end 0.002, "Chess and Chess960: per rank a pawn has advanced, middlegame.";
    chess_pawn_advance_eg: "chess.eval.pawn_advance.eg" = 6, [0, 30], c_end 1.0, r_end 0.002, "Chess and Chess960: per rank a pawn has advanced, endgame.";
    chess_passed_mg: "chess.eval.passed.mg" = 5, [0, 40], c_end 1.0, r_end 0.002, "Chess and Chess960: passed pawn, times its progress squared (ranks advanced, on chess's scale), middlegame.";
    chess_passed_eg: "chess.eval.passed.eg" = 9, [0, 40], c_end 1.0, r_end 0.002, "Chess and Chess960: passed pawn, the same scale, endgame (halved when the square ahead is occupied).";
    chess_passed_king_eg: "chess.eval.passed.king.eg" = 3, [0, 20], c_end 0.5, r_end 0.002, "Chess and Chess960: passed pawn, endgame: per step the enemy king is farther than the own from the square ahead, times its progress.";
    chess_passed_free_eg: "chess.eval.passed.free.eg" = 4, [0, 40], c_end 1.0, r_end 0.002, "Chess and Chess960: passed pawn whose path to promotion is empty and not attacked by the enemy, endgame, times its progress.";
    chess_passed_safe_eg: "chess.eval.passed.safe.eg" = 2, [0, 40], c_end 1.0, r_end 0.002, "Chess and Chess960: passed pawn whose next square is empty and not attacked by the enemy (its path is not), endgame, times its progress.";
    chess_passed_unstoppable: "chess.eval.passed.unstoppable" = 400, [0, 900], c_end 20.0, r_end 0.002, "Chess and Chess960: passed pawn that the enemy king cannot catch (rule of the square) when the enemy has no pieces but pawns, endgame.";
    chess_doubled: "chess.eval.doubled" = 12, [0, 60], c_end 2.0, r_end 0.002, "Chess and Chess960: penalty per pawn behind another on its file.";
    chess_isolated: "chess.eval.isolated" = 10, [0, 60], c_end 2.0, r_end 0.002, "Chess and Chess960: penalty per pawn with no own pawn on neighbouring files.";
    chess_king_shield: "chess.eval.king_shield" = 12, [0, 60], c_end 2.0, r_end 0.002, "Chess and Chess960: per own pawn on the three squares in front of the king, middlegame.";
    chess_king_attack: "chess.eval.king_attack" = 6, [0, 40], c_end 1.0, r_end 0.002, "Chess and Chess960: king danger units per enemy attack on the king's neighbourhood.";
    chess_king_attackers: "chess.eval.king.attackers" = 10, [0, 60], c_end 1.5, r_end 0.002, "Chess and Chess960: king danger units per enemy piece attacking the king's neighbourhood.";
    chess_king_safe_check: "chess.eval.king.safe_check" = 25, [0, 100], c_end 3.0, r_end 0.002, "Chess and Chess960: king danger units per safe check the enemy has (a move or drop to a square we do not attack).";
    chess_king_danger_div: "chess.eval.king.danger_div" = 48, [8, 400], c_end 4.0, r_end 0.002, "Chess and Chess960: king danger in centipawns (middlegame) is units² divided by this.";
    chess_threat_pawn_mg: "chess.eval.threat.pawn.mg" = 45, [0, 200], c_end 4.0, r_end 0.002, "Chess and Chess960: per enemy piece our pawns attack, middlegame.";
    chess_threat_pawn_eg: "chess.eval.threat.pawn.eg" = 30, [0, 200], c_end 4.0, r_end 0.002, "Chess and Chess960: per enemy piece our pawns attack, endgame.";
    chess_threat_lesser_mg: "chess.eval.threat.lesser.mg" = 30, [0, 200], c_end 3.0, r_end 0.002, "Chess and Chess960: per enemy piece attacked by a piece worth less, middlegame.";
    chess_threat_lesser_eg: "chess.eval.threat.lesser.eg" = 20, [0, 200], c_end 3.0, r_end 0.002, "Chess and Chess960: per enemy piece attacked by a piece worth less, endgame.";
    chess_hanging_mg: "chess.eval.hanging.mg" = 25, [0, 200], c_end 3.0, r_end 0.002, "Chess and Chess960: per enemy piece we attack that nothing defends, middlegame.";
    chess_hanging_eg: "chess.eval.hanging.eg" = 15, [0, 200], c_end 3.0, r_end 0.002, "Chess and Chess960: per enemy piece we attack that nothing defends, endgame.";
    chess_king_file_mg: "chess.eval.king_file.mg" = 10, [0, 40], c_end 2.0, r_end 0.002, "Chess and Chess960: penalty per file the king stands from the nearer edge, middlegame (a castled king on g1 pays 10, an uncastled one on e1 30).";
    chess_rook_open_mg: "chess.eval.rook_file.open.mg" = 30, [0, 100], c_end 3.0, r_end 0.002, "Chess and Chess960: a rook on a file without pawns, middlegame.";
    chess_rook_open_eg: "chess.eval.rook_file.open.eg" = 15, [0, 100], c_end 3.0, r_end 0.002, "Chess and Chess960: the same, endgame.";
    chess_rook_semi_open_mg: "chess.eval.rook_file.semi_open.mg" = 12, [0, 100], c_end 3.0, r_end 0.002, "Chess and Chess960: a rook on a file with enemy pawns but none of its own, middlegame.";
    chess_rook_semi_open_eg: "chess.eval.rook_file.semi_open.eg" = 6, [0, 100], c_end 3.0, r_end 0.002, "Chess and Chess960: the same, endgame.";
    chess_drawish_scale: "chess.eval.drawish.scale" = 16, [1, 64], c_end 2.0, r_end 0.002, "Chess and Chess960: endgame score of a side without pawns and at most a minor piece ahead, in 64ths.";
    chess_tempo: "chess.eval.tempo" = 12, [0, 50], c_end 2.0, r_end 0.002, "Chess and Chess960: bonus for the side to move.";
    // ---- time ----
    [Reader::Clock]
    time_stability_base: "time.stability.base" = 100, [50, 300], c_end 10.0, r_end 0.002, "On a clock, the soft time limit in percent when the best move changed in the last iteration.";
    time_stability_step: "time.stability.step" = 8, [0, 50], c_end 2.0, r_end 0.002, "On a clock, the soft time limit falls by this many percent per iteration the best move has stayed the same.";
    time_stability_min: "time.stability.min" = 60, [20, 150], c_end 5.0, r_end 0.002, "On a clock, the smallest soft time limit the stability of the best move gives, percent.";
    time_nodes_base: "time.nodes.base" = 150, [100, 300], c_end 10.0, r_end 0.002, "On a clock, the soft time limit scales with this minus the share of nodes spent on the best move (both percent).";
    time_nodes_scale: "time.nodes.scale" = 100, [50, 300], c_end 10.0, r_end 0.002, "On a clock, the percent by which that difference is multiplied.";
    // ---- search ----
    [Reader::Search]
    aspiration: "search.aspiration" = 25, [5, 200], c_end 4.0, r_end 0.002, "Half-width of the aspiration window.";
    aspiration_depth: "search.aspiration.depth" = 5, [1, 20], c_end 0.5, r_end 0.002, "First iteration searched with an aspiration window.";
    nmp_base: "search.nmp.base" = 3, [1, 6], c_end 0.5, r_end 0.002, "Null-move reduction at low depth.";
    nmp_depth_div: "search.nmp.depth_div" = 4, [2, 12], c_end 0.5, r_end 0.002, "Null-move reduction grows by one per this many plies.";
    nmp_eval_div: "search.nmp.eval_div" = 200, [50, 1000], c_end 15.0, r_end 0.002, "Null-move reduction grows by one per this much static eval above beta (at most 3).";
    nmp_min_depth: "search.nmp.min_depth" = 3, [1, 8], c_end 0.5, r_end 0.002, "Shallowest depth at which the null move is tried.";
    lmr_base: "search.lmr.base" = 75, [0, 200], c_end 8.0, r_end 0.002, "Late-move reduction offset, hundredths of a ply.";
    lmr_div: "search.lmr.div" = 225, [100, 500], c_end 15.0, r_end 0.002, "Late-move reduction divisor of ln(depth)·ln(move number), hundredths.";
    lmr_min_depth: "search.lmr.min_depth" = 3, [1, 8], c_end 0.5, r_end 0.002, "Shallowest depth at which late moves are reduced.";
    lmr_deeper: "search.lmr.deeper" = 60, [0, 400], c_end 8.0, r_end 0.002, "A reduced move that beats alpha is re-searched a ply deeper when it beat the best score by this plus two per ply, a ply shallower when by less than a centipawn per ply (0: at the unreduced depth).";
    lmr_cutoffs: "search.lmr.cutoffs" = 1, [0, 3], c_end 0.5, r_end 0.002, "Late-move reduction added once more than three of the node's moves so far were refuted by a cut-off below them (0: off).";
    lmr_min_move: "search.lmr.min_move" = 3, [1, 10], c_end 0.5, r_end 0.002, "First move (counting from 0) that may be reduced.";
    lmr_cut_node: "search.lmr.cut_node" = 1, [0, 3], c_end 0.5, r_end 0.002, "Late-move reduction added in a node expected to fail high (a cut node).";
    lmr_history_div: "search.lmr.history_div" = 8000, [1000, 40000], c_end 500.0, r_end 0.002, "A quiet move's reduction falls by one ply per this much history.";
    razor_margin: "search.razor.margin" = 250, [0, 600], c_end 15.0, r_end 0.002, "Razoring: a node whose static eval is below alpha by twice this plus this per ply² is settled by quiescence when quiescence confirms it (0: off).";
    rfp_margin: "search.rfp.margin" = 90, [20, 300], c_end 8.0, r_end 0.002, "Reverse futility margin per ply.";
    rfp_depth: "search.rfp.depth" = 6, [1, 12], c_end 0.5, r_end 0.002, "Deepest depth of reverse futility pruning.";
    rfp_improving: "search.rfp.improving" = 30, [0, 200], c_end 5.0, r_end 0.002, "Reverse futility margin taken off per ply when the static eval is improving.";
    futility_margin: "search.futility.margin" = 110, [20, 400], c_end 10.0, r_end 0.002, "Futility margin per ply for quiet moves.";
    futility_base: "search.futility.base" = 60, [0, 400], c_end 8.0, r_end 0.002, "Futility margin at depth zero.";
    futility_depth: "search.futility.depth" = 4, [1, 12], c_end 0.5, r_end 0.002, "Deepest depth of futility pruning.";
    delta_margin: "search.delta.margin" = 200, [0, 1000], c_end 15.0, r_end 0.002, "Quiescence delta pruning margin.";
    lmp_base: "search.lmp.base" = 4, [1, 20], c_end 1.0, r_end 0.002, "Late-move pruning: quiet moves tried at depth d: base + d² (halved when not improving).";
    lmp_depth: "search.lmp.depth" = 8, [1, 16], c_end 0.5, r_end 0.002, "Deepest depth of late-move pruning.";
    see_quiet: "search.see.quiet" = 60, [0, 400], c_end 6.0, r_end 0.002, "Quiet moves losing more than this per ply² in exchange are pruned.";
    see_capture: "search.see.capture" = 100, [0, 400], c_end 8.0, r_end 0.002, "Captures losing more than this per ply in exchange are pruned.";
    see_depth: "search.see.depth" = 8, [1, 16], c_end 0.5, r_end 0.002, "Deepest depth of exchange pruning.";
    qs_see: "search.qs.see" = 0, [-300, 300], c_end 10.0, r_end 0.002, "Quiescence skips captures whose exchange loses more than this.";
    threat_order: "search.threat.order" = 16, [0, 64], c_end 2.0, r_end 0.002, "Move ordering: a quiet move taking a piece out of attack by a cheaper enemy piece gains this many times the piece's value, and one putting it there loses as much (0: off).";
    history_mult: "search.history.mult" = 8, [4, 128], c_end 3.0, r_end 0.002, "History bonus per ply² of the cut-off's depth.";
    history_max: "search.history.max" = 12800, [1000, 16000], c_end 500.0, r_end 0.002, "Largest history bonus of one cut-off.";
    history_refuting: "search.history.refuting" = 100, [0, 300], c_end 10.0, r_end 0.002, "A quiet move after which every reply failed low gains this percentage of a cut-off's history bonus (0: off).";
    history_linear: "search.history.linear" = 250, [0, 1000], c_end 20.0, r_end 0.002, "History bonus per ply of the cut-off's depth, beside the per-ply² one.";
    singular_double: "search.singular.double" = 20, [0, 200], c_end 5.0, r_end 0.002, "A singular move whose alternatives fall this far below the singular bound is extended two plies in a non-PV node (0: never).";
    lmr_tt_pv: "search.lmr.tt_pv" = 1, [0, 2], c_end 0.5, r_end 0.002, "Late-move reduction taken off in a node that was once on a principal variation (by the table) but is not now.";
    iir_depth: "search.iir.depth" = 4, [2, 12], c_end 0.5, r_end 0.002, "Nodes this deep without a hash move are searched one ply shallower.";
    singular_depth: "search.singular.depth" = 6, [4, 20], c_end 0.5, r_end 0.002, "Shallowest depth of the singular-extension test.";
    singular_margin: "search.singular.margin" = 2, [0, 10], c_end 0.3, r_end 0.002, "Singular-extension margin per ply.";
    correction_non_pawn: "search.correction.non_pawn" = 100, [0, 200], c_end 8.0, r_end 0.002, "Weight in percent of the correction history keyed by each side's pieces other than pawns, beside the one keyed by pawns (0: off).";
}

impl Params {
    /// Sets the parameter `name` to `value`, checking its range.
    ///
    /// # Errors
    /// [`ParamError`] for an unknown name or a value out of range; nothing changes.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let spec = spec(name).ok_or_else(|| ParamError::Unknown(name.to_owned()))?;
        if value < i64::from(spec.min) || value > i64::from(spec.max) {
            return Err(ParamError::OutOfRange {
                name: name.to_owned(),
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        let value = i32::try_from(value).map_err(|_| ParamError::OutOfRange {
            name: name.to_owned(),
            value,
            min: spec.min,
            max: spec.max,
        })?;
        match self.slot(name) {
            Some(slot) => *slot = value,
            None if value == spec.default => {
                self.generated.remove(spec.name);
            }
            None => {
                self.generated.insert(spec.name, value);
            }
        }
        Ok(())
    }

    /// The value of the parameter `name`: the table's, or a file variant's
    /// piece's ([`spec`]).
    pub fn get(&self, name: &str) -> Option<i32> {
        spec(name).map(|spec| self.value_of(spec))
    }

    /// The value of `spec`, a parameter of the table or of a file
    /// variant's piece.
    pub fn value_of(&self, spec: &ParamSpec) -> i32 {
        self.get_static(spec.name)
            .or_else(|| self.generated.get(spec.name).copied())
            .unwrap_or(spec.default)
    }

    /// The generated parameters (file variants' pieces, chess's tables)
    /// set away from their defaults.
    pub fn generated_set(&self) -> impl Iterator<Item = &'static ParamSpec> + '_ {
        self.generated.keys().filter_map(|name| spec(name))
    }

    /// Every `(name, value)` pair a run of `variant` carries: the table's,
    /// then those of a file variant's pieces ([`specs_for`]).
    pub fn iter_for(
        &self,
        variant: &'static Variant,
    ) -> impl Iterator<Item = (&'static str, i32)> + '_ {
        specs_for(variant)
            .into_iter()
            .map(|s| (s.name, self.value_of(s)))
    }

    /// Sets `name` from text (as UCI `setoption` gives it).
    ///
    /// # Errors
    /// [`ParamError`] for an unknown name, a non-integer or a value out of range.
    pub fn set_text(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let v: i64 = value.trim().parse().map_err(|_| ParamError::NotInteger {
            name: name.to_owned(),
            value: value.to_owned(),
        })?;
        self.set(name, v)
    }

    /// Every `(name, value)` pair in table order, then those of file
    /// variants' pieces set away from their defaults: all it takes to
    /// rebuild these parameters by name (as the wire does).
    pub fn iter(&self) -> impl Iterator<Item = (&'static str, i32)> + '_ {
        SPECS
            .iter()
            .chain(self.generated_set())
            .map(|s| (s.name, self.value_of(s)))
    }

    /// A TOML table `name = value`, one line per parameter (quoted keys).
    pub fn to_toml(&self, specs: &[&ParamSpec]) -> String {
        specs
            .iter()
            .map(|s| format!("\"{}\" = {}\n", s.name, self.value_of(s)))
            .collect()
    }

    /// A JSON object `{"name": value, ...}`.
    pub fn to_json(&self, specs: &[&ParamSpec]) -> String {
        let map: BTreeMap<&str, i32> = specs.iter().map(|s| (s.name, self.value_of(s))).collect();
        serde_json::to_string_pretty(&map).unwrap_or_default()
    }

    /// Fishtest's SPSA input: `name,int,value,min,max,c_end,r_end` per line.
    pub fn to_spsa(&self, specs: &[&ParamSpec]) -> String {
        specs
            .iter()
            .map(|s| {
                format!(
                    "{},int,{},{},{},{},{}\n",
                    s.name,
                    self.value_of(s),
                    s.min,
                    s.max,
                    s.c_end,
                    s.r_end
                )
            })
            .collect()
    }

    /// Reads a parameter file over the defaults: a TOML table or a JSON
    /// object of `"name" = integer`; unknown names and out-of-range values
    /// are errors naming the key.
    ///
    /// # Errors
    /// [`ParamError`] naming the first bad key, or the syntax problem.
    pub fn from_text(text: &str) -> Result<Params, ParamError> {
        let mut params = Params::default();
        params.apply_text(text)?;
        Ok(params)
    }

    /// Applies a TOML or JSON parameter file to these values.
    ///
    /// # Errors
    /// As [`Params::from_text`]; on error nothing is changed.
    pub fn apply_text(&mut self, text: &str) -> Result<(), ParamError> {
        let pairs: Vec<(String, i64)> = if text.trim_start().starts_with('{') {
            let value: serde_json::Value =
                serde_json::from_str(text).map_err(|e| ParamError::File(format!("JSON: {e}")))?;
            let object = value
                .as_object()
                .ok_or_else(|| ParamError::File("JSON: expected an object".into()))?;
            object
                .iter()
                .map(|(k, v)| {
                    v.as_i64()
                        .map(|n| (k.clone(), n))
                        .ok_or_else(|| ParamError::NotInteger {
                            name: k.clone(),
                            value: v.to_string(),
                        })
                })
                .collect::<Result<_, _>>()?
        } else {
            let table: toml::Table = text
                .parse()
                .map_err(|e: toml::de::Error| ParamError::File(toml_error(text, &e)))?;
            table
                .iter()
                .map(|(k, v)| {
                    v.as_integer()
                        .map(|n| (k.clone(), n))
                        .ok_or_else(|| ParamError::NotInteger {
                            name: k.clone(),
                            value: v.to_string(),
                        })
                })
                .collect::<Result<_, _>>()?
        };
        let mut next = self.clone();
        for (name, value) in pairs {
            next.set(&name, value)?;
        }
        *self = next;
        Ok(())
    }
}

/// The table entry of `name`, or the generated parameter of that name: an
/// entry of chess's square or mobility tables, or a file variant's
/// piece's (of a file this process has loaded).
pub fn spec(name: &str) -> Option<&'static ParamSpec> {
    SPECS
        .iter()
        .find(|s| s.name == name)
        .or_else(|| crate::chess_squares::find(name).map(|at| &crate::chess_squares::specs()[at]))
        .or_else(|| {
            let mobility = &crate::chess_mobility::TABLE;
            mobility.find(name).map(|at| &mobility.specs()[at])
        })
        .or_else(|| crate::file_params::find(name))
}

/// The parameters of a run of `variant`: the table's, then chess's square
/// and mobility tables (chess and Chess960) or [`file_piece_specs`].
pub fn specs_for(variant: &'static Variant) -> Vec<&'static ParamSpec> {
    SPECS
        .iter()
        .chain(chess_table_specs(variant))
        .chain(file_piece_specs(variant))
        .collect()
}

/// The entries of chess's square tables (`chess.square.knight.e4.mg`, see
/// [`crate::chess_squares`]), then of its mobility tables
/// (`chess.mobility.knight.3.mg`, [`crate::chess_mobility`]), for chess and
/// Chess960; none for another variant.
pub fn chess_table_specs(variant: &'static Variant) -> impl Iterator<Item = &'static ParamSpec> {
    let chess = matches!(
        variant.builtin(),
        Some(VariantKind::Chess | VariantKind::Chess960)
    );
    let tables: [&'static [ParamSpec]; 2] = if chess {
        [
            crate::chess_squares::specs(),
            crate::chess_mobility::TABLE.specs(),
        ]
    } else {
        [&[], &[]]
    };
    tables.into_iter().flatten()
}

/// The value parameters of the pieces of a variant of a user's file
/// (`squirrel.s.mg`, see [`crate::file_params`]); none for a built-in.
pub fn file_piece_specs(variant: &'static Variant) -> &'static [ParamSpec] {
    &crate::file_params::pieces_of(variant).specs
}

/// A TOML error of a parameter file by its line, without the line's text
/// (the file may be anything: its text is never echoed).
fn toml_error(text: &str, e: &toml::de::Error) -> String {
    let line = e
        .span()
        .map(|span| text[..span.start.min(text.len())].lines().count().max(1));
    match line {
        Some(line) => format!("TOML, line {line}: {}", e.message()),
        None => format!("TOML: {}", e.message()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_lie_in_their_ranges_and_names_are_unique() {
        let mut names = std::collections::HashSet::new();
        for s in SPECS {
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            assert!(names.insert(s.name), "duplicate {}", s.name);
            assert!(s.c_end > 0.0 && s.r_end > 0.0, "{}", s.name);
        }
    }

    #[test]
    fn the_table_says_which_variants_read_each_parameter() {
        let afc = VariantKind::AjaxFalcon.variant();
        let amrc = VariantKind::AjaxModernRandom.variant();
        let chess960 = VariantKind::Chess960.variant();
        let reads =
            |variant: &'static Variant, name: &str| spec(name).is_some_and(|s| s.read_by(variant));
        assert!(reads(afc, "afc.falcon.mg") && !reads(amrc, "afc.falcon.mg"));
        assert!(reads(afc, "eval.tempo") && reads(amrc, "eval.tempo"));
        assert!(!reads(chess960, "eval.tempo") && reads(chess960, "chess.eval.tempo"));
        assert!(reads(chess960, "chess.queen.eg") && !reads(afc, "chess.queen.eg"));
        assert!(reads(amrc, "search.aspiration") && reads(chess960, "search.aspiration"));
        // The clock's parameters are read on a clock only: a search by
        // nodes, as tuning plays, never reads them.
        assert!(!reads(afc, "time.stability.base"));
        assert_eq!(
            spec("time.stability.base").map(|s| s.reader),
            Some(Reader::Clock)
        );
    }

    #[test]
    fn every_piece_value_names_a_piece_its_variant_has() {
        let hand = spec("amrc.minister.hand.eg").and_then(|s| s.piece);
        assert_eq!(
            hand,
            Some(PieceValue {
                kind: PieceKind::MINISTER,
                phase: Phase::Eg,
                in_hand: true
            })
        );
        for kind in VariantKind::ALL {
            let variant = kind.variant();
            for s in specs_for(variant)
                .into_iter()
                .filter(|s| s.evaluates(variant))
            {
                if let Some(piece) = s.piece {
                    assert!(variant.has_kind(piece.kind), "{}: {variant}", s.name);
                }
            }
        }
        let afc_values = SPECS
            .iter()
            .filter(|s| s.piece.is_some() && s.evaluates(VariantKind::AjaxFalcon.variant()))
            .count();
        assert_eq!(afc_values, 2 * 7 + 2, "seven pieces and the Falcon in hand");
    }

    #[test]
    fn setting_checks_name_and_range() {
        let mut p = Params::default();
        p.set("afc.falcon.mg", 555).unwrap();
        assert_eq!(p.afc_falcon_mg, 555);
        assert!(matches!(
            p.set("afc.falcon.mg", 5000),
            Err(ParamError::OutOfRange { .. })
        ));
        assert!(matches!(
            p.set("afc.dragon.mg", 1),
            Err(ParamError::Unknown(_))
        ));
        assert!(matches!(
            p.set_text("eval.tempo", "ten"),
            Err(ParamError::NotInteger { .. })
        ));
        assert_eq!(p.afc_falcon_mg, 555);
    }

    #[test]
    fn toml_and_json_round_trip() {
        let mut p = Params::default();
        p.set("amrc.minister.mg", 700).unwrap();
        let all: Vec<&ParamSpec> = SPECS.iter().collect();
        assert_eq!(Params::from_text(&p.to_toml(&all)).unwrap(), p);
        assert_eq!(Params::from_text(&p.to_json(&all)).unwrap(), p);
        let err = Params::from_text("\"afc.falcon.mg\" = 99999").unwrap_err();
        assert!(err.to_string().contains("afc.falcon.mg"), "{err}");
        let err = Params::from_text("nonsense = 1").unwrap_err();
        assert_eq!(err, ParamError::Unknown("nonsense".into()));
    }

    #[test]
    fn a_bad_params_file_is_named_by_line_never_echoed() {
        let e = Params::from_text("\"afc.falcon.mg\" = 600\nroot:SECRET:0:0\n").unwrap_err();
        let shown = e.to_string();
        assert!(shown.contains("TOML, line 2: "), "{shown}");
        assert!(!shown.contains("SECRET"), "{shown}");
    }
}
