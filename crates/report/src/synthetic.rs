//! Synthetic run directories for tests (feature `test-support`): game
//! records with chosen or simulated results and the metadata of each kind
//! of run, written with the store's own Parquet writer, `spsa.parquet`
//! trajectories, and files no writer of ajaxlab makes (for tests of
//! malformed input).
//!
//! Games are orthodox chess from the standard array (piece-value games
//! carry their imbalance in `start_fen`); player 0 is `player-0`, White in
//! even games; game `i` ends at `BASE_TIME_MS + 1000·i`.

use ajaxlab_rules::{GameResult, VariantKind};
use ajaxlab_stats::{EloModel, RandomSource, SplitMix64, logistic};
use ajaxlab_store::games::record_batch;
use ajaxlab_store::{
    FileMetadata, GameRecord, KindMetadata, MoveRecord, PartMetadata, PlayerRecord, SprtMetadata,
    StoreError, Termination, TrajectoryRow, write_games, write_trajectory,
};
use arrow_array::{RecordBatch, StringArray};
use std::path::Path;
use std::sync::Arc;

/// The standard chess array.
pub const CHESS_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// `ended_at` of game 0.
pub const BASE_TIME_MS: i64 = 1_700_000_000_000;

/// White's result when player 0 scores `half_points` (0, 1 or 2) in game `game_id`.
#[must_use]
pub fn result_for_white(half_points: usize, game_id: u64) -> GameResult {
    let white = if game_id.is_multiple_of(2) {
        half_points
    } else {
        2_usize.saturating_sub(half_points)
    };
    match white {
        0 => GameResult::BlackWins,
        1 => GameResult::Draw,
        _ => GameResult::WhiteWins,
    }
}

/// A game of run `run_id` from the chess start with White's `result`.
#[must_use]
pub fn game(run_id: &str, game_id: u64, result: GameResult) -> GameRecord {
    let player = |name: &str| PlayerRecord {
        name: name.to_owned(),
        version: "synthetic".to_owned(),
        params: Vec::new(),
        options: Vec::new(),
    };
    let (white, black) = if game_id.is_multiple_of(2) {
        (player("player-0"), player("player-1"))
    } else {
        (player("player-1"), player("player-0"))
    };
    let ms = i64::try_from(game_id).unwrap_or(i64::MAX / 2_000) * 1_000;
    GameRecord {
        run_id: run_id.to_owned(),
        game_id,
        pair_id: game_id / 2,
        variant: VariantKind::Chess.variant(),
        start_number: None,
        start_fen: CHESS_FEN.to_owned(),
        opening_moves: Vec::new(),
        seed: game_id,
        white,
        black,
        time_control: "nodes=1000".to_owned(),
        result,
        termination: Termination::AdjudicatedDraw,
        moves: vec![MoveRecord {
            uci: "e2e4".to_owned(),
            score: Some(20),
            depth: Some(5),
            nodes: Some(1_000),
            time_ms: 1,
        }],
        final_fen: CHESS_FEN.to_owned(),
        started_at_ms: BASE_TIME_MS + ms - 500,
        ended_at_ms: BASE_TIME_MS + ms,
    }
}

/// Player 0's points in the two games of a pair scoring `half_points`
/// (0..=4) over the pair: LL, LD, DD, WD, WW.
const fn split(half_points: usize) -> (usize, usize) {
    match half_points {
        0 => (0, 0),
        1 => (0, 1),
        2 => (1, 1),
        3 => (2, 1),
        _ => (2, 2),
    }
}

/// The two games of pair `pair` in which player 0 scores `half_points`.
#[must_use]
pub fn pair(run_id: &str, pair: u64, half_points: usize) -> [GameRecord; 2] {
    let (a, b) = split(half_points);
    let (even, odd) = (2 * pair, 2 * pair + 1);
    [
        game(run_id, even, result_for_white(a, even)),
        game(run_id, odd, result_for_white(b, odd)),
    ]
}

/// Pairs `first_pair, first_pair + 1, …` realising the pentanomial
/// `counts`, the buckets interleaved so that running estimates move.
#[must_use]
pub fn pentanomial_games(run_id: &str, first_pair: u64, counts: [u64; 5]) -> Vec<GameRecord> {
    let mut left = counts;
    let mut games = Vec::new();
    let mut next = first_pair;
    while left.iter().any(|&n| n > 0) {
        for (bucket, n) in left.iter_mut().enumerate() {
            if *n > 0 {
                *n -= 1;
                games.extend(pair(run_id, next, bucket));
                next += 1;
            }
        }
    }
    games
}

/// Metadata of a campaign file of `kind` with campaign id `campaign`
/// (none if `campaign` is no campaign id).
#[must_use]
pub fn metadata(kind: KindMetadata, campaign: &str) -> FileMetadata {
    FileMetadata {
        kind: Some(kind),
        campaign: campaign.parse().ok(),
        ..FileMetadata::default()
    }
}

/// Metadata of an SPRT campaign's file.
#[must_use]
pub fn sprt_metadata(campaign: &str, elo0: f64, elo1: f64, model: EloModel) -> FileMetadata {
    let sprt = SprtMetadata {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
        model,
    };
    metadata(KindMetadata::Sprt(sprt), campaign)
}

/// Metadata of a piece-value part `part` of campaign `campaign`.
#[must_use]
pub fn part_metadata(campaign: &str, part: &str, calibration: bool) -> FileMetadata {
    let part_metadata = PartMetadata {
        name: Some(part.to_owned()),
        calibration,
    };
    metadata(
        KindMetadata::PieceValue(part_metadata),
        &format!("{campaign}.{part}"),
    )
}

fn create_parent(path: &Path) -> Result<(), StoreError> {
    match path.parent() {
        Some(dir) => std::fs::create_dir_all(dir).map_err(|source| StoreError::Io {
            path: dir.to_path_buf(),
            source,
        }),
        None => Ok(()),
    }
}

/// Writes `games` to `path` (creating its directory) with `metadata`.
///
/// # Errors
///
/// [`StoreError`] if the file cannot be written.
pub fn write(path: &Path, games: &[GameRecord], metadata: &FileMetadata) -> Result<(), StoreError> {
    create_parent(path)?;
    write_games(path, games, metadata)
}

/// What makes a file of [`write_malformed`] malformed.
#[derive(Clone, Copy, Debug)]
pub enum Malformed<'a> {
    /// The metadata entry `key` is set to `value`.
    Metadata {
        /// The key.
        key: &'a str,
        /// Its text.
        value: &'a str,
    },
    /// The text column `name` holds `values`, one per game.
    Column {
        /// The column.
        name: &'a str,
        /// Its values.
        values: &'a [&'a str],
    },
}

/// Writes `games` like [`write`], but `malformed`: a file that no writer
/// of ajaxlab makes, as a reader may still meet one.
///
/// # Errors
///
/// [`StoreError`] if the file cannot be written, or Arrow refuses the change
/// (an unknown column, or as many values as games).
pub fn write_malformed(
    path: &Path,
    games: &[GameRecord],
    metadata: &FileMetadata,
    malformed: Malformed<'_>,
) -> Result<(), StoreError> {
    let format = |e: arrow_schema::ArrowError| StoreError::Format {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let batch = record_batch(games, metadata).map_err(format)?;
    let schema = batch.schema();
    let batch = match malformed {
        Malformed::Metadata { key, value } => {
            let mut entries = schema.metadata().clone();
            entries.insert(key.to_owned(), value.to_owned());
            let schema = Arc::new(schema.as_ref().clone().with_metadata(entries));
            RecordBatch::try_new(schema, batch.columns().to_vec()).map_err(format)?
        }
        Malformed::Column { name, values } => {
            let index = schema.index_of(name).map_err(format)?;
            let mut columns = batch.columns().to_vec();
            columns[index] = Arc::new(StringArray::from(values.to_vec()));
            RecordBatch::try_new(schema, columns).map_err(format)?
        }
    };
    create_parent(path)?;
    ajaxlab_store::atomic::write_batch(path, &batch)
}

/// A trinomial result with White scoring `p` on average and drawing
/// `draw_share` of the probability that the weaker side would otherwise
/// get (so the mean stays `p`).
pub fn simulate_result(rng: &mut impl RandomSource, p: f64, draw_share: f64) -> GameResult {
    let draw = 2.0 * draw_share * p.min(1.0 - p);
    let u = rng.next_f64();
    if u < p - draw / 2.0 {
        GameResult::WhiteWins
    } else if u < p + draw / 2.0 {
        GameResult::Draw
    } else {
        GameResult::BlackWins
    }
}

/// Removes `count` pieces `letter` (FEN case) from a FEN's board, scanning
/// from its start.
#[must_use]
pub fn remove_pieces(fen: &str, letter: char, count: usize) -> String {
    let mut left = count;
    fen.chars()
        .map(|c| {
            if c == letter && left > 0 {
                left -= 1;
                '1'
            } else {
                c
            }
        })
        .collect()
}

/// A simulated piece-value part: `pairs` pairs in which player 0's side
/// lacks `player0_missing` and player 1's side lacks `player1_missing`
/// (upper-case letters), White's expected score being
/// `logistic(intercept + Σ β·(White − Black material))` with `betas` per
/// upper-case letter.
#[must_use]
pub fn simulated_imbalance(
    run_id: &str,
    pairs: u64,
    player0_missing: &[char],
    player1_missing: &[char],
    intercept: f64,
    betas: &[(char, f64)],
    seed: u64,
) -> Vec<GameRecord> {
    let mut rng = SplitMix64::new(seed);
    let beta = |letter: char| {
        betas
            .iter()
            .find(|(l, _)| *l == letter)
            .map_or(0.0, |(_, b)| *b)
    };
    // Player 0 as White: White lacks player 0's pieces, Black player 1's.
    let edit = |white_missing: &[char], black_missing: &[char]| {
        let mut fen = CHESS_FEN.to_owned();
        for &c in white_missing {
            fen = remove_pieces(&fen, c, 1);
        }
        for &c in black_missing {
            fen = remove_pieces(&fen, c.to_ascii_lowercase(), 1);
        }
        let eta = intercept - white_missing.iter().map(|&c| beta(c)).sum::<f64>()
            + black_missing.iter().map(|&c| beta(c)).sum::<f64>();
        (fen, logistic(eta))
    };
    let even = edit(player0_missing, player1_missing);
    let odd = edit(player1_missing, player0_missing);
    let mut games = Vec::new();
    for k in 0..pairs {
        for (game_id, (fen, p)) in [(2 * k, &even), (2 * k + 1, &odd)] {
            let mut g = game(run_id, game_id, simulate_result(&mut rng, *p, 0.5));
            g.start_fen.clone_from(fen);
            games.push(g);
        }
    }
    games
}

/// Self-play games from numbered starts: `games_per_start` games from each
/// start `i`, White scoring `white_scores[i]` on average.
#[must_use]
pub fn simulated_starts(
    run_id: &str,
    white_scores: &[f64],
    games_per_start: u64,
    seed: u64,
) -> Vec<GameRecord> {
    let mut rng = SplitMix64::new(seed);
    let mut games = Vec::new();
    let mut id = 0;
    for (start, &p) in (0_u32..).zip(white_scores) {
        for _ in 0..games_per_start {
            let mut g = game(run_id, id, simulate_result(&mut rng, p, 0.5));
            g.start_number = Some(start);
            g.white.name = "self".to_owned();
            g.black.name = "self".to_owned();
            games.push(g);
            id += 1;
        }
    }
    games
}

/// A simulated SPSA trajectory: `updates` updates of 8 pairs each, every
/// parameter moving linearly from its start to its end value.
#[must_use]
pub fn spsa_trajectory(params: &[(&str, f64, f64)], updates: u64) -> Vec<TrajectoryRow> {
    let mut rows = Vec::new();
    for seq in 0..=updates {
        // seq ≤ updates, both small: the ratio is exact enough.
        let t = seq as f64 / updates.max(1) as f64;
        for &(name, start, end) in params {
            rows.push(TrajectoryRow {
                seq,
                completed_pairs: 8 * seq,
                unit_id: if seq == 0 {
                    String::new()
                } else {
                    format!("unit-{seq}")
                },
                param: name.to_owned(),
                value: start + t * (end - start),
            });
        }
    }
    rows
}

/// A fresh empty directory under the system's temporary directory, unique
/// per process and call.
///
/// # Errors
///
/// If the directory cannot be created.
pub fn temp_dir(tag: &str) -> std::io::Result<std::path::PathBuf> {
    use std::sync::atomic::{AtomicU32, Ordering};
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "ajaxlab-report-{}-{tag}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// An `ajaxlab match` run `run_id` in `dir`: the pentanomial `counts`
/// split over two files `games-00000.parquet` and `games-00001.parquet`,
/// without campaign metadata.
///
/// # Errors
///
/// [`StoreError`] if a file cannot be written.
pub fn write_match_run(dir: &Path, run_id: &str, counts: [u64; 5]) -> Result<(), StoreError> {
    let games = pentanomial_games(run_id, 0, counts);
    let half = (games.len() / 4) * 2;
    let none = FileMetadata::default();
    write(&dir.join("games-00000.parquet"), &games[..half], &none)?;
    write(&dir.join("games-00001.parquet"), &games[half..], &none)
}

/// An SPRT campaign `id` in `dir/id/`: one unit file per pentanomial of
/// `units`, numbered on.
///
/// # Errors
///
/// [`StoreError`] if a file cannot be written.
pub fn write_sprt_run(
    dir: &Path,
    id: &str,
    units: &[[u64; 5]],
    bounds: (f64, f64),
    model: EloModel,
) -> Result<(), StoreError> {
    let meta = sprt_metadata(id, bounds.0, bounds.1, model);
    let mut next_pair = 0;
    for (i, counts) in units.iter().enumerate() {
        let mut games = pentanomial_games(id, next_pair, *counts);
        next_pair += counts.iter().sum::<u64>();
        // Each unit ends after the previous one.
        let shift = i64::try_from(i).unwrap_or(0) * 1_000_000_000;
        for g in &mut games {
            g.ended_at_ms += shift;
        }
        write(
            &dir.join(id).join(format!("unit-{i:05}.parquet")),
            &games,
            &meta,
        )?;
    }
    Ok(())
}

/// Planted logistic coefficients of the simulated piece-value campaign:
/// White's edge, and logits per pawn, knight and rook (3 and 5 pawns).
pub const PLANTED: [(char, f64); 3] = [('P', 0.4), ('N', 1.2), ('R', 2.0)];

/// White's planted edge in logits.
pub const PLANTED_INTERCEPT: f64 = 0.1;

/// A piece-value campaign `id` in `dir/id/`: a pawn-odds calibration part
/// (player 0 without a pawn) and parts `knight-up` and `rook-up` (player 1
/// without a knight, a rook), `pairs` pairs each, results simulated from
/// [`PLANTED`].
///
/// # Errors
///
/// [`StoreError`] if a file cannot be written.
pub fn write_piece_value_run(
    dir: &Path,
    id: &str,
    pairs: u64,
    seed: u64,
) -> Result<(), StoreError> {
    let parts: [(&str, &[char], &[char], bool); 3] = [
        ("pawn-odds", &['P'], &[], true),
        ("knight-up", &[], &['N'], false),
        ("rook-up", &[], &['R'], false),
    ];
    for (i, (name, first, second, calibration)) in (0_u64..).zip(parts) {
        let run = format!("{id}.{name}");
        let games = simulated_imbalance(
            &run,
            pairs,
            first,
            second,
            PLANTED_INTERCEPT,
            &PLANTED,
            seed + i,
        );
        let meta = part_metadata(id, name, calibration);
        write(
            &dir.join(id).join(name).join("unit-00000.parquet"),
            &games,
            &meta,
        )?;
    }
    Ok(())
}

/// A first-move campaign `id` in `dir/id/`, one unit file.
///
/// # Errors
///
/// [`StoreError`] if a file cannot be written.
pub fn write_first_move_run(
    dir: &Path,
    id: &str,
    white_scores: &[f64],
    games_per_start: u64,
    seed: u64,
) -> Result<(), StoreError> {
    let games = simulated_starts(id, white_scores, games_per_start, seed);
    write(
        &dir.join(id).join("unit-00000.parquet"),
        &games,
        &metadata(KindMetadata::FirstMove, id),
    )
}

/// An SPSA campaign `id` in `dir/id/`: one unit of 8 pairs and the
/// trajectory [`spsa_trajectory`] of `params` over `updates` updates.
///
/// # Errors
///
/// [`StoreError`] if a file cannot be written.
pub fn write_spsa_run(
    dir: &Path,
    id: &str,
    params: &[(&str, f64, f64)],
    updates: u64,
) -> Result<(), StoreError> {
    let games = pentanomial_games(id, 0, [1, 2, 2, 2, 1]);
    write(
        &dir.join(id).join("unit-00000.parquet"),
        &games,
        &metadata(KindMetadata::Spsa, id),
    )?;
    write_trajectory(
        &dir.join(id).join(crate::SPSA_FILE),
        &spsa_trajectory(params, updates),
    )
}
