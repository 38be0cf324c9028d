//! The campaign and coordinator file parsers on arbitrary text, on
//! TOML-like lines of their own keys and on mutations of the repository's
//! real files: they return a value or an error naming the key, never panic;
//! a campaign that parses is then created on a fresh coordinator, which may
//! refuse it but never panics either.
//!
//! Each block runs 128 or 256 cases by default (the file in seconds);
//! `PROPTEST_CASES=100000` runs as many of each (see the README).

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::campaign::parse_campaign;
use ajaxlab_cluster::coordinator::Coordinator;
use ajaxlab_cluster::coordinator::serve::file::{
    FILE_KEY, LEASE_SECONDS, MAX_ARTIFACT_MB, UNIT_SECONDS, parse_coordinator_file,
};
use common::temp_dir;
use proptest::prelude::*;
use std::time::Duration;

/// The campaign files of `configs/`.
const CONFIG_CAMPAIGNS: [&str; 8] = [
    include_str!("../../../configs/afc-piece-values.toml"),
    include_str!("../../../configs/amrc-first-move.toml"),
    include_str!("../../../configs/falcon-vs-minister.toml"),
    include_str!("../../../configs/quickstart.toml"),
    include_str!("../../../configs/regression-sprt.toml"),
    include_str!("../../../configs/tune-data.toml"),
    include_str!("../../../configs/tune-data-amrc.toml"),
    include_str!("../../../configs/tune-data-chess.toml"),
];

/// The campaigns the other tests of this crate create (one of each kind,
/// UCI players, adjudication).
const TEST_CAMPAIGNS: [&str; 7] = [
    "variant = \"ajax-falcon\"\ngames = 8\ntc = \"nodes=300\"\n[campaign]\nname = \"state-test\"\n[adjudication]\nmax_plies = 120\n",
    "variant = \"chess\"\ngames = 4\ntc = \"nodes=200\"\n[campaign]\nname = \"mistakes\"\n",
    "variant = \"ajax-falcon\"\ngames = 12\ntc = \"nodes=300\"\n[campaign]\nname = \"adj\"\n[adjudication]\nresign_score = 250\nresign_moves = 2\ndraw_score = 30\ndraw_moves = 3\ndraw_after_move = 8\nmax_plies = 100\n",
    "variant = \"ajax-falcon\"\ngames = 200\ntc = \"nodes=400\"\nrandom_plies = 4\n[campaign]\nname = \"sprt\"\nkind = \"sprt\"\n[sprt]\nelo0 = 0\nelo1 = 50\n[[players]]\nengine = \"builtin\"\nname = \"strong\"\ntc = \"depth=2\"\n[[players]]\nengine = \"builtin\"\nname = \"weak\"\ntc = \"depth=1\"\n",
    "variant = \"ajax-falcon\"\ngames = 16\nseed = 3\ntc = \"nodes=300\"\nrandom_plies = 2\n[campaign]\nname = \"tune\"\nkind = \"spsa\"\n[spsa]\n[[spsa.params]]\nname = \"afc.falcon.mg\"\nstart = 300\nmin = 250\nmax = 1000\nc_end = 25\nr_end = 0.02\n[adjudication]\nmax_plies = 100\n",
    "variant = \"chess\"\ngames = 4\ntc = \"nodes=300\"\nrandom_plies = 2\n[campaign]\nname = \"pv\"\nkind = \"piece-value\"\n[piece_value]\n[[piece_value.imbalances]]\nname = \"knight-odds\"\nfirst = [\"-N@b1\"]\n[adjudication]\nmax_plies = 80\n",
    "variant = \"ajax-falcon\"\ngames = 8\ntc = \"nodes=200\"\n[campaign]\nname = \"two\"\n[[players]]\nengine = \"uci\"\nname = \"patched\"\npath = \"engine-a\"\nargs = [\"uci\"]\noptions = { VariantPath = \"variants.ini\", Hash = 8 }\n[[players]]\nengine = \"uci\"\nname = \"installed\"\nworker_path = \"/usr/games/fairy-stockfish\"\n",
];

/// The coordinator files of `deploy/`.
const COORDINATOR_FILES: [&str; 2] = [
    include_str!("../../../deploy/k8s/base/coordinator.toml"),
    include_str!("../../../deploy/k8s/overlays/tls/coordinator.toml"),
];

/// The keys a coordinator file may have.
const COORDINATOR_KEYS: [&str; 8] = [
    "listen",
    "state_dir",
    "lease_seconds",
    "unit_seconds",
    "http_listen",
    "tls_cert",
    "tls_key",
    "max_artifact_mb",
];

/// Keys of campaign files, of every table.
const CAMPAIGN_KEYS: [&str; 42] = [
    "variant",
    "games",
    "concurrency",
    "seed",
    "openings",
    "random_plies",
    "tc",
    "hash_mb",
    "pgn",
    "time_margin_ms",
    "name",
    "priority",
    "kind",
    "elo0",
    "elo1",
    "alpha",
    "beta",
    "model",
    "a_ratio",
    "gamma",
    "params_text",
    "start",
    "min",
    "max",
    "c_end",
    "r_end",
    "pawn",
    "first",
    "second",
    "engine",
    "worker_path",
    "args",
    "set",
    "disable",
    "startup_timeout_s",
    "move_timeout_s",
    "resign_score",
    "resign_moves",
    "draw_score",
    "draw_moves",
    "draw_after_move",
    "max_plies",
];

/// Table headers of campaign files.
const CAMPAIGN_TABLES: [&str; 8] = [
    "[sprt]",
    "[spsa]",
    "[[spsa.params]]",
    "[piece_value]",
    "[[piece_value.imbalances]]",
    "[[players]]",
    "[adjudication]",
    "[imbalance]",
];

/// `cases` cases of a block, unless `PROPTEST_CASES` asks for a long run.
fn config(cases: u32) -> ProptestConfig {
    let mut config = ProptestConfig::default();
    if std::env::var_os("PROPTEST_CASES").is_none() {
        config.cases = cases;
    }
    config
}

/// The campaign seeds, their opening books named from the crate's
/// directory (where tests run) so that they parse.
fn campaign_seeds() -> Vec<String> {
    CONFIG_CAMPAIGNS
        .iter()
        .map(|t| t.replace("file:configs/", "file:../../configs/"))
        .chain(TEST_CAMPAIGNS.iter().map(|t| (*t).to_owned()))
        .collect()
}

/// A TOML value near a boundary, of the wrong type, or a short string.
fn value() -> impl Strategy<Value = String> {
    prop_oneof![
        prop::sample::select(vec![
            "0",
            "1",
            "-1",
            "2",
            "4294967295",
            "4294967296",
            "18446744073709551615",
            "18446744073709551616",
            "9223372036854775807",
            "-9223372036854775808",
            "nan",
            "inf",
            "-inf",
            "1e308",
            "-0.0",
            "0.5",
            "\"\"",
            "[]",
            "{}",
            "true",
            "[\"\"]",
            "{ a = 1 }",
            "\"builtin\"",
            "\"uci\"",
            "\"sprt\"",
            "\"spsa\"",
            "\"piece-value\"",
            "\"first-move\"",
            "\"chess\"",
            "\"chess960\"",
            "\"ajax-falcon\"",
            "\"ajax-modern-random\"",
            "\"nodes=300\"",
            "\"nodes=200~10%\"",
            "\"depth=2\"",
            "\"10+0.1\"",
            "\"40/60\"",
            "\"start\"",
            "\"random\"",
            "\"numbers:0,7,15119\"",
            "\"range:0-959\"",
            "\"afc.falcon.mg\"",
            "[\"-N@b1\"]",
            "[\"M=F\", \"-P@hand\"]",
            "{ \"afc.falcon.mg\" = 400 }",
            "\"127.0.0.1:0\"",
            "\"[::]:65535\"",
        ])
        .prop_map(str::to_owned),
        any::<i64>().prop_map(|n| n.to_string()),
        any::<f64>().prop_map(|x| format!("{x:?}")),
        "[a-zA-Z0-9=.:~%+@/-]{0,12}".prop_map(|s| format!("\"{s}\"")),
        "\\PC{0,10}".prop_map(|s| format!("{s:?}")),
    ]
}

/// One edit of a file's text.
#[derive(Clone, Debug)]
enum Edit {
    /// The character at a place replaced.
    Replace(u16, char),
    /// Text inserted at a place.
    Insert(u16, String),
    /// Characters removed from a place.
    Delete(u16, u8),
    /// The value of a `key = value` line replaced.
    Value(u16, String),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        1 => (any::<u16>(), "[a-zA-Z0-9\"'=.,:\\[\\]{}# \n-]")
            .prop_map(|(at, c)| Edit::Replace(at, c.chars().next().unwrap_or(' '))),
        1 => (any::<u16>(), "\\PC{1,8}").prop_map(|(at, s)| Edit::Insert(at, s)),
        1 => (any::<u16>(), 1u8..24).prop_map(|(at, n)| Edit::Delete(at, n)),
        3 => (any::<u16>(), value()).prop_map(|(at, v)| Edit::Value(at, v)),
    ]
}

/// `text` with `edits` made in turn.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for e in edits {
        let len = chars.len();
        let at = |i: u16| usize::from(i) % len.max(1);
        match e {
            Edit::Replace(i, c) => {
                if let Some(place) = chars.get_mut(at(*i)) {
                    *place = *c;
                }
            }
            Edit::Insert(i, s) => {
                let i = at(*i).min(len);
                chars.splice(i..i, s.chars());
            }
            Edit::Delete(i, n) => {
                let i = at(*i).min(len);
                chars.drain(i..(i + usize::from(*n)).min(len));
            }
            Edit::Value(i, v) => {
                let text: String = chars.iter().collect();
                let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
                let with_values: Vec<usize> = (0..lines.len())
                    .filter(|&n| !lines[n].trim_start().starts_with('#') && lines[n].contains('='))
                    .collect();
                if let Some(&n) = with_values.get(usize::from(*i) % with_values.len().max(1)) {
                    let key = lines[n].split('=').next().unwrap_or_default().to_owned();
                    lines[n] = format!("{key}= {v}");
                }
                chars = lines.join("\n").chars().collect();
            }
        }
    }
    chars.into_iter().collect()
}

/// `key = value` lines of campaign keys.
fn campaign_pairs(most: usize) -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(
        (prop::sample::select(CAMPAIGN_KEYS.to_vec()), value())
            .prop_map(|(k, v)| format!("{k} = {v}")),
        0..most,
    )
}

/// A campaign file's shape with its keys given odd values: top-level
/// keys, a named `[campaign]` of some kind, then tables of keys.
fn campaign_lines() -> impl Strategy<Value = String> {
    (
        campaign_pairs(8),
        prop::sample::select(vec!["match", "sprt", "spsa", "piece-value", "first-move"]),
        prop::collection::vec(
            (
                prop::sample::select(CAMPAIGN_TABLES.to_vec()),
                campaign_pairs(5),
            ),
            0..5,
        ),
    )
        .prop_map(|(top, kind, tables)| {
            let mut lines = top;
            lines.push(format!("[campaign]\nname = \"fuzz\"\nkind = \"{kind}\""));
            for (header, pairs) in tables {
                lines.push(header.to_owned());
                lines.extend(pairs);
            }
            lines.join("\n")
        })
}

/// Parses `text` as a campaign; one that parses is created on a fresh
/// coordinator, which may refuse it.
fn campaign_never_panics(text: &str) -> Result<(), TestCaseError> {
    match parse_campaign(text) {
        Err(e) => {
            prop_assert!(!e.key.is_empty() && !e.message.is_empty(), "{e:?}");
        }
        Ok(specs) => {
            prop_assert!(!specs.is_empty());
            let dir = temp_dir("fuzz");
            let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
            if let Ok(views) = c.create_campaign(text) {
                prop_assert_eq!(views.len(), specs.len());
            }
            drop(c);
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    Ok(())
}

/// Parses `text` as a coordinator file: what it takes is in range, and
/// each fault names a key of the file (or the file, when it is not TOML).
fn coordinator_file_never_panics(text: &str) -> Result<(), TestCaseError> {
    let table = toml::de::DeTable::parse(text).map(toml::Spanned::into_inner);
    match parse_coordinator_file(text) {
        Ok(s) => {
            prop_assert!(table.is_ok());
            prop_assert!(LEASE_SECONDS.contains(&s.lease.as_secs()));
            if let Some(unit) = s.unit_duration {
                prop_assert!(UNIT_SECONDS.contains(&unit.as_secs()));
            }
            if let Some(bytes) = s.artifact_limit {
                prop_assert!(MAX_ARTIFACT_MB.contains(&(bytes >> 20)));
            }
        }
        Err(e) => {
            prop_assert!(!e.violations.is_empty());
            for v in &e.violations {
                prop_assert!(!v.message.is_empty(), "{v:?}");
                match &table {
                    Err(_) => prop_assert_eq!(v.key.as_str(), FILE_KEY),
                    Ok(table) => prop_assert!(
                        table.keys().any(|k| *k.get_ref() == v.key)
                            || COORDINATOR_KEYS.contains(&v.key.as_str()),
                        "{v:?} names no key of {text:?}"
                    ),
                }
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(128))]

    #[test]
    fn campaign_parser_never_panics_on_arbitrary_text(text in "\\PC{0,200}") {
        campaign_never_panics(&text)?;
    }

    #[test]
    fn campaign_parser_never_panics_on_campaign_like_lines(text in campaign_lines()) {
        campaign_never_panics(&text)?;
    }

    #[test]
    fn mutated_campaign_files_parse_or_fail_cleanly(
        seed in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..5),
    ) {
        let seeds = campaign_seeds();
        let seed: &String = seed.get(&seeds);
        campaign_never_panics(&mutate(seed, &edits))?;
    }
}

proptest! {
    #![proptest_config(config(256))]

    #[test]
    fn coordinator_file_parser_never_panics_on_arbitrary_text(text in "\\PC{0,120}") {
        coordinator_file_never_panics(&text)?;
    }

    #[test]
    fn coordinator_file_parser_never_panics_on_its_keys(
        lines in prop::collection::vec(
            (prop::sample::select(COORDINATOR_KEYS.to_vec()), value()),
            0..10,
        ),
    ) {
        let text: Vec<String> = lines.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        coordinator_file_never_panics(&text.join("\n"))?;
    }

    #[test]
    fn mutated_coordinator_files_parse_or_fail_cleanly(
        seed in any::<prop::sample::Index>(),
        edits in prop::collection::vec(edit(), 1..5),
    ) {
        let seed: &&str = seed.get(&COORDINATOR_FILES);
        coordinator_file_never_panics(&mutate(seed, &edits))?;
    }
}

#[test]
fn every_seed_parses_unmutated() {
    for text in campaign_seeds() {
        assert!(!parse_campaign(&text).unwrap().is_empty(), "{text}");
    }
    for text in COORDINATOR_FILES {
        parse_coordinator_file(text).unwrap();
    }
}
