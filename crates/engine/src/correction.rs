//! Correction history: how far the static evaluation has been from the
//! search's answer in positions with the same pawns, learnt during the
//! search and added to later static evaluations of such positions. The
//! evaluation misjudges some pawn structures (and the pieces' play around
//! them) the same way again and again; the search finds the error, and this
//! table carries it to the sibling positions. A second pair of tables keys
//! the same error by each side's pieces other than pawns (and its hand),
//! for the misjudged piece configurations. Kept between the searches of one
//! game, cleared by a new game.

use ajaxlab_rules::{Color, PieceKind, Position};

/// Entries per side to move (a power of two).
const ENTRIES: usize = 1 << 14;

/// Corrections are stored in these fractions of a centipawn.
const GRAIN: i32 = 256;

/// Largest correction stored, in grains (32 centipawns).
const LIMIT: i32 = 32 * GRAIN;

/// The weight an update carries at full depth, out of [`FULL_WEIGHT_DEPTH`].
const FULL_WEIGHT_DEPTH: i32 = 16;

/// The tables of corrections by side to move: one keyed by the pawn
/// structure, one per colour keyed by that colour's other pieces.
pub(crate) struct Correction {
    table: Vec<i32>,
    non_pawn: [Vec<i32>; 2],
}

/// A hash of a bitboard and a salt.
fn mix(bits: u128, salt: u64) -> u64 {
    let folded = (bits as u64) ^ ((bits >> 64) as u64).rotate_left(23) ^ salt;
    // splitmix64's finaliser: every input bit moves every output bit.
    let mut z = folded.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A hash of both sides' pawns, from their bitboards.
fn pawn_key(pos: &Position) -> u64 {
    mix(pos.pieces(Color::White, PieceKind::PAWN).0, 0x5157_0a1c)
        ^ mix(pos.pieces(Color::Black, PieceKind::PAWN).0, 0x2f3b_99d4).rotate_left(1)
}

/// A hash of `color`'s pieces other than pawns, kind by kind, and its hand.
fn non_pawn_key(pos: &Position, color: Color) -> u64 {
    pos.variant()
        .def
        .pieces
        .iter()
        .map(|def| {
            let salt = 0x6a09_e667_u64.wrapping_mul(def.kind.index() as u64 + 1);
            mix(pos.pieces(color, def.kind).0, salt).rotate_left(def.kind.index() as u32)
        })
        .fold(u64::from(pos.hand_count(color)), |key, part| key ^ part)
}

/// Moves `slot` towards `error` (centipawns) by the weight of `depth`.
fn learn(slot: &mut i32, error: i32, depth: i32) {
    let weight = depth.clamp(1, FULL_WEIGHT_DEPTH);
    let target = (error * GRAIN).clamp(-LIMIT, LIMIT);
    *slot = ((*slot * (FULL_WEIGHT_DEPTH * 4 - weight) + target * weight)
        / (FULL_WEIGHT_DEPTH * 4))
        .clamp(-LIMIT, LIMIT);
}

impl Correction {
    pub(crate) fn new() -> Correction {
        Correction {
            table: vec![0; 2 * ENTRIES],
            non_pawn: [vec![0; 2 * ENTRIES], vec![0; 2 * ENTRIES]],
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.table.iter_mut().for_each(|v| *v = 0);
        for table in &mut self.non_pawn {
            table.iter_mut().for_each(|v| *v = 0);
        }
    }

    fn slot(pos: &Position, key: u64) -> usize {
        pos.side_to_move().index() * ENTRIES + (key as usize & (ENTRIES - 1))
    }

    /// The correction to add to `pos`'s static evaluation, in centipawns:
    /// the pawn structure's, plus `non_pawn_weight` percent of the two
    /// sides' other pieces'.
    pub(crate) fn of(&self, pos: &Position, non_pawn_weight: i32) -> i32 {
        let pawn = self.table[Self::slot(pos, pawn_key(pos))];
        if non_pawn_weight == 0 {
            return pawn / GRAIN;
        }
        let non_pawn: i32 = Color::ALL
            .iter()
            .map(|&c| self.non_pawn[c.index()][Self::slot(pos, non_pawn_key(pos, c))])
            .sum();
        (pawn + non_pawn * non_pawn_weight / 100) / GRAIN
    }

    /// Learns that a search of `depth` found `error` (search score minus
    /// corrected static eval, centipawns) at `pos`: deeper searches move
    /// the entries further towards the error. The non-pawn tables learn
    /// only when they are used (`non_pawn_weight` above 0).
    pub(crate) fn update(&mut self, pos: &Position, error: i32, depth: i32, non_pawn_weight: i32) {
        learn(
            &mut self.table[Self::slot(pos, pawn_key(pos))],
            error,
            depth,
        );
        if non_pawn_weight > 0 {
            for c in Color::ALL {
                let slot = Self::slot(pos, non_pawn_key(pos, c));
                learn(&mut self.non_pawn[c.index()][slot], error, depth);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_rules::{StartSpec, VariantKind};

    fn start() -> Position {
        match Position::start(VariantKind::AjaxFalcon, &StartSpec::Default) {
            Ok(pos) => pos,
            Err(e) => panic!("the start position builds: {e}"),
        }
    }

    #[test]
    fn repeated_errors_move_the_correction_towards_them_and_no_further() {
        let pos = start();
        let mut c = Correction::new();
        assert_eq!(c.of(&pos, 0), 0);
        for _ in 0..200 {
            c.update(&pos, 20, 10, 0);
        }
        assert!((18..=20).contains(&c.of(&pos, 0)), "{}", c.of(&pos, 0));
        for _ in 0..200 {
            c.update(&pos, 500, 16, 0);
        }
        let cap = LIMIT / GRAIN;
        assert!(
            (cap - 1..=cap).contains(&c.of(&pos, 0)),
            "{}",
            c.of(&pos, 0)
        );
        c.clear();
        assert_eq!(c.of(&pos, 0), 0);
    }

    #[test]
    fn the_non_pawn_tables_tell_apart_positions_with_the_same_pawns() {
        let pos = start();
        // A White piece moved (and Black passed): the same pawns, White's other pieces elsewhere.
        let mut moved = pos;
        let Some(m) = pos.legal_moves().iter().copied().find(|&m| {
            pos.captured_kind(m).is_none()
                && pos
                    .moving_piece(m)
                    .is_some_and(|p| p.kind != PieceKind::PAWN)
        }) else {
            panic!("the start has a piece move");
        };
        moved.play_unchecked(m);
        moved.play_null();
        assert_eq!(pawn_key(&pos), pawn_key(&moved));
        let mut c = Correction::new();
        c.update(&pos, 30, 16, 0);
        assert_eq!(
            c.of(&pos, 100),
            c.of(&moved, 100),
            "unused, the non-pawn tables learn nothing"
        );
        c.clear();
        c.update(&pos, 30, 16, 100);
        assert!(c.of(&pos, 100) > c.of(&moved, 100));
        assert_eq!(c.of(&pos, 0), c.of(&moved, 0));
    }

    #[test]
    fn the_side_to_move_has_its_own_entry() {
        let pos = start();
        let mut c = Correction::new();
        c.update(&pos, 30, 16, 0);
        let mut other = pos;
        other.play_null();
        assert_eq!(c.of(&other, 0), 0);
        assert!(c.of(&pos, 0) > 0);
    }
}
