//! `arena tournament collect`: every result of one enqueued plan, read from the results stream
//! and merged into a new database by the code that merges shard databases ([`Merger`]): each
//! planned match once, copies compared (a difference is a determinism failure), missing matches
//! named.

use super::{PLANS_STREAM, Queue, QueueError, RESULTS_STREAM, nats, plans_subject};
use crate::merge::{MergeReport, Merger};
use crate::plan::PlanLine;
use crate::store::{StoredMatch, StoredPlan};
use async_nats::jetstream::consumer::{AckPolicy, DeliverPolicy, pull};
use async_nats::jetstream::{Message, stream::Stream};
use futures_util::StreamExt;
use std::path::Path;
use std::time::Duration;

/// What `collect` found: the merge's report, and the plan's messages still queued.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectReport {
    /// The plan's digest.
    pub digest: String,
    /// The merge.
    pub merge: MergeReport,
    /// Result messages read (copies included).
    pub results: usize,
    /// Work messages of the plan still in the queue.
    pub queued: u64,
}

/// Merges the results of the plan `digest` (`None`: the only plan on the server) into the new
/// database `output`.
pub fn collect(queue: &Queue, digest: Option<&str>, output: &Path) -> Result<CollectReport, QueueError> {
    let plans = read_all(queue, PLANS_STREAM, "arena.plans.>")?;
    let digests: std::collections::BTreeSet<String> = plans
        .iter()
        .filter_map(|message| message.subject.as_str().strip_prefix("arena.plans."))
        .map(str::to_owned)
        .collect();
    let digest = match (digest, digests.len()) {
        (Some(digest), _) if digests.contains(digest) => digest.to_owned(),
        (Some(digest), _) => return Err(QueueError::Io(format!("no plan {digest} was enqueued on this server"))),
        (None, 1) => digests.into_iter().next().unwrap_or_default(),
        (None, 0) => return Err(QueueError::Io("no plan was enqueued on this server".into())),
        (None, _) => {
            let list: Vec<String> = digests.into_iter().collect();
            return Err(QueueError::Io(format!(
                "several plans were enqueued: name one with --plan ({})",
                list.join(", ")
            )));
        }
    };
    let mut plan = StoredPlan { digest: digest.clone(), match_ids: Vec::new(), bots: Vec::new(), shard: None };
    let mut planned = std::collections::HashSet::new();
    let subject = plans_subject(&digest);
    for message in plans.iter().filter(|message| message.subject.as_str() == subject) {
        let text = std::str::from_utf8(&message.payload).map_err(|err| QueueError::Io(err.to_string()))?;
        for line in text.lines().filter(|line| !line.trim().is_empty()) {
            let line = PlanLine::parse(line).map_err(|why| QueueError::Io(format!("a plan message: {why}")))?;
            // The same batch enqueued twice (past the duplicate window) is in the stream twice: a
            // line seen before is skipped, so a match is planned once.
            if !planned.insert(line.id.clone()) {
                continue;
            }
            plan.match_ids.push(line.id);
            for bot in line.bots {
                let identity = bot.identity();
                if !plan.bots.iter().any(|known| known.0 == identity) {
                    plan.bots.push((identity, bot.name, bot.path.display().to_string(), None));
                }
            }
        }
    }
    plan.bots.sort();
    let mut merger = Merger::new(output, plan)?;
    let results = read_all(queue, RESULTS_STREAM, &format!("arena.results.{digest}.>"))?;
    for message in &results {
        let sequence = message.info().map(|info| info.stream_sequence).unwrap_or_default();
        let worker = message
            .headers
            .as_ref()
            .and_then(|headers| headers.get("Arena-Worker"))
            .map_or_else(String::new, |value| format!(" from {}", value.as_str()));
        let source = format!("result message {sequence}{worker}");
        let stored: StoredMatch = serde_json::from_slice(&message.payload)
            .map_err(|err| QueueError::Io(format!("{source} is not a result: {err}")))?;
        merger.add(stored, &source)?;
    }
    let merge = merger.finish(None);
    Ok(CollectReport { queued: queue.queued(&digest)?, digest, merge, results: results.len() })
}

/// Every message of `stream` on `filter`, oldest first, through a consumer of its own.
fn read_all(queue: &Queue, stream: &str, filter: &str) -> Result<Vec<Message>, QueueError> {
    queue.block_on(async {
        let stream: Stream = queue.jetstream.get_stream(stream).await.map_err(|err| QueueError::Nats {
            what: format!("opening stream {stream} (has a plan been enqueued on this server?)"),
            detail: err.to_string(),
        })?;
        let config = pull::Config {
            filter_subject: filter.to_owned(),
            deliver_policy: DeliverPolicy::All,
            ack_policy: AckPolicy::None,
            inactive_threshold: Duration::from_secs(60),
            ..Default::default()
        };
        let mut consumer = stream.create_consumer(config).await.map_err(nats("reading a stream"))?;
        let mut messages = Vec::new();
        loop {
            let pending = consumer.info().await.map_err(nats("reading a stream"))?.num_pending;
            if pending == 0 {
                return Ok(messages);
            }
            let mut batch = consumer
                .batch()
                .max_messages(pending.min(1000) as usize)
                .expires(Duration::from_secs(2))
                .messages()
                .await
                .map_err(nats("reading a stream"))?;
            while let Some(message) = batch.next().await {
                messages.push(message.map_err(nats("reading a stream"))?);
            }
        }
    })
}
