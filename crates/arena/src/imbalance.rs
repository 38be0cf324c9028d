//! Material imbalances: start positions where one side's army is changed
//! (a piece removed, added or replaced), the raw material of piece-value
//! measurements. An imbalance names edits for the first player's side and
//! for the second's; in each pair the first player has White in one game and
//! Black in the other, so the edits follow the player, not the colour.
//!
//! Edits are written from White's side of the board and mirrored for Black
//! (a vertical flip, or AMRC's point reflection):
//!
//! | edit | meaning |
//! |---|---|
//! | `-N` | remove one Knight (the first from a1 along rank 1, then rank 2, …) |
//! | `-P@f2` | remove the piece on f2, which must be a Pawn |
//! | `-F@hand` | take one Falcon out of the hand |
//! | `+F@hand` | put one more Falcon in the hand |
//! | `+Q@d3` | place a Queen on the empty square d3 |
//! | `M=F` | replace the first Minister on the board by a Falcon |
//! | `M@g1=F` | replace the Minister on g1 by a Falcon |
//!
//! A castling right or gate whose piece was removed or replaced is dropped.

use ajaxlab_rules::{Color, Position, VariantKind, variant::CastlingStyle};
use std::fmt;

/// Where an edit acts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Place {
    /// The first such piece in scan order.
    First,
    /// A square from White's side: (file, rank), 0-based.
    Square(u8, u8),
    /// The hand.
    Hand,
}

/// One change to a side's army.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edit {
    Remove(char, Place),
    Add(char, Place),
    Replace(char, Place, char),
}

/// A parsed edit with its text, for messages and the wire.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceEdit {
    text: String,
    edit: Edit,
}

impl fmt::Display for PieceEdit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Edits of both players' sides.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Imbalance {
    /// Edits of the first player's side.
    pub first: Vec<PieceEdit>,
    /// Edits of the second player's side.
    pub second: Vec<PieceEdit>,
}

/// An edit that cannot be parsed or applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("imbalance edit '{edit}': {message}")]
pub struct ImbalanceError {
    /// The edit's text.
    pub edit: String,
    /// What is wrong.
    pub message: String,
}

fn piece_letter(text: &str, edit: &str) -> Result<char, ImbalanceError> {
    let mut chars = text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if c.is_ascii_uppercase() && c != 'K' => Ok(c),
        _ => Err(ImbalanceError {
            edit: edit.into(),
            message: format!("'{text}' is not a piece letter (upper case, not K)"),
        }),
    }
}

fn place(text: Option<&str>, edit: &str) -> Result<Place, ImbalanceError> {
    let Some(text) = text else {
        return Ok(Place::First);
    };
    if text == "hand" {
        return Ok(Place::Hand);
    }
    let bad = || ImbalanceError {
        edit: edit.into(),
        message: format!("'{text}' is neither a square such as f2 nor 'hand'"),
    };
    let mut chars = text.chars();
    let file = chars
        .next()
        .filter(char::is_ascii_lowercase)
        .ok_or_else(bad)?;
    let rank: u8 = chars.as_str().parse().map_err(|_| bad())?;
    if rank == 0 {
        return Err(bad());
    }
    Ok(Place::Square(file as u8 - b'a', rank - 1))
}

impl std::str::FromStr for PieceEdit {
    type Err = ImbalanceError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let t = text.trim();
        let split = |s: &str| -> Result<(char, Place), ImbalanceError> {
            let (piece, at) = match s.split_once('@') {
                Some((p, a)) => (p, Some(a)),
                None => (s, None),
            };
            Ok((piece_letter(piece, t)?, place(at, t)?))
        };
        let edit = if let Some(rest) = t.strip_prefix('-') {
            let (p, at) = split(rest)?;
            Edit::Remove(p, at)
        } else if let Some(rest) = t.strip_prefix('+') {
            let (p, at) = split(rest)?;
            if at == Place::First {
                return Err(ImbalanceError {
                    edit: t.into(),
                    message: "say where the piece goes: +X@square or +X@hand".into(),
                });
            }
            Edit::Add(p, at)
        } else if let Some((from, to)) = t.split_once('=') {
            let (p, at) = split(from)?;
            if at == Place::Hand {
                return Err(ImbalanceError {
                    edit: t.into(),
                    message: "only pieces on the board can be replaced".into(),
                });
            }
            Edit::Replace(p, at, piece_letter(to, t)?)
        } else {
            return Err(ImbalanceError {
                edit: t.into(),
                message: "expected -X, -X@SQ, -X@hand, +X@SQ, +X@hand, X=Y or X@SQ=Y".into(),
            });
        };
        Ok(PieceEdit {
            text: t.to_owned(),
            edit,
        })
    }
}

/// A FEN's board as a grid, rank 0 first, plus the rest of the fields.
struct Board {
    cells: Vec<Vec<Option<char>>>,
    hand: Option<String>,
    rest: Vec<String>,
}

impl Board {
    fn parse(fen: &str) -> Board {
        let mut fields = fen.split_whitespace();
        let board = fields.next().unwrap_or("");
        let (placement, hand) = match board.split_once('[') {
            Some((p, h)) => (p, Some(h.trim_end_matches(']').to_owned())),
            None => (board, None),
        };
        let mut cells: Vec<Vec<Option<char>>> = placement
            .split('/')
            .map(|row| {
                let mut out = Vec::new();
                let mut digits = String::new();
                for c in row.chars() {
                    if c.is_ascii_digit() {
                        digits.push(c);
                        continue;
                    }
                    let empty: usize = digits.parse().unwrap_or(0);
                    out.extend(std::iter::repeat_n(None, empty));
                    digits.clear();
                    out.push(Some(c));
                }
                let empty: usize = digits.parse().unwrap_or(0);
                out.extend(std::iter::repeat_n(None, empty));
                out
            })
            .collect();
        cells.reverse();
        Board {
            cells,
            hand,
            rest: fields.map(str::to_owned).collect(),
        }
    }

    fn fen(&self) -> String {
        let rows: Vec<String> = self
            .cells
            .iter()
            .rev()
            .map(|row| {
                let mut out = String::new();
                let mut empty = 0;
                for cell in row {
                    match cell {
                        Some(c) => {
                            if empty > 0 {
                                out.push_str(&empty.to_string());
                                empty = 0;
                            }
                            out.push(*c);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    out.push_str(&empty.to_string());
                }
                out
            })
            .collect();
        let hand = self
            .hand
            .as_ref()
            .map_or(String::new(), |h| format!("[{h}]"));
        format!("{}{hand} {}", rows.join("/"), self.rest.join(" "))
    }
}

/// Maps squares from White's side to `color`'s side.
struct Mirror {
    width: u8,
    height: u8,
    point: bool,
    color: Color,
}

impl Mirror {
    fn map(&self, (file, rank): (u8, u8)) -> (u8, u8) {
        match (self.color, self.point) {
            (Color::White, _) => (file, rank),
            (Color::Black, false) => (file, self.height - 1 - rank),
            (Color::Black, true) => (self.width - 1 - file, self.height - 1 - rank),
        }
    }

    fn letter(&self, piece: char) -> char {
        match self.color {
            Color::White => piece.to_ascii_uppercase(),
            Color::Black => piece.to_ascii_lowercase(),
        }
    }

    /// Squares in scan order: rank 1 from the a-file, then rank 2, … (from `color`'s side).
    fn scan(&self) -> impl Iterator<Item = (u8, u8)> + '_ {
        (0..self.height).flat_map(move |r| (0..self.width).map(move |f| self.map((f, r))))
    }
}

impl Board {
    fn at(&self, (f, r): (u8, u8)) -> Option<char> {
        self.cells
            .get(usize::from(r))
            .and_then(|row| row.get(usize::from(f)))
            .copied()
            .flatten()
    }

    fn cell_mut(&mut self, (f, r): (u8, u8)) -> Option<&mut Option<char>> {
        self.cells
            .get_mut(usize::from(r))
            .and_then(|row| row.get_mut(usize::from(f)))
    }
}

fn apply_edit(board: &mut Board, m: &Mirror, e: &PieceEdit) -> Result<(), ImbalanceError> {
    let fail = |message: String| ImbalanceError {
        edit: e.text.clone(),
        message,
    };
    let find = |board: &Board, piece: char, at: Place| -> Result<(u8, u8), ImbalanceError> {
        let want = Some(m.letter(piece));
        let hit = match at {
            Place::Square(f, r) => Some(m.map((f, r))).filter(|&sq| board.at(sq) == want),
            _ => m.scan().find(|&sq| board.at(sq) == want),
        };
        hit.ok_or_else(|| fail(format!("no {} there", m.letter(piece))))
    };
    match e.edit {
        Edit::Remove(piece, Place::Hand) | Edit::Add(piece, Place::Hand) => {
            let hand = board
                .hand
                .as_mut()
                .ok_or_else(|| fail("this variant has no hand".into()))?;
            let letter = m.letter(piece);
            if matches!(e.edit, Edit::Add(..)) {
                hand.push(letter);
            } else {
                let i = hand
                    .find(letter)
                    .ok_or_else(|| fail(format!("no {letter} in hand")))?;
                hand.remove(i);
            }
        }
        Edit::Remove(piece, at) => {
            let sq = find(board, piece, at)?;
            if let Some(cell) = board.cell_mut(sq) {
                *cell = None;
            }
        }
        Edit::Add(piece, at) => {
            let Place::Square(f, r) = at else {
                return Err(fail("say where the piece goes".into()));
            };
            let cell = board
                .cell_mut(m.map((f, r)))
                .ok_or_else(|| fail("the square is off the board".into()))?;
            if cell.is_some() {
                return Err(fail("the square is not empty".into()));
            }
            *cell = Some(m.letter(piece));
        }
        Edit::Replace(piece, at, to) => {
            let sq = find(board, piece, at)?;
            if let Some(cell) = board.cell_mut(sq) {
                *cell = Some(m.letter(to));
            }
        }
    }
    Ok(())
}

/// Drops castling rights and gates whose back-rank piece was removed or replaced.
fn prune_castling(before: &Board, after: &mut Board, style: CastlingStyle) {
    let Some(field) = after.rest.get(1).cloned() else {
        return;
    };
    let width = after.cells.first().map_or(0, Vec::len) as u8;
    let back_rank = |c: char| {
        if c.is_ascii_uppercase() {
            0
        } else {
            after.cells.len() as u8 - 1
        }
    };
    let unchanged = |sq: (u8, u8)| before.at(sq) == after.at(sq) && after.at(sq).is_some();
    let kept: String = field
        .chars()
        .filter(|&c| {
            let rank = back_rank(c);
            let lower = c.to_ascii_lowercase();
            match (style, lower) {
                // Orthodox letters: the outermost rook on that side of the king.
                (CastlingStyle::Orthodox, 'k' | 'q') => {
                    let rook = if c.is_ascii_uppercase() { 'R' } else { 'r' };
                    let mut files: Box<dyn Iterator<Item = u8>> = if lower == 'k' {
                        Box::new((0..width).rev())
                    } else {
                        Box::new(0..width)
                    };
                    files
                        .find(|&f| before.at((f, rank)) == Some(rook))
                        .is_some_and(|f| unchanged((f, rank)))
                }
                (_, 'a'..='z') => unchanged((lower as u8 - b'a', rank)),
                _ => true,
            }
        })
        .collect();
    if let Some(slot) = after.rest.get_mut(1) {
        *slot = if kept.is_empty() { "-".into() } else { kept };
    }
}

impl Imbalance {
    /// Whether there is nothing to change.
    pub fn is_empty(&self) -> bool {
        self.first.is_empty() && self.second.is_empty()
    }

    /// Parses both sides' edits.
    ///
    /// # Errors
    /// The first edit that does not parse.
    pub fn parse(first: &[String], second: &[String]) -> Result<Imbalance, ImbalanceError> {
        let parse = |list: &[String]| {
            list.iter()
                .map(|t| t.parse::<PieceEdit>())
                .collect::<Result<Vec<_>, _>>()
        };
        Ok(Imbalance {
            first: parse(first)?,
            second: parse(second)?,
        })
    }

    /// The edits as text (for the wire).
    pub fn texts(&self) -> (Vec<String>, Vec<String>) {
        let texts = |list: &[PieceEdit]| list.iter().map(ToString::to_string).collect();
        (texts(&self.first), texts(&self.second))
    }

    /// `start` with the first player's side (`first_color`) and the second
    /// player's side edited.
    ///
    /// # Errors
    /// [`ImbalanceError`] naming the edit that does not fit this position,
    /// or the whole result if it is not a legal position.
    pub fn apply(&self, start: &Position, first_color: Color) -> Result<Position, ImbalanceError> {
        let variant = start.variant();
        let point = variant.builtin() == Some(VariantKind::AjaxModernRandom);
        let mirror = |color| Mirror {
            width: variant.width(),
            height: variant.height(),
            point,
            color,
        };
        let fen = start.fen();
        let before = Board::parse(&fen);
        let mut board = Board::parse(&fen);
        for (edits, color) in [(&self.first, first_color), (&self.second, !first_color)] {
            let m = mirror(color);
            for e in edits {
                apply_edit(&mut board, &m, e)?;
            }
        }
        prune_castling(&before, &mut board, variant.castling_style());
        let edited = board.fen();
        Position::from_fen_in(variant, &edited).map_err(|e| ImbalanceError {
            edit: self
                .first
                .iter()
                .chain(&self.second)
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(" "),
            message: format!("gives '{edited}', which is not a position: {e}"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn imbalance(first: &[&str], second: &[&str]) -> Imbalance {
        let own = |l: &[&str]| l.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        Imbalance::parse(&own(first), &own(second)).unwrap()
    }

    fn start(variant: VariantKind) -> Position {
        Position::start(variant, &ajaxlab_rules::StartSpec::Default).unwrap()
    }

    #[test]
    fn f_pawn_odds_in_chess_follow_the_first_player() {
        let i = imbalance(&["-P@f2"], &[]);
        let white = i.apply(&start(VariantKind::Chess), Color::White).unwrap();
        assert_eq!(
            white.fen(),
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPP1PP/RNBQKBNR w KQkq - 0 1"
        );
        let black = i.apply(&start(VariantKind::Chess), Color::Black).unwrap();
        assert_eq!(
            black.fen(),
            "rnbqkbnr/ppppp1pp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
        );
    }

    #[test]
    fn falcon_for_minister_in_afc() {
        let i = imbalance(&["M=F"], &[]);
        let p = i
            .apply(&start(VariantKind::AjaxFalcon), Color::White)
            .unwrap();
        assert_eq!(
            p.fen(),
            "rnbmqkmbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBFQKMBNR[FFff] w KQkq - 0 1"
        );
        let hand = imbalance(&["-F@hand"], &["+F@hand"]);
        let p = hand
            .apply(&start(VariantKind::AjaxFalcon), Color::Black)
            .unwrap();
        assert_eq!(
            p.fen(),
            "rnbmqkmbnr/pppppppppp/10/10/10/10/PPPPPPPPPP/RNBMQKMBNR[FFFf] w KQkq - 0 1"
        );
    }

    #[test]
    fn a_removed_rook_takes_its_castling_right_along() {
        let i = imbalance(&["-R@a1"], &[]);
        let p = i.apply(&start(VariantKind::Chess), Color::Black).unwrap();
        assert_eq!(
            p.fen(),
            "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1"
        );
    }

    #[test]
    fn amrc_edits_mirror_by_point_reflection_and_drop_gates() {
        // NRKBQABRN: White's knight on a1 faces Black's on i9.
        let pos = Position::start(
            VariantKind::AjaxModernRandom,
            &ajaxlab_rules::StartSpec::Number(7813),
        )
        .unwrap();
        let i = imbalance(&["-N"], &[]);
        let black = i.apply(&pos, Color::Black).unwrap();
        assert_eq!(
            black.fen(),
            "nrbaqbkr1/ppppppppp/9/9/9/9/9/PPPPPPPPP/NRKBQABRN[MMmm] w HBACDEFGIhbacdefg - 0 1"
        );
    }

    #[test]
    fn bad_edits_are_named() {
        for (text, needle) in [
            ("N", "expected"),
            ("-k", "piece letter"),
            ("+Q", "say where"),
            ("-P@z", "square"),
            ("M@hand=F", "replaced"),
        ] {
            let e = text.parse::<PieceEdit>().unwrap_err();
            assert_eq!(e.edit, text);
            assert!(e.message.contains(needle), "{text}: {e}");
        }
        let i = imbalance(&["-N@d1"], &[]);
        let e = i
            .apply(&start(VariantKind::Chess), Color::White)
            .unwrap_err();
        assert_eq!(e.edit, "-N@d1");
        let i = imbalance(&["+Q@e1"], &[]);
        assert!(i.apply(&start(VariantKind::Chess), Color::White).is_err());
    }
}
