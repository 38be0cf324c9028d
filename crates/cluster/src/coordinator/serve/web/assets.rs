//! The web UI's style sheet and script, embedded in the binary: a
//! cluster's coordinator is often offline, so nothing is fetched from a
//! CDN. Charts are SVG drawn by the coordinator (`crates/plot`).

use axum::extract::Path;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

/// Where the style sheet is served.
pub(super) const STYLE_PATH: &str = "/assets/style.css";
/// Where the script is served.
pub(super) const SCRIPT_PATH: &str = "/assets/live.js";

const STYLE: &str = include_str!("assets/style.css");
const SCRIPT: &str = include_str!("assets/live.js");

/// `/assets/FILE`: the style sheet or the script.
pub(super) async fn asset(Path(file): Path<String>) -> Response {
    let (body, kind) = match file.as_str() {
        "style.css" => (STYLE, "text/css; charset=utf-8"),
        "live.js" => (SCRIPT, "text/javascript; charset=utf-8"),
        _ => return (StatusCode::NOT_FOUND, "no such asset").into_response(),
    };
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}
