//! The HTTP side: one axum router for the pages ([`pages`]), the JSON API ([`api`]) and the live
//! events ([`live`]), over the [`Service`]. What every response shares is here: the security
//! headers (a strict content security policy: scripts and styles from this origin only, no
//! framing by others), who is asking (a session cookie or an API token, [`Caller`]), and errors
//! as a status with a reason in words ([`WebError`]). Store calls and password hashing run on
//! tokio's blocking threads ([`blocking`]), so a slow one never stalls the others.

pub mod api;
pub mod live;
pub mod pages;

use crate::auth::{AuthError, token_sha256};
pub use crate::service::unix_now;
use crate::service::{Service, ServiceError};
use crate::store::{StoreError, User};
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use std::path::PathBuf;
use std::sync::Arc;

/// The session cookie's name.
pub const SESSION_COOKIE: &str = "arena_session";
/// The cookie of the CSRF token of the sign-up and log-in forms (before there is a session).
pub const FORM_COOKIE: &str = "arena_form";
/// How long a session lasts, in seconds.
pub const SESSION_SECONDS: i64 = 14 * 24 * 3600;

/// The policy every page is served with: nothing inline, nothing from elsewhere.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-src 'self'; frame-ancestors 'self'; \
     base-uri 'none'";

/// The shared state of every handler.
pub type Shared = Arc<Service>;

/// The whole application.
pub fn router(service: Shared) -> Router {
    let uploads = Router::new()
        .route("/upload", axum::routing::post(pages::upload_post))
        .route("/api/games/{game}/bots/{name}", axum::routing::post(api::upload))
        // The upload handlers cap the body themselves while it streams.
        .layer(DefaultBodyLimit::disable());
    Router::new()
        .merge(pages::routes())
        .merge(api::routes())
        .merge(live::routes())
        .merge(uploads)
        .route("/blobs/bots/{file}", axum::routing::get(bot_blob))
        .route("/blobs/data/{file}", axum::routing::get(data_blob))
        .fallback(|| async { WebError::NotFound("page".into()) })
        .layer(axum::middleware::map_response(security_headers))
        .with_state(service)
}

/// A bot file by its sha256 (`/blobs/bots/SHA256.wasm`): what `arena worker --bots-from` and
/// `arena ladder dump` fetch ([`allowed_blob`] says who may have it).
async fn bot_blob(
    axum::extract::State(service): axum::extract::State<Shared>,
    axum::extract::Path(file): axum::extract::Path<String>,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let sha256 = file.strip_suffix(".wasm").unwrap_or_default().to_owned();
    let path = allowed_blob(&service, &headers, Fetch::Bot(sha256), &file).await?;
    let bytes =
        blocking(&service, move |_| std::fs::read(path).map_err(|err| WebError::Internal(err.to_string()))).await?;
    Ok(([(header::CONTENT_TYPE, "application/wasm")], bytes).into_response())
}

/// A data folder by its digest, as a tar archive (`/blobs/data/DIGEST.tar`, packed the same way
/// every time: `arena_host::bot_archive`): what `arena worker --bots-from` and `arena ladder
/// dump` fetch for a bot with data ([`allowed_blob`] says who may have it).
async fn data_blob(
    axum::extract::State(service): axum::extract::State<Shared>,
    axum::extract::Path(file): axum::extract::Path<String>,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let digest = file.strip_suffix(".tar").unwrap_or_default().to_owned();
    let path = allowed_blob(&service, &headers, Fetch::Data(digest), &file).await?;
    let bytes = blocking(&service, move |service| {
        let tree = arena_host::data::DataTree::read_dir(&path, service.arena.data_limits())
            .map_err(|err| WebError::Internal(err.to_string()))?;
        let mut packed = Vec::new();
        arena_host::bot_archive::write_archive(&mut packed, None, Some(&tree))
            .map_err(|err| WebError::Internal(err.to_string()))?;
        Ok(packed)
    })
    .await?;
    Ok(([(header::CONTENT_TYPE, arena_host::bot_archive::TAR_MEDIA_TYPE)], bytes).into_response())
}

/// Where the blob `fetch` (shown as `file`) is, if the caller may have it: public like the
/// version downloads on the match pages, but for a private bot's ([`may_have_file`]), which only
/// a trusted worker's signed request ([`trusted_worker`]), the owner or an admin gets (403 for
/// anyone else). A blob no version holds (an upload being stored) is not served (404).
async fn allowed_blob(service: &Shared, headers: &HeaderMap, fetch: Fetch, file: &str) -> Result<PathBuf, WebError> {
    let what = match &fetch {
        Fetch::Bot(_) => format!("bot file {file}"),
        Fetch::Data(_) => format!("data folder {file}"),
    };
    let (path, bots) = {
        let (fetch, what) = (fetch.clone(), what.clone());
        blocking(service, move |service| {
            let (path, bots) = match &fetch {
                Fetch::Bot(sha256) => (
                    service.bot_files.path(sha256).filter(|path| path.is_file()),
                    service.store.bots_with_file(sha256)?,
                ),
                Fetch::Data(digest) => (
                    service.data_folders.path(digest).filter(|path| path.is_dir()),
                    service.store.bots_with_data(digest)?,
                ),
            };
            match path {
                Some(path) if !bots.is_empty() => Ok((path, bots)),
                _ => Err(WebError::NotFound(what)),
            }
        })
        .await?
    };
    if !may_have_file(&bots, None) && !trusted_worker(service, headers, &fetch).await? {
        let viewer = any_caller(service, headers).await?;
        if !may_have_file(&bots, viewer.as_ref()) {
            return Err(WebError::Forbidden(format!("{what}: {PRIVATE_FILE}")));
        }
    }
    Ok(path)
}

/// Why a private bot's file is refused.
pub const PRIVATE_FILE: &str =
    "a private bot's file: served only to its owner, the admins and the ladder's trusted workers";

/// Whether `viewer` may have the file of `bots` (the bots with a version of one file): anyone a
/// public one; a private one (a file one of them is private for) the owner of one of them (who
/// uploaded those bytes) or an admin.
pub fn may_have_file(bots: &[crate::store::Bot], viewer: Option<&User>) -> bool {
    !bots.iter().any(|bot| bot.private)
        || viewer.is_some_and(|user| user.admin || bots.iter().any(|bot| bot.owner == user.id))
}

/// What is fetched: a bot file by sha256, a data folder by digest.
#[derive(Debug, Clone)]
enum Fetch {
    Bot(String),
    Data(String),
}

/// Whether the request is signed by a worker the operator marked trusted: its name and its
/// signature of what it fetches ([`arena_tournament::nats::identity::fetch_payload`] and
/// `fetch_data_payload`), checked against the key the ladder keeps as the collector checks a
/// result's.
#[cfg(feature = "nats")]
async fn trusted_worker(service: &Shared, headers: &HeaderMap, fetch: &Fetch) -> Result<bool, WebError> {
    use arena_tournament::nats::identity::{NAME_HEADER, SIGNATURE_HEADER, fetch_data_payload, fetch_payload, verify};
    let header = |name: &str| headers.get(name).and_then(|value| value.to_str().ok()).map(str::to_owned);
    let (Some(name), Some(signature)) = (header(NAME_HEADER), header(SIGNATURE_HEADER)) else { return Ok(false) };
    let payload = match fetch {
        Fetch::Bot(sha256) => fetch_payload(sha256),
        Fetch::Data(digest) => fetch_data_payload(digest),
    };
    blocking(service, move |service| {
        let worker = service.store.worker(&name)?;
        Ok(worker.is_some_and(|worker| worker.trusted && verify(&worker.key, payload.as_bytes(), &signature)))
    })
    .await
}

/// Without NATS there are no workers to trust.
#[cfg(not(feature = "nats"))]
async fn trusted_worker(_service: &Shared, _headers: &HeaderMap, _fetch: &Fetch) -> Result<bool, WebError> {
    Ok(false)
}

/// Adds the security headers a response lacks (the viewer's page sets its own policy).
async fn security_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(header::CONTENT_SECURITY_POLICY, HeaderValue::from_static(CONTENT_SECURITY_POLICY));
    }
    headers.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(header::REFERRER_POLICY, HeaderValue::from_static("same-origin"));
    headers.insert("x-frame-options", HeaderValue::from_static("SAMEORIGIN"));
    response
}

/// Why a request failed: a status and a reason in words (JSON for the API, a page for a browser).
#[derive(Debug, thiserror::Error)]
pub enum WebError {
    /// 400: the request itself is wrong.
    #[error("{0}")]
    BadRequest(String),
    /// 401: no valid session or token.
    #[error("{0}")]
    Unauthorized(String),
    /// 403: not allowed (a bad CSRF token, someone else's bot).
    #[error("{0}")]
    Forbidden(String),
    /// 404.
    #[error("no such {0}")]
    NotFound(String),
    /// 409: a name taken.
    #[error("{0}")]
    Conflict(String),
    /// 413: an upload over the cap.
    #[error("{0}")]
    TooLarge(String),
    /// 429: over a quota.
    #[error("{0}")]
    TooMany(String),
    /// 500: the server failed (the log has the details).
    #[error("the server failed: {0}")]
    Internal(String),
}

impl WebError {
    /// The status it is answered with.
    pub fn status(&self) -> StatusCode {
        match self {
            WebError::BadRequest(_) => StatusCode::BAD_REQUEST,
            WebError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            WebError::Forbidden(_) => StatusCode::FORBIDDEN,
            WebError::NotFound(_) => StatusCode::NOT_FOUND,
            WebError::Conflict(_) => StatusCode::CONFLICT,
            WebError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            WebError::TooMany(_) => StatusCode::TOO_MANY_REQUESTS,
            WebError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<StoreError> for WebError {
    fn from(err: StoreError) -> Self {
        match err {
            StoreError::Taken { .. } => WebError::Conflict(err.to_string()),
            other => {
                tracing::error!("database: {other}");
                WebError::Internal("the database failed".into())
            }
        }
    }
}

impl From<ServiceError> for WebError {
    fn from(err: ServiceError) -> Self {
        match err {
            ServiceError::Store(err) => err.into(),
            ServiceError::Blob(crate::blobs::BlobError::TooLarge { .. }) => {
                WebError::TooLarge(format!("upload: {err}"))
            }
            // Said as "no such ...": the thing alone, not the service's own "no ..." sentence.
            ServiceError::UnknownGame(game) => {
                WebError::NotFound(format!("game {game:?} (games: {})", arena_host::registry::game_names().join(", ")))
            }
            ServiceError::NotFound(what) => WebError::NotFound(what),
            ServiceError::Refused(reason) => WebError::BadRequest(reason),
            ServiceError::Quota(reason) => WebError::TooMany(reason),
            ServiceError::Blob(_) | ServiceError::Io(_) => {
                tracing::error!("storage: {err}");
                WebError::Internal("storing the file failed".into())
            }
            ServiceError::Determinism(detail) => {
                tracing::error!("{detail}");
                WebError::Internal(detail)
            }
        }
    }
}

impl From<AuthError> for WebError {
    fn from(err: AuthError) -> Self {
        match err {
            AuthError::PasswordLength | AuthError::BadName { .. } => WebError::BadRequest(err.to_string()),
            AuthError::Random(_) | AuthError::Hash(_) => WebError::Internal(err.to_string()),
        }
    }
}

impl IntoResponse for WebError {
    fn into_response(self) -> Response {
        let status = self.status();
        if status == StatusCode::INTERNAL_SERVER_ERROR {
            tracing::error!("{self}");
        }
        (status, axum::Json(serde_json::json!({ "error": status.as_u16(), "reason": self.to_string() })))
            .into_response()
    }
}

/// Runs `work` on the service on a blocking thread.
pub async fn blocking<T: Send + 'static>(
    service: &Shared,
    work: impl FnOnce(&Service) -> Result<T, WebError> + Send + 'static,
) -> Result<T, WebError> {
    let service = Arc::clone(service);
    tokio::task::spawn_blocking(move || work(&service))
        .await
        .map_err(|err| WebError::Internal(format!("a worker thread failed: {err}")))?
}

/// The value of cookie `name` in the request, if sent.
pub fn cookie<'a>(headers: &'a HeaderMap, name: &str) -> Option<&'a str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(key, _)| *key == name)
        .map(|(_, value)| value)
}

/// Who is asking: an account signed in with a session (and the session's CSRF token), or none.
#[derive(Debug, Clone)]
pub struct Caller {
    /// The account, if signed in.
    pub user: Option<User>,
    /// The session's CSRF token (every form of a signed-in page carries it).
    pub csrf: Option<String>,
}

/// The signed-in account of the request's session cookie, if any.
pub async fn caller(service: &Shared, headers: &HeaderMap) -> Result<Caller, WebError> {
    let Some(token) = cookie(headers, SESSION_COOKIE).map(str::to_owned) else {
        return Ok(Caller { user: None, csrf: None });
    };
    let session =
        blocking(service, move |service| Ok(service.store.session(&token_sha256(&token), unix_now())?)).await?;
    Ok(match session {
        Some((user, csrf)) => Caller { user: Some(user), csrf: Some(csrf) },
        None => Caller { user: None, csrf: None },
    })
}

/// The account of the request: its API token when it sends one (401 when that is not valid),
/// else its session cookie's, else none.
pub async fn any_caller(service: &Shared, headers: &HeaderMap) -> Result<Option<User>, WebError> {
    if headers.contains_key(header::AUTHORIZATION) {
        return token_caller(service, headers).await.map(Some);
    }
    Ok(caller(service, headers).await?.user)
}

/// A match `viewer` may not see: a competition's whose release does not show the viewer its
/// round ([`crate::competition::may_see_match`]: admins see all). The ladder's lists leave
/// competition matches out ([`crate::store::Store::recent_matches`]).
pub fn hidden_match(service: &Service, one: &crate::store::Match, viewer: Option<&User>) -> Result<(), WebError> {
    if !crate::competition::may_see_match(&*service.store, one, viewer)? {
        return Err(WebError::NotFound(format!("match {} (a competition's: see its page)", one.id)));
    }
    Ok(())
}

/// The account of the request's API token (`Authorization: Bearer TOKEN`); 401 without a valid
/// one (a session cookie is not looked at: the API has no CSRF tokens).
pub async fn token_caller(service: &Shared, headers: &HeaderMap) -> Result<User, WebError> {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "))
        .map(|token| token.trim().to_owned());
    let Some(token) = bearer else {
        return Err(WebError::Unauthorized(
            "no API token: send `Authorization: Bearer TOKEN` (tokens are made on the account page)".into(),
        ));
    };
    let user = blocking(service, move |service| Ok(service.store.token_user(&token_sha256(&token))?)).await?;
    user.ok_or_else(|| WebError::Unauthorized("the API token is not valid".into()))
}
