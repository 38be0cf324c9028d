//! Cluster mode end to end with real processes on loopback: a coordinator,
//! three workers, a worker killed mid-unit, a coordinator killed and
//! restarted mid-campaign, tokens of the wrong kind, and an SPRT of two UCI
//! engines shipped to workers that do not have them.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use common::{
    BIN, Process, coordinator, coordinator_under, temp_dir, token, worker, worker_command,
};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

fn python() -> PathBuf {
    std::env::var_os("AJAXLAB_FSF_PYTHON").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python"),
        PathBuf::from,
    )
}

/// A coordinator on a free loopback port with a worker and an operator token.
struct Cluster {
    state: PathBuf,
    worker_token: PathBuf,
    op: PathBuf,
    url: String,
    _coordinator: Process,
}

impl Cluster {
    fn start(tag: &str) -> Cluster {
        let state = temp_dir(tag);
        let (worker_token, op) = (token(&state, "worker"), token(&state, "operator"));
        let (coordinator, addr) = coordinator(&state, "127.0.0.1:0");
        Cluster {
            state,
            worker_token,
            op,
            url: format!("http://{addr}"),
            _coordinator: coordinator,
        }
    }
}

fn operator(url: &str, token: &Path, args: &[&str]) -> String {
    operator_in(Path::new("."), url, token, args)
}

/// `ajaxlab campaign ARGS` run in `dir`: what it printed.
fn operator_in(dir: &Path, url: &str, token: &Path, args: &[&str]) -> String {
    let o = Command::new(BIN)
        .current_dir(dir)
        .arg("campaign")
        .args(args)
        .args([
            "--coordinator",
            url,
            "--token-file",
            token.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn campaign_file(dir: &Path, name: &str, games: u32) -> PathBuf {
    let path = dir.join(format!("{name}.toml"));
    std::fs::write(&path, format!("variant = \"ajax-falcon\"\ngames = {games}\ntc = \"nodes=300\"\n[campaign]\nname = \"{name}\"\n[adjudication]\nmax_plies = 150\n")).unwrap();
    path
}

/// `(pairs_done, state)` of a campaign, from the operator CLI.
fn progress(url: &str, op: &Path, name: &str) -> (u64, String) {
    let out = operator(url, op, &["status", name]);
    // Below the header, the campaign's line.
    let line = out.lines().find(|l| l.starts_with(name)).unwrap_or("");
    let fields: Vec<&str> = line.split_whitespace().collect();
    match fields.as_slice() {
        [_, _kind, state, done, ..] => (
            done.split('/').next().unwrap_or("0").parse().unwrap_or(0),
            (*state).to_owned(),
        ),
        _ => (0, out),
    }
}

fn wait_for(what: &str, limit: Duration, mut done: impl FnMut() -> bool) {
    let start = Instant::now();
    while !done() {
        assert!(start.elapsed() < limit, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// What the test Python (with DuckDB and pyarrow) prints running `script`.
fn run_python(script: &str) -> String {
    let out = Command::new(python())
        .args(["-c", script])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// Game ids of a campaign's files, via DuckDB.
fn game_ids(state: &Path, name: &str) -> Vec<u64> {
    let glob = state.join("campaigns").join(name).join("unit-*.parquet");
    let script = format!(
        "import duckdb; print(' '.join(str(r[0]) for r in duckdb.connect().execute(\"select game_id from read_parquet('{}') order by game_id\").fetchall()))",
        glob.display()
    );
    run_python(&script)
        .split_whitespace()
        .map(|s| s.parse().unwrap())
        .collect()
}

#[test]
fn three_workers_finish_a_campaign_despite_a_killed_worker_and_a_restarted_coordinator() {
    let state = temp_dir("state");
    let (worker_token, op) = (token(&state, "worker"), token(&state, "operator"));
    let (coord, addr) = coordinator(&state, "127.0.0.1:0");
    let url = format!("http://{addr}");
    let file = campaign_file(&state, "e2e", 24);
    let mut coord = coord;
    let created = operator(&url, &op, &["create", file.to_str().unwrap()]);
    assert!(
        created.contains("e2e") && created.contains("running"),
        "{created}; coordinator {:?}",
        coord.0.try_wait()
    );

    let mut workers: Vec<Process> = (0..3)
        .map(|i| worker(&url, &worker_token, &format!("w{i}")))
        .collect();
    wait_for("first results", Duration::from_secs(120), || {
        progress(&url, &op, "e2e").0 >= 2
    });
    // SIGKILL one worker in the middle of its unit.
    workers.remove(0);
    // Kill the coordinator too, then restart it on the same address.
    drop(coord);
    let (_coord, _) = coordinator(&state, &addr);
    wait_for("the campaign to finish", Duration::from_secs(240), || {
        progress(&url, &op, "e2e").1 == "finished"
    });
    let (done, _) = progress(&url, &op, "e2e");
    assert_eq!(done, 12, "exactly the campaign's pairs are counted");
    let ids = game_ids(&state, "e2e");
    assert_eq!(
        ids,
        (0..24).collect::<Vec<u64>>(),
        "every game once, none lost, none twice"
    );

    let http = std::fs::read_to_string(state.join("http.addr")).unwrap();
    let metrics = http_get(&http, "/metrics");
    assert!(
        metrics.contains("ajaxlab_campaign_pairs_done{campaign=\"e2e\"} 12"),
        "{metrics}"
    );
    assert!(
        metrics.contains("ajaxlab_units_accepted_total"),
        "{metrics}"
    );
    let page = http_get(&http, "/");
    assert!(
        page.contains("<tr data-campaign=\"e2e\">") && page.contains("href=\"/campaigns/e2e\""),
        "{page}"
    );
    let page = http_get(&http, "/campaigns/e2e");
    assert!(page.contains("<svg class=\"elo\""), "{page}");
    // The page as a browser renders it: headless Chromium's DOM.
    let chromium = Path::new("/usr/bin/chromium");
    assert!(
        chromium.exists(),
        "Debian's chromium is needed (.ci/run installs it)"
    );
    let profile = state.join("chromium-profile");
    let dom = Command::new(chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
        ])
        .args([
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("http://{http}/campaigns/e2e"))
        .output()
        .unwrap();
    let dom = String::from_utf8_lossy(&dom.stdout);
    assert!(
        dom.contains("e2e") && dom.contains("finished") && dom.contains("polyline"),
        "{dom}"
    );
}

/// A plain HTTP GET: the whole response.
fn http_get(addr: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    assert!(response.starts_with("HTTP/1.1 200"), "{response}");
    response
}

/// 1,100 connections to the status page that never send a byte, against a
/// coordinator with 1,024 descriptors: they once took every descriptor and
/// workers could not register. Now the page holds its share, closes each
/// after its silence deadline, and a worker plays a campaign beside them.
/// `cargo test -p ajaxlab --test cluster_e2e -- --ignored silent_status_page`
/// (the default suite's smaller version is `cluster/tests/silent_peers.rs`).
#[test]
#[ignore = "holds 1,100 sockets for a minute"]
fn a_flood_of_silent_status_page_connections_leaves_workers_playing() {
    ajaxlab_cluster::coordinator::serve::connections::ConnectionLimits::for_this_process();
    let state = temp_dir("flood");
    let (worker_token, op) = (token(&state, "worker"), token(&state, "operator"));
    let (_coordinator, addr) = coordinator_under(
        &state,
        "127.0.0.1:0",
        &["prlimit", "--nofile=1024:1024", "--"],
    );
    let url = format!("http://{addr}");
    let http = std::fs::read_to_string(state.join("http.addr")).unwrap();
    let flood: Vec<std::net::TcpStream> = (0..1100)
        .map(|_| std::net::TcpStream::connect(&http).unwrap())
        .collect();
    let file = campaign_file(&state, "flooded", 8);
    let created = operator(&url, &op, &["create", file.to_str().unwrap()]);
    assert!(created.contains("flooded"), "{created}");
    let _worker = worker(&url, &worker_token, "beside-the-flood");
    wait_for(
        "the campaign beside the flood",
        Duration::from_secs(120),
        || progress(&url, &op, "flooded").1 == "finished",
    );
    assert_eq!(game_ids(&state, "flooded").len(), 8);
    drop(flood);
    http_get(&http, "/metrics");
}

#[test]
fn wrong_tokens_are_refused_with_the_right_status() {
    let c = Cluster::start("auth");
    let as_worker = operator(&c.url, &c.worker_token, &["list"]);
    assert!(as_worker.contains("PermissionDenied"), "{as_worker}");
    let bogus = c.state.join("bogus.token");
    std::fs::write(&bogus, "not-a-token\n").unwrap();
    let unknown = operator(&c.url, &bogus, &["list"]);
    assert!(unknown.contains("Unauthenticated"), "{unknown}");
    let out = Command::new(BIN)
        .args([
            "worker",
            "--coordinator",
            &c.url,
            "--token-file",
            c.op.to_str().unwrap(),
            "--threads",
            "1",
        ])
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("refused"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // A bad file is refused before it is sent, naming the file and key.
    let bad = campaign_file(&c.state, "bad", 3);
    let refused = operator(&c.url, &c.op, &["create", bad.to_str().unwrap()]);
    assert!(
        refused.contains("bad.toml: games: 3: must be an even number"),
        "{refused}"
    );
    assert!(!operator(&c.url, &c.op, &["list"]).contains("bad"));
}

/// A TCP proxy whose forwarding can be paused (data is held, connections
/// stay open), to cut a worker off from the coordinator.
struct Proxy {
    addr: String,
    paused: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl Proxy {
    fn start(target: String) -> Proxy {
        use std::sync::atomic::AtomicBool;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let paused = std::sync::Arc::new(AtomicBool::new(false));
        let flag = std::sync::Arc::clone(&paused);
        std::thread::spawn(move || {
            for client in listener.incoming().map_while(Result::ok) {
                let Ok(server) = std::net::TcpStream::connect(&target) else {
                    continue;
                };
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), server.try_clone().unwrap()),
                    (server, client),
                ] {
                    let flag = std::sync::Arc::clone(&flag);
                    std::thread::spawn(move || {
                        use std::io::{Read, Write};
                        let mut buf = [0u8; 16384];
                        while let Ok(n) = from.read(&mut buf) {
                            if n == 0 {
                                break;
                            }
                            while flag.load(Ordering::Relaxed) {
                                std::thread::sleep(Duration::from_millis(50));
                            }
                            if to.write_all(&buf[..n]).is_err() {
                                break;
                            }
                        }
                    });
                }
            }
        });
        Proxy { addr, paused }
    }
}

#[test]
fn a_worker_cut_off_longer_than_its_lease_loses_its_unit_and_nothing_is_lost() {
    let c = Cluster::start("cutoff");
    let file = c.state.join("cutoff.toml");
    std::fs::write(&file, "variant = \"ajax-falcon\"\ngames = 4\ntc = \"nodes=20000\"\n[campaign]\nname = \"cutoff\"\n[adjudication]\nmax_plies = 60\n").unwrap();
    let created = operator(&c.url, &c.op, &["create", file.to_str().unwrap()]);
    assert!(created.contains("running"), "{created}");
    let http = std::fs::read_to_string(c.state.join("http.addr")).unwrap();
    let leased = || {
        let m = http_get(&http, "/metrics");
        m.lines()
            .find_map(|l| l.strip_prefix("ajaxlab_units_leased_total "))
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    let proxy = Proxy::start(c.url.trim_start_matches("http://").to_owned());
    let _cut_off = worker(
        &format!("http://{}", proxy.addr),
        &c.worker_token,
        "cut-off",
    );
    wait_for("the first lease", Duration::from_secs(60), || leased() >= 1);
    proxy.paused.store(true, Ordering::Relaxed);
    std::thread::sleep(Duration::from_secs(7)); // longer than the 5 s lease
    let _direct = worker(&c.url, &c.worker_token, "direct");
    wait_for("the campaign to finish", Duration::from_secs(240), || {
        progress(&c.url, &c.op, "cutoff").1 == "finished"
    });
    proxy.paused.store(false, Ordering::Relaxed);
    std::thread::sleep(Duration::from_secs(3)); // the cut-off worker comes back
    let metrics = http_get(&http, "/metrics");
    let expired = metrics
        .lines()
        .find_map(|l| l.strip_prefix("ajaxlab_leases_expired_total "))
        .unwrap()
        .trim()
        .parse::<u64>()
        .unwrap();
    assert!(expired >= 1, "{metrics}");
    assert_eq!(progress(&c.url, &c.op, "cutoff").0, 2);
    assert_eq!(
        game_ids(&c.state, "cutoff"),
        vec![0, 1, 2, 3],
        "nothing lost, nothing twice"
    );
}

#[test]
fn sigterm_makes_a_worker_release_its_unit_and_exit_cleanly() {
    let c = Cluster::start("sigterm");
    let file = c.state.join("term.toml");
    std::fs::write(&file, "variant = \"ajax-falcon\"\ngames = 20\ntc = \"nodes=50000\"\n[campaign]\nname = \"term\"\n").unwrap();
    assert!(operator(&c.url, &c.op, &["create", file.to_str().unwrap()]).contains("running"));
    let http = std::fs::read_to_string(c.state.join("http.addr")).unwrap();
    let mut w = worker(&c.url, &c.worker_token, "leaving");
    wait_for("a lease", Duration::from_secs(60), || {
        http_get(&http, "/metrics").contains("ajaxlab_units{state=\"leased\"} 1")
    });
    let term = Command::new("kill")
        .args(["-TERM", &w.0.id().to_string()])
        .status()
        .unwrap();
    assert!(term.success());
    let start = Instant::now();
    let status = loop {
        if let Some(status) = w.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the worker did not exit"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "{status:?}");
    let metrics = http_get(&http, "/metrics");
    assert!(
        metrics.contains("ajaxlab_units{state=\"free\"} 1"),
        "the unit went back at once: {metrics}"
    );
}

/// Files in the coordinator's artifact store.
fn stored_artifacts(state: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<Vec<u8>> = std::fs::read_dir(state.join("artifacts/sha256"))
        .unwrap()
        .map(|e| std::fs::read(e.unwrap().path()).unwrap())
        .collect();
    files.sort();
    files
}

#[test]
fn campaign_create_uploads_the_engine_and_its_files_and_refuses_a_missing_one() {
    let c = Cluster::start("artifacts");
    let dir = temp_dir("artifact-files");
    let engine = dir.join("engine.sh");
    std::fs::write(&engine, "#!/bin/sh\necho uciok\n").unwrap();
    let ini = dir.join("variants.ini");
    std::fs::write(&ini, "[ajax-falcon:chess]\n").unwrap();
    let file = |name: &str, path: &Path| {
        let f = dir.join(format!("{name}.toml"));
        std::fs::write(
            &f,
            format!(
                "variant = \"ajax-falcon\"\ngames = 2\n[campaign]\nname = \"{name}\"\n\
                 [[players]]\nengine = \"builtin\"\n\
                 [[players]]\nengine = \"uci\"\npath = \"{}\"\noptions = {{ VariantPath = \"{}\", Hash = 16 }}\n",
                path.display(),
                ini.display()
            ),
        )
        .unwrap();
        f
    };

    let missing = file("missing", &dir.join("no-such-engine"));
    let out = operator(&c.url, &c.op, &["create", missing.to_str().unwrap()]);
    assert!(
        out.contains("players[1].path") && out.contains("no-such-engine' is not a file"),
        "{out}"
    );
    let good = file("good", &engine);
    let out = operator(&c.url, &c.worker_token, &["create", good.to_str().unwrap()]);
    assert!(
        out.contains("PermissionDenied") && out.contains("UploadArtifact"),
        "{out}"
    );
    assert!(stored_artifacts(&c.state).is_empty());

    let out = operator(&c.url, &c.op, &["create", good.to_str().unwrap()]);
    assert!(
        out.contains("players[1].path") && out.contains(", uploaded"),
        "{out}"
    );
    assert!(out.contains("players[1].options.VariantPath"), "{out}");
    let mut expected = vec![
        std::fs::read(&engine).unwrap(),
        std::fs::read(&ini).unwrap(),
    ];
    expected.sort();
    assert_eq!(stored_artifacts(&c.state), expected);
}

/// The SHA-256 of `path`, by coreutils.
fn sha256(path: &Path) -> String {
    let o = Command::new("sha256sum").arg(path).output().unwrap();
    assert!(o.status.success());
    String::from_utf8(o.stdout).unwrap()[..64].to_owned()
}

/// The operator's machine: ajaxlab itself (stripped of its debug
/// information, to ship 50 MB rather than 300) as a UCI engine at
/// `engines/ajaxlab`, a relative path that exists nowhere else.
fn operator_with_ajaxlab(tag: &str) -> PathBuf {
    let ops = temp_dir(tag);
    std::fs::create_dir_all(ops.join("engines")).unwrap();
    let strip = Command::new("strip")
        .arg("-o")
        .arg(ops.join("engines/ajaxlab"))
        .arg(BIN)
        .output()
        .unwrap();
    assert!(
        strip.status.success(),
        "binutils' strip is needed: {strip:?}"
    );
    ops
}

#[test]
fn campaign_run_ships_uci_engines_through_its_own_store() {
    let ops = operator_with_ajaxlab("uci-local");
    std::fs::write(
        ops.join("local.toml"),
        "variant = \"ajax-falcon\"\ngames = 4\ntc = \"nodes=100\"\n[campaign]\nname = \"local\"\n\
         [[players]]\nengine = \"uci\"\nname = \"a\"\npath = \"engines/ajaxlab\"\nargs = [\"uci\"]\noptions = { \"afc.falcon.mg\" = 400 }\n\
         [[players]]\nengine = \"uci\"\nname = \"b\"\npath = \"engines/ajaxlab\"\nargs = [\"uci\"]\n\
         [adjudication]\nmax_plies = 60\n",
    )
    .unwrap();
    let o = Command::new(BIN)
        .current_dir(&ops)
        .args(["campaign", "run", "local.toml", "--threads", "1", "--quiet"])
        .output()
        .unwrap();
    assert!(
        o.status.success(),
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let hash = sha256(&ops.join("engines/ajaxlab"));
    let run = ops.join("runs/local");
    assert!(run.join("artifacts/sha256").join(&hash).is_file());
    // The one local worker (--threads 1) runs its own copy.
    assert_eq!(sha256(&run.join("engine-cache/1").join(&hash)), hash);
    assert_eq!(game_ids(&run, "local"), [0, 1, 2, 3]);
}

#[test]
fn workers_without_the_engines_complete_an_sprt_of_two_uci_engines_shipped_to_them() {
    let ops = operator_with_ajaxlab("uci-operator");
    let players = r#"[[players]]
engine = "uci"
name = "no-falcon-sense"
path = "engines/ajaxlab"
args = ["uci"]
options = { "afc.falcon.mg" = 250, "afc.falcon.eg" = 250, "afc.queen.mg" = 500 }
tc = "nodes=50"
[[players]]
engine = "uci"
name = "default"
path = "engines/ajaxlab"
args = ["uci"]
options = { Hash = 8 }
[adjudication]
max_plies = 150
resign_score = 400
resign_moves = 2
"#;
    sprt_of_shipped_engines(
        &ops,
        "nodes=300",
        players,
        &["engines/ajaxlab"],
        ["default", "no-falcon-sense"],
        "afc.falcon.mg",
    );
}

/// Two Fairy-Stockfish configurations, the binary and its variants file
/// shipped: `scripts/build-fsf.sh` builds the binary (or name one with
/// `AJAXLAB_FSF_BINARY`). Run with `cargo test -p ajaxlab --test
/// cluster_e2e -- --ignored`.
#[test]
#[ignore = "needs Fairy-Stockfish built by scripts/build-fsf.sh"]
fn workers_complete_an_sprt_of_two_fairy_stockfish_configurations_shipped_to_them() {
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let fsf = std::env::var_os("AJAXLAB_FSF_BINARY")
        .map_or_else(|| repo.join("target/fsf/fairy-stockfish"), PathBuf::from);
    assert!(
        fsf.is_file(),
        "{}: build it with scripts/build-fsf.sh",
        fsf.display()
    );
    let ops = temp_dir("fsf-operator");
    std::fs::create_dir_all(ops.join("engines")).unwrap();
    std::fs::copy(&fsf, ops.join("engines/fairy-stockfish")).unwrap();
    std::fs::copy(
        repo.join("tests/fsf/fsf-variants.ini"),
        ops.join("engines/variants.ini"),
    )
    .unwrap();
    let players = r#"[[players]]
engine = "uci"
name = "skill-0"
path = "engines/fairy-stockfish"
options = { VariantPath = "engines/variants.ini", "Skill Level" = 0 }
[[players]]
engine = "uci"
name = "full"
path = "engines/fairy-stockfish"
options = { VariantPath = "engines/variants.ini", Hash = 16 }
[adjudication]
max_plies = 200
resign_score = 600
resign_moves = 3
"#;
    sprt_of_shipped_engines(
        &ops,
        "nodes=2000",
        players,
        &["engines/fairy-stockfish", "engines/variants.ini"],
        ["full", "skill-0"],
        "Skill Level",
    );
}

/// Creates an SPRT campaign `builds` of Ajax Falcon Chess at `tc` between
/// `players` (and their adjudication) from `ops/builds.toml` (run in `ops`,
/// whose files `shipped` it names) on a fresh coordinator, lets two workers
/// in empty directories play it to a verdict, and checks that each fetched
/// every shipped file with its bytes, and that every game is in Parquet with
/// the players' `names` (sorted) and the file carries `option`.
fn sprt_of_shipped_engines(
    ops: &Path,
    tc: &str,
    players: &str,
    shipped: &[&str],
    names: [&str; 2],
    option: &str,
) {
    std::fs::write(
        ops.join("builds.toml"),
        format!(
            "variant = \"ajax-falcon\"\ngames = 100\ntc = \"{tc}\"\nrandom_plies = 4\n\
             [campaign]\nname = \"builds\"\nkind = \"sprt\"\n\
             [sprt]\nelo0 = 0\nelo1 = 100\nmodel = \"logistic\"\n{players}"
        ),
    )
    .unwrap();
    let c = Cluster::start("uci-state");
    let created = operator_in(ops, &c.url, &c.op, &["create", "builds.toml"]);
    let hashes: Vec<String> = shipped.iter().map(|f| sha256(&ops.join(f))).collect();
    for (file, hash) in shipped.iter().zip(&hashes) {
        assert!(
            created.contains(&format!("{file}: sha256 {hash}")),
            "{created}"
        );
    }
    // Two workers, each in an empty directory.
    let homes: Vec<PathBuf> = (0..2)
        .map(|i| temp_dir(&format!("uci-worker{i}")))
        .collect();
    let workers: Vec<Process> = homes
        .iter()
        .enumerate()
        .map(|(i, home)| {
            let mut command = worker_command(&c.url, &c.worker_token, &format!("uci{i}"));
            Process(command.current_dir(home).spawn().unwrap())
        })
        .collect();
    wait_for("the SPRT to finish", Duration::from_secs(600), || {
        progress(&c.url, &c.op, "builds").1 == "finished"
    });
    let status = operator(&c.url, &c.op, &["status", "builds"]);
    assert!(status.contains("accepted"), "a verdict: {status}");
    // Each worker fetched the files from the coordinator (it has none of
    // its own); its copies have the operator's bytes.
    for home in &homes {
        for (file, hash) in shipped.iter().zip(&hashes) {
            assert!(!home.join(file).exists());
            let cached = home.join("ajaxlab-cache").join(hash);
            assert!(cached.is_file(), "{} has no {hash}", home.display());
            assert_eq!(&sha256(&cached), hash);
        }
    }
    // Every game is in Parquet, with both players' names, and the file
    // carries the campaign's players with their options. Units in flight
    // at the verdict are still counted: the workers stop first, and the
    // last submission may land between reading the count and the files.
    drop(workers);
    let glob = c.state.join("campaigns/builds/unit-*.parquet");
    let script = format!(
        "import duckdb, pyarrow.parquet as pq, glob\n\
         rows = duckdb.connect().execute(\"select count(*), count(distinct white_name), min(least(white_name, black_name)), max(greatest(white_name, black_name)) from read_parquet('{g}')\").fetchall()\n\
         print(*rows[0])\n\
         print(all(b'{option}' in pq.read_schema(f).metadata[b'ajaxlab.campaign_toml'] for f in glob.glob('{g}')))",
        g = glob.display()
    );
    let start = Instant::now();
    loop {
        let (done, _) = progress(&c.url, &c.op, "builds");
        let out = run_python(&script);
        let expected = format!("{} 2 {} {}\nTrue\n", done * 2, names[0], names[1]);
        if out == expected {
            break;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "games, names, options: {out:?}, expected {expected:?}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// Runs `ajaxlab campaign run FILE` in `dir`; its output and whether it succeeded.
fn campaign_run(dir: &Path, file: &str) -> (bool, String) {
    let o = Command::new(BIN)
        .current_dir(dir)
        .args(["campaign", "run", file, "--threads", "1", "--quiet"])
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    (o.status.success(), text)
}

/// The integer after `prefix` on the line of `text` that starts with it.
fn value_of(text: &str, prefix: &str) -> i64 {
    text.lines()
        .find_map(|l| l.strip_prefix(prefix))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("no {prefix}… in {text}"))
}

#[test]
fn spsa_tunes_a_uci_engine_s_options_and_the_values_of_a_file_template() {
    let ops = operator_with_ajaxlab("uci-spsa");
    let head = |name: &str| {
        format!(
            "variant = \"ajax-falcon\"\ngames = 8\ntc = \"nodes=100\"\n[campaign]\nname = \"{name}\"\nkind = \"spsa\"\n\
             [[players]]\nengine = \"uci\"\npath = \"engines/ajaxlab\"\nargs = [\"uci\"]\n\
             [adjudication]\nmax_plies = 60\n"
        )
    };
    // The engine's own spin option, deliberately mis-set at the start.
    std::fs::write(
        ops.join("options.toml"),
        format!(
            "{}[spsa]\nparams_text = \"afc.falcon.mg, int, 300, 250, 1000, 40, 0.002\"\n",
            head("options")
        ),
    )
    .unwrap();
    let (ok, out) = campaign_run(&ops, "options.toml");
    assert!(ok, "{out}");
    let run = ops.join("runs/options/campaigns/options");
    let options = std::fs::read_to_string(run.join("final-options.toml")).unwrap();
    assert!(options.contains("[options]\n"), "{options}");
    let value = value_of(&options, "\"afc.falcon.mg\" = ");
    assert!((250..=1000).contains(&value), "{options}");
    let lines = std::fs::read_to_string(run.join("final.spsa")).unwrap();
    assert!(
        lines.starts_with(&format!("afc.falcon.mg,int,{value},250,1000,")),
        "{lines}"
    );
    assert!(run.join("spsa.parquet").is_file(), "the trajectory");

    // A name the engine does not offer is refused before anything is made.
    std::fs::write(
        ops.join("nope.toml"),
        format!(
            "{}[spsa]\nparams_text = \"Falcon Value, int, 300, 250, 1000, 40, 0.002\"\n",
            head("nope")
        ),
    )
    .unwrap();
    let (ok, out) = campaign_run(&ops, "nope.toml");
    assert!(!ok);
    assert!(
        out.contains("spsa") && out.contains("'Falcon Value'") && out.contains("afc.minister.mg"),
        "{out}"
    );
    assert!(!ops.join("runs/nope").exists(), "nothing is stored");

    // Values that live in a file: a parameter file the engine reads by its
    // ParamsFile option, written as a template.
    std::fs::write(
        ops.join("falcon.toml.in"),
        "# the Falcon's values\n\"afc.falcon.mg\" = {falcon}\n\"afc.falcon.eg\" = {falcon}\n",
    )
    .unwrap();
    std::fs::write(
        ops.join("template.toml"),
        format!(
            "{}[spsa]\ntemplate = \"falcon.toml.in\"\ntemplate_option = \"ParamsFile\"\n\
             params_text = \"falcon, int, 300, 250, 1000, 40, 0.002\"\n",
            head("template")
        ),
    )
    .unwrap();
    let (ok, out) = campaign_run(&ops, "template.toml");
    assert!(ok, "{out}");
    let run = ops.join("runs/template");
    let filled = std::fs::read_to_string(run.join("campaigns/template/final-falcon.toml")).unwrap();
    let mg = value_of(&filled, "\"afc.falcon.mg\" = ");
    assert_eq!(value_of(&filled, "\"afc.falcon.eg\" = "), mg, "{filled}");
    assert!(filled.starts_with("# the Falcon's values\n"), "{filled}");
    // The workers wrote each unit's filled files into their caches.
    let written = std::fs::read_dir(run.join("engine-cache"))
        .unwrap()
        .flat_map(|worker| std::fs::read_dir(worker.unwrap().path()).unwrap())
        .filter_map(|e| std::fs::read_to_string(e.unwrap().path()).ok())
        .filter(|t| t.starts_with("# the Falcon's values"))
        .count();
    assert!(written >= 2, "{written} filled files cached");

    // A template that names a value the tune does not move is refused.
    std::fs::write(
        ops.join("extra.toml.in"),
        "\"afc.falcon.mg\" = {falcon}\n\"afc.minister.mg\" = {minister}\n",
    )
    .unwrap();
    let text = std::fs::read_to_string(ops.join("template.toml"))
        .unwrap()
        .replace("falcon.toml.in", "extra.toml.in")
        .replace("\"template\"", "\"extra\"");
    std::fs::write(ops.join("extra.toml"), text).unwrap();
    let (ok, out) = campaign_run(&ops, "extra.toml");
    assert!(!ok);
    assert!(
        out.contains("spsa.template") && out.contains("{minister}"),
        "{out}"
    );

    // A template the engine cannot read (it says so, then plays on its
    // defaults) is refused before anything is made.
    std::fs::write(
        ops.join("broken.toml.in"),
        "\"afc.falcon.mg\" = {falcon} {falcon}\n",
    )
    .unwrap();
    let text = std::fs::read_to_string(ops.join("template.toml"))
        .unwrap()
        .replace("falcon.toml.in", "broken.toml.in")
        .replace("\"template\"", "\"broken\"");
    std::fs::write(ops.join("broken.toml"), text).unwrap();
    let (ok, out) = campaign_run(&ops, "broken.toml");
    assert!(!ok, "{out}");
    assert!(
        out.contains("spsa.template")
            && out.contains("the engine could not read it: info string error"),
        "{out}"
    );
    assert!(!ops.join("runs/broken").exists(), "nothing is stored");
}
