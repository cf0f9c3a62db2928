//! A tournament on a real NATS JetStream work queue: Debian's
//! `nats-server -js` on loopback with its storage in a scratch folder, a plan of 204 matches
//! enqueued twice (the second adds nothing), three `arena worker`s, the first SIGKILLed while it
//! holds a batch; that batch goes to another worker after the ack wait, and `collect` finds every match
//! exactly once, nothing left in the queue, and the leaderboard of a single-process run. A
//! tampered copy of one result is then caught as a determinism failure. The server is stopped
//! by the pid it wrote, also when the test fails. `cargo xtask test` installs Debian's
//! `nats-server`.
//!
//! Needs the example bots (`cargo xtask bots`).

use crate::cli_slurm::planned_round_robin;
use crate::common::nats::Nats;
use crate::common::{arena, fresh_scratch, scratch, stderr, stdout};
use arena_tournament::nats::Queue;
use arena_tournament::store::Store;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `arena worker` on `url`, exiting once the queue has been empty for 4 seconds.
fn worker(url: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["worker", "--nats", url, "--idle-exit", "4", "--quiet"])
        .env("ARENA_CACHE_DIR", scratch("arena-cache"))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The plan digest `enqueue` names on stderr.
fn enqueued_digest(output: &std::process::Output) -> String {
    let text = stderr(output);
    text.split_whitespace().nth(1).unwrap().trim_end_matches(':').to_owned()
}

#[test]
fn a_plan_runs_on_a_nats_work_queue_survives_a_killed_worker_and_collects_to_the_single_run() {
    let dir = fresh_scratch("nats-cluster");
    // 204 matches; the pairings with `fx-loop-forever` (it burns its whole game budget) are slow
    // enough that a worker is killed in the middle of one.
    let started = Instant::now();
    let (single, total) = planned_round_robin(&dir, &["fx-loop-forever", "azul-random", "azul-greedy"], "1..34");
    let single_seconds = started.elapsed().as_secs_f64();
    assert_eq!(total, 204);
    let nats = Nats::start(&dir.join("nats"));
    let plan = dir.join("plan.jsonl");
    let plan = plan.to_str().unwrap();

    // A 2 s ack wait, so the killed worker's batch is taken again soon.
    let first = arena(&["tournament", "enqueue", "--nats", &nats.url, plan, "--ack-wait", "2"]);
    assert_eq!(first.status.code(), Some(0), "{}", stderr(&first));
    assert!(stderr(&first).contains("204 matches in 204 messages, 0 of them already queued"), "{}", stderr(&first));
    let again = arena(&["tournament", "enqueue", "--nats", &nats.url, plan]);
    assert!(stderr(&again).contains("204 of them already queued"), "enqueueing twice adds nothing: {}", stderr(&again));
    let digest = enqueued_digest(&first);
    let queue = Queue::connect(&nats.url).unwrap();
    assert_eq!(queue.queued(&digest).unwrap(), 204);

    // Worker 0 alone until it has published some results and holds a batch it has not acked
    // (it is mid-match); then it is killed and two others take over, one of them its batch once
    // the ack wait has passed.
    let started = Instant::now();
    let mut first_worker = worker(&nats.url);
    while queue.results(&digest).unwrap() < 10 || queue.taken().unwrap() == 0 {
        assert!(started.elapsed() < Duration::from_secs(120), "no results: {}", nats.log());
        std::thread::sleep(Duration::from_millis(5));
    }
    first_worker.kill().unwrap(); // SIGKILL
    first_worker.wait().unwrap();
    let results_at_kill = queue.results(&digest).unwrap();
    assert_eq!(queue.taken().unwrap(), 1, "the killed worker's batch is still out");
    let workers: Vec<Child> = (0..2).map(|_| worker(&nats.url)).collect();
    for (index, child) in workers.into_iter().enumerate() {
        let output = child.wait_with_output().unwrap();
        assert!(output.status.success(), "worker {index}: {}", stderr(&output));
    }
    let queue_seconds = started.elapsed().as_secs_f64();
    assert_eq!(queue.queued(&digest).unwrap(), 0, "nothing left in the queue");
    assert_eq!(queue.taken().unwrap(), 0, "every batch acked");

    let all = dir.join("all.sqlite");
    let collected = arena(&["tournament", "collect", "--nats", &nats.url, "-o", all.to_str().unwrap()]);
    assert_eq!(collected.status.code(), Some(0), "{}", stderr(&collected));
    let report = stderr(&collected);
    assert!(report.contains("204 planned, 204 merged"), "{report}");
    assert!(report.contains("0 missing, 0 differing"), "{report}");
    assert!(report.contains("0 work messages still queued"), "{report}");
    let store = Store::open(&all).unwrap();
    let digest_in_db = store.current_spec().unwrap().unwrap();
    assert_eq!(store.matches(&digest_in_db).unwrap().len(), total, "every match exactly once");
    let shown = arena(&["tournament", "show", all.to_str().unwrap(), "--format", "json"]);
    assert_eq!(stdout(&shown), single, "the collected leaderboard is the single run's");

    // A copy of one result that says another thing is a determinism failure, named.
    let mut tampered = store.stored_matches().unwrap().into_iter().find(|stored| stored.played).unwrap();
    tampered.turns = tampered.turns.map(|turns| turns + 1);
    queue.publish_results(&digest, std::slice::from_ref(&tampered), "a tampering test").unwrap();
    let audited =
        arena(&["tournament", "collect", "--nats", &nats.url, "-o", dir.join("again.sqlite").to_str().unwrap()]);
    assert_eq!(audited.status.code(), Some(1), "{}", stderr(&audited));
    assert!(
        stderr(&audited).contains(&format!("determinism failure: match {} differs", tampered.id)),
        "{}",
        stderr(&audited)
    );
    assert!(stderr(&audited).contains("from a tampering test"), "{}", stderr(&audited));
    println!(
        "nats: {total} matches, 3 workers (the first SIGKILLed after {results_at_kill} results, then 2): \
         {queue_seconds:.1} s from the first worker to the last exit ({:.0} matches/s, 4 s of it the workers' idle \
         exit); one process on every core: {single_seconds:.1} s",
        total as f64 / queue_seconds
    );
}

/// The collector: a result delivered twice (a match whose message was delivered
/// again is played and published twice) is merged once and counted as an identical duplicate,
/// so the collected database counts as many played as planned.
#[test]
fn a_result_published_twice_is_collected_once() {
    let dir = fresh_scratch("nats-twice");
    let (_, total) = planned_round_robin(&dir, &["fx-glue-azul", "azul-trivial"], "1..2");
    assert_eq!(total, 4);
    let nats = Nats::start(&dir.join("nats"));
    let plan = dir.join("plan.jsonl");
    let enqueued = arena(&["tournament", "enqueue", "--nats", &nats.url, plan.to_str().unwrap()]);
    assert_eq!(enqueued.status.code(), Some(0), "{}", stderr(&enqueued));
    let digest = enqueued_digest(&enqueued);
    let played = worker(&nats.url).wait_with_output().unwrap();
    assert!(played.status.success(), "{}", stderr(&played));
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let once = arena(&["tournament", "collect", "--nats", &nats.url, "-o", &path("once.sqlite")]);
    assert_eq!(once.status.code(), Some(0), "{}", stderr(&once));

    // The same result again, as a redelivered match publishes it.
    let queue = Queue::connect(&nats.url).unwrap();
    let copy = Store::open(&dir.join("once.sqlite")).unwrap().stored_matches().unwrap().remove(0);
    queue.publish_results(&digest, std::slice::from_ref(&copy), "a redelivery").unwrap();
    assert_eq!(queue.results(&digest).unwrap(), 5);
    let twice = arena(&["tournament", "collect", "--nats", &nats.url, "-o", &path("twice.sqlite")]);
    assert_eq!(twice.status.code(), Some(0), "{}", stderr(&twice));
    let report = stderr(&twice);
    assert!(report.contains("4 planned, 4 merged"), "{report}");
    assert!(report.contains("1 identical duplicates, 0 missing, 0 differing"), "{report}");
    let store = Store::open(&dir.join("twice.sqlite")).unwrap();
    assert_eq!(store.stored_matches().unwrap().len(), 4, "every match once");
    let digest_in_db = store.current_spec().unwrap().unwrap();
    assert_eq!(store.progress(&digest_in_db).unwrap(), (4, 4, 0), "planned and played agree");
}

/// A bot with a data folder on workers that read bots from a bots folder: `enqueue --bots-dir`
/// copies the folder there by digest, and the workers play with that copy (the original is gone).
#[test]
fn a_bots_data_folder_reaches_the_workers_by_digest() {
    let dir = fresh_scratch("nats-data");
    std::fs::copy(crate::common::bot("fx-data-probe"), dir.join("probe.wasm")).unwrap();
    std::fs::create_dir_all(dir.join("probe.data")).unwrap();
    std::fs::write(dir.join("probe.data/table.txt"), b"shared table").unwrap();
    let spec = dir.join("spec.toml");
    let random = crate::common::bot("azul-random");
    std::fs::write(
        &spec,
        format!("game = \"azul\"\nformat = \"round-robin\"\nseeds = [1]\nbots = [\"probe.wasm\", {random:?}]\n"),
    )
    .unwrap();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();
    let planned = arena(&["tournament", "plan", spec.to_str().unwrap(), "-o", &path("plan.jsonl")]);
    assert_eq!(planned.status.code(), Some(0), "{}", stderr(&planned));
    let nats = Nats::start(&dir.join("nats"));
    let enqueued =
        arena(&["tournament", "enqueue", "--nats", &nats.url, &path("plan.jsonl"), "--bots-dir", &path("shared")]);
    assert_eq!(enqueued.status.code(), Some(0), "{}", stderr(&enqueued));
    let copies: Vec<String> = std::fs::read_dir(dir.join("shared"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".data"))
        .collect();
    assert_eq!(copies.len(), 1, "the data folder, by digest: {copies:?}");
    assert_eq!(std::fs::read(dir.join("shared").join(&copies[0]).join("table.txt")).unwrap(), b"shared table");
    std::fs::rename(dir.join("probe.data"), dir.join("elsewhere")).unwrap();

    let played = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["worker", "--nats", &nats.url, "--idle-exit", "4", "--quiet", "--bots-dir", &path("shared")])
        .env("ARENA_CACHE_DIR", scratch("arena-cache"))
        .output()
        .unwrap();
    assert!(played.status.success(), "{}", stderr(&played));
    let collected = arena(&["tournament", "collect", "--nats", &nats.url, "-o", &path("collected.sqlite")]);
    assert_eq!(collected.status.code(), Some(0), "{}", stderr(&collected));
    assert!(stderr(&collected).contains("2 planned, 2 merged"), "{}", stderr(&collected));
    let store = Store::open(&dir.join("collected.sqlite")).unwrap();
    let digest = store.current_spec().unwrap().unwrap();
    assert_eq!(store.progress(&digest).unwrap(), (2, 2, 0), "both matches played, none refused");
    let probe = store.bots(&digest).unwrap().into_iter().find(|(_, name, _)| name == "probe").unwrap();
    assert!(probe.0.contains('+') && probe.2.is_none(), "{probe:?}");
}
