//! What the coordinator's tests share: fresh state directories, a
//! coordinator served on loopback, its status page fetched, and a worker
//! that plays units honestly.

#![allow(dead_code, reason = "each test crate uses a part of it")]

use ajaxlab_arena::MatchConfig;
use ajaxlab_arena::pair::{make_player, play_pair};
use ajaxlab_cluster::coordinator::{CampaignId, CampaignView, Coordinator, CoordinatorError};
use ajaxlab_proto::v1;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use tonic::transport::Channel;

/// A coordinator serving on a loopback port, with a plain-text channel to it.
pub(crate) struct Served {
    /// Connected to the coordinator.
    pub(crate) channel: Channel,
    /// Its address, `http://127.0.0.1:PORT`.
    pub(crate) url: String,
    stop: tokio::sync::oneshot::Sender<()>,
    server: tokio::task::JoinHandle<Result<(), tonic::transport::Error>>,
}

impl Served {
    /// Serves `coordinator` on a free loopback port and connects to it.
    pub(crate) async fn start(coordinator: Arc<Coordinator>) -> Served {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(ajaxlab_cluster::coordinator::serve::grpc::serve(
            coordinator,
            listener,
            async {
                let _ = stopped.await;
            },
        ));
        let url = format!("http://{addr}");
        let channel = Channel::from_shared(url.clone())
            .unwrap()
            .connect()
            .await
            .unwrap();
        Served {
            channel,
            url,
            stop,
            server,
        }
    }

    /// Shuts the server down; it must end cleanly.
    pub(crate) async fn stop(self) {
        self.stop.send(()).unwrap();
        self.server.await.unwrap().unwrap();
    }
}

/// Creates the campaign of `text` as `ajaxlab campaign create` does: the
/// files it names are read here and sent with it.
pub(crate) fn create_sending(
    c: &Coordinator,
    text: &str,
) -> Result<Vec<CampaignView>, CoordinatorError> {
    let sent = ajaxlab_cluster::campaign::inputs::read_named_files(text).map_err(|e| {
        CoordinatorError::Campaign(ajaxlab_cluster::coordinator::CampaignError::File(e))
    })?;
    c.create_shipped_campaign(text, &sent, &[])
}

/// A worker of one thread for the coordinator at `url`, named `name`, with
/// its engine cache in `cache_dir`.
pub(crate) fn local_worker(
    url: &str,
    token: String,
    name: &str,
    cache_dir: PathBuf,
) -> ajaxlab_cluster::worker::WorkerConfig {
    ajaxlab_cluster::worker::WorkerConfig {
        remote: ajaxlab_cluster::remote::Remote {
            url: url.to_owned(),
            token,
            tls_ca: None,
        },
        threads: 1,
        name: name.to_owned(),
        cache_dir,
        in_flight: Arc::default(),
    }
}

/// The campaign named `name` (`NAME` or `NAME.PART`).
pub(crate) fn campaign_id(name: &str) -> CampaignId {
    name.parse().unwrap()
}

/// A new, empty directory under the system's temporary directory.
pub(crate) fn temp_dir(prefix: &str) -> PathBuf {
    static N: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "ajaxlab-{prefix}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// `unit` with the texts its campaign shares (a variants file, an opening
/// list) put back from `c`'s artifact store, as a worker fetches them.
pub(crate) fn inlined(c: &Coordinator, unit: &v1::WorkUnit) -> v1::WorkUnit {
    let mut unit = unit.clone();
    let shared = ajaxlab_cluster::artifacts::shared::SharedInputs::of_unit(&unit).unwrap();
    shared
        .inline_with(&mut unit, |hash| {
            let (path, _) = c.artifacts().get(hash)?;
            Ok(std::fs::read(path).unwrap())
        })
        .unwrap();
    unit
}

/// Plays a unit honestly, as a worker would.
pub(crate) fn play(unit: &v1::WorkUnit) -> Vec<v1::GameRecord> {
    let config = MatchConfig::try_from(unit).unwrap();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let mut players = [
        make_player(&config.players[0], 8, &stop).unwrap(),
        make_player(&config.players[1], 8, &stop).unwrap(),
    ];
    (unit.first_pair..unit.first_pair + u64::from(unit.pair_count))
        .flat_map(|p| play_pair(&config, p, &mut players))
        .map(|g| v1::GameRecord::try_from(&g).unwrap())
        .collect()
}

/// The coordinator's status page at `path` (`/`, `/api/campaigns`), served
/// on a free local port for this one request: the whole HTTP response.
pub(crate) async fn fetch_status_page(coordinator: Arc<Coordinator>, path: &str) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let page = tokio::spawn(ajaxlab_cluster::coordinator::serve::web::serve_http(
        coordinator,
        ajaxlab_cluster::coordinator::serve::web::ReadAccess::Anyone,
        listener,
        ajaxlab_cluster::coordinator::serve::connections::ConnectionLimits::default(),
        std::future::pending(),
    ));
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    let response = tokio::task::spawn_blocking(move || {
        use std::io::{Read, Write};
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        stream.write_all(request.as_bytes()).unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        response
    })
    .await
    .unwrap();
    page.abort();
    response
}
