//! Peers that connect and say nothing, or say too little: the status page
//! closes them after a deadline, holds no more than its own number at once,
//! and however many there are, a worker can still connect and register over
//! gRPC. 1,100 such connections, with no login, once took every descriptor
//! of a coordinator and stopped its workers (`Register` UNAVAILABLE).

#![allow(
    clippy::unwrap_used,
    reason = "test code: a failed unwrap is a failed test"
)]

mod common;

use ajaxlab_cluster::coordinator::serve::connections::ConnectionLimits;
use ajaxlab_cluster::coordinator::{Coordinator, Scope};
use ajaxlab_proto::v1;
use common::temp_dir;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Tight limits, so that the test sees them act within a second.
const LIMITS: ConnectionLimits = ConnectionLimits {
    grpc: 8,
    http: 4,
    silence: Duration::from_millis(300),
    http_body: Duration::from_millis(300),
};

/// The coordinator's two servers on loopback under [`LIMITS`]: (gRPC, HTTP).
async fn serve(coordinator: Arc<Coordinator>) -> (SocketAddr, SocketAddr) {
    let grpc = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let http = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addrs = (grpc.local_addr().unwrap(), http.local_addr().unwrap());
    tokio::spawn(ajaxlab_cluster::coordinator::serve::grpc::serve_tls(
        Arc::clone(&coordinator),
        grpc,
        None,
        LIMITS,
        std::future::pending(),
    ));
    tokio::spawn(ajaxlab_cluster::coordinator::serve::web::serve_http(
        coordinator,
        ajaxlab_cluster::coordinator::serve::web::ReadAccess::Anyone,
        http,
        LIMITS,
        std::future::pending(),
    ));
    addrs
}

/// Whether the server closes `stream` within `within` (end of file or a
/// reset), reading and discarding whatever it sends first.
fn closed_by_server(mut stream: TcpStream, within: Duration) -> bool {
    let deadline = Instant::now() + within;
    let mut buf = [0u8; 1024];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return false;
        }
        stream.set_read_timeout(Some(left)).unwrap();
        match stream.read(&mut buf) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => return true,
            Err(_) => return false,
        }
    }
}

/// Registers a worker over a new gRPC connection.
async fn register(grpc: SocketAddr, token: &str) -> Result<String, String> {
    let channel = tonic::transport::Channel::from_shared(format!("http://{grpc}"))
        .unwrap()
        .connect_timeout(Duration::from_secs(5))
        .timeout(Duration::from_secs(5))
        .connect()
        .await
        .map_err(|e| format!("connect: {e}"))?;
    let value = format!("Bearer {token}").parse().unwrap();
    let mut client = v1::worker_client::WorkerClient::with_interceptor(
        channel,
        ajaxlab_cluster::remote::Auth::new(value),
    );
    let answer = client
        .register(v1::RegisterRequest {
            header: Some(v1::Header {
                protocol_version: ajaxlab_proto::PROTOCOL_VERSION,
            }),
            name: "after-the-flood".into(),
            cores: 1,
            bench_signature: 7,
            ..v1::RegisterRequest::default()
        })
        .await
        .map_err(|e| format!("register: {e}"))?;
    Ok(answer.into_inner().worker_id)
}

#[test]
fn silent_and_slow_peers_are_closed_and_a_worker_still_registers() {
    let dir = temp_dir("silent-peers");
    let coordinator = Arc::new(Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap());
    let token = coordinator.issue_token(Scope::Worker, "w").unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (grpc, http) = runtime.block_on(serve(Arc::clone(&coordinator)));

    // Three times the status page's limit of silent peers, a slow one that
    // stops inside its headers, and silent peers on the gRPC port too.
    let silent: Vec<TcpStream> = (0..3 * LIMITS.http)
        .map(|_| TcpStream::connect(http).unwrap())
        .collect();
    let mut slow = TcpStream::connect(http).unwrap();
    slow.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").unwrap();
    // Silent gRPC peers, and ones that trickle: one byte of a preface.
    let silent_grpc: Vec<TcpStream> = (0..LIMITS.grpc / 2)
        .map(|i| {
            let mut stream = TcpStream::connect(grpc).unwrap();
            if i % 2 == 1 {
                stream.write_all(b"P").unwrap();
            }
            stream
        })
        .collect();

    let worker = runtime.block_on(register(grpc, &token));
    assert!(worker.is_ok(), "a worker registers beside them: {worker:?}");

    // Each is closed by the server: those admitted at once after the
    // deadline, the rest as the earlier ones make room.
    for (i, stream) in silent.into_iter().enumerate() {
        assert!(
            closed_by_server(stream, Duration::from_secs(10)),
            "silent status-page peer {i} was never closed"
        );
    }
    assert!(
        closed_by_server(slow, Duration::from_secs(10)),
        "a peer that stopped inside its headers was never closed"
    );
    for (i, stream) in silent_grpc.into_iter().enumerate() {
        assert!(
            closed_by_server(stream, Duration::from_secs(10)),
            "silent gRPC peer {i} was never closed"
        );
    }

    // And the page answers again.
    let mut page = TcpStream::connect(http).unwrap();
    page.write_all(b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    let mut answer = String::new();
    page.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[test]
fn a_request_body_that_stalls_is_cut_off() {
    // A route that reads its body, as a form's would.
    let router = axum::Router::new().route(
        "/echo",
        axum::routing::post(|body: String| async move { body }),
    );
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let http = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(ajaxlab_cluster::coordinator::serve::http::serve_router(
            router,
            listener,
            LIMITS,
            std::future::pending(),
        ));
        addr
    });
    let mut whole = TcpStream::connect(http).unwrap();
    whole
        .write_all(
            b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nConnection: close\r\n\r\nab",
        )
        .unwrap();
    let mut answer = String::new();
    whole.read_to_string(&mut answer).unwrap();
    assert!(
        answer.starts_with("HTTP/1.1 200") && answer.ends_with("ab"),
        "{answer}"
    );

    let mut stalled = TcpStream::connect(http).unwrap();
    stalled
        .write_all(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\nab")
        .unwrap();
    assert!(
        closed_by_server(stalled, Duration::from_secs(10)),
        "a body that stopped after two bytes held its connection"
    );
}

#[test]
fn an_upload_that_stalls_is_dropped_with_its_partial_file() {
    let dir = temp_dir("stalled-upload");
    let coordinator = Arc::new(Coordinator::open(&dir, Duration::from_secs(60), 7).unwrap());
    let token = coordinator.issue_token(Scope::Operator, "op").unwrap();
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let (grpc, _) = runtime.block_on(serve(Arc::clone(&coordinator)));
    let answer = runtime.block_on(async {
        let channel = tonic::transport::Channel::from_shared(format!("http://{grpc}"))
            .unwrap()
            .connect()
            .await
            .unwrap();
        let value = format!("Bearer {token}").parse().unwrap();
        let mut client = v1::artifacts_client::ArtifactsClient::with_interceptor(
            channel,
            ajaxlab_cluster::remote::Auth::new(value),
        );
        let (tx, rx) = tokio::sync::mpsc::channel(1);
        tx.send(v1::ArtifactChunk {
            header: Some(v1::Header {
                protocol_version: ajaxlab_proto::PROTOCOL_VERSION,
            }),
            sha256: "ab".repeat(32),
            size: 1000,
            data: vec![0; 10],
        })
        .await
        .unwrap();
        // `tx` stays open and sends nothing more.
        let answer = tokio::time::timeout(
            Duration::from_secs(10),
            client.upload_artifact(tokio_stream::wrappers::ReceiverStream::new(rx)),
        )
        .await;
        drop(tx);
        answer
    });
    let status = answer
        .expect("the stalled upload was never answered")
        .unwrap_err();
    assert_eq!(status.code(), tonic::Code::DeadlineExceeded, "{status}");
    let left = std::fs::read_dir(dir.join("artifacts/sha256"))
        .unwrap()
        .count();
    assert_eq!(left, 0, "no partial file is kept");
}
