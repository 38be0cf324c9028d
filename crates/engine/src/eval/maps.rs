//! What each side's pieces attack and reach, gathered in one pass for the
//! mobility, threat and king-danger terms; the tapered (middlegame,
//! endgame) sums the terms add up; and the mobility curve by kind.

use crate::params::Params;
use ajaxlab_rules::{Bitboard, Color, MAX_KINDS, PieceKind, Position, SQUARE_COUNT, Square};

/// What one side's pieces attack and reach, gathered once per evaluation
/// (one pass over the pieces) for the mobility, threat and king-danger
/// terms.
pub(super) struct SideMaps {
    /// Every square the side attacks (could capture on).
    pub(super) attacks: Bitboard,
    /// Squares attacked by the side's pieces of each kind.
    pub(super) attacks_by_kind: [Bitboard; MAX_KINDS],
    /// Squares the side's pieces of each kind can move to.
    pub(super) reach_by_kind: [Bitboard; MAX_KINDS],
    /// Sum of the pieces' mobility.
    pub(super) mobility: Tapered,
    /// Attacks on the enemy king's neighbourhood.
    pub(super) zone_attacks: i32,
    /// Pieces attacking the enemy king's neighbourhood.
    pub(super) zone_attackers: i32,
}

/// The king's distance between two squares: the larger of the file and
/// rank distances.
pub(super) fn chebyshev(a: Square, b: Square) -> i32 {
    let df = (i32::from(a.file().index()) - i32::from(b.file().index())).abs();
    let dr = (i32::from(a.rank().index()) - i32::from(b.rank().index())).abs();
    df.max(dr)
}

/// The squares `color`'s pawns attack.
pub(super) fn pawn_attacks(pos: &Position, color: Color) -> Bitboard {
    pos.pieces(color, PieceKind::PAWN)
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, sq| {
            acc | pos.attacks_from(PieceKind::PAWN, color, sq)
        })
}

/// The squares `color`'s mobility counts: not attacked by enemy pawns and
/// not taken by the side's own king or pawns.
pub(super) fn mobility_area(
    pos: &Position,
    color: Color,
    pawn_attacks: &[Bitboard; 2],
) -> Bitboard {
    !(pawn_attacks[(!color).index()]
        | pos.pieces(color, PieceKind::PAWN)
        | pos.pieces(color, PieceKind::KING))
}

impl SideMaps {
    /// `color`'s maps, given each side's pawn attacks and the mobility by
    /// kind and number of squares.
    pub(super) fn of(
        pos: &Position,
        color: Color,
        pawn_attacks: &[Bitboard; 2],
        mobility: &MobilityTable,
    ) -> SideMaps {
        let them = !color;
        let area = mobility_area(pos, color, pawn_attacks);
        let enemy_king = pos.king_square(them);
        let enemy_zone = pos
            .attacks_from(PieceKind::KING, them, enemy_king)
            .with(enemy_king);
        let mut maps = SideMaps {
            attacks: Bitboard::EMPTY,
            attacks_by_kind: [Bitboard::EMPTY; MAX_KINDS],
            reach_by_kind: [Bitboard::EMPTY; MAX_KINDS],
            mobility: Tapered::default(),
            zone_attacks: 0,
            zone_attackers: 0,
        };
        maps.attacks_by_kind[PieceKind::PAWN.index()] = pawn_attacks[color.index()];
        maps.attacks = pawn_attacks[color.index()];
        for kind in PieceKind::all() {
            if kind == PieceKind::PAWN {
                continue;
            }
            for sq in pos.pieces(color, kind) {
                let attacks = pos.attacks_from(kind, color, sq);
                maps.attacks_by_kind[kind.index()] |= attacks;
                maps.attacks |= attacks;
                if kind == PieceKind::KING {
                    continue;
                }
                let targets = pos.piece_targets(sq);
                maps.reach_by_kind[kind.index()] |= targets;
                let n = (targets & area).count() as usize;
                maps.mobility = maps.mobility.plus(mobility.of(kind, n));
                let on_zone = (attacks & enemy_zone).count() as i32;
                if on_zone > 0 {
                    maps.zone_attacks += on_zone;
                    maps.zone_attackers += 1;
                }
            }
        }
        maps
    }
}

/// A middlegame and an endgame score.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Tapered {
    pub(super) mg: i32,
    pub(super) eg: i32,
}

impl Tapered {
    pub(super) fn add(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }
}

/// Points of the mobility curve: one for each number of squares a piece
/// can reach, up to a whole board.
pub(super) const MOBILITY_POINTS: usize = SQUARE_COUNT + 1;

/// `4·sqrt(n) − 8` rounded: the concave mobility curve (a trapped piece
/// loses more than an active one gains from one more square).
fn mobility_curve(n: usize) -> i32 {
    (4.0 * (n as f64).sqrt()).round() as i32 - 8
}

/// Mobility by kind and number of squares reached, tabled once because the
/// evaluation reads it for every piece.
#[derive(Clone, Debug)]
pub(super) struct MobilityTable(Vec<Tapered>);

impl MobilityTable {
    /// The curve by `params`' mobility weights for every kind, plus
    /// chess's own tables when `chess_tables` holds.
    pub(super) fn new(params: &Params, chess_tables: bool) -> MobilityTable {
        let mut table = vec![Tapered::default(); MAX_KINDS * MOBILITY_POINTS];
        for kind in PieceKind::all() {
            for n in 0..MOBILITY_POINTS {
                let curve = mobility_curve(n);
                let mut entry = Tapered {
                    mg: params.mobility_mg * curve,
                    eg: params.mobility_eg * curve,
                };
                if chess_tables
                    && let Some(row) = crate::chess_mobility::row_of(kind)
                    && let Ok(count) = u8::try_from(n)
                {
                    let (mg, eg) =
                        crate::chess_mobility::TABLE.values(row, count, |s| params.value_of(s));
                    entry.add(mg, eg);
                }
                table[kind.index() * MOBILITY_POINTS + n] = entry;
            }
        }
        MobilityTable(table)
    }

    /// The mobility of a piece of `kind` reaching `n` squares.
    pub(super) fn of(&self, kind: PieceKind, n: usize) -> Tapered {
        self.0[kind.index() * MOBILITY_POINTS + n.min(MOBILITY_POINTS - 1)]
    }
}

impl Tapered {
    pub(super) fn plus(self, other: Tapered) -> Tapered {
        Tapered {
            mg: self.mg + other.mg,
            eg: self.eg + other.eg,
        }
    }
}
