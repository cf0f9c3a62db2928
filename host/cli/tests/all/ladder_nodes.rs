//! Two `arena serve` nodes on one PostgreSQL database (a throwaway cluster the test starts) and
//! one NATS JetStream server, sharing one data folder for the bot files, with `arena worker`s
//! playing the matches. One node and one worker are SIGKILLed while the worker holds a batch:
//! the batch goes to another worker, the live node records results of the dead node's matches
//! (found by their spec id) and sends again those of its claims that lapse with no result, and
//! once the ladder is frozen and drained every match is recorded exactly once, none
//! failed, the leaderboard counts each result once, and every match re-played on the live node
//! has the digest its worker reported (the ratings being a function of those results).
//! Needs the example bots, `nats-server` and PostgreSQL's server programs (`cargo xtask test`).

use crate::common::ladder::Ladder;
use crate::common::nats::Nats;
use crate::common::{bot, fresh_scratch};
use crate::ladder_nats::{drain_and_check, worker};
use arena_tournament::nats::Queue;
use std::time::{Duration, Instant};

#[test]
fn two_nodes_on_one_database_survive_losing_one_and_a_worker_and_count_every_match_once() {
    let dir = fresh_scratch("ladder-nodes");
    let database = crate::common::postgres::database();
    let nats = Nats::start(&dir.join("nats"));
    // A 3 s lease, so the killed node's claims lapse soon; a 2 s ack wait for the killed worker's.
    let config = dir.join("serve.toml");
    let settings = format!(
        "database = \"{database}\"\nlease_seconds = 3\n\
         [nats]\nurl = \"{}\"\nladder = \"nodes\"\nack_wait_seconds = 2\nbatch = 3\nin_flight = 6\n\
         audit_first = 0\naudit_share = 0\n",
        nats.url
    );
    std::fs::write(&config, settings).unwrap();
    let data = dir.join("data");
    let node_args = ["--config", config.to_str().unwrap(), "--workers", "0"];
    let mut first = Ladder::start(&data, &node_args);
    let second = Ladder::join(&data, &node_args);
    let token = first.add_user("alice");
    let worker_token = first.add_worker("w1");
    let bots = data.join("bots");
    for (name, file) in [("greedy", bot("azul-greedy")), ("random", bot("azul-random"))] {
        first.upload_accepted(&token, "azul", name, &file);
    }
    // Either node serves the same ladder.
    let board = second.get("/api/games/azul/leaderboard", None).json();
    assert_eq!(board["game"], "azul", "{board}");

    // The first worker plays until it holds a batch; then it and the first node are SIGKILLed.
    let bus = Queue::connect(&nats.url).unwrap();
    let started = Instant::now();
    loop {
        let log = bots.with_extension("log");
        let mut playing = worker(&nats.url, &worker_token, &bots, &[]);
        while second.get("/api/queue", None).json()["done"].as_u64().unwrap() < 2 || bus.taken().unwrap() == 0 {
            let worker_log = std::fs::read_to_string(&log).unwrap_or_default();
            assert!(started.elapsed() < Duration::from_secs(180), "no results: {}\n{worker_log}", second.log());
            std::thread::sleep(Duration::from_millis(5));
        }
        playing.kill().unwrap();
        playing.wait().unwrap();
        if bus.taken().unwrap() == 1 {
            break;
        }
    }
    first.kill();
    let replacement = worker(&nats.url, &worker_token, &bots, &[]);
    let matches = drain_and_check(&second, &bus, &["--database", &database], replacement);
    for one in &matches {
        // Re-played on the live node: the record its worker reported, bit for bit.
        let replay = second.get(&format!("/matches/{}/replay.json", one["id"]), None);
        assert_eq!(replay.status, 200, "match {}: {}", one["id"], replay.body);
    }
}
