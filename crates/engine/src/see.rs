//! Static exchange evaluation: what a capture sequence on one square wins
//! or loses, every side taking back with its least valuable attacker.
//!
//! It works for every piece of every variant because it asks the rules
//! crate who attacks the square under a changing occupancy
//! ([`Position::attackers_to`]): sliders behind a capturer (x-rays) and
//! lame leapers whose path a capture opens join in as the square's
//! attackers are removed; move-only steps never capture and so never take
//! part. A drop captures nothing, but the dropped piece may be taken; a
//! gated piece is left out of the exchange. Pins are ignored, as usual.

use crate::eval::Evaluator;
use ajaxlab_rules::{Bitboard, Move, MoveKind, PieceKind, Position, Square};

/// Longest exchange followed (attackers of one square, both sides).
const MAX_EXCHANGE: usize = 40;

/// Whether the exchange started by `m` wins at least `threshold`
/// centipawns for the mover (material only, middlegame values).
pub(crate) fn see_at_least(pos: &Position, eval: &Evaluator, m: Move, threshold: i32) -> bool {
    see(pos, eval, m) >= threshold
}

/// The material the exchange started by `m` wins for the mover.
pub(crate) fn see(pos: &Position, eval: &Evaluator, m: Move) -> i32 {
    let us = pos.side_to_move();
    let to = m.to();
    let mut occ = pos.occupied();
    let (mut gain, mut on_square) = match m.kind() {
        MoveKind::Castle => return 0,
        MoveKind::Drop => {
            let kind = m.dropped_kind().unwrap_or(PieceKind::PAWN);
            occ = occ.with(to);
            (0, eval.piece_value(kind))
        }
        MoveKind::EnPassant => {
            let captured = Square::new(to.file(), m.from().rank());
            occ = occ.without(captured).without(m.from()).with(to);
            (
                eval.piece_value(PieceKind::PAWN),
                eval.piece_value(PieceKind::PAWN),
            )
        }
        MoveKind::Normal => {
            let victim = pos.piece_at(to).map_or(0, |p| eval.piece_value(p.kind));
            let mover = pos.moving_piece(m).map_or(PieceKind::PAWN, |p| p.kind);
            occ = occ.without(m.from());
            match m.promotion_kind() {
                Some(promoted) => (
                    victim + eval.piece_value(promoted) - eval.piece_value(PieceKind::PAWN),
                    eval.piece_value(promoted),
                ),
                None => (victim, eval.piece_value(mover)),
            }
        }
    };
    let mut swap = [0i32; MAX_EXCHANGE];
    swap[0] = gain;
    let mut depth = 1;
    let mut side = !us;
    while depth < MAX_EXCHANGE {
        let attackers = pos.attackers_to(to, occ, pos.color_pieces(side) & occ, side);
        let Some((square, kind)) = least_valuable(pos, eval, attackers) else {
            break;
        };
        if kind == PieceKind::KING {
            // The king may take only if nothing takes it back.
            let after = occ.without(square);
            let theirs = pos.color_pieces(!side) & after;
            if pos.attackers_to(to, after, theirs, !side).any() {
                break;
            }
        }
        gain = on_square - swap[depth - 1];
        swap[depth] = gain;
        on_square = eval.piece_value(kind);
        occ = occ.without(square);
        side = !side;
        depth += 1;
    }
    while depth > 1 {
        depth -= 1;
        swap[depth - 1] = -(-swap[depth - 1]).max(swap[depth]);
    }
    swap[0]
}

/// The attacker of least value in `attackers`, with its kind.
fn least_valuable(
    pos: &Position,
    eval: &Evaluator,
    attackers: Bitboard,
) -> Option<(Square, PieceKind)> {
    if attackers.is_empty() {
        return None;
    }
    eval.kinds_by_value().iter().find_map(|&kind| {
        let set = attackers & pos.pieces_of_kind(kind);
        set.first().map(|sq| (sq, kind))
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, reason = "test code")]
    use super::*;
    use crate::params::Params;
    use ajaxlab_rules::VariantKind;

    fn see_of(variant: VariantKind, fen: &str, uci: &str) -> i32 {
        let pos = Position::from_fen(variant, fen).unwrap();
        let eval = Evaluator::new(variant.variant(), &Params::default());
        let m = pos.parse_uci(uci).unwrap();
        see(&pos, &eval, m)
    }

    #[test]
    fn a_defended_pawn_taken_by_a_rook_loses_the_exchange() {
        let p = Params::default();
        let score = see_of(
            VariantKind::Chess,
            "4k3/8/2p5/3p4/8/8/3R4/4K3 w - - 0 1",
            "d2d5",
        );
        assert_eq!(score, p.chess_pawn_mg - p.chess_rook_mg);
    }

    #[test]
    fn an_undefended_piece_is_won_whole() {
        let p = Params::default();
        let score = see_of(
            VariantKind::Chess,
            "4k3/8/8/3n4/8/8/3R4/4K3 w - - 0 1",
            "d2d5",
        );
        assert_eq!(score, p.chess_knight_mg);
    }

    #[test]
    fn an_x_ray_rook_behind_the_capturer_joins_in() {
        // Rd2 takes d5 defended once by the e6 pawn; the d1 rook behind
        // recaptures: P - R + P.
        let p = Params::default();
        let score = see_of(
            VariantKind::Chess,
            "4k3/8/4p3/3p4/8/8/3R4/3RK3 w - - 0 1",
            "d2d5",
        );
        assert_eq!(score, 2 * p.chess_pawn_mg - p.chess_rook_mg);
    }

    #[test]
    fn a_falcon_path_opened_by_a_capture_makes_it_an_attacker() {
        // AFC: the e2 pawn takes the knight on f3, the g4 pawn takes back,
        // and the Falcon on e1, whose path to f3 runs through the e2 the
        // pawn has left, takes again: N − P + P.
        let p = Params::default();
        let score = see_of(
            VariantKind::AjaxFalcon,
            "4k5/10/10/10/6p3/5n4/4P5/4F1K3[] w - - 0 1",
            "e2f3",
        );
        assert_eq!(score, p.afc_knight_mg);
    }

    #[test]
    fn a_quiet_move_onto_an_attacked_square_loses_the_piece() {
        let p = Params::default();
        let score = see_of(
            VariantKind::Chess,
            "4k3/8/8/2p5/8/8/8/3QK3 w - - 0 1",
            "d1d4",
        );
        assert_eq!(score, -p.chess_queen_mg);
    }

    #[test]
    fn the_king_does_not_recapture_into_a_defended_square() {
        // Black's rook takes e2 defended only by the king, but the rook on
        // e8 behind defends it: the king may not take back.
        let p = Params::default();
        let score = see_of(
            VariantKind::Chess,
            "4r1k1/8/8/8/8/8/4NK2/4r3 b - - 0 1",
            "e1e2",
        );
        assert_eq!(score, p.chess_knight_mg);
    }
}
