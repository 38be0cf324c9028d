//! The report of each kind of run on synthetic run directories with known
//! results: the numbers must be the statistics crate's, the plots must be
//! real SVG and PNG files, and bad input must be a typed error naming the
//! file.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_report::synthetic::Malformed;
use ajaxlab_report::synthetic::{self, PLANTED, temp_dir};
use ajaxlab_report::{
    FirstMoveReport, MatchReport, PieceValueReport, Report, ReportConfig, ReportError, RunKind,
    Section, SpsaReport,
};
use ajaxlab_rules::GameResult::{BlackWins, Draw, WhiteWins};
use ajaxlab_rules::PieceKind;
use ajaxlab_stats::{EloModel, Pentanomial, Sprt, SprtConfig, Status, Trinomial, llr};
use ajaxlab_store::KindMetadata;
use std::path::Path;

fn report(dir: &Path) -> Report {
    ajaxlab_report::run(&ReportConfig::new(dir)).unwrap()
}

fn matches(report: &Report) -> Vec<&MatchReport> {
    report
        .sections
        .iter()
        .filter_map(|s| match s {
            Section::Match(m) => Some(m),
            _ => None,
        })
        .collect()
}

fn first_moves(report: &Report) -> Vec<&FirstMoveReport> {
    report
        .sections
        .iter()
        .filter_map(|s| match s {
            Section::FirstMove(m) => Some(m),
            _ => None,
        })
        .collect()
}

/// Both files of a plot exist and are what they claim: the SVG names its
/// title, the PNG has PNG's magic bytes and some size.
fn assert_plot(files: &[std::path::PathBuf], stem: &str, title: &str) {
    let svg = files
        .iter()
        .find(|p| p.file_name().unwrap().to_string_lossy() == format!("{stem}.svg"))
        .unwrap_or_else(|| panic!("{stem}.svg not in {files:?}"));
    let png = svg.with_extension("png");
    assert!(files.contains(&png), "{png:?} not in {files:?}");
    let text = std::fs::read_to_string(svg).unwrap();
    assert!(text.starts_with("<svg"), "{svg:?}");
    let escaped = title.replace('&', "&amp;").replace('\'', "&apos;");
    assert!(text.contains(&escaped), "{svg:?} lacks its title '{title}'");
    let bytes = std::fs::read(&png).unwrap();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{png:?}");
    assert!(
        bytes.len() > 10_000,
        "{png:?} is only {} bytes",
        bytes.len()
    );
}

#[test]
fn match_elo_is_the_statistics_crates_pentanomial_elo() {
    let dir = temp_dir("match").unwrap();
    let counts = [10, 30, 80, 50, 30];
    synthetic::write_match_run(&dir, "m1", counts).unwrap();
    let report = report(&dir);
    let [m] = matches(&report)[..] else {
        panic!("one match expected: {report:?}")
    };
    assert_eq!(m.kind, RunKind::Match);
    assert_eq!(m.id, "m1");
    assert_eq!(m.players, ["player-0".to_owned(), "player-1".to_owned()]);
    assert_eq!(m.pentanomial, Pentanomial::new(counts));
    assert_eq!(m.unpaired_games, 0);
    let want = Pentanomial::new(counts);
    assert_eq!(m.elo, Some(want.elo().unwrap()));
    assert_eq!(m.nelo, Some(want.nelo().unwrap()));
    assert!(m.sprt.is_none());
    assert_plot(&m.plots, "match-m1-elo", "Elo of player-0 against player-1");
    let text = report.to_string();
    let elo = want.elo().unwrap();
    assert!(
        text.contains(&format!(
            "Elo   {:+.2} ± {:.2}",
            elo.elo,
            elo.interval.half_width()
        )),
        "{text}"
    );
    assert!(
        text.contains("pentanomial LL LD DD+WL WD WW (for player-0): 10 30 80 50 30"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A self-play match's first-move advantage: White's results, whoever
/// played White, with the score's interval.
#[test]
fn a_match_report_counts_whites_results() {
    let dir = temp_dir("white").unwrap();
    // 3 pairs: White wins both games of the first (one for each player),
    // then a draw and a White win, then Black wins both.
    let results = [WhiteWins, WhiteWins, Draw, WhiteWins, BlackWins, BlackWins];
    let games: Vec<_> = (0..)
        .zip(results)
        .map(|(id, result)| synthetic::game("w1", id, result))
        .collect();
    synthetic::write(
        &dir.join("games-00000.parquet"),
        &games,
        &Default::default(),
    )
    .unwrap();
    let report = report(&dir);
    let [m] = matches(&report)[..] else {
        panic!("one match expected: {report:?}")
    };
    assert_eq!(m.white, Trinomial::new(2, 1, 3));
    // Score 3.5/6 = 0.5833; per-game variance 3.25/6 - 0.5833² = 0.2014;
    // half width 1.96 * sqrt(0.2014 / 6) = 0.3591.
    let text = report.to_string();
    assert!(
        text.contains("White 3 wins, 1 draws, 2 losses: score 0.5833 (95%: 0.2243 .. 0.9424)"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_replays_to_the_llr_and_verdict_of_a_direct_sprt() {
    let dir = temp_dir("sprt").unwrap();
    let units = [
        [1, 14, 50, 35, 10],
        [2, 13, 51, 34, 10],
        [1, 15, 49, 35, 10],
        [1, 14, 50, 36, 9],
    ];
    synthetic::write_sprt_run(&dir, "sp", &units, (0.0, 5.0), EloModel::Normalized).unwrap();
    // A campaign still running: nothing crosses a bound with one unit.
    synthetic::write_sprt_run(
        &dir,
        "early",
        &[[5, 20, 50, 20, 5]],
        (-5.0, 5.0),
        EloModel::Logistic,
    )
    .unwrap();
    let report = report(&dir);
    let found = matches(&report);
    assert_eq!(found.len(), 2);
    let m = found.iter().find(|m| m.id == "sp").unwrap();
    assert_eq!(m.kind, RunKind::Sprt);
    let total = units
        .iter()
        .fold(Pentanomial::default(), |a, &u| a + Pentanomial::new(u));
    assert_eq!(m.pentanomial, total);
    let outcome = m.sprt.unwrap().unwrap();
    let direct = llr(EloModel::Normalized, 0.0, 5.0, &total.into()).unwrap();
    assert!(
        direct > 2.95,
        "the synthetic units should pass: LLR {direct}"
    );
    assert_eq!(outcome.status, Status::AcceptH1);
    // The test stays where it decided: its LLR is over the pairs up to the
    // verdict, those after it are stored but not in it.
    let games = outcome.decided_after_games.unwrap();
    assert!(games <= total.games() && games > 0);
    assert_eq!(outcome.tested.games(), games);
    let at_verdict = llr(EloModel::Normalized, 0.0, 5.0, &outcome.tested.into()).unwrap();
    assert!(
        (outcome.llr - at_verdict).abs() < 1e-12,
        "{} vs {at_verdict}",
        outcome.llr
    );
    let wald = Sprt::new(SprtConfig::new(0.0, 5.0, EloModel::Normalized))
        .unwrap()
        .bounds();
    assert_eq!(outcome.bounds, wald);
    assert!(outcome.estimate.is_some());
    assert_plot(
        &m.plots,
        "sprt-sp-llr",
        "SPRT sp: LLR of [0, 5] (normalized)",
    );
    assert_plot(&m.plots, "sprt-sp-elo", "Elo of player-0 against player-1");

    let early = found.iter().find(|m| m.id == "early").unwrap();
    let outcome = early.sprt.unwrap().unwrap();
    assert_eq!(outcome.status, Status::Continue);
    assert_eq!(outcome.decided_after_games, None);
    let text = report.to_string();
    assert!(text.contains("verdict H1 accepted after"), "{text}");
    assert!(
        text.contains("verdict none: no bound crossed in "),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn piece_values_are_elo_ratios_and_the_regression_recovers_planted_values() {
    let dir = temp_dir("pv").unwrap();
    synthetic::write_piece_value_run(&dir, "pv", 3_000, 11).unwrap();
    let report = report(&dir);
    let pv: Vec<&PieceValueReport> = report
        .sections
        .iter()
        .filter_map(|s| match s {
            Section::PieceValue(p) => Some(p),
            _ => None,
        })
        .collect();
    let [pv] = pv[..] else { panic!("{report:?}") };
    assert_eq!(pv.id, "pv");
    let names: Vec<&str> = pv.parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["pawn-odds", "knight-up", "rook-up"]);
    let calibration = &pv.parts[0];
    assert!(calibration.calibration && calibration.value.is_none());
    let cal_elo = calibration.elo.unwrap().elo;
    assert!(cal_elo < 0.0, "giving pawn odds loses Elo: {cal_elo}");
    for part in &pv.parts {
        assert_eq!(part.elo, Some(part.pentanomial.elo().unwrap()));
        assert_eq!(part.pentanomial.pairs(), 3_000);
    }
    let knight = pv.parts[1].value.unwrap();
    let rook = pv.parts[2].value.unwrap();
    // The value is exactly the ratio of the Elo estimates.
    assert!((knight.value - pv.parts[1].elo.unwrap().elo / -cal_elo).abs() < 1e-12);
    assert!((rook.value - pv.parts[2].elo.unwrap().elo / -cal_elo).abs() < 1e-12);
    assert!(
        rook.value > knight.value && knight.value > 1.0,
        "{knight:?} {rook:?}"
    );
    assert!(knight.delta.contains(knight.value) && knight.fieller.unwrap().contains(knight.value));

    let reg = pv.regression.as_ref().unwrap();
    assert_eq!(reg.games, 18_000);
    let term = |kind| reg.terms.iter().find(|t| t.piece == Some(kind)).unwrap();
    let beta = |c| PLANTED.iter().find(|(l, _)| *l == c).unwrap().1;
    for (kind, letter) in [
        (PieceKind::PAWN, 'P'),
        (PieceKind::KNIGHT, 'N'),
        (PieceKind::ROOK, 'R'),
    ] {
        let t = term(kind);
        assert!(
            (t.beta - beta(letter)).abs() < 4.0 * t.std_error,
            "{letter}: {} ± {}, planted {}",
            t.beta,
            t.std_error,
            beta(letter)
        );
    }
    let knight_pawns = term(PieceKind::KNIGHT).value.unwrap();
    let rook_pawns = term(PieceKind::ROOK).value.unwrap();
    assert!((knight_pawns.value - 3.0).abs() < 0.4, "{knight_pawns:?}");
    assert!((rook_pawns.value - 5.0).abs() < 0.6, "{rook_pawns:?}");
    assert!(
        knight_pawns.fieller.unwrap().contains(3.0),
        "{knight_pawns:?}"
    );
    assert!(rook_pawns.fieller.unwrap().contains(5.0), "{rook_pawns:?}");
    assert!((term(PieceKind::PAWN).value.unwrap().value - 1.0).abs() < 1e-12);
    assert!(
        reg.dispersion < 1.0,
        "draws lower the dispersion: {}",
        reg.dispersion
    );
    assert_plot(
        &pv.plots,
        "piece-value-pv-values",
        "piece-value pv: values in pawns",
    );
    let text = report.to_string();
    assert!(text.contains("pawn-odds (calibration)"), "{text}");
    assert!(
        text.contains("regression of White's score on material"),
        "{text}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn first_move_tests_heterogeneity_and_shrinks_lucky_starts() {
    let dir = temp_dir("fm").unwrap();
    let same = vec![0.55; 40];
    // Forty starts from 0.3 to 0.8 for White.
    let spread: Vec<f64> = (0..40).map(|i| 0.3 + 0.5 * f64::from(i) / 39.0).collect();
    synthetic::write_first_move_run(&dir, "flat", &same, 100, 3).unwrap();
    synthetic::write_first_move_run(&dir, "steep", &spread, 100, 4).unwrap();
    let report = report(&dir);
    let found = first_moves(&report);
    let flat = found.iter().find(|r| r.id == "flat").unwrap();
    let steep = found.iter().find(|r| r.id == "steep").unwrap();

    let h = flat.heterogeneity.as_ref().unwrap();
    assert!(h.p_value > 0.05, "homogeneous starts: {h:?}");
    assert_eq!(h.df, 39.0);
    let h = steep.heterogeneity.as_ref().unwrap();
    assert!(h.p_value < 0.01, "heterogeneous starts: {h:?}");
    assert!(h.tau2 > 0.01);

    // Overall White score and its Elo are the trinomial's.
    let total = steep
        .starts
        .iter()
        .fold(Trinomial::default(), |a, s| a + s.counts);
    assert_eq!(steep.overall, total);
    assert_eq!(total.games(), 4_000);
    assert_eq!(steep.elo, Some(total.elo().unwrap()));
    assert!((steep.white_score - total.score().unwrap()).abs() < 1e-15);

    // Shrinkage never pushes a start away from the mean, and pulls the
    // extreme ones in.
    for r in [flat, steep] {
        let mean = r.heterogeneity.as_ref().unwrap().mean;
        for s in &r.starts {
            let shrunk = s.shrunken.unwrap().estimate;
            assert!(
                (shrunk - mean).abs() <= (s.score - mean).abs() + 1e-12,
                "{s:?}"
            );
        }
    }
    let top = &steep.starts[0];
    assert!(top.shrunken.unwrap().estimate < top.score);
    let bottom = steep.starts.last().unwrap();
    assert!(bottom.shrunken.unwrap().estimate > bottom.score);
    // With no real spread, everything shrinks (almost) to the mean.
    for s in &flat.starts {
        let f = s.shrunken.unwrap().factor;
        assert!(f < 0.5, "flat start kept {f} of its deviation");
    }
    // Ranked by shrunken score, highest first.
    let ranked: Vec<f64> = steep.starts.iter().map(|s| s.best_score()).collect();
    assert!(ranked.windows(2).all(|w| w[0] >= w[1]));

    let csv = steep
        .files
        .iter()
        .find(|p| p.extension().unwrap() == "csv")
        .unwrap();
    assert_eq!(std::fs::read_to_string(csv).unwrap().lines().count(), 41);
    assert_plot(
        &steep.files,
        "first-move-steep-starts",
        "first-move steep: White's score per start",
    );
    let text = report.to_string();
    assert!(
        text.contains("the 10 starts most favourable to White"),
        "{text}"
    );
    assert!(
        text.contains("the 10 starts most favourable to Black"),
        "{text}"
    );
    assert!(text.contains("Cochran's Q"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn spsa_trajectories_give_start_and_final_values() {
    let dir = temp_dir("spsa").unwrap();
    let params = [
        ("afc.falcon.mg", 500.0, 540.0),
        ("amrc.minister.eg", 300.0, 280.0),
    ];
    synthetic::write_spsa_run(&dir, "tune", &params, 20).unwrap();
    let report = report(&dir);
    let [Section::Spsa(s)] = &report.sections[..] else {
        panic!("{report:?}")
    };
    let s: &SpsaReport = s;
    assert_eq!(s.id, "tune");
    assert_eq!(s.games, 16);
    assert_eq!(s.updates, 20);
    assert_eq!(s.completed_pairs, 160);
    assert_eq!(s.params.len(), 2);
    assert_eq!(s.params[0].name, "afc.falcon.mg");
    assert_eq!(s.params[0].start(), Some(500.0));
    assert_eq!(s.params[0].last(), Some(540.0));
    assert_eq!(s.params[1].last(), Some(280.0));
    assert_eq!(s.params[0].points.len(), 21);
    assert_plot(
        &s.plots,
        "spsa-tune-trajectories",
        "spsa tune: parameters against completed pairs",
    );
    let text = report.to_string();
    assert!(text.contains("afc.falcon.mg"), "{text}");
    assert!(text.contains("+40.00 (+8.0%)"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn out_dir_may_be_elsewhere_and_is_never_read_back() {
    let dir = temp_dir("out").unwrap();
    synthetic::write_match_run(&dir, "m", [1, 2, 3, 2, 1]).unwrap();
    let first = report(&dir);
    // A Parquet file in the output directory is not part of the run.
    std::fs::write(dir.join("report").join("junk.parquet"), b"not parquet").unwrap();
    let second = report(&dir);
    assert_eq!(first.sections.len(), second.sections.len());
    let elsewhere = temp_dir("out-elsewhere").unwrap();
    let config = ReportConfig::new(&dir).with_out_dir(elsewhere.join("plots"));
    let third = ajaxlab_report::run(&config).unwrap();
    assert!(
        third
            .files()
            .iter()
            .all(|p| p.starts_with(elsewhere.join("plots")))
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&elsewhere);
}

#[test]
fn bad_input_is_a_typed_error_naming_the_file() {
    let empty = temp_dir("empty").unwrap();
    std::fs::write(empty.join("notes.txt"), "no games here").unwrap();
    let err = ajaxlab_report::run(&ReportConfig::new(&empty)).unwrap_err();
    assert!(
        matches!(&err, ReportError::NoParquet { path } if *path == empty),
        "{err}"
    );

    let missing = empty.join("does-not-exist");
    let err = ajaxlab_report::run(&ReportConfig::new(&missing)).unwrap_err();
    assert!(
        matches!(&err, ReportError::ListDir { path, .. } if *path == missing),
        "{err}"
    );

    let corrupt = temp_dir("corrupt").unwrap();
    synthetic::write_match_run(&corrupt, "m", [1, 2, 3, 2, 1]).unwrap();
    let bad = corrupt.join("games-00002.parquet");
    std::fs::write(&bad, b"PAR1 this is not a parquet file").unwrap();
    let err = ajaxlab_report::run(&ReportConfig::new(&corrupt)).unwrap_err();
    assert!(
        matches!(&err, ReportError::Read { path, .. } if *path == bad),
        "{err}"
    );
    assert!(err.to_string().contains("games-00002.parquet"), "{err}");

    let kind = temp_dir("kind").unwrap();
    let path = kind.join("unit-0.parquet");
    let games = synthetic::pentanomial_games("k", 0, [0, 0, 1, 0, 0]);
    let meta = synthetic::metadata(KindMetadata::Match, "k");
    let tournament = Malformed::Metadata {
        key: "ajaxlab.kind",
        value: "tournament",
    };
    synthetic::write_malformed(&path, &games, &meta, tournament).unwrap();
    let err = ajaxlab_report::run(&ReportConfig::new(&kind)).unwrap_err();
    assert!(
        matches!(&err, ReportError::Metadata { path: p, key, .. } if *p == path && key == "ajaxlab.kind"),
        "{err}"
    );

    let result = temp_dir("result").unwrap();
    let path = result.join("games-00000.parquet");
    let games = synthetic::pentanomial_games("r", 0, [0, 0, 1, 0, 0]);
    let unfinished = Malformed::Column {
        name: "result",
        values: &["1/2-1/2", "*"],
    };
    synthetic::write_malformed(&path, &games, &Default::default(), unfinished).unwrap();
    let err = ajaxlab_report::run(&ReportConfig::new(&result)).unwrap_err();
    assert!(
        matches!(&err, ReportError::Game { path: p, game_id: 1, .. } if *p == path),
        "{err}"
    );

    let sprt = temp_dir("sprt-meta").unwrap();
    let path = sprt.join("unit-0.parquet");
    let meta = synthetic::sprt_metadata("s", 0.0, 5.0, EloModel::Normalized);
    let reversed = Malformed::Metadata {
        key: "ajaxlab.sprt",
        value: r#"{"elo0":5,"elo1":0}"#,
    };
    synthetic::write_malformed(&path, &games[..0], &meta, reversed).unwrap();
    let err = ajaxlab_report::run(&ReportConfig::new(&sprt)).unwrap_err();
    assert!(
        matches!(&err, ReportError::Metadata { path: p, .. } if *p == path),
        "{err}"
    );

    let dup = temp_dir("dup").unwrap();
    let games = synthetic::pentanomial_games("d", 0, [0, 0, 1, 0, 0]);
    synthetic::write(
        &dup.join("games-00000.parquet"),
        &games,
        &Default::default(),
    )
    .unwrap();
    synthetic::write(
        &dup.join("games-00001.parquet"),
        &games,
        &Default::default(),
    )
    .unwrap();
    let err = ajaxlab_report::run(&ReportConfig::new(&dup)).unwrap_err();
    assert!(matches!(&err, ReportError::DuplicateGame { .. }), "{err}");
    assert!(
        err.to_string().contains("games-00000.parquet")
            && err.to_string().contains("games-00001.parquet"),
        "{err}"
    );

    let spsa = temp_dir("spsa-bad").unwrap();
    let path = spsa.join("spsa.parquet");
    let games = synthetic::pentanomial_games("x", 0, [0, 0, 1, 0, 0]);
    // A games file is not a trajectory.
    synthetic::write(&path, &games, &Default::default()).unwrap();
    let err = ajaxlab_report::run(&ReportConfig::new(&spsa)).unwrap_err();
    assert!(
        matches!(&err, ReportError::Spsa { path: p, problem } if *p == path && problem.contains("'seq'")),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&empty);
    let _ = std::fs::remove_dir_all(&corrupt);
    let _ = std::fs::remove_dir_all(&kind);
    let _ = std::fs::remove_dir_all(&result);
    let _ = std::fs::remove_dir_all(&sprt);
    let _ = std::fs::remove_dir_all(&dup);
    let _ = std::fs::remove_dir_all(&spsa);
}
