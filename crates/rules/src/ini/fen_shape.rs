//! Whether a `startFen` fits the variant's board and pieces, before any
//! position is built from it: ranks and files, piece letters, one king a
//! side, hand, side to move, castling, en passant and clocks.

/// What the variant checks need from a start FEN that fits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct FenFacts {
    /// Letters in the `[...]` hand, as written (case = colour).
    pub(super) hand: Vec<char>,
    /// The castling field.
    pub(super) castling: String,
    /// White's first rank, one letter per file (`None`: empty square).
    pub(super) white_first_rank: Vec<Option<char>>,
    /// The file (0-based) of White's king.
    pub(super) white_king_file: Option<u8>,
}

/// Checks `fen` against a board of `files` × `ranks`, the piece `letters`
/// (upper case) and the `king` letter.
pub(super) fn check(
    fen: &str,
    files: u8,
    ranks: u8,
    letters: &[char],
    king: Option<char>,
) -> Result<FenFacts, String> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let [board, side, castling, ep, halfmove, fullmove] = fields[..] else {
        return Err(format!("has {} fields; a start FEN has 6", fields.len()));
    };
    let (placement, hand) = match board.strip_suffix(']').and_then(|b| b.split_once('[')) {
        // Fairy-Stockfish writes an empty hand as [] or [-].
        Some((placement, hand)) => (
            placement,
            hand.chars().filter(|&c| c != '-').collect::<Vec<_>>(),
        ),
        None => (board, Vec::new()),
    };
    let rows: Vec<&str> = placement.split('/').collect();
    if rows.len() != usize::from(ranks) {
        return Err(format!("has {} ranks; maxRank is {ranks}", rows.len()));
    }
    let known = |c: char| letters.contains(&c.to_ascii_uppercase());
    let mut kings = [0u32; 2];
    let mut facts = FenFacts {
        hand: hand.clone(),
        castling: castling.to_owned(),
        white_first_rank: Vec::new(),
        white_king_file: None,
    };
    for (i, row) in rows.iter().enumerate() {
        let rank = usize::from(ranks) - i;
        let squares = expand(row, rank, files, known)?;
        for (file, piece) in squares.iter().enumerate() {
            match piece {
                Some(p) if Some(p.to_ascii_uppercase()) == king => {
                    kings[usize::from(p.is_ascii_lowercase())] += 1;
                    if p.is_ascii_uppercase() {
                        facts.white_king_file = u8::try_from(file).ok();
                    }
                }
                _ => {}
            }
        }
        if rank == 1 {
            facts.white_first_rank = squares;
        }
    }
    if kings != [1, 1] {
        return Err(format!(
            "has {} white and {} black kings; each side needs one",
            kings[0], kings[1]
        ));
    }
    if let Some(c) = hand.iter().find(|c| !known(**c)) {
        return Err(format!(
            "holds '{c}' in hand, which is no piece of this variant"
        ));
    }
    if side != "w" && side != "b" {
        return Err(format!("has side to move '{side}'; expected w or b"));
    }
    let on_board = |c: char| {
        c.is_ascii_alphabetic() && (c.to_ascii_lowercase() as u32) < 'a' as u32 + u32::from(files)
    };
    if castling != "-" && !castling.chars().all(|c| "KQkq".contains(c) || on_board(c)) {
        return Err(format!(
            "has castling field '{castling}'; expected KQkq, file letters or -"
        ));
    }
    if ep != "-" {
        let mut chars = ep.chars();
        let file_ok = chars.next().is_some_and(on_board);
        let rank_ok = chars
            .as_str()
            .parse::<u8>()
            .is_ok_and(|r| (1..=ranks).contains(&r));
        if !file_ok || !rank_ok {
            return Err(format!(
                "has en passant square '{ep}', which is not on the board"
            ));
        }
    }
    if halfmove.parse::<u32>().is_err() || fullmove.parse::<u32>().map_or(true, |n| n == 0) {
        return Err(format!(
            "has move counters '{halfmove} {fullmove}'; expected numbers, the second from 1"
        ));
    }
    Ok(facts)
}

/// The squares of one FEN rank, checked against the board width.
fn expand(
    row: &str,
    rank: usize,
    files: u8,
    known: impl Fn(char) -> bool,
) -> Result<Vec<Option<char>>, String> {
    let mut squares = Vec::new();
    let mut run = 0usize;
    let too_long = || format!("has rank {rank} longer than maxFile {files}");
    for c in row.chars() {
        if let Some(d) = c.to_digit(10) {
            run = run
                .checked_mul(10)
                .and_then(|r| r.checked_add(d as usize))
                .ok_or_else(too_long)?;
            if run > usize::from(files) {
                return Err(too_long());
            }
            continue;
        }
        squares.extend(std::iter::repeat_n(None, run));
        run = 0;
        match c {
            '~' => {
                return Err(format!(
                    "marks a promoted piece ('~') on rank {rank}, which the rules model does not play"
                ));
            }
            '*' => {
                return Err(format!(
                    "has a wall square ('*') on rank {rank}, which the rules model does not play"
                ));
            }
            c if c.is_ascii_alphabetic() && known(c) => squares.push(Some(c)),
            c => {
                return Err(format!(
                    "has '{c}' on rank {rank}, which is no piece of this variant"
                ));
            }
        }
    }
    squares.extend(std::iter::repeat_n(None, run));
    if squares.len() != usize::from(files) {
        return Err(format!(
            "has rank {rank} of {} squares; maxFile is {files}",
            squares.len()
        ));
    }
    Ok(squares)
}
