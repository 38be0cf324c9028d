//! The evaluation, for any piece the rules define: tapered
//! middlegame/endgame material (pieces on the board and in hand valued
//! apart), square tables derived from each piece's reach, mobility in a
//! mobility area on a concave curve (in chess with a table per piece beside
//! it), threats (pieces attacked by pawns or by
//! lesser pieces, hanging pieces), pawn structure and passed pawns (progress,
//! blockade, king distance), a nonlinear king danger counting safe checks by
//! moves and by drops, the bishop pair, rook-like pieces on open and
//! semi-open files, the king's distance from the edge in the middlegame,
//! and the scaling of drawish endgames (few pawns, bishops of opposite
//! colours, no pawns and little more material). Every number comes from
//! [`Params`].

mod maps;
#[cfg(test)]
mod tests;
mod values;

use crate::entry_table::Placed;
use crate::params::Params;
use ajaxlab_rules::{
    Bitboard, Color, HandRule, Layout, MAX_KINDS, PieceKind, Position, SQUARE_COUNT, Square,
    StartSpec, Variant, VariantKind,
};
use maps::{MobilityTable, SideMaps, Tapered, chebyshev, mobility_area, pawn_attacks};
pub(crate) use values::derived_values;
use values::piece_values;

/// Phase scale: 256 = full middlegame, 0 = bare endgame.
const PHASE_MAX: i32 = 256;

/// The evaluation of one variant under one parameter set, with the tables
/// derived from them.
#[derive(Clone, Debug)]
pub struct Evaluator {
    value_mg: [i32; MAX_KINDS],
    value_eg: [i32; MAX_KINDS],
    hand_mg: i32,
    hand_eg: i32,
    gating: bool,
    /// The kind dropped from hand, in a variant with drops.
    drop_kind: Option<PieceKind>,
    /// Non-pawn material (middlegame values, board and hand) of the start position.
    phase_total: i32,
    /// Square tables by colour, kind and square (`kind·SQUARE_COUNT + square`).
    pst: [Vec<Tapered>; 2],
    /// The board's files, spans ahead and colours of squares.
    layout: &'static Layout,
    /// Kinds that slide along files but not along diagonals (chess's rook),
    /// scored for open and semi-open files.
    rook_like: Vec<PieceKind>,
    width: i32,
    height: i32,
    /// The value of the more valuable minor piece (drawish endgames).
    minor: i32,
    /// The light squares, when the variant's bishop is bound to its colour
    /// (endgames of bishops on opposite colours).
    light_squares: Option<Bitboard>,
    /// The variant's kinds from least to most valuable, the king last (the
    /// order in which an exchange brings in its attackers).
    kinds_by_value: Vec<PieceKind>,
    /// The most valuable kind a pawn may promote to.
    best_promotion: PieceKind,
    /// Mobility by kind and number of squares reached: the concave curve
    /// by the mobility weights, plus chess's tables
    /// ([`crate::chess_mobility`]) in chess and Chess960.
    mobility: MobilityTable,
    p: Params,
}

/// The middlegame and endgame sums of a position, White's less Black's,
/// and how [`Evaluator::evaluate`] blends them.
struct Blend {
    total: Tapered,
    /// [`PHASE_MAX`] in a full middlegame, 0 in a bare endgame.
    phase: i32,
    /// The endgame sum's scale, in 64ths.
    eg_scale: i32,
}

/// A position's evaluation, and how much one centipawn more in White's
/// middlegame or endgame sum moves White's score.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Linearised {
    /// The evaluation for the side to move, as [`Evaluator::evaluate`].
    pub(crate) score: i32,
    /// Per centipawn of the middlegame sum.
    pub(crate) middlegame: f64,
    /// Per centipawn of the endgame sum.
    pub(crate) endgame: f64,
}

/// Adds chess's square tables ([`crate::chess_squares`]) to the derived
/// ones, each colour reading them from its own side.
fn add_chess_squares(pst: &mut [Vec<Tapered>; 2], board: &[Square], params: &Params) {
    let specs = crate::chess_squares::specs();
    for color in Color::ALL {
        for &sq in board {
            let Some(relative) = crate::chess_squares::relative(color, sq) else {
                continue;
            };
            for (piece, &(kind, _)) in crate::chess_squares::PIECES.iter().enumerate() {
                let value = |middlegame| {
                    crate::chess_squares::index(piece, relative, middlegame)
                        .map_or(0, |at| params.value_of(&specs[at]))
                };
                let entry = &mut pst[color.index()][kind.index() * SQUARE_COUNT + sq.index()];
                entry.add(value(true), value(false));
            }
        }
    }
}

impl Evaluator {
    /// The evaluation of `variant` with parameters `params`: a built-in's
    /// tuned terms, or for a variant of a user's file chess's positional
    /// terms (such a variant is chess with other pieces) and piece values
    /// derived from the pieces' moves.
    pub fn new(variant: &'static Variant, params: &Params) -> Evaluator {
        let chess_terms;
        let params = match variant.builtin() {
            Some(VariantKind::AjaxFalcon | VariantKind::AjaxModernRandom) => params,
            Some(VariantKind::Chess | VariantKind::Chess960) | None => {
                chess_terms = params.chess_positional();
                &chess_terms
            }
        };
        let v = variant;
        let def = &v.def;
        let ([value_mg, value_eg], (hand_mg, hand_eg)) = piece_values(v, params);
        let layout = v.layout();
        let board = layout.squares();
        // Square tables from each piece's reach on an empty board: a square
        // from which the piece reaches more is worth more, by as much as
        // the reach exceeds the piece's mean over the board.
        let mut derived = vec![Tapered::default(); MAX_KINDS * SQUARE_COUNT];
        for kind in PieceKind::all() {
            if kind == PieceKind::PAWN || kind == PieceKind::KING || !v.has_kind(kind) {
                continue;
            }
            let reach: Vec<i32> = board
                .iter()
                .map(|&sq| v.empty_board_reach(kind, sq).count() as i32)
                .collect();
            let total: i32 = reach.iter().sum();
            let count = i32::try_from(board.len()).unwrap_or(1).max(1);
            for (&sq, &n) in board.iter().zip(&reach) {
                let above = n * 4 - total * 4 / count;
                derived[kind.index() * SQUARE_COUNT + sq.index()] = Tapered {
                    mg: params.pst_mg * above / 4,
                    eg: params.pst_eg * above / 4,
                };
            }
        }
        let mut pst = [derived.clone(), derived];
        let chess_tables = matches!(
            v.builtin(),
            Some(VariantKind::Chess | VariantKind::Chess960)
        );
        if chess_tables {
            add_chess_squares(&mut pst, board, params);
        }
        let rook_like = def
            .pieces
            .iter()
            .filter(|p| p.is_rook_like())
            .map(|p| p.kind)
            .collect();
        let mut kinds_by_value: Vec<PieceKind> = PieceKind::all()
            .filter(|&k| k != PieceKind::KING && v.has_kind(k))
            .collect();
        kinds_by_value.sort_by_key(|k| value_mg[k.index()]);
        kinds_by_value.push(PieceKind::KING);
        let best_promotion = def
            .pawn
            .promotions
            .iter()
            .copied()
            .max_by_key(|k| value_mg[k.index()])
            .unwrap_or(PieceKind::QUEEN);
        let drop_kind = match def.hand {
            HandRule::Drops { kind, .. } => Some(kind),
            _ => None,
        };
        let minor = [PieceKind::KNIGHT, PieceKind::BISHOP]
            .iter()
            .map(|k| value_mg[k.index()])
            .max()
            .unwrap_or(0);
        let mut eval = Evaluator {
            value_mg,
            value_eg,
            hand_mg,
            hand_eg,
            gating: matches!(def.hand, HandRule::Gating { .. }),
            drop_kind,
            phase_total: 1,
            pst,
            layout,
            rook_like,
            width: i32::from(def.width),
            height: i32::from(def.height),
            minor,
            light_squares: v
                .is_colour_bound(PieceKind::BISHOP)
                .then(|| layout.light_squares()),
            kinds_by_value,
            best_promotion,
            mobility: MobilityTable::new(params, chess_tables),
            p: params.clone(),
        };
        if let Ok(start) = Position::start_in(v, &StartSpec::Default) {
            eval.phase_total = eval.non_pawn_material(&start).max(1);
        }
        eval
    }

    /// The value of a piece of `kind` on the board, middlegame, in centipawns
    /// (for move ordering and pruning).
    pub fn piece_value(&self, kind: PieceKind) -> i32 {
        self.value_mg[kind.index()]
    }

    /// Whether `pos` is quiet: the side to move is not in check and has no
    /// capture or promotion that wins material by static exchange. A tuner
    /// fits the evaluation to positions like these, where the static score
    /// is what a quiescence search would return.
    pub fn is_quiet(&self, pos: &Position) -> bool {
        !pos.in_check()
            && pos
                .legal_tactical_moves()
                .iter()
                .all(|&m| crate::see::see(pos, self, m) <= 0 && m.promotion_kind().is_none())
    }

    /// The variant's kinds from least to most valuable, the king last.
    pub(crate) fn kinds_by_value(&self) -> &[PieceKind] {
        &self.kinds_by_value
    }

    /// The most valuable kind a pawn may promote to.
    pub(crate) fn best_promotion(&self) -> PieceKind {
        self.best_promotion
    }

    fn hand_counts(&self, pos: &Position, color: Color) -> i32 {
        let n = i32::from(pos.hand_count(color));
        // A Minister in hand can enter only through a gate of its own: those
        // beyond the gates left will never reach the board.
        if self.gating {
            n.min(pos.gates(color).count() as i32)
        } else {
            n
        }
    }

    fn non_pawn_material_of(&self, pos: &Position, color: Color) -> i32 {
        let mut total = 0;
        for kind in PieceKind::all() {
            if kind != PieceKind::PAWN && kind != PieceKind::KING {
                total += self.value_mg[kind.index()] * pos.pieces(color, kind).count() as i32;
            }
        }
        total + self.hand_mg * self.hand_counts(pos, color)
    }

    fn non_pawn_material(&self, pos: &Position) -> i32 {
        Color::ALL
            .into_iter()
            .map(|c| self.non_pawn_material_of(pos, c))
            .sum()
    }

    /// The sums the evaluation blends: both sides' terms (White's less
    /// Black's), the phase and the endgame's scale.
    fn blend(&self, pos: &Position) -> Blend {
        let pawns = [
            pawn_attacks(pos, Color::White),
            pawn_attacks(pos, Color::Black),
        ];
        let maps = [
            SideMaps::of(pos, Color::White, &pawns, &self.mobility),
            SideMaps::of(pos, Color::Black, &pawns, &self.mobility),
        ];
        let mut total = Tapered::default();
        for color in Color::ALL {
            let t = self.side_terms(pos, color, &maps);
            let sign = if color == Color::White { 1 } else { -1 };
            total.add(sign * t.mg, sign * t.eg);
        }
        let material = [
            self.non_pawn_material_of(pos, Color::White),
            self.non_pawn_material_of(pos, Color::Black),
        ];
        Blend {
            total,
            phase: ((material[0] + material[1]) * PHASE_MAX / self.phase_total).clamp(0, PHASE_MAX),
            eg_scale: self.endgame_scale(pos, total.eg, material),
        }
    }

    /// The position's value for the side to move, in centipawns.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.score(pos, &self.blend(pos))
    }

    /// The score of `blend`, the sums of `pos`, for the side to move.
    fn score(&self, pos: &Position, blend: &Blend) -> i32 {
        let eg = blend.total.eg * blend.eg_scale / 64;
        let white = (blend.total.mg * blend.phase + eg * (PHASE_MAX - blend.phase)) / PHASE_MAX;
        let score = if pos.side_to_move() == Color::White {
            white
        } else {
            -white
        };
        score + self.p.tempo
    }

    /// The evaluation of `pos` for the side to move, and how much one
    /// centipawn more in White's middlegame and endgame sums would move
    /// White's score: the exact gradient, for a tuner, of every term the
    /// evaluation adds linearly (chess's square and mobility tables).
    pub(crate) fn evaluate_linearised(&self, pos: &Position) -> Linearised {
        let blend = self.blend(pos);
        let phase = f64::from(blend.phase) / f64::from(PHASE_MAX);
        Linearised {
            score: self.score(pos, &blend),
            middlegame: phase,
            endgame: (1.0 - phase) * f64::from(blend.eg_scale) / 64.0,
        }
    }

    /// The cells of chess's mobility tables ([`crate::chess_mobility`])
    /// the pieces of `pos` use, each counting from White's side: the terms
    /// of the evaluation linear in those entries, for a tuner's exact
    /// gradient.
    pub(crate) fn chess_mobility_entries(&self, pos: &Position) -> Vec<Placed> {
        let pawns = [
            pawn_attacks(pos, Color::White),
            pawn_attacks(pos, Color::Black),
        ];
        let mut out = Vec::with_capacity(16);
        for color in Color::ALL {
            let sign = if color == Color::White { 1 } else { -1 };
            let area = mobility_area(pos, color, &pawns);
            for (row, &kind) in crate::chess_mobility::PIECES.iter().enumerate() {
                for sq in pos.pieces(color, kind) {
                    let n = (pos.piece_targets(sq) & area).count();
                    let count = u8::try_from(n).unwrap_or(u8::MAX);
                    out.extend(crate::chess_mobility::TABLE.placed(row, count, sign));
                }
            }
        }
        out
    }

    /// The endgame score's scale in 64ths: a side ahead with no pawns and
    /// at most a minor piece's worth more material can rarely win, and bare
    /// kings are a dead draw; a side ahead with few pawns wins less often,
    /// and with bishops on opposite colours less often still.
    /// `material` is each side's non-pawn material.
    fn endgame_scale(&self, pos: &Position, eg: i32, material: [i32; 2]) -> i32 {
        let p = &self.p;
        let strong = if eg >= 0 { Color::White } else { Color::Black };
        let ours = material[strong.index()];
        let theirs = material[(!strong).index()];
        let pawns = pos.pieces(strong, PieceKind::PAWN).count() as i32;
        if pawns == 0 {
            return if ours == 0 {
                0
            } else if ours - theirs <= self.minor {
                p.drawish_scale
            } else {
                64
            };
        }
        if self.opposite_bishops(pos) {
            let bishop = self.value_mg[PieceKind::BISHOP.index()];
            if ours == bishop && theirs == bishop {
                return p.scale_ocb;
            }
            return (p.scale_pawns_base + p.scale_ocb_step * pawns).min(64);
        }
        (p.scale_pawns_base + p.scale_pawns_step * pawns).min(64)
    }

    /// Whether each side has exactly one bishop, a colour-bound one, and
    /// the two stand on squares of opposite colours.
    fn opposite_bishops(&self, pos: &Position) -> bool {
        let Some(light) = self.light_squares else {
            return false;
        };
        let white = pos.pieces(Color::White, PieceKind::BISHOP);
        let black = pos.pieces(Color::Black, PieceKind::BISHOP);
        white.count() == 1 && black.count() == 1 && (white & light).any() != (black & light).any()
    }

    fn side_terms(&self, pos: &Position, us: Color, maps: &[SideMaps; 2]) -> Tapered {
        let p = &self.p;
        let mut t = Tapered::default();
        let hand = self.hand_counts(pos, us);
        t.add(hand * self.hand_mg, hand * self.hand_eg);

        let own_pawns = pos.pieces(us, PieceKind::PAWN);
        let enemy_pawns = pos.pieces(!us, PieceKind::PAWN);
        let own_king = pos.king_square(us);
        let table = &self.pst[us.index()];
        let square = table[PieceKind::KING.index() * SQUARE_COUNT + own_king.index()];
        t.add(square.mg, square.eg);
        for sq in own_pawns {
            let square = table[PieceKind::PAWN.index() * SQUARE_COUNT + sq.index()];
            t.add(self.value_mg[0] + square.mg, self.value_eg[0] + square.eg);
            let rank = i32::from(sq.rank().index());
            let advance = if us == Color::White {
                rank - 1
            } else {
                self.height - 2 - rank
            };
            t.add(p.pawn_advance_mg * advance, p.pawn_advance_eg * advance);
            if (self.layout.span_ahead(us, sq) & enemy_pawns).is_empty() {
                t = t.plus(self.passed_pawn(pos, us, sq, advance, maps));
            }
            if (self.layout.file_ahead(us, sq) & own_pawns).any() {
                t.add(-p.doubled, -p.doubled);
            }
            if (self.layout.neighbour_files_of(sq) & own_pawns).is_empty() {
                t.add(-p.isolated, -p.isolated);
            }
        }

        let ours = &maps[us.index()];
        t = t.plus(ours.mobility);
        let mut bishops = 0;
        for kind in PieceKind::all() {
            if kind == PieceKind::PAWN || kind == PieceKind::KING {
                continue;
            }
            let pieces = pos.pieces(us, kind);
            if kind == PieceKind::BISHOP {
                bishops = pieces.count();
            }
            for sq in pieces {
                let square = self.pst[us.index()][kind.index() * SQUARE_COUNT + sq.index()];
                t.add(
                    self.value_mg[kind.index()] + square.mg,
                    self.value_eg[kind.index()] + square.eg,
                );
            }
        }
        if bishops >= 2 {
            t.add(p.bishop_pair_mg, p.bishop_pair_eg);
        }
        for &kind in &self.rook_like {
            for sq in pos.pieces(us, kind) {
                let file = self.layout.file_of(sq);
                if (file & own_pawns).any() {
                    continue;
                }
                if (file & enemy_pawns).any() {
                    t.add(p.rook_semi_open_mg, p.rook_semi_open_eg);
                } else {
                    t.add(p.rook_open_mg, p.rook_open_eg);
                }
            }
        }
        t = t.plus(self.threats(pos, us, maps));
        // King danger we inflict: attacks on the enemy king's neighbourhood,
        // the attackers, and the safe checks we have (moves and drops).
        let safe_checks = self.safe_checks(pos, us, maps);
        let units = p.king_attack * ours.zone_attacks
            + p.king_attackers * ours.zone_attackers
            + p.king_safe_check * safe_checks;
        if ours.zone_attackers >= 2 || safe_checks > 0 {
            t.add(units * units / p.king_danger_div.max(1), 0);
        }

        let home = if us == Color::White {
            0
        } else {
            self.height - 1
        };
        if i32::from(own_king.rank().index()) == home {
            t.add(p.king_home_mg, 0);
        }
        let king_file = i32::from(own_king.file().index());
        let from_edge = king_file.min(self.width - 1 - king_file);
        t.add(-p.king_file_mg * from_edge, 0);
        t.add(0, p.king_center_eg * self.layout.edge_distance(own_king));
        let king_zone = pos
            .attacks_from(PieceKind::KING, us, own_king)
            .with(own_king);
        let shield = king_zone & self.layout.span_ahead(us, own_king) & own_pawns;
        t.add(p.king_shield * shield.count() as i32, 0);
        t
    }

    /// A pawn's progress on chess's scale, 0 on its start rank to 36 on the
    /// rank before the last, `advance` ranks from its start: every board
    /// height values the last ranks alike.
    fn progress(&self, advance: i32) -> i32 {
        let span = (self.height - 2).max(1);
        advance * advance * 36 / (span * span)
    }

    /// A passed pawn of `us` on `sq`, `advance` ranks from its start:
    /// progress, blockade, the kings' distances, whether its path is free
    /// of enemy control, and whether a bare enemy king can still catch it.
    fn passed_pawn(
        &self,
        pos: &Position,
        us: Color,
        sq: Square,
        advance: i32,
        maps: &[SideMaps; 2],
    ) -> Tapered {
        let p = &self.p;
        let progress = self.progress(advance);
        let path = self.layout.file_ahead(us, sq);
        let (next, promotion) = if us == Color::White {
            (path.first(), path.last())
        } else {
            (path.last(), path.first())
        };
        let mut eg = p.passed_eg * progress;
        let (Some(next), Some(promotion)) = (next, promotion) else {
            return Tapered {
                mg: p.passed_mg * progress,
                eg,
            };
        };
        let occupied = pos.occupied();
        if occupied.contains(next) {
            eg /= 2;
        }
        let ours = chebyshev(pos.king_square(us), next);
        let theirs = chebyshev(pos.king_square(!us), next);
        eg += p.passed_king_eg * (theirs - ours) * advance;
        let enemy_attacks = maps[(!us).index()].attacks;
        if (path & (occupied | enemy_attacks)).is_empty() {
            eg += p.passed_free_eg * progress;
        } else if !(occupied | enemy_attacks).contains(next) {
            eg += p.passed_safe_eg * progress;
        }
        if p.passed_unstoppable > 0
            && (path & occupied).is_empty()
            && self.non_pawn_material_of(pos, !us) == 0
        {
            // The rule of the square: the pawn's first move may be a double step.
            let steps = path.count() as i32 - i32::from(advance == 0 && path.more_than_one());
            let tempo = i32::from(pos.side_to_move() != us);
            if chebyshev(pos.king_square(!us), promotion) - tempo > steps {
                eg += p.passed_unstoppable;
            }
        }
        Tapered {
            mg: p.passed_mg * progress,
            eg,
        }
    }

    /// What `us` threatens: enemy pieces attacked by our pawns, by a piece
    /// worth less, or attacked and not defended at all.
    fn threats(&self, pos: &Position, us: Color, maps: &[SideMaps; 2]) -> Tapered {
        let p = &self.p;
        let them = !us;
        let ours = &maps[us.index()];
        let theirs = &maps[them.index()];
        let mut t = Tapered::default();
        let mut lesser = Bitboard::EMPTY;
        for &kind in &self.kinds_by_value {
            if kind == PieceKind::KING {
                break;
            }
            let victims = pos.pieces(them, kind);
            if kind != PieceKind::PAWN {
                let by_pawns = (victims & ours.attacks_by_kind[PieceKind::PAWN.index()]).count();
                t.add(
                    p.threat_pawn_mg * by_pawns as i32,
                    p.threat_pawn_eg * by_pawns as i32,
                );
                let by_lesser = (victims & lesser & !ours.attacks_by_kind[PieceKind::PAWN.index()])
                    .count() as i32;
                t.add(
                    p.threat_lesser_mg * by_lesser,
                    p.threat_lesser_eg * by_lesser,
                );
            }
            let hanging = (victims & ours.attacks & !theirs.attacks).count() as i32;
            t.add(p.hanging_mg * hanging, p.hanging_eg * hanging);
            lesser |= ours.attacks_by_kind[kind.index()];
        }
        t
    }

    /// The checks `us` can give to a square the enemy does not attack: by a
    /// piece's move (including move-only steps, which reach but never
    /// attack) or by a drop from hand.
    fn safe_checks(&self, pos: &Position, us: Color, maps: &[SideMaps; 2]) -> i32 {
        let them = !us;
        let king = pos.king_square(them);
        let unsafe_squares = maps[them.index()].attacks;
        let mut checks = 0;
        for kind in PieceKind::all() {
            let reach = maps[us.index()].reach_by_kind[kind.index()];
            if reach.is_empty() {
                continue;
            }
            // Pieces attack symmetrically, so a piece on a square from
            // which it would attack the king is where the king "attacks"
            // as that piece.
            let from = pos.attacks_from(kind, them, king);
            checks += (from & reach & !unsafe_squares).count() as i32;
        }
        if let Some(kind) = self.drop_kind
            && pos.hand_count(us) > 0
        {
            let back = if us == Color::White {
                0
            } else {
                self.height - 1
            };
            let empty_back = (!pos.occupied())
                & (0..i32::from(pos.variant().width()))
                    .filter_map(|f| Square::from_coords(f, back))
                    .collect::<Bitboard>();
            let from = pos.attacks_from(kind, them, king);
            checks += (from & empty_back & !unsafe_squares).count() as i32;
        }
        checks
    }
}
