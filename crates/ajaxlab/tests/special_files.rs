//! Files a user names that are not files: `/dev/zero` was read until
//! memory ran out, and a FIFO made `perft`, `match --openings` and
//! `campaign create` wait for a writer for ever. Each is now refused by
//! what it is, at once, naming the flag or key; and a text file saved with
//! a byte-order mark reads as the same file without one.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

/// A FIFO nobody writes to, in a fresh directory of `tag`'s.
fn fifo(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ajaxlab-special-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("fifo");
    if !path.exists() {
        assert!(
            Command::new("mkfifo")
                .arg(&path)
                .status()
                .unwrap()
                .success()
        );
    }
    path
}

/// Runs `ajaxlab ARGS`, killed after 30 s: (exited in time, status ok, stderr).
fn run(args: &[&str]) -> (bool, bool, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(30) {
        if let Some(status) = child.try_wait().unwrap() {
            let output = child.wait_with_output().unwrap();
            return (
                true,
                status.success(),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            );
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    let _ = child.wait();
    (false, false, String::new())
}

fn refused(args: &[&str], what: &str) {
    let (ended, ok, stderr) = run(args);
    assert!(ended, "{args:?} did not end within 30 s");
    assert!(!ok, "{args:?} succeeded");
    assert!(
        stderr.contains(&format!("{what}, not a regular file")),
        "{args:?}: {stderr}"
    );
}

#[test]
fn a_fifo_or_a_device_is_refused_by_what_it_is() {
    let fifo = fifo("refused");
    let token = fifo.with_file_name("operator.token");
    std::fs::write(&token, "not-a-real-token\n").unwrap();
    let token = token.to_str().unwrap();
    let fifo = fifo.to_str().unwrap();
    for (path, what) in [(fifo, "a FIFO"), ("/dev/zero", "a character device")] {
        refused(
            &[
                "perft",
                "--variants",
                path,
                "--variant",
                "x",
                "--depth",
                "1",
            ],
            what,
        );
        let book = format!("file:{path}");
        let list = format!("list:{path}");
        let params = format!("builtin:{path}");
        let a_match = |flags: &[&str]| {
            let mut args = vec![
                "match",
                "--variant",
                "chess",
                "--games",
                "2",
                "--tc",
                "nodes=100",
            ];
            args.extend_from_slice(flags);
            refused(&args, what);
        };
        a_match(&["--openings", &book]);
        a_match(&["--openings", &list]);
        a_match(&["--player", &params, "--player", "builtin"]);
        refused(&["campaign", "run", path], what);
        refused(
            &[
                "campaign",
                "create",
                path,
                "--coordinator",
                "http://127.0.0.1:9",
                "--token-file",
                token,
            ],
            what,
        );
    }
}

#[test]
fn a_variants_file_with_a_byte_order_mark_reads_as_without() {
    let model = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fsf/model-variants.ini"
    );
    let dir = fifo("bom").parent().unwrap().to_owned();
    let marked = dir.join("bom.ini");
    let mut bytes = "\u{feff}".as_bytes().to_vec();
    bytes.extend(std::fs::read(model).unwrap());
    std::fs::write(&marked, bytes).unwrap();
    let out = Command::new(BIN)
        .args([
            "perft",
            "--variants",
            marked.to_str().unwrap(),
            "--variant",
            "lamehorse",
            "--depth",
            "3",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "nodes 4836\n");
}
