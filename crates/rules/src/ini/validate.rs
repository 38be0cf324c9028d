//! From a [`Draft`] to a [`VariantSpec`]: every setting checked against what
//! the rules model can play, every violation reported with its line and key.

use super::draft::{Draft, DraftPiece, Role, SETUP_KEY, Setting, SetupKind};
use super::error::IniErrorKind;
use super::fen_shape::{self, FenFacts};
use super::spec::{
    CastlingSpec, EndRules, HandSpec, PieceSpec, PieceValue, SetupSpec, VariantSpec,
};
use super::values::{GameValue, Region};
use crate::square::{ByColor, Color, File, MAX_FILES, MAX_SIDE};
use crate::start::{amrc_number, chess960_number};

/// Errors found so far: line, key, what is wrong.
type Found = Vec<(usize, String, IniErrorKind)>;

struct Checker<'a> {
    header: usize,
    draft: &'a Draft,
    found: Found,
}

impl Checker<'_> {
    fn fail<T>(&mut self, at: &Setting<T>, key: &str, kind: IniErrorKind) {
        self.found
            .push((at.line.unwrap_or(self.header), key.to_owned(), kind));
    }

    fn refuse<T>(&mut self, at: &Setting<T>, key: &str, reason: impl Into<String>) {
        self.fail(at, key, IniErrorKind::Refused(reason.into()));
    }

    /// Refuses each of `regions` (keys `{base}White`, `{base}Black`) that is
    /// not the whole rank `rank` of its colour; `what` says what it is for.
    fn require_ranks(
        &mut self,
        regions: &ByColor<Setting<Region>>,
        base: &str,
        rank: ByColor<u8>,
        what: &str,
    ) {
        let (files, ranks) = (self.draft.files.value, self.draft.ranks.value);
        for color in Color::ALL {
            let region = &regions[color];
            let whole = Region::rank(rank[color]).on_board(files, ranks);
            if region.value.on_board(files, ranks) != whole {
                let why = format!("{what} (rank {})", rank[color] + 1);
                self.refuse(region, &format!("{base}{}", side(color)), why);
            }
        }
    }

    fn piece_at(&self, p: &DraftPiece) -> Setting<()> {
        Setting {
            value: (),
            line: p.line,
        }
    }

    fn letter_of(&self, key: &str) -> Option<char> {
        self.draft
            .pieces
            .iter()
            .find(|p| p.key == key)
            .map(|p| p.letter)
    }
}

/// Checks `draft` (the section `name` with its header at line `header`).
pub(super) fn lower(name: &str, header: usize, draft: &Draft) -> Result<VariantSpec, Found> {
    let mut c = Checker {
        header,
        draft,
        found: Vec::new(),
    };
    let (files, ranks) = (draft.files.value, draft.ranks.value);
    if files > MAX_FILES {
        c.refuse(
            &draft.files,
            "maxFile",
            format!("{files} files; the rules frame holds at most {MAX_FILES}"),
        );
    }
    if ranks > MAX_SIDE {
        c.refuse(
            &draft.ranks,
            "maxRank",
            format!("{ranks} ranks; the rules frame holds at most {MAX_SIDE}"),
        );
    }
    let pieces = pieces(&mut c);
    let pawn = draft
        .pieces
        .iter()
        .find(|p| p.role == Role::Pawn)
        .map(|p| p.letter);
    let king = draft
        .pieces
        .iter()
        .find(|p| p.role == Role::King)
        .map(|p| p.letter);
    if king.is_none() {
        c.refuse(
            &Setting {
                value: (),
                line: None,
            },
            "king",
            "a variant without a king",
        );
    }
    let letters: Vec<char> = draft.pieces.iter().map(|p| p.letter).collect();
    let fen = &draft.start_fen;
    let facts = match fen_shape::check(&fen.value, files, ranks, &letters, king) {
        Ok(facts) => Some(facts),
        Err(why) => {
            let kind = IniErrorKind::StartFen {
                fen: fen.value.clone(),
                why,
            };
            c.fail(fen, "startFen", kind);
            None
        }
    };
    let promotions = if pawn.is_some() {
        pawn_rules(&mut c)
    } else {
        Vec::new()
    };
    let hand = facts.as_ref().map_or(HandSpec::None, |f| hand(&mut c, f));
    let castling = castling(&mut c, facts.as_ref());
    let setup = facts
        .as_ref()
        .map(|f| setup(&mut c, f))
        .unwrap_or(SetupSpec::Fixed(fen.value.clone()));
    let end = end_rules(&mut c);
    let values = piece_values(draft);
    match (c.found.is_empty(), king) {
        (true, Some(king)) => Ok(VariantSpec {
            name: name.to_owned(),
            line: header,
            files,
            ranks,
            pawn,
            king,
            pieces,
            promotions,
            hand,
            castling,
            setup,
            end,
            values,
        }),
        _ => Err(c.found),
    }
}

/// The pieces besides pawn and king, each refused if the rules model cannot
/// play its moves.
fn pieces(c: &mut Checker<'_>) -> Vec<PieceSpec> {
    let mut out = Vec::new();
    for p in &c.draft.pieces {
        let Role::Piece(moves) = &p.role else {
            continue;
        };
        let at = c.piece_at(p);
        let mut components = Vec::new();
        for step in &moves.steps {
            match step.component() {
                Ok(component) => components.push(component),
                Err(why) => c.refuse(&at, &p.key, format!("'{}' {why}", p.letter)),
            }
        }
        out.push(PieceSpec {
            letter: p.letter,
            key: p.key.clone(),
            moves: moves.clone(),
            components,
        });
    }
    out
}

fn side(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

/// Promotion, double step and en passant: the rules model's pawn.
fn pawn_rules(c: &mut Checker<'_>) -> Vec<char> {
    let d = c.draft;
    let (files, ranks) = (d.files.value, d.ranks.value);
    let last = ByColor {
        white: ranks.saturating_sub(1),
        black: 0,
    };
    let second = ByColor {
        white: 1,
        black: ranks.saturating_sub(2),
    };
    c.require_ranks(
        &d.promotion_region,
        "promotionRegion",
        last,
        "pawns promote on their last rank only",
    );
    c.require_ranks(
        &d.double_step_region,
        "doubleStepRegion",
        second,
        "pawns double-step from their second rank only",
    );
    for color in Color::ALL {
        let region = &d.en_passant_region[color];
        let targets = Region::rank(2).on_board(files, ranks);
        let black_targets = Region::rank(ranks.saturating_sub(3)).on_board(files, ranks);
        if !region.value.covers(targets) || !region.value.covers(black_targets) {
            c.refuse(
                region,
                &format!("enPassantRegion{}", side(color)),
                "en passant is allowed after every double step",
            );
        }
    }
    if !d.double_step.value {
        c.refuse(
            &d.double_step,
            "doubleStep",
            "pawns always have the double step",
        );
    }
    let types = &d.promotion_types;
    if types.white.value != types.black.value {
        c.refuse(
            &types.black,
            "promotionPieceTypesBlack",
            "both sides promote to the same pieces",
        );
    }
    let mut out = Vec::new();
    for key in &types.white.value {
        match d.pieces.iter().find(|p| &p.key == key) {
            Some(p) if matches!(p.role, Role::Piece(_)) => out.push(p.letter),
            Some(p) => c.refuse(
                &types.white,
                "promotionPieceTypes",
                format!("promotion to the {} ('{}')", p.key, p.letter),
            ),
            None => {}
        }
    }
    if out.is_empty() {
        c.refuse(
            &types.white,
            "promotionPieceTypes",
            "pawns need at least one piece to promote to",
        );
    }
    out
}

/// The hand held in the start FEN, and how it enters.
fn hand(c: &mut Checker<'_>, facts: &FenFacts) -> HandSpec {
    let d = c.draft;
    let (drops, gating, seirawan) = (d.piece_drops.value, d.gating.value, d.seirawan_gating.value);
    if d.captures_to_hand.value {
        c.refuse(
            &d.captures_to_hand,
            "capturesToHand",
            "captured pieces never go to a hand",
        );
    }
    if gating != seirawan {
        let (at, key) = if gating {
            (&d.gating, "gating")
        } else {
            (&d.seirawan_gating, "seirawanGating")
        };
        c.refuse(
            at,
            key,
            "gating is Seirawan-style: gating and seirawanGating together",
        );
    }
    if drops && gating {
        c.refuse(
            &d.piece_drops,
            "pieceDrops",
            "drops and gating in one variant",
        );
    }
    if drops {
        let first = ByColor {
            white: 0,
            black: d.ranks.value.saturating_sub(1),
        };
        c.require_ranks(
            &d.drop_region,
            "dropRegion",
            first,
            "drops go on the own first rank only",
        );
    }
    let count = |upper: bool| {
        facts
            .hand
            .iter()
            .filter(|h| h.is_ascii_uppercase() == upper)
            .count()
    };
    let mut kinds: Vec<char> = facts.hand.iter().map(char::to_ascii_uppercase).collect();
    kinds.dedup();
    kinds.sort_unstable();
    kinds.dedup();
    let fen_error = |why: &str| IniErrorKind::StartFen {
        fen: d.start_fen.value.clone(),
        why: why.to_owned(),
    };
    if !drops && !gating {
        if !facts.hand.is_empty() {
            c.fail(
                &d.start_fen,
                "startFen",
                fen_error("holds pieces in hand, but neither pieceDrops nor gating is set"),
            );
        }
        return HandSpec::None;
    }
    let (white, black) = (count(true), count(false));
    let letter = match kinds[..] {
        [letter] if white == black => letter,
        _ => {
            c.fail(
                &d.start_fen,
                "startFen",
                fen_error("must hold pieces of one kind in hand, as many for each side"),
            );
            return HandSpec::None;
        }
    };
    let playable = d
        .pieces
        .iter()
        .any(|p| p.letter == letter && matches!(p.role, Role::Piece(_)));
    let Some(count) = u8::try_from(white).ok().filter(|_| playable) else {
        c.fail(
            &d.start_fen,
            "startFen",
            fen_error("holds pawns, kings or too many pieces in hand"),
        );
        return HandSpec::None;
    };
    if drops {
        HandSpec::Drops { letter, count }
    } else {
        HandSpec::Gating { letter, count }
    }
}

fn castling(c: &mut Checker<'_>, facts: Option<&FenFacts>) -> CastlingSpec {
    let d = c.draft;
    if !d.castling.value {
        if facts.is_some_and(|f| f.castling != "-") {
            let why = "grants castling rights, but castling = false".to_owned();
            c.fail(
                &d.start_fen,
                "startFen",
                IniErrorKind::StartFen {
                    fen: d.start_fen.value.clone(),
                    why,
                },
            );
        }
        return CastlingSpec::None;
    }
    if d.castling_rank.value != 0 {
        c.refuse(
            &d.castling_rank,
            "castlingRank",
            "castling happens on the first rank only",
        );
    }
    let files = d.files.value;
    let (k, q) = (d.castling_king_side.value, d.castling_queen_side.value);
    if k >= files {
        c.refuse(
            &d.castling_king_side,
            "castlingKingsideFile",
            "the file is off the board",
        );
    }
    if q >= k {
        c.refuse(
            &d.castling_queen_side,
            "castlingQueensideFile",
            "the queen-side file must lie left of the king-side file",
        );
    }
    let king_file = &d.castling_king_file;
    if let (Some(file), Some(f)) = (king_file.value, facts)
        && f.white_king_file != Some(file)
    {
        c.refuse(
            king_file,
            "castlingKingFile",
            "the king castles from where the start FEN puts it",
        );
    }
    for color in Color::ALL {
        let kings = &d.castling_king_piece[color];
        if kings.value != ["king"] {
            c.refuse(kings, "castlingKingPiece", "only the king castles");
        }
    }
    let rooks = &d.castling_rook_pieces;
    let rook = match (
        &rooks.white.value[..],
        rooks.white.value == rooks.black.value,
    ) {
        ([key], true) => c.letter_of(key),
        _ => None,
    };
    let (Some(rook), Some(ks), Some(qs)) = (rook, File::new(k), File::new(q)) else {
        c.refuse(
            &rooks.white,
            "castlingRookPieces",
            "exactly one piece of the variant, the same for both sides, castles with the king",
        );
        return CastlingSpec::None;
    };
    CastlingSpec::Castles {
        king_side_file: ks,
        queen_side_file: qs,
        rook,
        chess960: d.chess960.value,
    }
}

fn setup(c: &mut Checker<'_>, facts: &FenFacts) -> SetupSpec {
    let d = c.draft;
    let fen = d.start_fen.value.clone();
    let rank1: String = facts
        .white_first_rank
        .iter()
        .map(|s| s.unwrap_or('.'))
        .collect();
    let (kind, size, number) = match d.setup.value {
        SetupKind::Fixed => return SetupSpec::Fixed(fen),
        SetupKind::Chess960 => ("chess960", 8, chess960_number(&rank1)),
        SetupKind::ModernRandom => ("amrc", 9, amrc_number(&rank1)),
    };
    if d.files.value != size || d.ranks.value != size {
        c.refuse(
            &d.setup,
            SETUP_KEY,
            format!("{kind} starts need a {size}x{size} board"),
        );
    } else if number.is_none() {
        c.refuse(
            &d.setup,
            SETUP_KEY,
            format!("the start FEN's first rank '{rank1}' is not a {kind} start"),
        );
    }
    if !d.chess960.value {
        c.refuse(
            &d.setup,
            SETUP_KEY,
            format!("{kind} starts castle Chess960-style: set chess960 = true"),
        );
    }
    match d.setup.value {
        SetupKind::Chess960 => SetupSpec::Chess960(fen),
        _ => SetupSpec::ModernRandom(fen),
    }
}

fn end_rules(c: &mut Checker<'_>) -> EndRules {
    let d = c.draft;
    if d.n_move_rule.value != 50 {
        c.refuse(
            &d.n_move_rule,
            "nMoveRule",
            "the rules model plays the 50-move rule (nMoveRule = 50)",
        );
    }
    if d.n_fold_rule.value != 3 {
        c.refuse(
            &d.n_fold_rule,
            "nFoldRule",
            "the rules model draws on threefold repetition (nFoldRule = 3)",
        );
    }
    if d.stalemate_value.value != Some(GameValue::Draw) {
        c.refuse(
            &d.stalemate_value,
            "stalemateValue",
            "stalemate is a draw (stalemateValue = draw)",
        );
    }
    EndRules {
        n_move_rule: d.n_move_rule.value,
        n_fold_rule: d.n_fold_rule.value,
        stalemate: GameValue::Draw,
    }
}

fn piece_values(d: &Draft) -> Vec<PieceValue> {
    let mut out: Vec<PieceValue> = Vec::new();
    for (phase, list) in [(0, &d.values_mg), (1, &d.values_eg)] {
        for s in list {
            let (letter, value) = s.value;
            let i = out
                .iter()
                .position(|v| v.letter == letter)
                .unwrap_or_else(|| {
                    out.push(PieceValue {
                        letter,
                        mg: None,
                        eg: None,
                    });
                    out.len() - 1
                });
            if phase == 0 {
                out[i].mg = Some(value)
            } else {
                out[i].eg = Some(value)
            }
        }
    }
    out
}
