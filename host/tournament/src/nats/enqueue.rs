//! `arena tournament enqueue`: a plan's matches onto the work stream, in batches, each message
//! with an id that makes enqueueing the same plan again add nothing; the same batches onto the
//! plans stream for `collect`; with a bots folder, every bot copied there as `<sha256>.wasm`
//! for workers that do not share the plan's paths.

use super::{Queue, QueueError, nats, plans_subject, work_subject};
use crate::plan::Plan;
use crate::run::spec_digest;
use arena_host::bot_data::{BotData, DATA_EXTENSION};
use arena_host::data::DataLimits;
use arena_host::loader::sha256;
use async_nats::jetstream::message::PublishMessage;
use std::path::Path;
use std::time::Duration;

/// What `enqueue` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnqueueReport {
    /// The plan's digest (its subjects' last token).
    pub digest: String,
    /// Matches in the plan.
    pub matches: usize,
    /// Messages published (batches).
    pub messages: usize,
    /// Of those, already queued by an earlier `enqueue` (not stored again).
    pub duplicates: usize,
}

/// Publish acknowledgements awaited at a time: enough to keep the connection busy.
const IN_FLIGHT: usize = 256;

/// Publishes `plan` in batches of `batch` matches; a message unacked `ack_wait` after a worker
/// took it goes to another worker.
pub fn enqueue(
    queue: &Queue,
    plan: &Plan,
    batch: usize,
    ack_wait: Duration,
    bots_dir: Option<&Path>,
) -> Result<EnqueueReport, QueueError> {
    if let Some(dir) = bots_dir {
        copy_bots(plan, dir)?;
    }
    queue.create_streams(ack_wait)?;
    let digest = plan.digest.clone().unwrap_or_else(|| spec_digest(plan));
    let text = plan.to_jsonl();
    // One line per match, in plan order (what `run-plan` reads, too).
    let lines: Vec<&str> = text.lines().collect();
    let mut report = EnqueueReport { digest: digest.clone(), matches: lines.len(), messages: 0, duplicates: 0 };
    let batches: Vec<(String, String)> = lines
        .chunks(batch.max(1))
        .zip(plan.matches.chunks(batch.max(1)))
        .map(|(lines, matches)| {
            let id = match matches {
                [only] => only.id.clone(),
                _ => {
                    let ids: Vec<&str> = matches.iter().map(|planned| planned.id.as_str()).collect();
                    format!("batch-{}", hex::encode(sha256(ids.join("\n").as_bytes())))
                }
            };
            (id, lines.join("\n"))
        })
        .collect();
    queue.block_on(async {
        for window in batches.chunks(IN_FLIGHT) {
            let mut acks = Vec::with_capacity(window.len() * 2);
            for (id, payload) in window {
                for (subject, counted) in [(plans_subject(&digest), false), (work_subject(&digest), true)] {
                    let message = PublishMessage::build().payload(payload.clone().into()).message_id(id);
                    let ack = queue.jetstream.send_publish(subject, message).await.map_err(nats("publishing"))?;
                    acks.push((ack, counted));
                }
            }
            for (ack, counted) in acks {
                let ack = ack.await.map_err(nats("publishing"))?;
                if counted {
                    report.messages += 1;
                    report.duplicates += usize::from(ack.duplicate);
                }
            }
        }
        Ok::<(), QueueError>(())
    })?;
    Ok(report)
}

/// Copies every bot of `plan` into `dir` as `<sha256>.wasm`, and its data folder as
/// `<digest>.data/` (each through a temporary name, so a worker never reads half a bot), unless
/// it is there.
fn copy_bots(plan: &Plan, dir: &Path) -> Result<(), QueueError> {
    let io = |what: String| move |err: std::io::Error| QueueError::Io(format!("{what}: {err}"));
    std::fs::create_dir_all(dir).map_err(io(format!("cannot create {}", dir.display())))?;
    for data in plan.bots.iter().filter_map(|bot| bot.data.as_ref()) {
        let target = dir.join(format!("{}.{DATA_EXTENSION}", data.digest));
        if target.exists() {
            continue;
        }
        // Read, checked against the plan, and written out: the copy holds the data, nothing else.
        let read = BotData::read(&data.path, DataLimits::DEFAULT).map_err(|err| QueueError::Io(err.to_string()))?;
        if read.tree.digest_hex() != data.digest {
            return Err(QueueError::Io(format!("{} is not the data the plan names", data.path.display())));
        }
        let partial = dir.join(format!("{}.{DATA_EXTENSION}.partial-{}", data.digest, std::process::id()));
        let _ = std::fs::remove_dir_all(&partial);
        read.tree.write_into(&partial).map_err(io(format!("cannot write {}", partial.display())))?;
        std::fs::rename(&partial, &target).map_err(io(format!("cannot write {}", target.display())))?;
    }
    for bot in &plan.bots {
        let target = dir.join(format!("{}.wasm", bot.sha256));
        if target.exists() {
            continue;
        }
        let partial = dir.join(format!("{}.wasm.partial-{}", bot.sha256, std::process::id()));
        std::fs::copy(&bot.path, &partial).map_err(io(format!("cannot copy {}", bot.path.display())))?;
        std::fs::rename(&partial, &target).map_err(io(format!("cannot write {}", target.display())))?;
    }
    Ok(())
}
