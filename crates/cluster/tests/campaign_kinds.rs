//! The campaign kinds on a real coordinator, in-process, with games really
//! played: SPRT stops, SPSA units with their perturbations (and a restart in
//! the middle of a tune), piece-value parts with their imbalances, and
//! first-move surveys.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::{Lease, TokenHash, WorkerKey};

use ajaxlab_cluster::coordinator::{
    CampaignState, Coordinator, CoordinatorError, FINAL_SPSA, FINAL_TOML, PGN_FILE, Submitted,
};
use ajaxlab_proto::v1;
use common::{campaign_id, fetch_status_page, play, temp_dir};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

/// Leases, plays and submits units until the coordinator has none.
fn play_out(c: &Coordinator, worker: &WorkerKey) -> usize {
    let mut units = 0;
    while let Some(unit) = c.request_work(worker).unwrap() {
        let games = play(&common::inlined(c, &unit));
        assert_eq!(
            c.submit(worker, &Lease::of(&unit).unwrap(), &games)
                .unwrap(),
            Submitted::Accepted
        );
        units += 1;
    }
    units
}

#[test]
fn an_sprt_stops_as_soon_as_the_llr_crosses_a_bound() {
    let c = Coordinator::open(&temp_dir("kinds"), Duration::from_secs(60), 7).unwrap();
    c.create_campaign(
        r#"
variant = "ajax-falcon"
games = 200
tc = "nodes=400"
random_plies = 4
[campaign]
name = "sprt"
kind = "sprt"
[sprt]
elo0 = 0
elo1 = 50
[[players]]
engine = "builtin"
name = "strong"
tc = "depth=2"
[[players]]
engine = "builtin"
name = "weak"
tc = "depth=1"
[adjudication]
max_plies = 80
"#,
    )
    .unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    play_out(&c, &w);
    let view = c.campaign(&campaign_id("sprt")).unwrap();
    let sprt = view.sprt.clone().unwrap();
    assert_eq!(view.state, CampaignState::Finished);
    assert_eq!(sprt.verdict, ajaxlab_stats::Status::AcceptH1, "{view:?}");
    // Fishtest's stop: within the overshoot expected of a batch of its bound.
    assert!(sprt.llr >= sprt.bounds.upper - 0.5, "{sprt:?}");
    assert!(sprt.pairs_at_verdict > 0 && sprt.pairs_at_verdict <= view.pairs_done);
    assert!(
        view.pairs_done < view.pairs_total,
        "stopped early: {} of {} pairs",
        view.pairs_done,
        view.pairs_total
    );
    // A restarted coordinator rebuilds the same test from the counted units.
    drop(c);
}

#[test]
fn an_sprt_at_its_game_cap_says_so_with_its_bounds_on_every_view() {
    let c = Arc::new(Coordinator::open(&temp_dir("kinds"), Duration::from_secs(60), 7).unwrap());
    c.create_campaign(
        r#"
variant = "ajax-falcon"
games = 4
tc = "nodes=200"
[campaign]
name = "capped"
kind = "sprt"
[sprt]
elo0 = -1.75
elo1 = 0.25
[adjudication]
max_plies = 40
"#,
    )
    .unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 1, 7).unwrap();
    play_out(&c, &w);
    let view = c.campaign(&campaign_id("capped")).unwrap();
    assert_eq!(view.state, CampaignState::Finished);
    // The first player's games, as Fishtest's W/L/D.
    let first = view.first.unwrap();
    assert_eq!(
        first.wins + first.draws + first.losses,
        view.pentanomial.games()
    );
    // The live line of `ajaxlab campaign run`.
    let line = ajaxlab_cluster::local::standing(&view);
    assert!(
        line.contains("SPRT <-1.75, 0.25> normalized Elo")
            && line.contains("Fishtest's bounds)")
            && line.ends_with("ended at the game cap, no verdict"),
        "{line}"
    );
    // One pair of bounds, Fishtest's (Wald's at α = β = 0.05), on every view.
    let fishtest = "(-2.94, 2.94 Fishtest's bounds)";
    assert_eq!(line.matches("bounds").count(), 1, "{line}");
    assert!(line.contains(fishtest), "{line}");
    // What `ajaxlab campaign list` prints comes over the wire.
    let wire = view.to_proto();
    assert_eq!(
        format!("({:.2}, {:.2}", wire.llr_lower, wire.llr_upper),
        "(-2.94, 2.94"
    );
    assert_eq!((wire.elo0, wire.elo1), (-1.75, 0.25));
    assert_eq!(wire.elo_model, v1::EloModel::Normalized as i32);
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let html = runtime.block_on(fetch_status_page(Arc::clone(&c), "/campaigns/capped"));
    assert!(
        html.contains("SPRT &lt;-1.75, 0.25&gt; normalized Elo")
            && html.contains(fishtest)
            && html.matches("bounds").count() == 1
            && html.contains("ended at the game cap, no verdict"),
        "{html}"
    );
    let json = runtime.block_on(fetch_status_page(Arc::clone(&c), "/api/campaigns"));
    assert!(
        json.contains(r#""elo0":-1.75"#)
            && json.contains(r#""sprt_state":"ended at the game cap, no verdict""#),
        "{json}"
    );
}

/// A small tune of the Falcon's value from far below it, perturbed widely
/// (θ+ and θ− at least two pawns apart), over 32 games so that their net
/// score, and so θ's move, is seldom zero (16 games netted to zero twice
/// after engine changes).
const SPSA: &str = r#"
variant = "ajax-falcon"
games = 32
seed = 3
tc = "nodes=300"
random_plies = 2
[campaign]
name = "tune"
kind = "spsa"
[spsa]
[[spsa.params]]
name = "afc.falcon.mg"
start = 300
min = 250
max = 1000
c_end = 150
r_end = 0.02
[adjudication]
max_plies = 100
"#;

/// A finished tune's `final.toml` loads as the builtin engine's parameters
/// with the last θ of its trajectory rounded, and `final.spsa` reads back
/// as Fishtest's lines of the same values.
fn assert_final_files(dir: &Path) {
    let rows = ajaxlab_store::read_trajectory(&dir.join(ajaxlab_store::SPSA_FILE)).unwrap();
    let last = rows.last().unwrap();
    assert_eq!(last.param, "afc.falcon.mg");
    let toml = std::fs::read_to_string(dir.join(FINAL_TOML)).unwrap();
    let params = ajaxlab_engine::Params::from_text(&toml).unwrap();
    assert_eq!(
        f64::from(params.afc_falcon_mg),
        last.value.round(),
        "{toml}"
    );
    assert_ne!(params.afc_falcon_mg, 300, "θ moved: {toml}");
    let lines = std::fs::read_to_string(dir.join(FINAL_SPSA)).unwrap();
    let read = ajaxlab_stats::parse_spsa_lines(&lines).unwrap();
    assert_eq!(read.len(), 1, "{lines}");
    let param = &read[0].param;
    assert_eq!(
        (
            param.name.as_str(),
            param.start,
            param.min,
            param.max,
            param.c_end,
            param.r_end
        ),
        (
            "afc.falcon.mg",
            last.value.round(),
            250.0,
            1000.0,
            150.0,
            0.02
        )
    );
}

fn builtin(player: &mut v1::Player) -> &mut v1::BuiltinEngine {
    match &mut player.engine {
        Some(v1::player::Engine::Builtin(b)) => b,
        other => panic!("not a builtin player: {other:?}"),
    }
}

fn falcon(player: &v1::Player) -> i32 {
    let mut player = player.clone();
    let params = &builtin(&mut player).params;
    params
        .iter()
        .find(|p| p.name == "afc.falcon.mg")
        .unwrap()
        .value
}

#[test]
fn spsa_units_carry_their_perturbation_and_a_restart_changes_nothing() {
    // Straight through, with two units out at once at the start as in the
    // restarted run below (θ moves between issuing them otherwise).
    let dir = temp_dir("kinds");
    let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    c.create_campaign(SPSA).unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let mut units = Vec::new();
    let mut out: Vec<_> = (0..2).filter_map(|_| c.request_work(&w).unwrap()).collect();
    while let Some(unit) = (!out.is_empty())
        .then(|| out.remove(0))
        .or_else(|| c.request_work(&w).unwrap())
    {
        let (plus, minus) = (falcon(&unit.players[0]), falcon(&unit.players[1]));
        assert!(
            (plus - minus).abs() >= 20,
            "θ+ {plus} and θ− {minus} differ by 2·c_k"
        );
        let games = play(&unit);
        c.submit(&w, &Lease::of(&unit).unwrap(), &games).unwrap();
        units.push(unit.unit_id);
    }
    let straight = c.campaign(&campaign_id("tune")).unwrap();
    assert_eq!(straight.state, CampaignState::Finished);
    assert_eq!(straight.spsa.len(), 1);
    assert_ne!(straight.spsa[0].value, 300.0, "θ moved");
    let trajectory = dir.join("campaigns/tune/spsa.parquet");
    assert!(trajectory.exists());
    assert_final_files(&dir.join("campaigns/tune"));
    let straight_final =
        std::fs::read_to_string(dir.join("campaigns/tune").join(FINAL_SPSA)).unwrap();

    // The same tune with the coordinator restarted while two units are out.
    let dir = temp_dir("kinds");
    let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    c.create_campaign(SPSA).unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let first = c.request_work(&w).unwrap().unwrap();
    let second = c.request_work(&w).unwrap().unwrap();
    let first_games = play(&first);
    let second_games = play(&second);
    c.submit(&w, &Lease::of(&first).unwrap(), &first_games)
        .unwrap();
    drop(c);
    let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    assert_eq!(
        c.submit(&w, &Lease::of(&second).unwrap(), &second_games)
            .unwrap(),
        Submitted::Accepted,
        "the perturbation in flight survives the restart"
    );
    assert_eq!(
        c.submit(&w, &Lease::of(&first).unwrap(), &first_games)
            .unwrap(),
        Submitted::Duplicate
    );
    play_out(&c, &w);
    let restarted = c.campaign(&campaign_id("tune")).unwrap();
    assert_eq!(
        restarted.spsa, straight.spsa,
        "same θ as without the restart"
    );
    assert_eq!(restarted.pentanomial, straight.pentanomial);
    let tune = dir.join("campaigns/tune");
    assert_final_files(&tune);
    assert_eq!(
        std::fs::read_to_string(tune.join(FINAL_SPSA)).unwrap(),
        straight_final,
        "the same final values"
    );
}

#[test]
fn spsa_results_under_other_parameters_are_refused() {
    let c = Coordinator::open(&temp_dir("kinds"), Duration::from_secs(60), 7).unwrap();
    c.create_campaign(SPSA).unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let mut unit = c.request_work(&w).unwrap().unwrap();
    // A worker that plays θ+ against θ+ instead of θ−.
    let theta_plus = builtin(&mut unit.players[0]).params.clone();
    builtin(&mut unit.players[1]).params = theta_plus;
    let games = play(&unit);
    let e = c
        .submit(&w, &Lease::of(&unit).unwrap(), &games)
        .unwrap_err();
    assert!(
        matches!(&e, CoordinatorError::Submission(_) if e.to_string().contains("parameters")),
        "{e:?}"
    );
}

#[test]
fn a_stopped_tune_writes_its_values_as_they_stand_and_a_running_one_none() {
    let dir = temp_dir("kinds");
    let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    c.create_campaign(SPSA).unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    let games = play(&unit);
    c.submit(&w, &Lease::of(&unit).unwrap(), &games).unwrap();
    let tune = dir.join("campaigns/tune");
    assert!(!tune.join(FINAL_TOML).exists(), "nothing while it runs");
    c.set_campaign_state(&campaign_id("tune"), CampaignState::Stopped)
        .unwrap();
    let theta = c.campaign(&campaign_id("tune")).unwrap().spsa[0].value;
    let toml = std::fs::read_to_string(tune.join(FINAL_TOML)).unwrap();
    let params = ajaxlab_engine::Params::from_text(&toml).unwrap();
    assert_eq!(f64::from(params.afc_falcon_mg), theta.round(), "{toml}");
    assert!(tune.join(FINAL_SPSA).exists());
}

#[test]
fn piece_value_parts_play_their_imbalance_and_a_game_without_it_is_refused() {
    let c = Coordinator::open(&temp_dir("kinds"), Duration::from_secs(60), 7).unwrap();
    let views = c
        .create_campaign(
            r#"
variant = "chess"
games = 4
tc = "nodes=300"
random_plies = 2
[campaign]
name = "pv"
kind = "piece-value"
[piece_value]
[[piece_value.imbalances]]
name = "knight-odds"
first = ["-N@b1"]
[adjudication]
max_plies = 80
"#,
        )
        .unwrap();
    let ids: Vec<&str> = views.iter().map(|v| v.id.as_str()).collect();
    assert_eq!(ids, ["pv.knight-odds", "pv.pawn-odds"]);
    assert!(
        views
            .iter()
            .all(|v| v.kind == ajaxlab_store::RunKind::PieceValue)
    );
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    assert!(
        !unit.imbalance_first.is_empty(),
        "the unit carries its imbalance"
    );
    let honest = play(&unit);
    let odd = &honest[1];
    assert!(
        odd.start_fen.starts_with("r1bqkbnr/"),
        "the first player has Black in game 1 and gives the b8 knight: {}",
        odd.start_fen
    );
    let mut forged = unit.clone();
    forged.imbalance_first.clear();
    let games = play(&forged);
    let e = c
        .submit(&w, &Lease::of(&unit).unwrap(), &games)
        .unwrap_err();
    assert!(
        matches!(&e, CoordinatorError::Submission(_) if e.to_string().contains("opening")),
        "{e:?}"
    );
    assert_eq!(
        c.submit(&w, &Lease::of(&unit).unwrap(), &honest).unwrap(),
        Submitted::Accepted
    );
}

/// A designer's variant from a file: the work unit carries the definition
/// (the worker has no copy), the imbalance uses the file's letters, and
/// every stored game names the variant and carries the file's text, with
/// which the games are read back.
#[test]
fn a_piece_value_study_of_a_file_variant_ships_and_stores_its_definition() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let file = root.join("configs/designer/squirrel.ini");
    let text = std::fs::read_to_string(&file).unwrap();
    let dir = temp_dir("kinds");
    let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    common::create_sending(
        &c,
        &format!(
            r#"
variants = "{}"
variant = "squirrel"
games = 2
tc = "nodes=300"
random_plies = 2
[campaign]
name = "sq"
kind = "piece-value"
[piece_value]
[[piece_value.imbalances]]
name = "knight-for-squirrel"
first = ["S=N"]
[adjudication]
max_plies = 60
"#,
            file.display()
        ),
    )
    .unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    // The unit names the file by its hash; the worker fetches it once.
    let sent = unit.file_variant.as_ref().unwrap();
    let hash = ajaxlab_cluster::artifacts::ArtifactHash::of(text.as_bytes()).to_string();
    assert_eq!(
        (
            sent.name.as_str(),
            sent.variants_ini.as_str(),
            sent.variants_sha256.as_str()
        ),
        ("squirrel", "", hash.as_str())
    );
    let unit = common::inlined(&c, &unit);
    assert_eq!(unit.file_variant.as_ref().unwrap().variants_ini, text);
    let games = play(&unit);
    if unit.imbalance_first == ["S=N"] {
        assert!(
            games[0].start_fen.starts_with("rsbqkbnr/"),
            "{}",
            games[0].start_fen
        );
        assert!(
            games[0].start_fen.contains("/RNBQKBNR w"),
            "{}",
            games[0].start_fen
        );
    }
    c.submit(&w, &Lease::of(&unit).unwrap(), &games).unwrap();
    play_out(&c, &w);
    let mut stored = 0;
    for part in ["sq.knight-for-squirrel", "sq.pawn-odds"] {
        let view = c.campaign(&campaign_id(part)).unwrap();
        assert_eq!(view.state, CampaignState::Finished, "{part}");
    }
    let mut pending = vec![dir.clone()];
    while let Some(d) = pending.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == "parquet") {
                let read = ajaxlab_store::read_games(&path).unwrap();
                assert_eq!(read.metadata.variants_ini.as_deref(), Some(text.as_str()));
                assert!(read.games.iter().all(|g| g.variant.name() == "squirrel"));
                stored += read.games.len();
            }
        }
    }
    assert_eq!(stored, 4, "two games in each part");
}

#[test]
fn a_first_move_survey_counts_whites_score_and_jitter_separates_the_games() {
    let c = Coordinator::open(&temp_dir("kinds"), Duration::from_secs(60), 7).unwrap();
    c.create_campaign(
        r#"
variant = "chess"
games = 8
tc = "nodes=400~10%"
openings = "start"
random_plies = 0
[campaign]
name = "fm"
kind = "first-move"
[adjudication]
max_plies = 80
"#,
    )
    .unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    let games = play(&unit);
    let moves = |g: &v1::GameRecord| g.moves.iter().map(|m| m.uci.clone()).collect::<Vec<_>>();
    assert_ne!(
        moves(&games[0]),
        moves(&games[1]),
        "the same engine from the same start, yet different games"
    );
    c.submit(&w, &Lease::of(&unit).unwrap(), &games).unwrap();
    play_out(&c, &w);
    let view = c.campaign(&campaign_id("fm")).unwrap();
    assert_eq!(view.kind, ajaxlab_store::RunKind::FirstMove);
    assert_eq!(view.white.games(), 8);
    assert!(view.white_score().is_some());
    // Counted per start too (one start here: chess's own), for the web UI.
    let starts = c.start_counts(&campaign_id("fm")).unwrap();
    assert_eq!(starts.len(), 1, "{starts:?}");
    assert_eq!(starts[0].1, view.white);
}

#[test]
fn a_campaign_asking_for_pgn_writes_its_counted_games_when_it_ends() {
    let dir = temp_dir("kinds");
    let c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    let file = |name: &str, pgn: bool| {
        format!(
            "variant = \"ajax-falcon\"\ngames = 6\ntc = \"nodes=200\"\npgn = {pgn}\n\
             [campaign]\nname = \"{name}\"\n[adjudication]\nmax_plies = 40\n"
        )
    };
    c.create_campaign(&file("with-pgn", true)).unwrap();
    c.create_campaign(&file("without-pgn", false)).unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 1, 7).unwrap();
    let pgn = |id: &str| dir.join("campaigns").join(id).join(PGN_FILE);
    // Not before the campaign ends: a unit in, none out yet.
    let unit = c.request_work(&w).unwrap().unwrap();
    let id = unit.campaign_id.clone();
    c.submit(&w, &Lease::of(&unit).unwrap(), &play(&unit))
        .unwrap();
    assert!(!pgn(&id).exists(), "{id}: written before it ended");
    play_out(&c, &w);
    let text = std::fs::read_to_string(pgn("with-pgn")).unwrap();
    assert_eq!(text.matches("[Event ").count(), 6, "{text}");
    let rounds: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("[Round \""))
        .collect();
    assert_eq!(
        rounds,
        ["1.1\"]", "1.2\"]", "2.1\"]", "2.2\"]", "3.1\"]", "3.2\"]"]
    );
    assert!(text.contains("[Variant \"ajax-falcon\"]"), "{text}");
    assert!(!pgn("without-pgn").exists(), "PGN was not asked for");
    // Lost between the end and the write (a crash): written at start-up.
    std::fs::remove_file(pgn("with-pgn")).unwrap();
    drop(c);
    let _c = Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap();
    assert_eq!(std::fs::read_to_string(pgn("with-pgn")).unwrap(), text);
}

#[test]
fn the_fairy_stockfish_campaigns_of_configs_parse() {
    use ajaxlab_cluster::campaign::{CampaignKind, SpsaTarget, parse_campaign};
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // Their paths are relative to the repository's root.
    let read = |file: &str| {
        std::fs::read_to_string(root.join(file))
            .unwrap()
            .replace("\"configs/", &format!("\"{}/configs/", root.display()))
    };
    let tune = parse_campaign(&read("configs/spsa-fsf-falcon.toml")).unwrap();
    let CampaignKind::Spsa {
        target: SpsaTarget::Template(t),
        tune,
    } = &tune[0].kind
    else {
        panic!("{:?}", tune[0].kind)
    };
    assert_eq!(t.option, "VariantPath");
    assert_eq!(t.file_name, "fsf-afc-falcon.ini");
    assert_eq!(tune.params[0].start, 400.0);
    let filled = t.template.fill(&[("falcon", 1234)]);
    assert!(filled.contains("pieceValueMg = f:1234\npieceValueEg = f:1234\n"));
    assert!(filled.contains("[ajaxfalcon]\n"), "{filled}");
    let parts = parse_campaign(&read("configs/figures/afc-piece-values-fsf.toml")).unwrap();
    let names: Vec<&str> = parts.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "afc-piece-values-fsf.falcon-for-minister",
            "afc-piece-values-fsf.pawn-odds"
        ]
    );
}
