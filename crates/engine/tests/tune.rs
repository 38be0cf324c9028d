//! The Texel tuner on planted data: positions from random play whose
//! results are drawn from the logistic of a known evaluation, so the true
//! parameter values are known and a mis-set one must move back.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

use ajaxlab_engine::Params;
use ajaxlab_engine::tune::{
    DataSet, OptionViolation, SampleOptions, Selection, TrainingGame, TrainingMove, TuneError,
    TuneOptions, expected_score, tune,
};
use ajaxlab_rules::{Color, Position, Variant, VariantKind, VariantSet};
use std::num::NonZeroUsize;

const CHESS: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// SplitMix64, for the test's own draws.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// `count` one-move "games" from quiet positions reached by 10 to 49
/// random plies, each scored by a draw from `σ(K·e/400)` of the evaluation under
/// `truth` with `K = 1`; the move carries that evaluation as its score.
fn planted_games(count: usize, seed: u64, truth: &Params) -> Vec<TrainingGame> {
    planted_games_of(VariantKind::Chess.variant(), CHESS, count, seed, truth)
}

/// [`planted_games`] of `variant` from `start`.
fn planted_games_of(
    variant: &'static Variant,
    start: &str,
    count: usize,
    seed: u64,
    truth: &Params,
) -> Vec<TrainingGame> {
    let truth = ajaxlab_engine::Evaluator::new(variant, truth);
    let mut rng = Rng(seed);
    let mut games = Vec::new();
    while games.len() < count {
        let mut pos = Position::from_fen_in(variant, start).unwrap();
        let plies = 10 + rng.next() % 40;
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let pick = moves[(rng.next() % moves.len() as u64) as usize];
            pos.play(pick).unwrap();
        }
        let moves = pos.legal_moves();
        let Some(&first) = moves.first() else {
            continue;
        };
        if !truth.is_quiet(&pos) {
            continue;
        }
        let e = truth.evaluate(&pos);
        let white = if pos.side_to_move() == Color::White {
            e
        } else {
            -e
        };
        let p = expected_score(1.0, f64::from(white));
        let white_score = if rng.unit() < p { 1.0 } else { 0.0 };
        games.push(TrainingGame {
            label: format!("planted {}", games.len()),
            variant,
            start_fen: pos.fen(),
            moves: vec![TrainingMove {
                uci: pos.uci(first).to_string(),
                score: Some(e),
            }],
            white_score,
        });
    }
    games
}

fn sample_options() -> SampleOptions {
    SampleOptions {
        skip_plies: 0,
        max_positions: 100_000,
        holdout: 0.2,
        seed: 7,
    }
}

fn options(names: &[&str], iterations: usize) -> TuneOptions {
    TuneOptions {
        selection: Selection::Names(names.iter().map(|&n| n.to_owned()).collect()),
        iterations,
        lambda: 0.0,
        learning_rate: 0.02,
        regularisation: 0.0,
        threads: NonZeroUsize::new(2).unwrap(),
    }
}

#[test]
fn a_mis_set_piece_value_moves_back_and_the_held_out_loss_falls() {
    let games = planted_games(8000, 11, &Params::default());
    let mut start = Params::default();
    start.set("chess.knight.mg", 500).unwrap();
    let data = DataSet::from_games(&games, &start, &sample_options()).unwrap();
    assert!(data.train_len() >= 1000, "{} positions", data.train_len());
    assert!(data.holdout_len() >= 200, "{} held out", data.holdout_len());
    let mut steps = 0;
    let report = tune(
        &data,
        &start,
        &options(&["chess.knight.mg", "chess.rook.mg"], 50),
        &mut |p| {
            steps = p.iteration;
            assert!(p.loss.is_finite());
        },
    )
    .unwrap();
    assert_eq!(steps, 50);
    let knight = report.params.chess_knight_mg;
    assert!(
        (knight - 325).abs() < (500 - 325) / 2,
        "knight {knight}, from 500 towards 325 (K {:.3})",
        report.k
    );
    let holdout = report.holdout.unwrap();
    assert!(holdout.after < holdout.before, "held-out loss {holdout:?}");
    assert!(
        report.train.after < report.train.before,
        "{:?}",
        report.train
    );
    let fitted: Vec<&str> = report.fitted.iter().map(|c| c.name).collect();
    assert_eq!(fitted, ["chess.knight.mg", "chess.rook.mg"]);
    assert_eq!(report.fitted[0].before, 500);
    assert_eq!(report.fitted[0].after, knight);
}

/// A table's entry `name`, mis-set by 150 on planted data (drawn with
/// `seed`), is fitted on its exact gradient with every entry named from
/// `prefix` (`entries` of them): it moves back towards its true value and
/// the held-out loss falls.
fn a_mis_set_table_entry_moves_back(name: &str, prefix: &str, seed: u64, entries: usize) {
    let truth = Params::default().get(name).unwrap();
    let games = planted_games(8000, seed, &Params::default());
    let mut start = Params::default();
    start.set(name, i64::from(truth) + 150).unwrap();
    let data = DataSet::from_games(&games, &start, &sample_options()).unwrap();
    let mut opts = options(&[], 50);
    opts.selection = Selection::Prefix(prefix.to_owned());
    let report = tune(&data, &start, &opts, &mut |_| {}).unwrap();
    let fitted = report.params.get(name).unwrap();
    assert!(
        (fitted - truth).abs() < 150 / 2,
        "{name} {fitted}, from {} towards {truth}",
        truth + 150
    );
    assert_eq!(report.fitted.len(), entries, "the entries of {prefix}");
    let holdout = report.holdout.unwrap();
    assert!(holdout.after < holdout.before, "held-out loss {holdout:?}");
}

/// Chess's square tables are fitted on their exact gradient, all of a
/// piece's entries at once (a pawn's: ranks 2 to 7, both phases).
#[test]
fn a_mis_set_square_entry_moves_back() {
    a_mis_set_table_entry_moves_back("chess.square.pawn.e2.mg", "chess.square.pawn.", 16, 2 * 48);
}

/// Chess's mobility tables are fitted on the same exact gradient (a
/// knight's: 0 to 8 squares, both phases).
#[test]
fn a_mis_set_mobility_entry_moves_back() {
    a_mis_set_table_entry_moves_back(
        "chess.mobility.knight.5.mg",
        "chess.mobility.knight.",
        17,
        2 * 9,
    );
}

/// A variant of a user's file: its pieces' values are parameters of their
/// own (`squirrel.s.mg`), which the tuner fits as it fits chess's.
#[test]
fn a_file_variant_s_mis_set_piece_value_moves_back() {
    let text = include_str!("../../../configs/designer/squirrel.ini");
    let set = VariantSet::with_text("squirrel.ini", text).unwrap();
    let squirrel = set.find("squirrel").unwrap();
    let start_fen = "rsbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RSBQKBNR w KQkq - 0 1";
    let truth = Params::default().get("squirrel.s.mg").unwrap();
    let games = planted_games_of(squirrel, start_fen, 8000, 15, &Params::default());
    let mut start = Params::default();
    start.set("squirrel.s.mg", i64::from(truth) + 250).unwrap();
    let data = DataSet::from_games(&games, &start, &sample_options()).unwrap();
    let report = tune(&data, &start, &options(&["squirrel.s.mg"], 50), &mut |_| {}).unwrap();
    let fitted = report.params.get("squirrel.s.mg").unwrap();
    assert!(
        (fitted - truth).abs() < 250 / 2,
        "squirrel {fitted}, from {} towards {truth}",
        truth + 250
    );
    let names: Vec<&str> = report.fitted.iter().map(|c| c.name).collect();
    assert_eq!(names, ["squirrel.s.mg"]);
    // Chess's knight is not the Squirrel variant's.
    let err = tune(
        &data,
        &start,
        &options(&["chess.knight.mg"], 1),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(&err, TuneError::NotEvaluation { .. }), "{err}");
}

#[test]
fn steps_stay_inside_the_range() {
    // The truth sits at the knight's maximum and the steps are large: the
    // first one would carry it far past 600 without the clamp.
    let mut truth = Params::default();
    truth.set("chess.knight.mg", 600).unwrap();
    let games = planted_games(2000, 12, &truth);
    let mut start = Params::default();
    start.set("chess.knight.mg", 500).unwrap();
    let mut sample = sample_options();
    sample.holdout = 0.0;
    let data = DataSet::from_games(&games, &start, &sample).unwrap();
    assert_eq!(data.holdout_len(), 0);
    let mut opts = options(&["chess.knight.mg"], 10);
    opts.learning_rate = 0.3;
    let report = tune(&data, &start, &opts, &mut |_| {}).unwrap();
    let knight = report.params.chess_knight_mg;
    assert!(
        (501..=600).contains(&knight),
        "moved up from 500, inside the range: {knight}"
    );
    assert!(report.holdout.is_none());
}

#[test]
fn an_unknown_parameter_is_named() {
    let games = planted_games(50, 13, &Params::default());
    let mut sample = sample_options();
    sample.holdout = 0.0;
    let data = DataSet::from_games(&games, &Params::default(), &sample).unwrap();
    let err = tune(
        &data,
        &Params::default(),
        &options(&["chess.dragon.mg"], 1),
        &mut |_| {},
    )
    .unwrap_err();
    assert!(matches!(&err, TuneError::UnknownParameter(n) if n == "chess.dragon.mg"));
    assert!(err.to_string().contains("chess.dragon.mg"), "{err}");
    // A real parameter that the evaluation of chess never reads.
    for name in ["search.aspiration", "afc.falcon.mg"] {
        let err = tune(&data, &Params::default(), &options(&[name], 1), &mut |_| {}).unwrap_err();
        assert!(matches!(&err, TuneError::NotEvaluation { name: n, .. } if n == name));
        assert!(err.to_string().contains(name), "{err}");
    }
    let mut prefix = options(&[], 1);
    prefix.selection = Selection::Prefix("amrc.".into());
    let err = tune(&data, &Params::default(), &prefix, &mut |_| {}).unwrap_err();
    assert!(err.to_string().contains("'amrc.'"), "{err}");
}

#[test]
fn an_empty_data_set_is_an_error() {
    let games = planted_games(20, 14, &Params::default());
    let mut sample = sample_options();
    sample.skip_plies = 5;
    let err = DataSet::from_games(&games, &Params::default(), &sample).unwrap_err();
    assert!(
        matches!(
            err,
            TuneError::EmptyDataSet {
                games: 20,
                skip_plies: 5
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("empty data set"), "{err}");
    let err = DataSet::from_games(&[], &Params::default(), &sample_options()).unwrap_err();
    assert!(
        matches!(err, TuneError::EmptyDataSet { games: 0, .. }),
        "{err}"
    );
}

#[test]
fn a_bad_move_or_start_names_the_game() {
    let mut games = planted_games(3, 15, &Params::default());
    games[1].moves[0].uci = "a1a8".into();
    let err = DataSet::from_games(&games, &Params::default(), &sample_options()).unwrap_err();
    assert!(
        matches!(&err, TuneError::Move { game, ply: 1, uci, .. } if game == "planted 1" && uci == "a1a8"),
        "{err}"
    );
    games[1].start_fen = "not a fen".into();
    let err = DataSet::from_games(&games, &Params::default(), &sample_options()).unwrap_err();
    assert!(
        err.to_string().starts_with("planted 1: start position"),
        "{err}"
    );
}

#[test]
fn every_bad_option_is_reported_at_once() {
    let games = planted_games(50, 16, &Params::default());
    let mut sample = sample_options();
    sample.holdout = 1.5;
    sample.max_positions = 0;
    let err = DataSet::from_games(&games, &Params::default(), &sample).unwrap_err();
    assert!(
        matches!(&err, TuneError::Options(v) if *v == [OptionViolation::Holdout(1.5), OptionViolation::MaxPositions]),
        "{err}"
    );
    sample = sample_options();
    sample.holdout = 0.0;
    let data = DataSet::from_games(&games, &Params::default(), &sample).unwrap();
    let mut opts = options(&["chess.knight.mg"], 0);
    opts.lambda = 2.0;
    opts.learning_rate = -1.0;
    let err = tune(&data, &Params::default(), &opts, &mut |_| {}).unwrap_err();
    let TuneError::Options(v) = err else {
        panic!("{err}")
    };
    assert_eq!(
        v,
        [
            OptionViolation::Lambda(2.0),
            OptionViolation::LearningRate(-1.0),
            OptionViolation::Iterations
        ]
    );
}

#[test]
fn the_stored_score_blends_into_the_target() {
    // With λ = 1 the target is the stored score alone (the true
    // evaluation): it pulls the knight back as the results do.
    let games = planted_games(1500, 17, &Params::default());
    let mut start = Params::default();
    start.set("chess.knight.mg", 450).unwrap();
    let data = DataSet::from_games(&games, &start, &sample_options()).unwrap();
    let mut opts = options(&["chess.knight.mg"], 40);
    opts.lambda = 1.0;
    let report = tune(&data, &start, &opts, &mut |_| {}).unwrap();
    let knight = report.params.chess_knight_mg;
    assert!(
        (knight - 325).abs() < 50,
        "knight {knight} (K {:.3})",
        report.k
    );
    let holdout = report.holdout.unwrap();
    assert!(holdout.after < holdout.before, "{holdout:?}");
}
