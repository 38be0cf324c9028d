//! The operator's and the worker's side of the `Artifacts` service:
//! uploading the files a campaign names, and fetching an artifact into a
//! worker's cache.

use super::chunks::send_chunks;
use super::{ArtifactCache, ArtifactError, ArtifactHash, hash_file};
use crate::remote::Auth;
use ajaxlab_arena::config::PlayerFile;
use ajaxlab_proto::v1::artifacts_client::ArtifactsClient;
use ajaxlab_proto::{PROTOCOL_VERSION, v1};
use serde::Deserialize;
use std::path::{Path, PathBuf};
use tokio_stream::StreamExt;
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

/// A client of the `Artifacts` service with a bearer token.
pub type Client = ArtifactsClient<InterceptedService<Channel, Auth>>;

fn refused(status: &tonic::Status) -> ArtifactError {
    ArtifactError::Protocol(format!("{:?}: {}", status.code(), status.message()))
}

/// A refused fetch: [`ArtifactError::NotFound`] when the coordinator does
/// not hold `hash`, [`ArtifactError::Protocol`] otherwise.
fn fetch_refused(hash: ArtifactHash, status: &tonic::Status) -> ArtifactError {
    if status.code() == tonic::Code::NotFound {
        ArtifactError::NotFound(hash)
    } else {
        refused(status)
    }
}

/// What the coordinator said of an upload.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Uploaded {
    /// The artifact's name.
    pub hash: ArtifactHash,
    /// Its size, bytes.
    pub size: u64,
    /// Whether the coordinator held it already.
    pub already_stored: bool,
}

/// Uploads the file at `path` in chunks, under the SHA-256 of its bytes.
///
/// # Errors
/// The file cannot be read, or the coordinator refuses it (a message naming
/// why: size limit, hash, token).
pub async fn upload(client: &mut Client, path: &Path) -> Result<Uploaded, ArtifactError> {
    let owned = path.to_owned();
    let (hash, size) = tokio::task::spawn_blocking(move || hash_file(&owned))
        .await
        .map_err(|e| ArtifactError::Protocol(e.to_string()))??;
    upload_as(client, path, hash, size).await
}

/// Uploads `path` stating `hash` and `size` (which the coordinator checks).
///
/// # Errors
/// As [`upload`].
pub async fn upload_as(
    client: &mut Client,
    path: &Path,
    hash: ArtifactHash,
    size: u64,
) -> Result<Uploaded, ArtifactError> {
    let read = |path: &Path| {
        let path = path.to_owned();
        move |source| ArtifactError::Read { path, source }
    };
    let mut file = std::fs::File::open(path).map_err(read(path))?;
    let (tx, rx) = tokio::sync::mpsc::channel(4);
    let owned = path.to_owned();
    let reader = tokio::task::spawn_blocking(move || {
        let header = Some(v1::Header {
            protocol_version: PROTOCOL_VERSION,
        });
        // A closed channel: the coordinator answered (or failed) early.
        send_chunks(&mut file, hash, size, header, |c| {
            tx.blocking_send(c).is_ok()
        })
        .map_err(read(&owned))
    });
    let answer = client
        .upload_artifact(tokio_stream::wrappers::ReceiverStream::new(rx))
        .await;
    reader
        .await
        .map_err(|e| ArtifactError::Protocol(e.to_string()))??;
    let stored = answer.map_err(|s| refused(&s))?.into_inner();
    Ok(Uploaded {
        hash,
        size: stored.size,
        already_stored: stored.already_stored,
    })
}

/// The cached file of `hash`, fetched from the coordinator first if the
/// cache lacks it (checked against the hash, made executable).
///
/// # Errors
/// The coordinator refuses or lacks it, its bytes do not match, or the
/// cache cannot be written.
pub async fn fetch(
    client: &mut Client,
    hash: ArtifactHash,
    cache: &ArtifactCache,
) -> Result<PathBuf, ArtifactError> {
    if let Some(path) = cache.get(hash)? {
        return Ok(path);
    }
    let mut chunks = client
        .fetch_artifact(v1::FetchArtifactRequest {
            header: Some(v1::Header {
                protocol_version: PROTOCOL_VERSION,
            }),
            sha256: hash.to_string(),
        })
        .await
        .map_err(|s| fetch_refused(hash, &s))?
        .into_inner();
    let first = chunks
        .next()
        .await
        .ok_or_else(|| ArtifactError::Protocol(format!("artifact {hash}: empty answer")))?
        .map_err(|s| fetch_refused(hash, &s))?;
    if first.sha256 != hash.to_string() {
        return Err(ArtifactError::Protocol(format!(
            "asked for artifact {hash}, sent '{}'",
            first.sha256
        )));
    }
    let mut landing = cache.receive(hash, first.size)?;
    landing.write(&first.data)?;
    while let Some(chunk) = chunks.next().await {
        landing.write(&chunk.map_err(|s| refused(&s))?.data)?;
    }
    landing.finish()
}

/// The players of a campaign file, and nothing else of it.
#[derive(Deserialize)]
struct PlayersOnly {
    #[serde(default)]
    players: Vec<PlayerFile>,
}

/// A file a campaign names that travels with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CampaignFile {
    /// Where the campaign names it, e.g. `players[1].path`.
    pub key: String,
    /// The file, as named (relative to the current directory).
    pub path: PathBuf,
}

/// Whether option `name` = `value` names a file, by the UCI convention of
/// such options' names (`VariantPath`, `EvalFile`); `<empty>` is UCI's
/// "none".
fn names_a_file(name: &str, value: &str) -> bool {
    (name.ends_with("Path") || name.ends_with("File")) && !value.is_empty() && value != "<empty>"
}

/// The files of a campaign file's UCI players that go to the coordinator:
/// each engine binary (unless it is installed on the workers,
/// `worker_path`), and the value of every file option: one whose name ends
/// in `Path` or `File` (a `VariantPath` ini), or one the player lists in
/// `file_options`. Other values are sent as they are, even where a file
/// happens to have that name (`UCI_Variant = "chess"` beside a file
/// `chess`).
///
/// # Errors
/// [`ArtifactError::MissingFile`] naming the key of an engine binary, or
/// of a `…Path`/`…File` option's file, that is not there; or a campaign
/// file that is not TOML.
pub fn campaign_files(text: &str) -> Result<Vec<CampaignFile>, ArtifactError> {
    let table: toml::Table = text
        .parse()
        .map_err(|e| ArtifactError::Protocol(format!("campaign file: {e}")))?;
    shipped_files(&table)
}

/// [`campaign_files`] of a file's parsed TOML.
///
/// # Errors
/// As [`campaign_files`].
pub fn shipped_files(table: &toml::Table) -> Result<Vec<CampaignFile>, ArtifactError> {
    let file = PlayersOnly::deserialize(table.clone())
        .map_err(|e| ArtifactError::Protocol(format!("campaign file: {e}")))?;
    let mut files = Vec::new();
    for (i, p) in file.players.iter().enumerate() {
        let PlayerFile::Uci(p) = p else {
            continue;
        };
        if p.worker_path.is_none() {
            let key = format!("players[{i}].path");
            let path = p.path.clone().ok_or_else(|| ArtifactError::MissingFile {
                key: key.clone(),
                path: PathBuf::new(),
            })?;
            if !path.is_file() {
                return Err(ArtifactError::MissingFile { key, path });
            }
            files.push(CampaignFile { key, path });
        }
        for (name, value) in p.options.iter().flatten() {
            let Some(text) = value.as_str() else {
                continue;
            };
            let marked = p.file_options.iter().flatten().any(|m| m == name);
            if !(marked || names_a_file(name, text)) {
                continue;
            }
            let key = format!("players[{i}].options.{name}");
            let path = PathBuf::from(text);
            if !path.is_file() {
                return Err(ArtifactError::MissingFile { key, path });
            }
            files.push(CampaignFile { key, path });
        }
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        match campaign_files(text) {
            Err(ArtifactError::MissingFile { key, path }) => format!("{key} {}", path.display()),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_missing_binary_or_option_file_is_refused_and_an_installed_binary_is_not_shipped() {
        let uci = "[[players]]\nengine = \"uci\"\n";
        assert_eq!(refused(uci), "players[0].path ");
        assert_eq!(
            refused(&format!("{uci}path = \"no-such-engine\"\n")),
            "players[0].path no-such-engine"
        );
        assert_eq!(
            refused(&format!(
                "{uci}worker_path = \"/usr/games/x\"\noptions = {{ VariantPath = \"no-such.ini\" }}\n"
            )),
            "players[0].options.VariantPath no-such.ini"
        );
        let files = campaign_files(&format!(
            "{uci}worker_path = \"/usr/games/x\"\noptions = {{ EvalFile = \"<empty>\", UCI_Variant = \"afc\", VariantPath = \"Cargo.toml\" }}\n"
        ))
        .unwrap();
        assert_eq!(
            files,
            [CampaignFile {
                key: "players[0].options.VariantPath".into(),
                path: "Cargo.toml".into()
            }]
        );
    }

    #[test]
    fn a_value_that_happens_to_name_a_file_is_sent_as_it_is_unless_marked() {
        // Cargo.toml is a file here; UCI_Variant is no file option.
        let uci = "[[players]]\nengine = \"uci\"\nworker_path = \"/usr/games/x\"\n";
        let plain = format!("{uci}options = {{ UCI_Variant = \"Cargo.toml\" }}\n");
        assert_eq!(campaign_files(&plain).unwrap(), []);
        let marked = format!("{plain}file_options = [\"UCI_Variant\"]\n");
        assert_eq!(
            campaign_files(&marked).unwrap(),
            [CampaignFile {
                key: "players[0].options.UCI_Variant".into(),
                path: "Cargo.toml".into()
            }]
        );
    }
}
