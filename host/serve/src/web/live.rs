//! Live updates over server-sent events: `GET /events` streams every [`Event`] of the service
//! (`result`, `version`) as it happens, as `event: KIND` and `data: JSON`; the pages' script
//! (`/static/app.js`) refreshes what an event changes without reloading.

use super::Shared;
use crate::service::Event;
use axum::Router;
use axum::extract::State;
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::routing::get;
use futures_util::Stream;
use std::convert::Infallible;
use tokio::sync::broadcast::error::RecvError;

/// The route of the stream.
pub fn routes() -> Router<Shared> {
    Router::new().route("/events", get(events))
}

async fn events(State(service): State<Shared>) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let receiver = service.subscribe();
    let stream = futures_util::stream::unfold(receiver, |mut receiver| async move {
        loop {
            match receiver.recv().await {
                Ok(Event { kind, game, data }) => {
                    let payload = serde_json::json!({ "game": game, "data": data }).to_string();
                    return Some((Ok(SseEvent::default().event(kind).data(payload)), receiver));
                }
                // A slow reader missed some: it goes on with the next (the page refetches).
                Err(RecvError::Lagged(_)) => continue,
                Err(RecvError::Closed) => return None,
            }
        }
    });
    Sse::new(stream).keep_alive(KeepAlive::default())
}
