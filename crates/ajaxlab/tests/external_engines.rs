//! End to end: the real `ajaxlab` binary playing matches against external
//! engines (itself over UCI, Stockfish, deliberately faulty engines), its
//! files read back by pyarrow and DuckDB, and python-chess driving its UCI
//! front end.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// A Python with pyffish, pyarrow, duckdb and python-chess (`.ci/run` makes it).
fn python() -> PathBuf {
    std::env::var_os("AJAXLAB_FSF_PYTHON")
        .map_or_else(|| repo().join(".venv/bin/python"), PathBuf::from)
}

fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "ajaxlab-e2e-{}-{tag}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn ajaxlab(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn text(o: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

/// Terminations of every game in the Parquet files of `dir`, via DuckDB.
fn terminations(dir: &Path) -> Vec<(String, String, String)> {
    let script = format!(
        "import duckdb; rows = duckdb.connect().execute(\"select white_name, result, termination from read_parquet('{}/campaigns/*/unit-*.parquet') order by game_id\").fetchall(); print('\\n'.join('\\t'.join(r) for r in rows))",
        dir.display()
    );
    let out = Command::new(python())
        .args(["-c", &script])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_owned(), f[1].to_owned(), f[2].to_owned())
        })
        .collect()
}

#[test]
fn ajaxlab_over_uci_plays_the_builtin_engine_and_pyarrow_reads_the_games() {
    let out = temp_dir("uci-vs-builtin");
    let uci = format!("uci:{BIN},arg=uci,name=ajaxlab-uci");
    let o = ajaxlab(&[
        "match",
        "--variant",
        "amrc",
        "--games",
        "4",
        "--tc",
        "nodes=500",
        "--concurrency",
        "2",
        "--player",
        &uci,
        "--player",
        "builtin",
        "--out",
        out.to_str().unwrap(),
        "--pgn",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("4 games in"), "{}", text(&o));
    let check = Command::new(python())
        .args([
            repo()
                .join("tests/python/check_parquet.py")
                .to_str()
                .unwrap(),
            out.to_str().unwrap(),
            "4",
        ])
        .output()
        .unwrap();
    assert!(
        check.status.success(),
        "pyarrow/DuckDB check failed: {}",
        text(&check)
    );
    for (_, _, termination) in terminations(&out) {
        assert!(
            !termination.starts_with("engine") && termination != "illegal-move",
            "{termination}"
        );
    }
    let pgn = std::fs::read_to_string(pgn_written(&text(&o))).unwrap();
    assert!(
        pgn.contains("[Variant \"ajax-modern-random\"]") && pgn.contains("[AmrcStart "),
        "{pgn}"
    );
}

/// The PGN file a match's output says it wrote.
fn pgn_written(out: &str) -> String {
    out.lines()
        .find_map(|l| {
            l.strip_prefix("wrote ")
                .filter(|f| f.ends_with("games.pgn"))
        })
        .unwrap_or_else(|| panic!("no games.pgn written: {out}"))
        .to_owned()
}

fn faulty(mode: &str, n: u32, marker: &Path) -> String {
    format!(
        "[[players]]\nengine = \"uci\"\nname = \"faulty\"\npath = \"python3\"\nargs = [\"{}\", \"{mode}\", \"{n}\", \"{}\", \"{BIN}\", \"uci\"]\nmove_timeout_s = 3\nstartup_timeout_s = 10\n\
         [[players]]\nengine = \"builtin\"\nname = \"builtin\"\n",
        repo().join("tests/engines/faulty_engine.py").display(),
        marker.display()
    )
}

#[test]
fn crashed_hung_and_garbage_engines_lose_their_game_and_the_match_goes_on() {
    for (mode, termination) in [
        ("crash", "engine-crash"),
        ("hang", "engine-timeout"),
        ("garbage", "illegal-move"),
        ("illegal", "illegal-move"),
    ] {
        let dir = temp_dir(mode);
        let config = dir.join("match.toml");
        std::fs::write(&config, faulty(mode, 3, &dir.join("misbehaved"))).unwrap();
        let o = ajaxlab(&[
            "match",
            "--config",
            config.to_str().unwrap(),
            "--variant",
            "afc",
            "--games",
            "4",
            "--tc",
            "nodes=300",
            "--concurrency",
            "1",
            "--out",
            dir.join("games").to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{mode}: {}", text(&o));
        let games = terminations(&dir.join("games"));
        assert_eq!(games.len(), 4, "{mode}: every game is recorded");
        let (white, result, t) = &games[0];
        assert_eq!(t, termination, "{mode}: {games:?}");
        let faulty_lost =
            (white == "faulty" && result == "0-1") || (white != "faulty" && result == "1-0");
        assert!(faulty_lost, "{mode}: the faulty engine loses: {games:?}");
        assert!(
            games[1..].iter().all(|(_, _, t)| !t.starts_with("engine")),
            "{mode}: a restarted engine plays on: {games:?}"
        );
    }
}

#[test]
fn a_book_holds_distinct_balanced_positions_and_a_match_plays_from_it() {
    let dir = temp_dir("book");
    let make_book = |out: &Path| {
        let args = [
            "book",
            "--variant",
            "afc",
            "--plies",
            "6",
            "--max-eval",
            "80",
            "--count",
            "12",
        ];
        let rest = [
            "--nodes",
            "500",
            "--seed",
            "3",
            "--out",
            out.to_str().unwrap(),
        ];
        ajaxlab(&[&args[..], &rest[..]].concat())
    };
    let book = dir.join("afc.epd");
    let o = make_book(&book);
    assert!(o.status.success(), "{}", text(&o));
    let written = std::fs::read_to_string(&book).unwrap();
    let lines: Vec<&str> = written.lines().collect();
    let header = "# ajaxlab book variant=ajax-falcon plies=6 max-eval=80 count=12 seed=3";
    assert!(lines[0].starts_with(header), "{lines:?}");
    assert_eq!(lines.len(), 13);
    let distinct: std::collections::HashSet<&str> = lines[1..]
        .iter()
        .map(|l| l.split(" hmvc").next().unwrap())
        .collect();
    assert_eq!(distinct.len(), 12, "positions are distinct");
    let again = dir.join("again.epd");
    make_book(&again);
    assert_eq!(
        std::fs::read_to_string(&again).unwrap(),
        written,
        "the seed fixes the book"
    );
    let spec = format!("file:{}", book.display());
    let games = dir.join("games");
    let m = ajaxlab(&[
        "match",
        "--variant",
        "afc",
        "--openings",
        &spec,
        "--random-plies",
        "0",
        "--games",
        "2",
        "--tc",
        "nodes=300",
        "--out",
        games.to_str().unwrap(),
    ]);
    assert!(m.status.success(), "{}", text(&m));
}

#[test]
fn unusable_engines_are_reported_before_any_game() {
    let dir = temp_dir("unusable");
    let refused = |player: &str, why: &str| {
        let o = ajaxlab(&[
            "match",
            "--player",
            player,
            "--player",
            "builtin",
            "--games",
            "2",
            "--out",
            dir.to_str().unwrap(),
        ]);
        assert!(!o.status.success(), "{player}");
        assert!(text(&o).contains(why), "{player}: {}", text(&o));
    };
    refused(
        "uci:/nonexistent/engine",
        "cannot start /nonexistent/engine",
    );
    refused("uci:/bin/true", "does not speak UCI");
    let bad_tc = ajaxlab(&["match", "--tc", "fast", "--games", "2"]);
    assert!(
        text(&bad_tc).contains("--tc: 'fast' is not a time control: expected nodes=N"),
        "{}",
        text(&bad_tc)
    );
    assert!(
        std::fs::read_dir(&dir).unwrap().next().is_none(),
        "no game was written"
    );
}

#[test]
fn a_build_whose_bench_is_not_the_stated_one_is_refused_with_both_numbers() {
    let printed = text(&ajaxlab(&["bench"]));
    let nodes = printed
        .lines()
        .find_map(|l| l.strip_prefix("nodes "))
        .unwrap()
        .trim();
    let dir = temp_dir("bench");
    let file = dir.join("bench.toml");
    std::fs::write(
        &file,
        format!(
            "variant = \"ajax-falcon\"\ngames = 2\nout = \"{}\"\n[[players]]\nengine = \"uci\"\npath = \"{BIN}\"\nargs = [\"uci\"]\nbench = 1\n[[players]]\nengine = \"builtin\"\n",
            dir.join("games").display()
        ),
    )
    .unwrap();
    let o = ajaxlab(&["match", "--config", file.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(
        text(&o).contains(&format!(
            "searched {nodes} nodes, the player states bench = 1"
        )),
        "{}",
        text(&o)
    );
    assert!(!dir.join("games").exists(), "no game was played");
}

#[test]
fn stockfish_plays_chess_against_the_builtin_engine() {
    let stockfish = Path::new("/usr/games/stockfish");
    assert!(
        stockfish.exists(),
        "Debian's stockfish is needed (.ci/run installs it)"
    );
    let dir = temp_dir("stockfish");
    let sf = "uci:/usr/games/stockfish,Hash=16,UCI_LimitStrength=true,UCI_Elo=1500,name=stockfish";
    let o = ajaxlab(&[
        "match",
        "--variant",
        "chess",
        "--games",
        "2",
        "--tc",
        "movetime=20",
        "--player",
        sf,
        "--player",
        "builtin",
        "--out",
        dir.to_str().unwrap(),
        "--concurrency",
        "2",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    for (_, _, t) in terminations(&dir) {
        assert!(
            !t.starts_with("engine") && t != "illegal-move" && t != "time-forfeit",
            "{t}"
        );
    }
    let afc = ajaxlab(&[
        "match",
        "--variant",
        "afc",
        "--games",
        "2",
        "--player",
        sf,
        "--player",
        "builtin",
    ]);
    assert!(
        text(&afc).contains("does not support ajax-falcon"),
        "{}",
        text(&afc)
    );
}

#[test]
fn python_chess_drives_the_uci_front_end() {
    let o = Command::new(python())
        .args([
            repo()
                .join("tests/python/python_chess_uci.py")
                .to_str()
                .unwrap(),
            BIN,
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
}
