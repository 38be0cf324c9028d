//! The catalogue of Fairy-Stockfish's variant keys (its `parser.cpp`), each
//! either read by the reader, accepted only with the value the rules model
//! plays, or refused with the reason.

/// Fairy-Stockfish's named pieces and their moves in Betza (`piece.cpp`),
/// besides `pawn`, `king` and `customPieceN`.
pub(super) const STANDARD_PIECES: &[(&str, &str)] = &[
    ("knight", "N"),
    ("bishop", "B"),
    ("rook", "R"),
    ("queen", "Q"),
    ("fers", "F"),
    ("alfil", "A"),
    ("fersAlfil", "FA"),
    ("silver", "FfW"),
    ("aiwok", "RNF"),
    ("bers", "RF"),
    ("archbishop", "BN"),
    ("chancellor", "RN"),
    ("amazon", "QN"),
    ("knibis", "mNcB"),
    ("biskni", "mBcN"),
    ("kniroo", "mNcR"),
    ("rookni", "mRcN"),
    ("shogiPawn", "fW"),
    ("lance", "fR"),
    ("shogiKnight", "fN"),
    ("gold", "WfF"),
    ("dragonHorse", "BW"),
    ("clobber", "cW"),
    ("breakthrough", "fmWfF"),
    ("immobile", ""),
    ("cannon", "mRcpR"),
    ("janggiCannon", "pR"),
    ("soldier", "fsW"),
    ("horse", "nN"),
    ("elephant", "nA"),
    ("janggiElephant", "nZ"),
    ("banner", "RcpRnN"),
    ("wazir", "W"),
    ("commoner", "K"),
    ("centaur", "KN"),
];

/// The keys the reader stores, besides the pieces' (`pawn`, `king`, the
/// named pieces and `customPieceN`): what a misspelt key is matched
/// against, with the keys accepted or refused below.
pub(super) const READ: &[&str] = &[
    "maxFile",
    "maxRank",
    "startFen",
    "doubleStep",
    "castling",
    "castlingKingsideFile",
    "castlingQueensideFile",
    "castlingRank",
    "castlingKingFile",
    "chess960",
    "pieceDrops",
    "capturesToHand",
    "gating",
    "seirawanGating",
    "nMoveRule",
    "nFoldRule",
    "stalemateValue",
    "pieceValueMg",
    "pieceValueEg",
    super::draft::SETUP_KEY,
    "promotionRegionWhite",
    "promotionRegionBlack",
    "promotionPieceTypes",
    "promotionPieceTypesWhite",
    "promotionPieceTypesBlack",
    "doubleStepRegionWhite",
    "doubleStepRegionBlack",
    "enPassantRegion",
    "enPassantRegionWhite",
    "enPassantRegionBlack",
    "dropRegionWhite",
    "dropRegionBlack",
    "castlingRookPieces",
    "castlingRookPiecesWhite",
    "castlingRookPiecesBlack",
    "castlingKingPiece",
    "castlingKingPieceWhite",
    "castlingKingPieceBlack",
];

/// The known key an unknown `key` was most likely meant to be: one that
/// differs only in case, or else the nearest at most two edits away.
pub(super) fn closest(key: &str) -> Option<String> {
    let known: Vec<String> = READ
        .iter()
        .chain(DISPLAY_ONLY)
        .chain(["pawn", "king"].iter())
        .copied()
        .chain(STANDARD_PIECES.iter().map(|(k, _)| *k))
        .chain(MODEL_VALUES.iter().map(|(k, _)| *k))
        .chain(REFUSED.iter().map(|(k, _)| *k))
        .map(str::to_owned)
        .chain((1..=CUSTOM_PIECES).map(|n| format!("customPiece{n}")))
        .collect();
    if let Some(same) = known.iter().find(|k| k.eq_ignore_ascii_case(key)) {
        return Some(same.clone());
    }
    known
        .into_iter()
        .map(|k| (strsim::levenshtein(&k, key), k))
        .filter(|(distance, _)| *distance <= 2 && *distance < key.len() / 2)
        .min()
        .map(|(_, k)| k)
}

/// Number of `customPieceN` slots Fairy-Stockfish offers.
pub(super) const CUSTOM_PIECES: u32 = 25;

/// The slot number of a `customPieceN` key.
pub(super) fn custom_slot(key: &str) -> Option<u32> {
    let n: u32 = key.strip_prefix("customPiece")?.parse().ok()?;
    (1..=CUSTOM_PIECES).contains(&n).then_some(n)
}

/// Keys that only affect how a GUI shows the variant, not its rules.
pub(super) const DISPLAY_ONLY: &[&str] = &["variantTemplate", "pieceToCharTable"];

/// Keys accepted only with Fairy-Stockfish's default, which is what the
/// rules model plays.
pub(super) const MODEL_VALUES: &[(&str, &str)] = &[
    ("twoBoards", "false"),
    ("pocketSize", "0"),
    ("sittuyinPromotion", "false"),
    ("piecePromotionOnCapture", "false"),
    ("mandatoryPawnPromotion", "true"),
    ("mandatoryPiecePromotion", "false"),
    ("pieceDemotion", "false"),
    ("blastOnCapture", "false"),
    ("petrifyBlastPieces", "false"),
    ("castlingDroppedPiece", "false"),
    ("oppositeCastling", "false"),
    ("checking", "true"),
    ("dropChecks", "true"),
    ("mustCapture", "false"),
    ("mustDrop", "false"),
    ("dropLoop", "false"),
    ("firstRankPawnDrops", "false"),
    ("promotionZonePawnDrops", "false"),
    ("enclosingDrop", "none"),
    ("sittuyinRookDrop", "false"),
    ("dropOppositeColoredBishop", "false"),
    ("dropPromoted", "false"),
    ("immobilityIllegal", "false"),
    ("wallingRule", "none"),
    ("wallOrMove", "false"),
    ("cambodianMoves", "false"),
    ("pass", "false"),
    ("passWhite", "false"),
    ("passBlack", "false"),
    ("passOnStalemate", "false"),
    ("passOnStalemateWhite", "false"),
    ("passOnStalemateBlack", "false"),
    ("makpongRule", "false"),
    ("flyingGeneral", "false"),
    ("flipEnclosedPieces", "none"),
    ("nFoldValue", "draw"),
    ("nFoldValueAbsolute", "false"),
    ("perpetualCheckIllegal", "false"),
    ("moveRepetitionIllegal", "false"),
    ("chasingRule", "none"),
    ("stalematePieceCount", "false"),
    ("checkmateValue", "loss"),
    ("shogiPawnDropMateIllegal", "false"),
    ("shatarMateRule", "false"),
    ("bikjangRule", "false"),
    ("extinctionValue", "none"),
    ("extinctionClaim", "false"),
    ("extinctionPseudoRoyal", "false"),
    ("dupleCheck", "false"),
    ("flagPieceBlockedWin", "false"),
    ("flagMove", "false"),
    ("flagPieceSafe", "false"),
    ("checkCounting", "false"),
    ("connectN", "0"),
    ("connectNxN", "0"),
    ("collinearN", "0"),
    ("materialCounting", "none"),
    ("adjudicateFullBoard", "false"),
    ("countingRule", "none"),
    ("castlingWins", "-"),
];

/// Keys refused whatever their value, with the reason.
pub(super) const REFUSED: &[(&str, &str)] = &[
    ("pawnTypes", "pawn-like piece types other than the pawn"),
    ("promotionPawnTypes", "promoting pieces other than the pawn"),
    (
        "promotionPawnTypesWhite",
        "promoting pieces other than the pawn",
    ),
    (
        "promotionPawnTypesBlack",
        "promoting pieces other than the pawn",
    ),
    ("promotionLimit", "limits on promotions"),
    ("promotedPieceType", "shogi-style promoted pieces"),
    ("blastImmuneTypes", "blast captures"),
    ("mutuallyImmuneTypes", "mutually immune pieces"),
    ("petrifyOnCaptureTypes", "petrifying captures"),
    ("tripleStepRegionWhite", "pawn triple steps"),
    ("tripleStepRegionBlack", "pawn triple steps"),
    ("enPassantTypes", "en passant by pieces other than the pawn"),
    (
        "enPassantTypesWhite",
        "en passant by pieces other than the pawn",
    ),
    (
        "enPassantTypesBlack",
        "en passant by pieces other than the pawn",
    ),
    (
        "castlingRookKingsideFile",
        "castling rooks away from the corners in non-960 variants",
    ),
    (
        "castlingRookQueensideFile",
        "castling rooks away from the corners in non-960 variants",
    ),
    ("mustDropType", "compulsory drops"),
    ("enclosingDropStart", "enclosing drops"),
    ("dropNoDoubled", "drop restrictions by file"),
    ("dropNoDoubledCount", "drop restrictions by file"),
    ("wallingRegionWhite", "walling"),
    ("wallingRegionBlack", "walling"),
    ("wallingRegion", "walling"),
    ("diagonalLines", "diagonal-line restrictions"),
    ("soldierPromotionRank", "soldier promotion"),
    (
        "nMoveRuleTypes",
        "an n-move rule reset by pieces other than the pawn",
    ),
    (
        "nMoveRuleTypesWhite",
        "an n-move rule reset by pieces other than the pawn",
    ),
    (
        "nMoveRuleTypesBlack",
        "an n-move rule reset by pieces other than the pawn",
    ),
    ("extinctionPieceTypes", "extinction wins"),
    ("extinctionPieceCount", "extinction wins"),
    ("extinctionOpponentPieceCount", "extinction wins"),
    ("flagPiece", "flag (race) wins"),
    ("flagPieceWhite", "flag (race) wins"),
    ("flagPieceBlack", "flag (race) wins"),
    ("flagRegion", "flag (race) wins"),
    ("flagRegionWhite", "flag (race) wins"),
    ("flagRegionBlack", "flag (race) wins"),
    ("flagPieceCount", "flag (race) wins"),
    ("connectPieceTypes", "connection wins"),
    ("connectHorizontal", "connection wins"),
    ("connectVertical", "connection wins"),
    ("connectDiagonal", "connection wins"),
    ("connectRegion1White", "connection wins"),
    ("connectRegion2White", "connection wins"),
    ("connectRegion1Black", "connection wins"),
    ("connectRegion2Black", "connection wins"),
    ("connectValue", "connection wins"),
    (
        "promotionRank",
        "deprecated: write promotionRegionWhite/promotionRegionBlack",
    ),
    (
        "doubleStepRank",
        "deprecated: write doubleStepRegionWhite/doubleStepRegionBlack",
    ),
    (
        "doubleStepRankMin",
        "deprecated: write doubleStepRegionWhite/doubleStepRegionBlack",
    ),
    ("whiteFlag", "deprecated, and flag wins"),
    ("blackFlag", "deprecated, and flag wins"),
    ("castlingRookPiece", "deprecated: write castlingRookPieces"),
    ("whiteDropRegion", "deprecated: write dropRegionWhite"),
    ("blackDropRegion", "deprecated: write dropRegionBlack"),
    ("dropOnTop", "deprecated, and enclosing drops"),
];

/// The reason a `mobilityRegion…` key is refused, if `key` is one.
pub(super) fn mobility_region(key: &str) -> Option<&'static str> {
    let rest = key.strip_prefix("mobilityRegion")?;
    (rest.starts_with("White") || rest.starts_with("Black")).then_some("pieces confined to regions")
}
