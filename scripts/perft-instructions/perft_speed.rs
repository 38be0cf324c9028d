//! Perft of one suite of tests/perft/ (`perft_speed VARIANT FILE LIMIT`):
//! every position to its deepest depth whose count is at most LIMIT, each
//! count checked; prints the nodes, seconds and nodes per second. Built as
//! an example of the rules crate by run.sh, at any commit (it uses only
//! `Position::from_fen`, `VariantKind::from_name` and `perft`).
use ajaxlab_rules::{Position, VariantKind, perft};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (variant, file, limit) = (&args[1], &args[2], args[3].parse::<u64>().unwrap());
    let kind = VariantKind::from_name(variant).unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    let mut fen = String::new();
    let mut best: Option<(u32, u64)> = None;
    let mut jobs = Vec::new();
    for line in text.lines().chain(std::iter::once("id end")) {
        if let Some(rest) = line.strip_prefix("fen ") {
            fen = rest.to_owned();
        } else if let Some(rest) = line.strip_prefix("perft ") {
            let mut it = rest.split_whitespace();
            let d: u32 = it.next().unwrap().parse().unwrap();
            let n: u64 = it.next().unwrap().parse().unwrap();
            if n <= limit {
                best = Some((d, n));
            }
        } else if line.starts_with("id ") {
            if let Some((d, n)) = best.take() {
                jobs.push((fen.clone(), d, n));
            }
        }
    }
    let start = Instant::now();
    let mut nodes = 0;
    for (fen, d, n) in &jobs {
        let pos = Position::from_fen(kind, fen).unwrap();
        let got = perft(&pos, *d);
        assert_eq!(got, *n, "{fen} {d}");
        nodes += got;
    }
    let s = start.elapsed().as_secs_f64();
    println!("{variant} {nodes} {s:.3} {:.0}", nodes as f64 / s);
}
