//! A coordinator as a client reaches it (a worker, or an operator's
//! command): its URL, the token sent with every request, and the CA
//! certificate trusted for an `https://` coordinator, read from their files
//! once.

mod auth;

pub use auth::{Auth, endpoint};
use std::path::{Path, PathBuf};
use tonic::transport::Channel;

/// A coordinator to connect to, and what to send it.
#[derive(Clone, Debug)]
pub struct Remote {
    /// The coordinator, e.g. `http://127.0.0.1:50051`.
    pub url: String,
    /// The bearer token, trimmed.
    pub token: String,
    /// CA certificate (PEM) to trust for an `https://` coordinator.
    pub tls_ca: Option<Vec<u8>>,
}

/// A coordinator that cannot be reached as asked.
#[derive(Debug, thiserror::Error)]
pub enum RemoteError {
    /// The token file cannot be read.
    #[error("reading the token file {}: {source}", path.display())]
    TokenFile {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The token file holds nothing but white space.
    #[error("{} is empty", .0.display())]
    EmptyToken(PathBuf),
    /// The CA certificate cannot be read.
    #[error("reading the CA certificate {}: {source}", path.display())]
    CaFile {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// The token has characters an HTTP header cannot carry.
    #[error("the token has characters a header cannot carry")]
    TokenText,
    /// A malformed URL or TLS setting.
    #[error("{0}")]
    Endpoint(String),
    /// The coordinator cannot be reached.
    #[error("connecting to {url}: {source}")]
    Connect {
        /// The coordinator.
        url: String,
        /// The transport's reason.
        source: tonic::transport::Error,
    },
}

impl Remote {
    /// The coordinator at `url`, with the token in `token_file` and the CA
    /// certificate in `tls_ca` (if given).
    ///
    /// # Errors
    /// [`RemoteError`] for a file that does not read, or an empty token.
    pub fn load(
        url: &str,
        token_file: &Path,
        tls_ca: Option<&Path>,
    ) -> Result<Remote, RemoteError> {
        let token = ajaxlab_files::read_text(token_file, ajaxlab_files::limits::CONFIG_FILE)
            .map_err(|source| RemoteError::TokenFile {
                path: token_file.to_owned(),
                source,
            })?;
        let token = token.trim().to_owned();
        if token.is_empty() {
            return Err(RemoteError::EmptyToken(token_file.to_owned()));
        }
        let tls_ca = tls_ca
            .map(|path| {
                ajaxlab_files::read_bytes(path, ajaxlab_files::limits::CONFIG_FILE).map_err(
                    |source| RemoteError::CaFile {
                        path: path.to_owned(),
                        source,
                    },
                )
            })
            .transpose()?;
        Ok(Remote {
            url: url.to_owned(),
            token,
            tls_ca,
        })
    }

    /// A channel to the coordinator, and the token to send on it.
    ///
    /// # Errors
    /// [`RemoteError`] for a token no header can carry, a malformed URL or
    /// TLS setting, or a coordinator that cannot be reached.
    pub async fn connect(&self) -> Result<(Channel, Auth), RemoteError> {
        let value = format!("Bearer {}", self.token.trim())
            .parse()
            .map_err(|_| RemoteError::TokenText)?;
        let channel = endpoint(&self.url, self.tls_ca.as_deref())
            .map_err(RemoteError::Endpoint)?
            .connect()
            .await
            .map_err(|source| RemoteError::Connect {
                url: self.url.clone(),
                source,
            })?;
        Ok((channel, Auth::new(value)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_file_is_read_trimmed_and_an_empty_or_missing_one_is_named() {
        let dir = std::env::temp_dir().join(format!("ajaxlab-remote-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let token = dir.join("token");
        std::fs::write(&token, "  secret\n").unwrap();
        let remote = Remote::load("http://127.0.0.1:1", &token, None).unwrap();
        assert_eq!((remote.token.as_str(), remote.tls_ca), ("secret", None));
        std::fs::write(&token, " \n").unwrap();
        let e = Remote::load("http://127.0.0.1:1", &token, None).unwrap_err();
        assert_eq!(e.to_string(), format!("{} is empty", token.display()));
        let missing = dir.join("missing");
        let e = Remote::load("http://127.0.0.1:1", &missing, None).unwrap_err();
        assert!(
            e.to_string()
                .starts_with(&format!("reading the token file {}: ", missing.display())),
            "{e}"
        );
        std::fs::write(&token, "secret").unwrap();
        let e = Remote::load("http://127.0.0.1:1", &token, Some(&missing)).unwrap_err();
        assert!(
            e.to_string().starts_with(&format!(
                "reading the CA certificate {}: ",
                missing.display()
            )),
            "{e}"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}
