//! What the binary's end-to-end tests share: temporary directories, child
//! processes killed with the test, tokens, a coordinator on a free port,
//! workers.

#![allow(dead_code, reason = "each test binary uses its part of these helpers")]

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

pub(crate) fn temp_dir(tag: &str) -> PathBuf {
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

/// A child process killed when the test ends, however it ends.
pub(crate) struct Process(pub(crate) Child);

impl Drop for Process {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

pub(crate) fn token(state: &Path, scope: &str) -> PathBuf {
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
pub(crate) fn coordinator(state: &Path, listen: &str) -> (Process, String) {
    coordinator_under(state, listen, &[])
}

/// As [`coordinator`], run under `wrapper` (a program and its arguments,
/// such as `prlimit --nofile=…`) when one is given.
pub(crate) fn coordinator_under(state: &Path, listen: &str, wrapper: &[&str]) -> (Process, String) {
    let config = state.join("coordinator.toml");
    std::fs::write(
        &config,
        format!(
            "listen = \"{listen}\"\nhttp_listen = \"127.0.0.1:0\"\nstate_dir = \"{}\"\nlease_seconds = 5\n",
            state.display()
        ),
    )
    .unwrap();
    let mut command = match wrapper {
        [program, args @ ..] => {
            let mut c = Command::new(program);
            c.args(args).arg(BIN);
            c
        }
        [] => Command::new(BIN),
    };
    let mut child = command
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

pub(crate) fn worker(url: &str, token: &Path, name: &str) -> Process {
    Process(worker_command(url, token, name).spawn().unwrap())
}

/// `ajaxlab worker` on one thread, its log dropped.
pub(crate) fn worker_command(url: &str, token: &Path, name: &str) -> Command {
    let mut command = Command::new(BIN);
    command
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
        .stderr(Stdio::null());
    command
}
