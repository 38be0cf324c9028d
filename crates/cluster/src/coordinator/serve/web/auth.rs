//! Who may read and who may act. Reading is open unless the coordinator
//! file says `web_read = "operators"`. To act, an operator signs in with an
//! operator token: the session lives in an HttpOnly, SameSite=Strict
//! cookie, and every form carries the session's CSRF token, checked before
//! anything is done. A worker's token cannot sign in. Sessions live in the
//! coordinator's memory: a restarted coordinator asks to sign in again.

use super::Web;
use super::error::WebError;
use super::layout::{self, Viewer, urlencode};
use crate::coordinator::{Scope, random_hex};
use axum::extract::{FromRequestParts, Query, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};
use maud::{Markup, html};
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The session cookie's name.
const SESSION_COOKIE: &str = "ajaxlab_session";
/// The cookie that pairs the sign-in form with its CSRF token (the form is
/// shown before there is a session).
const SIGN_IN_COOKIE: &str = "ajaxlab_sign_in";
/// How long a session lasts.
const SESSION_LIFE: Duration = Duration::from_secs(12 * 60 * 60);
/// Sessions kept at most; the oldest go first.
const MAX_SESSIONS: usize = 10_000;

/// Who may read the pages, the JSON and the metrics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ReadAccess {
    /// Anyone who reaches the port (the default).
    #[default]
    Anyone,
    /// Only a signed-in operator, or a request with an operator token as
    /// `Authorization: Bearer TOKEN` (a Prometheus scraper, a script).
    Operators,
}

impl std::str::FromStr for ReadAccess {
    type Err = String;

    fn from_str(text: &str) -> Result<ReadAccess, String> {
        match text {
            "anyone" => Ok(ReadAccess::Anyone),
            "operators" => Ok(ReadAccess::Operators),
            other => Err(format!("'{other}' is neither \"anyone\" nor \"operators\"")),
        }
    }
}

/// A signed-in operator.
#[derive(Clone, Debug)]
pub(super) struct Session {
    /// The label of the token they signed in with (who did what).
    pub(super) label: String,
    /// The token every form of theirs carries.
    pub(super) csrf: String,
    started: Instant,
}

impl Session {
    /// Checks a form's CSRF token against the session's.
    ///
    /// # Errors
    /// [`WebError::Forbidden`] if it is missing or differs.
    pub(super) fn check_csrf(&self, given: &str) -> Result<(), WebError> {
        if same_secret(given, &self.csrf) {
            Ok(())
        } else {
            Err(WebError::Forbidden(
                "the form's CSRF token is missing or stale: reload the page and submit again"
                    .into(),
            ))
        }
    }
}

/// Whether two secrets are equal, in time that does not depend on where
/// they differ.
fn same_secret(a: &str, b: &str) -> bool {
    a.len() == b.len()
        && a.bytes()
            .zip(b.bytes())
            .fold(0u8, |acc, (x, y)| acc | (x ^ y))
            == 0
}

/// The signed-in sessions, by their cookie's value.
#[derive(Debug, Default)]
pub(super) struct Sessions {
    by_id: Mutex<HashMap<String, Session>>,
}

impl Sessions {
    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Session>> {
        self.by_id
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// The live session of cookie value `id`.
    fn get(&self, id: &str) -> Option<Session> {
        let mut sessions = self.lock();
        match sessions.get(id) {
            Some(s) if s.started.elapsed() < SESSION_LIFE => Some(s.clone()),
            Some(_) => {
                sessions.remove(id);
                None
            }
            None => None,
        }
    }

    /// Starts a session for `label`: its cookie value.
    fn start(&self, label: String) -> Result<String, WebError> {
        let id = random_hex().map_err(|e| WebError::Internal(e.to_string()))?;
        let csrf = random_hex().map_err(|e| WebError::Internal(e.to_string()))?;
        let mut sessions = self.lock();
        sessions.retain(|_, s| s.started.elapsed() < SESSION_LIFE);
        if sessions.len() >= MAX_SESSIONS
            && let Some(oldest) = sessions
                .iter()
                .min_by_key(|(_, s)| s.started)
                .map(|(id, _)| id.clone())
        {
            sessions.remove(&oldest);
        }
        sessions.insert(
            id.clone(),
            Session {
                label,
                csrf,
                started: Instant::now(),
            },
        );
        Ok(id)
    }

    fn end(&self, id: &str) {
        self.lock().remove(id);
    }
}

/// The value of cookie `name` in `headers`.
fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find_map(|(k, v)| (k == name).then_some(v))
}

/// The session a request's cookie names, if live.
fn session_of(web: &Web, headers: &HeaderMap) -> Option<Session> {
    cookie(headers, SESSION_COOKIE).and_then(|id| web.sessions.get(id))
}

/// The session cookie a request carried, kept by a page's live stream so
/// that each update asks anew whether the session is still live: an
/// operator who signs out elsewhere is sent a reader's parts from then on.
#[derive(Clone)]
pub(super) struct SessionCookie(Option<String>);

impl SessionCookie {
    /// Who holds the cookie now.
    pub(super) fn viewer(&self, web: &Web) -> Viewer {
        Viewer(self.0.as_deref().and_then(|id| web.sessions.get(id)))
    }
}

impl FromRequestParts<Web> for SessionCookie {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(
        parts: &mut Parts,
        _: &Web,
    ) -> Result<SessionCookie, Self::Rejection> {
        Ok(SessionCookie(
            cookie(&parts.headers, SESSION_COOKIE).map(str::to_owned),
        ))
    }
}

impl FromRequestParts<Web> for Viewer {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, web: &Web) -> Result<Viewer, Self::Rejection> {
        Ok(Viewer(session_of(web, &parts.headers)))
    }
}

/// A signed-in operator, required by every action.
pub(super) struct Operator(pub(super) Session);

impl FromRequestParts<Web> for Operator {
    type Rejection = WebError;

    async fn from_request_parts(parts: &mut Parts, web: &Web) -> Result<Operator, WebError> {
        session_of(web, &parts.headers)
            .map(Operator)
            .ok_or_else(|| WebError::Forbidden("sign in with an operator token to do this".into()))
    }
}

/// Lets a request read if the coordinator lets anyone read, or it comes
/// from a signed-in operator or with an operator's bearer token; a page
/// asked for otherwise is sent to the sign-in form.
pub(super) async fn require_reader(
    State(web): State<Web>,
    request: Request,
    next: Next,
) -> Response {
    if web.read == ReadAccess::Anyone || session_of(&web, request.headers()).is_some() {
        return next.run(request).await;
    }
    let bearer = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_owned);
    if let Some(token) = bearer
        && web.coordinator.token_scope(&token) == Some(Scope::Operator)
    {
        return next.run(request).await;
    }
    let path = request.uri().path();
    if path.starts_with("/fragments/")
        || path.starts_with("/api/")
        || path == "/metrics"
        || path == "/events"
    {
        return (
            StatusCode::UNAUTHORIZED,
            "sign in, or send an operator token as 'Authorization: Bearer TOKEN'",
        )
            .into_response();
    }
    let next_page = request.uri().path_and_query().map_or("/", |p| p.as_str());
    Redirect::to(&format!("/sign-in?next={}", urlencode(next_page))).into_response()
}

/// Where to go after signing in: a path on this site, else the campaigns.
fn local_path(next: Option<&str>) -> &str {
    match next {
        Some(p) if p.starts_with('/') && !p.starts_with("//") && !p.contains('\\') => p,
        _ => "/",
    }
}

/// The sign-in form's query: where to go after.
#[derive(serde::Deserialize)]
pub(super) struct SignInQuery {
    next: Option<String>,
}

/// The sign-in form, with a fresh CSRF token in its cookie and field.
pub(super) async fn sign_in_page(
    viewer: Viewer,
    Query(query): Query<SignInQuery>,
) -> Result<Response, WebError> {
    sign_in_form(
        &viewer,
        local_path(query.next.as_deref()),
        None,
        StatusCode::OK,
    )
}

fn sign_in_form(
    viewer: &Viewer,
    next: &str,
    problem: Option<&str>,
    status: StatusCode,
) -> Result<Response, WebError> {
    let csrf = random_hex().map_err(|e| WebError::Internal(e.to_string()))?;
    let body: Markup = html! {
        h1 { "Sign in" }
        p { "Sign in with an operator token (" code { "ajaxlab token --state-dir DIR --scope operator --label NAME" } ") to create, pause, resume and stop campaigns. Reading needs none unless the coordinator says so." }
        form.card method="post" action="/sign-in" {
            input type="hidden" name="csrf" value=(csrf);
            input type="hidden" name="next" value=(next);
            label for="token" { "Operator token" }
            input #token type="password" name="token" autocomplete="off" required;
            @if let Some(problem) = problem {
                p.field-error #token-error { (problem) }
            }
            button type="submit" { "Sign in" }
        }
    };
    let cookie =
        format!("{SIGN_IN_COOKIE}={csrf}; Path=/sign-in; HttpOnly; SameSite=Strict; Max-Age=3600");
    Ok((
        status,
        [(header::SET_COOKIE, cookie)],
        Html(layout::page("Sign in", viewer, body).into_string()),
    )
        .into_response())
}

/// The sign-in form as posted.
#[derive(serde::Deserialize)]
pub(super) struct SignInForm {
    #[serde(default)]
    token: String,
    #[serde(default)]
    csrf: String,
    next: Option<String>,
}

/// Signs an operator in: the form's CSRF token must match its cookie, the
/// token must be an operator's.
pub(super) async fn sign_in(
    State(web): State<Web>,
    headers: HeaderMap,
    viewer: Viewer,
    axum::Form(form): axum::Form<SignInForm>,
) -> Result<Response, WebError> {
    let next = local_path(form.next.as_deref()).to_owned();
    let paired = cookie(&headers, SIGN_IN_COOKIE).is_some_and(|c| same_secret(c, &form.csrf));
    if !paired {
        return Err(WebError::Forbidden(
            "the sign-in form's CSRF token is missing or stale: open the sign-in page again".into(),
        ));
    }
    let coordinator = std::sync::Arc::clone(&web.coordinator);
    let token = form.token.trim().to_owned();
    let holder =
        super::error::blocking(move || coordinator.token_holder(&token).map_err(WebError::from))
            .await?;
    let label = match holder {
        Some(h) if h.scope == Scope::Operator => h.label,
        Some(_) => {
            tracing::warn!("a worker token was refused at sign-in");
            return sign_in_form(
                &viewer,
                &next,
                Some("that is a worker's token: only an operator token signs in"),
                StatusCode::FORBIDDEN,
            );
        }
        None => {
            return sign_in_form(
                &viewer,
                &next,
                Some(
                    "no such token: issue one with 'ajaxlab token --state-dir DIR --scope operator'",
                ),
                StatusCode::UNAUTHORIZED,
            );
        }
    };
    let label = if label.is_empty() {
        "operator".to_owned()
    } else {
        label
    };
    tracing::info!(by = %label, "signed in to the web UI");
    let id = web.sessions.start(label)?;
    let cookie = format!("{SESSION_COOKIE}={id}; Path=/; HttpOnly; SameSite=Strict");
    Ok(([(header::SET_COOKIE, cookie)], Redirect::to(&next)).into_response())
}

/// The sign-out form as posted.
#[derive(serde::Deserialize)]
pub(super) struct SignOutForm {
    #[serde(default)]
    csrf: String,
}

/// Ends the session.
pub(super) async fn sign_out(
    State(web): State<Web>,
    headers: HeaderMap,
    Operator(session): Operator,
    axum::Form(form): axum::Form<SignOutForm>,
) -> Result<Response, WebError> {
    session.check_csrf(&form.csrf)?;
    if let Some(id) = cookie(&headers, SESSION_COOKIE) {
        web.sessions.end(id);
    }
    tracing::info!(by = %session.label, "signed out of the web UI");
    let expired = format!("{SESSION_COOKIE}=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0");
    Ok(([(header::SET_COOKIE, expired)], Redirect::to("/")).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cookie_is_found_among_others() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            "a=1; ajaxlab_session=abc; b=2"
                .parse()
                .unwrap_or_else(|_| unreachable!()),
        );
        assert_eq!(cookie(&headers, SESSION_COOKIE), Some("abc"));
        assert_eq!(cookie(&headers, "c"), None);
    }

    #[test]
    fn only_a_local_path_is_followed_after_signing_in() {
        assert_eq!(local_path(Some("/campaigns/x")), "/campaigns/x");
        assert_eq!(local_path(Some("//evil.example/")), "/");
        assert_eq!(local_path(Some("https://evil.example/")), "/");
        assert_eq!(local_path(None), "/");
    }

    #[test]
    fn secrets_compare_whole() {
        assert!(same_secret("abc", "abc"));
        assert!(!same_secret("abc", "abd"));
        assert!(!same_secret("abc", "ab"));
        assert!(!same_secret("", "a"));
    }

    #[test]
    fn read_access_is_named_in_the_coordinator_file() {
        assert_eq!("anyone".parse(), Ok(ReadAccess::Anyone));
        assert_eq!("operators".parse(), Ok(ReadAccess::Operators));
        assert!("everyone".parse::<ReadAccess>().is_err());
    }
}
