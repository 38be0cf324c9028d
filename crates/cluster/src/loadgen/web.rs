//! The web UI under load: open live pages that follow `/events` for their
//! live parts, as the page's script does; and the
//! server-side time of the two largest pages, the campaigns list and the
//! workers page, over a coordinator filled with many of each.

use crate::coordinator::serve::connections::ConnectionLimits;
use crate::coordinator::serve::web::{ReadAccess, serve_http};
use crate::coordinator::{Coordinator, TokenHash};
use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;

/// Serves `coordinator`'s web UI on a loopback port until `stop` is sent.
///
/// # Errors
/// The port cannot be bound.
pub(super) async fn serve_web(
    coordinator: Arc<Coordinator>,
    stop: tokio::sync::oneshot::Receiver<()>,
) -> Result<SocketAddr, String> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    tokio::spawn(serve_http(
        coordinator,
        ReadAccess::Anyone,
        listener,
        ConnectionLimits::default(),
        async {
            let _ = stop.await;
        },
    ));
    Ok(addr)
}

/// `GET path` on a connection of its own: the bytes of the whole response.
async fn get(addr: SocketAddr, path: &str) -> std::io::Result<usize> {
    let mut stream = TcpStream::connect(addr).await?;
    stream
        .write_all(
            format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").as_bytes(),
        )
        .await?;
    let mut response = Vec::new();
    stream.read_to_end(&mut response).await?;
    Ok(response.len())
}

/// One open page until `deadline`, as the page's script drives it: it
/// loads `page`, then follows `/events` for its live `parts` (the URLs of
/// their fragments). The parts it was sent.
pub(super) async fn live_page(
    addr: SocketAddr,
    page: &'static str,
    parts: &[String],
    deadline: Instant,
) -> u64 {
    let received = std::sync::atomic::AtomicU64::new(0);
    let subscription = crate::coordinator::serve::web::urlencode(&parts.join(" "));
    let follow = async {
        get(addr, page).await?;
        let mut events = TcpStream::connect(addr).await?;
        events
            .write_all(
                format!(
                    "GET /events?parts={subscription} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
                )
                .as_bytes(),
            )
            .await?;
        let mut lines = BufReader::new(events).lines();
        while let Some(line) = lines.next_line().await? {
            if line.starts_with("event: part") {
                received.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
        }
        Ok::<(), std::io::Error>(())
    };
    // The page is cut off at the deadline; what it was sent until then counts.
    let _ = tokio::time::timeout_at(deadline.into(), follow).await;
    received.into_inner()
}

/// Server-side time of the largest pages, over loopback.
#[derive(Clone, Debug)]
pub struct PageTimes {
    /// Campaigns stored.
    pub campaigns: usize,
    /// Workers registered.
    pub workers: usize,
    /// `/`: median and slowest of the requests, and its size in bytes.
    pub list: (Duration, Duration, usize),
    /// `/workers`: median and slowest, and its size.
    pub workers_page: (Duration, Duration, usize),
}

const PAGE_CAMPAIGN: &str = "variant = \"ajax-falcon\"\ngames = 2000\ntc = \"nodes=1000\"\n\
[campaign]\nname = \"NAME\"\nkind = \"sprt\"\n[sprt]\nelo0 = 0\nelo1 = 5\n\
[[players]]\nengine = \"builtin\"\nname = \"new\"\n[[players]]\nengine = \"builtin\"\nname = \"base\"\n";

/// A coordinator in `dir` with `campaigns` SPRT campaigns and `workers`
/// registered workers; `/` and `/workers` each asked for `repeats` times.
///
/// # Errors
/// The coordinator's, or a request that fails.
pub async fn page_times(
    dir: &Path,
    campaigns: usize,
    workers: usize,
    repeats: usize,
) -> Result<PageTimes, String> {
    let coordinator =
        Coordinator::open(dir, Duration::from_secs(60), 1).map_err(|e| e.to_string())?;
    let coordinator = Arc::new(coordinator);
    let filler = Arc::clone(&coordinator);
    tokio::task::spawn_blocking(move || fill(&filler, campaigns, workers))
        .await
        .map_err(|e| e.to_string())??;
    let (stop, stopped) = tokio::sync::oneshot::channel();
    let addr = serve_web(coordinator, stopped).await?;
    let list = time_page(addr, "/", repeats).await?;
    let workers_page = time_page(addr, "/workers", repeats).await?;
    let _ = stop.send(());
    Ok(PageTimes {
        campaigns,
        workers,
        list,
        workers_page,
    })
}

fn fill(c: &Coordinator, campaigns: usize, workers: usize) -> Result<(), String> {
    for i in 0..campaigns {
        c.create_campaign(&PAGE_CAMPAIGN.replace("NAME", &format!("page-{i}")))
            .map_err(|e| e.to_string())?;
    }
    for i in 0..workers {
        // A token each: registrations are limited per token and minute.
        c.register(
            &TokenHash::of(&i.to_string()),
            &format!("host-{i}"),
            "load",
            8,
            1,
        )
        .map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// `path` asked for `repeats` times, each after the pages' shared reading
/// is stale: the median and the slowest time to the whole response, and
/// its size.
async fn time_page(
    addr: SocketAddr,
    path: &str,
    repeats: usize,
) -> Result<(Duration, Duration, usize), String> {
    let mut times = Vec::with_capacity(repeats);
    let mut size = 0;
    for _ in 0..repeats.max(1) {
        // Past the pages' shared reading, so that each request reads and
        // renders anew.
        tokio::time::sleep(crate::coordinator::serve::web::MAX_AGE).await;
        let start = Instant::now();
        size = get(addr, path).await.map_err(|e| format!("{path}: {e}"))?;
        times.push(start.elapsed());
    }
    times.sort_unstable();
    Ok((times[times.len() / 2], times[times.len() - 1], size))
}
