//! The frame every page shares (title, navigation, who is signed in, the
//! embedded style and script) and the small pieces pages repeat: a state
//! badge, a time, a CSRF field.

use super::assets::{SCRIPT_PATH, STYLE_PATH};
use super::auth::Session;
use crate::coordinator::CampaignState;
use maud::{DOCTYPE, Markup, html};

/// Who is looking: a signed-in operator, or a reader.
#[derive(Clone)]
pub(super) struct Viewer(pub(super) Option<Session>);

impl Viewer {
    /// The session, if an operator is signed in.
    pub(super) fn session(&self) -> Option<&Session> {
        self.0.as_ref()
    }

    /// What makes a page differ between viewers: the session's CSRF token
    /// its forms carry, none for a reader.
    pub(super) fn csrf(&self) -> Option<String> {
        self.0.as_ref().map(|s| s.csrf.clone())
    }
}

/// A whole page: `title`, the navigation, `body`.
pub(super) fn page(title: &str, viewer: &Viewer, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) " · ajaxlab" }
                link rel="stylesheet" href=(STYLE_PATH);
                script src=(SCRIPT_PATH) defer {}
            }
            body {
                header.top {
                    a.brand href="/" { "ajaxlab" }
                    nav {
                        a href="/" { "Campaigns" }
                        a href="/workers" { "Workers" }
                        a href="/new" { "New campaign" }
                    }
                    span #live-status title="Live updates from the coordinator" { "" }
                    @match viewer.session() {
                        Some(session) => {
                            form.inline method="post" action="/sign-out" {
                                span.who { "signed in as " b { (session.label) } }
                                (csrf_field(session))
                                button.link type="submit" { "Sign out" }
                            }
                        }
                        None => { a.sign-in href="/sign-in" { "Sign in" } }
                    }
                }
                main { (body) }
            }
        }
    }
}

/// The hidden field that carries the session's CSRF token.
pub(super) fn csrf_field(session: &Session) -> Markup {
    html! { input type="hidden" name="csrf" value=(session.csrf); }
}

/// A campaign's state as a coloured badge.
pub(super) fn state_badge(state: CampaignState) -> Markup {
    html! { span class={ "badge state-" (state.as_str()) } { (state.as_str()) } }
}

/// `text` with every byte but unreserved ones (and `/`) percent-encoded,
/// for a query string.
pub(crate) fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b'/' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// A Unix-milliseconds time as UTC, to the minute.
pub(super) fn utc(ms: i64) -> String {
    let (y, m, d) = ajaxlab_arena::pgn::utc_date(ms);
    let minute = ms.div_euclid(60_000).rem_euclid(1440);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        minute / 60,
        minute % 60
    )
}

/// A span of seconds in words: `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`.
pub(super) fn span(secs: i64) -> String {
    match secs.max(0) {
        s if s < 60 => format!("{s} s"),
        s if s < 3600 => format!("{} min", s / 60),
        s if s < 86_400 => format!("{} h {} min", s / 3600, s % 3600 / 60),
        s => format!("{} d {} h", s / 86_400, s % 86_400 / 3600),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_utc_dates() {
        assert_eq!(utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc(1_796_601_600_000), "2026-12-07 00:00 UTC");
        assert_eq!(utc(951_825_600_000), "2000-02-29 12:00 UTC");
    }

    #[test]
    fn spans_read_in_the_largest_units() {
        assert_eq!(span(45), "45 s");
        assert_eq!(span(720), "12 min");
        assert_eq!(span(3 * 3600 + 300), "3 h 5 min");
        assert_eq!(span(2 * 86_400 + 4 * 3600), "2 d 4 h");
    }
}
