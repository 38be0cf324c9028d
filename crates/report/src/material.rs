//! Material of a start position, read from the piece letters of its FEN:
//! the board (everything before the first space) including the hand in
//! `[...]` right after it. Upper case is White, lower case Black; the
//! letters are the variant's.

use ajaxlab_rules::{MAX_KINDS, Variant};

/// White's count minus Black's count per piece kind (indexed by
/// [`PieceKind::index`]), board and hand together.
///
/// # Errors
///
/// The offending letter, if the board holds a letter that is no piece of
/// `variant`.
pub(crate) fn material_difference(fen: &str, variant: &Variant) -> Result<[i32; MAX_KINDS], char> {
    let board = fen.split(' ').next().unwrap_or_default();
    let mut diff = [0_i32; MAX_KINDS];
    for c in board.chars().filter(char::is_ascii_alphabetic) {
        let kind = variant.from_letter(c).ok_or(c)?;
        diff[kind.index()] += if c.is_ascii_uppercase() { 1 } else { -1 };
    }
    Ok(diff)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_rules::{PieceKind, VariantKind};

    #[test]
    fn balanced_start_has_no_difference() {
        let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let chess = VariantKind::Chess.variant();
        assert_eq!(material_difference(fen, chess), Ok([0; MAX_KINDS]));
    }

    #[test]
    fn board_and_hand_count_but_castling_does_not() {
        // Black lacks a knight on the board; the hand has one White and two
        // Black Falcons.
        let fen = "r1bmqk1bnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBMQKFBNR[Fff] w KQkq - 0 1";
        let d = material_difference(fen, VariantKind::AjaxFalcon.variant()).unwrap();
        assert_eq!(d[PieceKind::KNIGHT.index()], 1);
        assert_eq!(d[PieceKind::FALCON.index()], 1 + 1 - 2);
        assert_eq!(d[PieceKind::KING.index()], 0);
        assert_eq!(d[PieceKind::MINISTER.index()], 0);
    }

    #[test]
    fn unknown_letters_are_named() {
        let chess = VariantKind::Chess.variant();
        assert_eq!(material_difference("xnbqkbnr/8 w - - 0 1", chess), Err('x'));
        // A letter of another variant is no piece of this one.
        assert_eq!(material_difference("fnbqkbnr/8 w - - 0 1", chess), Err('f'));
    }
}
