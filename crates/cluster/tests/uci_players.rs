//! UCI players in campaigns on a real coordinator, in-process: shipped by
//! hash in the work units of every kind, refused naming the key when not
//! shipped, their games validated as the builtin engine's are, and a worker
//! that cannot start an engine given no more of that campaign's units.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::{Lease, TokenHash, WorkerKey};

use ajaxlab_arena::MatchConfig;
use ajaxlab_arena::config::{PlayerConfig, PlayerKind};
use ajaxlab_arena::pair::{make_player, play_pair};
use ajaxlab_cluster::campaign::inputs::Input;
use ajaxlab_cluster::coordinator::{Coordinator, CoordinatorError, Scope, Submitted};
use ajaxlab_cluster::shutdown::Shutdown;
use ajaxlab_cluster::worker::run_worker;
use ajaxlab_engine::Features;
use ajaxlab_proto::v1;
use common::{Served, campaign_id, fetch_status_page, temp_dir};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn open(dir: &Path) -> Coordinator {
    Coordinator::open(dir, Duration::from_secs(60), 7).unwrap()
}

/// Writes `bytes` to `dir/name`, stores it as an artifact, and names it as
/// the campaign file's `key` does.
fn ship(c: &Coordinator, dir: &Path, key: &str, name: &str, bytes: &[u8]) -> Input {
    std::fs::create_dir_all(dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    Input {
        key: key.into(),
        path: name.into(),
        sha256: c.artifacts().put_file(&path).unwrap().to_string(),
    }
}

fn uci_of(unit: &v1::WorkUnit, i: usize) -> &v1::UciEngine {
    match &unit.players[i].engine {
        Some(v1::player::Engine::Uci(u)) => u,
        other => panic!("player {i}: {other:?}"),
    }
}

const TWO_ENGINES: &str = r#"
variant = "ajax-falcon"
games = 8
tc = "nodes=200"
[campaign]
name = "two"
[[players]]
engine = "uci"
name = "patched"
path = "engine-a"
args = ["uci"]
options = { VariantPath = "variants.ini", Hash = 8 }
[[players]]
engine = "uci"
name = "installed"
worker_path = "/usr/games/fairy-stockfish"
"#;

/// Ships what [`TWO_ENGINES`] names from the operator's directory under `dir`:
/// the first player's binary and its variants file.
fn ship_two_engines(c: &Coordinator, dir: &Path) -> [Input; 2] {
    let files = dir.join("operator");
    [
        ship(c, &files, "players[0].path", "engine-a", b"#!/bin/sh\n"),
        ship(
            c,
            &files,
            "players[0].options.VariantPath",
            "variants.ini",
            b"[x]\n",
        ),
    ]
}

#[test]
fn units_carry_shipped_engines_by_hash_and_installed_ones_by_path() {
    let dir = temp_dir("uci-ship");
    let c = open(&dir.join("state"));
    let [binary, ini] = ship_two_engines(&c, &dir);
    c.create_shipped_campaign(TWO_ENGINES, &[], &[binary.clone(), ini.clone()])
        .unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 1, 7).unwrap();
    let check = |unit: &v1::WorkUnit| {
        let shipped = uci_of(unit, 0);
        assert_eq!(shipped.sha256.as_deref(), Some(binary.sha256.as_str()));
        assert_eq!(shipped.worker_path, "");
        let option = shipped
            .options
            .iter()
            .find(|o| o.name == "VariantPath")
            .unwrap();
        assert_eq!(option.sha256.as_deref(), Some(ini.sha256.as_str()));
        assert_eq!(option.value, "variants.ini");
        let hash = shipped.options.iter().find(|o| o.name == "Hash").unwrap();
        assert_eq!(hash.sha256, None);
        let installed = uci_of(unit, 1);
        assert_eq!(installed.sha256, None);
        assert_eq!(installed.worker_path, "/usr/games/fairy-stockfish");
        // The worker reads it back; the shipped binary's command is its
        // cached copy, set once fetched.
        let config = MatchConfig::try_from(unit).unwrap();
        assert!(
            matches!(&config.players[0].kind, PlayerKind::Uci(u) if u.command == Path::new(""))
        );
    };
    let unit = c.request_work(&w).unwrap().unwrap();
    check(&unit);
    // A restarted coordinator ships the same.
    drop(c);
    let c = open(&dir.join("state"));
    let w = c.register(&TokenHash::of("w"), "w", "test", 1, 7).unwrap();
    check(&c.request_work(&w).unwrap().unwrap());
}

#[test]
fn a_campaign_of_uci_players_only_is_played_by_workers_of_any_build() {
    let dir = temp_dir("uci-any-build");
    let c = open(&dir.join("state"));
    let [binary, ini] = ship_two_engines(&c, &dir);
    c.create_shipped_campaign(TWO_ENGINES, &[], &[binary, ini])
        .unwrap();
    c.create_campaign(
        "variant = \"ajax-falcon\"\ngames = 8\n[campaign]\nname = \"builtin\"\npriority = 1000\n",
    )
    .unwrap();
    // The coordinator's own build is 7; this worker's builtin engine is another.
    let other = c.register(&TokenHash::of("w"), "w", "test", 1, 8).unwrap();
    let mut campaigns = std::collections::BTreeSet::new();
    while let Some(unit) = c.request_work(&other).unwrap() {
        campaigns.insert(unit.campaign_id.clone());
    }
    assert_eq!(campaigns.into_iter().collect::<Vec<_>>(), ["two"]);
}

#[test]
fn every_kind_takes_uci_players() {
    let dir = temp_dir("uci-kinds");
    let c = open(&dir.join("state"));
    let binary = ship(&c, &dir, "players[0].path", "engine-a", b"#!/bin/sh\n");
    let player = "[[players]]\nengine = \"uci\"\npath = \"engine-a\"\n";
    let pair = format!("{player}{player}");
    for (name, kind, extra, players) in [
        ("m", "match", "", pair.as_str()),
        ("s", "sprt", "[sprt]\nelo0 = 0\nelo1 = 5\n", pair.as_str()),
        ("f", "first-move", "", player),
        (
            "pv",
            "piece-value",
            "[piece_value]\n[[piece_value.imbalances]]\nname = \"ff\"\nfirst = [\"M=F\"]\n",
            player,
        ),
    ] {
        let text = format!(
            "variant = \"ajax-falcon\"\ngames = 4\n[campaign]\nname = \"{name}\"\nkind = \"{kind}\"\n{extra}{players}"
        );
        let views = c
            .create_shipped_campaign(&text, &[], std::slice::from_ref(&binary))
            .unwrap();
        assert!(!views.is_empty(), "{kind}");
    }
    let w = c.register(&TokenHash::of("w"), "w", "test", 1, 7).unwrap();
    let mut units = 0;
    while let Some(unit) = c.request_work(&w).unwrap() {
        for i in 0..2 {
            assert_eq!(
                uci_of(&unit, i).sha256.as_deref(),
                Some(binary.sha256.as_str())
            );
        }
        c.release(&w, &Lease::of(&unit).unwrap()).unwrap();
        units += 1;
        if units > 20 {
            break;
        }
    }
    assert!(units > 0);
    // SPSA moves the engine's options: each unit sets the tuned option to
    // θ+ for the first player and θ− for the second.
    let spsa = |name: &str, start: &str| {
        format!(
            "games = 8\n[campaign]\nname = \"{name}\"\nkind = \"spsa\"\n[spsa]\n[[spsa.params]]\nname = \"afc.falcon.mg\"\n{start}min = 300\nmax = 900\nc_end = 20\nr_end = 0.002\n{player}"
        )
    };
    let e = c
        .create_shipped_campaign(&spsa("no-start", ""), &[], std::slice::from_ref(&binary))
        .unwrap_err();
    assert!(e.to_string().contains("spsa.params[0].start"), "{e}");
    c.create_shipped_campaign(&spsa("tune", "start = 400\n"), &[], &[binary])
        .unwrap();
    let unit = std::iter::from_fn(|| c.request_work(&w).unwrap())
        .find(|u| u.campaign_id == "tune")
        .unwrap();
    let values: Vec<i32> = (0..2)
        .map(|i| {
            let option = uci_of(&unit, i)
                .options
                .iter()
                .find(|o| o.name == "afc.falcon.mg")
                .unwrap();
            option.value.parse().unwrap()
        })
        .collect();
    assert_eq!(
        (values[0] - 400).abs(),
        (values[1] - 400).abs(),
        "{values:?}"
    );
    assert!(values[0] != values[1], "{values:?}");
}

#[test]
fn an_engine_not_shipped_or_an_artifact_not_stored_is_refused_naming_the_key() {
    let dir = temp_dir("uci-refused");
    let c = open(&dir.join("state"));
    let e = c
        .create_shipped_campaign(TWO_ENGINES, &[], &[])
        .unwrap_err();
    assert!(matches!(e, CoordinatorError::Campaign(_)), "{e:?}");
    let text = e.to_string();
    assert!(
        text.contains("players[0].path") && text.contains("'engine-a' was not shipped"),
        "{text}"
    );
    let absent = Input {
        key: "players[0].path".into(),
        path: "engine-a".into(),
        sha256: "ab".repeat(32),
    };
    let text = c
        .create_shipped_campaign(TWO_ENGINES, &[], &[absent])
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("players[0].path")
            && text.contains(&format!("artifact {} is not stored", "ab".repeat(32))),
        "{text}"
    );
    let bad = Input {
        key: "players[0].path".into(),
        path: "engine-a".into(),
        sha256: "xyz".into(),
    };
    let text = c
        .create_shipped_campaign(TWO_ENGINES, &[], &[bad])
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("players[0].path") && text.contains("'xyz'"),
        "{text}"
    );
    assert!(c.campaigns().unwrap().is_empty(), "nothing is stored");
}

/// The games of `unit` as a worker playing the UCI players would record
/// them, played here by builtin engines under the UCI players' names and
/// with their options (none of which names a file here).
fn play_as_uci(unit: &v1::WorkUnit) -> Vec<v1::GameRecord> {
    let options = |i: usize| -> Vec<v1::EngineOption> {
        uci_of(unit, i)
            .options
            .iter()
            .map(|o| v1::EngineOption {
                name: o.name.clone(),
                value: o.value.clone(),
            })
            .collect()
    };
    let mut config = MatchConfig::try_from(unit).unwrap();
    for p in &mut config.players {
        *p = PlayerConfig {
            kind: PlayerKind::Builtin(Box::default(), Features::default()),
            ..p.clone()
        };
    }
    let stop = Arc::new(AtomicBool::new(false));
    let mut players = [
        make_player(&config.players[0], 8, &stop).unwrap(),
        make_player(&config.players[1], 8, &stop).unwrap(),
    ];
    (unit.first_pair..unit.first_pair + u64::from(unit.pair_count))
        .flat_map(|p| play_pair(&config, p, &mut players))
        .map(|g| {
            let mut g = v1::GameRecord::try_from(&g).unwrap();
            // External engines' games carry no parameter vector.
            g.white_params.clear();
            g.black_params.clear();
            let swapped = usize::from(g.game_id % 2 == 1);
            g.white_options = options(swapped);
            g.black_options = options(1 - swapped);
            g
        })
        .collect()
}

#[test]
fn a_forged_result_or_an_illegal_move_of_a_uci_game_is_refused() {
    let dir = temp_dir("uci-forged");
    let c = open(&dir.join("state"));
    let binary = ship(&c, &dir, "players[0].path", "engine-a", b"#!/bin/sh\n");
    let text = TWO_ENGINES.replace("[[players]]\nengine = \"uci\"\nname = \"installed\"\nworker_path = \"/usr/games/fairy-stockfish\"\n", "[[players]]\nengine = \"uci\"\nname = \"other\"\npath = \"engine-a\"\n[adjudication]\nmax_plies = 60\n");
    c.create_shipped_campaign(&text, &[], &[binary]).unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 1, 7).unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    let honest = play_as_uci(&unit);
    let submit = |games: &[v1::GameRecord]| c.submit(&w, &Lease::of(&unit).unwrap(), games);
    let refused = |games: Vec<v1::GameRecord>, why: &str| {
        let e = submit(&games).unwrap_err().to_string();
        assert!(e.contains(why), "{why}: {e}");
    };
    let mut illegal = honest.clone();
    illegal[0].moves[3].uci = "a1a9".into();
    refused(illegal, "move 4");
    let mut result = honest.clone();
    let (white, black) = (
        i32::from(v1::GameResult::WhiteWins),
        i32::from(v1::GameResult::BlackWins),
    );
    result[1].result = if result[1].result == white {
        black
    } else {
        white
    };
    refused(result, "does not follow");
    let mut named = honest.clone();
    named[0].white_name = "someone".into();
    refused(named, "players differ");
    let mut set = honest.clone();
    set[1].black_options[0].value = "64".into();
    refused(set, "UCI options differ");
    let mut unset = honest.clone();
    unset[0].white_options.clear();
    refused(unset, "UCI options differ");
    assert_eq!(submit(&honest).unwrap(), Submitted::Accepted);
}

/// A real worker given a campaign whose players run `engine` (shipped),
/// with `extra` added to the second player: until it reports an engine
/// failure. Returns the coordinator, its signature and the worker's cache.
/// A coordinator whose one worker could not start an engine of campaign
/// `two`, and what the checks need of that worker.
struct FailedWorker {
    c: Arc<Coordinator>,
    signature: u64,
    cache: PathBuf,
    /// The token the worker registered with.
    token: TokenHash,
}

fn failing_worker(tag: &str, engine: &[u8], extra: &str) -> FailedWorker {
    let dir = temp_dir(tag);
    // A real worker is served campaigns of its own build's signature.
    let signature = ajaxlab_cluster::work::bench_signature();
    let c = Arc::new(
        Coordinator::open(&dir.join("state"), Duration::from_secs(60), signature).unwrap(),
    );
    let binary = ship(&c, &dir, "players[0].path", "engine-a", engine);
    let text = TWO_ENGINES.replace(
        "worker_path = \"/usr/games/fairy-stockfish\"",
        &format!("path = \"engine-a\"\n{extra}"),
    );
    c.create_shipped_campaign(&text, &[], &[binary]).unwrap();
    let token = c.issue_token(Scope::Worker, "w").unwrap();
    let token_hash = TokenHash::of(&token);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    runtime.block_on(async {
        let served = Served::start(Arc::clone(&c)).await;
        let (stop_worker, shutdown) = Shutdown::new();
        let worker = tokio::spawn(run_worker(
            common::local_worker(&served.url, token, "broken", dir.join("cache")),
            shutdown,
        ));
        let start = Instant::now();
        while c.engine_failures(&campaign_id("two")).unwrap().is_empty() {
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "no failure reported"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        stop_worker.stop();
        worker.await.unwrap().unwrap();
        served.stop().await;
        // The campaign's page names the worker and why.
        let html = fetch_status_page(Arc::clone(&c), "/campaigns/two").await;
        let failure = &c.engine_failures(&campaign_id("two")).unwrap()[0];
        assert!(
            html.contains(&format!(
                "worker {} cannot start an engine: player",
                failure.worker
            )),
            "{html}"
        );
    });
    FailedWorker {
        c,
        signature,
        cache: dir.join("cache"),
        token: token_hash,
    }
}

#[test]
fn a_worker_that_cannot_start_an_engine_gets_no_more_units_of_that_campaign() {
    // Shipped, hash checked and made executable, but not a program.
    let FailedWorker {
        c,
        signature,
        cache,
        token,
    } = failing_worker("uci-start", b"not an executable\n", "");
    let failures = c.engine_failures(&campaign_id("two")).unwrap();
    assert_eq!(failures.len(), 1);
    assert!(
        failures[0].reason.contains("player 'patched'"),
        "{failures:?}"
    );
    // The fetched copy is the shipped one.
    let cached: Vec<PathBuf> = std::fs::read_dir(cache)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(cached.len(), 1);
    assert_eq!(std::fs::read(&cached[0]).unwrap(), b"not an executable\n");
    // The unit was given back, nothing counted; the worker gets no more of
    // this campaign, another worker gets the same pairs.
    let view = c.campaign(&campaign_id("two")).unwrap();
    assert_eq!(view.pairs_done, 0);
    let broken = WorkerKey {
        id: failures[0].worker.clone(),
        token,
    };
    assert!(c.request_work(&broken).unwrap().is_none());
    let other = c
        .register(&TokenHash::of("other"), "other", "test", 1, signature)
        .unwrap();
    assert_eq!(c.request_work(&other).unwrap().unwrap().first_pair, 0);
}

#[test]
fn a_build_whose_bench_differs_is_refused_with_both_numbers() {
    let FailedWorker { c, .. } = failing_worker(
        "uci-bench",
        b"#!/bin/sh\necho 'Nodes searched : 5'\n",
        "bench = 6",
    );
    let failures = c.engine_failures(&campaign_id("two")).unwrap();
    assert!(
        failures[0].reason.contains("player 'installed'")
            && failures[0]
                .reason
                .contains("searched 5 nodes, the player states bench = 6"),
        "{failures:?}"
    );
}

/// `honest` made to claim that the second player's engine crashed at once
/// in every game: at ply 0 when it is White, at ply 1 when it is Black, so
/// that the first player wins every pair.
fn claim_crashes(honest: &[v1::GameRecord]) -> Vec<v1::GameRecord> {
    honest
        .iter()
        .map(|g| {
            let mut g = g.clone();
            let second_is_white = g.game_id % 2 == 1;
            g.moves.truncate(usize::from(!second_is_white));
            g.termination = i32::from(v1::Termination::EngineCrash);
            g.result = i32::from(if second_is_white {
                v1::GameResult::BlackWins
            } else {
                v1::GameResult::WhiteWins
            });
            let start = ajaxlab_rules::Position::from_fen_in(
                ajaxlab_rules::VariantKind::AjaxFalcon.variant(),
                &g.start_fen,
            )
            .unwrap();
            let mut game = ajaxlab_rules::Game::new(start);
            let played = g.opening_moves.iter().chain(g.moves.iter().map(|m| &m.uci));
            for uci in played {
                let mv = game.position().parse_uci(uci).unwrap();
                game.play(mv).unwrap();
            }
            g.final_fen = game.position().fen();
            g
        })
        .collect()
}

#[test]
fn a_token_whose_games_end_in_claimed_crashes_is_refused_and_counted_out() {
    let dir = temp_dir("uci-crash-claims");
    let c = open(&dir.join("state"));
    let binary = ship(&c, &dir, "players[0].path", "engine-a", b"#!/bin/sh\n");
    let text = TWO_ENGINES
        .replace("games = 8", "games = 80")
        .replace("[[players]]\nengine = \"uci\"\nname = \"installed\"\nworker_path = \"/usr/games/fairy-stockfish\"\n", "[[players]]\nengine = \"uci\"\nname = \"other\"\npath = \"engine-a\"\n[adjudication]\nmax_plies = 60\n");
    c.create_shipped_campaign(&text, &[], &[binary]).unwrap();
    let honest = c
        .register(&TokenHash::of("honest"), "h", "test", 1, 7)
        .unwrap();
    // Enough of the others' games to compare with (a token alone is not judged).
    while c.campaign(&campaign_id("two")).unwrap().pairs_done < 20 {
        let unit = c.request_work(&honest).unwrap().unwrap();
        let games = play_as_uci(&unit);
        assert_eq!(
            c.submit(&honest, &Lease::of(&unit).unwrap(), &games)
                .unwrap(),
            Submitted::Accepted
        );
    }
    let honest_pairs = c.campaign(&campaign_id("two")).unwrap().pairs_done;
    let liar = c
        .register(&TokenHash::of("liar"), "l", "test", 1, 7)
        .unwrap();
    let mut refusal = None;
    for _ in 0..8 {
        let Some(unit) = c.request_work(&liar).unwrap() else {
            break;
        };
        let claimed = claim_crashes(&play_as_uci(&unit));
        match c.submit(&liar, &Lease::of(&unit).unwrap(), &claimed) {
            Ok(Submitted::Accepted) => {}
            Err(e) => {
                refusal = Some(e.to_string());
                break;
            }
            other => panic!("{other:?}"),
        }
    }
    let refusal = refusal.expect("the claimed crashes were never refused");
    assert!(
        refusal.contains("ended in a claimed engine crash") && refusal.contains("other workers"),
        "{refusal}"
    );
    let view = c.campaign(&campaign_id("two")).unwrap();
    assert_eq!(
        view.pairs_done, honest_pairs,
        "the liar's games are counted out"
    );
    assert!(
        c.request_work(&liar).unwrap().is_none(),
        "the liar's token gets no more units"
    );
}

/// An artifact of a campaign refused after its upload stays no longer
/// than a day past the next start; what a campaign ships stays.
#[test]
fn artifacts_no_campaign_uses_are_removed_at_start_once_a_day_old() {
    let dir = temp_dir("uci-garbage");
    let state = dir.join("state");
    let c = open(&state);
    let [binary, ini] = ship_two_engines(&c, &dir);
    c.create_shipped_campaign(TWO_ENGINES, &[], &[binary.clone(), ini.clone()])
        .unwrap();
    let orphan = ship(
        &c,
        &dir,
        "players[0].path",
        "refused-engine",
        b"#!/bin/sh\nexit 1\n",
    );
    let young = ship(
        &c,
        &dir,
        "players[0].path",
        "being-created",
        b"#!/bin/sh\nexit 2\n",
    );
    drop(c);
    let day_and_more = std::time::SystemTime::now() - Duration::from_secs(25 * 3600);
    for input in [&binary, &ini, &orphan] {
        let path = state.join("artifacts/sha256").join(&input.sha256);
        std::fs::File::options()
            .append(true)
            .open(path)
            .unwrap()
            .set_modified(day_and_more)
            .unwrap();
    }
    let c = open(&state);
    let held = |i: &Input| c.artifacts().contains(i.sha256.parse().unwrap());
    assert!(held(&binary) && held(&ini), "what the campaign ships stays");
    assert!(
        held(&young),
        "a young upload may be a campaign being created"
    );
    assert!(!held(&orphan), "the refused campaign's upload is gone");
}
