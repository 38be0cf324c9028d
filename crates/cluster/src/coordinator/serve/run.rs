//! A coordinator process (`ajaxlab coordinator`): its configuration, made
//! once from the coordinator file and the command line's flags, and its
//! run: the state opened, both addresses bound, then the gRPC services and
//! the web UI served until one shutdown stops both.

use crate::coordinator::serve::connections::ConnectionLimits;
use crate::coordinator::serve::file::{
    CoordinatorFileError, CoordinatorSettings, parse_coordinator_file,
};
use crate::coordinator::serve::grpc::{TlsIdentity, serve_tls};
use crate::coordinator::{Coordinator, CoordinatorError};
use crate::work::bench_signature;
use std::future::Future;
use std::net::{Ipv4Addr, SocketAddr, SocketAddrV4};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpListener;

/// Where the gRPC services listen unless told otherwise.
pub const DEFAULT_LISTEN: SocketAddr =
    SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 50051));
/// Where the web UI and `/metrics` listen unless told otherwise.
pub const DEFAULT_HTTP_LISTEN: SocketAddr =
    SocketAddr::V4(SocketAddrV4::new(Ipv4Addr::UNSPECIFIED, 8080));
/// The state directory unless told otherwise, relative to the working directory.
pub const DEFAULT_STATE_DIR: &str = "coordinator";

/// What a command line says of a coordinator: a coordinator file to read,
/// and values that override the file's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CoordinatorFlags {
    /// The coordinator file, if any.
    pub config: Option<PathBuf>,
    /// Address of the gRPC services.
    pub listen: Option<SocketAddr>,
    /// State directory.
    pub state_dir: Option<PathBuf>,
    /// Address of the web UI and `/metrics`.
    pub http_listen: Option<SocketAddr>,
}

/// A coordinator's whole configuration: flags over the file over the
/// defaults, the TLS identity read.
#[derive(Clone, Debug)]
pub struct CoordinatorConfig {
    /// Address of the gRPC services.
    pub listen: SocketAddr,
    /// Address of the web UI and `/metrics`.
    pub http_listen: SocketAddr,
    /// Directory of the state and the games.
    pub state_dir: PathBuf,
    /// How long a lease lasts unrenewed.
    pub lease: Duration,
    /// The play a unit is sized to, if not the coordinator's default.
    pub unit_duration: Option<Duration>,
    /// Largest engine artifact taken, bytes, if not the default.
    pub artifact_limit: Option<u64>,
    /// Serve gRPC over TLS with this identity.
    pub tls: Option<TlsIdentity>,
    /// Who may read the web UI.
    pub web_read: crate::coordinator::serve::web::ReadAccess,
}

/// A coordinator's configuration that cannot be made.
#[derive(Debug, thiserror::Error)]
pub enum CoordinatorConfigError {
    /// The coordinator file cannot be read.
    #[error("reading {}: {source}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The coordinator file is not valid (every fault named by its key).
    #[error("{}: {source}", path.display())]
    File {
        /// The file.
        path: PathBuf,
        /// Its faults.
        source: CoordinatorFileError,
    },
    /// A TLS file the coordinator file names cannot be read.
    #[error("{key}: reading {}: {source}", path.display())]
    Tls {
        /// `tls_cert` or `tls_key`.
        key: &'static str,
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
}

impl CoordinatorConfig {
    /// Reads the coordinator file `flags` names (if any) and makes the
    /// configuration of it and the flags.
    ///
    /// # Errors
    /// [`CoordinatorConfigError`] for a file that does not read or is not
    /// valid, or a TLS file that does not read.
    pub fn load(flags: &CoordinatorFlags) -> Result<CoordinatorConfig, CoordinatorConfigError> {
        let settings = match &flags.config {
            Some(path) => {
                let text = ajaxlab_files::read_text(path, ajaxlab_files::limits::CONFIG_FILE)
                    .map_err(|source| CoordinatorConfigError::Read {
                        path: path.clone(),
                        source,
                    })?;
                parse_coordinator_file(&text).map_err(|source| CoordinatorConfigError::File {
                    path: path.clone(),
                    source,
                })?
            }
            None => CoordinatorSettings::default(),
        };
        CoordinatorConfig::new(settings, flags)
    }

    /// The configuration of a checked coordinator file and the flags that
    /// override it; the TLS files it names are read.
    ///
    /// # Errors
    /// [`CoordinatorConfigError::Tls`] for a TLS file that does not read.
    pub fn new(
        settings: CoordinatorSettings,
        flags: &CoordinatorFlags,
    ) -> Result<CoordinatorConfig, CoordinatorConfigError> {
        let read = |key: &'static str, path: &Path| {
            ajaxlab_files::read_bytes(path, ajaxlab_files::limits::CONFIG_FILE).map_err(|source| {
                CoordinatorConfigError::Tls {
                    key,
                    path: path.to_owned(),
                    source,
                }
            })
        };
        let tls = match &settings.tls {
            Some(files) => Some(TlsIdentity {
                cert_pem: read("tls_cert", &files.cert)?,
                key_pem: read("tls_key", &files.key)?,
            }),
            None => None,
        };
        Ok(CoordinatorConfig {
            listen: flags.listen.or(settings.listen).unwrap_or(DEFAULT_LISTEN),
            http_listen: flags
                .http_listen
                .or(settings.http_listen)
                .unwrap_or(DEFAULT_HTTP_LISTEN),
            state_dir: flags
                .state_dir
                .clone()
                .or(settings.state_dir)
                .unwrap_or_else(|| PathBuf::from(DEFAULT_STATE_DIR)),
            lease: settings.lease,
            unit_duration: settings.unit_duration,
            artifact_limit: settings.artifact_limit,
            tls,
            web_read: settings.web_read,
        })
    }

    /// Opens (or creates) the coordinator's state as configured, with this
    /// build's engine signature (a bench run off the async threads).
    ///
    /// # Errors
    /// [`RunError::Coordinator`] if the state does not open.
    pub async fn open(&self) -> Result<Coordinator, RunError> {
        let signature = tokio::task::spawn_blocking(bench_signature).await?;
        let mut coordinator = Coordinator::open(&self.state_dir, self.lease, signature)?;
        if let Some(duration) = self.unit_duration {
            coordinator.set_unit_duration(duration);
        }
        if let Some(bytes) = self.artifact_limit {
            coordinator.set_artifact_limit(bytes);
        }
        Ok(coordinator)
    }
}

/// A coordinator that could not run.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The bench that gives the engine signature did not finish.
    #[error("the engine bench: {0}")]
    Bench(#[from] tokio::task::JoinError),
    /// The coordinator's state.
    #[error(transparent)]
    Coordinator(#[from] CoordinatorError),
    /// An address that cannot be listened on.
    #[error("listening on {addr}: {source}")]
    Listen {
        /// The address.
        addr: SocketAddr,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The gRPC server.
    #[error(transparent)]
    Serve(#[from] tonic::transport::Error),
    /// The web UI's server.
    #[error("web UI: {0}")]
    StatusPage(std::io::Error),
}

/// A coordinator bound to both its addresses, not yet serving: the caller
/// can say where it listens (a port 0 is chosen at binding) first.
pub struct BoundCoordinator {
    coordinator: Arc<Coordinator>,
    grpc: TcpListener,
    http: TcpListener,
    tls: Option<TlsIdentity>,
    limits: ConnectionLimits,
    web_read: crate::coordinator::serve::web::ReadAccess,
}

impl BoundCoordinator {
    /// Binds `config`'s two addresses for `coordinator`, and sizes their
    /// connection limits to this process's descriptor limit (raised to the
    /// hard one).
    ///
    /// # Errors
    /// [`RunError::Listen`] naming an address that cannot be bound.
    pub async fn bind(
        coordinator: Coordinator,
        config: &CoordinatorConfig,
    ) -> Result<BoundCoordinator, RunError> {
        let bind = |addr: SocketAddr| async move {
            TcpListener::bind(addr)
                .await
                .map_err(|source| RunError::Listen { addr, source })
        };
        Ok(BoundCoordinator {
            coordinator: Arc::new(coordinator),
            grpc: bind(config.listen).await?,
            http: bind(config.http_listen).await?,
            tls: config.tls.clone(),
            limits: ConnectionLimits::for_this_process(),
            web_read: config.web_read,
        })
    }

    /// The gRPC services' address.
    ///
    /// # Errors
    /// What the operating system says.
    pub fn grpc_addr(&self) -> std::io::Result<SocketAddr> {
        self.grpc.local_addr()
    }

    /// The web UI's address.
    ///
    /// # Errors
    /// What the operating system says.
    pub fn http_addr(&self) -> std::io::Result<SocketAddr> {
        self.http.local_addr()
    }

    /// Whether the gRPC services are served over TLS.
    pub fn tls(&self) -> bool {
        self.tls.is_some()
    }

    /// How many connections each server will hold at most.
    pub fn limits(&self) -> ConnectionLimits {
        self.limits
    }

    /// The coordinator.
    pub fn coordinator(&self) -> &Coordinator {
        &self.coordinator
    }

    /// Serves the gRPC services and the web UI until `shutdown`
    /// completes: the gRPC server waits for it, the web UI for the
    /// gRPC server's end.
    ///
    /// # Errors
    /// [`RunError`] for a failure of either server.
    pub async fn serve(self, shutdown: impl Future<Output = ()> + Send) -> Result<(), RunError> {
        let (stop_http, http_stopped) = tokio::sync::oneshot::channel::<()>();
        let limits = self.limits;
        let status = tokio::spawn(crate::coordinator::serve::web::serve_http(
            Arc::clone(&self.coordinator),
            self.web_read,
            self.http,
            limits,
            async move {
                let _ = http_stopped.await;
            },
        ));
        let served = serve_tls(self.coordinator, self.grpc, self.tls, limits, shutdown).await;
        let _ = stop_http.send(());
        served?;
        status.await?.map_err(RunError::StatusPage)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags_override_the_file_and_defaults_fill_the_rest() {
        let file = CoordinatorSettings {
            listen: Some(SocketAddr::from(([127, 0, 0, 1], 1))),
            state_dir: Some(PathBuf::from("from-file")),
            lease: Duration::from_secs(5),
            ..CoordinatorSettings::default()
        };
        let flags = CoordinatorFlags {
            state_dir: Some(PathBuf::from("from-flag")),
            ..CoordinatorFlags::default()
        };
        let config = CoordinatorConfig::new(file, &flags).unwrap();
        assert_eq!(config.listen, SocketAddr::from(([127, 0, 0, 1], 1)));
        assert_eq!(config.state_dir, PathBuf::from("from-flag"));
        assert_eq!(config.http_listen, DEFAULT_HTTP_LISTEN);
        assert_eq!(config.lease, Duration::from_secs(5));
        let bare =
            CoordinatorConfig::new(CoordinatorSettings::default(), &CoordinatorFlags::default())
                .unwrap();
        assert_eq!(
            (bare.listen, bare.state_dir),
            (DEFAULT_LISTEN, PathBuf::from(DEFAULT_STATE_DIR))
        );
    }

    #[test]
    fn an_unreadable_tls_file_is_named_by_its_key() {
        let file = CoordinatorSettings {
            tls: Some(crate::coordinator::serve::file::TlsFiles {
                cert: PathBuf::from("/nonexistent/cert.pem"),
                key: PathBuf::from("/nonexistent/key.pem"),
            }),
            ..CoordinatorSettings::default()
        };
        let e = CoordinatorConfig::new(file, &CoordinatorFlags::default()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("tls_cert: reading /nonexistent/cert.pem: "),
            "{e}"
        );
    }
}
