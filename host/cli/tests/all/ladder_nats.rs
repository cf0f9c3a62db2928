//! `arena serve --nats`: the ladder's matches played by `arena worker`s on a real NATS JetStream
//! server (Debian's `nats-server -js` on loopback, stopped by its pid), the workers fetching the
//! bots from the server. A worker is SIGKILLed while it holds a batch; once the ack wait has
//! passed another worker plays that batch, and when the ladder is frozen and drained every
//! match is recorded exactly once, none failed, the leaderboard counts each result once, and a
//! replay made on demand by re-playing a worker's match here has the digest the worker reported.
//! Needs the example bots (`cargo xtask bots`) and `nats-server` (`cargo xtask test` installs it).

use crate::common::ladder::Ladder;
use crate::common::nats::Nats;
use crate::common::{arena, bot, fresh_scratch, scratch, stderr, stdout};
use arena_tournament::nats::Queue;
use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// `arena worker --nats NATS --token TOKEN --bots-dir BOTS EXTRA...`, its stderr in `BOTS.log`.
pub fn worker(nats: &str, token: &str, bots: &Path, extra: &[&str]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["worker", "--nats", nats, "--token", token, "--bots-dir", bots.to_str().unwrap(), "--quiet"])
        .args(extra)
        .env("ARENA_CACHE_DIR", scratch("arena-cache"))
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(bots.with_extension("log")).unwrap())
        .spawn()
        .unwrap()
}

#[test]
fn ladder_matches_played_by_nats_workers_survive_a_killed_worker_and_count_once() {
    let dir = fresh_scratch("ladder-nats");
    let nats = Nats::start(&dir.join("nats"));
    // A 2 s ack wait, so the killed worker's batch is taken again soon; small batches.
    let config = dir.join("serve.toml");
    // No audits here (they need a second worker: ladder_audit.rs).
    let settings =
        "[nats]\nladder = \"test\"\nack_wait_seconds = 2\nbatch = 3\nin_flight = 9\naudit_first = 0\naudit_share = 0\n";
    std::fs::write(&config, settings).unwrap();
    let data = dir.join("data");
    let ladder = Ladder::start(&data, &["--workers", "0", "--nats", &nats.url, "--config", config.to_str().unwrap()]);
    let token = ladder.add_user("alice");
    let worker_token = ladder.add_worker("w1");
    let mut shas = BTreeSet::new();
    for (name, file) in [("greedy", bot("azul-greedy")), ("random", bot("azul-random"))] {
        let checked = ladder.upload_accepted(&token, "azul", name, &file);
        shas.insert(checked["version"].as_str().unwrap().to_owned());
    }
    // Sent out, nothing played here: no worker yet.
    let queue = ladder.wait_for("/api/queue", 60, |queue| queue["running"].as_u64().unwrap() >= 3);
    assert_eq!(queue["done"], 0, "no match is played on the server: {queue}");
    assert!(queue["running"].as_u64().unwrap() <= 9, "at most in_flight matches out: {queue}");

    // A worker alone until it has played some and holds a batch it has not acked; then it is
    // SIGKILLed (again, if it happened to ack in between: the batch must still be out).
    let bus = Queue::connect(&nats.url).unwrap();
    let bots = dir.join("worker-bots");
    let started = Instant::now();
    loop {
        let mut first = worker(&nats.url, &worker_token, &bots, &["--bots-from", &ladder.url]);
        while ladder.get("/api/queue", None).json()["done"].as_u64().unwrap() < 2 || bus.taken().unwrap() == 0 {
            assert!(started.elapsed() < Duration::from_secs(180), "no results: {}", ladder.log());
            std::thread::sleep(Duration::from_millis(5));
        }
        first.kill().unwrap();
        first.wait().unwrap();
        if bus.taken().unwrap() == 1 {
            break;
        }
    }
    let fetched: BTreeSet<String> = std::fs::read_dir(&bots)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().trim_end_matches(".wasm").to_owned())
        .collect();
    assert_eq!(fetched, shas, "the worker fetched both bots from the server by sha256");

    // Another worker takes over, the killed batch among its work once the ack wait has passed.
    let second = worker(&nats.url, &worker_token, &dir.join("second-bots"), &["--bots-from", &ladder.url]);
    let matches = drain_and_check(&ladder, &bus, &["--data", data.to_str().unwrap()], second);
    for one in &matches {
        assert!(one["replay_sha256"].is_null(), "played by a worker, no replay made yet: {one}");
    }

    // The replay, made here by re-playing a worker's match and checked against its digest.
    let id = matches[0]["id"].as_i64().unwrap();
    let replay = ladder.get(&format!("/matches/{id}/replay.json"), None);
    assert_eq!(replay.status, 200, "{}", replay.body);
    let file = scratch("ladder-nats-replay.json");
    std::fs::write(&file, &replay.body).unwrap();
    let verify = arena(&["replay", "verify", file.to_str().unwrap()]);
    assert_eq!(stdout(&verify).trim(), "identical", "{}", stderr(&verify));
    let one = ladder.get(&format!("/api/matches/{id}"), None).json();
    assert!(one["replay_sha256"].is_string(), "the replay made is kept: {one}");
}

/// Lets `worker` play until 12 matches are done, freezes the azul ladder (`arena serve admin
/// DATABASE... freeze azul`), waits until nothing is queued or running, stops `worker`; then checks
/// that every batch was acked, every match is done (none failed) and recorded once (its seed and
/// seats), and the leaderboard counts each result once, the greedy bot on top. The matches.
pub fn drain_and_check(ladder: &Ladder, bus: &Queue, database: &[&str], mut worker: Child) -> Vec<serde_json::Value> {
    ladder.wait_for("/api/queue", 180, |queue| queue["done"].as_u64().unwrap() >= 12);
    let admin = arena(&[&["serve", "admin"], database, &["freeze", "azul"]].concat());
    assert_eq!(admin.status.code(), Some(0), "{}", stderr(&admin));
    let drained = ladder.wait_for("/api/queue", 180, |queue| queue["queued"] == 0 && queue["running"] == 0);
    worker.kill().unwrap();
    worker.wait().unwrap();
    assert_eq!(bus.taken().unwrap(), 0, "every batch acked");

    let done = drained["done"].as_u64().unwrap();
    let matches = ladder.get("/api/matches?game=azul&limit=1000", None).json();
    let matches = matches.as_array().unwrap().clone();
    assert_eq!(matches.len() as u64, done, "every match recorded is done, none failed");
    let mut seen = BTreeSet::new();
    for one in &matches {
        let seats: Vec<i64> =
            one["seats"].as_array().unwrap().iter().map(|seat| seat["version_id"].as_i64().unwrap()).collect();
        assert!(seen.insert((one["seed"].as_u64().unwrap(), seats)), "match {} recorded twice", one["id"]);
    }
    let board = ladder.wait_for("/api/games/azul/leaderboard", 30, |board| {
        board["leaderboard"].as_array().unwrap().iter().map(|line| line["matches"].as_u64().unwrap()).sum::<u64>()
            == 2 * done
    });
    assert_eq!(board["leaderboard"][0]["bot"], "greedy", "{board}");
    matches
}
