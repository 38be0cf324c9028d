//! The coordinator's state layer in-process: leases, exactly-once counting,
//! validation of forged results, restarts.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::TokenHash;

use ajaxlab_cluster::coordinator::{
    CampaignError, CampaignState, Coordinator, CoordinatorError, Lease, LeaseError, Scope,
    Submitted,
};
use ajaxlab_proto::v1;
use common::{Served, campaign_id, play, temp_dir};
use std::path::PathBuf;
use std::time::Duration;

const CAMPAIGN: &str = r#"
variant = "ajax-falcon"
games = 8
tc = "nodes=300"
[campaign]
name = "state-test"
[adjudication]
max_plies = 120
"#;

fn setup(lease: Duration) -> (Coordinator, PathBuf) {
    let dir = temp_dir("coord");
    let c = Coordinator::open(&dir, lease, 7).unwrap();
    c.create_campaign(CAMPAIGN).unwrap();
    (c, dir)
}

#[test]
fn a_campaign_completes_with_every_pair_counted_once() {
    let (c, _dir) = setup(Duration::from_secs(60));
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    while let Some(unit) = c.request_work(&w).unwrap() {
        let games = play(&unit);
        assert_eq!(
            c.submit(&w, &Lease::of(&unit).unwrap(), &games).unwrap(),
            Submitted::Accepted
        );
        assert_eq!(
            c.submit(&w, &Lease::of(&unit).unwrap(), &games).unwrap(),
            Submitted::Duplicate,
            "a repeat is dropped"
        );
    }
    let view = c.campaign(&campaign_id("state-test")).unwrap();
    assert_eq!(
        (view.state.as_str(), view.pairs_done, view.pairs_total),
        ("finished", 4, 4)
    );
}

#[test]
fn an_expired_lease_goes_to_another_worker_and_the_late_results_are_dropped() {
    let (c, _dir) = setup(Duration::from_millis(200));
    let slow = c
        .register(&TokenHash::of("slow"), "slow", "test", 8, 7)
        .unwrap();
    let fast = c
        .register(&TokenHash::of("fast"), "fast", "test", 8, 7)
        .unwrap();
    let unit = c.request_work(&slow).unwrap().unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let again = c.request_work(&fast).unwrap().unwrap();
    assert_eq!(
        (again.unit_id.as_str(), again.first_pair),
        (unit.unit_id.as_str(), unit.first_pair),
        "the same pairs are reissued"
    );
    assert!(matches!(
        c.renew(&slow, &Lease::of(&unit).unwrap()),
        Err(CoordinatorError::Lease(LeaseError::Lost(_)))
    ));
    let games = play(&unit);
    assert_eq!(
        c.submit(&slow, &Lease::of(&unit).unwrap(), &games).unwrap(),
        Submitted::Stale
    );
    assert_eq!(
        c.submit(&fast, &Lease::of(&again).unwrap(), &games)
            .unwrap(),
        Submitted::Accepted
    );
    assert_eq!(
        c.submit(&slow, &Lease::of(&unit).unwrap(), &games).unwrap(),
        Submitted::Duplicate
    );
    assert_eq!(
        c.campaign(&campaign_id("state-test")).unwrap().pairs_done,
        u64::from(unit.pair_count)
    );
}

#[test]
fn forged_results_are_rejected_and_nothing_is_stored() {
    let (c, dir) = setup(Duration::from_secs(60));
    let w = c.register(&TokenHash::of("w"), "w", "test", 1, 7).unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    let honest = play(&unit);
    let submit = |games: &[v1::GameRecord]| c.submit(&w, &Lease::of(&unit).unwrap(), games);
    let expect_rejected = |games: Vec<v1::GameRecord>, why: &str| {
        let e = submit(&games).unwrap_err();
        assert!(
            matches!(&e, CoordinatorError::Submission(_) if e.to_string().contains(why)),
            "{why}: {e}"
        );
    };
    let mut illegal = honest.clone();
    illegal[0].moves[0].uci = "a1a9".into();
    expect_rejected(illegal, "move 1");
    let mut result = honest.clone();
    let (white, black) = (
        i32::from(v1::GameResult::WhiteWins),
        i32::from(v1::GameResult::BlackWins),
    );
    result[0].result = if result[0].result == white {
        black
    } else {
        white
    };
    expect_rejected(result, "does not follow");
    let mut params = honest.clone();
    params[1].white_params[0] += 1;
    expect_rejected(params, "parameters differ");
    expect_rejected(honest[..honest.len() - 1].to_vec(), "games submitted");
    let mut crash = honest.clone();
    crash[0].termination = i32::from(v1::Termination::EngineCrash);
    expect_rejected(crash, "does not follow");
    assert!(matches!(
        c.submit(
            &w,
            &Lease::new("state-test-999".parse().unwrap(), "x"),
            &honest
        ),
        Err(CoordinatorError::Lease(LeaseError::UnknownUnit(_)))
    ));
    let wrong_token = c
        .submit(
            &w,
            &Lease::new(unit.unit_id.parse().unwrap(), "forged"),
            &honest,
        )
        .unwrap();
    assert_eq!(
        wrong_token,
        Submitted::Stale,
        "a lease token that was never issued counts nothing"
    );
    assert_eq!(
        c.campaign(&campaign_id("state-test")).unwrap().pairs_done,
        0
    );
    let files = std::fs::read_dir(dir.join("campaigns/state-test"))
        .unwrap()
        .count();
    assert_eq!(files, 0, "nothing of a rejected unit is stored");
    assert_eq!(submit(&honest).unwrap(), Submitted::Accepted);
}

#[test]
fn units_go_only_to_workers_with_the_campaigns_engine_signature() {
    let (c, _dir) = setup(Duration::from_secs(60));
    let stale = c
        .register(&TokenHash::of("old-build"), "old-build", "test", 1, 8)
        .unwrap();
    assert!(c.request_work(&stale).unwrap().is_none());
    let current = c
        .register(&TokenHash::of("new-build"), "new-build", "test", 1, 7)
        .unwrap();
    assert!(c.request_work(&current).unwrap().is_some());
}

#[test]
fn a_restarted_coordinator_resumes_and_counts_stored_games_once() {
    let (c, dir) = setup(Duration::from_secs(60));
    let w = c.register(&TokenHash::of("w"), "w", "test", 1, 7).unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    assert_eq!(
        c.submit(&w, &Lease::of(&unit).unwrap(), &play(&unit))
            .unwrap(),
        Submitted::Accepted
    );
    let second = c.request_work(&w).unwrap().unwrap();
    let token = c.issue_token(Scope::Worker, "t").unwrap();
    drop(c);
    let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    assert_eq!(
        c.token_scope(&token),
        Some(Scope::Worker),
        "tokens survive (hashed)"
    );
    assert_eq!(
        c.campaign(&campaign_id("state-test")).unwrap().pairs_done,
        u64::from(unit.pair_count)
    );
    // The lease held across the restart still works.
    assert_eq!(
        c.submit(&w, &Lease::of(&second).unwrap(), &play(&second))
            .unwrap(),
        Submitted::Accepted
    );
    let done = u64::from(unit.pair_count + second.pair_count);
    drop(c);
    let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    assert_eq!(
        c.campaign(&campaign_id("state-test")).unwrap().pairs_done,
        done
    );
}

#[test]
fn bad_campaign_files_name_the_key() {
    let (c, _dir) = setup(Duration::from_secs(60));
    let e = c
        .create_campaign("games = 3\n[campaign]\nname = \"x\"")
        .unwrap_err();
    assert!(
        matches!(&e, CoordinatorError::Campaign(CampaignError::File(_)) if e.to_string().starts_with("games:")),
        "{e}"
    );
    let e = c.create_campaign("games = 4").unwrap_err();
    assert!(e.to_string().contains("[campaign]"), "{e}");
    let e = c.create_campaign(CAMPAIGN).unwrap_err();
    assert!(
        matches!(e, CoordinatorError::Campaign(CampaignError::Exists(_))),
        "names are unique"
    );
}

#[test]
fn the_coordinator_answers_the_standard_grpc_health_protocol() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let (c, _dir) = setup(Duration::from_secs(60));
        let served = Served::start(std::sync::Arc::new(c)).await;
        let mut health = tonic_health::pb::health_client::HealthClient::new(served.channel.clone());
        for service in ["", "ajaxlab.v1.Worker", "ajaxlab.v1.Operator"] {
            let reply = health
                .check(tonic_health::pb::HealthCheckRequest {
                    service: service.into(),
                })
                .await
                .unwrap()
                .into_inner();
            assert_eq!(
                reply.status,
                tonic_health::pb::health_check_response::ServingStatus::Serving as i32,
                "{service}"
            );
        }
        served.stop().await;
    });
}

#[test]
fn workers_reach_a_tls_coordinator_with_its_self_signed_certificate_and_not_without() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        // A coordinator with this build's engine signature, so that a real worker gets work.
        let signature = tokio::task::spawn_blocking(ajaxlab_cluster::work::bench_signature)
            .await
            .unwrap();
        let dir = temp_dir("coord");
        let c = std::sync::Arc::new(
            Coordinator::open(&dir, Duration::from_secs(60), signature).unwrap(),
        );
        c.create_campaign(CAMPAIGN).unwrap();
        let token = c.issue_token(Scope::Worker, "tls").unwrap();
        let cert = rcgen::generate_simple_self_signed(vec!["localhost".into()]).unwrap();
        let ca = cert.cert.pem();
        let tls = ajaxlab_cluster::coordinator::serve::grpc::TlsIdentity {
            cert_pem: ca.clone().into_bytes(),
            key_pem: cert.signing_key.serialize_pem().into_bytes(),
        };
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(ajaxlab_cluster::coordinator::serve::grpc::serve_tls(
            std::sync::Arc::clone(&c),
            listener,
            Some(tls),
            ajaxlab_cluster::coordinator::serve::connections::ConnectionLimits::default(),
            async {
                let _ = stopped.await;
            },
        ));
        let url = format!("https://localhost:{port}");
        let channel = ajaxlab_cluster::remote::endpoint(&url, Some(ca.as_bytes()))
            .unwrap()
            .connect()
            .await
            .unwrap();
        let mut health = tonic_health::pb::health_client::HealthClient::new(channel);
        let reply = health
            .check(tonic_health::pb::HealthCheckRequest {
                service: String::new(),
            })
            .await
            .unwrap();
        assert_eq!(
            reply.into_inner().status,
            tonic_health::pb::health_check_response::ServingStatus::Serving as i32
        );
        // Plain text against a TLS port fails; so does TLS without trusting the certificate.
        let plain = ajaxlab_cluster::remote::endpoint(&format!("http://localhost:{port}"), None)
            .unwrap()
            .connect()
            .await;
        let untrusted = match plain {
            Err(_) => true,
            Ok(ch) => tonic_health::pb::health_client::HealthClient::new(ch)
                .check(tonic_health::pb::HealthCheckRequest {
                    service: String::new(),
                })
                .await
                .is_err(),
        };
        assert!(untrusted, "a plain-text client is refused");
        // A real worker, given the certificate, plays the whole campaign over TLS.
        let (stop_worker, shutdown) = ajaxlab_cluster::shutdown::Shutdown::new();
        let worker = tokio::spawn(ajaxlab_cluster::worker::run_worker(
            ajaxlab_cluster::worker::WorkerConfig {
                remote: ajaxlab_cluster::remote::Remote {
                    url: url.clone(),
                    token,
                    tls_ca: Some(ca.clone().into_bytes()),
                },
                threads: 2,
                name: "tls-worker".into(),
                cache_dir: std::env::temp_dir()
                    .join(format!("ajaxlab-tls-cache-{}", std::process::id())),
                in_flight: std::sync::Arc::default(),
            },
            shutdown,
        ));
        let deadline = std::time::Instant::now() + Duration::from_secs(120);
        while c.campaign(&campaign_id("state-test")).unwrap().state != CampaignState::Finished {
            assert!(
                std::time::Instant::now() < deadline,
                "the TLS worker finished nothing"
            );
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        assert_eq!(
            c.campaign(&campaign_id("state-test")).unwrap().pairs_done,
            4
        );
        stop_worker.stop();
        let _ = worker.await;
        stop.send(()).unwrap();
        server.await.unwrap().unwrap();
    });
}

#[test]
fn adjudicated_games_are_validated_by_the_rule_that_made_them() {
    let dir = temp_dir("coord");
    let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    c.create_campaign(
        "variant = \"ajax-falcon\"\ngames = 12\ntc = \"nodes=300\"\n[campaign]\nname = \"adj\"\n\
         [adjudication]\nresign_score = 250\nresign_moves = 2\ndraw_score = 30\ndraw_moves = 3\ndraw_after_move = 8\nmax_plies = 100\n",
    )
    .unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let mut terminations = std::collections::BTreeSet::new();
    // Fewer forgeries than would get the worker's token refused more units.
    let mut forgeries = 0;
    while let Some(unit) = c.request_work(&w).unwrap() {
        let games = play(&unit);
        terminations.extend(games.iter().map(|g| g.termination().as_str_name()));
        let mut forged = games.clone();
        if let Some(g) = forged
            .iter_mut()
            .find(|g| g.termination().as_str_name().contains("ADJUDICATED"))
            .filter(|_| forgeries + 1 < ajaxlab_cluster::coordinator::MAX_REJECTIONS)
        {
            forgeries += 1;
            // The scores no longer support the adjudication.
            for m in &mut g.moves {
                m.score = Some(0);
            }
            g.termination = i32::from(v1::Termination::AdjudicatedResign);
            assert!(c.submit(&w, &Lease::of(&unit).unwrap(), &forged).is_err());
        }
        assert_eq!(
            c.submit(&w, &Lease::of(&unit).unwrap(), &games).unwrap(),
            Submitted::Accepted,
            "{terminations:?}"
        );
    }
    assert!(
        terminations.iter().any(|t| t.contains("ADJUDICATED")),
        "{terminations:?}"
    );
    assert_eq!(c.campaign(&campaign_id("adj")).unwrap().pairs_done, 6);
}

#[test]
fn the_load_generator_drives_a_coordinator_without_errors() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    // The last: units of 2 s at 1 game/s against a 5-s lease, renewed.
    for (spsa, rate) in [
        (false, None),
        (true, None),
        (false, Some(50.0)),
        (false, Some(1.0)),
    ] {
        let report = runtime
            .block_on(ajaxlab_cluster::loadgen::run_load(
                &temp_dir("coord"),
                &ajaxlab_cluster::loadgen::LoadPlan {
                    workers: 8,
                    duration: Duration::from_secs(if rate == Some(1.0) { 4 } else { 2 }),
                    channels: 2,
                    worker_games_per_second: rate,
                    ramp_up: Duration::from_millis(200),
                    warm_up: Duration::from_millis(100),
                    spsa,
                    unit_duration: Duration::from_secs(180),
                    lease: Duration::from_secs(5),
                    // Live web UI pages follow one of the runs.
                    live_pages: if rate == Some(50.0) { 4 } else { 0 },
                },
            ))
            .unwrap();
        assert_eq!(report.errors, 0, "{report:?}");
        // Four pages: two on the campaign (two parts), two on the list
        // (one), each sent its parts as it opens and as they change.
        let least_received = if rate == Some(50.0) { 6 } else { 0 };
        assert!(
            report.fragments_received >= least_received
                && (least_received > 0 || report.fragments_received == 0),
            "{report:?}"
        );
        assert_eq!(report.renewals > 0, rate == Some(1.0), "{report:?}");
        assert!(
            report.games_per_second > 0.0 && report.requests > 16,
            "{report:?}"
        );
        assert!(report.p99 >= report.p50, "{report:?}");
    }
}

#[test]
fn a_token_issued_while_the_coordinator_runs_is_accepted() {
    let (c, dir) = setup(Duration::from_secs(60));
    // `ajaxlab token` run beside the coordinator writes into its database,
    // without taking the state directory over.
    let token =
        ajaxlab_cluster::coordinator::issue_token_in(&dir, Scope::Operator, "later").unwrap();
    assert_eq!(c.token_scope(&token), Some(Scope::Operator));
    assert_eq!(c.token_scope("not-a-token"), None);
}

#[test]
fn workers_are_shared_between_running_campaigns_by_priority() {
    let c = Coordinator::open(&temp_dir("coord"), Duration::from_secs(60), 7).unwrap();
    for (name, priority) in [("high", 3), ("low", 1)] {
        c.create_campaign(&format!(
            "games = 100000\ntc = \"nodes=300\"\n[campaign]\nname = \"{name}\"\npriority = {priority}\n"
        ))
        .unwrap();
    }
    let w = c.register(&TokenHash::of("w"), "w", "test", 1, 7).unwrap();
    let mut pairs = std::collections::BTreeMap::<String, u64>::new();
    for _ in 0..400 {
        let unit = c.request_work(&w).unwrap().unwrap();
        *pairs.entry(unit.campaign_id).or_default() += u64::from(unit.pair_count);
    }
    let (high, low) = (pairs["high"] as f64, pairs["low"] as f64);
    assert!(
        (high / low - 3.0).abs() < 0.1,
        "pairs leased {pairs:?}: the priority-3 campaign gets three times the share"
    );
    // A paused campaign gets nothing; the other gets everything.
    c.set_campaign_state(&campaign_id("high"), CampaignState::Paused)
        .unwrap();
    for _ in 0..20 {
        assert_eq!(c.request_work(&w).unwrap().unwrap().campaign_id, "low");
    }
}

#[test]
fn an_excluded_worker_is_counted_out_and_its_units_are_played_again() {
    let (c, dir) = setup(Duration::from_secs(60));
    let suspect = c
        .register(&TokenHash::of("suspect"), "suspect", "test", 1, 7)
        .unwrap();
    let honest = c
        .register(&TokenHash::of("honest"), "honest", "test", 1, 7)
        .unwrap();
    for w in [&suspect, &honest] {
        let unit = c.request_work(w).unwrap().unwrap();
        c.submit(w, &Lease::of(&unit).unwrap(), &play(&unit))
            .unwrap();
    }
    // One more unit in the suspect's hands when it is excluded.
    let held = c.request_work(&suspect).unwrap().unwrap();
    assert_eq!(
        c.campaign(&campaign_id("state-test")).unwrap().pairs_done,
        2
    );
    let view = c
        .exclude_worker(&campaign_id("state-test"), &suspect.id)
        .unwrap();
    assert_eq!(view.pairs_done, 1, "the suspect's pair is counted out");
    assert!(
        c.is_excluded(&campaign_id("state-test"), &suspect.id)
            .unwrap()
    );
    assert!(
        c.request_work(&suspect).unwrap().is_none(),
        "no more units for it"
    );
    assert_eq!(
        c.submit(&suspect, &Lease::of(&held).unwrap(), &play(&held))
            .unwrap(),
        Submitted::Stale,
        "what it still holds is taken back"
    );
    let excluded = dir.join("campaigns/state-test/excluded");
    assert_eq!(std::fs::read_dir(&excluded).unwrap().count(), 1);
    while let Some(unit) = c.request_work(&honest).unwrap() {
        c.submit(&honest, &Lease::of(&unit).unwrap(), &play(&unit))
            .unwrap();
    }
    let view = c.campaign(&campaign_id("state-test")).unwrap();
    assert_eq!((view.state.as_str(), view.pairs_done), ("finished", 4));
    let mut ids: Vec<u64> = std::fs::read_dir(dir.join("campaigns/state-test"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "parquet"))
        .flat_map(|p| ajaxlab_store::read_games(&p).unwrap().games)
        .map(|g| g.game_id)
        .collect();
    ids.sort_unstable();
    assert_eq!(
        ids,
        (0..8).collect::<Vec<_>>(),
        "every game once, none of the suspect's"
    );
    assert!(matches!(
        c.exclude_worker(&campaign_id("nope"), &suspect.id),
        Err(CoordinatorError::Campaign(CampaignError::Unknown(_)))
    ));
}

#[test]
fn an_exclusion_cut_short_by_a_crash_is_finished_on_restart() {
    let (c, dir) = setup(Duration::from_secs(60));
    let w = c.register(&TokenHash::of("w"), "w", "test", 1, 7).unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    c.submit(&w, &Lease::of(&unit).unwrap(), &play(&unit))
        .unwrap();
    drop(c);
    // The first step of an exclusion: the file moved, the database not yet changed.
    let campaign = dir.join("campaigns/state-test");
    std::fs::create_dir_all(campaign.join("excluded")).unwrap();
    std::fs::rename(
        campaign.join(format!("unit-{}.parquet", unit.unit_id)),
        campaign.join(format!("excluded/unit-{}.{}.parquet", unit.unit_id, w.id)),
    )
    .unwrap();
    rusqlite::Connection::open(dir.join("coordinator.sqlite3"))
        .unwrap()
        .execute("insert into exclusions values ('state-test', ?1)", [&w.id])
        .unwrap();
    let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    assert_eq!(
        c.campaign(&campaign_id("state-test")).unwrap().pairs_done,
        0
    );
}

#[cfg(target_os = "linux")]
#[test]
fn a_state_directory_that_cannot_be_written_names_the_path_and_the_reason() {
    // /proc takes no new file even from root, whom a read-only mode does not stop.
    match Coordinator::open(std::path::Path::new("/proc"), Duration::from_secs(60), 7) {
        Err(CoordinatorError::Storage(e)) => {
            let m = e.to_string();
            assert!(
                m.contains("state directory /proc cannot be written to: "),
                "{m}"
            );
            assert!(m.contains("os error"), "the reason is missing: {m}");
        }
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("a coordinator opened on /proc"),
    }
}

/// The web UI's page benchmark, small: a coordinator of some campaigns and
/// workers, both pages served whole.
#[test]
fn the_page_benchmark_times_both_pages() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let times = runtime
        .block_on(ajaxlab_cluster::loadgen::page_times(
            &temp_dir("pages"),
            5,
            40,
            2,
        ))
        .unwrap();
    assert!(
        times.list.2 > 5 * 100 && times.workers_page.2 > 40 * 100,
        "{times:?}"
    );
    assert!(times.list.1 >= times.list.0, "{times:?}");
}
