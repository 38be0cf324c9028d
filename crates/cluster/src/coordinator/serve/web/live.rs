//! `/events`: server-sent events that carry an open page's live parts.
//! A page names its parts (`/events?parts=URL URL…`, each the path of a
//! fragment); after a change of the coordinator's campaigns (a unit
//! counted, a state changed) and a short pause that gathers the changes of
//! many workers into one, each part that is due comes down the stream as a
//! `part` event: its URL on the first line, its HTML after. A part is sent
//! at most once per [`GATHER`] (the games per worker at most every
//! [`WORKERS_EVERY_S`] seconds, and once more when that time is up if a
//! change came meanwhile), and nothing is sent while nothing changes.
//!
//! The parts' renderings are shared by every page ([`super::snapshots`]),
//! so a hundred open pages cost one reading, one rendering and a hundred
//! writes on connections already open: no request per page and part, as
//! fetching each part anew would cost (`ajaxlab loadgen --live-pages`).

use super::auth::SessionCookie;
use super::error::WebError;
use super::list::Filter;
use super::{Web, campaign, list, workers};
use crate::ids::CampaignId;
use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::StreamExt;
use std::convert::Infallible;
use std::time::Duration;
use tokio::time::Instant;
use tokio_stream::Stream;

/// How long changes are gathered into one update.
const GATHER: Duration = Duration::from_secs(1);

/// The most parts one page may follow.
const MAX_PARTS: usize = 8;

/// Seconds between two sendings of a campaign's games per worker, at most
/// (a cluster's table is long).
const WORKERS_EVERY_S: u64 = 10;

/// A live part of a page, by the path of its fragment.
#[derive(Clone, Debug)]
pub(super) enum Part {
    /// `/fragments/campaigns?FILTER`: the campaigns list's table.
    List(Filter),
    /// `/fragments/campaigns/NAME`: a campaign's progress and results.
    Campaign(CampaignId),
    /// `/fragments/campaigns/NAME/workers`: its games per worker.
    CampaignWorkers(CampaignId),
    /// `/fragments/workers`: the workers page's table.
    Workers,
}

impl Part {
    /// The part whose fragment is at `url`.
    ///
    /// # Errors
    /// `BadRequest` naming a URL that is no live part.
    pub(super) fn parse(url: &str) -> Result<Part, WebError> {
        let bad = || WebError::BadRequest(format!("parts: {url:?} is no live part of a page"));
        let (path, _) = url.split_once('?').unwrap_or((url, ""));
        let segments: Vec<&str> = path.split('/').collect();
        let id = |text: &str| text.parse::<CampaignId>().map_err(|_| bad());
        match segments[..] {
            ["", "fragments", "campaigns"] => {
                let uri: axum::http::Uri = url.parse().map_err(|_| bad())?;
                let Query(filter) = Query::<Filter>::try_from_uri(&uri).map_err(|_| bad())?;
                Ok(Part::List(filter))
            }
            ["", "fragments", "campaigns", name] => Ok(Part::Campaign(id(name)?)),
            ["", "fragments", "campaigns", name, "workers"] => Ok(Part::CampaignWorkers(id(name)?)),
            ["", "fragments", "workers"] => Ok(Part::Workers),
            _ => Err(bad()),
        }
    }

    /// The least time between two sendings of this part.
    fn every(&self) -> Duration {
        match self {
            Part::CampaignWorkers(_) => Duration::from_secs(WORKERS_EVERY_S),
            _ => Duration::ZERO,
        }
    }

    /// The part's HTML as `cookie`'s holder sees it, rendered at most a
    /// second ago.
    pub(super) async fn render(
        &self,
        web: &Web,
        cookie: &SessionCookie,
    ) -> Result<Bytes, WebError> {
        let web = web.clone();
        match self {
            Part::List(filter) => list::part(web, filter.clone()).await,
            Part::Campaign(id) => {
                campaign::live_part(web.clone(), cookie.viewer(&web), id.clone()).await
            }
            Part::CampaignWorkers(id) => {
                campaign::workers_part(web.clone(), cookie.viewer(&web), id.clone()).await
            }
            Part::Workers => workers::part(web).await,
        }
    }
}

/// What a page asks `/events` for.
#[derive(serde::Deserialize)]
pub(super) struct Subscription {
    /// The URLs of its live parts, separated by spaces.
    #[serde(default)]
    parts: String,
}

/// One followed part: its URL as the page named it, what it is, when it
/// was last sent and whether a change came since.
struct Followed {
    url: String,
    part: Part,
    sent: Option<Instant>,
    stale: bool,
}

impl Followed {
    /// When the part may be sent next: at once if it was never sent, else
    /// its `every` after it was.
    fn due_at(&self, now: Instant) -> Instant {
        self.sent.map_or(now, |sent| sent + self.part.every())
    }
}

/// A page's stream: what it follows, and what it needs to read and to
/// know of changes.
struct PageStream {
    web: Web,
    cookie: SessionCookie,
    changes: tokio::sync::watch::Receiver<u64>,
    followed: Vec<Followed>,
}

impl PageStream {
    /// Waits for what is next to send (a change, gathered, or a part whose
    /// wait is over), then the events of every stale part that is due.
    /// `None` when the coordinator has gone.
    async fn next(&mut self) -> Option<Vec<Event>> {
        loop {
            let now = Instant::now();
            let late = self
                .followed
                .iter()
                .filter(|f| f.stale)
                .map(|f| f.due_at(now))
                .min();
            tokio::select! {
                changed = self.changes.changed() => {
                    changed.ok()?;
                    tokio::time::sleep(GATHER).await;
                    let _ = self.changes.borrow_and_update();
                    for f in &mut self.followed {
                        f.stale = true;
                    }
                }
                () = sleep_until(late) => {}
            }
            let events = self.send_due().await;
            if !events.is_empty() {
                return Some(events);
            }
        }
    }

    /// The events of the stale parts that are due now, marked as sent.
    async fn send_due(&mut self) -> Vec<Event> {
        let now = Instant::now();
        let mut events = Vec::new();
        for f in &mut self.followed {
            if !f.stale || f.due_at(now) > now {
                continue;
            }
            f.stale = false;
            f.sent = Some(now);
            match f.part.render(&self.web, &self.cookie).await {
                Ok(html) => events.push(part_event(&f.url, &html)),
                Err(e) => tracing::debug!("live part {}: {e}", f.url),
            }
        }
        events
    }
}

/// Sleeps until `at`, or for ever without one.
async fn sleep_until(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// A `part` event: `url` on the first line, then `html`.
fn part_event(url: &str, html: &[u8]) -> Event {
    Event::default()
        .event("part")
        .data(format!("{url}\n{}", String::from_utf8_lossy(html)))
}

/// The event stream of one open page: every part at once (a page that
/// reconnects may have missed changes), then each part as it changes.
///
/// # Errors
/// `BadRequest` for a part that is none, or too many.
pub(super) async fn events(
    State(web): State<Web>,
    cookie: SessionCookie,
    Query(subscription): Query<Subscription>,
) -> Result<Sse<impl Stream<Item = Result<Event, Infallible>>>, WebError> {
    let urls: Vec<&str> = subscription.parts.split_whitespace().collect();
    if urls.len() > MAX_PARTS {
        return Err(WebError::BadRequest(format!(
            "parts: {} live parts named, at most {MAX_PARTS}",
            urls.len()
        )));
    }
    let followed = urls
        .iter()
        .map(|url| {
            Ok(Followed {
                url: (*url).to_owned(),
                part: Part::parse(url)?,
                sent: None,
                stale: true,
            })
        })
        .collect::<Result<Vec<_>, WebError>>()?;
    let mut stream = PageStream {
        changes: web.coordinator.subscribe(),
        web,
        cookie,
        followed,
    };
    let first = stream.send_due().await;
    let updates = futures_util::stream::unfold(stream, |mut stream| async move {
        let events = stream.next().await?;
        Some((events, stream))
    });
    let events = futures_util::stream::iter([first])
        .chain(updates)
        .flat_map(|events| futures_util::stream::iter(events.into_iter().map(Ok)));
    Ok(Sse::new(events).keep_alive(KeepAlive::default()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fragment_of_a_page_is_a_part_and_nothing_else_is() {
        let parse = |url: &str| Part::parse(url).map(|p| format!("{p:?}"));
        assert!(
            parse("/fragments/campaigns?state=running&q=new").is_ok_and(|p| p.contains("running"))
        );
        assert!(parse("/fragments/campaigns/sprt-1").is_ok_and(|p| p.starts_with("Campaign(")));
        assert!(
            parse("/fragments/campaigns/sprt-1/workers")
                .is_ok_and(|p| p.starts_with("CampaignWorkers("))
        );
        assert!(parse("/fragments/workers").is_ok_and(|p| p == "Workers"));
        for bad in [
            "/",
            "/campaigns/x",
            "/fragments/campaigns/x/y",
            "/fragments/campaigns/a b",
            "/etc/passwd",
        ] {
            assert!(
                matches!(Part::parse(bad), Err(WebError::BadRequest(ref m)) if m.contains(bad)),
                "{bad} is refused by name"
            );
        }
    }
}
