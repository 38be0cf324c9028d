//! The UCI front end: lines are parsed into [`UciCommand`]s with typed
//! errors, then carried out on an [`Engine`]. A search runs on its own
//! thread so that `stop`, `isready` and `quit` are answered while it runs.
//! Every error is reported as `info string error: …` and changes nothing:
//! a position with an illegal move is not set, and `go` without a position
//! answers `bestmove 0000` instead of searching something else.
//!
//! Besides the built-in variants, the engine plays every section of a
//! variants file in Fairy-Stockfish's format, given at start-up or, as
//! Fairy-Stockfish takes it, by the `VariantPath` option; `UCI_Variant`
//! lists them all.

use crate::engine::{DEFAULT_HASH_MB, Engine};
use crate::limits::{Clock, Limits};
use crate::nnue::net::Network;
use crate::params::{ParamSpec, Params, SPECS, file_piece_specs};
use crate::search::{Score, SearchInfo};
use ajaxlab_rules::{
    AMRC_DEFAULT, AMRC_START_COUNT, Move, Position, StartSpec, Variant, VariantKind, VariantSet,
};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// Largest transposition table accepted, in MB.
const MAX_HASH_MB: usize = 65_536;

/// Where `position` starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StartPoint {
    /// The variant's start (AMRC: the `StartPosition` option).
    StartPos,
    /// A FEN.
    Fen(String),
}

/// The limits of a `go` command.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoCommand {
    /// Search limits.
    pub limits: Limits,
    /// `wtime`/`btime`/`winc`/`binc` as given (milliseconds), turned into clocks.
    clock_ms: [Option<u64>; 4],
}

/// One line of UCI input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum UciCommand {
    /// `uci`
    Uci,
    /// `isready`
    IsReady,
    /// `ucinewgame`
    NewGame,
    /// `setoption name N [value V]`
    SetOption {
        /// Option name.
        name: String,
        /// Value, absent for buttons.
        value: Option<String>,
    },
    /// `position startpos|fen F [moves M…]`
    Position {
        /// Where it starts.
        start: StartPoint,
        /// UCI moves from there.
        moves: Vec<String>,
    },
    /// `go …`
    Go(GoCommand),
    /// `stop`
    Stop,
    /// `ponderhit` (accepted; the engine does not ponder)
    PonderHit,
    /// `quit`
    Quit,
    /// `d`: print the current position's FEN
    Display,
}

/// A line that is not a well-formed UCI command.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum UciParseError {
    /// Unknown first word.
    #[error("unknown command '{0}'")]
    Unknown(String),
    /// A known command with bad arguments.
    #[error("{command}: {reason}")]
    Malformed {
        /// The command.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
}

fn malformed(command: &'static str, reason: impl Into<String>) -> UciParseError {
    UciParseError::Malformed {
        command,
        reason: reason.into(),
    }
}

/// Parses one line. Empty lines give `Ok(None)`.
///
/// # Errors
/// [`UciParseError`] saying what is wrong.
pub fn parse_command(line: &str) -> Result<Option<UciCommand>, UciParseError> {
    let mut words = line.split_whitespace();
    let Some(first) = words.next() else {
        return Ok(None);
    };
    let rest: Vec<&str> = words.collect();
    let command = match first {
        "uci" => UciCommand::Uci,
        "isready" => UciCommand::IsReady,
        "ucinewgame" => UciCommand::NewGame,
        "stop" => UciCommand::Stop,
        "quit" => UciCommand::Quit,
        "ponderhit" => UciCommand::PonderHit,
        "d" => UciCommand::Display,
        "setoption" => parse_setoption(&rest)?,
        "position" => parse_position(&rest)?,
        "go" => UciCommand::Go(parse_go(&rest)?),
        other => return Err(UciParseError::Unknown(other.to_owned())),
    };
    Ok(Some(command))
}

fn parse_setoption(words: &[&str]) -> Result<UciCommand, UciParseError> {
    if words.first() != Some(&"name") {
        return Err(malformed(
            "setoption",
            "expected 'setoption name NAME [value VALUE]'",
        ));
    }
    let value_at = words.iter().position(|w| *w == "value");
    let name_words = &words[1..value_at.unwrap_or(words.len())];
    if name_words.is_empty() {
        return Err(malformed("setoption", "missing option name"));
    }
    let value = value_at.map(|i| words[i + 1..].join(" "));
    Ok(UciCommand::SetOption {
        name: name_words.join(" "),
        value,
    })
}

fn parse_position(words: &[&str]) -> Result<UciCommand, UciParseError> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let start = match head.first() {
        Some(&"startpos") if head.len() == 1 => StartPoint::StartPos,
        Some(&"startpos") => return Err(malformed("position", "unexpected text after 'startpos'")),
        Some(&"fen") if head.len() > 1 => StartPoint::Fen(head[1..].join(" ")),
        Some(&"fen") => return Err(malformed("position", "missing FEN after 'fen'")),
        _ => return Err(malformed("position", "expected 'startpos' or 'fen FEN'")),
    };
    let moves = moves_at
        .map(|i| words[i + 1..].iter().map(|s| (*s).to_owned()).collect())
        .unwrap_or_default();
    Ok(UciCommand::Position { start, moves })
}

fn parse_go(words: &[&str]) -> Result<GoCommand, UciParseError> {
    let mut go = GoCommand::default();
    let mut i = 0;
    while i < words.len() {
        let key = words[i];
        let mut number = || -> Result<u64, UciParseError> {
            i += 1;
            let text = words
                .get(i)
                .ok_or_else(|| malformed("go", format!("'{key}' needs a number")))?;
            text.parse::<i64>()
                .map(|n| n.max(0) as u64)
                .map_err(|_| malformed("go", format!("'{key}' needs a number, got '{text}'")))
        };
        match key {
            "depth" => go.limits.depth = Some(u32::try_from(number()?).unwrap_or(u32::MAX)),
            "nodes" => go.limits.nodes = Some(number()?),
            "movetime" => go.limits.movetime = Some(Duration::from_millis(number()?)),
            "wtime" => go.clock_ms[0] = Some(number()?),
            "btime" => go.clock_ms[1] = Some(number()?),
            "winc" => go.clock_ms[2] = Some(number()?),
            "binc" => go.clock_ms[3] = Some(number()?),
            "movestogo" => {
                go.limits.moves_to_go = Some(u32::try_from(number()?).unwrap_or(u32::MAX))
            }
            "infinite" => go.limits.infinite = true,
            "ponder" => {}
            "mate" => go.limits.depth = Some(u32::try_from(number()? * 2).unwrap_or(u32::MAX)),
            "searchmoves" => return Err(malformed("go", "'searchmoves' is not supported")),
            other => return Err(malformed("go", format!("unknown limit '{other}'"))),
        }
        i += 1;
    }
    let [wtime, btime, winc, binc] = go.clock_ms;
    if wtime.is_some() || btime.is_some() {
        let clock = |t: Option<u64>, inc: Option<u64>| Clock {
            remaining: Duration::from_millis(t.unwrap_or(0)),
            increment: Duration::from_millis(inc.unwrap_or(0)),
        };
        go.limits.clocks = Some([clock(wtime, winc), clock(btime, binc)]);
    }
    Ok(go)
}

type Output = Arc<Mutex<Box<dyn Write + Send>>>;

/// The UCI spin option of a parameter.
fn spin_option(spec: &ParamSpec) -> String {
    format!(
        "option name {} type spin default {} min {} max {}",
        spec.name, spec.default, spec.min, spec.max
    )
}

fn say(out: &Output, line: &str) {
    if let Ok(mut w) = out.lock() {
        let _ = writeln!(w, "{line}");
        let _ = w.flush();
    }
}

/// The `EvalFile` value that selects the classical evaluation.
const CLASSICAL: &str = "classical";

/// The UCI session state around one engine.
struct Session {
    engine: Arc<Mutex<Engine>>,
    out: Output,
    stop: Arc<AtomicBool>,
    search: Option<JoinHandle<()>>,
    /// The variants `UCI_Variant` may name.
    variants: VariantSet,
    variant_name: String,
    chess960: bool,
    start_position: u32,
    /// The position set by the last valid `position` command.
    position: Option<(Position, Vec<Move>)>,
    /// The `EvalFile` option: a network file, `None` for the classical
    /// evaluation. It is read for the variant of the game at `go`.
    eval_file: Option<std::path::PathBuf>,
}

impl Session {
    fn variant(&self) -> Result<&'static Variant, String> {
        let base = self
            .variants
            .find(&self.variant_name)
            .map_err(|e| e.to_string())?;
        Ok(
            if base.builtin() == Some(VariantKind::Chess) && self.chess960 {
                VariantKind::Chess960.variant()
            } else {
                base
            },
        )
    }

    /// The `UCI_Variant` option: every built-in under its names, then the
    /// loaded file's sections.
    fn variant_option(&self) -> String {
        let builtin = [
            "chess",
            "chess960",
            "ajaxfalcon",
            "ajaxrandom",
            "ajax-falcon",
            "ajax-modern-random",
        ];
        let names: Vec<&str> = builtin
            .into_iter()
            .chain(self.variants.file_names())
            .collect();
        format!(
            "option name UCI_Variant type combo default chess var {}",
            names.join(" var ")
        )
    }

    fn wait_for_search(&mut self) {
        if let Some(handle) = self.search.take() {
            let _ = handle.join();
        }
    }

    fn engine(&self) -> std::sync::MutexGuard<'_, Engine> {
        self.engine
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn error(&self, message: &str) {
        say(&self.out, &format!("info string error: {message}"));
    }

    fn handle(&mut self, command: UciCommand) -> bool {
        match command {
            UciCommand::Uci => self.identify(),
            UciCommand::IsReady => say(&self.out, "readyok"),
            UciCommand::NewGame => {
                self.wait_for_search();
                self.engine().new_game();
            }
            UciCommand::SetOption { name, value } => {
                self.wait_for_search();
                if let Err(e) = self.set_option(&name, value.as_deref()) {
                    self.error(&e);
                }
            }
            UciCommand::Position { start, moves } => {
                self.wait_for_search();
                match self.set_position(&start, &moves) {
                    Ok(p) => self.position = Some(p),
                    Err(e) => {
                        self.position = None;
                        self.error(&e);
                    }
                }
            }
            UciCommand::Go(go) => {
                self.wait_for_search();
                self.go(go);
            }
            UciCommand::Stop => {
                self.stop.store(true, Ordering::Relaxed);
                self.wait_for_search();
            }
            UciCommand::PonderHit => {}
            UciCommand::Display => match &self.position {
                Some((pos, moves)) => {
                    let mut p = *pos;
                    for &m in moves {
                        p.play_unchecked(m);
                    }
                    say(&self.out, &format!("info string fen {}", p.fen()));
                }
                None => self.error("no position set"),
            },
            UciCommand::Quit => {
                self.stop.store(true, Ordering::Relaxed);
                self.wait_for_search();
                return false;
            }
        }
        true
    }

    fn identify(&self) {
        let mut lines = vec![
            format!("id name ajaxlab {}", env!("CARGO_PKG_VERSION")),
            "id author the ajaxlab developers".to_owned(),
            self.variant_option(),
            "option name UCI_Chess960 type check default false".to_owned(),
            "option name VariantPath type string default <empty>".to_owned(),
            format!("option name Hash type spin default {DEFAULT_HASH_MB} min 1 max {MAX_HASH_MB}"),
            "option name Threads type spin default 1 min 1 max 1".to_owned(),
            format!(
                "option name StartPosition type spin default {AMRC_DEFAULT} min 0 max {}",
                AMRC_START_COUNT - 1
            ),
            "option name Clear Hash type button".to_owned(),
            "option name ParamsFile type string default <empty>".to_owned(),
            format!("option name EvalFile type string default {CLASSICAL}"),
        ];
        lines.extend(self.param_specs().into_iter().map(spin_option));
        lines.push("uciok".to_owned());
        say(&self.out, &lines.join("\n"));
    }

    /// The parameters offered as spin options: the table's, then the
    /// pieces' of each variant of the loaded file.
    fn param_specs(&self) -> Vec<&'static ParamSpec> {
        let pieces = self
            .variants
            .file_names()
            .filter_map(|name| self.variants.get(name))
            .flat_map(file_piece_specs);
        SPECS.iter().chain(pieces).collect()
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let need = || {
            value
                .map(str::trim)
                .ok_or_else(|| format!("option '{name}' needs a value"))
        };
        match name.to_ascii_lowercase().as_str() {
            "uci_variant" => {
                let v = need()?;
                self.variants.find(v).map_err(|e| e.to_string())?;
                self.variant_name = v.to_owned();
                self.position = None;
            }
            "variantpath" => {
                let path = need()?;
                if path.is_empty() || path == "<empty>" {
                    return Ok(());
                }
                // Every error of the file, one `info string` line each.
                self.variants = VariantSet::with_file(std::path::Path::new(path)).map_err(|e| {
                    format!("VariantPath {path}: {e}").replace('\n', "\ninfo string error: ")
                })?;
                if self.variants.find(&self.variant_name).is_err() {
                    self.variant_name = "chess".to_owned();
                }
                self.position = None;
                // As Fairy-Stockfish does: the option again, with the new
                // names, and the options of the new variants' pieces.
                let pieces = self.param_specs().into_iter().skip(SPECS.len());
                let lines: Vec<String> = std::iter::once(self.variant_option())
                    .chain(pieces.map(spin_option))
                    .collect();
                say(&self.out, &lines.join("\n"));
            }
            "uci_chess960" => {
                self.chess960 = match need()? {
                    "true" => true,
                    "false" => false,
                    other => {
                        return Err(format!("UCI_Chess960 must be true or false, got '{other}'"));
                    }
                };
                self.position = None;
            }
            "hash" => {
                let mb: usize = need()?
                    .parse()
                    .map_err(|_| "Hash needs a number of MB".to_owned())?;
                if !(1..=MAX_HASH_MB).contains(&mb) {
                    return Err(format!("Hash {mb} is outside [1, {MAX_HASH_MB}]"));
                }
                self.engine().set_hash(mb);
            }
            "threads" => {
                if need()? != "1" {
                    return Err(
                        "Threads: only 1 is supported (ajaxlab plays games in parallel instead)"
                            .into(),
                    );
                }
            }
            "startposition" => {
                let n: u32 = need()?
                    .parse()
                    .map_err(|_| "StartPosition needs a number".to_owned())?;
                if n >= AMRC_START_COUNT {
                    return Err(format!(
                        "StartPosition {n} is outside [0, {}]",
                        AMRC_START_COUNT - 1
                    ));
                }
                self.start_position = n;
            }
            "clear hash" => self.engine().new_game(),
            "evalfile" => {
                let value = need()?;
                self.eval_file = match value {
                    "" | "<empty>" | CLASSICAL => None,
                    path => Some(path.into()),
                };
                self.engine().set_network(None);
            }
            "paramsfile" => {
                let path = need()?;
                if path.is_empty() || path == "<empty>" {
                    return Ok(());
                }
                let text =
                    ajaxlab_files::read_text(path.as_ref(), ajaxlab_files::limits::PARAMS_FILE)
                        .map_err(|e| format!("ParamsFile {path}: {e}"))?;
                let mut params: Params = self.engine().params().clone();
                params
                    .apply_text(&text)
                    .map_err(|e| format!("ParamsFile {path}: {e}"))?;
                self.engine().set_params(params);
            }
            _ => {
                let spec = self
                    .param_specs()
                    .into_iter()
                    .find(|s| s.name.eq_ignore_ascii_case(name))
                    // Chess's square tables are not offered (736 entries),
                    // but set by name as any other parameter.
                    .or_else(|| crate::params::spec(name))
                    .ok_or_else(|| format!("unknown option '{name}'"))?;
                let mut params: Params = self.engine().params().clone();
                params
                    .set_text(spec.name, need()?)
                    .map_err(|e| e.to_string())?;
                self.engine().set_params(params);
            }
        }
        Ok(())
    }

    fn set_position(
        &self,
        start: &StartPoint,
        moves: &[String],
    ) -> Result<(Position, Vec<Move>), String> {
        let variant = self.variant()?;
        let root = match start {
            StartPoint::Fen(fen) => {
                Position::from_fen_in(variant, fen).map_err(|e| e.to_string())?
            }
            StartPoint::StartPos => {
                let spec = if variant.builtin() == Some(VariantKind::AjaxModernRandom) {
                    StartSpec::Number(self.start_position)
                } else {
                    StartSpec::Default
                };
                Position::start_in(variant, &spec).map_err(|e| e.to_string())?
            }
        };
        let mut pos = root;
        let mut parsed = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let m = pos
                .parse_uci(text)
                .map_err(|e| format!("position: move {} ({text}): {e}", i + 1))?;
            pos.play_unchecked(m);
            parsed.push(m);
        }
        Ok((root, parsed))
    }

    /// Loads the `EvalFile` network for `variant`, unless the engine has
    /// it already.
    fn load_network(&self, variant: &Variant) -> Result<(), String> {
        let Some(path) = &self.eval_file else {
            return Ok(());
        };
        let mut engine = self.engine();
        if engine
            .network()
            .is_some_and(|net| net.fits(variant).is_ok())
        {
            return Ok(());
        }
        let net = Network::read(path, variant).map_err(|e| format!("EvalFile {e}"))?;
        engine.set_network(Some(Arc::new(net)));
        Ok(())
    }

    fn go(&mut self, go: GoCommand) {
        let Some((root, moves)) = self.position.clone() else {
            self.error("go: no valid position set (send 'position' first)");
            say(&self.out, "bestmove 0000");
            return;
        };
        if let Err(e) = self.load_network(root.variant()) {
            self.error(&e);
            say(&self.out, "bestmove 0000");
            return;
        }
        self.stop.store(false, Ordering::Relaxed);
        let engine = Arc::clone(&self.engine);
        let out = Arc::clone(&self.out);
        let stop = Arc::clone(&self.stop);
        self.search = Some(std::thread::spawn(move || {
            let mut engine = engine
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            if let Err(e) = engine.set_position(root, &moves) {
                say(&out, &format!("info string error: {e}"));
                say(&out, "bestmove 0000");
                return;
            }
            let mut end = root;
            for &m in &moves {
                end.play_unchecked(m);
            }
            let result = engine.go(&go.limits, &stop, &mut |info| {
                say(&out, &info_line(&end, info))
            });
            let best = result
                .and_then(|r| r.best)
                .map_or("0000".to_owned(), |m| end.uci(m).to_string());
            say(&out, &format!("bestmove {best}"));
        }));
    }
}

/// The `info` line of a search report, the PV written from `root`.
pub fn info_line(root: &Position, info: &SearchInfo) -> String {
    let score = match info.score {
        Score::Centipawns(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    };
    let mut pos = *root;
    let mut pv = String::new();
    for &m in &info.pv {
        if !pos.is_legal(m) {
            break;
        }
        pv.push(' ');
        pv.push_str(&pos.uci(m).to_string());
        pos.play_unchecked(m);
    }
    format!(
        "info depth {} seldepth {} score {score} nodes {} nps {} time {} pv{pv}",
        info.depth,
        info.seldepth,
        info.nodes,
        info.nps(),
        info.time.as_millis()
    )
}

/// Runs a UCI session: reads commands from `input` until `quit` or end of
/// input, writing responses to `output`. `UCI_Variant` may name the
/// variants of `variants` (until a `VariantPath` replaces its file).
pub fn run(variants: VariantSet, input: impl BufRead, output: impl Write + Send + 'static) {
    let mut session = Session {
        engine: Arc::new(Mutex::new(Engine::new(DEFAULT_HASH_MB))),
        out: Arc::new(Mutex::new(Box::new(output))),
        stop: Arc::new(AtomicBool::new(false)),
        search: None,
        variants,
        variant_name: "chess".to_owned(),
        chess960: false,
        start_position: AMRC_DEFAULT,
        position: None,
        eval_file: None,
    };
    for line in input.lines() {
        let Ok(line) = line else { break };
        match parse_command(&line) {
            Ok(Some(command)) => {
                if !session.handle(command) {
                    return;
                }
            }
            Ok(None) => {}
            Err(e) => session.error(&e.to_string()),
        }
    }
    session.stop.store(true, Ordering::Relaxed);
    session.wait_for_search();
}
