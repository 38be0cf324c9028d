//! The evaluation: tapered middlegame/endgame material (pieces on the board
//! and in hand valued apart), centrality, mobility, pawn structure, king
//! safety and the bishop pair. Every number comes from [`Params`].

use crate::params::Params;
use ajaxlab_rules::{
    Bitboard, Color, HandRule, KIND_COUNT, PieceKind, Position, SQUARE_COUNT, Square, VariantKind,
};

/// Phase scale: 256 = full middlegame, 0 = bare endgame.
const PHASE_MAX: i32 = 256;

/// The evaluation of one variant under one parameter set, with the tables
/// derived from them.
#[derive(Clone, Debug)]
pub struct Evaluator {
    value_mg: [i32; KIND_COUNT],
    value_eg: [i32; KIND_COUNT],
    hand_mg: i32,
    hand_eg: i32,
    gating: bool,
    /// Non-pawn material (middlegame values, board and hand) of the start position.
    phase_total: i32,
    centrality: Vec<i32>,
    /// Squares strictly ahead of a pawn on its own and neighbouring files, per colour.
    passed_span: [Vec<Bitboard>; 2],
    /// Squares strictly ahead of a pawn on its own file, per colour.
    file_ahead: [Vec<Bitboard>; 2],
    /// Squares of the neighbouring files.
    neighbour_files: Vec<Bitboard>,
    height: i32,
    p: Params,
}

/// `(kind, middlegame, endgame)` values of the pieces on the board.
type BoardValues = [(PieceKind, i32, i32); 8];

/// Board values and the `(middlegame, endgame)` value of a piece in hand.
fn piece_values(variant: VariantKind, p: &Params) -> (BoardValues, (i32, i32)) {
    use PieceKind::*;
    match variant {
        VariantKind::Chess | VariantKind::Chess960 => (
            [
                (Pawn, p.chess_pawn_mg, p.chess_pawn_eg),
                (Knight, p.chess_knight_mg, p.chess_knight_eg),
                (Bishop, p.chess_bishop_mg, p.chess_bishop_eg),
                (Rook, p.chess_rook_mg, p.chess_rook_eg),
                (Queen, p.chess_queen_mg, p.chess_queen_eg),
                (King, 0, 0),
                (Minister, 0, 0),
                (Falcon, 0, 0),
            ],
            (0, 0),
        ),
        VariantKind::AjaxFalcon => (
            [
                (Pawn, p.afc_pawn_mg, p.afc_pawn_eg),
                (Knight, p.afc_knight_mg, p.afc_knight_eg),
                (Bishop, p.afc_bishop_mg, p.afc_bishop_eg),
                (Rook, p.afc_rook_mg, p.afc_rook_eg),
                (Queen, p.afc_queen_mg, p.afc_queen_eg),
                (King, 0, 0),
                (Minister, p.afc_minister_mg, p.afc_minister_eg),
                (Falcon, p.afc_falcon_mg, p.afc_falcon_eg),
            ],
            (p.afc_falcon_hand_mg, p.afc_falcon_hand_eg),
        ),
        VariantKind::AjaxModernRandom => (
            [
                (Pawn, p.amrc_pawn_mg, p.amrc_pawn_eg),
                (Knight, p.amrc_knight_mg, p.amrc_knight_eg),
                (Bishop, p.amrc_bishop_mg, p.amrc_bishop_eg),
                (Rook, p.amrc_rook_mg, p.amrc_rook_eg),
                (Queen, p.amrc_queen_mg, p.amrc_queen_eg),
                (King, 0, 0),
                (Minister, p.amrc_minister_mg, p.amrc_minister_eg),
                (
                    PrimeMinister,
                    p.amrc_prime_minister_mg,
                    p.amrc_prime_minister_eg,
                ),
            ],
            (p.amrc_minister_hand_mg, p.amrc_minister_hand_eg),
        ),
    }
}

impl Evaluator {
    /// The evaluation of `variant` with parameters `params`.
    pub fn new(variant: VariantKind, params: &Params) -> Evaluator {
        let def = &variant.variant().def;
        let (values, (hand_mg, hand_eg)) = piece_values(variant, params);
        let mut value_mg = [0; KIND_COUNT];
        let mut value_eg = [0; KIND_COUNT];
        for (kind, mg, eg) in values {
            value_mg[kind.index()] = mg;
            value_eg[kind.index()] = eg;
        }
        let (w, h) = (i32::from(def.width), i32::from(def.height));
        let on_board = |f: i32, r: i32| (0..w).contains(&f) && (0..h).contains(&r);
        let square = |f: i32, r: i32| {
            if on_board(f, r) {
                Square::from_coords(f, r)
            } else {
                None
            }
        };
        let mut centrality = vec![0; SQUARE_COUNT];
        let mut passed_span = [
            vec![Bitboard::EMPTY; SQUARE_COUNT],
            vec![Bitboard::EMPTY; SQUARE_COUNT],
        ];
        let mut file_ahead = [
            vec![Bitboard::EMPTY; SQUARE_COUNT],
            vec![Bitboard::EMPTY; SQUARE_COUNT],
        ];
        for f in 0..w {
            for r in 0..h {
                let Some(sq) = square(f, r) else { continue };
                centrality[sq.index()] = f.min(w - 1 - f) + r.min(h - 1 - r);
                for (c, dir) in [(0usize, 1), (1, -1)] {
                    let mut rr = r + dir;
                    while on_board(f, rr) {
                        for ff in [f - 1, f, f + 1] {
                            if let Some(s) = square(ff, rr) {
                                passed_span[c][sq.index()] = passed_span[c][sq.index()].with(s);
                                if ff == f {
                                    file_ahead[c][sq.index()] = file_ahead[c][sq.index()].with(s);
                                }
                            }
                        }
                        rr += dir;
                    }
                }
            }
        }
        let neighbour_files = (0..w)
            .map(|f| {
                (0..h)
                    .flat_map(|r| [square(f - 1, r), square(f + 1, r)])
                    .flatten()
                    .collect::<Bitboard>()
            })
            .collect();
        let mut eval = Evaluator {
            value_mg,
            value_eg,
            hand_mg,
            hand_eg,
            gating: matches!(def.hand, HandRule::Gating { .. }),
            phase_total: 1,
            centrality,
            passed_span,
            file_ahead,
            neighbour_files,
            height: h,
            p: params.clone(),
        };
        if let Ok(start) = Position::start(variant, &ajaxlab_rules::StartSpec::Default) {
            eval.phase_total = eval.non_pawn_material(&start).max(1);
        }
        eval
    }

    /// The value of a piece of `kind` on the board, middlegame, in centipawns
    /// (for move ordering and pruning).
    pub fn piece_value(&self, kind: PieceKind) -> i32 {
        self.value_mg[kind.index()]
    }

    fn hand_counts(&self, pos: &Position, color: Color) -> i32 {
        let n = i32::from(pos.hand_count(color));
        // A Minister in hand is worth something only while a gate remains.
        if self.gating && pos.gates(color).is_empty() {
            0
        } else {
            n
        }
    }

    fn non_pawn_material(&self, pos: &Position) -> i32 {
        let mut total = 0;
        for color in Color::ALL {
            for kind in PieceKind::ALL {
                if kind != PieceKind::Pawn && kind != PieceKind::King {
                    total += self.value_mg[kind.index()] * pos.pieces(color, kind).count() as i32;
                }
            }
            total += self.hand_mg * self.hand_counts(pos, color);
        }
        total
    }

    /// The position's value for the side to move, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let mut mg = 0;
        let mut eg = 0;
        for color in Color::ALL {
            let (m, e) = self.side_terms(pos, color);
            let sign = if color == Color::White { 1 } else { -1 };
            mg += sign * m;
            eg += sign * e;
        }
        let phase =
            (self.non_pawn_material(pos) * PHASE_MAX / self.phase_total).clamp(0, PHASE_MAX);
        let white = (mg * phase + eg * (PHASE_MAX - phase)) / PHASE_MAX;
        let score = if pos.side_to_move() == Color::White {
            white
        } else {
            -white
        };
        score + self.p.tempo
    }

    fn side_terms(&self, pos: &Position, us: Color) -> (i32, i32) {
        let p = &self.p;
        let them = !us;
        let (mut mg, mut eg) = (0, 0);
        let hand = self.hand_counts(pos, us);
        mg += hand * self.hand_mg;
        eg += hand * self.hand_eg;

        let own_pawns = pos.pieces(us, PieceKind::Pawn);
        let enemy_pawns = pos.pieces(them, PieceKind::Pawn);
        for sq in own_pawns {
            mg += self.value_mg[0];
            eg += self.value_eg[0];
            let rank = i32::from(sq.rank().index());
            let advance = if us == Color::White {
                rank - 1
            } else {
                self.height - 2 - rank
            };
            mg += p.pawn_advance_mg * advance;
            eg += p.pawn_advance_eg * advance;
            if (self.passed_span[us.index()][sq.index()] & enemy_pawns).is_empty() {
                let progress = advance * advance * 8 / self.height;
                mg += p.passed_mg * progress;
                eg += p.passed_eg * progress;
            }
            if (self.file_ahead[us.index()][sq.index()] & own_pawns).any() {
                mg -= p.doubled;
                eg -= p.doubled;
            }
            if (self.neighbour_files[usize::from(sq.file().index())] & own_pawns).is_empty() {
                mg -= p.isolated;
                eg -= p.isolated;
            }
        }

        let king = pos.king_square(us);
        let king_zone = pos.piece_attacks(king).with(king);
        let mut attacks_on_enemy_king = 0;
        let enemy_king = pos.king_square(them);
        let enemy_zone = pos.piece_attacks(enemy_king).with(enemy_king);
        let mut bishops = 0;
        for kind in PieceKind::ALL {
            if kind == PieceKind::Pawn || kind == PieceKind::King {
                continue;
            }
            let pieces = pos.pieces(us, kind);
            if pieces.is_empty() {
                continue;
            }
            if kind == PieceKind::Bishop {
                bishops = pieces.count();
            }
            for sq in pieces {
                mg += self.value_mg[kind.index()] + p.center_mg * self.centrality[sq.index()];
                eg += self.value_eg[kind.index()];
                let mobility = pos.piece_targets(sq).count() as i32;
                mg += p.mobility_mg * mobility;
                eg += p.mobility_eg * mobility;
                attacks_on_enemy_king += (pos.piece_attacks(sq) & enemy_zone).count() as i32;
            }
        }
        if bishops >= 2 {
            mg += p.bishop_pair_mg;
            eg += p.bishop_pair_eg;
        }
        mg += p.king_attack * attacks_on_enemy_king;

        let home = if us == Color::White {
            0
        } else {
            self.height - 1
        };
        if i32::from(king.rank().index()) == home {
            mg += p.king_home_mg;
        }
        eg += p.king_center_eg * self.centrality[king.index()];
        let shield = king_zone & self.passed_span[us.index()][king.index()] & own_pawns;
        mg += p.king_shield * shield.count() as i32;
        (mg, eg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_rules::StartSpec;

    #[test]
    fn start_positions_are_balanced() {
        let params = Params::default();
        for variant in VariantKind::ALL {
            let eval = Evaluator::new(variant, &params);
            let pos = Position::start(variant, &StartSpec::Default).unwrap();
            assert_eq!(eval.evaluate(&pos), params.tempo, "{variant}");
        }
    }

    /// The piece letter of the other colour.
    fn swap_case(c: char) -> char {
        if c.is_ascii_uppercase() {
            c.to_ascii_lowercase()
        } else {
            c.to_ascii_uppercase()
        }
    }

    /// The FEN of `fen` (chess or Chess960) seen from the other side: ranks
    /// in reverse order, colours swapped, the other side to move.
    fn colour_mirror(fen: &str) -> String {
        let fields: Vec<&str> = fen.split(' ').collect();
        let board: Vec<String> = fields[0]
            .split('/')
            .rev()
            .map(|rank| rank.chars().map(swap_case).collect())
            .collect();
        let side = if fields[1] == "w" { "b" } else { "w" };
        let castling: String = if fields[2] == "-" {
            "-".into()
        } else {
            let swapped: String = fields[2].chars().map(swap_case).collect();
            // White's rights come first.
            let (white, black): (String, String) =
                swapped.chars().partition(char::is_ascii_uppercase);
            white + &black
        };
        let en_passant = match fields[3].as_bytes() {
            [file, b'3'] => format!("{}6", char::from(*file)),
            [file, b'6'] => format!("{}3", char::from(*file)),
            _ => "-".into(),
        };
        format!(
            "{} {side} {castling} {en_passant} {} {}",
            board.join("/"),
            fields[4],
            fields[5]
        )
    }

    /// Colour symmetry: a position and its colour mirror are worth the
    /// same to the side to move, so neither colour is favoured by the
    /// evaluation itself (White's first-move edge must come from play).
    #[test]
    fn evaluation_is_colour_symmetric() {
        let params = Params::default();
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = || {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            (state >> 33) as usize
        };
        for variant in [VariantKind::Chess, VariantKind::Chess960] {
            let eval = Evaluator::new(variant, &params);
            for game in 0..40 {
                let spec = if variant == VariantKind::Chess960 {
                    StartSpec::Number(game * 23 % 960)
                } else {
                    StartSpec::Default
                };
                let mut pos = Position::start(variant, &spec).unwrap();
                for _ in 0..60 {
                    let fen = pos.fen();
                    let mirrored = Position::from_fen(variant, &colour_mirror(&fen)).unwrap();
                    assert_eq!(
                        eval.evaluate(&pos),
                        eval.evaluate(&mirrored),
                        "{fen} against {}",
                        mirrored.fen()
                    );
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play_unchecked(moves[next() % moves.len()]);
                }
            }
        }
    }

    #[test]
    fn a_falcon_in_hand_is_valued_apart_from_one_on_the_board() {
        let params = Params {
            afc_falcon_hand_mg: 300,
            afc_falcon_hand_eg: 300,
            ..Params::default()
        };
        let eval = Evaluator::new(VariantKind::AjaxFalcon, &params);
        let in_hand = Position::from_fen(
            VariantKind::AjaxFalcon,
            "4k5/10/10/10/10/10/10/5K4[F] w - - 0 1",
        )
        .unwrap();
        let on_board = Position::from_fen(
            VariantKind::AjaxFalcon,
            "4k5/10/10/10/10/10/10/F4K4[] w - - 0 1",
        )
        .unwrap();
        assert!(eval.evaluate(&on_board) > eval.evaluate(&in_hand) + 100);
    }

    #[test]
    fn extra_material_scores_for_its_owner_from_either_side() {
        let eval = Evaluator::new(VariantKind::Chess, &Params::default());
        let w = Position::from_fen(VariantKind::Chess, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let b = Position::from_fen(VariantKind::Chess, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(eval.evaluate(&w) > 800);
        assert!(eval.evaluate(&b) < -800);
    }
}
