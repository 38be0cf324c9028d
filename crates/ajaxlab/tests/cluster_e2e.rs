//! Cluster mode end to end with real processes on loopback: a coordinator,
//! three workers, a worker killed mid-unit, a coordinator killed and
//! restarted mid-campaign, and tokens of the wrong kind.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "ajaxlab-cluster-{}-{tag}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn python() -> PathBuf {
    std::env::var_os("AJAXLAB_FSF_PYTHON").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/bin/python"),
        PathBuf::from,
    )
}

/// A child process killed when the test ends, however it ends.
struct Process(Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn token(state: &Path, scope: &str) -> PathBuf {
    let path = state.join(format!("{scope}.token"));
    let o = Command::new(BIN)
        .args([
            "token",
            "--state-dir",
            state.to_str().unwrap(),
            "--scope",
            scope,
            "--out",
            path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    path
}

/// Starts a coordinator and returns it with its gRPC address (and, in
/// `state/http.addr`, the address of its status page).
fn coordinator(state: &Path, listen: &str) -> (Process, String) {
    let config = state.join("coordinator.toml");
    std::fs::write(
        &config,
        format!(
            "listen = \"{listen}\"\nhttp_listen = \"127.0.0.1:0\"\nstate_dir = \"{}\"\nlease_seconds = 5\n",
            state.display()
        ),
    )
    .unwrap();
    let mut child = Command::new(BIN)
        .args(["coordinator", "--config", config.to_str().unwrap()])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let first = lines.next().unwrap().unwrap();
    let addr = first.split_whitespace().nth(3).unwrap().to_owned();
    assert!(first.starts_with("coordinator listening on"), "{first}");
    let second = lines.next().unwrap().unwrap();
    let http = second
        .split_whitespace()
        .nth(5)
        .unwrap()
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .to_owned();
    std::fs::write(state.join("http.addr"), &http).unwrap();
    let log = state.join(format!("coordinator-{}.log", child.id()));
    std::thread::spawn(move || {
        use std::io::Write;
        let mut file = std::fs::File::create(log).unwrap();
        for line in lines.map_while(Result::ok) {
            let _ = writeln!(file, "{line}");
        }
    });
    (Process(child), addr)
}

fn worker(url: &str, token: &Path, name: &str) -> Process {
    Process(
        Command::new(BIN)
            .args([
                "worker",
                "--coordinator",
                url,
                "--token-file",
                token.to_str().unwrap(),
                "--threads",
                "1",
                "--name",
                name,
            ])
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    )
}

fn operator(url: &str, token: &Path, args: &[&str]) -> String {
    let o = Command::new(BIN)
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
    let fields: Vec<&str> = out.split_whitespace().collect();
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

/// Game ids of a campaign's files, via DuckDB.
fn game_ids(state: &Path, name: &str) -> Vec<u64> {
    let glob = state.join("campaigns").join(name).join("unit-*.parquet");
    let script = format!(
        "import duckdb; print(' '.join(str(r[0]) for r in duckdb.connect().execute(\"select game_id from read_parquet('{}') order by game_id\").fetchall()))",
        glob.display()
    );
    let out = Command::new(python())
        .args(["-c", &script])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
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
        page.contains("<section class=\"campaign\" id=\"e2e\">")
            && page.contains("<svg class=\"elo\""),
        "{page}"
    );
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
        .arg(format!("http://{http}/"))
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

#[test]
fn wrong_tokens_are_refused_with_the_right_status() {
    let state = temp_dir("auth");
    let (worker_token, op) = (token(&state, "worker"), token(&state, "operator"));
    let (_coord, addr) = coordinator(&state, "127.0.0.1:0");
    let url = format!("http://{addr}");
    let as_worker = operator(&url, &worker_token, &["list"]);
    assert!(as_worker.contains("PermissionDenied"), "{as_worker}");
    let bogus = state.join("bogus.token");
    std::fs::write(&bogus, "not-a-token\n").unwrap();
    let unknown = operator(&url, &bogus, &["list"]);
    assert!(unknown.contains("Unauthenticated"), "{unknown}");
    let out = Command::new(BIN)
        .args([
            "worker",
            "--coordinator",
            &url,
            "--token-file",
            op.to_str().unwrap(),
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
    let bad = campaign_file(&state, "bad", 3);
    let refused = operator(&url, &op, &["create", bad.to_str().unwrap()]);
    assert!(
        refused.contains("InvalidArgument") && refused.contains("games"),
        "{refused}"
    );
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
    let state = temp_dir("cutoff");
    let (worker_token, op) = (token(&state, "worker"), token(&state, "operator"));
    let (_coord, addr) = coordinator(&state, "127.0.0.1:0");
    let url = format!("http://{addr}");
    let file = state.join("cutoff.toml");
    std::fs::write(&file, "variant = \"ajax-falcon\"\ngames = 4\ntc = \"nodes=20000\"\n[campaign]\nname = \"cutoff\"\n[adjudication]\nmax_plies = 60\n").unwrap();
    let created = operator(&url, &op, &["create", file.to_str().unwrap()]);
    assert!(created.contains("running"), "{created}");
    let http = std::fs::read_to_string(state.join("http.addr")).unwrap();
    let leased = || {
        let m = http_get(&http, "/metrics");
        m.lines()
            .find_map(|l| l.strip_prefix("ajaxlab_units_leased_total "))
            .and_then(|v| v.trim().parse::<u64>().ok())
            .unwrap_or(0)
    };
    let proxy = Proxy::start(addr.clone());
    let _cut_off = worker(&format!("http://{}", proxy.addr), &worker_token, "cut-off");
    wait_for("the first lease", Duration::from_secs(60), || leased() >= 1);
    proxy.paused.store(true, Ordering::Relaxed);
    std::thread::sleep(Duration::from_secs(7)); // longer than the 5 s lease
    let _direct = worker(&url, &worker_token, "direct");
    wait_for("the campaign to finish", Duration::from_secs(240), || {
        progress(&url, &op, "cutoff").1 == "finished"
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
    assert_eq!(progress(&url, &op, "cutoff").0, 2);
    assert_eq!(
        game_ids(&state, "cutoff"),
        vec![0, 1, 2, 3],
        "nothing lost, nothing twice"
    );
}

#[test]
fn sigterm_makes_a_worker_release_its_unit_and_exit_cleanly() {
    let state = temp_dir("sigterm");
    let (worker_token, op) = (token(&state, "worker"), token(&state, "operator"));
    let (_coord, addr) = coordinator(&state, "127.0.0.1:0");
    let url = format!("http://{addr}");
    let file = state.join("term.toml");
    std::fs::write(&file, "variant = \"ajax-falcon\"\ngames = 20\ntc = \"nodes=50000\"\n[campaign]\nname = \"term\"\n").unwrap();
    assert!(operator(&url, &op, &["create", file.to_str().unwrap()]).contains("running"));
    let http = std::fs::read_to_string(state.join("http.addr")).unwrap();
    let mut w = worker(&url, &worker_token, "leaving");
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
    let state = temp_dir("artifacts");
    let (worker_token, op) = (token(&state, "worker"), token(&state, "operator"));
    let (_coord, addr) = coordinator(&state, "127.0.0.1:0");
    let url = format!("http://{addr}");
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
    let out = operator(&url, &op, &["create", missing.to_str().unwrap()]);
    assert!(
        out.contains("players[1].path") && out.contains("no-such-engine' is not a file"),
        "{out}"
    );
    let good = file("good", &engine);
    let out = operator(&url, &worker_token, &["create", good.to_str().unwrap()]);
    assert!(
        out.contains("PermissionDenied") && out.contains("UploadArtifact"),
        "{out}"
    );
    assert!(stored_artifacts(&state).is_empty());

    let out = operator(&url, &op, &["create", good.to_str().unwrap()]);
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
    assert_eq!(stored_artifacts(&state), expected);
}
