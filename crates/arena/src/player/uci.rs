//! An external UCI engine as a player: a subprocess spoken to over pipes,
//! with start-up and move timeouts, crash detection and restart.

use super::{MoveRequest, Player, PlayerError, PlayerMove, SpinOption};
use crate::tc::TimeControl;
use ajaxlab_rules::{Variant, VariantKind};
use ajaxlab_store::EngineOption;
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

/// How to start and set up an external engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UciPlayerConfig {
    /// Display name.
    pub name: String,
    /// The engine binary.
    pub command: PathBuf,
    /// Arguments (e.g. `uci` for `ajaxlab uci`).
    pub args: Vec<String>,
    /// `setoption` pairs sent after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// The variant to play: a built-in, or one of a user's file, whose
    /// text is sent as `VariantPath` to an engine that has that option
    /// (Fairy-Stockfish, `ajaxlab uci`) unless the options set it.
    pub variant: &'static Variant,
    /// Time allowed for `uciok` and `readyok`.
    pub startup_timeout: Duration,
    /// Time allowed for a move under node or depth limits.
    pub move_timeout: Duration,
    /// The build's bench signature, checked before it plays (campaigns).
    pub bench: Option<super::Bench>,
}

impl UciPlayerConfig {
    /// Sets the option `name` to `value`, in its place if it is set already,
    /// else after the others.
    pub fn set_option(&mut self, name: &str, value: String) {
        match self.options.iter_mut().find(|(n, _)| n == name) {
            Some((_, v)) => *v = value,
            None => self.options.push((name.to_owned(), value)),
        }
    }
}

struct Process {
    child: Child,
    input: ChildStdin,
    lines: Receiver<String>,
}

impl Drop for Process {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.input.flush();
        let deadline = Instant::now() + Duration::from_millis(200);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A UCI engine subprocess.
pub struct UciPlayer {
    config: UciPlayerConfig,
    process: Option<Process>,
    engine_id: String,
    spin_options: Vec<SpinOption>,
    /// `info string` lines saying "error" that the engine printed after
    /// its options were set (a file option it could not read).
    option_errors: Vec<String>,
}

/// The variants file Fairy-Stockfish needs for the Ajax variants, as the
/// README's match section names it.
const FSF_VARIANTS_FILE: &str = "tests/fsf/fsf-variants.ini";

/// For a Fairy-Stockfish that lacks an Ajax variant, the fix (an empty text
/// for other engines): it reads the Ajax variants from a variants file.
fn fairy_stockfish_fix(engine_id: &str, options: &[(String, String)], command: &str) -> String {
    if !engine_id.contains("Fairy-Stockfish") {
        return String::new();
    }
    match options.iter().find(|(name, _)| name == "VariantPath") {
        Some((_, path)) if !std::path::Path::new(path).is_file() => {
            let here = std::env::current_dir().map_or_else(
                |_| "the working directory".into(),
                |d| d.display().to_string(),
            );
            format!(
                "; VariantPath={path} names no file (a relative path is read from {here}): give the path of ajaxlab's {FSF_VARIANTS_FILE}"
            )
        }
        Some((_, path)) => format!(
            "; Fairy-Stockfish read VariantPath={path}, which does not define it: use {FSF_VARIANTS_FILE}"
        ),
        None => format!(
            "; Fairy-Stockfish needs the variants file: add ,VariantPath={FSF_VARIANTS_FILE} to the player (--player uci:{command},VariantPath={FSF_VARIANTS_FILE})"
        ),
    }
}

/// A file in the temporary directory holding the variants text `text`,
/// for engines that read a variant's definition from a path
/// (`VariantPath`). It is named by the text's SHA-256, so every process
/// and every run shares one file per text (none pile up, and a resumed
/// match sends the same path), and written atomically when missing or
/// different.
fn definition_file(text: &str) -> Result<PathBuf, ajaxlab_store::StoreError> {
    let hash = ajaxlab_store::sha256_hex(text.as_bytes());
    let path = std::env::temp_dir().join(format!("ajaxlab-variants-{}.ini", &hash[..16]));
    if std::fs::read_to_string(&path).ok().as_deref() != Some(text) {
        ajaxlab_store::atomic::write_text(&path, text)?;
    }
    Ok(path)
}

/// What to do when an engine does not list a file variant.
fn file_variant_fix(uci_lines: &[String], options: &[(String, String)]) -> String {
    if options.iter().any(|(name, _)| name == "VariantPath") {
        "; the player's VariantPath names another file: leave VariantPath out, and ajaxlab sends the variants file itself".to_owned()
    } else if uci_lines
        .iter()
        .any(|l| l.starts_with("option name VariantPath "))
    {
        String::new()
    } else {
        "; it has no VariantPath option to receive the variants file by".to_owned()
    }
}

impl UciPlayer {
    /// Starts the engine and sets it up; fails before any game is played if
    /// the binary is missing, does not speak UCI, or does not support the variant.
    ///
    /// # Errors
    /// [`PlayerError::Unusable`] saying why.
    pub fn start(config: UciPlayerConfig) -> Result<UciPlayer, PlayerError> {
        let mut player = UciPlayer {
            config,
            process: None,
            engine_id: String::new(),
            spin_options: Vec::new(),
            option_errors: Vec::new(),
        };
        player.restart().map_err(|e| match e {
            PlayerError::Unusable(m) => PlayerError::Unusable(m),
            other => PlayerError::Unusable(format!(
                "{} failed to start: {other}",
                player.config.command.display()
            )),
        })?;
        Ok(player)
    }

    /// The integer options the engine offered in its answer to `uci`.
    pub fn spin_options(&self) -> &[SpinOption] {
        &self.spin_options
    }

    /// The `info string` lines saying "error" that the engine printed once
    /// its options were set, e.g. `info string error: ParamsFile …: parse
    /// error`: a file option it could not read, after which it plays on
    /// its defaults.
    pub fn option_errors(&self) -> &[String] {
        &self.option_errors
    }

    fn restart(&mut self) -> Result<(), PlayerError> {
        self.process = None;
        let c = &self.config;
        let mut child = Command::new(&c.command)
            .args(&c.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| {
                PlayerError::Unusable(format!("cannot start {}: {e}", c.command.display()))
            })?;
        let input = child
            .stdin
            .take()
            .ok_or_else(|| PlayerError::Unusable("no stdin".into()))?;
        let output = child
            .stdout
            .take()
            .ok_or_else(|| PlayerError::Unusable("no stdout".into()))?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(output).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        self.process = Some(Process {
            child,
            input,
            lines: rx,
        });
        self.handshake()
    }

    fn handshake(&mut self) -> Result<(), PlayerError> {
        self.option_errors.clear();
        let timeout = self.config.startup_timeout;
        let command = self.config.command.display().to_string();
        let lines = self
            .send("uci")
            .and_then(|()| self.collect_until("uciok", timeout))
            .map_err(|e| {
                PlayerError::Unusable(format!("{command} does not speak UCI (no 'uciok'): {e}"))
            })?;
        self.engine_id = lines
            .iter()
            .find_map(|l| l.strip_prefix("id name "))
            .unwrap_or("unknown")
            .to_owned();
        self.spin_options = SpinOption::all(lines.iter().map(String::as_str));
        for (name, value) in self.config.options.clone() {
            self.send(&format!("setoption name {name} value {value}"))?;
        }
        let variant = self.config.variant;
        match variant.builtin() {
            Some(VariantKind::Chess) => {}
            Some(VariantKind::Chess960) => {
                if !lines
                    .iter()
                    .any(|l| l.starts_with("option name UCI_Chess960 "))
                {
                    return Err(PlayerError::Unusable(format!(
                        "{command} does not support Chess960 (no UCI_Chess960 option)"
                    )));
                }
                self.send("setoption name UCI_Chess960 value true")?;
            }
            builtin => {
                if builtin.is_none() {
                    self.send_definition(&lines)?;
                }
                // Options such as VariantPath can add variants: ask again.
                self.send("uci")?;
                let lines = self.collect_until("uciok", timeout)?;
                let wanted = builtin.map_or(variant.name(), VariantKind::fsf_name);
                let supported = lines.iter().any(|l| {
                    l.starts_with("option name UCI_Variant ")
                        && l.split_whitespace()
                            .collect::<Vec<_>>()
                            .windows(2)
                            .any(|w| w[0] == "var" && w[1] == wanted)
                });
                if !supported {
                    let fix = match builtin {
                        Some(_) => {
                            fairy_stockfish_fix(&self.engine_id, &self.config.options, &command)
                        }
                        None => file_variant_fix(&lines, &self.config.options),
                    };
                    return Err(PlayerError::Unusable(format!(
                        "{command} does not support {variant} (its UCI_Variant option has no '{wanted}'){fix}"
                    )));
                }
                self.send(&format!("setoption name UCI_Variant value {wanted}"))?;
                self.note_option_errors(&lines);
            }
        }
        self.send("isready")?;
        let lines = self.collect_until("readyok", timeout)?;
        self.note_option_errors(&lines);
        Ok(())
    }

    /// Keeps the `info string` lines of `lines` that say "error".
    fn note_option_errors(&mut self, lines: &[String]) {
        self.option_errors.extend(
            lines
                .iter()
                .filter(|l| l.starts_with("info string") && l.to_lowercase().contains("error"))
                .cloned(),
        );
    }

    /// Sends a file variant's definition as `VariantPath` (written to a
    /// file of its own) when the engine has that option and the player's
    /// options do not set it.
    fn send_definition(&mut self, uci_lines: &[String]) -> Result<(), PlayerError> {
        let has_option = uci_lines
            .iter()
            .any(|l| l.starts_with("option name VariantPath "));
        let set_by_user = self.config.options.iter().any(|(n, _)| n == "VariantPath");
        let Some(text) = self.config.variant.definition() else {
            return Ok(());
        };
        if !has_option || set_by_user {
            return Ok(());
        }
        let path = definition_file(text).map_err(|e| {
            PlayerError::Unusable(format!(
                "cannot write the variants file for {}: {e}",
                self.config.command.display()
            ))
        })?;
        self.send(&format!(
            "setoption name VariantPath value {}",
            path.display()
        ))
    }

    fn send(&mut self, line: &str) -> Result<(), PlayerError> {
        let process = self
            .process
            .as_mut()
            .ok_or_else(|| PlayerError::Crashed("not running".into()))?;
        writeln!(process.input, "{line}")
            .and_then(|()| process.input.flush())
            .map_err(|e| PlayerError::Crashed(format!("write failed: {e}")))
    }

    fn next_line(&mut self, deadline: Instant, timeout: Duration) -> Result<String, PlayerError> {
        let process = self
            .process
            .as_mut()
            .ok_or_else(|| PlayerError::Crashed("not running".into()))?;
        let left = deadline.saturating_duration_since(Instant::now());
        match process.lines.recv_timeout(left) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(PlayerError::Timeout(timeout)),
            Err(RecvTimeoutError::Disconnected) => {
                let status = process.child.try_wait().ok().flatten();
                Err(PlayerError::Crashed(match status {
                    Some(s) => format!("exited ({s})"),
                    None => "closed its output".into(),
                }))
            }
        }
    }

    fn collect_until(
        &mut self,
        token: &str,
        timeout: Duration,
    ) -> Result<Vec<String>, PlayerError> {
        let deadline = Instant::now() + timeout;
        let mut lines = Vec::new();
        loop {
            let line = self.next_line(deadline, timeout)?;
            if line.trim() == token {
                return Ok(lines);
            }
            lines.push(line);
        }
    }

    fn fail(&mut self, error: PlayerError) -> PlayerError {
        // A hung or crashed engine is killed; the next game restarts it.
        self.process = None;
        error
    }

    fn go_command(request: &MoveRequest<'_>) -> String {
        match (request.tc, request.clocks) {
            (TimeControl::Nodes(n) | TimeControl::JitteredNodes { nodes: n, .. }, _) => {
                format!("go nodes {n}")
            }
            (TimeControl::Depth(d), _) => format!("go depth {d}"),
            (TimeControl::MoveTime(t), _) => format!("go movetime {}", t.as_millis()),
            (
                TimeControl::Clock {
                    base, increment, ..
                },
                clocks,
            ) => {
                let [w, b] = clocks.unwrap_or([base, base]);
                let inc = increment.as_millis();
                let to_go = request
                    .moves_to_go
                    .map_or(String::new(), |n| format!(" movestogo {n}"));
                format!(
                    "go wtime {} btime {} winc {inc} binc {inc}{to_go}",
                    w.as_millis(),
                    b.as_millis()
                )
            }
        }
    }

    fn move_timeout(&self, request: &MoveRequest<'_>) -> Duration {
        let slack = Duration::from_secs(1);
        match request.tc {
            TimeControl::Nodes(_) | TimeControl::JitteredNodes { .. } | TimeControl::Depth(_) => {
                self.config.move_timeout
            }
            TimeControl::MoveTime(t) => t * 2 + slack,
            TimeControl::Clock { base, .. } => {
                let side = request.game.position().side_to_move().index();
                request.clocks.map_or(base, |c| c[side]) + slack
            }
        }
    }
}

impl Player for UciPlayer {
    fn name(&self) -> &str {
        &self.config.name
    }

    fn version(&self) -> String {
        self.engine_id.clone()
    }

    fn param_values(&self, _variant: &'static Variant) -> Vec<i32> {
        Vec::new()
    }

    fn options(&self) -> Vec<EngineOption> {
        self.config
            .options
            .iter()
            .map(|(name, value)| EngineOption {
                name: name.clone(),
                value: value.clone(),
            })
            .collect()
    }

    fn new_game(&mut self) -> Result<(), PlayerError> {
        if self.process.is_none() {
            self.restart()?;
        }
        let timeout = self.config.startup_timeout;
        let ready = self.send("ucinewgame").and_then(|()| self.send("isready"));
        match ready.and_then(|()| self.collect_until("readyok", timeout)) {
            Ok(_) => Ok(()),
            Err(_) => self.restart(),
        }
    }

    fn play(&mut self, request: &MoveRequest<'_>) -> Result<PlayerMove, PlayerError> {
        let game = request.game;
        let moves = game.start().uci_line(game.moves());
        let position = if moves.is_empty() {
            format!("position fen {}", game.start().fen())
        } else {
            format!(
                "position fen {} moves {}",
                game.start().fen(),
                moves.join(" ")
            )
        };
        let timeout = self.move_timeout(request);
        let sent = self
            .send(&position)
            .and_then(|()| self.send(&Self::go_command(request)));
        if let Err(e) = sent {
            return Err(self.fail(e));
        }
        let deadline = Instant::now() + timeout;
        let (mut score, mut depth, mut nodes) = (None, None, None);
        loop {
            let line = match self.next_line(deadline, timeout) {
                Ok(line) => line,
                Err(e) => return Err(self.fail(e)),
            };
            let words: Vec<&str> = line.split_whitespace().collect();
            match words.first() {
                Some(&"info") => {
                    for w in words.windows(3) {
                        match (w[0], w[1]) {
                            ("score", "cp") => score = w[2].parse().ok().or(score),
                            ("score", "mate") => {
                                score = w[2].parse::<i32>().ok().map(|n| {
                                    if n > 0 {
                                        30_000 - (2 * n - 1)
                                    } else {
                                        -30_000 + 2 * -n
                                    }
                                })
                            }
                            _ => {}
                        }
                    }
                    for w in words.windows(2) {
                        match w[0] {
                            "depth" => depth = w[1].parse().ok().or(depth),
                            "nodes" => nodes = w[1].parse().ok().or(nodes),
                            _ => {}
                        }
                    }
                }
                Some(&"bestmove") => {
                    let text = words.get(1).copied().unwrap_or("");
                    let mv = game
                        .position()
                        .parse_uci(text)
                        .map_err(|_| PlayerError::IllegalMove(text.to_owned()))?;
                    return Ok(PlayerMove {
                        mv,
                        score,
                        depth,
                        nodes,
                    });
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_clock_with_periods_sends_movestogo() {
        let game = ajaxlab_rules::Game::new(
            ajaxlab_rules::Position::start(VariantKind::Chess, &ajaxlab_rules::StartSpec::Default)
                .unwrap(),
        );
        let request = |tc: &str, moves_to_go| MoveRequest {
            game: &game,
            tc: tc.parse().unwrap(),
            clocks: Some([Duration::from_secs(60), Duration::from_millis(59_500)]),
            moves_to_go,
        };
        assert_eq!(
            UciPlayer::go_command(&request("40/60+0.5", Some(39))),
            "go wtime 60000 btime 59500 winc 500 binc 500 movestogo 39"
        );
        assert_eq!(
            UciPlayer::go_command(&request("60+0.5", None)),
            "go wtime 60000 btime 59500 winc 500 binc 500"
        );
    }

    /// A UCI engine (a shell script) named `id_name` whose only variant is chess.
    fn chess_only_engine(id_name: &str) -> PathBuf {
        use std::os::unix::fs::PermissionsExt;
        let path = std::env::temp_dir().join(format!(
            "ajaxlab-chess-only-{}-{}.sh",
            std::process::id(),
            id_name.len()
        ));
        let script = format!(
            "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) printf 'id name {id_name}\\noption name UCI_Variant type combo default chess var chess\\nuciok\\n' ;;\n    isready) echo readyok ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
        );
        std::fs::write(&path, script).unwrap();
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        path
    }

    fn start_error(command: PathBuf, options: Vec<(String, String)>) -> String {
        let config = UciPlayerConfig {
            name: "x".into(),
            command,
            args: Vec::new(),
            options,
            variant: VariantKind::AjaxFalcon.variant(),
            startup_timeout: Duration::from_secs(10),
            move_timeout: Duration::from_secs(10),
            bench: None,
        };
        match UciPlayer::start(config) {
            Ok(_) => panic!("a chess-only engine cannot play ajax-falcon"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn a_fairy_stockfish_without_the_variant_is_told_the_variant_path() {
        let fsf = chess_only_engine("Fairy-Stockfish 14 LB by Fabian Fichter");
        let e = start_error(fsf.clone(), Vec::new());
        assert!(e.contains(",VariantPath=tests/fsf/fsf-variants.ini"), "{e}");
        let e = start_error(
            fsf.clone(),
            vec![("VariantPath".into(), "no-such.ini".into())],
        );
        assert!(
            e.contains("VariantPath=no-such.ini names no file (a relative path is read from /"),
            "{e}"
        );
        let other_variants = fsf.with_extension("ini");
        std::fs::write(&other_variants, "[othervariant:chess]\n").unwrap();
        let path = other_variants.display().to_string();
        let e = start_error(fsf, vec![("VariantPath".into(), path.clone())]);
        assert!(
            e.contains(&format!("VariantPath={path}, which does not define it")),
            "{e}"
        );
        let other = start_error(chess_only_engine("Stockfish 17"), Vec::new());
        assert!(other.contains("does not support ajax-falcon"), "{other}");
        assert!(!other.contains("VariantPath"), "{other}");
    }
}
