//! What a hostile worker or a careless operator tried against the
//! coordinator, each refused: fields a worker cannot know, acting under
//! another worker's id, one unit submitted many times at once, two
//! coordinators on one state directory, games files changed on disk, one
//! token sending bad units, submissions too big to decode, leases read
//! from a clock that is off.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::{
    CampaignState, Coordinator, CoordinatorError, Lease, LeaseError, MAX_REJECTIONS,
    QuarantineOutcome, REGISTRATIONS_PER_MINUTE, Scope, StorageError, Submitted, TokenHash,
    WorkerId, WorkerKey,
};
use ajaxlab_proto::v1;
use common::{Served, campaign_id, play, temp_dir};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Every game ends at its sixth ply (or before), drawn; a score that stays
/// within 10 centipawns from the first move draws it at once.
const SHORT: &str = r#"
variant = "chess"
games = 8
tc = "nodes=200"
[campaign]
name = "short"
[adjudication]
max_plies = 6
"#;

fn open(dir: &Path) -> Coordinator {
    Coordinator::open(dir, Duration::from_secs(60), 7).unwrap()
}

fn worker(c: &Coordinator, token: &str) -> WorkerKey {
    c.register(&TokenHash::of(token), token, "test", 1, 7)
        .unwrap()
}

/// A coordinator with the campaign `text`, in a fresh directory.
fn with_campaign(tag: &str, text: &str) -> (Coordinator, PathBuf) {
    let dir = temp_dir(tag);
    let c = open(&dir);
    c.create_campaign(text).unwrap();
    (c, dir)
}

fn refusal(result: Result<Submitted, CoordinatorError>) -> String {
    match result {
        Err(e @ CoordinatorError::Submission(_)) => e.to_string(),
        other => panic!("expected a refused submission, got {other:?}"),
    }
}

#[test]
fn games_past_max_plies_and_fields_the_worker_cannot_choose_are_refused() {
    let (c, _dir) = with_campaign("hostile-fields", SHORT);
    let w = worker(&c, "w");
    let unit = c.request_work(&w).unwrap().unwrap();
    let honest = play(&unit);
    let submit = |games: &[v1::GameRecord]| c.submit(&w, &Lease::of(&unit).unwrap(), games);
    let forged = |edit: &dyn Fn(&mut v1::GameRecord)| {
        let mut games = honest.clone();
        edit(&mut games[0]);
        games
    };
    // A move after the ply limit, the final position following it.
    let longer = forged(&|g| {
        let mut pos =
            ajaxlab_rules::Position::from_fen(ajaxlab_rules::VariantKind::Chess, &g.final_fen)
                .unwrap();
        let mv = pos.legal_moves()[0];
        g.moves.push(v1::MoveRecord {
            uci: pos.uci(mv).to_string(),
            ..v1::MoveRecord::default()
        });
        pos.play(mv).unwrap();
        g.final_fen = pos.fen();
    });
    assert!(
        honest[0].moves.len() == 6,
        "the test needs a game drawn at the limit"
    );
    let e = refusal(submit(&longer));
    assert!(
        e.contains("after the game was drawn at max_plies = 6"),
        "{e}"
    );
    for (edit, why) in [
        (
            &(|g: &mut v1::GameRecord| g.start_number = Some(7)) as &dyn Fn(&mut v1::GameRecord),
            "start_number",
        ),
        (
            &|g: &mut v1::GameRecord| {
                g.white_time_control = Some(v1::TimeControl {
                    limit: Some(v1::time_control::Limit::Nodes(201)),
                });
            },
            "time control",
        ),
        (
            &|g: &mut v1::GameRecord| g.started_at_ms = i64::MIN,
            "started_at_ms",
        ),
        (
            &|g: &mut v1::GameRecord| g.ended_at_ms = g.started_at_ms - 1,
            "the start first",
        ),
        (
            &|g: &mut v1::GameRecord| g.white_version = "v".repeat(10_000),
            "white_version",
        ),
        (
            &|g: &mut v1::GameRecord| g.black_version = "v\u{1b}[2J".into(),
            "control characters",
        ),
    ] {
        let e = refusal(submit(&forged(edit)));
        assert!(e.contains(why), "{why}: {e}");
    }
    assert_eq!(c.campaign(&campaign_id("short")).unwrap().pairs_done, 0);
    assert_eq!(submit(&honest).unwrap(), Submitted::Accepted);
}

#[test]
fn a_score_of_i32_min_is_no_quiet_score_for_a_draw_adjudication() {
    let (c, _dir) = with_campaign(
        "hostile-score",
        &format!("{SHORT}draw_score = 10\ndraw_moves = 1\ndraw_after_move = 0\n"),
    );
    let w = worker(&c, "w");
    let unit = c.request_work(&w).unwrap().unwrap();
    let honest = play(&unit);
    let mut forged = honest.clone();
    let g = &mut forged[0];
    g.moves.truncate(2);
    for m in &mut g.moves {
        m.score = Some(i32::MIN);
    }
    let mut pos =
        ajaxlab_rules::Position::from_fen(ajaxlab_rules::VariantKind::Chess, &g.start_fen).unwrap();
    for m in &g.moves {
        let mv = pos.parse_uci(&m.uci).unwrap();
        pos.play(mv).unwrap();
    }
    g.final_fen = pos.fen();
    g.result = i32::from(v1::GameResult::Draw);
    g.termination = i32::from(v1::Termination::AdjudicatedDraw);
    let e = refusal(c.submit(&w, &Lease::of(&unit).unwrap(), &forged));
    assert!(e.contains("does not follow from the moves"), "{e}");
}

#[test]
fn a_worker_id_serves_only_with_its_token_and_exclusion_holds_for_the_token() {
    let (c, _dir) = with_campaign("hostile-identity", SHORT);
    let honest = worker(&c, "honest");
    let thief = worker(&c, "thief");
    // The thief knows the honest worker's id (the status page shows it).
    let impostor = WorkerKey {
        id: honest.id.clone(),
        token: thief.token.clone(),
    };
    assert!(matches!(
        c.request_work(&impostor),
        Err(CoordinatorError::Lease(LeaseError::UnknownWorker(_)))
    ));
    let unit = c.request_work(&honest).unwrap().unwrap();
    let games = play(&unit);
    for result in [
        c.submit(&impostor, &Lease::of(&unit).unwrap(), &games),
        c.renew(&impostor, &Lease::of(&unit).unwrap())
            .map(|_| Submitted::Accepted),
        c.release(&impostor, &Lease::of(&unit).unwrap())
            .map(|()| Submitted::Accepted),
    ] {
        assert!(
            matches!(
                result,
                Err(CoordinatorError::Lease(LeaseError::UnknownWorker(_)))
            ),
            "{result:?}"
        );
    }
    // Excluded while it holds the unit: the unit goes back with an empty
    // lease, which no one can submit under.
    c.exclude_worker(&campaign_id("short"), &honest.id).unwrap();
    // A worker without an id cannot even be named; one never registered
    // cannot submit either.
    assert!("".parse::<WorkerId>().is_err());
    let nobody = WorkerKey {
        id: "w-nobody".parse().unwrap(),
        token: thief.token.clone(),
    };
    assert!(
        c.submit(
            &nobody,
            &Lease::new(unit.unit_id.parse().unwrap(), ""),
            &games
        )
        .is_err()
    );
    assert_eq!(
        c.submit(
            &thief,
            &Lease::new(unit.unit_id.parse().unwrap(), ""),
            &games
        )
        .unwrap(),
        Submitted::Stale
    );
    assert_eq!(c.campaign(&campaign_id("short")).unwrap().pairs_done, 0);
    // Registering again does not shed the exclusion: it holds for the token.
    let again = worker(&c, "honest");
    assert_ne!(again.id, honest.id);
    assert!(c.request_work(&again).unwrap().is_none());
    assert!(c.is_excluded(&campaign_id("short"), &again.id).unwrap());
    let unit = c.request_work(&thief).unwrap().unwrap();
    assert_eq!(
        c.submit(&thief, &Lease::of(&unit).unwrap(), &play(&unit))
            .unwrap(),
        Submitted::Accepted
    );
}

#[test]
fn one_unit_submitted_sixteen_times_at_once_is_counted_once_and_stored_once() {
    let (c, dir) = with_campaign("hostile-race", SHORT);
    let c = Arc::new(c);
    let w = worker(&c, "w");
    let unit = c.request_work(&w).unwrap().unwrap();
    let games = play(&unit);
    let start = std::sync::Barrier::new(16);
    let outcomes: Vec<Submitted> = std::thread::scope(|s| {
        let threads: Vec<_> = (0..16)
            .map(|_| {
                s.spawn(|| {
                    start.wait();
                    c.submit(&w, &Lease::of(&unit).unwrap(), &games).unwrap()
                })
            })
            .collect();
        threads.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let accepted = outcomes
        .iter()
        .filter(|o| **o == Submitted::Accepted)
        .count();
    assert_eq!(accepted, 1, "{outcomes:?}");
    assert!(
        outcomes
            .iter()
            .all(|o| matches!(o, Submitted::Accepted | Submitted::Duplicate)),
        "{outcomes:?}"
    );
    let counters = &c.counters;
    assert_eq!(
        counters.accepted.load(std::sync::atomic::Ordering::Relaxed),
        1
    );
    assert_eq!(
        counters.games.load(std::sync::atomic::Ordering::Relaxed),
        games.len() as u64
    );
    let view = c.campaign(&campaign_id("short")).unwrap();
    assert_eq!(view.pairs_done, u64::from(unit.pair_count));
    // The file on disk is the counted games, and nothing else is there.
    let campaign = dir.join("campaigns/short");
    let names: Vec<String> = std::fs::read_dir(&campaign)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, [format!("unit-{}.parquet", unit.unit_id)]);
    let stored = ajaxlab_store::read_games(&campaign.join(&names[0])).unwrap();
    assert_eq!(stored.games.len(), games.len());
}

#[test]
fn a_second_coordinator_on_a_state_directory_is_refused_naming_the_first() {
    let dir = temp_dir("hostile-two");
    let first = open(&dir);
    let Err(e @ CoordinatorError::Storage(StorageError::InUse { .. })) =
        Coordinator::open(&dir, Duration::from_secs(60), 7)
    else {
        panic!("a second coordinator must be refused");
    };
    let e = e.to_string();
    assert!(
        e.contains(&format!(
            "is in use by another coordinator (pid {})",
            std::process::id()
        )),
        "{e}"
    );
    // Tokens are still issued beside it, as `ajaxlab token` does.
    let token =
        ajaxlab_cluster::coordinator::issue_token_in(&dir, Scope::Worker, "beside").unwrap();
    assert_eq!(first.token_scope(&token), Some(Scope::Worker));
    drop(first);
    assert!(Coordinator::open(&dir, Duration::from_secs(60), 7).is_ok());
}

/// The file of unit `unit` of campaign `short`.
fn unit_file(dir: &Path, unit: &str) -> PathBuf {
    dir.join(format!("campaigns/short/unit-{unit}.parquet"))
}

#[test]
fn games_files_changed_on_disk_are_quarantined_and_their_pairs_played_again() {
    let (c, dir) = with_campaign("hostile-files", SHORT);
    let w = worker(&c, "w");
    let mut units = Vec::new();
    while let Some(unit) = c.request_work(&w).unwrap() {
        if units.len() == 3 {
            // Leased, played, its file written, never counted: then garbage.
            std::fs::write(unit_file(&dir, &unit.unit_id), b"not parquet").unwrap();
            break;
        }
        c.submit(&w, &Lease::of(&unit).unwrap(), &play(&unit))
            .unwrap();
        units.push(unit.unit_id);
    }
    assert_eq!(units.len(), 3, "the test needs units of one pair");
    assert_eq!(c.campaign(&campaign_id("short")).unwrap().pairs_done, 3);
    drop(c);
    // One file truncated, one deleted, one changed in place at its size.
    let truncated = unit_file(&dir, &units[0]);
    let bytes = std::fs::read(&truncated).unwrap();
    std::fs::write(&truncated, &bytes[..bytes.len() / 2]).unwrap();
    std::fs::remove_file(unit_file(&dir, &units[1])).unwrap();
    let changed = unit_file(&dir, &units[2]);
    let mut bytes = std::fs::read(&changed).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0xff;
    std::fs::write(&changed, &bytes).unwrap();

    let c = open(&dir);
    let startup = c.startup_check();
    let outcomes: Vec<QuarantineOutcome> = startup.quarantined.iter().map(|q| q.outcome).collect();
    assert_eq!(
        outcomes,
        [
            QuarantineOutcome::Replayed,
            QuarantineOutcome::CountedOut,
            QuarantineOutcome::CountedOut
        ],
        "{:?}",
        startup.quarantined
    );
    let reasons: Vec<&str> = startup
        .quarantined
        .iter()
        .map(|q| q.reason.as_str())
        .collect();
    assert!(reasons[0].contains("does not read"), "{reasons:?}");
    assert!(reasons[1].contains("it was counted at"), "{reasons:?}");
    assert!(reasons[2].contains("missing"), "{reasons:?}");
    assert_eq!(c.campaign(&campaign_id("short")).unwrap().pairs_done, 1);
    // The full check finds the file changed at its size.
    let full = c.verify().unwrap();
    assert_eq!(full.checked, 1);
    assert_eq!(full.quarantined.len(), 1, "{:?}", full.quarantined);
    assert!(
        full.quarantined[0]
            .reason
            .contains("changed since it was counted"),
        "{:?}",
        full.quarantined
    );
    assert_eq!(c.campaign(&campaign_id("short")).unwrap().pairs_done, 0);
    let quarantine: Vec<_> = std::fs::read_dir(dir.join("campaigns/short/quarantine"))
        .unwrap()
        .collect();
    assert_eq!(quarantine.len(), 3, "the deleted one has no file to keep");
    // Every pair is played again, and the campaign ends whole.
    while let Some(unit) = c.request_work(&w).unwrap() {
        c.submit(&w, &Lease::of(&unit).unwrap(), &play(&unit))
            .unwrap();
    }
    let view = c.campaign(&campaign_id("short")).unwrap();
    assert_eq!((view.state, view.pairs_done), (CampaignState::Finished, 4));
    assert!(c.verify().unwrap().quarantined.is_empty());
}

/// A games file written under an unfinished unit's name whose games are
/// another unit's is not counted for it (it once was: 48 pairs of a unit
/// lost, one overlapping another), and files named like units' that are
/// of none are set aside, so that `unit-*.parquet` globs read only games.
#[test]
fn a_games_file_under_an_unfinished_unit_s_name_counts_only_if_it_is_that_unit_s() {
    let (c, dir) = with_campaign("hostile-names", SHORT);
    let (a, b) = (worker(&c, "a"), worker(&c, "b"));
    let first = c.request_work(&a).unwrap().unwrap();
    c.submit(&a, &Lease::of(&first).unwrap(), &play(&first))
        .unwrap();
    let second = c.request_work(&b).unwrap().unwrap();
    assert_ne!(first.unit_id, second.unit_id);
    drop(c);
    // The first unit's counted games, under the unleased second's name.
    std::fs::copy(
        unit_file(&dir, &first.unit_id),
        unit_file(&dir, &second.unit_id),
    )
    .unwrap();
    std::fs::write(dir.join("campaigns/short/unit-short-999.parquet"), b"junk").unwrap();
    std::fs::write(dir.join("campaigns/short/unit-nothing.parquet"), b"junk").unwrap();

    let c = open(&dir);
    let moved = &c.startup_check().quarantined;
    let said: Vec<String> = moved.iter().map(ToString::to_string).collect();
    assert_eq!(moved.len(), 3, "{said:#?}");
    assert!(
        said[0].contains(&format!("unit {}", second.unit_id))
            && said[0].contains("is not the unit's"),
        "{said:#?}"
    );
    assert_eq!(
        moved[1..].iter().map(|q| q.outcome).collect::<Vec<_>>(),
        [QuarantineOutcome::Stray, QuarantineOutcome::Stray]
    );
    assert_eq!(c.campaign(&campaign_id("short")).unwrap().pairs_done, 1);
    let left: Vec<String> = std::fs::read_dir(dir.join("campaigns/short"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".parquet"))
        .collect();
    assert_eq!(left, [format!("unit-{}.parquet", first.unit_id)]);
    // The second unit is played again, and the campaign ends whole.
    let w = worker(&c, "w");
    while let Some(unit) = c.request_work(&w).unwrap() {
        c.submit(&w, &Lease::of(&unit).unwrap(), &play(&unit))
            .unwrap();
    }
    let view = c.campaign(&campaign_id("short")).unwrap();
    assert_eq!((view.state, view.pairs_done), (CampaignState::Finished, 4));
}

/// Submits a unit `key` leases with its first game's result changed.
fn submit_forged(c: &Coordinator, key: &WorkerKey) -> v1::WorkUnit {
    let unit = c.request_work(key).unwrap().unwrap();
    let mut games = play(&unit);
    games[0].result = i32::from(if games[0].result == i32::from(v1::GameResult::Draw) {
        v1::GameResult::WhiteWins
    } else {
        v1::GameResult::Draw
    });
    refusal(c.submit(key, &Lease::of(&unit).unwrap(), &games));
    unit
}

#[test]
fn a_token_that_keeps_sending_bad_units_gets_no_more_and_the_campaign_runs_on() {
    let (c, _dir) = with_campaign("hostile-bad-units", SHORT);
    let bad = worker(&c, "bad");
    for _ in 0..MAX_REJECTIONS {
        submit_forged(&c, &bad);
    }
    assert!(c.request_work(&bad).unwrap().is_none());
    assert!(
        c.request_work(&worker(&c, "bad")).unwrap().is_none(),
        "registering again does not help"
    );
    assert_eq!(
        c.campaign(&campaign_id("short")).unwrap().state,
        CampaignState::Running
    );
    let good = worker(&c, "good");
    while let Some(unit) = c.request_work(&good).unwrap() {
        c.submit(&good, &Lease::of(&unit).unwrap(), &play(&unit))
            .unwrap();
    }
    assert_eq!(
        c.campaign(&campaign_id("short")).unwrap().state,
        CampaignState::Finished
    );
}

#[test]
fn a_unit_refused_under_three_tokens_pauses_its_campaign() {
    let (c, _dir) = with_campaign("hostile-pause", SHORT);
    let units: Vec<String> = (0..MAX_REJECTIONS)
        .map(|i| submit_forged(&c, &worker(&c, &format!("w{i}"))).unit_id)
        .collect();
    assert!(units.iter().all(|u| *u == units[0]), "{units:?}");
    assert_eq!(
        c.campaign(&campaign_id("short")).unwrap().state,
        CampaignState::Paused
    );
}

#[test]
fn registrations_are_limited_per_token_and_names_bounded() {
    let c = open(&temp_dir("hostile-register"));
    let token = TokenHash::of("flood");
    for _ in 0..REGISTRATIONS_PER_MINUTE {
        c.register(&token, "n", "test", 1, 7).unwrap();
    }
    assert!(matches!(
        c.register(&token, "n", "test", 1, 7),
        Err(CoordinatorError::Lease(LeaseError::TooManyRegistrations))
    ));
    assert!(
        c.register(&TokenHash::of("other"), "n", "test", 1, 7)
            .is_ok()
    );
    assert!(matches!(
        c.register(&TokenHash::of("other"), &"n".repeat(5 << 20), "test", 1, 7),
        Err(CoordinatorError::Lease(LeaseError::BadName { .. }))
    ));
}

#[test]
fn a_submission_of_more_games_than_a_unit_has_is_refused_before_it_is_decoded() {
    let (c, _dir) = with_campaign("hostile-size", SHORT);
    let c = Arc::new(c);
    let token = c.issue_token(Scope::Worker, "big").unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let served = Served::start(Arc::clone(&c)).await;
        let value: tonic::metadata::MetadataValue<tonic::metadata::Ascii> =
            format!("Bearer {token}").parse().unwrap();
        let mut client = v1::worker_client::WorkerClient::with_interceptor(
            served.channel.clone(),
            ajaxlab_cluster::remote::Auth::new(value),
        )
        .max_encoding_message_size(ajaxlab_proto::codec::MAX_MESSAGE_BYTES);
        let header = || {
            Some(v1::Header {
                protocol_version: ajaxlab_proto::PROTOCOL_VERSION,
            })
        };
        let worker_id = client
            .register(v1::RegisterRequest {
                header: header(),
                name: "big".into(),
                cores: 1,
                bench_signature: 7,
                ..v1::RegisterRequest::default()
            })
            .await
            .unwrap()
            .into_inner()
            .worker_id;
        let unit = client
            .request_work(v1::WorkRequest {
                header: header(),
                worker_id: worker_id.clone(),
            })
            .await
            .unwrap()
            .into_inner()
            .unit
            .unwrap();
        // One game more than a unit can have: refused undecoded (2.5
        // million empty games in 47 MiB once took a coordinator to 2.8 GB).
        let e = client
            .submit_results(v1::SubmitResultsRequest {
                header: header(),
                worker_id: worker_id.clone(),
                unit_id: unit.unit_id.clone(),
                lease_token: unit.lease_token.clone(),
                games: vec![v1::GameRecord::default(); 1001],
            })
            .await
            .unwrap_err();
        assert_eq!(e.code(), tonic::Code::ResourceExhausted, "{e:?}");
        assert!(e.message().contains("more than 1000 games"), "{e:?}");
        // Within the budget but more than this unit's games: refused by
        // their count, before any is converted.
        let e = client
            .submit_results(v1::SubmitResultsRequest {
                header: header(),
                worker_id,
                unit_id: unit.unit_id.clone(),
                lease_token: unit.lease_token.clone(),
                games: vec![v1::GameRecord::default(); 900],
            })
            .await
            .unwrap_err();
        assert!(
            e.message()
                .contains("900 games submitted; the unit is 2 games"),
            "{e:?}"
        );
        served.stop().await;
    });
    assert_eq!(c.campaign(&campaign_id("short")).unwrap().pairs_done, 0);
}

#[test]
fn a_lease_is_given_and_renewed_as_a_duration_never_as_a_clock_time() {
    let dir = temp_dir("hostile-clock");
    let c = Coordinator::open(&dir, Duration::from_millis(1500), 7).unwrap();
    c.create_campaign(SHORT).unwrap();
    let w = worker(&c, "w");
    let unit = c.request_work(&w).unwrap().unwrap();
    assert_eq!(unit.lease_ms, 1500);
    assert_eq!(
        c.renew(&w, &Lease::of(&unit).unwrap()).unwrap(),
        Duration::from_millis(1500)
    );
}

#[test]
fn a_worker_the_coordinator_keeps_forgetting_backs_off_instead_of_registering_in_a_loop() {
    let dir = temp_dir("hostile-forget");
    let c = Arc::new(open(&dir));
    let token = c.issue_token(Scope::Worker, "forgotten").unwrap();
    // Every registration is noted, and the worker forgotten at once: as a
    // coordinator whose state is reset under it would.
    let db = rusqlite::Connection::open(dir.join("coordinator.sqlite3")).unwrap();
    db.execute_batch(
        "create table registrations(id text);
         create trigger forgotten after insert on workers begin
             insert into registrations values (new.id);
             delete from workers where id = new.id;
         end;",
    )
    .unwrap();
    let (stop, shutdown) = ajaxlab_cluster::shutdown::Shutdown::new();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let served = Served::start(Arc::clone(&c)).await;
        let worker = tokio::spawn(ajaxlab_cluster::worker::run_worker(
            common::local_worker(&served.url, token, "forgotten", dir.join("cache")),
            shutdown,
        ));
        tokio::time::sleep(Duration::from_secs(8)).await;
        stop.stop();
        worker.await.unwrap().unwrap();
        served.stop().await;
    });
    let registrations: i64 = db
        .query_row("select count(*) from registrations", [], |r| r.get(0))
        .unwrap();
    // Without the backoff it registered again at once, until the token's
    // limit of registrations a minute stopped it.
    assert!(
        (3..=30).contains(&registrations),
        "{registrations} registrations in 8 s"
    );
}
