//! The files a campaign names are copied at create time: deleting or
//! editing the original changes nothing mid-campaign, and a bad line is
//! named by file and line, never echoed.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::TokenHash;

use ajaxlab_cluster::coordinator::{
    CampaignError, CampaignState, Coordinator, CoordinatorError, Lease, Submitted,
};
use ajaxlab_proto::v1;
use common::{campaign_id, create_sending, play, temp_dir};
use std::path::Path;
use std::time::Duration;

/// The openings of the list the campaigns below are created from.
fn listed() -> Option<v1::Openings> {
    Some(v1::Openings {
        source: Some(v1::openings::Source::Numbers(v1::NumberList {
            numbers: vec![12, 40, 7],
        })),
        in_order: false,
    })
}

fn campaign(list: &Path) -> String {
    format!(
        "variant = \"chess960\"\ngames = 6\ntc = \"nodes=200\"\nopenings = \"list:{}\"\n[campaign]\nname = \"inputs\"\n[adjudication]\nmax_plies = 40\n",
        list.display()
    )
}

fn open(dir: &Path) -> Coordinator {
    Coordinator::open(dir, Duration::from_secs(60), 7).unwrap()
}

#[test]
fn a_deleted_or_edited_list_changes_nothing_mid_campaign() {
    let dir = temp_dir("inputs");
    let list = dir.with_extension("list.txt");
    std::fs::write(&list, "12, 40\n7\n").unwrap();
    let c = open(&dir);
    create_sending(&c, &campaign(&list)).unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let first = c.request_work(&w).unwrap().unwrap();
    assert_eq!(first.openings, listed());
    let games = play(&first);
    assert_eq!(
        c.submit(&w, &Lease::of(&first).unwrap(), &games).unwrap(),
        Submitted::Accepted
    );
    drop(c);

    std::fs::remove_file(&list).unwrap();
    let c = open(&dir);
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    assert_eq!(unit.openings, listed(), "the deleted list still plays");
    let games = play(&unit);
    c.submit(&w, &Lease::of(&unit).unwrap(), &games).unwrap();
    drop(c);

    std::fs::write(&list, "1\n2\n").unwrap();
    let c = open(&dir);
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    while let Some(unit) = c.request_work(&w).unwrap() {
        assert_eq!(unit.openings, listed(), "the edit is not seen");
        let games = play(&unit);
        c.submit(&w, &Lease::of(&unit).unwrap(), &games).unwrap();
    }
    let view = c.campaign(&campaign_id("inputs")).unwrap();
    assert_eq!((view.state.as_str(), view.pairs_done), ("finished", 3));
}

#[test]
fn a_changed_copy_pauses_its_campaign_only_and_a_restored_one_resumes() {
    let dir = temp_dir("inputs-copy");
    let list = dir.with_extension("copy.txt");
    std::fs::write(&list, "3\n").unwrap();
    let c = open(&dir);
    create_sending(&c, &campaign(&list)).unwrap();
    c.create_campaign("variant = \"chess960\"\ngames = 6\ntc = \"nodes=200\"\n[campaign]\nname = \"other\"\n[adjudication]\nmax_plies = 40\n")
        .unwrap();
    drop(c);
    let copy = copies(&dir).pop().unwrap();
    std::fs::write(&copy, "4\n").unwrap();

    // The coordinator starts; the campaign whose copy changed is paused,
    // naming the original, and the other one runs.
    let c = open(&dir);
    let unloaded = c.unloaded_campaigns();
    assert_eq!(unloaded.len(), 1, "{unloaded:?}");
    assert_eq!(unloaded[0].0, campaign_id("inputs"));
    assert!(
        unloaded[0]
            .1
            .contains(&format!("the copy of {}", list.display()))
            && unloaded[0].1.contains("has changed"),
        "{unloaded:?}"
    );
    let state = |c: &Coordinator, name| c.campaign(&campaign_id(name)).unwrap().state;
    assert_eq!(state(&c, "inputs").as_str(), "paused");
    assert_eq!(state(&c, "other").as_str(), "running");
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    assert_eq!(unit.campaign_id, "other", "the other campaign plays on");
    let e = c
        .set_campaign_state(&campaign_id("inputs"), CampaignState::Running)
        .unwrap_err()
        .to_string();
    assert!(e.contains("cannot run") && e.contains("has changed"), "{e}");

    // Put back, it resumes and plays.
    std::fs::write(&copy, "3\n").unwrap();
    c.set_campaign_state(&campaign_id("inputs"), CampaignState::Running)
        .unwrap();
    assert!(c.unloaded_campaigns().is_empty());
    assert_eq!(state(&c, "inputs").as_str(), "running");
}

/// A book played in order gives pair `k` its `k`-th line: the coordinator
/// checks each game against its pair's line and counts the campaign.
#[test]
fn a_book_played_in_order_is_checked_pair_by_pair() {
    let dir = temp_dir("inputs-sequential");
    let book = dir.with_extension("book.epd");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let lines = std::fs::read_to_string(root.join("configs/figures/chess-2ply.epd")).unwrap();
    std::fs::write(&book, &lines).unwrap();
    let c = open(&dir);
    create_sending(
        &c,
        &format!(
            "variant = \"chess\"\ngames = 6\ntc = \"nodes=100\"\nopenings = \"file:{},order=sequential\"\n[campaign]\nname = \"in-order\"\n[adjudication]\nmax_plies = 20\n",
            book.display()
        ),
    )
    .unwrap();
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    let mut starts = Vec::new();
    while let Some(unit) = c.request_work(&w).unwrap() {
        let games = play(&common::inlined(&c, &unit));
        starts.extend(games.iter().map(|g| (g.game_id, g.start_fen.clone())));
        assert_eq!(
            c.submit(&w, &Lease::of(&unit).unwrap(), &games).unwrap(),
            Submitted::Accepted
        );
    }
    starts.sort();
    let book_lines: Vec<&str> = lines.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(starts.len(), 6);
    for (game_id, fen) in &starts {
        let placement_to_en_passant: Vec<&str> = fen.split(' ').take(4).collect();
        let line = book_lines[(*game_id / 2) as usize];
        assert!(
            line.starts_with(&placement_to_en_passant.join(" ")),
            "game {game_id} starts at {fen}, not at its pair's line '{line}'"
        );
    }
    let view = c.campaign(&campaign_id("in-order")).unwrap();
    assert_eq!((view.state.as_str(), view.pairs_done), ("finished", 3));
}

#[test]
fn a_bad_line_names_the_file_and_line_without_its_content() {
    let dir = temp_dir("inputs-bad");
    let list = dir.with_extension("bad.txt");
    std::fs::write(&list, "12\nroot:x:0:0:root:/root:/bin/bash\n").unwrap();
    let c = open(&dir);
    let Err(CoordinatorError::Campaign(CampaignError::File(e))) =
        create_sending(&c, &campaign(&list))
    else {
        panic!("a bad list is refused");
    };
    let e = e.to_string();
    assert_eq!(
        e,
        format!(
            "openings: file {}: line 2: not a start number",
            list.display()
        )
    );
    std::fs::remove_file(&list).unwrap();
    let Err(CoordinatorError::Campaign(CampaignError::File(e))) =
        create_sending(&c, &campaign(&list))
    else {
        panic!("a missing list is refused");
    };
    let e = e.to_string();
    assert!(
        e.starts_with(&format!("openings: file {}: ", list.display())),
        "{e}"
    );
}

#[test]
fn an_spsa_params_file_is_captured_and_a_restart_reads_the_copy() {
    let dir = temp_dir("inputs-spsa");
    let lines = dir.with_extension("tune.txt");
    std::fs::write(
        &lines,
        "# falcon\nafc.falcon.mg, int, 600, 250, 1000, 25, 0.002\n",
    )
    .unwrap();
    let text = format!(
        "variant = \"ajax-falcon\"\ngames = 4\ntc = \"nodes=200\"\n[campaign]\nname = \"tune\"\nkind = \"spsa\"\n[spsa]\nparams_file = \"{}\"\n[adjudication]\nmax_plies = 40\n",
        lines.display()
    );
    let c = open(&dir);
    create_sending(&c, &text).unwrap();
    drop(c);
    std::fs::remove_file(&lines).unwrap();
    let c = open(&dir);
    let view = c.campaign(&campaign_id("tune")).unwrap();
    assert_eq!(view.spsa[0].name, "afc.falcon.mg");
    assert_eq!(view.spsa[0].value, 600.0, "the deleted file's start");
    let w = c.register(&TokenHash::of("w"), "w", "test", 2, 7).unwrap();
    assert!(c.request_work(&w).unwrap().is_some(), "the tune plays on");
}

/// The files in the coordinator's copy directory.
fn copies(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir.join("inputs"))
        .map(|entries| entries.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default()
}

#[test]
fn the_coordinator_reads_no_path_a_campaign_names() {
    let dir = temp_dir("inputs-no-path");
    let secret = dir.with_extension("secret");
    std::fs::write(&secret, "root:SECRET-HASH:0:0\n").unwrap();
    let c = open(&dir);
    for key in [
        "variants = \"{}\"\nvariant = \"x\"",
        "openings = \"list:{}\"",
    ] {
        let text = format!(
            "{}\ngames = 2\ntc = \"nodes=200\"\n[campaign]\nname = \"leak\"\n",
            key.replace("{}", &secret.display().to_string())
        );
        let Err(CoordinatorError::Campaign(CampaignError::File(e))) = c.create_campaign(&text)
        else {
            panic!("a campaign naming a file it did not send is refused");
        };
        let e = e.to_string();
        assert!(e.contains("was not sent with the campaign"), "{e}");
        assert!(!e.contains("SECRET"), "the file's text is echoed: {e}");
    }
    assert!(copies(&dir).is_empty(), "nothing of the file is copied");

    // Nor is a file sent that the campaign does not name taken.
    let sent = ajaxlab_cluster::campaign::inputs::SentFile {
        key: "variants".into(),
        path: "other.ini".into(),
        content: b"[x:chess]\n".to_vec(),
    };
    let e = c
        .create_shipped_campaign(&campaign(&secret), &[sent], &[])
        .unwrap_err()
        .to_string();
    assert!(e.contains("does not name it"), "{e}");
}

#[test]
fn a_sent_file_over_its_limit_is_refused_before_it_is_read() {
    let dir = temp_dir("inputs-limit");
    let c = open(&dir);
    let text = "variants = \"big.ini\"\nvariant = \"x\"\ngames = 2\ntc = \"nodes=200\"\n[campaign]\nname = \"big\"\n";
    let sent = ajaxlab_cluster::campaign::inputs::SentFile {
        key: "variants".into(),
        path: "big.ini".into(),
        content: vec![b'#'; (ajaxlab_files::limits::VARIANTS_FILE + 1) as usize],
    };
    let e = c
        .create_shipped_campaign(text, &[sent], &[])
        .unwrap_err()
        .to_string();
    assert_eq!(e, "variants: file big.ini: larger than the limit of 1 MiB");
    assert!(copies(&dir).is_empty());
}

#[test]
fn a_refused_campaign_leaves_no_copy_and_copies_are_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = temp_dir("inputs-refused");
    let list = dir.with_extension("refused.txt");
    std::fs::write(&list, "12\n40\n").unwrap();
    let c = open(&dir);
    let refused = campaign(&list).replace("games = 6", "games = 6\nno_such_key = 1");
    assert!(create_sending(&c, &refused).is_err());
    assert!(copies(&dir).is_empty(), "the refused campaign's list stays");

    create_sending(&c, &campaign(&list)).unwrap();
    let copies = copies(&dir);
    assert_eq!(copies.len(), 1);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&copies[0]), 0o600);
    assert_eq!(mode(&dir.join("inputs")), 0o700);
    // And the database (token hashes, campaign files) and the artifacts.
    assert_eq!(mode(&dir.join("coordinator.sqlite3")), 0o600);
    assert_eq!(mode(&dir.join("artifacts")), 0o700);
}

/// A campaign's book and variants file are sent to workers once, as
/// artifacts named by hash in every unit, not repeated in each: a real
/// worker fetches them and plays the campaign to its end.
#[test]
fn a_book_and_a_variants_file_travel_once_and_a_worker_plays_from_them() {
    use ajaxlab_cluster::coordinator::Scope;
    use ajaxlab_cluster::shutdown::Shutdown;
    use ajaxlab_cluster::work::bench_signature;
    use ajaxlab_cluster::worker::run_worker;
    use prost::Message as _;
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let dir = temp_dir("inputs-shared");
    let book = dir.with_extension("book.epd");
    let lines = std::fs::read_to_string(root.join("configs/figures/chess-4ply.epd")).unwrap();
    // 4,000 positions, about 400 KB.
    std::fs::write(&book, lines.repeat(10)).unwrap();
    let variants = root.join("configs/designer/squirrel.ini");
    let signature = bench_signature();
    let c =
        std::sync::Arc::new(Coordinator::open(&dir, Duration::from_secs(60), signature).unwrap());
    let text = |name: &str, extra: &str| {
        format!(
            "games = 4\ntc = \"nodes=100\"\n{extra}\n[campaign]\nname = \"{name}\"\n[adjudication]\nmax_plies = 30\n"
        )
    };
    create_sending(
        &c,
        &text(
            "book",
            &format!(
                "variant = \"chess\"\nopenings = \"file:{}\"",
                book.display()
            ),
        ),
    )
    .unwrap();
    let w = c
        .register(&TokenHash::of("look"), "look", "test", 1, signature)
        .unwrap();
    let unit = c.request_work(&w).unwrap().unwrap();
    assert!(unit.encoded_len() < 16_384, "{} bytes", unit.encoded_len());
    let full = common::inlined(&c, &unit);
    assert!(
        full.encoded_len() > 200_000,
        "the unit names the book it shares: {} bytes with it",
        full.encoded_len()
    );
    c.release(&w, &Lease::of(&unit).unwrap()).unwrap();
    create_sending(
        &c,
        &text(
            "designer",
            &format!(
                "variants = \"{}\"\nvariant = \"squirrel\"",
                variants.display()
            ),
        ),
    )
    .unwrap();

    let token = c.issue_token(Scope::Worker, "w").unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    runtime.block_on(async {
        let served = common::Served::start(std::sync::Arc::clone(&c)).await;
        let (stop, shutdown) = Shutdown::new();
        let worker = tokio::spawn(run_worker(
            common::local_worker(&served.url, token, "w", dir.join("worker-cache")),
            shutdown,
        ));
        let start = std::time::Instant::now();
        while ["book", "designer"]
            .iter()
            .any(|n| c.campaign(&campaign_id(n)).unwrap().state.as_str() != "finished")
        {
            assert!(start.elapsed() < Duration::from_secs(180), "not finished");
            tokio::time::sleep(Duration::from_millis(200)).await;
        }
        stop.stop();
        worker.await.unwrap().unwrap();
        served.stop().await;
    });
}
