//! `ajaxlab train` as a user meets it: a network from the positions of
//! `ajaxlab datagen`, written after every epoch with its learning curve, a
//! run that goes on from its checkpoint, the network played over UCI, and
//! bad input refused by name.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_ajaxlab");

fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ajaxlab-train-{}-{tag}", std::process::id()));
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

/// `ajaxlab datagen` of `games` AFC games at `tc` into `data`, on two threads.
fn datagen(data: &Path, games: &str, tc: &str) {
    let out = data.display().to_string();
    let made = ajaxlab(&[
        "datagen",
        "--variant",
        "afc",
        "--games",
        games,
        "--tc",
        tc,
        "--threads",
        "2",
        "--quiet",
        "--out",
        &out,
    ]);
    assert!(made.status.success(), "{}", text(&made));
}

fn train(data: &Path, out: &Path, extra: &[&str]) -> Output {
    let (data, out) = (data.display().to_string(), out.display().to_string());
    let mut args = vec!["train", &data, "--variant", "afc", "--out", &out];
    args.extend(["--batch", "256", "--threads", "2"]);
    args.extend(extra);
    ajaxlab(&args)
}

#[test]
fn a_network_is_trained_on_datagen_positions_resumed_and_played() {
    let dir = temp_dir("net");
    let data = dir.join("data");
    datagen(&data, "4", "nodes=200");
    let net = dir.join("afc.nnue");
    let first = train(&data, &net, &["--epochs", "2", "--hidden", "16"]);
    let said = text(&first);
    assert!(first.status.success(), "{said}");
    assert!(
        said.contains("epoch 1: training loss") && said.contains("epoch 2:"),
        "{said}"
    );
    assert!(
        net.exists() && dir.join("afc.nnue.curve.svg").exists(),
        "{said}"
    );
    let resumed = train(
        &data,
        &net,
        &["--epochs", "3", "--resume", "--hidden", "16"],
    );
    let said = text(&resumed);
    assert!(resumed.status.success(), "{said}");
    assert!(
        said.contains("epoch 3:") && !said.contains("epoch 1:"),
        "{said}"
    );

    let mut uci = Command::new(BIN)
        .arg("uci")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let script = format!(
        "setoption name UCI_Variant value ajax-falcon\nsetoption name EvalFile value {}\nposition startpos\ngo nodes 500\nisready\n",
        net.display()
    );
    uci.stdin
        .as_mut()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    std::thread::sleep(std::time::Duration::from_secs(3));
    uci.stdin.as_mut().unwrap().write_all(b"quit\n").unwrap();
    let played = uci.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&played.stdout);
    assert!(
        said.contains("bestmove ") && !said.contains("bestmove 0000"),
        "{said}"
    );
    assert!(!said.contains("error"), "{said}");
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn bad_training_input_is_refused_naming_what_is_wrong() {
    let dir = temp_dir("bad");
    let data = dir.join("data");
    datagen(&data, "2", "nodes=100");
    let net = dir.join("x.nnue");
    let games = data.join("campaigns/datagen-afc/unit-datagen-afc-0.parquet");
    let cases: [(Vec<&str>, PathBuf, &str); 5] = [
        (vec![], games, "is it a positions file of ajaxlab datagen?"),
        (
            vec!["--hidden", "0"],
            data.clone(),
            "--hidden: 0 hidden units",
        ),
        (vec![], dir.join("nowhere"), "nowhere"),
        (
            vec!["--holdout", "1"],
            data.clone(),
            "no positions of ajax-falcon to train on",
        ),
        (vec!["--max-score=-1"], data.clone(), "beyond --max-score"),
    ];
    for (extra, input, expected) in cases {
        let o = train(&input, &net, &extra);
        assert!(
            !o.status.success() && text(&o).contains(expected),
            "{expected}: {}",
            text(&o)
        );
    }
    let other = ajaxlab(&[
        "train",
        data.to_str().unwrap(),
        "--variant",
        "chess",
        "--out",
        net.to_str().unwrap(),
    ]);
    assert!(
        text(&other).contains("no positions of chess"),
        "{}",
        text(&other)
    );
    assert!(!net.exists());
    std::fs::remove_dir_all(dir).unwrap();
}
