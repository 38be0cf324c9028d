//! Correction history: how far the static evaluation has been from the
//! search's answer in positions with the same pawns, learnt during the
//! search and added to later static evaluations of such positions. The
//! evaluation misjudges some pawn structures (and the pieces' play around
//! them) the same way again and again; the search finds the error, and this
//! table carries it to the sibling positions. Kept between the searches of
//! one game, cleared by a new game.

use ajaxlab_rules::{Color, PieceKind, Position};

/// Entries per side to move (a power of two).
const ENTRIES: usize = 1 << 14;

/// Corrections are stored in these fractions of a centipawn.
const GRAIN: i32 = 256;

/// Largest correction stored, in grains (32 centipawns).
const LIMIT: i32 = 32 * GRAIN;

/// The weight an update carries at full depth, out of [`FULL_WEIGHT_DEPTH`].
const FULL_WEIGHT_DEPTH: i32 = 16;

/// The table of corrections by side to move and pawn structure.
pub(crate) struct Correction {
    table: Vec<i32>,
}

/// A hash of both sides' pawns, from their bitboards.
fn pawn_key(pos: &Position) -> u64 {
    let mix = |bits: u128, salt: u64| {
        let folded = (bits as u64) ^ ((bits >> 64) as u64).rotate_left(23) ^ salt;
        // splitmix64's finaliser: every input bit moves every output bit.
        let mut z = folded.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    mix(pos.pieces(Color::White, PieceKind::PAWN).0, 0x5157_0a1c)
        ^ mix(pos.pieces(Color::Black, PieceKind::PAWN).0, 0x2f3b_99d4).rotate_left(1)
}

impl Correction {
    pub(crate) fn new() -> Correction {
        Correction {
            table: vec![0; 2 * ENTRIES],
        }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.table.iter_mut().for_each(|v| *v = 0);
    }

    fn index(pos: &Position) -> usize {
        let key = (pawn_key(pos) as usize) & (ENTRIES - 1);
        pos.side_to_move().index() * ENTRIES + key
    }

    /// The correction to add to `pos`'s static evaluation, in centipawns.
    pub(crate) fn of(&self, pos: &Position) -> i32 {
        self.table[Self::index(pos)] / GRAIN
    }

    /// Learns that a search of `depth` found `error` (search score minus
    /// corrected static eval, centipawns) at `pos`: deeper searches move
    /// the entry further towards the error.
    pub(crate) fn update(&mut self, pos: &Position, error: i32, depth: i32) {
        let weight = depth.clamp(1, FULL_WEIGHT_DEPTH);
        let slot = &mut self.table[Self::index(pos)];
        let target = (error * GRAIN).clamp(-LIMIT, LIMIT);
        *slot = ((*slot * (FULL_WEIGHT_DEPTH * 4 - weight) + target * weight)
            / (FULL_WEIGHT_DEPTH * 4))
            .clamp(-LIMIT, LIMIT);
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
        assert_eq!(c.of(&pos), 0);
        for _ in 0..200 {
            c.update(&pos, 20, 10);
        }
        assert!((18..=20).contains(&c.of(&pos)), "{}", c.of(&pos));
        for _ in 0..200 {
            c.update(&pos, 500, 16);
        }
        let cap = LIMIT / GRAIN;
        assert!((cap - 1..=cap).contains(&c.of(&pos)), "{}", c.of(&pos));
        c.clear();
        assert_eq!(c.of(&pos), 0);
    }

    #[test]
    fn the_side_to_move_has_its_own_entry() {
        let pos = start();
        let mut c = Correction::new();
        c.update(&pos, 30, 16);
        let mut other = pos;
        other.play_null();
        assert_eq!(c.of(&other), 0);
        assert!(c.of(&pos) > 0);
    }
}
