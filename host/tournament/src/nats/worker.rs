//! `arena worker --nats URL`: takes one batch of plan lines at a time from the workers'
//! consumer, plays each match (its bots found by sha256 in a bots folder, or at the plan's paths,
//! and hashed before they load), publishes each result and waits until the results stream has
//! stored it, and only then acks the batch. Killed at any point, it loses nothing: the unacked
//! batch goes to another worker once the ack wait has passed, and a result it had already
//! published is stored twice, which `collect` compares.
//!
//! Bots stay loaded between batches, one pool per game, options and memory limit, grown as new
//! bots arrive. In a bots folder a bot is `<sha256>.wasm`, or `<first two hex digits>/<sha256>.wasm`
//! as a ladder's data folder keeps them (`arena serve`'s `bots/`); with `--bots-from URL` a bot
//! the folder lacks is fetched from that ladder server (`GET URL/blobs/bots/<sha256>.wasm`, signed
//! with the worker's identity: a private bot's file is served to trusted workers only) into the
//! folder first. A bot's data folder is `<digest>.data/` in the bots folder (which `enqueue
//! --bots-dir` writes), else fetched the same way (`GET URL/blobs/data/<digest>.tar`, an archive
//! read with the arena's data limits, never extracted as it stands: written from the tree it
//! holds, checked against its digest). A batch whose headers leave this worker out (an audit's re-run of its own
//! result, a private bot's match for other workers: [`super::identity::Eligible`]) is handed back. A bot file that is missing or is not the bot the plan names is this
//! worker's problem, not the match's: the batch goes back to the queue for another worker and
//! this one stops with an error naming the file.

use super::identity::{EXCLUDE_HEADER, Eligible, ONLY_HEADER, WorkerIdentity};
use super::{Queue, QueueError, WORK_STREAM, WORKERS, nats};
use crate::plan::{PlanLine, PlannedMatch, replaced_bot};
use crate::run::{Finished, finish};
use arena_host::bot_archive::{ArchiveLimits, read_archive};
use arena_host::bot_data::{BotData, BotFiles, DATA_EXTENSION};
use arena_host::loader::bot_file_sha256_hex;
use arena_host::registry::{BotPool, ReplayText, find_game};
use arena_host::runtime::Arena;
use async_nats::jetstream::consumer::{Consumer, pull};
use async_nats::jetstream::{AckKind, Message};
use futures_util::StreamExt;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How a worker runs.
#[derive(Debug, Clone, Default)]
pub struct WorkerOptions {
    /// Where bots are, as `<sha256>.wasm` or `<sha256 prefix>/<sha256>.wasm` (`None`: at the
    /// paths the plan names).
    pub bots_dir: Option<PathBuf>,
    /// A ladder server to fetch a bot from when the bots folder lacks it (`http://HOST:PORT`).
    pub bots_from: Option<String>,
    /// Who this worker is on an auditing ladder: its results and its fetches of bot files are
    /// signed, and a batch that excludes it, or that names the only workers that may play it
    /// and not it, is left to another worker.
    pub identity: Option<WorkerIdentity>,
    /// Tests only: every this-many-th result it publishes is altered (one more turn), a worker
    /// lying about a result, for the ladder's audit to catch.
    pub lie_every: Option<usize>,
    /// Stop after the queue has been empty this long (`None`: wait for work forever).
    pub idle_exit: Option<Duration>,
}

/// What a worker did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WorkerReport {
    /// Batches acked.
    pub batches: usize,
    /// Matches played and published.
    pub played: usize,
    /// Matches published as not played (a bot that does not load, ...).
    pub not_played: usize,
    /// Batches refused as unreadable (terminated: no worker will get them again).
    pub refused: usize,
    /// Batches handed back because the host ran out of a resource.
    pub retried: usize,
}

/// One game's bots, loaded once: their identities and files in pool order, and the pool.
struct Loaded {
    identities: Vec<String>,
    files: Vec<BotFiles>,
    pool: Box<dyn BotPool>,
}

/// Pools by game, options and memory limit.
type Pools = BTreeMap<(String, Vec<(String, String)>, u32), Loaded>;

/// Takes and plays batches until the queue has been empty for `options.idle_exit` (or forever),
/// calling `progress` after every batch.
pub fn work(
    queue: &Queue,
    arena: &Arena,
    options: &WorkerOptions,
    progress: &dyn Fn(&WorkerReport),
) -> Result<WorkerReport, QueueError> {
    let consumer: Consumer<pull::Config> = queue.block_on(async {
        let work = queue.jetstream.get_stream(WORK_STREAM).await.map_err(|err| QueueError::Nats {
            what: "opening the work stream (has a plan been enqueued on this server?)".into(),
            detail: err.to_string(),
        })?;
        work.get_consumer(WORKERS).await.map_err(nats("opening the workers' consumer"))
    })?;
    // Who played a result, for `collect`'s messages: this machine and process.
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname").or_else(|_| std::env::var("HOSTNAME"));
    let label = format!("worker pid {} on {}", std::process::id(), host.as_deref().map_or("?", str::trim));
    let ack_wait = consumer.cached_info().config.ack_wait;
    let mut pools = Pools::new();
    let mut report = WorkerReport::default();
    let mut idle_since = Instant::now();
    loop {
        let next = queue.block_on(async {
            let mut batch = consumer
                .batch()
                .max_messages(1)
                .expires(Duration::from_secs(1))
                .messages()
                .await
                .map_err(nats("asking for work"))?;
            match batch.next().await {
                Some(message) => message.map(Some).map_err(nats("receiving work")),
                None => Ok(None),
            }
        })?;
        let Some(message) = next else {
            if options.idle_exit.is_some_and(|limit| idle_since.elapsed() >= limit) {
                return Ok(report);
            }
            continue;
        };
        let batch = Batch { message: &message, ack_wait, label: &label };
        play_batch(queue, arena, options, &mut pools, &batch, &mut report)?;
        progress(&report);
        idle_since = Instant::now();
    }
}

/// A batch taken from the queue: its message, how long the server waits for its ack, and who
/// is playing it.
struct Batch<'a> {
    message: &'a Message,
    ack_wait: Duration,
    label: &'a str,
}

/// Plays one batch, publishes its results, acks it.
fn play_batch(
    queue: &Queue,
    arena: &Arena,
    options: &WorkerOptions,
    pools: &mut Pools,
    batch: &Batch<'_>,
    report: &mut WorkerReport,
) -> Result<(), QueueError> {
    let Batch { message, ack_wait, label } = *batch;
    let Some(digest) = message.subject.as_str().strip_prefix("arena.work.").map(str::to_owned) else {
        return refuse(queue, message, report, "not on an arena.work subject");
    };
    // An audit's re-run must be played by another worker than the one audited, and a private
    // bot's match by a trusted worker: left for one.
    let header =
        |name: &str| message.headers.as_ref().and_then(|headers| headers.get(name)).map(|value| value.as_str());
    let eligible = Eligible::from_headers(header(EXCLUDE_HEADER), header(ONLY_HEADER));
    if !eligible.admits(options.identity.as_ref().map(|me| me.name.as_str())) {
        queue
            .block_on(message.ack_with(AckKind::Nak(Some(Duration::from_millis(200)))))
            .map_err(nats("handing back"))?;
        report.retried += 1;
        return Ok(());
    }
    let lines: Result<Vec<PlanLine>, String> = std::str::from_utf8(&message.payload)
        .map_err(|err| err.to_string())
        .and_then(|text| text.lines().filter(|line| !line.trim().is_empty()).map(PlanLine::parse).collect());
    let lines = match lines {
        Ok(lines) => lines,
        Err(why) => return refuse(queue, message, report, &why),
    };
    // The batch's ack wait restarts (a progress ack) whenever a third of it has passed.
    let mut touched = Instant::now();
    let mut results = Vec::with_capacity(lines.len());
    for line in lines {
        let (pool, seating) = match seat(arena, options, pools, &line) {
            Ok(seated) => seated,
            Err(why) => {
                // Another worker may have the file: hand the batch back, and stop.
                let _ = queue.block_on(message.ack_with(AckKind::Nak(Some(Duration::from_secs(5)))));
                return Err(QueueError::Io(why));
            }
        };
        let planned = PlannedMatch { id: line.id.clone(), spec: line.spec.clone(), seating: seating.clone() };
        let load_errors = pool.load_errors();
        let unloadable: Vec<&str> = seating
            .iter()
            .zip(&line.bots)
            .filter(|(index, _)| load_errors.get(**index).is_some_and(Option::is_some))
            .map(|(_, bot)| bot.name.as_str())
            .collect();
        let finished = if unloadable.is_empty() {
            let played = pool.play(arena, &seating, line.spec.seed, line.spec.budget, ReplayText::DigestOnly);
            finish(&planned, played, None).map_err(|err| QueueError::Io(err.to_string()))?
        } else {
            Finished::NotPlayed(format!("not played: {} could not be loaded", unloadable.join(", ")))
        };
        let Some(stored) = finished.stored(&planned) else {
            report.retried += 1;
            let _ = queue.block_on(message.ack_with(AckKind::Nak(Some(Duration::from_secs(1)))));
            return Ok(());
        };
        results.push(stored);
        if touched.elapsed() > ack_wait / 3 {
            queue.block_on(message.ack_with(AckKind::Progress)).map_err(nats("extending the ack wait"))?;
            touched = Instant::now();
        }
    }
    if let Some(every) = options.lie_every.filter(|every| *every > 0) {
        for (index, stored) in results.iter_mut().enumerate() {
            if (report.played + index + 1).is_multiple_of(every) {
                stored.turns = stored.turns.map(|turns| turns + 1);
            }
        }
    }
    // Acked only once the results stream holds every result of the batch.
    queue.publish_signed_results(&digest, &results, label, options.identity.as_ref())?;
    let played = results.iter().filter(|stored| stored.played).count();
    report.played += played;
    report.not_played += results.len() - played;
    queue.block_on(message.double_ack()).map_err(nats("acking a batch"))?;
    report.batches += 1;
    Ok(())
}

/// Terminates an unreadable batch (no worker could play it) and says why.
fn refuse(queue: &Queue, message: &Message, report: &mut WorkerReport, why: &str) -> Result<(), QueueError> {
    eprintln!("refusing a batch on {}: {why}", message.subject);
    queue.block_on(message.ack_with(AckKind::Term)).map_err(nats("refusing a batch"))?;
    report.refused += 1;
    Ok(())
}

/// The pool holding `line`'s bots (loaded, or grown, as needed) and their seating in it; an
/// error when a bot file is missing or is not the bot the plan names.
fn seat<'a>(
    arena: &Arena,
    options: &WorkerOptions,
    pools: &'a mut Pools,
    line: &PlanLine,
) -> Result<(&'a dyn BotPool, Vec<usize>), String> {
    let spec = &line.spec;
    let game = find_game(&spec.game).ok_or_else(|| format!("unknown game {:?}", spec.game))?;
    let key = (spec.game.clone(), spec.options.clone(), spec.budget.memory_mib);
    let (mut identities, mut files) =
        pools.get(&key).map(|loaded| (loaded.identities.clone(), loaded.files.clone())).unwrap_or_default();
    let grown = identities.len();
    for bot in &line.bots {
        let identity = bot.identity();
        if identities.contains(&identity) {
            continue;
        }
        let path = match &options.bots_dir {
            Some(dir) => bot_in(dir, &bot.sha256, options.bots_from.as_deref(), options.identity.as_ref())?,
            None => bot.path.clone(),
        };
        let actual =
            bot_file_sha256_hex(&path).map_err(|err| format!("bot {} ({}): {err}", bot.name, path.display()))?;
        if actual != bot.sha256 {
            return Err(replaced_bot(&path, &actual, &bot.sha256));
        }
        let data = match (&bot.data, &options.bots_dir) {
            (None, _) => None,
            (Some(data), Some(dir)) => {
                Some(data_in(arena, dir, &data.digest, options.bots_from.as_deref(), options.identity.as_ref())?)
            }
            (Some(data), None) => Some(data.path.clone()),
        };
        if let (Some(folder), Some(recorded)) = (&data, &bot.data) {
            // Read here to check it, and again when the pool loads it: a data folder is read whole.
            let digest = BotData::read(folder, arena.data_limits())
                .map_err(|err| format!("bot {}: {err}", bot.name))?
                .tree
                .digest_hex();
            if digest != recorded.digest {
                return Err(format!(
                    "{} is not the data the plan names (digest {digest}, the plan says {})",
                    folder.display(),
                    recorded.digest
                ));
            }
        }
        identities.push(identity);
        files.push(BotFiles { wasm: path, data });
    }
    if identities.len() > grown || !pools.contains_key(&key) {
        // Every bot loads again through the artifact cache: pools are immutable once loaded.
        let pool =
            game.load_pool(arena, &files, &spec.options, spec.budget.memory_mib).map_err(|err| err.to_string())?;
        pools.insert(key.clone(), Loaded { identities, files, pool });
    }
    let loaded = pools.get(&key).ok_or("the pool was just loaded")?;
    let seating = line
        .bots
        .iter()
        .map(|bot| {
            let identity = bot.identity();
            loaded.identities.iter().position(|known| *known == identity).ok_or("a bot not in its pool")
        })
        .collect::<Result<Vec<usize>, _>>()?;
    Ok((loaded.pool.as_ref(), seating))
}

/// The data folder of digest `digest` in a bots folder `dir`: `<digest>.data/` (which `enqueue
/// --bots-dir` writes); fetched from `server` into it when it is not there and a server is given
/// (the request signed by `identity` when given), else an error.
fn data_in(
    arena: &Arena,
    dir: &Path,
    digest: &str,
    server: Option<&str>,
    identity: Option<&WorkerIdentity>,
) -> Result<PathBuf, String> {
    if digest.len() != 64 || !digest.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return Err(format!("{digest:?} is not a data digest"));
    }
    let folder = dir.join(format!("{digest}.{DATA_EXTENSION}"));
    if folder.is_dir() {
        return Ok(folder);
    }
    let Some(server) = server else {
        return Err(format!(
            "the data folder {} is missing (enqueue with --bots-dir copies it there)",
            folder.display()
        ));
    };
    // A data folder alone: no bot file in the archive.
    let limits = ArchiveLimits { max_wasm: 0, data: arena.data_limits() };
    let payload = super::identity::fetch_data_payload(digest);
    let path = format!("/blobs/data/{digest}.tar");
    let bytes = fetch(server, &path, &payload, identity, limits.unpacked_bytes())?;
    let url = format!("{}{path}", server.trim_end_matches('/'));
    let archive = read_archive(bytes.as_slice(), limits).map_err(|err| format!("fetching {url}: {err}"))?;
    let tree = archive.data.ok_or_else(|| format!("fetching {url}: the archive has no data folder"))?;
    if tree.digest_hex() != digest {
        return Err(format!("fetching {url}: the folder served has the digest {}", tree.digest_hex()));
    }
    std::fs::create_dir_all(dir).map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
    // Through a temporary name, so another worker sharing the folder never reads half a tree.
    let partial = dir.join(format!("{digest}.{DATA_EXTENSION}.partial-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&partial);
    tree.write_into(&partial).map_err(|err| format!("cannot write {}: {err}", partial.display()))?;
    if let Err(err) = std::fs::rename(&partial, &folder) {
        let _ = std::fs::remove_dir_all(&partial);
        if !folder.is_dir() {
            return Err(format!("cannot write {}: {err}", folder.display()));
        }
    }
    Ok(folder)
}

/// `GET server + path`, signed by `identity` (of `payload`) when given: the body, at most `limit`
/// bytes; the server's reason in words when it refuses.
fn fetch(
    server: &str,
    path: &str,
    payload: &str,
    identity: Option<&WorkerIdentity>,
    limit: u64,
) -> Result<Vec<u8>, String> {
    let url = format!("{}{path}", server.trim_end_matches('/'));
    let agent = ureq::Agent::config_builder()
        .timeout_global(Some(Duration::from_secs(60)))
        .http_status_as_error(false)
        .build()
        .new_agent();
    let mut request = agent.get(&url);
    if let Some(identity) = identity {
        let signature = identity.sign(payload.as_bytes());
        request = request
            .header(super::identity::NAME_HEADER, &identity.name)
            .header(super::identity::SIGNATURE_HEADER, &signature);
    }
    let response = request.call().map_err(|err| format!("fetching {url}: {err}"))?;
    if response.status() != 200 {
        // The server's reason in words (a private bot's file refused, ...), bounded.
        let status = response.status();
        let reason = response.into_body().with_config().limit(4096).read_to_string().unwrap_or_default();
        return Err(format!("fetching {url}: HTTP {status}: {}", reason.trim()));
    }
    response.into_body().with_config().limit(limit).read_to_vec().map_err(|err| format!("fetching {url}: {err}"))
}

/// The file of the bot `sha256` in `dir`: `<sha256>.wasm`, else `<sha256 prefix>/<sha256>.wasm`;
/// fetched from `server` into the first when neither is there and a server is given, the request
/// signed by `identity` when given (a private bot's file is served to trusted workers only). Its
/// content is checked against its name by the caller.
fn bot_in(
    dir: &Path,
    sha256: &str,
    server: Option<&str>,
    identity: Option<&WorkerIdentity>,
) -> Result<PathBuf, String> {
    if sha256.len() != 64 || !sha256.bytes().all(|byte| byte.is_ascii_hexdigit()) {
        return Err(format!("{sha256:?} is not a sha256"));
    }
    let flat = dir.join(format!("{sha256}.wasm"));
    let nested = dir.join(&sha256[..2]).join(format!("{sha256}.wasm"));
    if flat.is_file() || server.is_none() && !nested.is_file() {
        return Ok(flat);
    }
    if nested.is_file() {
        return Ok(nested);
    }
    let payload = super::identity::fetch_payload(sha256);
    let path = format!("/blobs/bots/{sha256}.wasm");
    let bytes = fetch(server.unwrap_or_default(), &path, &payload, identity, arena_host::loader::MAX_BOT_FILE)?;
    std::fs::create_dir_all(dir).map_err(|err| format!("cannot create {}: {err}", dir.display()))?;
    // Through a temporary name, so another worker sharing the folder never reads half a file.
    let partial = dir.join(format!("{sha256}.wasm.partial-{}", std::process::id()));
    std::fs::write(&partial, &bytes).map_err(|err| format!("cannot write {}: {err}", partial.display()))?;
    std::fs::rename(&partial, &flat).map_err(|err| format!("cannot write {}: {err}", flat.display()))?;
    Ok(flat)
}
