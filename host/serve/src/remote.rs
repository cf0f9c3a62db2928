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

use crate::config::NatsSettings;
use crate::dump::random_seed;
use crate::service::{Service, ServiceError};
use crate::store::{Audit, AuditState, Finished, Match, SeatOutcome};
use arena_host::budget::WASMTIME_VERSION;
use arena_host::record::MatchResult;
use arena_tournament::nats::Queue;
use arena_tournament::nats::feed::Delivery;
use arena_tournament::plan::{MatchSpec, PlanBot, PlanLine};
use arena_tournament::store::StoredMatch;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// The worker name of this node's claims of matches out on NATS.
const CLAIMER: &str = "nats";

/// What this node has out on the queue.
#[derive(Default)]
struct Out {
    /// By match spec id: the matches waiting for its result, and when each is due again.
    sent: BTreeMap<String, Vec<(Match, Instant)>>,
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
        let mut batch: Vec<(Match, PlanLine)> = Vec::new();
        // Matches due again: sent, no result within the timeout.
        {
            let mut out = out.lock().unwrap_or_else(PoisonError::into_inner);
            let now = Instant::now();
            for waiting in out.sent.values_mut() {
                for (one, due) in waiting.iter_mut().filter(|(_, due)| *due <= now) {
                    *due = now + nats.result_timeout;
                    if let Ok(line) = plan_line(service, one) {
                        tracing::warn!(id = one.id, "no result from the NATS workers in time: sent again");
                        batch.push((one.clone(), line));
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
            match plan_line(service, &one).and_then(|line| Ok((service.store.set_spec_id(one.id, &line.id)?, line))) {
                Ok(((), line)) => batch.push((one, line)),
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
        sequence += 1;
        let lines: Vec<PlanLine> = batch.iter().map(|(_, line)| line.clone()).collect();
        let published = queue.publish_work(&nats.ladder, &format!("{}-{run}-{sequence}", nats.ladder), &lines, &[]);
        // Sent or not, the matches are out: one that could not be published is tried again soon.
        let due = Instant::now()
            + match &published {
                Ok(_) => nats.result_timeout,
                Err(err) => {
                    tracing::error!("sending matches to the NATS workers: {err}");
                    Duration::from_secs(5)
                }
            };
        let mut out = out.lock().unwrap_or_else(PoisonError::into_inner);
        for (one, line) in batch {
            let waiting = out.sent.entry(line.id).or_default();
            if let Some(known) = waiting.iter_mut().find(|(known, _)| known.id == one.id) {
                known.1 = due;
            } else {
                waiting.push((one, due));
            }
        }
    }
}

/// What a worker is sent for `one`: its spec (the budget this ladder gives its game) and bots.
fn plan_line(service: &Service, one: &Match) -> Result<PlanLine, ServiceError> {
    let mut bots = Vec::with_capacity(one.seats.len());
    for seat in &one.seats {
        let version = service
            .store
            .version(seat.version_id)?
            .ok_or_else(|| ServiceError::NotFound(format!("version {}", seat.version_id)))?;
        let bot = service
            .store
            .bot(version.bot_id)?
            .ok_or_else(|| ServiceError::NotFound(format!("bot {}", version.bot_id)))?;
        let path = service.bot_file(&version)?;
        bots.push(PlanBot { name: bot.name, sha256: version.sha256, path });
    }
    let spec = MatchSpec {
        arena: env!("CARGO_PKG_VERSION").into(),
        wasmtime: WASMTIME_VERSION.into(),
        game: one.game.clone(),
        options: Vec::new(),
        budget: service.settings.budget(&one.game),
        seed: one.seed,
        seats: bots.iter().map(|bot| bot.sha256.clone()).collect(),
    };
    Ok(PlanLine { id: spec.id(), spec, bots })
}

/// Takes a result that came back: from a registered worker whose signature checks, or dropped.
/// A result of a match under audit moves the audit on ([`audited`]); otherwise it is recorded for
/// every match sent with its spec id and not done yet (by this node or another), and may be
/// audited ([`maybe_audit`]); a result of nothing waiting is a copy, dropped.
fn collect(service: &Service, queue: &Queue, nats: &NatsSettings, out: &Mutex<Out>, delivery: &Delivery) {
    let stored = match &delivery.result {
        Ok(stored) => stored,
        Err(why) => {
            tracing::warn!(worker = %delivery.worker, "a result message that is not one: {why}");
            return;
        }
    };
    // A result from no registered worker is dropped, and its matches are sent again at once
    // (for a worker that counts), rather than wait for the result timeout.
    let drop_and_resend = |why: &str| {
        tracing::warn!(worker = %delivery.worker, "{why}");
        for one in service.store.unfinished_with_spec(&stored.id).unwrap_or_default() {
            if let Err(err) = send_again(service, queue, &nats.ladder, &one, &[]) {
                tracing::error!(id = one.id, "sending a match again: {err}");
            }
        }
    };
    let Some(name) = delivery.signer() else {
        drop_and_resend("an unsigned result, dropped: a ladder's workers need a token (arena serve admin add-worker)");
        return;
    };
    let worker = match service.store.worker(name) {
        Ok(Some(worker)) if delivery.signed_with(&worker.key) => worker,
        Ok(_) => {
            drop_and_resend(&format!(
                "a result signed as {name:?}, a worker this ladder does not know, or badly: dropped"
            ));
            return;
        }
        Err(err) => {
            tracing::error!("reading worker {name}: {err}");
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
    // A re-run needs another worker: with one registered, it would go round the queue for ever.
    if service.store.workers()?.len() < 2 {
        return Ok(());
    }
    let result = serde_json::to_string(stored).map_err(|err| ServiceError::Refused(err.to_string()))?;
    service.store.open_audit(one.id, &stored.id, worker, &result)?;
    service.store.tally_worker(worker, [0, 1, 0], None)?;
    send_again(service, queue, &nats.ladder, one, &[worker.to_owned()])
}

/// Publishes `one` again for any worker but those of `exclude` (an audit's run).
fn send_again(
    service: &Service,
    queue: &Queue,
    ladder: &str,
    one: &Match,
    exclude: &[String],
) -> Result<(), ServiceError> {
    let line = plan_line(service, one)?;
    let id = format!("audit-{}-{:016x}", one.id, random_seed());
    queue.publish_work(ladder, &id, &[line], exclude).map_err(|err| ServiceError::Refused(err.to_string()))?;
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
            // The third run needs a third worker (it would go round the queue for ever without
            // one): with two, the match stays disputed, shown by `arena serve admin workers`.
            if service.store.workers()?.len() >= 3 {
                send_again(service, queue, ladder, &one, &[audit.worker.clone(), runner.to_owned()])?;
            } else {
                tracing::warn!(id = one.id, "a disputed match needs a third worker to decide it: register one");
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
