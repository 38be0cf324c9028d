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

use crate::entry_table::Placed;
use crate::file_params;
use crate::params::Params;
use ajaxlab_rules::variant::{Component, Geometry, Lines, Mode, PieceDef};
use ajaxlab_rules::{
    Bitboard, Color, HandRule, MAX_KINDS, PieceKind, Position, SQUARE_COUNT, Square, StartSpec,
    Variant, VariantKind,
};

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
    centrality: Vec<i32>,
    /// Square tables by colour, kind and square (`kind·SQUARE_COUNT + square`).
    pst: [Vec<Tapered>; 2],
    /// Squares strictly ahead of a pawn on its own and neighbouring files, per colour.
    passed_span: [Vec<Bitboard>; 2],
    /// Squares strictly ahead of a pawn on its own file, per colour.
    file_ahead: [Vec<Bitboard>; 2],
    /// Squares of the neighbouring files.
    neighbour_files: Vec<Bitboard>,
    /// Squares of each file.
    files: Vec<Bitboard>,
    /// Kinds that slide along files but not along diagonals (chess's rook),
    /// scored for open and semi-open files.
    rook_like: Vec<PieceKind>,
    width: i32,
    height: i32,
    /// The value of the more valuable minor piece (drawish endgames).
    minor: i32,
    /// The squares of one colour, when the variant's bishop is bound to
    /// its colour (endgames of bishops on opposite colours).
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

/// `(kind, middlegame, endgame)` values of the pieces on the board.
type BoardValues = Vec<(PieceKind, i32, i32)>;

/// Board values and the `(middlegame, endgame)` value of a piece in hand:
/// the tuned parameters of a built-in variant, values derived from the
/// pieces' moves ([`derived_values`]) for a variant of a user's file.
fn piece_values(variant: &'static Variant, p: &Params) -> (BoardValues, (i32, i32)) {
    match variant.builtin() {
        Some(VariantKind::Chess | VariantKind::Chess960) => (
            vec![
                (PieceKind::PAWN, p.chess_pawn_mg, p.chess_pawn_eg),
                (PieceKind::KNIGHT, p.chess_knight_mg, p.chess_knight_eg),
                (PieceKind::BISHOP, p.chess_bishop_mg, p.chess_bishop_eg),
                (PieceKind::ROOK, p.chess_rook_mg, p.chess_rook_eg),
                (PieceKind::QUEEN, p.chess_queen_mg, p.chess_queen_eg),
                (PieceKind::KING, 0, 0),
                (PieceKind::MINISTER, 0, 0),
                (PieceKind::FALCON, 0, 0),
            ],
            (0, 0),
        ),
        Some(VariantKind::AjaxFalcon) => (
            vec![
                (PieceKind::PAWN, p.afc_pawn_mg, p.afc_pawn_eg),
                (PieceKind::KNIGHT, p.afc_knight_mg, p.afc_knight_eg),
                (PieceKind::BISHOP, p.afc_bishop_mg, p.afc_bishop_eg),
                (PieceKind::ROOK, p.afc_rook_mg, p.afc_rook_eg),
                (PieceKind::QUEEN, p.afc_queen_mg, p.afc_queen_eg),
                (PieceKind::KING, 0, 0),
                (PieceKind::MINISTER, p.afc_minister_mg, p.afc_minister_eg),
                (PieceKind::FALCON, p.afc_falcon_mg, p.afc_falcon_eg),
            ],
            (p.afc_falcon_hand_mg, p.afc_falcon_hand_eg),
        ),
        Some(VariantKind::AjaxModernRandom) => (
            vec![
                (PieceKind::PAWN, p.amrc_pawn_mg, p.amrc_pawn_eg),
                (PieceKind::KNIGHT, p.amrc_knight_mg, p.amrc_knight_eg),
                (PieceKind::BISHOP, p.amrc_bishop_mg, p.amrc_bishop_eg),
                (PieceKind::ROOK, p.amrc_rook_mg, p.amrc_rook_eg),
                (PieceKind::QUEEN, p.amrc_queen_mg, p.amrc_queen_eg),
                (PieceKind::KING, 0, 0),
                (PieceKind::MINISTER, p.amrc_minister_mg, p.amrc_minister_eg),
                (
                    PieceKind::PRIME_MINISTER,
                    p.amrc_prime_minister_mg,
                    p.amrc_prime_minister_eg,
                ),
            ],
            (p.amrc_minister_hand_mg, p.amrc_minister_hand_eg),
        ),
        None => {
            let pieces = file_params::pieces_of(variant);
            let mut values: BoardValues = pieces
                .kinds
                .iter()
                .zip(pieces.specs.chunks_exact(2))
                .map(|(&kind, phases)| (kind, p.value_of(&phases[0]), p.value_of(&phases[1])))
                .collect();
            values.push((PieceKind::KING, 0, 0));
            // A piece in hand is worth what it is worth on the board.
            let hand = variant
                .def
                .hand
                .kind()
                .and_then(|kind| values.iter().find(|v| v.0 == kind))
                .map_or((0, 0), |&(_, mg, eg)| (mg, eg));
            (values, hand)
        }
    }
}

/// How much more a square reached by a leap counts than one reached by a
/// slide or a lame path, in [`reach_score`], as a fraction: nothing blocks
/// a leap, so the empty-board count undersells it. 3/2 puts knight,
/// bishop, rook and queen at 3 : 3.3 : 5.3 : 8.7 (the usual 3 : 3.25 : 5 :
/// 9).
const LEAP_WEIGHT: (i32, i32) = (3, 2);

/// The squares of `variant`'s board a leaper of `components` on
/// `(file, rank)` jumps to (its slides and lame paths aside).
fn leap_targets(variant: &Variant, components: &[Component], file: i32, rank: i32) -> Bitboard {
    let (w, h) = (i32::from(variant.width()), i32::from(variant.height()));
    let mut targets = Bitboard::EMPTY;
    for c in components {
        let Geometry::Leap(long, short) = c.geometry else {
            continue;
        };
        let (a, b) = (i32::from(long), i32::from(short));
        for (dx, dy) in [(a, b), (b, a)] {
            for (sx, sy) in [(1, 1), (1, -1), (-1, 1), (-1, -1)] {
                let (f, r) = (file + sx * dx, rank + sy * dy);
                let on_board = (0..w).contains(&f) && (0..h).contains(&r);
                if let Some(sq) = Square::from_coords(f, r).filter(|_| on_board) {
                    targets = targets.with(sq);
                }
            }
        }
    }
    targets
}

/// A piece's strength as its empty-board reach summed over every square
/// of the board, a leap's square counting [`LEAP_WEIGHT`] times a slide's
/// (in the weight's denominator's units, to stay in integers): what the
/// values of a file's pieces are derived from. `reach` gives the squares
/// the piece reaches from a square by any of its moves.
fn reach_score(
    variant: &Variant,
    components: &[Component],
    reach: impl Fn(Square) -> Bitboard,
) -> i32 {
    let (w, h) = (i32::from(variant.width()), i32::from(variant.height()));
    let (num, den) = LEAP_WEIGHT;
    let mut score = 0;
    for f in 0..w {
        for r in 0..h {
            let Some(sq) = Square::from_coords(f, r) else {
                continue;
            };
            let all = reach(sq).count() as i32;
            let leaps = leap_targets(variant, components, f, r).count() as i32;
            score += den * (all - leaps) + num * leaps;
        }
    }
    score
}

/// Fairy-Stockfish's pawn in the middlegame and the endgame
/// (`PawnValueMg`, `PawnValueEg`): the unit of a file's `pieceValueMg` and
/// `pieceValueEg`.
const FSF_PAWN: (i32, i32) = (126, 208);

/// Values of a variant from a user's file before any is set: the defaults
/// of its pieces' parameters ([`file_params`]). The pawn's are chess's, and
/// every other piece is worth chess's knight times its [`reach_score`]
/// over the knight's on the same board, unless the file gives its value
/// (`pieceValueMg`/`pieceValueEg`, converted from Fairy-Stockfish's pawns,
/// [`FSF_PAWN`], to chess's.
pub(crate) fn derived_values(variant: &Variant, p: &Params) -> BoardValues {
    let knight = [Component {
        geometry: Geometry::Leap(2, 1),
        mode: Mode::MoveAndCapture,
    }];
    let knight_score = reach_score(variant, &knight, |sq| {
        leap_targets(
            variant,
            &knight,
            sq.file().index().into(),
            sq.rank().index().into(),
        )
    })
    .max(1);
    let mut values = vec![(PieceKind::PAWN, p.chess_pawn_mg, p.chess_pawn_eg)];
    for piece in &variant.def.pieces {
        if piece.kind == PieceKind::KING {
            values.push((PieceKind::KING, 0, 0));
            continue;
        }
        let score = reach_score(variant, &piece.components, |sq| {
            variant.empty_board_reach(piece.kind, sq)
        });
        let scaled = |knight_value: i32| knight_value * score / knight_score;
        values.push((
            piece.kind,
            scaled(p.chess_knight_mg),
            scaled(p.chess_knight_eg),
        ));
    }
    for given in &variant.def.values {
        let Some(value) = values
            .iter_mut()
            .find(|v| v.0 == given.kind && v.0 != PieceKind::KING)
        else {
            continue;
        };
        let (fsf_mg, fsf_eg) = FSF_PAWN;
        if let Some(mg) = given.mg {
            value.1 = mg * p.chess_pawn_mg / fsf_mg;
        }
        if let Some(eg) = given.eg {
            value.2 = eg * p.chess_pawn_eg / fsf_eg;
        }
    }
    values
}

/// What one side's pieces attack and reach, gathered once per evaluation
/// (one pass over the pieces) for the mobility, threat and king-danger
/// terms.
struct SideMaps {
    /// Every square the side attacks (could capture on).
    attacks: Bitboard,
    /// Squares attacked by the side's pieces of each kind.
    attacks_by_kind: [Bitboard; MAX_KINDS],
    /// Squares the side's pieces of each kind can move to.
    reach_by_kind: [Bitboard; MAX_KINDS],
    /// Sum of the pieces' mobility.
    mobility: Tapered,
    /// Attacks on the enemy king's neighbourhood.
    zone_attacks: i32,
    /// Pieces attacking the enemy king's neighbourhood.
    zone_attackers: i32,
}

/// The king's distance between two squares: the larger of the file and
/// rank distances.
fn chebyshev(a: Square, b: Square) -> i32 {
    let df = (i32::from(a.file().index()) - i32::from(b.file().index())).abs();
    let dr = (i32::from(a.rank().index()) - i32::from(b.rank().index())).abs();
    df.max(dr)
}

/// The squares `color`'s pawns attack.
fn pawn_attacks(pos: &Position, color: Color) -> Bitboard {
    pos.pieces(color, PieceKind::PAWN)
        .into_iter()
        .fold(Bitboard::EMPTY, |acc, sq| {
            acc | pos.attacks_from(PieceKind::PAWN, color, sq)
        })
}

/// The squares `color`'s mobility counts: not attacked by enemy pawns and
/// not taken by the side's own king or pawns.
fn mobility_area(pos: &Position, color: Color, pawn_attacks: &[Bitboard; 2]) -> Bitboard {
    !(pawn_attacks[(!color).index()]
        | pos.pieces(color, PieceKind::PAWN)
        | pos.pieces(color, PieceKind::KING))
}

impl SideMaps {
    /// `color`'s maps, given each side's pawn attacks and the mobility by
    /// kind and number of squares.
    fn of(
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
struct Tapered {
    mg: i32,
    eg: i32,
}

impl Tapered {
    fn add(&mut self, mg: i32, eg: i32) {
        self.mg += mg;
        self.eg += eg;
    }
}

/// Points of the mobility curve: one for each number of squares a piece
/// can reach, up to a whole board.
const MOBILITY_POINTS: usize = SQUARE_COUNT + 1;

/// `4·sqrt(n) − 8` rounded: the concave mobility curve (a trapped piece
/// loses more than an active one gains from one more square).
fn mobility_curve(n: usize) -> i32 {
    (4.0 * (n as f64).sqrt()).round() as i32 - 8
}

/// Mobility by kind and number of squares reached, tabled once because the
/// evaluation reads it for every piece.
#[derive(Clone, Debug)]
struct MobilityTable(Vec<Tapered>);

impl MobilityTable {
    /// The curve by `params`' mobility weights for every kind, plus
    /// chess's own tables when `chess_tables` holds.
    fn new(params: &Params, chess_tables: bool) -> MobilityTable {
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
    fn of(&self, kind: PieceKind, n: usize) -> Tapered {
        self.0[kind.index() * MOBILITY_POINTS + n.min(MOBILITY_POINTS - 1)]
    }
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
        let (values, (hand_mg, hand_eg)) = piece_values(v, params);
        let mut value_mg = [0; MAX_KINDS];
        let mut value_eg = [0; MAX_KINDS];
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
        let mut board = Vec::new();
        let mut light = Bitboard::EMPTY;
        for f in 0..w {
            for r in 0..h {
                let Some(sq) = square(f, r) else { continue };
                board.push(sq);
                if (f + r) % 2 == 1 {
                    light = light.with(sq);
                }
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
            add_chess_squares(&mut pst, &board, params);
        }
        let files: Vec<Bitboard> = (0..w)
            .map(|f| (0..h).filter_map(|r| square(f, r)).collect())
            .collect();
        let file_or_empty = |f: i32| {
            usize::try_from(f)
                .ok()
                .and_then(|f| files.get(f).copied())
                .unwrap_or(Bitboard::EMPTY)
        };
        let neighbour_files = (0..w)
            .map(|f| file_or_empty(f - 1) | file_or_empty(f + 1))
            .collect();
        let slides = |piece: &PieceDef, lines: Lines| {
            piece
                .components
                .iter()
                .any(|c| c.geometry == Geometry::Slide(lines) && c.mode == Mode::MoveAndCapture)
        };
        let rook_like = def
            .pieces
            .iter()
            .filter(|p| slides(p, Lines::Orthogonal) && !slides(p, Lines::Diagonal))
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
        let bishop_is_colour_bound = v.has_kind(PieceKind::BISHOP)
            && board.iter().all(|&sq| {
                let same = if light.contains(sq) { light } else { !light };
                !(v.empty_board_reach(PieceKind::BISHOP, sq) & !same).any()
            });
        let mut eval = Evaluator {
            value_mg,
            value_eg,
            hand_mg,
            hand_eg,
            gating: matches!(def.hand, HandRule::Gating { .. }),
            drop_kind,
            phase_total: 1,
            centrality,
            pst,
            passed_span,
            file_ahead,
            neighbour_files,
            files,
            rook_like,
            width: w,
            height: h,
            minor,
            light_squares: bishop_is_colour_bound.then_some(light),
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
            if (self.passed_span[us.index()][sq.index()] & enemy_pawns).is_empty() {
                t = t.plus(self.passed_pawn(pos, us, sq, advance, maps));
            }
            if (self.file_ahead[us.index()][sq.index()] & own_pawns).any() {
                t.add(-p.doubled, -p.doubled);
            }
            if (self.neighbour_files[usize::from(sq.file().index())] & own_pawns).is_empty() {
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
                let file = self.files[usize::from(sq.file().index())];
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
        t.add(0, p.king_center_eg * self.centrality[own_king.index()]);
        let king_zone = pos
            .attacks_from(PieceKind::KING, us, own_king)
            .with(own_king);
        let shield = king_zone & self.passed_span[us.index()][own_king.index()] & own_pawns;
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
        let path = self.file_ahead[us.index()][sq.index()];
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

impl Tapered {
    fn plus(self, other: Tapered) -> Tapered {
        Tapered {
            mg: self.mg + other.mg,
            eg: self.eg + other.eg,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_positions_are_balanced() {
        let params = Params::default();
        for variant in VariantKind::ALL {
            let eval = Evaluator::new(variant.variant(), &params);
            let pos = Position::start(variant, &StartSpec::Default).unwrap();
            let tempo = match variant {
                VariantKind::Chess | VariantKind::Chess960 => params.chess_tempo,
                _ => params.tempo,
            };
            assert_eq!(eval.evaluate(&pos), tempo, "{variant}");
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
            let eval = Evaluator::new(variant.variant(), &params);
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
        let eval = Evaluator::new(VariantKind::AjaxFalcon.variant(), &params);
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

    /// AMRC: a Minister in hand enters only through a gate of its own, so
    /// two in hand with one gate left are worth one, and a gate given up
    /// while the hand is as large as the gates left costs a Minister.
    #[test]
    fn a_minister_in_hand_beyond_the_gates_left_counts_for_nothing() {
        let eval = Evaluator::new(VariantKind::AjaxModernRandom.variant(), &Params::default());
        let score = |fen: &str| {
            eval.evaluate(&Position::from_fen(VariantKind::AjaxModernRandom, fen).unwrap())
        };
        let two_gates_two_in_hand = score("4k4/9/9/9/9/9/9/9/RB2K4[MM] w AB - 0 1");
        let one_gate_two_in_hand = score("4k4/9/9/9/9/9/9/9/RB2K4[MM] w B - 0 1");
        let two_gates_one_in_hand = score("4k4/9/9/9/9/9/9/9/RB2K4[M] w AB - 0 1");
        assert_eq!(one_gate_two_in_hand, two_gates_one_in_hand);
        assert!(two_gates_two_in_hand > one_gate_two_in_hand + 400);
    }

    /// How much more the chess position `fen` scores, for the side to
    /// move, with the parameters `with` than with `without`.
    fn chess_gain(with: &Params, without: &Params, fen: &str) -> i32 {
        let pos = Position::from_fen(VariantKind::Chess, fen).unwrap();
        let score = |p: &Params| Evaluator::new(VariantKind::Chess.variant(), p).evaluate(&pos);
        score(with) - score(without)
    }

    /// The defaults without the scaling of endgames with few pawns, for
    /// tests that read one term's full value in a sparse endgame.
    fn unscaled() -> Params {
        Params {
            scale_pawns_base: 64,
            ..Params::default()
        }
    }

    /// A rook on a file without pawns earns the open-file bonus, on a file
    /// with only enemy pawns the semi-open one, behind its own pawn none.
    #[test]
    fn a_rook_is_scored_by_the_pawns_on_its_file() {
        // The open and semi-open bonuses, each the same in both phases.
        let terms = |open: i32, semi_open: i32| Params {
            chess_rook_open_mg: open,
            chess_rook_open_eg: open,
            chess_rook_semi_open_mg: semi_open,
            chess_rook_semi_open_eg: semi_open,
            ..unscaled()
        };
        let (with_terms, without_terms) = (terms(40, 16), terms(0, 0));
        let gain = |fen: &str| chess_gain(&with_terms, &without_terms, fen);
        assert_eq!(gain("4k3/8/8/8/8/8/7P/R3K3 w - - 0 1"), 40);
        assert_eq!(gain("4k3/p7/8/8/8/8/7P/R3K3 w - - 0 1"), 16);
        assert_eq!(gain("4k3/p7/8/8/8/8/P7/R3K3 w - - 0 1"), 0);
        // A queen slides along files too, but also along diagonals: not a rook.
        assert_eq!(gain("4k3/8/8/8/8/8/7P/Q3K3 w - - 0 1"), 0);
    }

    /// Chess's mobility tables add their entry for each piece by the
    /// squares it reaches: a knight on a1 beside its own pawn reaches two,
    /// and the same knight of Black's cancels it; the entries of the
    /// tuner's exact gradient are the same ones.
    #[test]
    fn a_chess_piece_earns_its_mobility_table_entry() {
        let entry = |value: i64| {
            let mut p = unscaled();
            p.set("chess.mobility.knight.2.mg", value).unwrap();
            p.set("chess.mobility.knight.2.eg", value).unwrap();
            p
        };
        let (with_entry, without_entry) = (entry(40), entry(0));
        let lone = "4k3/p7/8/8/8/8/P7/N3K3 w - - 0 1";
        assert_eq!(chess_gain(&with_entry, &without_entry, lone), 40);
        let both = "n3k3/p7/8/8/8/8/P7/N3K3 w - - 0 1";
        assert_eq!(chess_gain(&with_entry, &without_entry, both), 0);
        let eval = Evaluator::new(VariantKind::Chess.variant(), &unscaled());
        let pos = Position::from_fen(VariantKind::Chess, both).unwrap();
        let entries = eval.chess_mobility_entries(&pos);
        let specs = crate::chess_mobility::TABLE.specs();
        let names: Vec<(&str, i32)> = entries
            .iter()
            .map(|e| (specs[e.middlegame].name, e.sign))
            .collect();
        assert_eq!(
            names,
            [
                ("chess.mobility.knight.2.mg", 1),
                ("chess.mobility.knight.2.mg", -1)
            ]
        );
        // The Ajax variants have no such tables.
        let afc = Position::start(VariantKind::AjaxFalcon, &StartSpec::Default).unwrap();
        let afc_score =
            |p: &Params| Evaluator::new(VariantKind::AjaxFalcon.variant(), p).evaluate(&afc);
        let mut trapped = with_entry;
        trapped.set("chess.mobility.knight.0.mg", -200).unwrap();
        trapped.set("chess.mobility.knight.1.mg", -200).unwrap();
        assert_eq!(afc_score(&trapped), afc_score(&unscaled()));
    }

    /// In the middlegame a king pays for each file it stands from the
    /// nearer edge: castled on g1 it pays one, uncastled on e8 three.
    #[test]
    fn a_king_in_the_centre_pays_in_the_middlegame() {
        let without_term = Params {
            chess_king_file_mg: 0,
            ..Params::default()
        };
        let with_term = Params {
            chess_king_file_mg: 10,
            ..Params::default()
        };
        let fen = "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/2N2N2/PPPP1PPP/R1BQ1RK1 w kq - 5 5";
        assert_eq!(chess_gain(&with_term, &without_term, fen), 3 * 10 - 10);
    }

    /// A passer whose path to promotion is empty and unattacked earns the
    /// free-path bonus, one whose next square alone is safe the smaller
    /// one, one whose next square the enemy controls neither, each times
    /// its progress (a pawn on a5 has advanced three ranks: 9 of 36).
    #[test]
    fn a_passer_earns_by_how_free_its_path_is() {
        let terms = |free: i32, safe: i32| Params {
            chess_passed_free_eg: free,
            chess_passed_safe_eg: safe,
            chess_passed_unstoppable: 0,
            ..unscaled()
        };
        let (with_terms, without_terms) = (terms(10, 5), terms(0, 0));
        let gain = |fen: &str| chess_gain(&with_terms, &without_terms, fen);
        assert_eq!(gain("8/8/8/P7/8/8/8/K6k w - - 0 1"), 9 * 10);
        // The king on b8 guards a7 and a8, not a6.
        assert_eq!(gain("1k6/8/8/P7/8/8/8/K7 w - - 0 1"), 9 * 5);
        // On b7 it guards a6.
        assert_eq!(gain("8/1k6/8/P7/8/8/8/K7 w - - 0 1"), 0);
        // On a8 it stands on the path and guards a7: a6 alone is safe.
        assert_eq!(gain("k7/8/8/P7/8/8/8/K7 w - - 0 1"), 9 * 5);
    }

    /// The rule of the square: a passer whose promotion square the bare
    /// enemy king cannot reach in time is worth the unstoppable bonus; one
    /// the king catches, or one of a side whose opponent keeps a piece, is
    /// not.
    #[test]
    fn a_passer_outside_the_square_of_a_bare_king_is_unstoppable() {
        let with_term = Params {
            chess_passed_unstoppable: 400,
            ..unscaled()
        };
        let without_term = Params {
            chess_passed_unstoppable: 0,
            ..unscaled()
        };
        let gain = |fen: &str| chess_gain(&with_term, &without_term, fen);
        // a4 needs four moves; the king on h5 needs seven to reach a8.
        assert_eq!(gain("8/8/8/7k/P7/8/8/7K w - - 0 1"), 400);
        // From c5 it needs three.
        assert_eq!(gain("8/8/8/2k5/P7/8/8/7K w - - 0 1"), 0);
        // From e8 it needs four: in time, though the pawn moves first.
        assert_eq!(gain("4k3/8/8/8/P7/8/8/7K w - - 0 1"), 0);
        // From f8 it needs five: with White to move the pawn runs through;
        // with Black to move the king's tempo catches it.
        assert_eq!(gain("5k2/8/8/8/P7/8/8/7K w - - 0 1"), 400);
        assert_eq!(gain("5k2/8/8/8/P7/8/8/7K b - - 0 1"), 0);
        // From its start square the pawn may step twice: a2 needs five moves.
        assert_eq!(gain("6k1/8/8/8/8/8/P7/7K w - - 0 1"), 400);
        // A knight left to the defender: no rule of the square.
        assert_eq!(gain("8/8/8/7k/P7/8/8/n6K w - - 0 1"), 0);
    }

    #[test]
    fn a_position_with_a_winning_capture_is_not_quiet() {
        let eval = Evaluator::new(VariantKind::Chess.variant(), &Params::default());
        let hanging =
            Position::from_fen(VariantKind::Chess, "4k3/8/8/3n4/8/8/3R4/4K3 w - - 0 1").unwrap();
        let defended =
            Position::from_fen(VariantKind::Chess, "4k3/8/4p3/3n4/8/8/3R4/4K3 w - - 0 1").unwrap();
        assert!(!eval.is_quiet(&hanging));
        assert!(eval.is_quiet(&defended));
    }

    /// The endgame scale of the chess position `fen` under the defaults.
    fn chess_endgame_scale(fen: &str) -> i32 {
        let eval = Evaluator::new(VariantKind::Chess.variant(), &Params::default());
        let pos = Position::from_fen(VariantKind::Chess, fen).unwrap();
        eval.blend(&pos).eg_scale
    }

    #[test]
    fn a_side_ahead_with_few_pawns_has_its_endgame_scaled_down() {
        let p = Params::default();
        // A knight and a pawn against a bishop: one pawn.
        let one = chess_endgame_scale("4k3/8/8/8/3b4/8/3P4/3NK3 w - - 0 1");
        assert_eq!(one, p.scale_pawns_base + p.scale_pawns_step);
        // Black ahead: its pawns count.
        let black = chess_endgame_scale("4k3/pp6/8/8/8/8/8/4K3 w - - 0 1");
        assert_eq!(black, p.scale_pawns_base + 2 * p.scale_pawns_step);
        // Five pawns: the full scale.
        assert_eq!(
            chess_endgame_scale("4k3/8/8/8/8/8/PPPPP3/4K3 w - - 0 1"),
            64
        );
    }

    #[test]
    fn bishops_on_opposite_colours_scale_the_endgame_down_further() {
        let p = Params::default();
        // The d6 bishop is dark, the e2 one light.
        let alone = chess_endgame_scale("4k3/8/3b4/8/8/3P4/4B3/4K3 w - - 0 1");
        assert_eq!(alone, p.scale_ocb);
        let with_rooks = chess_endgame_scale("r3k3/8/3b4/8/8/3P4/4B3/R3K3 w - - 0 1");
        assert_eq!(with_rooks, p.scale_pawns_base + p.scale_ocb_step);
        // Bishops on the same colour (e6 is light) scale only by the pawns.
        let same = chess_endgame_scale("4k3/8/4b3/8/8/3P4/4B3/4K3 w - - 0 1");
        assert_eq!(same, p.scale_pawns_base + p.scale_pawns_step);
        // The Ajax Bishop steps orthogonally too: not bound to a colour.
        let afc = Evaluator::new(VariantKind::AjaxFalcon.variant(), &p);
        assert!(afc.light_squares.is_none());
    }

    #[test]
    fn extra_material_scores_for_its_owner_from_either_side() {
        let eval = Evaluator::new(VariantKind::Chess.variant(), &Params::default());
        let w = Position::from_fen(VariantKind::Chess, "4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
        let b = Position::from_fen(VariantKind::Chess, "4k3/8/8/8/8/8/8/3QK3 b - - 0 1").unwrap();
        assert!(eval.evaluate(&w) > 800);
        assert!(eval.evaluate(&b) < -800);
    }

    #[test]
    fn chess_reads_its_own_positional_terms_and_the_ajax_variants_theirs() {
        let chess =
            Position::from_fen(VariantKind::Chess, "4k3/8/8/8/8/8/8/4K3 w - - 0 1").unwrap();
        let afc = Position::from_fen(
            VariantKind::AjaxFalcon,
            "4k5/10/10/10/10/10/10/5K4[] w - - 0 1",
        )
        .unwrap();
        let score = |variant: VariantKind, pos: &Position, p: &Params| {
            Evaluator::new(variant.variant(), p).evaluate(pos)
        };
        let defaults = Params::default();
        let mut ajax_tempo = defaults.clone();
        ajax_tempo.tempo += 10;
        let mut chess_tempo = defaults.clone();
        chess_tempo.chess_tempo += 10;
        // Bare kings: the score is the tempo bonus of the side to move.
        assert_eq!(
            score(VariantKind::Chess, &chess, &ajax_tempo),
            score(VariantKind::Chess, &chess, &defaults)
        );
        assert_eq!(
            score(VariantKind::Chess, &chess, &chess_tempo),
            score(VariantKind::Chess, &chess, &defaults) + 10
        );
        assert_eq!(
            score(VariantKind::AjaxFalcon, &afc, &chess_tempo),
            score(VariantKind::AjaxFalcon, &afc, &defaults)
        );
        assert_eq!(
            score(VariantKind::AjaxFalcon, &afc, &ajax_tempo),
            score(VariantKind::AjaxFalcon, &afc, &defaults) + 10
        );
    }

    /// A variant from a file has values derived from its pieces' moves:
    /// on an 8 × 8 board, in knights of 3, the usual values within three
    /// quarters of a pawn (the archbishop, 7 by Scharnagl, comes out 6.3:
    /// reach cannot tell how well its two moves complement each other).
    #[test]
    fn a_file_variant_values_its_pieces_by_their_reach() {
        let text = "[values:chess]\narchbishop = a\nchancellor = c\n\
                    startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n";
        let set = ajaxlab_rules::VariantSet::with_text("values.ini", text).unwrap();
        let variant = set.get("values").unwrap();
        let eval = Evaluator::new(variant, &Params::default());
        let knight = eval.piece_value(PieceKind::KNIGHT);
        assert_eq!(knight, Params::default().chess_knight_mg);
        for (letter, usual) in [
            ('N', 3.0),
            ('B', 3.25),
            ('R', 5.0),
            ('Q', 9.0),
            ('A', 7.0),
            ('C', 8.0),
        ] {
            let kind = variant.from_letter(letter).unwrap();
            let derived = 3.0 * f64::from(eval.piece_value(kind)) / f64::from(knight);
            assert!(
                (derived - usual).abs() <= 0.75,
                "{letter}: derived {derived:.2}, usual {usual}"
            );
        }
        // Values the file gives are taken, in Fairy-Stockfish's pawns.
        let given = format!("{text}pieceValueMg = c:1260\npieceValueEg = p:416\n");
        let set = ajaxlab_rules::VariantSet::with_text("values.ini", &given).unwrap();
        let valued = Evaluator::new(set.get("values").unwrap(), &Params::default());
        let chancellor = variant.from_letter('C').unwrap();
        let p = Params::default();
        assert_eq!(valued.piece_value(chancellor), 10 * p.chess_pawn_mg);
        assert_eq!(
            valued.value_eg[PieceKind::PAWN.index()],
            2 * p.chess_pawn_eg
        );
        assert_eq!(
            valued.value_eg[chancellor.index()],
            eval.value_eg[chancellor.index()]
        );
        let extra = |fen| eval.evaluate(&Position::from_fen_in(variant, fen).unwrap());
        assert!(extra("4k3/8/8/8/8/8/8/C3K3 w - - 0 1") > extra("4k3/8/8/8/8/8/8/A3K3 w - - 0 1"));
    }
}
