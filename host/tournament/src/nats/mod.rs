//! A tournament on a NATS JetStream work queue (cargo feature `nats`): [`enqueue`] publishes a
//! plan's matches, [`worker`] plays them wherever `arena worker` runs, [`collect`] merges the
//! results into one database with the same code that merges shard databases.
//!
//! Matches are pure functions of their specs, so at-least-once delivery plus results keyed by
//! match id gives exactly-once results, and a match played twice is a free determinism audit.
//! Three streams, created by `enqueue`:
//! - `ARENA_WORK` (subjects `arena.work.<plan digest>`, work-queue retention): one message per
//!   batch of plan lines, its `Nats-Msg-Id` the match id (a batch of one) or `batch-<sha256 of
//!   the ids>`, so enqueueing a plan twice adds nothing (within the stream's duplicate window, a
//!   day). A worker acks a message only after the stream holds its results: a worker killed
//!   mid-match leaves its message to be delivered again once the ack wait has passed.
//! - `ARENA_PLANS` (`arena.plans.<digest>`): the same batches, kept: what `collect` expects.
//! - `ARENA_RESULTS` (`arena.results.<digest>.<match id>`): a [`StoredMatch`] as JSON per played
//!   match, every copy kept (a redelivered match is played twice; `collect` compares the copies).
//!
//! Results live in a stream, not a key-value bucket: async-nats 0.51 cannot create a bucket on
//! Debian's nats-server 2.9.10, and a stream keeps the duplicates the audit compares.
//! The connection runs on its own current-thread tokio runtime; matches are played outside it.

pub mod collect;
pub mod enqueue;
pub mod feed;
pub mod identity;
pub mod worker;

use super::merge::MergeError;
use super::plan::PlanError;
use super::store::{StoreError, StoredMatch};
use async_nats::jetstream::{self, consumer, stream};
use std::time::Duration;

/// The stream of queued matches.
pub const WORK_STREAM: &str = "ARENA_WORK";
/// The stream of enqueued plans.
pub const PLANS_STREAM: &str = "ARENA_PLANS";
/// The stream of results.
pub const RESULTS_STREAM: &str = "ARENA_RESULTS";
/// The durable consumer every worker pulls from.
pub const WORKERS: &str = "arena-workers";
/// How long a repeated `Nats-Msg-Id` is recognised (and not stored again).
const DUPLICATE_WINDOW: Duration = Duration::from_secs(24 * 3600);

/// The subject of a plan's queued matches.
pub fn work_subject(digest: &str) -> String {
    format!("arena.work.{digest}")
}

/// The subject of a plan's lines.
pub fn plans_subject(digest: &str) -> String {
    format!("arena.plans.{digest}")
}

/// The subject of one match's results.
pub fn results_subject(digest: &str, match_id: &str) -> String {
    format!("arena.results.{digest}.{match_id}")
}

/// What went wrong talking to NATS, or with what came through it.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    /// No server at the URL.
    #[error("cannot connect to NATS at {url}: {detail}")]
    Connect {
        /// The URL.
        url: String,
        /// Why.
        detail: String,
    },
    /// A request to the server failed.
    #[error("NATS, {what}: {detail}")]
    Nats {
        /// What was being done.
        what: String,
        /// Why.
        detail: String,
    },
    /// A plan (read from a file or from the queue).
    #[error(transparent)]
    Plan(#[from] PlanError),
    /// Merging the results.
    #[error(transparent)]
    Merge(#[from] MergeError),
    /// The results database.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A file.
    #[error("{0}")]
    Io(String),
}

/// Maps a NATS error to [`QueueError::Nats`], saying what was being done.
fn nats<E: std::fmt::Display>(what: &str) -> impl FnOnce(E) -> QueueError + '_ {
    move |err| QueueError::Nats { what: what.to_owned(), detail: err.to_string() }
}

/// A connection to a NATS server with JetStream, and the runtime that drives it.
pub struct Queue {
    runtime: tokio::runtime::Runtime,
    jetstream: jetstream::Context,
}

impl Queue {
    /// Connects to `url` (e.g. `nats://127.0.0.1:4222`), failing at once when nothing answers.
    pub fn connect(url: &str) -> Result<Queue, QueueError> {
        let connect_error = |detail: String| QueueError::Connect { url: url.to_owned(), detail };
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|err| connect_error(err.to_string()))?;
        let options = async_nats::ConnectOptions::new().connection_timeout(Duration::from_secs(5));
        let client = runtime.block_on(options.connect(url)).map_err(|err| connect_error(err.to_string()))?;
        // The context spawns its own task: inside the runtime.
        let jetstream = runtime.block_on(async { jetstream::new(client) });
        Ok(Queue { runtime, jetstream })
    }

    /// Runs `future` on the connection's runtime.
    fn block_on<F: std::future::Future>(&self, future: F) -> F::Output {
        self.runtime.block_on(future)
    }

    /// Creates the three streams and the workers' consumer, if missing; a message a worker has
    /// not acked `ack_wait` after taking it goes to another worker.
    pub fn create_streams(&self, ack_wait: Duration) -> Result<(), QueueError> {
        self.block_on(async {
            let streams = [
                (WORK_STREAM, "arena.work.>", stream::RetentionPolicy::WorkQueue),
                (PLANS_STREAM, "arena.plans.>", stream::RetentionPolicy::Limits),
                (RESULTS_STREAM, "arena.results.>", stream::RetentionPolicy::Limits),
            ];
            for (name, subject, retention) in streams {
                let config = stream::Config {
                    name: name.to_owned(),
                    subjects: vec![subject.to_owned()],
                    retention,
                    duplicate_window: DUPLICATE_WINDOW,
                    ..Default::default()
                };
                self.jetstream.get_or_create_stream(config).await.map_err(nats(&format!("creating stream {name}")))?;
            }
            let work = self.jetstream.get_stream(WORK_STREAM).await.map_err(nats("opening the work stream"))?;
            let config = consumer::pull::Config {
                durable_name: Some(WORKERS.to_owned()),
                filter_subject: "arena.work.>".to_owned(),
                ack_policy: consumer::AckPolicy::Explicit,
                ack_wait,
                max_deliver: -1,
                ..Default::default()
            };
            work.get_or_create_consumer(WORKERS, config).await.map_err(nats("creating the workers' consumer"))?;
            Ok(())
        })
    }

    /// Messages of the plan `digest` queued in the work stream (0 when there is no stream).
    pub fn queued(&self, digest: &str) -> Result<u64, QueueError> {
        self.count(WORK_STREAM, &work_subject(digest))
    }

    /// Messages workers have taken and not acked yet (playing, or held by a worker that died,
    /// until the ack wait passes).
    pub fn taken(&self) -> Result<usize, QueueError> {
        self.block_on(async {
            let work = self.jetstream.get_stream(WORK_STREAM).await.map_err(nats("opening the work stream"))?;
            let mut workers: consumer::Consumer<consumer::pull::Config> =
                work.get_consumer(WORKERS).await.map_err(nats("opening the workers' consumer"))?;
            Ok(workers.info().await.map_err(nats("reading the workers' consumer"))?.num_ack_pending)
        })
    }

    /// Result messages of the plan `digest` (copies included).
    pub fn results(&self, digest: &str) -> Result<u64, QueueError> {
        self.count(RESULTS_STREAM, &format!("arena.results.{digest}.>"))
    }

    /// Messages of `stream` on subjects matching `filter` (0 when there is no stream).
    fn count(&self, stream: &str, filter: &str) -> Result<u64, QueueError> {
        use futures_util::TryStreamExt;
        self.block_on(async {
            let Ok(stream) = self.jetstream.get_stream(stream).await else { return Ok(0) };
            let info = stream.info_with_subjects(filter).await.map_err(nats("reading a stream"))?;
            let counts: Vec<(String, usize)> = info.try_collect().await.map_err(nats("reading a stream"))?;
            Ok(counts.iter().map(|(_, count)| *count as u64).sum())
        })
    }

    /// Publishes results of the plan `digest`, tagged with who played them, and waits until the
    /// results stream has stored every one (the publications are pipelined: one round trip).
    pub fn publish_results(&self, digest: &str, results: &[StoredMatch], worker: &str) -> Result<(), QueueError> {
        self.publish_signed_results(digest, results, worker, None)
    }

    /// [`Queue::publish_results`], each result signed by `identity` when given
    /// ([`identity`]'s headers).
    pub fn publish_signed_results(
        &self,
        digest: &str,
        results: &[StoredMatch],
        worker: &str,
        identity: Option<&identity::WorkerIdentity>,
    ) -> Result<(), QueueError> {
        self.block_on(async {
            let mut acks = Vec::with_capacity(results.len());
            for stored in results {
                let payload = serde_json::to_vec(stored).map_err(|err| QueueError::Io(err.to_string()))?;
                let mut headers = async_nats::HeaderMap::new();
                headers.insert("Arena-Worker", worker);
                if let Some(identity) = identity {
                    headers.insert(identity::NAME_HEADER, identity.name.as_str());
                    headers.insert(identity::SIGNATURE_HEADER, identity.sign(&payload).as_str());
                }
                let subject = results_subject(digest, &stored.id);
                let ack = self
                    .jetstream
                    .publish_with_headers(subject, headers, payload.into())
                    .await
                    .map_err(nats("publishing a result"))?;
                acks.push(ack);
            }
            for ack in acks {
                ack.await.map_err(nats("publishing a result"))?;
            }
            Ok(())
        })
    }
}
