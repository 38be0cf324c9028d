//! The web UI's forms and access rules over real HTTP on loopback: a bad
//! field comes back beside that field with nothing stored, an engine over
//! the artifact limit is refused naming its field, an uploaded engine goes
//! into the artifact store as `campaign create` ships it, an action needs a
//! signed-in operator, a coordinator that keeps reading to operators
//! sends others to sign in, and a page's live parts come down its event
//! stream as they change.

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::serve::connections::ConnectionLimits;
use ajaxlab_cluster::coordinator::serve::web::{ReadAccess, serve_http};
use ajaxlab_cluster::coordinator::{Coordinator, Scope};
use common::temp_dir;
use std::io::{Read, Write};
use std::sync::Arc;
use std::time::Duration;

/// A coordinator's web UI on a loopback port, served by a runtime of its own.
struct Site {
    addr: String,
    c: Arc<Coordinator>,
    _runtime: tokio::runtime::Runtime,
}

impl Site {
    fn start(read: ReadAccess, artifact_limit: Option<u64>) -> Site {
        let mut c = Coordinator::open(&temp_dir("web-forms"), Duration::from_secs(60), 7).unwrap();
        if let Some(bytes) = artifact_limit {
            c.set_artifact_limit(bytes);
        }
        let c = Arc::new(c);
        let runtime = tokio::runtime::Runtime::new().unwrap();
        let listener = runtime
            .block_on(tokio::net::TcpListener::bind("127.0.0.1:0"))
            .unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        runtime.spawn(serve_http(
            Arc::clone(&c),
            read,
            listener,
            ConnectionLimits::default(),
            std::future::pending(),
        ));
        Site {
            addr,
            c,
            _runtime: runtime,
        }
    }

    /// One request: the status code and the whole response.
    fn request(&self, head: &str, body: &[u8]) -> (u16, String) {
        let mut stream = std::net::TcpStream::connect(&self.addr).unwrap();
        let head = format!(
            "{head}\r\nHost: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
            self.addr,
            body.len()
        );
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body).unwrap();
        let mut response = Vec::new();
        stream.read_to_end(&mut response).unwrap();
        let response = String::from_utf8_lossy(&response).into_owned();
        let status = response[9..12].parse().unwrap();
        (status, response)
    }

    /// Signs in with a new operator token: the session cookie and the
    /// CSRF token of the create form.
    fn sign_in(&self) -> (String, String) {
        let token = self.c.issue_token(Scope::Operator, "alice").unwrap();
        let (_, page) = self.request("GET /sign-in HTTP/1.1", b"");
        let pairing = value_after(&page, "ajaxlab_sign_in=", ';');
        let csrf = value_after(&page, "name=\"csrf\" value=\"", '"');
        let body = format!("token={token}&csrf={csrf}&next=/new");
        let (status, response) = self.request(
            &format!(
                "POST /sign-in HTTP/1.1\r\nCookie: ajaxlab_sign_in={pairing}\r\nContent-Type: application/x-www-form-urlencoded"
            ),
            body.as_bytes(),
        );
        assert_eq!(status, 303, "{response}");
        let session = value_after(&response, "ajaxlab_session=", ';');
        let (_, form) = self.request(
            &format!("GET /new HTTP/1.1\r\nCookie: ajaxlab_session={session}"),
            b"",
        );
        (session, value_after(&form, "name=\"csrf\" value=\"", '"'))
    }

    /// Posts the create form: its text fields, and files as
    /// `(field, file name, bytes)`.
    fn create(
        &self,
        session: &str,
        fields: &[(&str, &str)],
        files: &[(&str, &str, &[u8])],
    ) -> (u16, String) {
        let boundary = "ajaxlab-test-boundary";
        let mut body = Vec::new();
        for (name, value) in fields {
            write!(
                body,
                "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"\r\n\r\n{value}\r\n"
            )
            .unwrap();
        }
        for (name, file, bytes) in files {
            write!(body, "--{boundary}\r\nContent-Disposition: form-data; name=\"{name}\"; filename=\"{file}\"\r\nContent-Type: application/octet-stream\r\n\r\n").unwrap();
            body.extend_from_slice(bytes);
            body.extend_from_slice(b"\r\n");
        }
        write!(body, "--{boundary}--\r\n").unwrap();
        self.request(
            &format!(
                "POST /new HTTP/1.1\r\nCookie: ajaxlab_session={session}\r\nContent-Type: multipart/form-data; boundary={boundary}"
            ),
            &body,
        )
    }
}

/// The text after `marker` in `text`, up to `end`.
fn value_after(text: &str, marker: &str, end: char) -> String {
    let start = text
        .find(marker)
        .unwrap_or_else(|| panic!("no {marker} in {text}"))
        + marker.len();
    text[start..].split(end).next().unwrap().to_owned()
}

/// An SPRT form filled in well, but for `changes`.
fn sprt_form<'a>(csrf: &'a str, changes: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut fields = vec![
        ("csrf", csrf),
        ("form", "sprt"),
        ("name", "web-form"),
        ("variant", "chess"),
        ("games", "20"),
        ("tc", "nodes=100"),
        ("random_plies", "2"),
        ("seed", "1"),
        ("priority", "1"),
        ("max_plies", "100"),
        ("elo0", "0"),
        ("elo1", "5"),
        ("alpha", "0.05"),
        ("beta", "0.05"),
        ("model", "normalized"),
        ("p0_name", "a"),
        ("p0_engine", "builtin"),
        ("p1_name", "b"),
        ("p1_engine", "builtin"),
    ];
    for (key, value) in changes {
        fields.retain(|(k, _)| k != key);
        fields.push((key, value));
    }
    fields
}

#[test]
fn a_bad_field_comes_back_beside_that_field_and_nothing_is_stored() {
    let site = Site::start(ReadAccess::Anyone, None);
    let (session, csrf) = site.sign_in();
    let (status, page) = site.create(&session, &sprt_form(&csrf, &[("games", "many")]), &[]);
    assert_eq!(status, 422, "{page}");
    assert!(
        page.contains("id=\"games-error\">'many' is not a number"),
        "{page}"
    );
    assert!(page.contains("value=\"many\""), "the form as typed: {page}");
    let (status, page) = site.create(
        &session,
        &sprt_form(&csrf, &[("p1_disable", "wings"), ("name", "a b")]),
        &[],
    );
    assert_eq!(status, 422, "{page}");
    assert!(page.contains("id=\"name-error\""), "{page}");
    assert!(
        page.contains("id=\"p1_disable-error\""),
        "every bad field at once: {page}"
    );
    assert!(site.c.campaigns().unwrap().is_empty(), "nothing stored");
    let (status, _) = site.create(&session, &sprt_form(&csrf, &[]), &[]);
    assert_eq!(status, 303);
    assert_eq!(site.c.campaigns().unwrap().len(), 1);
}

#[test]
fn an_engine_over_the_artifact_limit_is_refused_naming_its_field() {
    let site = Site::start(ReadAccess::Anyone, Some(1024));
    let (session, csrf) = site.sign_in();
    let fields = sprt_form(&csrf, &[("p0_engine", "uci")]);
    let big = vec![0u8; 4096];
    let (status, page) = site.create(&session, &fields, &[("p0_file", "engine", &big)]);
    assert_eq!(status, 413, "{page}");
    assert!(
        page.contains(
            "id=\"p0_file-error\">the file is over the coordinator's artifact limit of 1024 bytes"
        ),
        "{page}"
    );
    assert!(site.c.campaigns().unwrap().is_empty(), "nothing stored");
    // Within the limit, the engine is stored by its hash and shipped as
    // the campaign's first player.
    let engine = b"#!/bin/sh\necho engine\n";
    let (status, page) = site.create(&session, &fields, &[("p0_file", "my engine", engine)]);
    assert_eq!(status, 303, "{page}");
    let file = site.c.campaign_file(&"web-form".parse().unwrap()).unwrap();
    assert!(file.contains("path = \"player-1-my_engine\""), "{file}");
    let hash = ajaxlab_cluster::artifacts::ArtifactHash::of(engine);
    assert!(site.c.artifacts().contains(hash));
}

#[test]
fn an_action_needs_a_signed_in_operator() {
    let site = Site::start(ReadAccess::Anyone, None);
    let (session, csrf) = site.sign_in();
    assert_eq!(site.create(&session, &sprt_form(&csrf, &[]), &[]).0, 303);
    let form = "action=pause";
    let (status, page) = site.request(
        "POST /campaigns/web-form/state HTTP/1.1\r\nContent-Type: application/x-www-form-urlencoded",
        form.as_bytes(),
    );
    assert_eq!(status, 403, "{page}");
    let signed = format!("csrf={csrf}&action=pause");
    let (status, _) = site.request(
        &format!("POST /campaigns/web-form/state HTTP/1.1\r\nCookie: ajaxlab_session={session}\r\nContent-Type: application/x-www-form-urlencoded"),
        signed.as_bytes(),
    );
    assert_eq!(status, 303);
    assert_eq!(site.c.campaigns().unwrap()[0].state.as_str(), "paused");
}

#[test]
fn reading_kept_to_operators_sends_others_to_sign_in() {
    let site = Site::start(ReadAccess::Operators, None);
    let (status, page) = site.request("GET /campaigns/x?y=1 HTTP/1.1", b"");
    assert_eq!(status, 303, "{page}");
    assert!(
        page.contains("location: /sign-in?next=/campaigns/x%3Fy%3D1"),
        "{page}"
    );
    assert_eq!(site.request("GET /api/campaigns HTTP/1.1", b"").0, 401);
    let worker = site.c.issue_token(Scope::Worker, "w").unwrap();
    let operator = site.c.issue_token(Scope::Operator, "prometheus").unwrap();
    let bearer = |token: &str| format!("GET /metrics HTTP/1.1\r\nAuthorization: Bearer {token}");
    assert_eq!(site.request(&bearer(&worker), b"").0, 401);
    assert_eq!(site.request(&bearer(&operator), b"").0, 200);
    assert_eq!(
        site.request("GET /sign-in HTTP/1.1", b"").0,
        200,
        "signing in is open"
    );
    let (session, _) = site.sign_in();
    let cookie = format!("GET / HTTP/1.1\r\nCookie: ajaxlab_session={session}");
    assert_eq!(site.request(&cookie, b"").0, 200);
}

/// Reads `stream` into `read` until `text` has come `times` times, for
/// 20 s at most.
fn read_until(stream: &mut std::net::TcpStream, read: &mut String, text: &str, times: usize) {
    let mut buffer = [0u8; 65536];
    let start = std::time::Instant::now();
    while read.matches(text).count() < times {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{text} x{times} not in {read}"
        );
        let n = stream
            .read(&mut buffer)
            .unwrap_or_else(|e| panic!("{e} waiting for {text} x{times} in {read}"));
        assert!(n > 0, "the stream ended: {read}");
        read.push_str(&String::from_utf8_lossy(&buffer[..n]));
    }
}

#[test]
fn a_page_is_sent_its_live_parts_as_they_change() {
    let site = Site::start(ReadAccess::Anyone, None);
    let (session, csrf) = site.sign_in();
    assert_eq!(site.create(&session, &sprt_form(&csrf, &[]), &[]).0, 303);
    let mut stream = std::net::TcpStream::connect(&site.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    let parts = "%2Ffragments%2Fcampaigns%2Fweb-form%20%2Ffragments%2Fcampaigns%3Fstate%3Dpaused";
    write!(
        stream,
        "GET /events?parts={parts} HTTP/1.1\r\nHost: {}\r\n\r\n",
        site.addr
    )
    .unwrap();
    let mut read = String::new();
    // Both parts at once, each named by its URL.
    read_until(&mut stream, &mut read, "event: part", 2);
    assert!(
        read.contains("data: /fragments/campaigns/web-form\n"),
        "{read}"
    );
    assert!(
        read.contains("data: /fragments/campaigns?state=paused\n"),
        "{read}"
    );
    assert!(read.contains("0 of 1 campaigns"), "none paused yet: {read}");
    // A change sends them again: the paused campaign is now in the list.
    site.c
        .set_campaign_state(
            &"web-form".parse().unwrap(),
            ajaxlab_cluster::coordinator::CampaignState::Paused,
        )
        .unwrap();
    read_until(&mut stream, &mut read, "event: part", 4);
    let update = &read[read
        .find("data: /fragments/campaigns?state=paused")
        .unwrap()
        + 1..];
    let update = &update[update
        .find("data: /fragments/campaigns?state=paused")
        .unwrap()..];
    assert!(update.contains("1 of 1 campaigns"), "{update}");
    // What is no live part is refused by name.
    let (status, page) = site.request("GET /events?parts=%2Fetc%2Fpasswd HTTP/1.1", b"");
    assert_eq!(status, 400, "{page}");
    assert!(page.contains("/etc/passwd"), "{page}");
}
