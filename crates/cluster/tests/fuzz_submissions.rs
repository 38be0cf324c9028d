//! Submissions a worker could send, fuzzed: honest games of a unit with
//! their fields mutated, and arbitrary bytes decoded as the wire message.
//! The coordinator answers each with a status or a refusal, never a panic,
//! and what it accepts it counts once. `PROPTEST_CASES` sets the number of
//! cases (README "Tests" gives the long run).

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::{Coordinator, Lease, Submitted, TokenHash, WorkerKey};
use ajaxlab_proto::codec::DecodeBudget;
use ajaxlab_proto::v1;
use common::{campaign_id, play, temp_dir};
use proptest::prelude::*;
use prost::Message;
use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::Duration;

const CAMPAIGN: &str = r#"
variant = "ajax-falcon"
games = 4
tc = "nodes=150"
[campaign]
name = "fuzz"
[adjudication]
max_plies = 12
resign_score = 400
draw_score = 20
draw_after_move = 2
"#;

/// A fresh coordinator with the campaign, its worker, and the unit it
/// leased; its state directory is removed when it is dropped.
struct Leased {
    c: Coordinator,
    w: WorkerKey,
    unit: v1::WorkUnit,
    dir: PathBuf,
}

impl Drop for Leased {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn leased() -> Leased {
    let dir = temp_dir("fuzz-submit");
    let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    c.create_campaign(CAMPAIGN).unwrap();
    let w = c
        .register(&TokenHash::of("fuzz"), "fuzz", "test", 1, 7)
        .unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    Leased { c, w, unit, dir }
}

/// The honest games of the first unit (the same unit in every fresh coordinator).
fn honest() -> &'static [v1::GameRecord] {
    static GAMES: OnceLock<Vec<v1::GameRecord>> = OnceLock::new();
    GAMES.get_or_init(|| play(&leased().unit))
}

/// One change a hostile or broken worker might make to a game.
#[derive(Clone, Debug)]
enum Mutation {
    GameId(u64),
    PairId(u64),
    StartNumber(Option<u32>),
    Seed(u64),
    StartFen(String),
    OpeningMoves(Vec<String>),
    Name(String),
    Version(String),
    Params(Vec<i32>),
    Result(i32),
    Termination(i32),
    MoveText(usize, String),
    Score(usize, Option<i32>),
    Drop(usize),
    Repeat(usize),
    FinalFen(String),
    Times(i64, i64),
    TimeControl(Option<u64>),
}

fn mutation() -> impl Strategy<Value = Mutation> {
    let index = 0usize..64;
    prop_oneof![
        any::<u64>().prop_map(Mutation::GameId),
        any::<u64>().prop_map(Mutation::PairId),
        any::<Option<u32>>().prop_map(Mutation::StartNumber),
        any::<u64>().prop_map(Mutation::Seed),
        "\\PC{0,80}".prop_map(Mutation::StartFen),
        prop::collection::vec("[a-j][0-9]{1,2}[a-j][0-9]{1,2}[a-z@]?", 0..4)
            .prop_map(Mutation::OpeningMoves),
        "\\PC{0,40}".prop_map(Mutation::Name),
        "\\PC{0,200}".prop_map(Mutation::Version),
        prop::collection::vec(any::<i32>(), 0..8).prop_map(Mutation::Params),
        any::<i32>().prop_map(Mutation::Result),
        any::<i32>().prop_map(Mutation::Termination),
        (index.clone(), "[a-j@A-Z][0-9]{0,2}[a-j]?[0-9]{0,2}[a-z]?")
            .prop_map(|(i, t)| Mutation::MoveText(i, t)),
        (
            index.clone(),
            prop_oneof![
                Just(Some(i32::MIN)),
                Just(Some(i32::MAX)),
                any::<Option<i32>>()
            ]
        )
            .prop_map(|(i, s)| Mutation::Score(i, s)),
        index.clone().prop_map(Mutation::Drop),
        index.prop_map(Mutation::Repeat),
        "\\PC{0,80}".prop_map(Mutation::FinalFen),
        (any::<i64>(), any::<i64>()).prop_map(|(a, b)| Mutation::Times(a, b)),
        any::<Option<u64>>().prop_map(Mutation::TimeControl),
    ]
}

fn apply(g: &mut v1::GameRecord, m: &Mutation) {
    let at = |len: usize, i: usize| if len == 0 { None } else { Some(i % len) };
    match m {
        Mutation::GameId(v) => g.game_id = *v,
        Mutation::PairId(v) => g.pair_id = *v,
        Mutation::StartNumber(v) => g.start_number = *v,
        Mutation::Seed(v) => g.seed = *v,
        Mutation::StartFen(v) => g.start_fen.clone_from(v),
        Mutation::OpeningMoves(v) => g.opening_moves.clone_from(v),
        Mutation::Name(v) => g.white_name.clone_from(v),
        Mutation::Version(v) => g.black_version.clone_from(v),
        Mutation::Params(v) => g.white_params.clone_from(v),
        Mutation::Result(v) => g.result = *v,
        Mutation::Termination(v) => g.termination = *v,
        Mutation::MoveText(i, t) => {
            if let Some(i) = at(g.moves.len(), *i) {
                g.moves[i].uci.clone_from(t);
            }
        }
        Mutation::Score(i, s) => {
            if let Some(i) = at(g.moves.len(), *i) {
                g.moves[i].score = *s;
            }
        }
        Mutation::Drop(i) => {
            if let Some(i) = at(g.moves.len(), *i) {
                g.moves.remove(i);
            }
        }
        Mutation::Repeat(i) => {
            if let Some(i) = at(g.moves.len(), *i) {
                let m = g.moves[i].clone();
                g.moves.insert(i, m);
            }
        }
        Mutation::FinalFen(v) => g.final_fen.clone_from(v),
        Mutation::Times(a, b) => (g.started_at_ms, g.ended_at_ms) = (*a, *b),
        Mutation::TimeControl(nodes) => {
            g.black_time_control = nodes.map(|n| v1::TimeControl {
                limit: Some(v1::time_control::Limit::Nodes(n)),
            });
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    /// Mutated honest games are refused or accepted, never a panic; what is
    /// accepted is counted once, whole.
    #[test]
    fn mutated_submissions_are_answered_never_a_panic(
        edits in prop::collection::vec((0usize..4, mutation()), 1..4),
        keep in 0usize..6,
    ) {
        let Leased { c, w, unit, .. } = &leased();
        let mut games = honest().to_vec();
        let count = games.len();
        for (game, m) in &edits {
            apply(&mut games[game % count], m);
        }
        games.truncate(keep.max(1) * 2);
        let first = c.submit(w, &Lease::of(unit).unwrap(), &games);
        if matches!(first, Ok(Submitted::Accepted)) {
            prop_assert_eq!(
                c.campaign(&campaign_id("fuzz")).unwrap().pairs_done,
                u64::from(unit.pair_count)
            );
            prop_assert_eq!(
                c.submit(w, &Lease::of(unit).unwrap(), &games).unwrap(),
                Submitted::Duplicate
            );
        } else {
            prop_assert_eq!(c.campaign(&campaign_id("fuzz")).unwrap().pairs_done, 0);
        }
    }

    /// Arbitrary bytes and honest messages cut or flipped, as the wire
    /// would carry them: the budget check and the decoder refuse or pass
    /// them, and what decodes is answered by the coordinator.
    #[test]
    fn bytes_on_the_wire_are_refused_or_answered_never_a_panic(
        noise in prop::collection::vec(any::<u8>(), 0..512),
        cut in 0usize..4096,
        flips in prop::collection::vec((any::<usize>(), any::<u8>()), 0..8),
    ) {
        let Leased { c, w, unit, .. } = &leased();
        let honest_bytes = v1::SubmitResultsRequest {
            unit_id: unit.unit_id.clone(),
            lease_token: unit.lease_token.clone(),
            worker_id: w.id.to_string(),
            games: honest().to_vec(),
            ..v1::SubmitResultsRequest::default()
        }
        .encode_to_vec();
        let mut mangled = honest_bytes[..cut.min(honest_bytes.len())].to_vec();
        for (at, byte) in &flips {
            if !mangled.is_empty() {
                let i = at % mangled.len();
                mangled[i] ^= byte;
            }
        }
        for bytes in [noise, mangled] {
            if v1::SubmitResultsRequest::check_budget(&bytes).is_err() {
                continue;
            }
            if let Ok(request) = v1::SubmitResultsRequest::decode(bytes.as_slice()) {
                let _answered = c.submit(w, &Lease::of(unit).unwrap(), &request.games);
            }
        }
    }
}
