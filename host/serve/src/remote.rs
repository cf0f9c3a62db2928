//! Matches played by `arena worker`s on a NATS JetStream server (`arena serve --nats URL`): the
//! same workers and work stream as a tournament's (`arena_tournament::nats`), so one pool of
//! workers serves both. Two threads:
//! - the **dispatcher** claims queued matches from the store (scrimmages first, as a local worker
//!   would), tops the queue up when it is empty, and publishes them as plan lines in batches, at
//!   most `in_flight` matches out at a time, so the rest wait in the database where a new
//!   version's or a scrimmage's matches can still go first. A match out longer than
//!   `result_timeout` with no result is published again.
//! - the **collector** reads the ladder's results through a durable consumer (shared by every
//!   node of the ladder: a result goes to one of them), records each for the matches not done
//!   yet that were sent with its spec id (the sha256 of everything the result depends on, noted
//!   in the database when sent, so any node can record any node's result, even after the match
//!   went back to the queue), and acks it only once recorded: a node killed in between leaves it
//!   to be delivered again.
//!
//! A worker killed mid-batch loses nothing: its batch is delivered to another worker once the ack
//! wait has passed. A match played twice (a batch redelivered after its results were published,
//! or published again) has its first result recorded and the copy ignored. Results carry the
//! record's digest, not the replay: the match page's replay is made here on demand by re-playing
//! the match, checked against that digest ([`Service::replay_text`]).
//!
//! A private bot's matches (one of its seats is a private bot's version) go to the workers the
//! operator marked trusted only: they are sent in batches of their own that name those workers
//! ([`Eligible`]; another worker hands such a batch back), their audits' re-runs too, and a result
//! of one signed by a worker not marked trusted is refused ([`Refusal::Untrusted`]) and the match
//! sent again. While no worker is marked trusted, such a match waits here, said in the log.

use crate::config::NatsSettings;
use crate::dump::random_seed;
use crate::service::{Service, ServiceError};
use crate::store::{Audit, AuditState, Bot, Finished, Match, SeatOutcome, Version, Worker};
use arena_host::bot_data::DataRef;
use arena_host::budget::WASMTIME_VERSION;
use arena_host::record::MatchResult;
use arena_tournament::nats::Queue;
use arena_tournament::nats::feed::Delivery;
use arena_tournament::nats::identity::Eligible;
use arena_tournament::plan::{MatchSpec, PlanBot, PlanLine};
use arena_tournament::store::StoredMatch;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The worker name of this node's claims of matches out on NATS.
const CLAIMER: &str = "nats";

/// How long a private bot's match waits before it is looked at again while no worker is marked
/// trusted.
const HOLD: Duration = Duration::from_secs(30);

/// What this node has out on the queue.
#[derive(Default)]
struct Out {
    /// By match spec id: the matches waiting for its result, and when each is due again.
    sent: BTreeMap<String, Vec<(Match, Instant)>>,
    /// Those of them not sent but held (a private bot's, with no trusted worker to send it to):
    /// due again, they are looked at again without a word of a missing result.
    held: BTreeSet<i64>,
}

impl Out {
    /// Matches out (at most `in_flight`, so counting them is cheap).
    fn count(&self) -> usize {
        self.sent.values().map(Vec::len).sum()
    }
}

/// Connects to the NATS server, creates the streams and the workers' consumer if missing, and
/// starts the dispatcher and the collector.
pub fn start(service: &Arc<Service>, nats: &NatsSettings) -> Result<Vec<std::thread::JoinHandle<()>>, ServiceError> {
    let connect = || Queue::connect(&nats.url).map_err(|err| ServiceError::Refused(err.to_string()));
    let publisher = connect()?;
    publisher.create_streams(nats.ack_wait).map_err(|err| ServiceError::Refused(err.to_string()))?;
    let collector = connect()?;
    let feed = collector
        .result_feed(&nats.ladder, &format!("ladder-{}", nats.ladder))
        .map_err(|err| ServiceError::Refused(err.to_string()))?;
    let out = Arc::new(Mutex::new(Out::default()));
    let mut threads = Vec::new();
    {
        let (service, out, nats) = (Arc::clone(service), Arc::clone(&out), nats.clone());
        threads.push(
            std::thread::Builder::new()
                .name("nats-dispatcher".into())
                .spawn(move || dispatch(&service, &publisher, &nats, &out))?,
        );
    }
    let (service, nats) = (Arc::clone(service), nats.clone());
    threads.push(std::thread::Builder::new().name("nats-collector".into()).spawn(move || {
        while !service.stopping() {
            match collector.take_results(&feed, 64, Duration::from_secs(1)) {
                Ok(deliveries) => {
                    for delivery in &deliveries {
                        collect(&service, &collector, &nats, &out, delivery);
                        if let Err(err) = collector.ack_result(delivery) {
                            tracing::warn!("{err}");
                        }
                    }
                    if !deliveries.is_empty() {
                        // Slots freed: the dispatcher may send more.
                        service.wake_workers();
                    }
                }
                Err(err) => {
                    tracing::error!("reading results: {err}");
                    std::thread::sleep(Duration::from_secs(1));
                }
            }
        }
    })?);
    Ok(threads)
}

/// The dispatcher's loop.
fn dispatch(service: &Service, queue: &Queue, nats: &NatsSettings, out: &Mutex<Out>) {
    // Message ids unique to this run of this node (the stream's duplicate detection is for a
    // client's retries; a re-send after the result timeout must not be taken for one).
    let run = format!("{:016x}", random_seed());
    let mut sequence = 0u64;
    while !service.stopping() {
        let seen = service.wake_count();
        let mut batch: Vec<(Match, PlanLine, bool)> = Vec::new();
        // Matches due again: sent, no result within the timeout (or held, to look at again).
        {
            let mut guard = out.lock().unwrap_or_else(PoisonError::into_inner);
            let Out { sent, held } = &mut *guard;
            let now = Instant::now();
            for waiting in sent.values_mut() {
                for (one, due) in waiting.iter_mut().filter(|(_, due)| *due <= now) {
                    *due = now + nats.result_timeout;
                    if let Ok((line, private)) = plan_line(service, one) {
                        if !held.remove(&one.id) {
                            tracing::warn!(id = one.id, "no result from the NATS workers in time: sent again");
                        }
                        batch.push((one.clone(), line, private));
                    }
                }
            }
        }
        let room = {
            let out = out.lock().unwrap_or_else(PoisonError::into_inner);
            nats.in_flight.saturating_sub(out.count())
        };
        let mut claimed = 0;
        while claimed < room.min(nats.batch) {
            let one = match service.claim(CLAIMER) {
                Ok(Some(one)) => one,
                Ok(None) => match service.top_up() {
                    Ok(true) => continue,
                    Ok(false) => break,
                    Err(err) => {
                        tracing::error!("scheduling: {err}");
                        break;
                    }
                },
                Err(err) => {
                    tracing::error!("claiming a match: {err}");
                    break;
                }
            };
            claimed += 1;
            match plan_line(service, &one).and_then(|line| Ok((service.store.set_spec_id(one.id, &line.0.id)?, line))) {
                Ok(((), (line, private))) => batch.push((one, line, private)),
                Err(err) => {
                    if let Err(err) = service.store.fail_match(one.id, &err.to_string()) {
                        tracing::error!(id = one.id, "recording a failed match: {err}");
                    }
                }
            }
        }
        if batch.is_empty() {
            service.sleep_unless_woken(seen, Duration::from_secs(1));
            continue;
        }
        // A private bot's matches go in a batch of their own, for the trusted workers only.
        let (private, public): (Vec<_>, Vec<_>) = batch.into_iter().partition(|(_, _, private)| *private);
        let mut parts = Vec::new();
        for (part, private) in [(public, false), (private, true)] {
            if part.is_empty() {
                continue;
            }
            let eligible = if private { trusted_only(service) } else { Some(Eligible::default()) };
            let (due, held) = match eligible {
                Some(eligible) => {
                    sequence += 1;
                    let id = format!("{}-{run}-{sequence}", nats.ladder);
                    (publish(queue, nats, &id, &part, &eligible), false)
                }
                None => (Instant::now() + HOLD, true),
            };
            parts.push((part, due, held));
        }
        let mut out = out.lock().unwrap_or_else(PoisonError::into_inner);
        for (part, due, held) in parts {
            for (one, line, _) in part {
                if held {
                    out.held.insert(one.id);
                }
                let waiting = out.sent.entry(line.id).or_default();
                if let Some(known) = waiting.iter_mut().find(|(known, _)| known.id == one.id) {
                    known.1 = due;
                } else {
                    waiting.push((one, due));
                }
            }
        }
    }
}

/// Publishes `part` as one batch for the workers `eligible` admits; when its matches are due
/// again. Sent or not, the matches are out: a batch that could not be published is tried again
/// soon.
fn publish(
    queue: &Queue,
    nats: &NatsSettings,
    id: &str,
    part: &[(Match, PlanLine, bool)],
    eligible: &Eligible,
) -> Instant {
    let lines: Vec<PlanLine> = part.iter().map(|(_, line, _)| line.clone()).collect();
    Instant::now()
        + match queue.publish_work(&nats.ladder, id, &lines, eligible) {
            Ok(_) => nats.result_timeout,
            Err(err) => {
                tracing::error!("sending matches to the NATS workers: {err}");
                Duration::from_secs(5)
            }
        }
}

/// The workers the operator marked trusted, by name.
fn trusted_workers(service: &Service) -> Result<Vec<String>, ServiceError> {
    Ok(service.store.workers()?.into_iter().filter(|worker| worker.trusted).map(|worker| worker.name).collect())
}

/// Who may play a private bot's match: the trusted workers; `None` (said in the log) while there
/// are none, or they cannot be read: the match waits.
fn trusted_only(service: &Service) -> Option<Eligible> {
    match trusted_workers(service) {
        Ok(names) if !names.is_empty() => Some(Eligible::only(names)),
        Ok(_) => {
            tracing::warn!(
                "a private bot's matches wait: no NATS worker is marked trusted (arena serve admin add-worker NAME --trusted)"
            );
            None
        }
        Err(err) => {
            tracing::error!("reading the trusted workers: {err}");
            None
        }
    }
}

/// Each seat's version of `one` and its bot, in seat order.
fn seat_bots(service: &Service, one: &Match) -> Result<Vec<(Version, Bot)>, ServiceError> {
    let mut seats = Vec::with_capacity(one.seats.len());
    for seat in &one.seats {
        let version = service
            .store
            .version(seat.version_id)?
            .ok_or_else(|| ServiceError::NotFound(format!("version {}", seat.version_id)))?;
        let bot = service
            .store
            .bot(version.bot_id)?
            .ok_or_else(|| ServiceError::NotFound(format!("bot {}", version.bot_id)))?;
        seats.push((version, bot));
    }
    Ok(seats)
}

/// Whether `one` seats a private bot's version: for trusted workers only.
fn seats_private(service: &Service, one: &Match) -> Result<bool, ServiceError> {
    Ok(seat_bots(service, one)?.iter().any(|(_, bot)| bot.private))
}

/// What a worker is sent for `one`: its spec (the budget this ladder gives its game) and bots;
/// and whether it seats a private bot (for trusted workers only).
fn plan_line(service: &Service, one: &Match) -> Result<(PlanLine, bool), ServiceError> {
    let mut bots = Vec::with_capacity(one.seats.len());
    let mut private = false;
    for (version, bot) in seat_bots(service, one)? {
        let files = service.bot_files_of(&version)?;
        private |= bot.private;
        // A worker finds the data by its digest (fetched from `/blobs/data/DIGEST.tar`).
        let data = version.data_digest.zip(files.data).map(|(digest, path)| DataRef { digest, path });
        bots.push(PlanBot { name: bot.name, sha256: version.sha256, path: files.wasm, data });
    }
    let spec = MatchSpec {
        arena: env!("CARGO_PKG_VERSION").into(),
        wasmtime: WASMTIME_VERSION.into(),
        game: one.game.clone(),
        options: Vec::new(),
        budget: service.settings.budget(&one.game),
        seed: one.seed,
        seats: bots.iter().map(PlanBot::identity).collect(),
    };
    Ok((PlanLine { id: spec.id(), spec, bots }, private))
}

/// Why a result that came back is not taken.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// Signed by no worker: dropped, its matches sent again.
    #[error("an unsigned result, dropped: a ladder's workers need a token (arena serve admin add-worker)")]
    Unsigned,
    /// Signed as a worker the ladder does not know, or not with its key: dropped, its matches
    /// sent again.
    #[error("a result signed as {0:?}, a worker this ladder does not know, or badly: dropped")]
    Unknown(String),
    /// A private bot's match played by a worker the operator did not mark trusted: dropped, its
    /// matches sent again (to the trusted workers).
    #[error(
        "a result of a private bot's match signed by {0:?}, a worker not marked trusted: dropped (a private bot's \
         matches are for trusted workers only)"
    )]
    Untrusted(String),
    /// The database could not say: the result is left unrecorded, its matches to the result
    /// timeout.
    #[error("{0}")]
    Unreadable(String),
}

/// The worker a result is from, if the result may be taken: signed as `signer` by a registered
/// worker (`signed_with` checks the signature against that worker's key, as the ladder keeps it)
/// and, when a match waiting for it (its spec id `spec_id`) seats a private bot, one marked
/// trusted.
fn admit(
    service: &Service,
    signer: Option<&str>,
    signed_with: impl Fn(&str) -> bool,
    spec_id: &str,
) -> Result<Worker, Refusal> {
    let name = signer.ok_or(Refusal::Unsigned)?;
    let worker = service
        .store
        .worker(name)
        .map_err(|err| Refusal::Unreadable(format!("reading worker {name}: {err}")))?
        .filter(|worker| signed_with(&worker.key))
        .ok_or_else(|| Refusal::Unknown(name.to_owned()))?;
    if !worker.trusted
        && private_spec(service, spec_id).map_err(|err| Refusal::Unreadable(format!("reading its matches: {err}")))?
    {
        return Err(Refusal::Untrusted(worker.name));
    }
    Ok(worker)
}

/// Whether a match waiting for the result `spec_id` (sent with it, or under audit) seats a
/// private bot.
fn private_spec(service: &Service, spec_id: &str) -> Result<bool, ServiceError> {
    let mut waiting = service.store.unfinished_with_spec(spec_id)?;
    if let Some(audit) = service.store.open_audit_for_spec(spec_id)? {
        waiting.extend(service.store.match_by_id(audit.match_id)?);
    }
    for one in &waiting {
        if seats_private(service, one)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Sends again at once the matches waiting for a result that was dropped (for a worker that
/// counts), rather than let them wait for the result timeout: those sent with its spec id, and
/// the run an open audit of it waits for (for a worker neither audited nor auditing).
fn resend(service: &Service, queue: &Queue, ladder: &str, spec_id: &str) {
    for one in service.store.unfinished_with_spec(spec_id).unwrap_or_default() {
        if let Err(err) = send_again(service, queue, ladder, &one, &[]) {
            tracing::error!(id = one.id, "sending a match again: {err}");
        }
    }
    let Ok(Some(audit)) = service.store.open_audit_for_spec(spec_id) else { return };
    let exclude: Vec<String> = std::iter::once(audit.worker.clone()).chain(audit.auditor.clone()).collect();
    let sent = service
        .store
        .match_by_id(audit.match_id)
        .map_err(ServiceError::from)
        .and_then(|one| one.map_or(Ok(()), |one| send_again(service, queue, ladder, &one, &exclude)));
    if let Err(err) = sent {
        tracing::error!(id = audit.match_id, "sending an audit's run again: {err}");
    }
}

/// Takes a result that came back: from a registered worker whose signature checks (a trusted one
/// for a private bot's match), or dropped ([`admit`]). A result of a match under audit moves the
/// audit on ([`audited`]); otherwise it is recorded for every match sent with its spec id and not
/// done yet (by this node or another), and may be audited ([`maybe_audit`]); a result of nothing
/// waiting is a copy, dropped.
fn collect(service: &Service, queue: &Queue, nats: &NatsSettings, out: &Mutex<Out>, delivery: &Delivery) {
    let stored = match &delivery.result {
        Ok(stored) => stored,
        Err(why) => {
            tracing::warn!(worker = %delivery.worker, "a result message that is not one: {why}");
            return;
        }
    };
    let worker = match admit(service, delivery.signer(), |key| delivery.signed_with(key), &stored.id) {
        Ok(worker) => worker,
        Err(Refusal::Unreadable(why)) => {
            tracing::error!(worker = %delivery.worker, "a result not recorded: {why}");
            return;
        }
        Err(refusal) => {
            tracing::warn!(worker = %delivery.worker, "{refusal}");
            resend(service, queue, &nats.ladder, &stored.id);
            return;
        }
    };
    out.lock().unwrap_or_else(PoisonError::into_inner).sent.remove(&stored.id);
    let outcome = match service.store.open_audit_for_spec(&stored.id) {
        Ok(Some(audit)) => audited(service, queue, &nats.ladder, &audit, stored, &worker.name),
        Ok(None) => service.store.unfinished_with_spec(&stored.id).map_err(ServiceError::from).and_then(|waiting| {
            for one in waiting {
                if record(service, &one, stored, &worker.name) {
                    maybe_audit(service, queue, nats, &one, stored, &worker.name)?;
                }
            }
            Ok(())
        }),
        Err(err) => Err(err.into()),
    };
    if let Err(err) = outcome {
        tracing::error!(worker = %worker.name, "recording a result: {err}");
    }
}

/// Counts a result recorded from `worker` and audits it when due: every one of a worker's first
/// `audit_first`, then a random `audit_share` of them: the match is sent again, to be played by
/// any other worker.
fn maybe_audit(
    service: &Service,
    queue: &Queue,
    nats: &NatsSettings,
    one: &Match,
    stored: &StoredMatch,
    worker: &str,
) -> Result<(), ServiceError> {
    let Some(counted) = service.store.tally_worker(worker, [1, 0, 0], None)? else { return Ok(()) };
    let chance = random_seed() as f64 / u64::MAX as f64;
    if counted.results > nats.audit_first && chance >= nats.audit_share {
        return Ok(());
    }
    // A re-run needs another worker (a trusted one, for a private bot's match): with none, it
    // would go round the queue for ever.
    if others(service, one, &[worker])? == 0 {
        return Ok(());
    }
    let result = serde_json::to_string(stored).map_err(|err| ServiceError::Refused(err.to_string()))?;
    service.store.open_audit(one.id, &stored.id, worker, &result)?;
    service.store.tally_worker(worker, [0, 1, 0], None)?;
    send_again(service, queue, &nats.ladder, one, &[worker.to_owned()])
}

/// The registered workers but `besides` that may play `one` (trusted ones only, when it seats
/// a private bot): how many.
fn others(service: &Service, one: &Match, besides: &[&str]) -> Result<usize, ServiceError> {
    let private = seats_private(service, one)?;
    let workers = service.store.workers()?;
    Ok(workers.iter().filter(|other| !besides.contains(&other.name.as_str()) && (other.trusted || !private)).count())
}

/// Publishes `one` again for any worker but those of `exclude` (an audit's run), and, when it
/// seats a private bot, for the trusted workers only (not at all while there are none: it is sent
/// again at its result timeout, if it waits for one).
fn send_again(
    service: &Service,
    queue: &Queue,
    ladder: &str,
    one: &Match,
    exclude: &[String],
) -> Result<(), ServiceError> {
    let (line, private) = plan_line(service, one)?;
    let mut eligible = Eligible { exclude: exclude.to_vec(), only: None };
    if private {
        let trusted = trusted_workers(service)?;
        if trusted.is_empty() {
            return Err(ServiceError::Refused(format!(
                "match {} seats a private bot and no NATS worker is marked trusted: not sent",
                one.id
            )));
        }
        eligible.only = Some(trusted);
    }
    let id = format!("audit-{}-{:016x}", one.id, random_seed());
    queue.publish_work(ladder, &id, &[line], &eligible).map_err(|err| ServiceError::Refused(err.to_string()))?;
    Ok(())
}

/// Moves `audit` on with `stored`, a run by `runner`. The re-run (pending): agreeing, the result
/// stands; disagreeing, the match leaves the ratings (disputed), the audited worker is marked
/// suspect, and a third run goes to a worker that is neither. The third run (disputed): the
/// result it agrees with stands and is recorded; the worker whose result it is not is suspect,
/// the other cleared; agreeing with neither, the match stays disputed for the operator. A run by
/// a worker already in the audit is a copy, ignored.
fn audited(
    service: &Service,
    queue: &Queue,
    ladder: &str,
    audit: &Audit,
    stored: &StoredMatch,
    runner: &str,
) -> Result<(), ServiceError> {
    if runner == audit.worker || audit.auditor.as_deref() == Some(runner) {
        return Ok(());
    }
    let unreadable = |err: serde_json::Error| ServiceError::Refused(format!("audit {}: {err}", audit.id));
    let original: StoredMatch = serde_json::from_str(&audit.result).map_err(unreadable)?;
    let run = serde_json::to_string(stored).map_err(unreadable)?;
    let one = service
        .store
        .match_by_id(audit.match_id)?
        .ok_or_else(|| ServiceError::NotFound(format!("match {}", audit.match_id)))?;
    match audit.state {
        AuditState::Pending if stored.agrees_with(&original) => {
            service.store.update_audit(audit.id, AuditState::Agreed, Some(runner), Some(&run))?;
        }
        AuditState::Pending => {
            tracing::warn!(id = one.id, worker = %audit.worker, auditor = %runner, "an audit's re-run disagrees: the match is disputed");
            service.store.update_audit(audit.id, AuditState::Disputed, Some(runner), Some(&run))?;
            service.store.set_disputed(one.id)?;
            service.results_changed(&one.game);
            service.store.tally_worker(&audit.worker, [0, 0, 1], Some(true))?;
            service.store.tally_worker(runner, [0, 0, 1], None)?;
            // The third run needs a third worker (a trusted one, for a private bot's match: it
            // would go round the queue for ever without one): without, the match stays disputed,
            // shown by `arena serve admin workers`.
            if others(service, &one, &[&audit.worker, runner])? > 0 {
                send_again(service, queue, ladder, &one, &[audit.worker.clone(), runner.to_owned()])?;
            } else {
                tracing::warn!(
                    id = one.id,
                    "a disputed match needs a third worker (trusted, for a private bot's) to decide it: register one"
                );
            }
        }
        AuditState::Disputed => {
            let auditor = audit.auditor.clone().unwrap_or_default();
            let second: Option<StoredMatch> =
                audit.audit_result.as_deref().map(serde_json::from_str).transpose().map_err(unreadable)?;
            let (stands, wrong, right) = if stored.agrees_with(&original) {
                (original, auditor, audit.worker.clone())
            } else if second.as_ref().is_some_and(|second| stored.agrees_with(second)) {
                (second.unwrap_or(original), audit.worker.clone(), auditor)
            } else {
                tracing::error!(id = one.id, "three runs of a match, three results: left disputed for the operator");
                service.store.update_audit(audit.id, AuditState::Undecided, None, None)?;
                return Ok(());
            };
            service.store.update_audit(audit.id, AuditState::Decided, None, None)?;
            service.store.tally_worker(&wrong, [0, 0, 0], Some(true))?;
            service.store.tally_worker(&right, [0, 0, 0], Some(false))?;
            record(service, &one, &stands, runner);
        }
        AuditState::Agreed | AuditState::Decided | AuditState::Undecided => {}
    }
    Ok(())
}

/// Records `stored` as the result of `one`: a result it cannot read fails the match, naming the
/// worker. Whether a result was recorded now.
fn record(service: &Service, one: &Match, stored: &StoredMatch, worker: &str) -> bool {
    let recorded = match finished(one, stored) {
        Ok(finished) => service.record(one, &finished),
        Err(why) => {
            tracing::warn!(id = one.id, %worker, "match not played: {why}");
            service
                .store
                .fail_match(one.id, &format!("{why} (from {worker})"))
                .map(|()| false)
                .map_err(ServiceError::from)
        }
    };
    if let Ok(Some(recorded)) = service.store.match_by_id(one.id) {
        // A competition's results are released on its page, not broadcast.
        if recorded.kind != crate::store::MatchKind::Competition {
            service.publish("result", &one.game, &recorded);
        }
    }
    recorded.unwrap_or_else(|err| {
        tracing::error!(id = one.id, "recording a result: {err}");
        false
    })
}

/// How `one` finished according to `stored`, checked against the match's seats.
fn finished(one: &Match, stored: &StoredMatch) -> Result<Finished, String> {
    if !stored.played {
        return Err(stored.detail.clone().unwrap_or_else(|| "not played".into()));
    }
    let result: MatchResult = serde_json::from_str(stored.result.as_deref().unwrap_or_default())
        .map_err(|err| format!("an unreadable result: {err}"))?;
    let seat_turns: Vec<u32> = serde_json::from_str(stored.seat_turns.as_deref().unwrap_or_default())
        .map_err(|err| format!("unreadable turn counts: {err}"))?;
    let digest = stored.replay_digest.clone().ok_or("a result without its record's digest")?;
    if result.players.len() != one.seats.len() || seat_turns.len() != one.seats.len() {
        return Err(format!("a result for {} seats, not {}", result.players.len(), one.seats.len()));
    }
    // A worker sends counts, not each fault: the per-turn list is for matches played here.
    let outcomes = result
        .players
        .into_iter()
        .zip(seat_turns)
        .map(|(player, turns)| SeatOutcome { player, turns, faults: Vec::new() })
        .collect();
    Ok(Finished {
        winner: result.winner.map(|seat| seat as u32),
        turns: result.turns,
        outcomes,
        digest,
        replay_sha256: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Flags, Settings};
    use crate::store::sqlite::SqliteStore;
    use crate::store::{MatchKind, MatchState, NewMatch, Store};
    use arena_host::record::PlayerSummary;
    use std::sync::Arc;

    /// A service on a database in memory (no thread started), its data in a scratch folder.
    fn service() -> (Arc<Service>, std::path::PathBuf) {
        let data = std::env::temp_dir().join(format!("arena-remote-{}-{:016x}", std::process::id(), random_seed()));
        let settings = Settings::resolve(&Flags { data: Some(data.clone()), workers: Some(1), ..Flags::default() });
        let store: Arc<dyn Store> = Arc::new(SqliteStore::in_memory().unwrap());
        (Service::new(settings.unwrap(), store, arena_host::Arena::new().unwrap()).unwrap(), data)
    }

    /// A worker's result of `one`: seat 0 won, in 7 turns.
    fn result_of(one: &Match, spec_id: &str) -> StoredMatch {
        let player = |rank: u32| PlayerSummary {
            bot: "b".into(),
            sha256: "a".repeat(64),
            data: None,
            score: 10 - i64::from(rank),
            rank,
            forfeit: false,
            forfeit_reason: None,
            fuel_total: 100,
            fuel_max_turn: 10,
            skipped_turns: 0,
            traps: 0,
            invalid_actions: 0,
        };
        let result = MatchResult {
            game: one.game.clone(),
            seed: one.seed,
            turns: 7,
            winner: Some(0),
            players: vec![player(1), player(2)],
        };
        StoredMatch {
            id: spec_id.into(),
            spec: "{}".into(),
            played: true,
            detail: None,
            turns: Some(7),
            winner: Some(0),
            result: Some(serde_json::to_string(&result).unwrap()),
            replay_digest: Some(format!("blake3:{}", "d".repeat(64))),
            seat_turns: Some("[4,3]".into()),
        }
    }

    #[test]
    fn a_private_bots_result_is_taken_from_a_trusted_worker_and_refused_from_another() {
        let (service, data) = service();
        let store = &service.store;
        let alice = store.create_user("alice", "", false).unwrap();
        let version = |name: &str, file: char| {
            let bot = store.bot_for_upload(alice.id, "azul", name).unwrap();
            store.add_version(bot.id, &file.to_string().repeat(64), None, 1, 0).unwrap().0.id
        };
        let (secret, open, other) = (version("secret", 'a'), version("open", 'b'), version("other", 'c'));
        let secret_bot = store.version(secret).unwrap().unwrap().bot_id;
        store.set_bot_private(secret_bot, true).unwrap();
        let ranked = |seats: Vec<i64>| NewMatch {
            game: "azul".into(),
            seed: 1,
            kind: MatchKind::Ranked,
            seats,
            requested_by: None,
        };
        let ids = store.enqueue(&[ranked(vec![secret, open]), ranked(vec![open, other])], 0).unwrap();
        store.set_spec_id(ids[0], "spec-private").unwrap();
        store.set_spec_id(ids[1], "spec-public").unwrap();
        store.add_worker("trusted", "key-t", true).unwrap();
        store.add_worker("untrusted", "key-u", false).unwrap();
        let signed = |key: &'static str| move |checked: &str| checked == key;

        // Violated: a private bot's match played by a worker not marked trusted is refused, typed.
        let refused = admit(&service, Some("untrusted"), signed("key-u"), "spec-private");
        assert_eq!(refused.unwrap_err(), Refusal::Untrusted("untrusted".into()));
        assert!(Refusal::Untrusted("untrusted".into()).to_string().contains("a worker not marked trusted"));
        // The other refusals stand whatever the match: no signature, a stranger, a bad signature.
        assert_eq!(admit(&service, None, signed("key-t"), "spec-public").unwrap_err(), Refusal::Unsigned);
        let stranger = admit(&service, Some("stranger"), signed("key-t"), "spec-public");
        assert_eq!(stranger.unwrap_err(), Refusal::Unknown("stranger".into()));
        let forged = admit(&service, Some("trusted"), signed("key-u"), "spec-private");
        assert_eq!(forged.unwrap_err(), Refusal::Unknown("trusted".into()), "a trusted name signed with another key");
        // A public match: any registered worker's.
        assert_eq!(admit(&service, Some("untrusted"), signed("key-u"), "spec-public").unwrap().name, "untrusted");

        // Obeyed: the trusted worker's result of the private match is taken and recorded.
        let worker = admit(&service, Some("trusted"), signed("key-t"), "spec-private").unwrap();
        assert!(worker.trusted);
        let one = store.match_by_id(ids[0]).unwrap().unwrap();
        assert!(record(&service, &one, &result_of(&one, "spec-private"), &worker.name));
        let recorded = store.match_by_id(ids[0]).unwrap().unwrap();
        assert_eq!((recorded.state, recorded.winner, recorded.turns), (MatchState::Done, Some(0), Some(7)));

        // Who else may play it: trusted workers only for a private bot's match.
        assert_eq!(others(&service, &one, &["trusted"]).unwrap(), 0, "no other trusted worker to audit it");
        let public = store.match_by_id(ids[1]).unwrap().unwrap();
        assert_eq!(others(&service, &public, &["trusted"]).unwrap(), 1);
        let _ = std::fs::remove_dir_all(data);
    }
}
