//! The JSON API: everything the pages show and do, for scripts and `arena submit` / `arena
//! ladder`. Reads are public; uploads and scrimmages take an API token (`Authorization: Bearer
//! TOKEN`). Accounts and tokens are made here too (`POST /api/signup`, `POST /api/tokens`), by
//! the same functions as the sign-up, log-in and token forms ([`create_account`], [`log_in`],
//! [`create_api_token`]), so both follow one set of rules. The document describing it is served
//! at `/api/openapi.json` ([`OPENAPI`]), and a test checks it names every route this module
//! serves.

use super::{Shared, WebError, blocking, token_caller};
use crate::auth::{check_name, hash_password, new_token, token_sha256, verify_password};
use crate::service::Service;
use crate::store::{Bot, Match, Step, StoreError, User, Version, VersionStatus};
use axum::Json;
use axum::Router;
use axum::body::{Body, Bytes};
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::StreamExt;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The routes of the API (the upload route is added with the others that stream their body,
/// in [`super::router`]).
pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/games", get(games))
        .route("/api/games/{game}/leaderboard", get(leaderboard))
        .route("/api/games/{game}/dump", get(dump))
        .route("/api/versions/{id}", get(version))
        .route("/api/bots/{id}", get(bot))
        .route("/api/bots/{id}/scrimmage", post(scrimmage))
        .route("/api/bots/{id}/private", post(private))
        .route("/api/matches", get(matches))
        .route("/api/matches/{id}", get(one_match))
        .route("/api/queue", get(queue))
        .route("/api/competitions", get(competitions))
        .route("/api/competitions/{id}", get(competition))
        .route("/api/competitions/{id}/database", get(competition_database))
        .route("/api/signup", post(signup))
        .route("/api/tokens", post(tokens))
        .route("/api/openapi.json", get(openapi))
}

/// A version as the API shows it.
#[derive(Debug, Clone, Serialize)]
pub struct VersionView {
    /// The bot's name.
    pub bot: String,
    /// The bot's id.
    pub bot_id: i64,
    /// The game.
    pub game: String,
    /// The file's sha256.
    pub version: String,
    /// The version's id.
    pub version_id: i64,
    /// The file's size.
    pub size: i64,
    /// The `data-tree/v1` digest of the data folder it brought, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// `pending`, `accepted` or `refused`.
    pub status: VersionStatus,
    /// When refused: the failing step and why.
    pub reason: Option<String>,
    /// Each step's outcome.
    pub steps: Vec<Step>,
}

impl VersionView {
    /// The view of `version` of `bot`.
    pub fn of(bot: &Bot, version: Version) -> VersionView {
        VersionView {
            bot: bot.name.clone(),
            bot_id: bot.id,
            game: bot.game.clone(),
            version: version.sha256,
            version_id: version.id,
            size: version.size,
            data: version.data_digest,
            status: version.status,
            reason: version.reason,
            steps: version.steps,
        }
    }
}

/// Every game with its ladder's size.
async fn games(State(service): State<Shared>) -> Result<Json<serde_json::Value>, WebError> {
    blocking(&service, |service| {
        let mut games = Vec::new();
        for info in arena_host::registry::games().iter().map(|game| game.info()) {
            let bots = service.store.bots_of_game(info.name)?.len();
            let board = service.leaderboard(info.name)?;
            games.push(serde_json::json!({
                "name": info.name,
                "min_players": info.min_players,
                "max_players": info.max_players,
                "bots": bots,
                "ranked_matches": board.matches,
            }));
        }
        Ok(Json(serde_json::Value::Array(games)))
    })
    .await
}

async fn leaderboard(State(service): State<Shared>, Path(game): Path<String>) -> Result<Response, WebError> {
    blocking(&service, move |service| Ok(Json(service.leaderboard(&game)?.as_ref().clone()).into_response())).await
}

/// Bytes of a streamed dump sent at once.
const DUMP_CHUNK_BYTES: usize = 64 * 1024;

/// Chunks of a streamed dump written but not yet sent: with [`DUMP_CHUNK_BYTES`], what a slow
/// client makes the server hold.
const DUMP_CHUNKS_QUEUED: usize = 4;

/// `GET /api/games/{game}/dump`: the ladder's public dump ([`crate::dump`]), streamed: its bots
/// and versions are read first (an unknown game or a store error is an error status), then a
/// blocking task writes its results a page at a time into a bounded channel the body reads, so
/// the server's memory does not grow with the ladder. An error after the first byte ends the
/// body early, its JSON unfinished (the client's read fails, and [`crate::dump::Dump::parse`]
/// would refuse it).
async fn dump(State(service): State<Shared>, Path(game): Path<String>) -> Result<Response, WebError> {
    let stream = blocking(&service, move |service| Ok(crate::dump::DumpStream::of_game(service, &game)?)).await?;
    let (sender, receiver) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(DUMP_CHUNKS_QUEUED);
    let writing = std::sync::Arc::clone(&service);
    tokio::task::spawn_blocking(move || {
        let mut out = std::io::BufWriter::with_capacity(DUMP_CHUNK_BYTES, ChannelWriter(sender.clone()));
        if let Err(err) = stream.write(&writing, &mut out) {
            // What is buffered is not sent: the body ends where the error is said.
            drop(out.into_parts());
            if sender.is_closed() {
                tracing::debug!("a dump's client left before its end");
            } else {
                tracing::error!("streaming a dump: {err}");
                let _ = sender.blocking_send(Err(std::io::Error::other(err.to_string())));
            }
        }
    });
    let body = futures_util::stream::unfold(receiver, |mut receiver| async move {
        receiver.recv().await.map(|chunk| (chunk, receiver))
    });
    Ok(([(header::CONTENT_TYPE, "application/json")], Body::from_stream(body)).into_response())
}

/// Sends what is written to it as chunks of a response body, waiting while the channel is
/// full (the client reads slower than the store is read); a client gone is a broken pipe.
struct ChannelWriter(tokio::sync::mpsc::Sender<Result<Bytes, std::io::Error>>);

impl std::io::Write for ChannelWriter {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .blocking_send(Ok(Bytes::copy_from_slice(bytes)))
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client left"))?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The version `id` with its bot.
pub fn version_view(service: &Service, id: i64) -> Result<VersionView, WebError> {
    let version = service.store.version(id)?.ok_or_else(|| WebError::NotFound(format!("version {id}")))?;
    let bot =
        service.store.bot(version.bot_id)?.ok_or_else(|| WebError::NotFound(format!("bot {}", version.bot_id)))?;
    Ok(VersionView::of(&bot, version))
}

async fn version(State(service): State<Shared>, Path(id): Path<i64>) -> Result<Json<VersionView>, WebError> {
    blocking(&service, move |service| Ok(Json(version_view(service, id)?))).await
}

async fn bot(State(service): State<Shared>, Path(id): Path<i64>) -> Result<Json<serde_json::Value>, WebError> {
    blocking(&service, move |service| {
        let bot = service.store.bot(id)?.ok_or_else(|| WebError::NotFound(format!("bot {id}")))?;
        let versions: Vec<VersionView> =
            service.store.versions_of_bot(id)?.into_iter().map(|version| VersionView::of(&bot, version)).collect();
        Ok(Json(serde_json::json!({ "bot": bot, "versions": versions })))
    })
    .await
}

/// `?game=G&bot=ID&limit=N`.
#[derive(Debug, Deserialize)]
struct MatchQuery {
    game: Option<String>,
    bot: Option<i64>,
    limit: Option<u32>,
}

/// The latest `limit` matches with a seat taken by one of `versions` (in any state), newest
/// first, each once.
pub fn matches_of_versions(
    service: &Service,
    versions: impl IntoIterator<Item = i64>,
    limit: u32,
) -> Result<Vec<Match>, StoreError> {
    let mut found = BTreeMap::new();
    for version in versions {
        for one in service.store.matches_of_version(version, limit)? {
            found.insert(std::cmp::Reverse(one.id), one);
        }
    }
    Ok(found.into_values().take(limit as usize).collect())
}

/// The latest matches played (of a game), or with `bot` the latest matches of every version of
/// that bot, queued and running ones included.
async fn matches(
    State(service): State<Shared>,
    query: Result<Query<MatchQuery>, QueryRejection>,
) -> Result<Json<Vec<Match>>, WebError> {
    let Query(query) = query.map_err(|err| WebError::BadRequest(err.body_text()))?;
    let limit = query.limit.unwrap_or(50).min(500);
    blocking(&service, move |service| {
        let Some(bot) = query.bot else {
            return Ok(Json(service.store.recent_matches(query.game.as_deref(), limit)?));
        };
        if service.store.bot(bot)?.is_none() {
            return Err(WebError::NotFound(format!("bot {bot}")));
        }
        let versions = service.store.versions_of_bot(bot)?;
        let mut found = matches_of_versions(service, versions.iter().map(|version| version.id), limit)?;
        if let Some(game) = &query.game {
            found.retain(|one| &one.game == game);
        }
        Ok(Json(found))
    })
    .await
}

async fn one_match(
    State(service): State<Shared>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> Result<Json<Match>, WebError> {
    let viewer = super::any_caller(&service, &headers).await?;
    blocking(&service, move |service| {
        let one = service.store.match_by_id(id)?.ok_or_else(|| WebError::NotFound(format!("match {id}")))?;
        super::hidden_match(service, &one, viewer.as_ref())?;
        Ok(Json(one))
    })
    .await
}

async fn queue(State(service): State<Shared>) -> Result<Json<crate::store::QueueCounts>, WebError> {
    blocking(&service, |service| Ok(Json(service.store.queue_counts()?))).await
}

/// `{"opponent": BOT_ID}`.
#[derive(Debug, Deserialize)]
pub struct ScrimmageRequest {
    /// The bot to play against (its current version).
    pub opponent: i64,
}

/// Queues a scrimmage of the caller's bot `id` against another bot of its game.
pub fn queue_scrimmage(service: &Service, user: &User, id: i64, opponent: i64) -> Result<Vec<i64>, WebError> {
    let bot = service.store.bot(id)?.ok_or_else(|| WebError::NotFound(format!("bot {id}")))?;
    if bot.owner != user.id {
        return Err(WebError::Forbidden(format!("bot {} is not yours", bot.name)));
    }
    let other = service.store.bot(opponent)?.ok_or_else(|| WebError::NotFound(format!("bot {opponent}")))?;
    if other.game != bot.game {
        return Err(WebError::BadRequest(format!("{} plays {}, not {}", other.name, other.game, bot.game)));
    }
    let current = service.current_versions(&[bot.clone(), other.clone()])?;
    let (Some(mine), Some(theirs)) = (current.get(&bot.id), current.get(&other.id)) else {
        return Err(WebError::BadRequest("both bots need an accepted version".into()));
    };
    Ok(service.scrimmage(user, mine, theirs, &bot.game)?)
}

async fn scrimmage(
    State(service): State<Shared>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    Json(request): Json<ScrimmageRequest>,
) -> Result<Json<serde_json::Value>, WebError> {
    let user = token_caller(&service, &headers).await?;
    blocking(&service, move |service| {
        let ids = queue_scrimmage(service, &user, id, request.opponent)?;
        Ok(Json(serde_json::json!({ "matches": ids })))
    })
    .await
}

/// `{"private": true}` or `{"private": false}`.
#[derive(Debug, Deserialize)]
pub struct PrivateRequest {
    /// Private, or public again.
    pub private: bool,
}

/// Makes the caller's bot `id` private (its files served only to its owner, the admins and the
/// trusted workers, its matches sent to trusted workers only), or public again; the bot as it
/// is then. An admin's own choice is `arena serve admin set-private`.
pub fn set_private(service: &Service, user: &User, id: i64, private: bool) -> Result<Bot, WebError> {
    let mut bot = service.store.bot(id)?.ok_or_else(|| WebError::NotFound(format!("bot {id}")))?;
    if bot.owner != user.id {
        return Err(WebError::Forbidden(format!("bot {} is not yours", bot.name)));
    }
    service.store.set_bot_private(id, private)?;
    bot.private = private;
    Ok(bot)
}

/// `POST /api/bots/{id}/private`: the owner's choice, `{"private": BOOL}`; 200 and the bot.
async fn private(
    State(service): State<Shared>,
    Path(id): Path<i64>,
    headers: HeaderMap,
    body: Bytes,
) -> Result<Json<serde_json::Value>, WebError> {
    let user = token_caller(&service, &headers).await?;
    let request: PrivateRequest = json_body(&body)?;
    blocking(&service, move |service| {
        let bot = set_private(service, &user, id, request.private)?;
        Ok(Json(serde_json::json!({ "bot": bot })))
    })
    .await
}

/// The label of the token `POST /api/signup` answers with.
pub const SIGNUP_TOKEN_LABEL: &str = "api signup";
/// The label of a token made with `POST /api/tokens` without one.
pub const DEFAULT_TOKEN_LABEL: &str = "api";
/// The longest label kept (longer ones are cut).
pub const MAX_TOKEN_LABEL: usize = 60;
/// What a wrong name or password is told (which of the two is not said).
pub const WRONG_CREDENTIALS: &str = "wrong name or password";

/// Creates the account `name` with `password` (kept as its argon2id hash). A refusal is in the
/// words the sign-up form shows: a bad name or password length (400), a name taken (409).
pub fn create_account(service: &Service, name: &str, password: &str) -> Result<User, WebError> {
    check_name("account", name)?;
    let hash = hash_password(password)?;
    match service.store.create_user(name, &hash, false) {
        Err(StoreError::Taken { .. }) => Err(WebError::Conflict(format!("the name {name:?} is taken"))),
        created => Ok(created?),
    }
}

/// The account `name` if `password` is its password, else 401 [`WRONG_CREDENTIALS`] (an
/// account made by `arena serve admin add-user` has no password: it only has tokens).
pub fn log_in(service: &Service, name: &str, password: &str) -> Result<User, WebError> {
    match service.store.user_by_name(name)? {
        Some(user) if verify_password(&user.password_hash, password) => Ok(user),
        Some(_) => Err(WebError::Unauthorized(WRONG_CREDENTIALS.into())),
        None => {
            // As long as a wrong password takes, so the time taken does not tell which names exist.
            static DECOY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
            let decoy = DECOY.get_or_init(|| hash_password("a password no account has").unwrap_or_default());
            let _ = verify_password(decoy, password);
            Err(WebError::Unauthorized(WRONG_CREDENTIALS.into()))
        }
    }
}

/// A new API token, shown once: the database keeps its sha256 and its label.
#[derive(Debug, Clone, Serialize)]
pub struct ApiToken {
    /// The token (`arena_` and 64 hex digits).
    pub token: String,
    /// Its label, as kept (at most [`MAX_TOKEN_LABEL`] characters).
    pub label: String,
}

/// Makes an API token for account `user`, labelled with the first [`MAX_TOKEN_LABEL`]
/// characters of `label`.
pub fn create_api_token(service: &Service, user: i64, label: &str) -> Result<ApiToken, WebError> {
    let label: String = label.chars().take(MAX_TOKEN_LABEL).collect();
    let token = new_token("arena_")?;
    service.store.create_token(user, &token_sha256(&token), &label)?;
    Ok(ApiToken { token, label })
}

/// A JSON body, or 400 with serde's reason.
fn json_body<T: DeserializeOwned>(body: &[u8]) -> Result<T, WebError> {
    serde_json::from_slice(body)
        .map_err(|err| WebError::BadRequest(format!("the body is not the JSON expected: {err}")))
}

/// `{"name": ..., "password": ...}`.
#[derive(Debug, Deserialize)]
struct SignupRequest {
    name: String,
    password: String,
}

/// `POST /api/signup`: a new account and its first API token (201 `{user, token, label}`).
async fn signup(State(service): State<Shared>, body: Bytes) -> Result<Response, WebError> {
    let request: SignupRequest = json_body(&body)?;
    blocking(&service, move |service| {
        let user = create_account(service, &request.name, &request.password)?;
        let made = create_api_token(service, user.id, SIGNUP_TOKEN_LABEL)?;
        let answer = serde_json::json!({ "user": user, "token": made.token, "label": made.label });
        Ok((StatusCode::CREATED, Json(answer)).into_response())
    })
    .await
}

/// `{"name": ..., "password": ..., "label": ...}`, every field optional (an empty body is `{}`).
#[derive(Debug, Default, Deserialize)]
struct TokenRequest {
    name: Option<String>,
    password: Option<String>,
    label: Option<String>,
}

/// `POST /api/tokens`: a new API token (201 `{token, label}`) for the account of the bearer
/// token, or without one of the name and password in the body.
async fn tokens(State(service): State<Shared>, headers: HeaderMap, body: Bytes) -> Result<Response, WebError> {
    let request: TokenRequest =
        if body.iter().all(u8::is_ascii_whitespace) { TokenRequest::default() } else { json_body(&body)? };
    let user = if headers.contains_key(header::AUTHORIZATION) {
        token_caller(&service, &headers).await?
    } else {
        let (Some(name), Some(password)) = (request.name, request.password) else {
            return Err(WebError::Unauthorized(
                "no credentials: send `Authorization: Bearer TOKEN`, or {\"name\", \"password\"} as JSON".into(),
            ));
        };
        blocking(&service, move |service| log_in(service, &name, &password)).await?
    };
    let label = request.label.filter(|label| !label.trim().is_empty());
    blocking(&service, move |service| {
        let made = create_api_token(service, user.id, label.as_deref().unwrap_or(DEFAULT_TOKEN_LABEL))?;
        Ok((StatusCode::CREATED, Json(made)).into_response())
    })
    .await
}

/// Streams `body` into the store: a bot file into the bot blob store, capped at the service's
/// upload limit; an archive of a bot and its data (told by its first bytes) into a temporary
/// file, capped at what the archive limits unpack to ([`Service::upload_writer`]).
pub async fn receive(
    service: &Shared,
    mut stream: impl futures_util::Stream<Item = Result<axum::body::Bytes, impl std::fmt::Display>> + Unpin,
) -> Result<crate::service::Upload, WebError> {
    let read_error =
        |err: &dyn std::fmt::Display| WebError::BadRequest(format!("upload: the body could not be read: {err}"));
    // Enough of the start to tell a tar file (its magic is at byte 257) from a bot file.
    let mut head = Vec::new();
    while head.len() < 262 {
        match stream.next().await {
            Some(chunk) => head.extend_from_slice(&chunk.map_err(|err| read_error(&err))?),
            None => break,
        }
    }
    if head.is_empty() {
        return Err(WebError::BadRequest("upload: the file is empty".into()));
    }
    let mut upload = service.upload_writer(&head)?;
    upload.write(&head).map_err(crate::service::ServiceError::from)?;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|err| read_error(&err))?;
        upload.write(&chunk).map_err(crate::service::ServiceError::from)?;
    }
    Ok(upload)
}

/// `?private=true|false` on an upload.
#[derive(Debug, Deserialize)]
pub struct UploadQuery {
    /// Make the bot private (or public); absent, it stays as it is (a new bot is public).
    pub private: Option<bool>,
}

/// `POST /api/games/{game}/bots/{name}[?private=BOOL]` with the `.wasm` file as the body, or a tar
/// archive (gzip-compressed or not) of `bot.wasm` and its `data/` folder: a new version of the
/// caller's bot (201), or the version this file and data already are (200).
pub async fn upload(
    State(service): State<Shared>,
    Path((game, name)): Path<(String, String)>,
    query: Result<Query<UploadQuery>, QueryRejection>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, WebError> {
    let Query(query) = query.map_err(|err| WebError::BadRequest(err.body_text()))?;
    let user = token_caller(&service, &headers).await?;
    let asked = (user.clone(), game.clone(), name.clone());
    blocking(&service, move |service| Ok(service.may_upload(&asked.0, &asked.1, &asked.2)?)).await?;
    let upload = receive(&service, body.into_data_stream()).await?;
    blocking(&service, move |service| {
        let (bot, version, new) = service.upload(&user, &game, &name, upload, query.private)?;
        let status = if new { StatusCode::CREATED } else { StatusCode::OK };
        Ok((status, Json(VersionView::of(&bot, version))).into_response())
    })
    .await
}

/// The OpenAPI document of this API.
pub const OPENAPI: &str = include_str!("openapi.json");

/// Every competition, newest first (no results: those are at `/api/competitions/{id}`).
async fn competitions(State(service): State<Shared>) -> Result<Json<Vec<crate::store::Competition>>, WebError> {
    blocking(&service, |service| Ok(Json(service.store.competitions()?))).await
}

/// A competition with what the caller may see of its results: its release decides (hidden:
/// admins, participants: also the entrants' owners, public: everyone); an API token, if sent,
/// says who asks.
async fn competition(
    State(service): State<Shared>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> Result<Json<crate::competition::CompetitionView>, WebError> {
    let viewer = match headers.contains_key(header::AUTHORIZATION) {
        true => Some(token_caller(&service, &headers).await?),
        false => None,
    };
    blocking(&service, move |service| {
        let found = service.store.competition(id)?.ok_or_else(|| WebError::NotFound(format!("competition {id}")))?;
        Ok(Json(crate::competition::view(&*service.store, found, viewer.as_ref())?))
    })
    .await
}

/// `GET /api/competitions/{id}/database`: the competition's played matches the caller may see
/// (as its release allows: [`crate::competition::visible_results`]) as a tournament database,
/// the file `arena tournament show` and `report` read; 403 when its results are not released to
/// the caller (an API token or a session says who asks), 404 before any is played.
async fn competition_database(
    State(service): State<Shared>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> Result<Response, WebError> {
    let viewer = super::any_caller(&service, &headers).await?;
    let bytes = blocking(&service, move |service| {
        let found = service.store.competition(id)?.ok_or_else(|| WebError::NotFound(format!("competition {id}")))?;
        let results = crate::competition::visible_results(&*service.store, &found, viewer.as_ref())?
            .ok_or_else(|| WebError::Forbidden(format!("the results of competition {id} are not released to you")))?;
        if results.is_empty() {
            return Err(WebError::NotFound(format!("played match of competition {id} released yet")));
        }
        Ok(crate::competition::database(service, &found, results)?)
    })
    .await?;
    let disposition = format!("attachment; filename=\"competition-{id}.sqlite\"");
    Ok((
        [(header::CONTENT_TYPE, "application/vnd.sqlite3".to_owned()), (header::CONTENT_DISPOSITION, disposition)],
        bytes,
    )
        .into_response())
}

async fn openapi() -> Response {
    ([(axum::http::header::CONTENT_TYPE, "application/json")], OPENAPI).into_response()
}

#[cfg(test)]
mod tests {
    use super::OPENAPI;
    use std::collections::BTreeSet;

    /// The method and path of every route of `source` whose path starts with /api/.
    fn routes_in(source: &str) -> BTreeSet<(String, String)> {
        let mut routes = BTreeSet::new();
        for call in source.split(".route(\"").skip(1) {
            let Some((path, rest)) = call.split_once('"') else { continue };
            if !path.starts_with("/api/") {
                continue;
            }
            let handler = rest.trim_start_matches(',').trim();
            let method = handler.split('(').next().unwrap_or_default().rsplit("::").next().unwrap_or_default();
            routes.insert((method.to_owned(), path.to_owned()));
        }
        routes
    }

    #[test]
    fn the_openapi_document_describes_every_api_route_and_no_other() {
        let served: BTreeSet<(String, String)> =
            routes_in(include_str!("api.rs")).union(&routes_in(include_str!("mod.rs"))).cloned().collect();
        assert!(served.len() >= 10, "{served:?}");
        let document: serde_json::Value = serde_json::from_str(OPENAPI).expect("the document is JSON");
        let documented: BTreeSet<(String, String)> = document["paths"]
            .as_object()
            .expect("paths")
            .iter()
            .flat_map(|(path, methods)| {
                methods.as_object().into_iter().flatten().map(move |(method, _)| (method.clone(), path.clone()))
            })
            .collect();
        assert_eq!(served, documented);
    }
}
