//! Where the side to move's pieces would stand attacked by cheaper enemy
//! pieces, for move ordering: a quiet move that takes a piece out of such an
//! attack is worth trying early (it saves material), one that puts a piece
//! into one late (it usually loses it). Works for every piece of every
//! variant through the rules crate's attack sets.

use crate::eval::Evaluator;
use ajaxlab_rules::{Bitboard, MAX_KINDS, Move, PieceKind, Position};

/// How much cheaper an attacker must be, in centipawns, for its attack to
/// count as a threat (a knight attacking a bishop of about its value is not).
const CHEAPER_BY: i32 = 50;

/// For each kind of the side to move, the squares an enemy piece worth
/// clearly less attacks.
pub(crate) struct Threats {
    by_cheaper: [Bitboard; MAX_KINDS],
}

impl Threats {
    /// The threats against the side to move in `pos`, with piece values
    /// from `eval`.
    pub(crate) fn of(pos: &Position, eval: &Evaluator) -> Threats {
        let them = !pos.side_to_move();
        let kinds = eval.kinds_by_value();
        let mut attacks = [Bitboard::EMPTY; MAX_KINDS];
        for &kind in kinds.iter().filter(|&&k| k != PieceKind::KING) {
            attacks[kind.index()] = pos
                .pieces(them, kind)
                .into_iter()
                .fold(Bitboard::EMPTY, |acc, sq| {
                    acc | pos.attacks_from(kind, them, sq)
                });
        }
        let mut by_cheaper = [Bitboard::EMPTY; MAX_KINDS];
        for &victim in kinds.iter().filter(|&&k| k != PieceKind::KING) {
            let value = eval.piece_value(victim);
            by_cheaper[victim.index()] = kinds
                .iter()
                .filter(|&&k| k != PieceKind::KING && eval.piece_value(k) + CHEAPER_BY <= value)
                .fold(Bitboard::EMPTY, |acc, k| acc | attacks[k.index()]);
        }
        Threats { by_cheaper }
    }

    /// The ordering adjustment of the quiet move `m` of a `mover`: `weight`
    /// times the piece's value, gained when the move leaves a threatened
    /// square for a safe one and lost in the opposite case. Kings, drops
    /// (which leave no square) and moves between two squares of the same
    /// kind score nothing.
    pub(crate) fn ordering_bonus(
        &self,
        eval: &Evaluator,
        mover: PieceKind,
        m: Move,
        weight: i32,
    ) -> i32 {
        if mover == PieceKind::KING {
            return 0;
        }
        let threatened = self.by_cheaper[mover.index()];
        let value = eval.piece_value(mover) * weight;
        match (threatened.contains(m.from()), threatened.contains(m.to())) {
            (true, false) => value,
            (false, true) => -value,
            _ => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::Params;
    use ajaxlab_rules::{Square, VariantKind};

    fn square(name: &str) -> Square {
        let bytes = name.as_bytes();
        Square::from_coords(i32::from(bytes[0] - b'a'), i32::from(bytes[1] - b'1')).unwrap()
    }

    /// The ordering bonus, at weight 8, of a knight's move `from`-`to` in
    /// the chess position `fen`.
    fn knight_bonus(fen: &str, from: &str, to: &str) -> i32 {
        let pos = Position::from_fen(VariantKind::Chess, fen).unwrap();
        let eval = Evaluator::new(pos.variant(), &Params::default());
        let m = Move::normal(square(from), square(to));
        Threats::of(&pos, &eval).ordering_bonus(&eval, PieceKind::KNIGHT, m, 8)
    }

    #[test]
    fn a_piece_attacked_by_a_pawn_is_told_to_leave_and_not_to_enter() {
        let eval = Evaluator::new(VariantKind::Chess.variant(), &Params::default());
        // The black pawn on e5 attacks the white knight on d4, and f4.
        assert_eq!(
            knight_bonus("4k3/8/8/4p3/3N4/8/8/4K3 w - - 0 1", "d4", "b5"),
            8 * eval.piece_value(PieceKind::KNIGHT)
        );
        assert!(knight_bonus("4k3/8/8/4p3/8/8/4N3/4K3 w - - 0 1", "e2", "f4") < 0);
    }

    #[test]
    fn an_attacker_of_about_the_same_value_is_no_threat() {
        // The black bishop on b6 attacks the white knight on d4.
        assert_eq!(
            knight_bonus("4k3/8/1b6/8/3N4/8/8/4K3 w - - 0 1", "d4", "b5"),
            0
        );
    }
}
