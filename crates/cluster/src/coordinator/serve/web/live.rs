//! `/events`: server-sent events that tell open pages when to fetch their
//! live parts again. One `change` event follows a change of the
//! coordinator's campaigns (a unit counted, a state changed), after a
//! short pause that gathers the changes of many workers into one event:
//! a page refreshes at most once per [`GATHER`], and never while nothing
//! happens.

use super::Web;
use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use std::convert::Infallible;
use std::time::Duration;
use tokio_stream::Stream;

/// How long changes are gathered into one event.
const GATHER: Duration = Duration::from_secs(1);

/// The event stream of one open page.
pub(super) async fn events(
    State(web): State<Web>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let changes = web.coordinator.subscribe();
    let stream = futures_util::stream::unfold(changes, |mut changes| async move {
        changes.changed().await.ok()?;
        tokio::time::sleep(GATHER).await;
        let seen = *changes.borrow_and_update();
        Some((
            Ok(Event::default().event("change").data(seen.to_string())),
            changes,
        ))
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}
