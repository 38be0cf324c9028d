//! Accepting connections within limits, so that no listener can take what
//! another needs: a peer that connects and says nothing is dropped after a
//! deadline, and the web UI and the gRPC services each hold at most
//! their own number of connections, both inside the process's descriptor
//! limit. Without this, 1,100 silent connections to the web UI (no
//! login needed) used every descriptor and workers could not register.

use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// How many connections each of the coordinator's listeners may hold, and
/// how long a peer may keep it waiting.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConnectionLimits {
    /// gRPC connections held at once (workers share a few each; operators
    /// and uploads one per command).
    pub grpc: usize,
    /// Status page connections held at once.
    pub http: usize,
    /// How long a new connection may send nothing, how long an HTTP
    /// request (or an idle kept-alive connection) may take to send its
    /// headers, and how long an artifact upload may pause, before it is
    /// closed.
    pub silence: Duration,
    /// How long an HTTP request may take to send its body.
    pub http_body: Duration,
}

/// Descriptors kept out of both budgets: the state database, games files
/// being written, artifacts being stored, logs.
const RESERVED_DESCRIPTORS: u64 = 256;

/// The fewest gRPC connections a coordinator is given, whatever its
/// descriptor limit (a handful of workers and an operator).
const MIN_GRPC_CONNECTIONS: usize = 64;

impl Default for ConnectionLimits {
    /// The web UI's share of a coordinator with the common soft limit
    /// of 1,024 descriptors.
    fn default() -> ConnectionLimits {
        ConnectionLimits {
            grpc: 512,
            http: 256,
            silence: Duration::from_secs(10),
            http_body: Duration::from_secs(30),
        }
    }
}

impl ConnectionLimits {
    /// The limits for this process: its soft descriptor limit raised to the
    /// hard one (as Go's runtime and most servers do), the web UI's
    /// share and a reserve for files taken off, the rest for gRPC.
    pub fn for_this_process() -> ConnectionLimits {
        let descriptors = raise_descriptor_limit();
        ConnectionLimits::within(descriptors)
    }

    /// The limits that fit in `descriptors` open files.
    pub fn within(descriptors: u64) -> ConnectionLimits {
        let defaults = ConnectionLimits::default();
        let http = defaults.http as u64;
        let grpc = descriptors.saturating_sub(http + RESERVED_DESCRIPTORS);
        ConnectionLimits {
            grpc: usize::try_from(grpc)
                .unwrap_or(usize::MAX)
                .max(MIN_GRPC_CONNECTIONS),
            ..defaults
        }
    }
}

/// Raises the soft limit on open files to the hard one and returns the
/// limit now in force (the soft one if it cannot be raised).
fn raise_descriptor_limit() -> u64 {
    use rustix::process::{Resource, getrlimit, setrlimit};
    let limit = getrlimit(Resource::Nofile);
    let soft = limit.current.unwrap_or(u64::MAX);
    let Some(hard) = limit.maximum else {
        return soft;
    };
    if hard <= soft {
        return soft;
    }
    let raised = rustix::process::Rlimit {
        current: Some(hard),
        maximum: Some(hard),
    };
    match setrlimit(Resource::Nofile, raised) {
        Ok(()) => hard,
        Err(e) => {
            tracing::warn!(soft, hard, "cannot raise the open-file limit: {e}");
            soft
        }
    }
}

/// Bytes a peer must send within the silence deadline: an HTTP/2
/// preface, a TLS ClientHello and an HTTP request line are all longer, so
/// a real client passes at once and one that trickles a byte at a time is
/// closed.
const OPENING_BYTES: usize = 24;

/// A connection that holds one of its listener's permits while it is open,
/// and fails its reads if the peer has not sent [`OPENING_BYTES`] before a
/// deadline.
pub struct Admitted<S> {
    stream: S,
    /// Set until the opening bytes have arrived.
    opening_deadline: Option<Pin<Box<Sleep>>>,
    /// Bytes received so far, counted until the opening bytes.
    received: usize,
    _permit: OwnedSemaphorePermit,
}

impl<S: AsyncRead + Unpin> AsyncRead for Admitted<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let read = Pin::new(&mut self.stream).poll_read(cx, buf);
        if read.is_ready() {
            self.received += buf.filled().len() - before;
            if self.received >= OPENING_BYTES {
                self.opening_deadline = None;
            }
            return read;
        }
        let silent_too_long = self
            .opening_deadline
            .as_mut()
            .is_some_and(|deadline| deadline.as_mut().poll(cx).is_ready());
        if silent_too_long {
            return Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the peer did not open its connection in time",
            )));
        }
        Poll::Pending
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Admitted<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.stream).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }
}

impl tonic::transport::server::Connected for Admitted<TcpStream> {
    type ConnectInfo = tonic::transport::server::TcpConnectInfo;

    fn connect_info(&self) -> Self::ConnectInfo {
        self.stream.connect_info()
    }
}

/// A listener that accepts a connection only while fewer than its limit
/// are open; beyond that, new peers wait in the kernel's backlog and hold
/// none of this process's descriptors.
pub struct Gate {
    listener: TcpListener,
    permits: Arc<Semaphore>,
    silence: Duration,
}

/// How long to wait after a failed accept (out of descriptors, say) before
/// the next, so that a failure does not spin.
const ACCEPT_RETRY: Duration = Duration::from_millis(100);

impl Gate {
    /// A gate on `listener` admitting `limit` connections at once, each
    /// closed if it sends nothing for `silence`.
    pub fn new(listener: TcpListener, limit: usize, silence: Duration) -> Gate {
        Gate {
            listener,
            permits: Arc::new(Semaphore::new(limit.max(1))),
            silence,
        }
    }

    /// The next connection, once a permit is free. Failed accepts are
    /// logged and retried, never returned: they are the host's trouble, not
    /// the listener's end.
    pub async fn accept(&self) -> Admitted<TcpStream> {
        loop {
            let Ok(permit) = Arc::clone(&self.permits).acquire_owned().await else {
                // The semaphore is never closed; if it were, no more would come.
                return std::future::pending().await;
            };
            match self.listener.accept().await {
                Ok((stream, _)) => {
                    // Without TCP_NODELAY, Nagle's algorithm meets the
                    // client's delayed ACKs and small answers wait ~40 ms.
                    if let Err(e) = stream.set_nodelay(true) {
                        tracing::debug!("TCP_NODELAY: {e}");
                    }
                    return Admitted {
                        stream,
                        opening_deadline: Some(Box::pin(tokio::time::sleep_until(
                            Instant::now() + self.silence,
                        ))),
                        received: 0,
                        _permit: permit,
                    };
                }
                Err(e) => {
                    tracing::warn!("accepting a connection: {e}");
                    drop(permit);
                    tokio::time::sleep(ACCEPT_RETRY).await;
                }
            }
        }
    }

    /// The connections as a stream, for tonic's `serve_with_incoming`.
    pub fn into_stream(
        self,
    ) -> impl tokio_stream::Stream<Item = io::Result<Admitted<TcpStream>>> + Send {
        futures_util::stream::unfold(self, |gate| async move {
            let next = gate.accept().await;
            Some((Ok(next), gate))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_page_and_a_reserve_come_off_the_descriptor_limit() {
        let limits = ConnectionLimits::within(1024);
        assert_eq!(limits.http, 256);
        assert_eq!(limits.grpc, 1024 - 256 - 256);
        assert_eq!(ConnectionLimits::within(100).grpc, MIN_GRPC_CONNECTIONS);
        assert_eq!(ConnectionLimits::within(1 << 20).grpc, (1 << 20) - 512);
    }
}
