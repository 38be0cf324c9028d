//! An operator's requests to a running coordinator (`ajaxlab campaign
//! create|list|status|pause|resume|stop|exclude`), sent with an operator
//! token: what to ask is a [`CampaignChange`] or a call, never text.

pub mod draft;
pub mod engine_check;

use crate::artifacts::ArtifactError;
use crate::artifacts::client::{CampaignFile, Uploaded, upload};
use crate::campaign::inputs::SentFile;
use crate::ids::{CampaignId, WorkerId};
use crate::remote::Auth;
use crate::remote::{Remote, RemoteError};
use ajaxlab_proto::v1::artifacts_client::ArtifactsClient;
use ajaxlab_proto::v1::operator_client::OperatorClient;
use ajaxlab_proto::{PROTOCOL_VERSION, v1};
use draft::{CampaignDraft, CampaignText, DraftError};
use std::path::{Path, PathBuf};
use tonic::service::interceptor::InterceptedService;
use tonic::transport::Channel;

/// What an operator asks of one campaign.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CampaignChange {
    /// Nothing: show it.
    Show,
    /// Hold it (resumable).
    Pause,
    /// Hand its units out again.
    Resume,
    /// End it for good.
    Stop,
}

/// An operator's request that did not go through.
#[derive(Debug, thiserror::Error)]
pub enum OperatorError {
    /// The coordinator cannot be reached as asked.
    #[error(transparent)]
    Remote(#[from] RemoteError),
    /// The campaign file cannot be read.
    #[error("reading {}: {source}", path.display())]
    CampaignFile {
        /// The file.
        path: PathBuf,
        /// What the operating system said.
        source: std::io::Error,
    },
    /// A file the campaign ships that cannot be uploaded.
    #[error("{context}: {source}")]
    Artifact {
        /// The key and file being uploaded.
        context: String,
        /// What went wrong.
        source: ArtifactError,
    },
    /// The campaign file is not valid here: a key, a file it names, an
    /// engine it ships or tunes.
    #[error(transparent)]
    Draft(#[from] DraftError),
    /// The check of the engine a campaign tunes could not run.
    #[error("checking the tuned engine: {0}")]
    Engine(String),
    /// The coordinator refused the request.
    #[error("{:?}: {}", .0.code(), .0.message())]
    Refused(tonic::Status),
}

impl From<tonic::Status> for OperatorError {
    fn from(status: tonic::Status) -> Self {
        OperatorError::Refused(status)
    }
}

type Client = OperatorClient<InterceptedService<Channel, Auth>>;

fn header() -> Option<v1::Header> {
    Some(v1::Header {
        protocol_version: PROTOCOL_VERSION,
    })
}

async fn client(remote: &Remote) -> Result<Client, OperatorError> {
    let (channel, auth) = remote.connect().await?;
    Ok(OperatorClient::with_interceptor(channel, auth))
}

/// Every campaign of the coordinator.
///
/// # Errors
/// [`OperatorError`]: not reached, or refused.
pub async fn list_campaigns(remote: &Remote) -> Result<Vec<v1::Campaign>, OperatorError> {
    let request = v1::ListCampaignsRequest { header: header() };
    Ok(client(remote)
        .await?
        .list_campaigns(request)
        .await?
        .into_inner()
        .campaigns)
}

/// Does `change` to campaign `id`; returns the campaign as it is then.
///
/// # Errors
/// [`OperatorError`]: not reached, or refused (an unknown campaign, one
/// that is over).
pub async fn change_campaign(
    remote: &Remote,
    id: &CampaignId,
    change: CampaignChange,
) -> Result<v1::Campaign, OperatorError> {
    let mut client = client(remote).await?;
    let request = v1::CampaignRequest {
        header: header(),
        campaign_id: id.to_string(),
    };
    let campaign = match change {
        CampaignChange::Show => client.get_campaign(request).await?,
        CampaignChange::Pause => client.pause_campaign(request).await?,
        CampaignChange::Resume => client.resume_campaign(request).await?,
        CampaignChange::Stop => client.stop_campaign(request).await?,
    };
    Ok(campaign.into_inner())
}

/// Counts `worker` (and its token's other workers) out of `campaign`.
///
/// # Errors
/// [`OperatorError`]: not reached, or refused (an unknown campaign or
/// worker, an SPSA tune).
pub async fn exclude_worker(
    remote: &Remote,
    campaign: &CampaignId,
    worker: &WorkerId,
) -> Result<v1::Campaign, OperatorError> {
    let request = v1::ExcludeWorkerRequest {
        header: header(),
        campaign_id: campaign.to_string(),
        worker_id: worker.to_string(),
    };
    Ok(client(remote)
        .await?
        .exclude_worker(request)
        .await?
        .into_inner())
}

/// A file a campaign names, uploaded to the coordinator.
#[derive(Clone, Debug)]
pub struct ShippedFile {
    /// The file, and where the campaign names it.
    pub file: CampaignFile,
    /// What the coordinator holds of it.
    pub upload: Uploaded,
}

/// A campaign file whose engines and files are on the coordinator,
/// ready to be created.
#[derive(Clone, Debug)]
pub struct Shipment {
    /// The campaign file's text.
    pub text: String,
    /// The engines and option files of its UCI players, uploaded.
    pub files: Vec<ShippedFile>,
    /// The other files it names, read here, sent with it.
    pub inputs: Vec<SentFile>,
}

/// The campaign file name that means standard input.
pub const STDIN: &str = "-";

/// Reads the campaign in `file` ([`STDIN`]: the text on standard input) as
/// a [`CampaignDraft`] (validated here, the files it names read, a tuned
/// engine checked) and uploads the engines and files it ships (all found
/// first, so that a missing one stores nothing): the first step of
/// creating it, [`create_campaign`] the second. The files it names are
/// relative to the current directory.
///
/// # Errors
/// [`OperatorError`]: a file that does not read or cannot be uploaded, or
/// a coordinator not reached.
pub async fn ship_campaign_files(remote: &Remote, file: &Path) -> Result<Shipment, OperatorError> {
    let limit = ajaxlab_files::limits::CONFIG_FILE;
    let read = if file == Path::new(STDIN) {
        ajaxlab_files::read_stdin_text(limit)
    } else {
        ajaxlab_files::read_text(file, limit)
    };
    let text = read.map_err(|source| OperatorError::CampaignFile {
        path: file.to_owned(),
        source,
    })?;
    let draft = CampaignDraft::read(CampaignText {
        text,
        origin: file.display().to_string(),
    })?;
    let checked = draft.clone();
    tokio::task::spawn_blocking(move || checked.check_engines())
        .await
        .map_err(|e| OperatorError::Engine(e.to_string()))??;
    let named = draft.shipped;
    let mut files = Vec::with_capacity(named.len());
    if !named.is_empty() {
        let (channel, auth) = remote.connect().await?;
        let mut artifacts = ArtifactsClient::with_interceptor(channel, auth);
        for f in named {
            let upload = upload(&mut artifacts, &f.path).await.map_err(|source| {
                OperatorError::Artifact {
                    context: format!("{}: uploading {}", f.key, f.path.display()),
                    source,
                }
            })?;
            files.push(ShippedFile { file: f, upload });
        }
    }
    Ok(Shipment {
        text: draft.file.text,
        files,
        inputs: draft.sent,
    })
}

/// Creates the campaign of `shipment` on the coordinator. Returns the
/// campaigns made: one, or a piece-value campaign's parts.
///
/// # Errors
/// [`OperatorError`]: a coordinator not reached, or a campaign refused.
pub async fn create_campaign(
    remote: &Remote,
    shipment: &Shipment,
) -> Result<Vec<v1::Campaign>, OperatorError> {
    let request = v1::CreateCampaignRequest {
        header: header(),
        config_toml: shipment.text.clone(),
        shipped: shipment
            .files
            .iter()
            .map(|f| v1::ShippedFile {
                key: f.file.key.clone(),
                path: f.file.path.display().to_string(),
                sha256: f.upload.hash.to_string(),
            })
            .collect(),
        inputs: shipment.inputs.iter().map(v1::SentFile::from).collect(),
    };
    Ok(client(remote)
        .await?
        .create_campaign(request)
        .await?
        .into_inner()
        .campaigns)
}
