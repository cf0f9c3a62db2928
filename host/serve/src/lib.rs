//! `arena serve`: the ladder service. A competitor uploads a bot (from the web or with `arena
//! submit`); it is stored by sha256, loaded (shape limits, type check, bounded compile) and
//! validated by self-play in the sandbox, then played continuously against the other bots of its
//! game and rated; matches, replays and refusals are on web pages and in a JSON API.
//!
//! The map, bottom up:
//! - [`config`]: the settings (a TOML file, flags over it, defaults).
//! - [`store`]: the database behind one interface (SQLite or PostgreSQL), with versioned
//!   migrations.
//! - [`blobs`]: bot files and replays by sha256 in the data folder.
//! - [`auth`]: argon2id passwords and hashed tokens.
//! - [`validate`]: an upload's checks; [`schedule`]: who plays next; [`ratings`]: the
//!   leaderboard from the results.
//! - [`dump`]: a ladder's public dump (results, bots, leaderboard) and its verification by
//!   re-playing.
//! - [`competition`]: competitions (seasons): formats, seeding, brackets driven by the workers.
//! - [`service`]: the running ladder (validator and worker threads, events).
//! - `remote` (cargo feature `nats`): matches played by `arena worker`s on NATS JetStream.
//! - [`web`]: the HTTP side (pages, API, live events).
//!
//! [`run`] is the whole service as `arena serve` starts it.

pub mod auth;
pub mod blobs;
pub mod competition;
pub mod config;
pub mod dump;
pub mod ratings;
#[cfg(feature = "nats")]
pub mod remote;
pub mod schedule;
pub mod service;
pub mod store;
pub mod validate;
pub mod web;

use config::{Database, Settings};
use service::{Service, ServiceError};
use std::path::PathBuf;
use std::sync::Arc;
use store::Store;
use store::postgres::PostgresStore;
use store::sqlite::SqliteStore;

/// Why the service could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The settings.
    #[error(transparent)]
    Config(#[from] config::ConfigError),
    /// The database.
    #[error("the database: {0}")]
    Store(#[from] store::StoreError),
    /// The service.
    #[error(transparent)]
    Service(#[from] ServiceError),
    /// Listening or serving.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// Opens the database the settings name (creating the data folder), migrated.
pub fn open_store(settings: &Settings) -> Result<Arc<dyn Store>, ServeError> {
    std::fs::create_dir_all(&settings.data)?;
    match &settings.database {
        Database::Sqlite(path) => {
            if let Some(parent) = path.parent().filter(|parent| !parent.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent)?;
            }
            Ok(Arc::new(SqliteStore::open(path)?))
        }
        Database::Postgres(url) => Ok(Arc::new(PostgresStore::connect(url)?)),
    }
}

/// Runs the service until SIGINT or SIGTERM: opens the store, starts the background threads,
/// enters the example bots from `examples` when the settings ask for the demo, listens, and
/// prints `listening on http://ADDR` on stdout once it does (scripts and tests wait for it).
pub fn run(settings: Settings, arena: arena_host::Arena, examples: Option<PathBuf>) -> Result<(), ServeError> {
    let store = open_store(&settings)?;
    let demo = settings.demo;
    let bind = settings.bind;
    let nats = settings.nats.clone();
    let service = Service::new(settings, store, arena)?;
    #[cfg_attr(not(feature = "nats"), expect(unused_mut, reason = "only NATS adds threads"))]
    let mut threads = service.start()?;
    if let Some(nats) = nats {
        #[cfg(feature = "nats")]
        threads.extend(remote::start(&service, &nats)?);
        #[cfg(not(feature = "nats"))]
        return Err(ServiceError::Refused(format!(
            "--nats {}: this arena was built without NATS support (cargo feature `nats`)",
            nats.url
        ))
        .into());
    }
    if demo {
        let dir = examples.unwrap_or_else(|| PathBuf::from("target/bots"));
        let entered = service.enter_examples(&dir)?;
        tracing::info!(entered, "the demo's example bots are entered");
    }
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    let served = runtime.block_on(async {
        let listener = tokio::net::TcpListener::bind(bind).await?;
        println!("listening on http://{}", listener.local_addr()?);
        axum::serve(listener, web::router(Arc::clone(&service))).with_graceful_shutdown(shutdown_signal()).await
    });
    service.stop();
    for thread in threads {
        let _ = thread.join();
    }
    Ok(served?)
}

/// Resolves on SIGINT or SIGTERM.
async fn shutdown_signal() {
    let interrupt = tokio::signal::ctrl_c();
    #[cfg(unix)]
    {
        let mut terminate = match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(terminate) => terminate,
            Err(_) => {
                let _ = interrupt.await;
                return;
            }
        };
        tokio::select! {
            _ = interrupt => {}
            _ = terminate.recv() => {}
        }
    }
    #[cfg(not(unix))]
    {
        let _ = interrupt.await;
    }
}
