//! The values of a variant's pieces: a built-in's from the parameter
//! table, a file variant's derived from how its pieces move (or from the
//! file's `pieceValueMg`/`pieceValueEg`).

use crate::params::{Params, Phase};
use ajaxlab_rules::variant::{Component, Geometry, Mode};
use ajaxlab_rules::{Bitboard, MAX_KINDS, PieceKind, Square, Variant};

/// `(kind, middlegame, endgame)` values of the pieces on the board.
type BoardValues = Vec<(PieceKind, i32, i32)>;

/// The values of `variant`'s pieces, by kind, on the board and the
/// `(middlegame, endgame)` value of a piece in hand: whatever value
/// parameters the variant reads ([`crate::params::ParamSpec::piece`], the table's for a
/// built-in, [`crate::file_params`]' for a variant of a user's file). A piece in
/// hand without parameters of its own is worth what it is worth on the
/// board; a kind without any (the king) is worth nothing.
pub(super) fn piece_values(
    variant: &'static Variant,
    p: &Params,
) -> ([[i32; MAX_KINDS]; 2], (i32, i32)) {
    let mut board = [[0; MAX_KINDS]; 2];
    let mut hand: [Option<i32>; 2] = [None; 2];
    for spec in crate::params::specs_for(variant) {
        let Some(piece) = spec.piece.filter(|_| spec.evaluates(variant)) else {
            continue;
        };
        let phase = match piece.phase {
            Phase::Mg => 0,
            Phase::Eg => 1,
        };
        let value = p.value_of(spec);
        if piece.in_hand {
            hand[phase] = Some(value);
        } else {
            board[phase][piece.kind.index()] = value;
        }
    }
    let on_board = |phase: usize| {
        variant
            .def
            .hand
            .kind()
            .map_or(0, |kind| board[phase][kind.index()])
    };
    let hand = (
        hand[0].unwrap_or_else(|| on_board(0)),
        hand[1].unwrap_or_else(|| on_board(1)),
    );
    (board, hand)
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
/// of its pieces' parameters ([`crate::file_params`]). The pawn's are chess's, and
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
