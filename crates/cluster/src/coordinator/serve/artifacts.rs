//! The `Artifacts` gRPC service, a thin adapter over the coordinator's
//! [`crate::artifacts::ArtifactStore`]: uploads take an operator token, fetches a
//! worker token (checked per call: one service, two scopes).

use super::services::{blocking, check_header, check_scope};
use crate::artifacts::chunks::send_chunks;
use crate::artifacts::{ArtifactError, ArtifactHash, Landing};
use crate::coordinator::{Coordinator, Scope};
use ajaxlab_proto::v1::{self, artifacts_server};
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;
use tokio_stream::{Stream, StreamExt};
use tonic::{Request, Response, Status, Streaming};

impl From<ArtifactError> for Status {
    fn from(e: ArtifactError) -> Status {
        let message = e.to_string();
        match e {
            ArtifactError::BadHash(_)
            | ArtifactError::SizeMismatch { .. }
            | ArtifactError::HashMismatch { .. }
            | ArtifactError::Protocol(_) => Status::invalid_argument(message),
            ArtifactError::TooLarge { .. } => Status::resource_exhausted(message),
            ArtifactError::NotFound(_) => Status::not_found(message),
            // Not the worker's fault nor lasting: an upload mends it.
            ArtifactError::Damaged(_) => Status::unavailable(message),
            ArtifactError::Read { .. }
            | ArtifactError::MissingFile { .. }
            | ArtifactError::Io { .. } => Status::internal(message),
        }
    }
}

/// The next chunk of an upload, or an error if none comes within `idle`:
/// a stalled stream otherwise held a descriptor and a partial file for ever.
async fn next_chunk(
    chunks: &mut Streaming<v1::ArtifactChunk>,
    idle: Duration,
) -> Result<Option<v1::ArtifactChunk>, Status> {
    match tokio::time::timeout(idle, chunks.next()).await {
        Ok(next) => next.transpose(),
        Err(_) => Err(Status::deadline_exceeded(format!(
            "upload: no chunk for {} ms; upload again",
            idle.as_millis()
        ))),
    }
}

/// The artifact service of a coordinator: uploads that send nothing for
/// `upload_idle` are dropped.
pub struct ArtifactService {
    /// The coordinator whose store it serves.
    pub coordinator: Arc<Coordinator>,
    /// How long an upload may send nothing.
    pub upload_idle: Duration,
}

type ChunkStream = Pin<Box<dyn Stream<Item = Result<v1::ArtifactChunk, Status>> + Send>>;

#[tonic::async_trait]
impl artifacts_server::Artifacts for ArtifactService {
    async fn upload_artifact(
        &self,
        request: Request<Streaming<v1::ArtifactChunk>>,
    ) -> Result<Response<v1::ArtifactStored>, Status> {
        check_scope(
            &self.coordinator,
            request.metadata(),
            Scope::Operator,
            "UploadArtifact (it takes an operator token)",
        )?;
        let mut chunks = request.into_inner();
        let first = next_chunk(&mut chunks, self.upload_idle)
            .await?
            .ok_or_else(|| Status::invalid_argument("upload: no chunk sent"))?;
        check_header(first.header.as_ref())?;
        let hash: ArtifactHash = first.sha256.parse()?;
        let size = first.size;
        // A first look hashes the stored file: off the async threads.
        let c = Arc::clone(&self.coordinator);
        if blocking(move || Ok::<_, Status>(c.artifacts().contains(hash))).await? {
            return Ok(Response::new(v1::ArtifactStored {
                sha256: hash.to_string(),
                size,
                already_stored: true,
            }));
        }
        let mut landing = self.coordinator.artifacts().receive(hash, size)?;
        let mut data = first.data;
        loop {
            landing = blocking(move || landing.write(&data).map(|()| landing)).await?;
            match next_chunk(&mut chunks, self.upload_idle).await? {
                Some(chunk) => data = chunk.data,
                None => break,
            }
        }
        blocking(move || Landing::finish(landing)).await?;
        Ok(Response::new(v1::ArtifactStored {
            sha256: hash.to_string(),
            size,
            already_stored: false,
        }))
    }

    type FetchArtifactStream = ChunkStream;

    async fn fetch_artifact(
        &self,
        request: Request<v1::FetchArtifactRequest>,
    ) -> Result<Response<Self::FetchArtifactStream>, Status> {
        check_scope(
            &self.coordinator,
            request.metadata(),
            Scope::Worker,
            "FetchArtifact (it takes a worker token)",
        )?;
        let r = request.into_inner();
        check_header(r.header.as_ref())?;
        let hash: ArtifactHash = r.sha256.parse()?;
        let c = Arc::clone(&self.coordinator);
        let (path, size) = blocking(move || c.artifacts().get(hash).map_err(Status::from)).await?;
        let mut file =
            std::fs::File::open(&path).map_err(|e| Status::from(ArtifactError::io(&path)(e)))?;
        let (tx, rx) = tokio::sync::mpsc::channel(4);
        tokio::task::spawn_blocking(move || {
            let sent = send_chunks(&mut file, hash, size, None, |c| {
                tx.blocking_send(Ok(c)).is_ok()
            });
            if let Err(e) = sent {
                let _ = tx.blocking_send(Err(ArtifactError::io(&path)(e).into()));
            }
        });
        Ok(Response::new(Box::pin(
            tokio_stream::wrappers::ReceiverStream::new(rx),
        )))
    }
}
