//! Files written before the store existed (by main at a564af6, see
//! `fixtures/main-a564af6/README.md`) read the same through it: every game
//! and metadata entry as main's reader saw them, the metadata typed, and
//! the files written again with the same meaning.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_rules::{GameResult, VariantKind};
use ajaxlab_stats::EloModel;
use ajaxlab_store::{
    CampaignId, EngineOption, GameRecord, GamesFile, KindMetadata, PartMetadata, SprtMetadata,
    read_games, read_trajectory, write_games,
};
use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

const FILES: [&str; 5] = [
    "match/games-00000.parquet",
    "sprt/unit-fixture-sprt-0.parquet",
    "spsa/unit-fixture-spsa-0.parquet",
    "piece-value/unit-fixture-pv.pawn-odds-0.parquet",
    "piece-value/unit-fixture-pv.n-vs-b-0.parquet",
];

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/main-a564af6")
}

/// The key-value metadata exactly as stored.
fn raw_metadata(path: &Path) -> BTreeMap<String, String> {
    let file = std::fs::File::open(path).unwrap();
    let builder = ParquetRecordBatchReaderBuilder::try_new(file).unwrap();
    builder
        .schema()
        .metadata()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn opt<T: std::fmt::Display>(o: Option<T>) -> String {
    o.map_or_else(|| "-".to_owned(), |v| v.to_string())
}

/// One line per game in the format of `read-by-main.txt`.
fn game_line(g: &GameRecord) -> String {
    let moves: Vec<String> = g
        .moves
        .iter()
        .map(|m| {
            let (score, depth, nodes) = (opt(m.score), opt(m.depth), opt(m.nodes));
            format!("{}:{score}:{depth}:{nodes}:{}", m.uci, m.time_ms)
        })
        .collect();
    let params = |v: &[i32]| v.iter().map(i32::to_string).collect::<Vec<_>>().join(",");
    let fields = [
        g.run_id.clone(),
        g.game_id.to_string(),
        g.pair_id.to_string(),
        g.variant.to_string(),
        opt(g.start_number),
        g.start_fen.clone(),
        g.opening_moves.join(" "),
        g.seed.to_string(),
        g.white.name.clone(),
        g.white.version.clone(),
        params(&g.white.params),
        g.black.name.clone(),
        g.black.version.clone(),
        params(&g.black.params),
        g.time_control.clone(),
        g.result.pgn().to_owned(),
        g.termination.to_string(),
        g.final_fen.clone(),
        g.started_at_ms.to_string(),
        g.ended_at_ms.to_string(),
        moves.join(" "),
    ];
    format!("game {}", fields.join("|"))
}

fn read(name: &str) -> GamesFile {
    read_games(&fixtures().join(name)).unwrap()
}

#[test]
fn every_game_and_entry_reads_as_main_read_it() {
    let mut out = String::new();
    for name in FILES {
        let path = fixtures().join(name);
        writeln!(out, "file {name}").unwrap();
        for (k, v) in raw_metadata(&path) {
            writeln!(out, "meta {k}={}", v.replace('\n', "\\n")).unwrap();
        }
        let file = read_games(&path).unwrap();
        writeln!(out, "names {}", file.metadata.param_names.join(",")).unwrap();
        for g in &file.games {
            writeln!(out, "{}", game_line(g)).unwrap();
        }
    }
    let expected = std::fs::read_to_string(fixtures().join("read-by-main.txt")).unwrap();
    assert_eq!(out, expected);
}

#[test]
fn the_metadata_of_each_kind_is_typed() {
    let m = read("match/games-00000.parquet");
    assert_eq!(m.metadata.kind, None);
    assert_eq!(m.metadata.campaign, None);
    assert_eq!(m.games.len(), 2);
    assert!(
        m.games
            .iter()
            .all(|g| g.variant == VariantKind::Chess.variant())
    );
    assert_eq!(m.metadata.param_names.len(), m.games[0].white.params.len());
    let results: Vec<GameResult> = m.games.iter().map(|g| g.result).collect();
    assert_eq!(results, [GameResult::BlackWins, GameResult::BlackWins]);

    let s = read("sprt/unit-fixture-sprt-0.parquet").metadata;
    let sprt = SprtMetadata {
        elo0: 0.0,
        elo1: 5.0,
        alpha: 0.05,
        beta: 0.1,
        model: EloModel::Logistic,
    };
    assert_eq!(s.kind, Some(KindMetadata::Sprt(sprt)));
    assert_eq!(
        s.campaign.as_ref().map(CampaignId::as_str),
        Some("fixture-sprt")
    );
    let toml = std::fs::read_to_string(fixtures().join("sprt.toml")).unwrap();
    assert_eq!(s.campaign_toml.as_deref(), Some(toml.as_str()));

    assert_eq!(
        read("spsa/unit-fixture-spsa-0.parquet").metadata.kind,
        Some(KindMetadata::Spsa)
    );
    let parts = [
        ("pawn-odds", true, "fixture-pv.pawn-odds-0"),
        ("n-vs-b", false, "fixture-pv.n-vs-b-0"),
    ];
    for (part, calibration, file) in parts {
        let m = read(&format!("piece-value/unit-{file}.parquet")).metadata;
        let expected = PartMetadata {
            name: Some(part.to_owned()),
            calibration,
        };
        assert_eq!(m.kind, Some(KindMetadata::PieceValue(expected)));
        assert_eq!(
            m.campaign.map(|c| c.to_string()),
            Some(format!("fixture-pv.{part}"))
        );
    }
}

#[test]
fn each_game_keeps_its_players_uci_options_and_older_files_read_as_none() {
    let original = read(FILES[0]);
    assert!(
        original
            .games
            .iter()
            .all(|g| g.white.options.is_empty() && g.black.options.is_empty()),
        "a file from before options were recorded has none"
    );
    let mut games = original.games.clone();
    for (i, g) in games.iter_mut().enumerate() {
        g.white.options = vec![
            EngineOption {
                name: "VariantPath".into(),
                value: format!("cache/{i:064}"),
            },
            EngineOption {
                name: "Skill Level".into(),
                value: i.to_string(),
            },
        ];
    }
    let dir = std::env::temp_dir().join(format!("ajaxlab-store-options-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("options.parquet");
    write_games(&path, &games, &original.metadata).unwrap();
    assert_eq!(read_games(&path).unwrap().games, games);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn files_written_again_hold_the_same_games_and_entries() {
    let dir = std::env::temp_dir().join(format!("ajaxlab-store-rewrite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, name) in FILES.into_iter().enumerate() {
        let original = read(name);
        let copy = dir.join(format!("copy-{i}.parquet"));
        write_games(&copy, &original.games, &original.metadata).unwrap();
        assert_eq!(read_games(&copy).unwrap(), original, "{name}");
        assert_eq!(
            raw_metadata(&copy),
            raw_metadata(&fixtures().join(name)),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_spsa_trajectory_reads_as_written() {
    let rows = read_trajectory(&fixtures().join("spsa/spsa.parquet")).unwrap();
    let seqs: Vec<u64> = rows.iter().map(|r| r.seq).collect();
    assert_eq!(seqs, [0, 1, 2]);
    assert!(rows.iter().all(|r| r.param == "chess.knight.mg"));
    assert_eq!(rows[0].unit_id, "");
    assert!(
        rows[1..]
            .iter()
            .all(|r| r.unit_id.starts_with("fixture-spsa-"))
    );
    assert!((rows[0].value - 300.0).abs() < 1e-9);
}

#[test]
fn a_file_that_is_not_parquet_is_a_format_error() {
    let path = fixtures().join("README.md");
    assert!(matches!(
        read_games(&path),
        Err(ajaxlab_store::StoreError::Format { .. })
    ));
}
