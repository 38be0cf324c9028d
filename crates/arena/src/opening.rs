//! Openings: which start positions a match plays, each optionally followed
//! by a few random legal plies. Every opening is played twice, colours
//! swapped.

use crate::imbalance::{Imbalance, ImbalanceError};
use crate::pgn_book::read_pgn_book;
use ajaxlab_rules::{Color, FenError, Move, Position, StartSpec, Variant};
use ajaxlab_stats::{RandomSource, SplitMix64};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::Path;

thread_local! {
    /// Playable moves of recently seen positions, by hash (the position is
    /// kept to rule out collisions). Random openings start from few
    /// positions, so most plies are looked up rather than worked out: a
    /// coordinator picks one opening per pair it validates.
    static PLAYABLE: RefCell<HashMap<u64, (Position, Vec<Move>)>> = RefCell::new(HashMap::new());
}

/// Entries kept before the cache starts again: about 2 MB a thread, since
/// a coordinator validates on many threads at once.
const PLAYABLE_CACHE_ENTRIES: usize = 1 << 12;

/// Calls `f` with the legal moves of `pos` that leave the opponent a move
/// (a random opening never walks into a finished game), in generation order.
fn with_playable_moves<R>(pos: &Position, f: impl FnOnce(&[Move]) -> R) -> R {
    PLAYABLE.with_borrow_mut(|cache| {
        if let Some((seen, moves)) = cache.get(&pos.hash())
            && seen == pos
        {
            return f(moves);
        }
        let playable: Vec<Move> = pos
            .legal_moves()
            .iter()
            .copied()
            .filter(|&m| {
                let mut next = *pos;
                next.play_unchecked(m);
                next.has_legal_move()
            })
            .collect();
        let answer = f(&playable);
        if cache.len() >= PLAYABLE_CACHE_ENTRIES {
            cache.clear();
        }
        cache.insert(pos.hash(), (*pos, playable));
        answer
    })
}

/// Where start positions come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    /// The variant's default start.
    Start,
    /// A uniformly random numbered start (AMRC 0..15120, Chess960 0..960).
    RandomNumber,
    /// A numbered start drawn uniformly from `first..=last`.
    NumberRange(u32, u32),
    /// Numbered starts drawn from a list.
    Numbers(Vec<u32>),
    /// Positions drawn from a FEN/EPD list.
    Fens(Vec<String>),
}

impl OpeningSource {
    /// This source if `variant` can play it: numbered starts only for a
    /// variant that numbers its starts, and every number among them.
    ///
    /// # Errors
    /// [`OpeningError::NotNumbered`] or [`OpeningError::OutOfRange`].
    pub fn checked(self, variant: &'static Variant) -> Result<OpeningSource, OpeningError> {
        if matches!(self, OpeningSource::Start | OpeningSource::Fens(_)) {
            return Ok(self);
        }
        let count = variant
            .start_count()
            .ok_or(OpeningError::NotNumbered(variant))?;
        let check = |n: u32| {
            if n < count {
                Ok(())
            } else {
                Err(OpeningError::OutOfRange {
                    variant,
                    number: n,
                    count,
                })
            }
        };
        match &self {
            OpeningSource::NumberRange(a, b) => {
                check(*a)?;
                check(*b)?;
            }
            OpeningSource::Numbers(list) => list.iter().try_for_each(|n| check(*n))?,
            _ => {}
        }
        Ok(self)
    }
}

impl std::fmt::Display for OpeningSource {
    /// Short enough for a log line: a FEN list shows its size, not its positions.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            OpeningSource::Start => write!(f, "start"),
            OpeningSource::RandomNumber => write!(f, "random"),
            OpeningSource::NumberRange(a, b) => write!(f, "range:{a}-{b}"),
            OpeningSource::Numbers(list) => write!(f, "{} numbered starts", list.len()),
            OpeningSource::Fens(fens) => write!(f, "a book of {} positions", fens.len()),
        }
    }
}

impl std::fmt::Display for Openings {
    /// What is played, for a match's header: the source, the order of a
    /// list, and the random plies (a book without them is "played as given").
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.source)?;
        if matches!(
            self.source,
            OpeningSource::Fens(_) | OpeningSource::Numbers(_)
        ) {
            match self.order {
                Order::Random => write!(f, " in random order (by seed)")?,
                Order::Sequential => write!(f, " in sequential order")?,
            }
        }
        match (self.random_plies, &self.source) {
            (0, OpeningSource::Fens(_)) => write!(f, ", played as given"),
            (0, _) => Ok(()),
            (n, _) => write!(f, " + {n} random plies"),
        }
    }
}

/// A bad opening specification.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OpeningError {
    /// Unknown or malformed spec text.
    #[error(
        "'{0}': expected start, random, range:A-B, numbers:A,B,C, list:FILE (start numbers) or file:FILE (an EPD or PGN book), FILE followed by ,order=sequential|random and for a book ,format=epd|pgn and (PGN) ,plies=N"
    )]
    Spec(String),
    /// A bad `format=`, `order=` or `plies=` option.
    #[error("{0}")]
    Option(String),
    /// Numbered starts asked of a variant that has one start.
    #[error("{0} has a single start position; use start or file:FILE")]
    NotNumbered(&'static Variant),
    /// A number or range outside the variant's starts.
    #[error("start {number} is outside {variant}'s 0..{count}")]
    OutOfRange {
        /// Variant.
        variant: &'static Variant,
        /// Offending number.
        number: u32,
        /// Number of starts.
        count: u32,
    },
    /// A file that cannot be read or holds a bad line.
    #[error("file {path}: {message}")]
    File {
        /// The file.
        path: String,
        /// What is wrong (with the line number).
        message: String,
    },
}

/// The order a list of starts (a book, a list of start numbers) is played in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Order {
    /// Each pair draws its start from the list by the pair's seed (so from
    /// the match's `seed`), with replacement.
    #[default]
    Random,
    /// Pair `n` plays entry `n` of the list, from the first, starting again
    /// after the last.
    Sequential,
}

impl std::str::FromStr for Order {
    type Err = OpeningError;

    fn from_str(s: &str) -> Result<Order, OpeningError> {
        match s {
            "random" => Ok(Order::Random),
            "sequential" => Ok(Order::Sequential),
            other => Err(OpeningError::Option(format!(
                "order={other}: expected sequential or random"
            ))),
        }
    }
}

/// The format of an opening book file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BookFormat {
    /// One FEN or EPD position a line.
    Epd,
    /// PGN games; each gives the position after its first plies.
    Pgn,
}

impl std::str::FromStr for BookFormat {
    type Err = OpeningError;

    fn from_str(s: &str) -> Result<BookFormat, OpeningError> {
        match s {
            "epd" | "fen" => Ok(BookFormat::Epd),
            "pgn" => Ok(BookFormat::Pgn),
            other => Err(OpeningError::Option(format!(
                "format={other}: expected epd or pgn"
            ))),
        }
    }
}

/// The options after a `file:` or `list:` path: `format=`, `order=`, `plies=`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ListOptions {
    format: Option<BookFormat>,
    order: Order,
    plies: Option<u32>,
}

impl ListOptions {
    fn parse(options: &str) -> Result<ListOptions, OpeningError> {
        let mut parsed = ListOptions::default();
        for option in options.split(',').filter(|o| !o.is_empty()) {
            match option.split_once('=') {
                Some(("format", v)) => parsed.format = Some(v.parse()?),
                Some(("order", v)) => parsed.order = v.parse()?,
                Some(("plies", v)) => {
                    parsed.plies = Some(v.parse().map_err(|_| {
                        OpeningError::Option(format!("plies={v}: expected a number of plies"))
                    })?);
                }
                _ => {
                    return Err(OpeningError::Option(format!(
                        "'{option}': expected format=epd|pgn, order=sequential|random or plies=N"
                    )));
                }
            }
        }
        Ok(parsed)
    }
}

/// The random plies a source gets when none are asked for: a book's
/// positions are played as given; a variant with one start (AFC, chess)
/// gets 4 (a single start needs them to give different games), numbered
/// starts none.
pub fn default_random_plies(variant: &Variant, source: &OpeningSource) -> u32 {
    match source {
        OpeningSource::Fens(_) => 0,
        _ if variant.start_count().is_none() => 4,
        _ => 0,
    }
}

/// The openings of a match: a source and how many random plies follow.
#[derive(Clone, Debug)]
pub struct Openings {
    /// The variant.
    pub variant: &'static Variant,
    /// Where starts come from.
    pub source: OpeningSource,
    /// The order a list of starts is played in.
    pub order: Order,
    /// Random legal plies played after the start.
    pub random_plies: u32,
    /// Material changed in every start, following the players.
    pub imbalance: Imbalance,
}

/// One opening, ready to play.
#[derive(Clone, Debug)]
pub struct Opening {
    /// The start position (before random plies).
    pub start: Position,
    /// Its number, for numbered variants.
    pub start_number: Option<u32>,
    /// The random plies played from it.
    pub random_moves: Vec<Move>,
}

impl Opening {
    /// The random plies as UCI text.
    pub fn move_texts(&self) -> Vec<String> {
        self.start.uci_line(&self.random_moves)
    }

    /// The position after the random plies.
    pub fn position(&self) -> Position {
        let mut p = self.start;
        for &m in &self.random_moves {
            p.play_unchecked(m);
        }
        p
    }
}

/// A number drawn uniformly from `0..n` (`0` for `n = 0`).
fn below(rng: &mut SplitMix64, n: u32) -> u32 {
    (rng.next_u64() % u64::from(n.max(1))) as u32
}

/// What is wrong with a FEN of a book line, without the line's text (the
/// file may be anything).
fn fen_problem(e: &FenError) -> String {
    let field = match e {
        FenError::Empty | FenError::EmptyRunTooLong { .. } => return e.to_string(),
        FenError::Board(_) => "board",
        FenError::Hand(_) => "hand",
        FenError::Side(_) => "side to move",
        FenError::Castling(_) => "castling",
        FenError::EnPassant(_) => "en passant",
        FenError::Halfmove(_) => "halfmove clock",
        FenError::Fullmove(_) => "fullmove number",
        FenError::TrailingText(_) => "text after the fullmove number",
        FenError::Impossible(_) => return "impossible position".into(),
    };
    format!("not a position: bad {field} field")
}

/// Why `pos` cannot start a game: it is already over by the rules (a
/// finished game's last position in a book), or `None`.
pub(crate) fn already_over(pos: &Position) -> Option<String> {
    ajaxlab_rules::Game::new(*pos)
        .outcome()
        .map(|o| format!("the game is already over ({}): nothing to play", o.reason()))
}

/// Reads FEN or EPD lines (`#` comments and blank lines skipped); EPD lines
/// (four fields, then `;`-separated opcodes) get clocks `0 1`.
///
/// # Errors
/// [`OpeningError::File`] for an unreadable file or a line that is not a
/// position of `variant`, with its line number.
pub fn read_positions(variant: &'static Variant, path: &Path) -> Result<Vec<String>, OpeningError> {
    let file_err = |message: String| OpeningError::File {
        path: path.display().to_string(),
        message,
    };
    let text = ajaxlab_files::read_text(path, ajaxlab_files::limits::OPENINGS_FILE)
        .map_err(|e| file_err(e.to_string()))?;
    let mut fens = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let body = line.split(';').next().unwrap_or("").trim();
        let fields: Vec<&str> = body.split_whitespace().collect();
        // EPD clocks: `hmvc N;` and `fmvn N;` opcodes, else 0 and 1.
        let opcode = |name: &str| {
            line.split(';')
                .filter_map(|op| op.trim().strip_prefix(name))
                .find_map(|v| v.trim().parse::<u32>().ok())
        };
        let fen = if fields.len() >= 6 && fields[4].parse::<u32>().is_ok() {
            fields[..6].join(" ")
        } else if fields.len() >= 4 {
            let first = body
                .split_whitespace()
                .take(4)
                .collect::<Vec<_>>()
                .join(" ");
            let hmvc = opcode("hmvc").or_else(|| {
                fields
                    .get(5)
                    .and_then(|v| v.parse().ok())
                    .filter(|_| fields.get(4) == Some(&"hmvc"))
            });
            format!(
                "{first} {} {}",
                hmvc.unwrap_or(0),
                opcode("fmvn").unwrap_or(1)
            )
        } else {
            return Err(file_err(format!(
                "line {}: not a FEN or EPD position",
                i + 1
            )));
        };
        let pos = Position::from_fen_in(variant, &fen)
            .map_err(|e| file_err(format!("line {}: {}", i + 1, fen_problem(&e))))?;
        if let Some(over) = already_over(&pos) {
            return Err(file_err(format!("line {}: {over}", i + 1)));
        }
        fens.push(fen);
    }
    if fens.is_empty() {
        return Err(file_err("no positions".into()));
    }
    Ok(fens)
}

impl Openings {
    /// Parses a spec: `start`, `random`, `range:A-B`, `numbers:A,B,C`,
    /// `list:FILE[,order=…]`, `file:FILE[,format=epd|pgn][,order=…][,plies=N]`
    /// (the format from the file's `.pgn` extension when not given).
    /// `random_plies` of `None` takes [`default_random_plies`].
    ///
    /// # Errors
    /// [`OpeningError`] naming what is wrong.
    pub fn parse(
        variant: &'static Variant,
        spec: &str,
        random_plies: Option<u32>,
    ) -> Result<Openings, OpeningError> {
        let (kind, rest) = spec.split_once(':').unwrap_or((spec, ""));
        let (path, options) = match kind {
            "list" | "file" => {
                let (path, options) = rest.split_once(',').unwrap_or((rest, ""));
                (path, ListOptions::parse(options)?)
            }
            _ => (rest, ListOptions::default()),
        };
        if kind == "list" && (options.format.is_some() || options.plies.is_some()) {
            return Err(OpeningError::Option(
                "format= and plies= are for file: books; list: takes order= only".into(),
            ));
        }
        let format = options.format.unwrap_or(
            if Path::new(path)
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("pgn"))
            {
                BookFormat::Pgn
            } else {
                BookFormat::Epd
            },
        );
        if format == BookFormat::Epd && options.plies.is_some() {
            return Err(OpeningError::Option(
                "plies= is for PGN books (format=pgn): an EPD position has no moves".into(),
            ));
        }
        let numbered = |source: OpeningSource| source.checked(variant);
        let source = match (kind, rest) {
            ("start", "") => OpeningSource::Start,
            ("random", "") => numbered(OpeningSource::RandomNumber)?,
            ("range", r) => {
                let (a, b) = r
                    .split_once('-')
                    .ok_or_else(|| OpeningError::Spec(spec.into()))?;
                let a: u32 = a
                    .trim()
                    .parse()
                    .map_err(|_| OpeningError::Spec(spec.into()))?;
                let b: u32 = b
                    .trim()
                    .parse()
                    .map_err(|_| OpeningError::Spec(spec.into()))?;
                if a > b {
                    return Err(OpeningError::Spec(spec.into()));
                }
                numbered(OpeningSource::NumberRange(a, b))?
            }
            ("numbers", list) => {
                let numbers = list
                    .split(',')
                    .map(|n| n.trim().parse::<u32>())
                    .collect::<Result<Vec<_>, _>>()
                    .map_err(|_| OpeningError::Spec(spec.into()))?;
                numbered(OpeningSource::Numbers(numbers))?
            }
            ("list", _) => {
                let file = path;
                let path = Path::new(file);
                let text = ajaxlab_files::read_text(path, ajaxlab_files::limits::OPENINGS_FILE)
                    .map_err(|e| OpeningError::File {
                        path: file.into(),
                        message: e.to_string(),
                    })?;
                // The line is named, never echoed: the file may be anything.
                let mut numbers = Vec::new();
                for (i, line) in text.lines().enumerate() {
                    for s in line
                        .split(|c: char| c.is_whitespace() || c == ',')
                        .filter(|s| !s.is_empty())
                    {
                        numbers.push(s.parse::<u32>().map_err(|_| OpeningError::File {
                            path: file.into(),
                            message: format!("line {}: not a start number", i + 1),
                        })?);
                    }
                }
                if numbers.is_empty() {
                    return Err(OpeningError::File {
                        path: file.into(),
                        message: "no start numbers".into(),
                    });
                }
                numbered(OpeningSource::Numbers(numbers))?
            }
            ("file", _) => OpeningSource::Fens(match format {
                BookFormat::Epd => read_positions(variant, Path::new(path))?,
                BookFormat::Pgn => read_pgn_book(variant, Path::new(path), options.plies)?,
            }),
            _ => return Err(OpeningError::Spec(spec.into())),
        };
        Ok(Openings {
            variant,
            random_plies: random_plies.unwrap_or_else(|| default_random_plies(variant, &source)),
            source,
            order: options.order,
            imbalance: Imbalance::default(),
        })
    }

    /// Every start this source can give (for checking an imbalance against
    /// each); a random numbered source gives all of the variant's starts.
    fn all_starts(&self) -> Vec<Position> {
        let numbers: Vec<u32> = match &self.source {
            OpeningSource::Start => return vec![self.numbered_start(None)],
            OpeningSource::Fens(fens) => {
                return fens
                    .iter()
                    .filter_map(|f| Position::from_fen_in(self.variant, f).ok())
                    .collect();
            }
            OpeningSource::RandomNumber => (0..self.variant.start_count().unwrap_or(1)).collect(),
            OpeningSource::NumberRange(a, b) => (*a..=*b).collect(),
            OpeningSource::Numbers(list) => list.clone(),
        };
        numbers
            .into_iter()
            .map(|n| self.numbered_start(Some(n)))
            .collect()
    }

    /// Checks that the imbalance fits every start, with the first player on
    /// either colour, so that no game can meet an edit that does not apply.
    ///
    /// # Errors
    /// The first edit that does not fit, with the start it fails on.
    pub fn check_imbalance(&self) -> Result<(), ImbalanceError> {
        if self.imbalance.is_empty() {
            return Ok(());
        }
        for start in self.all_starts() {
            for color in [Color::White, Color::Black] {
                self.imbalance
                    .apply(&start, color)
                    .map_err(|e| ImbalanceError {
                        message: format!("{} (start {})", e.message, start.fen()),
                        ..e
                    })?;
            }
        }
        Ok(())
    }

    /// The opening of game `game_in_pair` (0 or 1) of pair `pair`: in
    /// [`Order::Sequential`] the pair's entry of the list, else as
    /// [`Openings::pick`] draws it from `seed`.
    pub fn pick_for_pair(&self, pair: u64, seed: u64, game_in_pair: u64) -> Opening {
        let entry = (self.order == Order::Sequential).then_some(pair);
        self.pick_entry(entry, seed, game_in_pair)
    }

    /// The opening of game `game_in_pair` (0 or 1) of a pair, fixed by
    /// `seed` alone (the start drawn at random, whatever the order). Both
    /// games share the start; an imbalance edits the first player's side,
    /// which is White in game 0 and Black in game 1, and the random plies
    /// are drawn afterwards from the same seed.
    pub fn pick(&self, seed: u64, game_in_pair: u64) -> Opening {
        self.pick_entry(None, seed, game_in_pair)
    }

    /// [`Openings::pick`], with the list's entry `entry` (modulo its length)
    /// instead of a drawn one when given.
    fn pick_entry(&self, entry: Option<u64>, seed: u64, game_in_pair: u64) -> Opening {
        let mut rng = SplitMix64::new(seed);
        let index = |rng: &mut SplitMix64, len: usize| match entry {
            Some(e) => (e % len.max(1) as u64) as usize,
            None => below(rng, len as u32) as usize,
        };
        let (start, start_number) = match &self.source {
            OpeningSource::Start => (self.numbered_start(None), None),
            OpeningSource::RandomNumber => {
                let n = below(&mut rng, self.variant.start_count().unwrap_or(1));
                (self.numbered_start(Some(n)), Some(n))
            }
            OpeningSource::NumberRange(a, b) => {
                let n = a + below(&mut rng, b - a + 1);
                (self.numbered_start(Some(n)), Some(n))
            }
            OpeningSource::Numbers(list) => {
                let n = list[index(&mut rng, list.len())];
                (self.numbered_start(Some(n)), Some(n))
            }
            OpeningSource::Fens(fens) => {
                let fen = &fens[index(&mut rng, fens.len())];
                let pos = Position::from_fen_in(self.variant, fen)
                    .unwrap_or_else(|_| self.numbered_start(None));
                (pos, None)
            }
        };
        let start = if self.imbalance.is_empty() {
            start
        } else {
            let first = if game_in_pair == 0 {
                Color::White
            } else {
                Color::Black
            };
            // `check_imbalance` has tried every start, so this cannot fail.
            self.imbalance.apply(&start, first).unwrap_or(start)
        };
        let mut random_moves = Vec::new();
        let mut pos = start;
        for _ in 0..self.random_plies {
            let Some(m) = with_playable_moves(&pos, |playable| {
                (!playable.is_empty())
                    .then(|| playable[below(&mut rng, playable.len() as u32) as usize])
            }) else {
                break;
            };
            pos.play_unchecked(m);
            random_moves.push(m);
        }
        Opening {
            start,
            start_number,
            random_moves,
        }
    }

    fn numbered_start(&self, number: Option<u32>) -> Position {
        let spec = number.map_or(StartSpec::Default, StartSpec::Number);
        Position::start_in(self.variant, &spec)
            .or_else(|_| Position::start_in(self.variant, &StartSpec::Default))
            .unwrap_or_else(|e| unreachable!("the default start exists: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ajaxlab_rules::VariantKind;

    /// The random plies of `openings.pick(seed, 0)` for seeds `0..n`.
    fn lines(openings: &Openings, n: u64) -> Vec<Vec<Move>> {
        (0..n)
            .map(|seed| openings.pick(seed, 0).random_moves)
            .collect()
    }

    #[test]
    fn random_plies_are_legal_and_never_end_the_game() {
        for variant in VariantKind::ALL {
            let openings = Openings::parse(variant.variant(), "start", Some(6)).unwrap();
            for seed in 0..200 {
                let opening = openings.pick(seed, 0);
                let mut pos = opening.start;
                for &m in &opening.random_moves {
                    assert!(pos.is_legal(m), "{variant}: seed {seed}");
                    pos.play_unchecked(m);
                    assert!(pos.has_legal_move(), "{variant}: seed {seed}");
                }
                assert_eq!(opening.random_moves.len(), 6, "{variant}: seed {seed}");
            }
        }
    }

    #[test]
    fn a_pick_is_the_same_whatever_the_cache_holds() {
        let openings =
            Openings::parse(VariantKind::AjaxFalcon.variant(), "start", Some(3)).unwrap();
        // This thread's cache fills as it goes; a new thread starts empty.
        let warm = lines(&openings, 300);
        let again = lines(&openings, 300);
        let fresh = std::thread::spawn({
            let openings = openings.clone();
            move || lines(&openings, 300)
        })
        .join()
        .unwrap();
        assert_eq!(warm, again);
        assert_eq!(warm, fresh);
        // And the seeds do spread the openings.
        let distinct: std::collections::HashSet<_> = warm.iter().collect();
        assert!(distinct.len() > 250, "{}", distinct.len());
    }

    /// A book file of `lines` with extension `ext`, unique to this test.
    fn book_file(tag: &str, ext: &str, lines: &str) -> String {
        let path =
            std::env::temp_dir().join(format!("ajaxlab-book-{}-{tag}.{ext}", std::process::id()));
        std::fs::write(&path, lines).unwrap();
        path.display().to_string()
    }

    const CHESS_BOOK: &str = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -\n\
                              rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n\
                              rnbqkbnr/pppppppp/8/8/2P5/8/PP1PPPPP/RNBQKBNR b KQkq -\n";

    #[test]
    fn a_book_is_played_as_given_unless_random_plies_are_asked() {
        let path = book_file("as-given", "epd", CHESS_BOOK);
        let book =
            Openings::parse(VariantKind::Chess.variant(), &format!("file:{path}"), None).unwrap();
        assert_eq!(book.random_plies, 0);
        assert!((0..50).all(|seed| book.pick(seed, 0).random_moves.is_empty()));
        assert_eq!(
            book.to_string(),
            "a book of 3 positions in random order (by seed), played as given"
        );
        let asked = Openings::parse(
            VariantKind::Chess.variant(),
            &format!("file:{path}"),
            Some(2),
        )
        .unwrap();
        assert_eq!(asked.pick(7, 0).random_moves.len(), 2);
        // start and random keep their defaults.
        let start = Openings::parse(VariantKind::Chess.variant(), "start", None).unwrap();
        assert_eq!(start.random_plies, 4);
        assert_eq!(start.to_string(), "start + 4 random plies");
        let random =
            Openings::parse(VariantKind::AjaxModernRandom.variant(), "random", None).unwrap();
        assert_eq!(random.random_plies, 0);
    }

    #[test]
    fn sequential_order_plays_the_book_from_its_first_line() {
        let path = book_file("sequential", "epd", CHESS_BOOK);
        let spec = format!("file:{path},order=sequential");
        let book = Openings::parse(VariantKind::Chess.variant(), &spec, None).unwrap();
        let fens = match &book.source {
            OpeningSource::Fens(fens) => fens.clone(),
            other => panic!("a book expected, not {other}"),
        };
        for pair in 0..7u64 {
            let opening = book.pick_for_pair(pair, 1234 + pair, 0);
            assert_eq!(
                opening.start.fen(),
                fens[(pair % 3) as usize],
                "pair {pair}"
            );
        }
        assert!(book.to_string().contains("in sequential order"), "{book}");
        // Random order draws by seed, as before.
        let random = Openings::parse(
            VariantKind::Chess.variant(),
            &format!("file:{path},order=random"),
            None,
        )
        .unwrap();
        assert_eq!(
            random.pick_for_pair(0, 99, 0).start,
            random.pick(99, 0).start
        );
    }

    #[test]
    fn a_pgn_book_plays_its_first_plies() {
        let path = book_file("pgn", "pgn", "[Event \"x\"]\n\n1. e4 e5 2. Nf3 Nc6 *\n");
        let book = Openings::parse(
            VariantKind::Chess.variant(),
            &format!("file:{path},plies=2"),
            None,
        )
        .unwrap();
        assert_eq!(
            book.pick(0, 0).start.fen(),
            "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
        );
        let txt = book_file("pgn-named", "txt", "1. d4 *\n");
        let named = Openings::parse(
            VariantKind::Chess.variant(),
            &format!("file:{txt},format=pgn"),
            None,
        )
        .unwrap();
        assert_eq!(named.random_plies, 0);
    }

    #[test]
    fn bad_opening_options_are_named() {
        let path = book_file("bad", "epd", CHESS_BOOK);
        for (spec, says) in [
            (format!("file:{path},plies=3"), "plies= is for PGN books"),
            (format!("file:{path},order=sideways"), "order=sideways"),
            (format!("file:{path},format=cbh"), "format=cbh"),
            (format!("file:{path},depth=3"), "'depth=3'"),
            ("list:x.txt,plies=3".to_owned(), "list: takes order= only"),
        ] {
            let e = Openings::parse(VariantKind::Chess.variant(), &spec, None).unwrap_err();
            assert!(e.to_string().contains(says), "{spec}: {e}");
        }
    }

    #[test]
    fn a_bad_line_is_named_by_file_and_line_never_echoed() {
        let secret = "root:x:0:0:root:/root:/bin/bash";
        let list = book_file("bad-list", "txt", &format!("12, 40\n7\n{secret}\n"));
        let e = Openings::parse(
            VariantKind::Chess960.variant(),
            &format!("list:{list}"),
            None,
        )
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("file {list}: line 3: not a start number")
        );
        let book = book_file("bad-book", "epd", &format!("{CHESS_BOOK}{secret} w - -\n"));
        let e = Openings::parse(VariantKind::Chess.variant(), &format!("file:{book}"), None)
            .unwrap_err();
        let text = e.to_string();
        assert!(
            text.starts_with(&format!("file {book}: line 4: ")),
            "{text}"
        );
        assert!(!text.contains("root"), "{text}");
    }

    #[test]
    fn a_position_whose_game_is_over_is_refused_naming_its_line() {
        // Fool's mate: White is checkmated.
        let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq -\n";
        let book = book_file("mated", "epd", &format!("{CHESS_BOOK}{mated}"));
        let e = Openings::parse(VariantKind::Chess.variant(), &format!("file:{book}"), None)
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            format!("file {book}: line 4: the game is already over (checkmate): nothing to play")
        );
    }
}
