//! The JSON API: everything the pages show and do, for scripts and `arena submit` / `arena
//! ladder`. Reads are public; uploads and scrimmages take an API token (`Authorization: Bearer
//! TOKEN`). The document describing it is served at `/api/openapi.json` ([`OPENAPI`]), and a
//! test checks it names every route this module serves.

use super::{Shared, WebError, blocking, token_caller};
use crate::service::Service;
use crate::store::{Bot, Match, Step, User, Version, VersionStatus};
use axum::Json;
use axum::Router;
use axum::body::Body;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};

/// The routes of the API (the upload route is added with the others that stream their body,
/// in [`super::router`]).
pub fn routes() -> Router<Shared> {
    Router::new()
        .route("/api/games", get(games))
        .route("/api/games/{game}/leaderboard", get(leaderboard))
        .route("/api/versions/{id}", get(version))
        .route("/api/bots/{id}", get(bot))
        .route("/api/bots/{id}/scrimmage", post(scrimmage))
        .route("/api/matches", get(matches))
        .route("/api/matches/{id}", get(one_match))
        .route("/api/queue", get(queue))
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

/// `?game=G&limit=N`.
#[derive(Debug, Deserialize)]
struct MatchQuery {
    game: Option<String>,
    limit: Option<u32>,
}

async fn matches(State(service): State<Shared>, Query(query): Query<MatchQuery>) -> Result<Json<Vec<Match>>, WebError> {
    let limit = query.limit.unwrap_or(50).min(500);
    blocking(&service, move |service| Ok(Json(service.store.recent_matches(query.game.as_deref(), limit)?))).await
}

async fn one_match(State(service): State<Shared>, Path(id): Path<i64>) -> Result<Json<Match>, WebError> {
    blocking(&service, move |service| {
        Ok(Json(service.store.match_by_id(id)?.ok_or_else(|| WebError::NotFound(format!("match {id}")))?))
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

/// Streams `body` into the bot blob store, capped at the service's upload limit.
pub async fn receive(
    service: &Shared,
    mut stream: impl futures_util::Stream<Item = Result<axum::body::Bytes, impl std::fmt::Display>> + Unpin,
) -> Result<crate::blobs::BlobWriter, WebError> {
    let mut writer =
        service.bot_files.writer(service.settings.max_upload).map_err(crate::service::ServiceError::from)?;
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|err| WebError::BadRequest(format!("upload: the body could not be read: {err}")))?;
        writer.write(&chunk).map_err(crate::service::ServiceError::from)?;
    }
    if writer.size() == 0 {
        return Err(WebError::BadRequest("upload: the file is empty".into()));
    }
    Ok(writer)
}

/// `POST /api/games/{game}/bots/{name}` with the `.wasm` file as the body: a new version of the
/// caller's bot (201), or the version this file already is (200).
pub async fn upload(
    State(service): State<Shared>,
    Path((game, name)): Path<(String, String)>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, WebError> {
    let user = token_caller(&service, &headers).await?;
    if arena_host::registry::find_game(&game).is_none() {
        return Err(crate::service::ServiceError::UnknownGame(game).into());
    }
    let writer = receive(&service, body.into_data_stream()).await?;
    blocking(&service, move |service| {
        let (bot, version, new) = service.upload(&user, &game, &name, writer)?;
        let status = if new { StatusCode::CREATED } else { StatusCode::OK };
        Ok((status, Json(VersionView::of(&bot, version))).into_response())
    })
    .await
}

/// The OpenAPI document of this API.
pub const OPENAPI: &str = include_str!("openapi.json");

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
