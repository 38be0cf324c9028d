//! What a page or an action that cannot be served answers: the HTTP
//! status that says why, and a page that says what, in words.

use crate::coordinator::CoordinatorError;
use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use maud::html;

/// A request the web UI refuses or cannot serve.
#[derive(Debug, thiserror::Error)]
pub(super) enum WebError {
    /// No such campaign, worker or file.
    #[error("{0}")]
    NotFound(String),
    /// Not signed in as an operator, a worker's token, or a form without
    /// its CSRF token.
    #[error("{0}")]
    Forbidden(String),
    /// A request that names something wrong.
    #[error("{0}")]
    BadRequest(String),
    /// A request the campaign's state forbids (it is over, say).
    #[error("{0}")]
    Conflict(String),
    /// The coordinator's own failure.
    #[error("{0}")]
    Internal(String),
}

impl WebError {
    fn status(&self) -> StatusCode {
        match self {
            WebError::NotFound(_) => StatusCode::NOT_FOUND,
            WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            WebError::BadRequest(_) => StatusCode::BAD_REQUEST,
            WebError::Conflict(_) => StatusCode::CONFLICT,
            WebError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<CoordinatorError> for WebError {
    /// By the gRPC code the coordinator's error maps to, so that the web
    /// UI and the CLI refuse the same requests the same way.
    fn from(e: CoordinatorError) -> WebError {
        let status = tonic::Status::from(e);
        let message = status.message().to_owned();
        match status.code() {
            tonic::Code::NotFound => WebError::NotFound(message),
            tonic::Code::InvalidArgument => WebError::BadRequest(message),
            tonic::Code::FailedPrecondition | tonic::Code::AlreadyExists => {
                WebError::Conflict(message)
            }
            _ => WebError::Internal(message),
        }
    }
}

impl From<tokio::task::JoinError> for WebError {
    fn from(e: tokio::task::JoinError) -> WebError {
        WebError::Internal(e.to_string())
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let status = self.status();
        let page = html! {
            (maud::DOCTYPE)
            html lang="en" {
                head {
                    meta charset="utf-8";
                    title { "ajaxlab: " (status.as_str()) }
                    link rel="stylesheet" href=(super::assets::STYLE_PATH);
                }
                body {
                    main {
                        h1 { (status.canonical_reason().unwrap_or("error")) }
                        p.error { (self.to_string()) }
                        p { a href="/" { "Back to the campaigns" } }
                    }
                }
            }
        };
        (status, Html(page.into_string())).into_response()
    }
}

/// Runs `work` (blocking: the database) off the async threads.
pub(super) async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, WebError> + Send + 'static,
) -> Result<T, WebError> {
    tokio::task::spawn_blocking(work).await?
}
