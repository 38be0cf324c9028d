//! The operator's web UI in a real browser: Debian's Chromium driven over
//! WebDriver (chromedriver, installed by `.ci/run`) against a coordinator
//! and a worker run as processes. An operator signs in with an operator
//! token (a worker's is refused), creates an SPRT of two builtin
//! configurations from the form (a bad name comes back beside its field,
//! as text), watches its game count and LLR move without a reload, pauses
//! and resumes it, and sees the verdict; SPSA, piece-value, first-move and
//! match campaigns created as files render what their kinds show; a POST
//! without the CSRF token is refused; a player named `<script>…` is text on
//! every page.
//!
//! With `AJAXLAB_SCREENSHOTS=DIR` the test also saves the screenshots the
//! README shows (`docs/images/web-*.png`).

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use common::{Process, coordinator, temp_dir, token, worker};
use fantoccini::{Client, ClientBuilder, Locator};
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A script tag's text that must never run.
const XSS: &str = "<script>alert(1)</script>";

/// A headless Chromium under chromedriver, both ended with the test.
struct Browser {
    client: Client,
    _driver: Process,
}

impl Browser {
    async fn start(profile: &Path) -> Browser {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let driver = Process(
            Command::new("/usr/bin/chromedriver")
                .arg(format!("--port={port}"))
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("Debian's chromium-driver is needed (.ci/run installs it)"),
        );
        let args = [
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--window-size=1300,1500",
        ]
        .iter()
        .map(|a| (*a).to_owned())
        .chain([format!("--user-data-dir={}", profile.display())])
        .collect::<Vec<_>>();
        let mut caps = serde_json::Map::new();
        caps.insert(
            "goog:chromeOptions".into(),
            serde_json::json!({ "binary": "/usr/bin/chromium", "args": args }),
        );
        let url = format!("http://127.0.0.1:{port}");
        let start = Instant::now();
        let client = loop {
            let connector = hyper_util::client::legacy::connect::HttpConnector::new();
            match ClientBuilder::new(connector)
                .capabilities(caps.clone())
                .connect(&url)
                .await
            {
                Ok(client) => break client,
                Err(e) if start.elapsed() < Duration::from_secs(30) => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                Err(e) => panic!("chromedriver: {e}"),
            }
        };
        Browser {
            client,
            _driver: driver,
        }
    }
}

/// The text of the first element `css` finds. A live part may replace
/// the element between finding it and reading it: it is found again.
async fn text(c: &Client, css: &str) -> String {
    let mut last = None;
    for _ in 0..10 {
        match c.find(Locator::Css(css)).await.unwrap().text().await {
            Ok(text) => return text,
            Err(e) if e.to_string().contains("stale element") => last = Some(e),
            Err(e) => panic!("{css}: {e}"),
        }
    }
    panic!("{css}: replaced at every reading: {last:?}")
}

/// Waits up to `secs` for `css`'s text to satisfy `ok`; its last text.
async fn wait_text(c: &Client, css: &str, secs: u64, ok: impl Fn(&str) -> bool) -> String {
    let start = Instant::now();
    loop {
        let found = match c.find(Locator::Css(css)).await {
            Ok(e) => e.text().await.unwrap_or_default(),
            Err(_) => String::new(),
        };
        if ok(&found) {
            return found;
        }
        if start.elapsed() > Duration::from_secs(secs) {
            let page = text(c, "main").await;
            panic!("{css}: still '{found}' after {secs} s on a page that reads:\n{page}");
        }
        tokio::time::sleep(Duration::from_millis(300)).await;
    }
}

/// Types `value` into the field named `name`, replacing what it holds.
async fn fill(c: &Client, name: &str, value: &str) {
    let field = c
        .find(Locator::Css(&format!("[name='{name}']")))
        .await
        .unwrap();
    field.clear().await.unwrap();
    field.send_keys(value).await.unwrap();
}

async fn click(c: &Client, css: &str) {
    c.find(Locator::Css(css))
        .await
        .unwrap()
        .click()
        .await
        .unwrap();
}

async fn screenshot(c: &Client, name: &str) {
    if let Some(dir) = std::env::var_os("AJAXLAB_SCREENSHOTS") {
        let png = c.screenshot().await.unwrap();
        std::fs::write(Path::new(&dir).join(format!("web-{name}.png")), png).unwrap();
    }
}

/// Signs in with the token in `file`; the page it lands on.
async fn sign_in(c: &Client, web: &str, file: &Path) {
    c.goto(&format!("{web}/sign-in")).await.unwrap();
    fill(c, "token", std::fs::read_to_string(file).unwrap().trim()).await;
    click(c, "form.card button[type=submit]").await;
}

/// A plain HTTP request; the status line and the rest.
fn http(addr: &str, request: &str) -> String {
    let mut stream = std::net::TcpStream::connect(addr).unwrap();
    stream.write_all(request.as_bytes()).unwrap();
    let mut response = String::new();
    stream.read_to_string(&mut response).unwrap();
    response
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_runs_campaigns_from_the_browser() {
    let state = temp_dir("web-ui");
    let (worker_token, operator_token) = (token(&state, "worker"), token(&state, "operator"));
    let (_coordinator, grpc) = coordinator(&state, "127.0.0.1:0");
    let addr = std::fs::read_to_string(state.join("http.addr")).unwrap();
    let web = format!("http://{addr}");
    let browser = Browser::start(&state.join("chromium-profile")).await;
    let c = &browser.client;

    // A worker's token cannot sign in.
    sign_in(c, &web, &worker_token).await;
    let refused = wait_text(c, "#token-error", 10, |t| !t.is_empty()).await;
    assert!(
        refused.contains("only an operator token signs in"),
        "{refused}"
    );
    sign_in(c, &web, &operator_token).await;
    wait_text(c, "header .who", 10, |t| t.contains("signed in as")).await;

    create_sprt(c, &web).await;
    // Paused, the campaign gets no games from a worker; resumed, it does.
    click(c, "#do-pause").await;
    wait_text(c, "h1 .badge", 10, |t| t == "paused").await;
    let _worker = worker(&format!("http://{grpc}"), &worker_token, "browser-worker");
    tokio::time::sleep(Duration::from_secs(4)).await;
    assert_eq!(text(c, "#games").await, "0", "no games while paused");
    click(c, "#do-resume").await;
    wait_text(c, "h1 .badge", 10, |t| t == "running").await;
    watch_sprt(c).await;
    csrf_is_required(c, &addr).await;
    other_kinds(c, &web).await;
    c.goto(&format!("{web}/workers")).await.unwrap();
    assert!(text(c, "table.workers").await.contains("browser-worker"));
    screenshot(c, "workers").await;
    c.goto(&format!("{web}/")).await.unwrap();
    let row = text(c, "tr[data-campaign='browser-sprt']").await;
    assert!(row.contains(XSS), "the player's name as text: {row}");
    screenshot(c, "campaigns").await;
}

/// Creates the SPRT from the form: first with a name that is refused
/// (kept as typed, the error beside it, nothing run), then a good one.
async fn create_sprt(c: &Client, web: &str) {
    c.goto(&format!("{web}/new?kind=sprt")).await.unwrap();
    fill(c, "name", XSS).await;
    fill(c, "games", "600").await;
    fill(c, "tc", "nodes=200").await;
    fill(c, "elo1", "50").await;
    fill(c, "max_plies", "160").await;
    fill(c, "p0_name", XSS).await;
    fill(c, "p1_name", "weakened").await;
    fill(
        c,
        "p1_set",
        r#""afc.falcon.mg" = 250, "afc.falcon.eg" = 250"#,
    )
    .await;
    fill(c, "p1_disable", "null-move, lmr, pruning").await;
    click(c, "#create-button").await;
    let error = wait_text(c, "#name-error", 10, |t| !t.is_empty()).await;
    assert!(error.contains("is not allowed"), "{error}");
    let kept = c
        .find(Locator::Css("#name"))
        .await
        .unwrap()
        .prop("value")
        .await
        .unwrap();
    assert_eq!(kept.as_deref(), Some(XSS), "the form keeps what was typed");
    let scripts = c
        .execute("return document.scripts.length", vec![])
        .await
        .unwrap();
    assert_eq!(scripts, serde_json::json!(1), "only the page's own script");
    fill(c, "name", "browser-sprt").await;
    click(c, "#create-button").await;
    let title = wait_text(c, "h3", 10, |t| t.starts_with("First player")).await;
    let url = c.current_url().await.unwrap();
    assert!(url.path().ends_with("/campaigns/browser-sprt"), "{url}");
    assert!(title.contains(XSS), "{title}");
}

/// The game count and the LLR move without a reload; the verdict.
async fn watch_sprt(c: &Client) {
    c.execute("window.stillHere = true", vec![]).await.unwrap();
    let games = wait_text(c, "#games", 120, |t| t.parse::<u64>().is_ok_and(|n| n > 0)).await;
    let llr = text(c, "#llr").await;
    assert!(
        c.execute("return window.stillHere === true", vec![])
            .await
            .unwrap()
            .as_bool()
            .unwrap(),
        "the page was not reloaded"
    );
    let verdict = text(c, "#verdict b").await;
    if !verdict.contains("accepted") {
        wait_text(c, "#llr", 60, |t| t != llr).await;
    }
    let verdict = wait_text(c, "#verdict b", 300, |t| t.contains("accepted")).await;
    assert!(
        verdict.contains("H1 accepted"),
        "{verdict} after {games}+ games"
    );
    // The campaign ended while watched: the heading's badge and the tab's
    // title say so, and its actions are gone.
    wait_text(c, "h1 .badge", 30, |t| t == "finished").await;
    assert!(c.find(Locator::Css(".actions")).await.is_err());
    screenshot(c, "sprt-verdict").await;
    let mut title = String::new();
    for _ in 0..50 {
        title = c.title().await.unwrap();
        if title.starts_with("Ended: ") {
            break;
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert!(title.starts_with("Ended: "), "{title}");
}

/// An action posted without the form's CSRF token is refused, even with
/// the session's cookie.
async fn csrf_is_required(c: &Client, addr: &str) {
    let session = c
        .get_all_cookies()
        .await
        .unwrap()
        .into_iter()
        .find(|k| k.name() == "ajaxlab_session")
        .unwrap();
    let body = "action=pause";
    let response = http(
        addr,
        &format!(
            "POST /campaigns/browser-sprt/state HTTP/1.1\r\nHost: {addr}\r\nCookie: ajaxlab_session={}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            session.value(),
            body.len()
        ),
    );
    assert!(response.starts_with("HTTP/1.1 403"), "{response}");
}

/// SPSA, piece-value, first-move and match campaigns written as files
/// render what their kinds show.
async fn other_kinds(c: &Client, web: &str) {
    for (kind, file, name, shown) in [
        ("spsa", SPSA, "browser-spsa", "svg.spsa"),
        (
            "piece-value",
            PIECE_VALUE,
            "browser-values.knight-odds",
            "svg.values",
        ),
        (
            "first-move",
            FIRST_MOVE,
            "browser-first-move",
            "#white-score",
        ),
        ("file", MATCH, "browser-match", "#games"),
    ] {
        c.goto(&format!("{web}/new?kind={kind}")).await.unwrap();
        let area = c.find(Locator::Css("#file")).await.unwrap();
        area.clear().await.unwrap();
        area.send_keys(file).await.unwrap();
        click(c, "#create-button").await;
        c.goto(&format!("{web}/campaigns/{name}")).await.unwrap();
        // There, and with something to show (a game count past 0).
        wait_text(c, shown, 300, |t| !t.is_empty() && t != "0").await;
        let shot = if kind == "file" { "match" } else { kind };
        screenshot(c, shot).await;
    }
}

const SPSA: &str = r#"variant = "ajax-falcon"
games = 24
seed = 3
tc = "nodes=150"
random_plies = 2
[campaign]
name = "browser-spsa"
kind = "spsa"
[[spsa.params]]
name = "afc.falcon.mg"
start = 400
min = 250
max = 1000
c_end = 150
r_end = 0.02
[adjudication]
max_plies = 100
"#;

const PIECE_VALUE: &str = r#"variant = "ajax-falcon"
games = 40
seed = 5
tc = "nodes=150"
random_plies = 4
[campaign]
name = "browser-values"
kind = "piece-value"
[piece_value]
pawn = ["-P@f2"]
[[piece_value.imbalances]]
name = "knight-odds"
first = ["-N@b1"]
[[players]]
engine = "builtin"
[adjudication]
max_plies = 120
"#;

const FIRST_MOVE: &str = r#"variant = "chess960"
games = 24
seed = 7
tc = "nodes=150"
openings = "numbers:0,518,959"
random_plies = 0
[campaign]
name = "browser-first-move"
kind = "first-move"
[[players]]
engine = "builtin"
[adjudication]
max_plies = 100
"#;

const MATCH: &str = r#"variant = "chess"
games = 16
seed = 9
tc = "nodes=150"
random_plies = 4
[campaign]
name = "browser-match"
[[players]]
engine = "builtin"
name = "default"
[[players]]
engine = "builtin"
name = "no-pruning"
disable = ["pruning"]
[adjudication]
max_plies = 120
"#;
