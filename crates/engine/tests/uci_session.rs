//! The UCI front end driven in-process: determinism, errors, limits.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_engine::uci;
use std::io::{Cursor, Write};
use std::sync::{Arc, Mutex};

#[derive(Clone, Default)]
struct Capture(Arc<Mutex<Vec<u8>>>);

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn session(script: &str) -> Vec<String> {
    let out = Capture::default();
    uci::run(
        ajaxlab_rules::VariantSet::builtin(),
        Cursor::new(script.to_owned()),
        out.clone(),
    );
    let bytes = out.0.lock().unwrap().clone();
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Info lines without the fields that depend on the clock.
fn timeless(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .map(|l| {
            let mut out = Vec::new();
            let mut words = l.split(' ');
            while let Some(w) = words.next() {
                if w == "nps" || w == "time" {
                    words.next();
                } else {
                    out.push(w);
                }
            }
            out.join(" ")
        })
        .collect()
}

#[test]
fn go_nodes_is_deterministic_around_ucinewgame() {
    for (variant, moves) in [
        ("ajaxfalcon", "e2e4 e7e5"),
        ("ajaxrandom", "b1c3m"),
        ("chess", "e2e4"),
    ] {
        let script = format!(
            "setoption name UCI_Variant value {variant}\nucinewgame\nposition startpos moves {moves}\ngo nodes 20000\n\
             ucinewgame\nposition startpos moves {moves}\ngo nodes 20000\nucinewgame\nquit\n"
        );
        let lines = session(&script);
        let searches: Vec<&[String]> = lines
            .split_inclusive(|l| l.starts_with("bestmove"))
            .collect();
        assert_eq!(searches.len(), 2, "{lines:?}");
        let first = timeless(searches[0]);
        let second = timeless(searches[1]);
        assert!(first.last().unwrap().starts_with("bestmove "), "{first:?}");
        assert!(
            first.iter().any(|l| l.starts_with("info depth")),
            "{first:?}"
        );
        assert_eq!(first, second, "{variant}: the same search twice differs");
    }
}

#[test]
fn uci_handshake_lists_the_options() {
    let lines = session("uci\nquit\n");
    assert_eq!(
        lines.first().map(String::as_str),
        Some("id name ajaxlab 0.1.0")
    );
    assert_eq!(lines.last().map(String::as_str), Some("uciok"));
    for option in [
        "UCI_Variant",
        "UCI_Chess960",
        "Hash",
        "Threads",
        "StartPosition",
        "ParamsFile",
        "afc.falcon.mg",
        "amrc.minister.hand.mg",
    ] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} "))),
            "{option}"
        );
    }
}

#[test]
fn an_illegal_move_in_position_is_an_error_and_nothing_is_searched() {
    let lines = session("position startpos moves e2e4 e7e5 e1e3\ngo depth 3\nquit\n");
    assert!(
        lines[0].starts_with("info string error: position: move 3 (e1e3)"),
        "{lines:?}"
    );
    assert!(lines.iter().any(|l| l == "bestmove 0000"), "{lines:?}");
    assert!(
        !lines.iter().any(|l| l.starts_with("info depth")),
        "{lines:?}"
    );
}

#[test]
fn bad_options_and_go_commands_are_errors_without_effect() {
    let lines = session(
        "setoption name Hash value 0\nsetoption name Threads value 4\nsetoption name afc.falcon.mg value 5000\n\
         setoption name Nonsense value 1\nsetoption name UCI_Variant value shogi\ngo depth -x\ngo wibble 3\nfoo\n\
         position startpos\ngo depth 2\nquit\n",
    );
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect();
    assert_eq!(errors.len(), 8, "{lines:?}");
    assert!(errors[2].contains("afc.falcon.mg"), "{errors:?}");
    assert!(errors[4].contains("unknown variant 'shogi'"), "{errors:?}");
    assert!(
        lines.last().unwrap().starts_with("bestmove "),
        "the session still works: {lines:?}"
    );
}

/// Chess's square tables are set by name, not listed: 736 entries would
/// bury the options a GUI shows.
#[test]
fn square_table_entries_are_set_by_name_and_steer_the_search() {
    let lines = session(
        "uci\nsetoption name chess.square.knight.c3.mg value 200\n\
         setoption name chess.square.knight.c3.eg value 9999\n\
         position startpos\ngo depth 1\nquit\n",
    );
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("chess.square.") && l.starts_with("option name")),
        "{lines:?}"
    );
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .collect();
    assert_eq!(errors.len(), 1, "{lines:?}");
    assert!(
        errors[0].contains("chess.square.knight.c3.eg"),
        "{errors:?}"
    );
    assert_eq!(lines.last().unwrap(), "bestmove b1c3", "{lines:?}");
}

#[test]
fn finds_mate_in_one() {
    // Chess: a back-rank mate in one (Qxd8#).
    let lines =
        session("position fen 3r2k1/5ppp/8/8/8/8/3Q1PPP/3R2K1 w - - 0 1\ngo depth 6\nquit\n");
    let last_info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth"))
        .unwrap();
    assert!(last_info.contains("score mate 1"), "{last_info}");
    assert_eq!(lines.last().unwrap(), "bestmove d2d8");
}

#[test]
fn amrc_startpos_follows_the_start_position_option() {
    let lines = session(
        "setoption name UCI_Variant value ajaxrandom\nsetoption name StartPosition value 4349\nposition startpos\nd\nquit\n",
    );
    assert_eq!(
        lines[0],
        "info string fen abrnqnkrb/ppppppppp/9/9/9/9/9/PPPPPPPPP/BRKNQNRBA[MMmm] w GBACDEFHIhcabdefgi - 0 1"
    );
}

#[test]
fn stop_ends_an_infinite_search_with_a_legal_move() {
    let lines = session(
        "setoption name UCI_Variant value ajaxfalcon\nposition startpos\ngo infinite\nisready\nstop\nquit\n",
    );
    assert!(lines.iter().any(|l| l == "readyok"));
    let best = lines.iter().find(|l| l.starts_with("bestmove ")).unwrap();
    assert_ne!(best, "bestmove 0000");
}

#[test]
fn a_params_file_named_by_the_params_file_option_sets_the_values_it_gives() {
    let dir = std::env::temp_dir().join(format!("ajaxlab-uci-params-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("knight.toml");
    std::fs::write(
        &file,
        "\"chess.knight.mg\" = 600\n\"chess.knight.eg\" = 600\n",
    )
    .unwrap();
    let bad = dir.join("bad.toml");
    std::fs::write(&bad, "\"chess.knight.mg\" = 99999\n").unwrap();
    // White is a knight up (a drawish ending, scaled down); a dearer knight
    // still makes that a larger score.
    let search = "position fen 4k3/8/8/8/8/8/8/1N2K3 w - - 0 1\ngo depth 1\n";
    let score = |options: &str| {
        let lines = session(&format!("{options}{search}quit\n"));
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .cloned()
            .unwrap();
        let errors: Vec<String> = lines
            .into_iter()
            .filter(|l| l.starts_with("info string error:"))
            .collect();
        let cp = info
            .split("score cp ")
            .nth(1)
            .and_then(|r| r.split(' ').next())
            .and_then(|n| n.parse::<i32>().ok())
            .unwrap();
        (cp, errors)
    };
    let (default, none) = score("");
    assert!(none.is_empty());
    let (dearer, none) = score(&format!(
        "setoption name ParamsFile value {}\n",
        file.display()
    ));
    assert!(none.is_empty(), "{none:?}");
    assert!(dearer > default + 50, "{default} then {dearer}");
    let (unchanged, errors) = score(&format!(
        "setoption name ParamsFile value {}\n",
        bad.display()
    ));
    assert_eq!(unchanged, default, "a bad file changes nothing");
    assert!(errors[0].contains("bad.toml"), "{errors:?}");
    let (_, errors) = score("setoption name ParamsFile value /no/such/file.toml\n");
    assert!(errors[0].contains("/no/such/file.toml"), "{errors:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

const MODEL: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../tests/fsf/model-variants.ini"
);

/// As Fairy-Stockfish takes them: `VariantPath` loads a variants file, its
/// sections join `UCI_Variant`, and a position of one is set and searched.
#[test]
fn variant_path_loads_a_file_whose_sections_are_played() {
    let lines = session(&format!(
        "setoption name VariantPath value {MODEL}\nsetoption name UCI_Variant value lamehorse\n\
         position startpos moves h2h3\nd\ngo nodes 2000\nquit\n"
    ));
    let listed = lines
        .iter()
        .find(|l| l.starts_with("option name UCI_Variant "))
        .unwrap();
    assert!(
        listed.ends_with(" var lamehorse var dropwazir var nocastle"),
        "{listed}"
    );
    assert!(listed.contains(" var ajaxfalcon "), "{listed}");
    assert!(
        lines.contains(
            &"info string fen rhbqkehr/pppppppp/8/8/8/7P/PPPPPPP1/RHBQKEHR b KQkq - 0 1".to_owned()
        ),
        "{lines:?}"
    );
    let best = lines.last().unwrap();
    assert!(
        best.starts_with("bestmove ") && best != "bestmove 0000",
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.contains("error")), "{lines:?}");
}

/// A file given at start-up is listed in the handshake; a bad
/// `VariantPath` names its file and line, and leaves the set as it was.
#[test]
fn a_variants_file_at_start_up_is_listed_and_a_bad_one_is_refused() {
    let set = ajaxlab_rules::VariantSet::with_file(std::path::Path::new(MODEL)).unwrap();
    let out = Capture::default();
    let bad = std::env::temp_dir().join(format!("ajaxlab-uci-bad-{}.ini", std::process::id()));
    std::fs::write(&bad, "[mine:chess]\nknight = n\nbogus = 1\n").unwrap();
    let script = format!(
        "uci\nsetoption name VariantPath value {}\nsetoption name UCI_Variant value dropwazir\n\
         position startpos moves g1f3 g8f6 W@g1\nd\nquit\n",
        bad.display()
    );
    uci::run(set, Cursor::new(script), out.clone());
    let _ = std::fs::remove_file(&bad);
    let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    assert!(text.contains(" var capablanca-ini "), "{text}");
    assert!(
        text.contains("option name VariantPath type string"),
        "{text}"
    );
    assert!(text.contains(":3: bogus"), "{text}");
    assert!(
        text.contains(
            "info string fen rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKBWR[Www] b KQkq - 0 2"
        ),
        "{text}"
    );
}

/// A loaded file's pieces have value options of their own, named after the
/// variant and the piece's letter, offered with the options of the table
/// and set as they are.
#[test]
fn a_file_variant_s_piece_values_are_spin_options() {
    let lines = session(&format!(
        "setoption name VariantPath value {MODEL}\n\
         setoption name lamehorse.h.mg value 400\n\
         setoption name lamehorse.h.mg value 99999\n\
         setoption name lamehorse.z.mg value 400\nquit\n"
    ));
    let option = lines
        .iter()
        .find(|l| l.starts_with("option name lamehorse.h.mg "))
        .unwrap_or_else(|| panic!("{lines:?}"));
    assert!(option.contains(" type spin default "), "{option}");
    for other in [
        "lamehorse.e.eg",
        "lamehorse.p.mg",
        "dropwazir.w.mg",
        "capablanca-ini.a.mg",
    ] {
        let prefix = format!("option name {other} ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "{other}: {lines:?}"
        );
    }
    assert!(
        !lines
            .iter()
            .any(|l| l.starts_with("option name lamehorse.k.")),
        "{lines:?}"
    );
    let errors: Vec<&String> = lines.iter().filter(|l| l.contains("error")).collect();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(
        errors[0].contains("'lamehorse.h.mg': 99999 is outside"),
        "{errors:?}"
    );
    assert!(
        errors[1].contains("unknown option 'lamehorse.z.mg'"),
        "{errors:?}"
    );
}

/// A node is a move made and searched, as Stockfish and Fairy-Stockfish
/// count them: the root itself and re-searches of the same move do not
/// count, so `go nodes N` buys the same search in each engine.
#[test]
fn a_node_is_counted_per_move_made() {
    // White's king has three moves, and no reply captures anything: a
    // one-ply search makes three moves.
    let lines = session("position fen 7k/8/8/8/8/8/8/K7 w - - 0 1\ngo depth 1\nquit\n");
    let info = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("info depth 1 "))
        .cloned()
        .unwrap_or_default();
    assert!(info.contains(" nodes 3 "), "{lines:?}");
}

#[test]
fn eval_file_selects_a_network_for_the_game_s_variant_and_refuses_one_that_is_not() {
    use ajaxlab_engine::nnue::net::{Activation, Network};
    use ajaxlab_rules::VariantKind;
    let dir = std::env::temp_dir().join(format!("ajaxlab-evalfile-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let afc = dir.join("afc.nnue");
    Network::random(VariantKind::AjaxFalcon.variant(), 32, Activation::SCReLU, 9)
        .write(&afc)
        .unwrap();
    let garbage = dir.join("garbage.nnue");
    std::fs::write(&garbage, "not a network").unwrap();
    let go = |eval_file: &str, variant: &str| {
        session(&format!(
            "setoption name UCI_Variant value {variant}\nsetoption name EvalFile value {eval_file}\nposition startpos\ngo nodes 2000\n"
        ))
    };
    let with_net = go(&afc.display().to_string(), "ajax-falcon");
    assert!(
        with_net.last().unwrap().starts_with("bestmove "),
        "{with_net:?}"
    );
    assert!(
        !with_net.iter().any(|l| l.contains("error")),
        "{with_net:?}"
    );
    assert_eq!(
        timeless(&with_net),
        timeless(&go(&afc.display().to_string(), "ajax-falcon"))
    );
    assert_ne!(
        timeless(&with_net),
        timeless(&go("classical", "ajax-falcon"))
    );
    let refused = |lines: Vec<String>, why: &str| {
        assert_eq!(lines.last().unwrap(), "bestmove 0000", "{lines:?}");
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with("info string error: EvalFile") && l.contains(why)),
            "{why}: {lines:?}"
        );
    };
    refused(go(&afc.display().to_string(), "chess"), "not for chess");
    refused(
        go(&garbage.display().to_string(), "ajax-falcon"),
        "not an ajaxlab network file",
    );
    refused(
        go(
            &dir.join("missing.nnue").display().to_string(),
            "ajax-falcon",
        ),
        "missing.nnue",
    );
    let options = session("uci\n");
    assert!(
        options
            .iter()
            .any(|l| l == "option name EvalFile type string default classical")
    );
    std::fs::remove_dir_all(dir).unwrap();
}
