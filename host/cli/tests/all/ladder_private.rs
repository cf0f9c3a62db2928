//! Private bots on a ladder with NATS workers (`arena serve --nats`): a bot uploaded with `arena
//! submit --private` has its matches played only by the worker the operator marked trusted; the
//! other worker hands those batches back and plays the public bots' matches. Checked from the
//! results stream itself (each result names the worker that signed it and the files it seated):
//! every result seating the private file is the trusted worker's, and the untrusted one played
//! some. The private file is served to the trusted worker's signed request, its owner and nobody
//! else (403, said why), never fetched by the untrusted worker, left out of the public dump's
//! files and has no download link; its matches stay on the ladder. An admin makes it public
//! again. Needs the example bots and `nats-server` (`cargo xtask test`).

use crate::common::ladder::Ladder;
use crate::common::nats::Nats;
use crate::common::{arena, bot, fresh_scratch, stderr, stdout};
use crate::ladder_nats::worker;
use arena_tournament::nats::Queue;
use arena_tournament::nats::identity::{NAME_HEADER, SIGNATURE_HEADER, WorkerIdentity, fetch_payload};
use std::time::{Duration, Instant};

/// `GET /blobs/bots/SHA256.wasm`, signed by the worker of `token` when given: the status and body.
fn fetch_signed(ladder: &Ladder, sha256: &str, token: Option<&str>) -> (u16, Vec<u8>) {
    let agent = ureq::Agent::config_builder().http_status_as_error(false).build().new_agent();
    let mut request = agent.get(&format!("{}/blobs/bots/{sha256}.wasm", ladder.url));
    if let Some(token) = token {
        let identity = WorkerIdentity::from_token(token).unwrap();
        let signature = identity.sign(fetch_payload(sha256).as_bytes());
        request = request.header(NAME_HEADER, &identity.name).header(SIGNATURE_HEADER, &signature);
    }
    let response = request.call().unwrap();
    let status = response.status().as_u16();
    (status, response.into_body().read_to_vec().unwrap())
}

#[test]
fn a_private_bots_matches_go_to_the_trusted_worker_only_and_its_file_to_nobody_else() {
    let dir = fresh_scratch("ladder-private");
    let nats = Nats::start(&dir.join("nats"));
    let config = dir.join("serve.toml");
    let settings = "[nats]\nladder = \"private\"\nack_wait_seconds = 2\nbatch = 2\nin_flight = 6\naudit_first = 0\naudit_share = 0\n";
    std::fs::write(&config, settings).unwrap();
    let data = dir.join("data");
    let ladder = Ladder::start(&data, &["--workers", "0", "--nats", &nats.url, "--config", config.to_str().unwrap()]);
    // The workers are registered first: a private bot's match claimed while no worker is marked
    // trusted waits (30 s) before it is looked at again.
    let trusted = ladder.admin(&["add-worker", "trusted", "--trusted"]);
    let untrusted = ladder.add_worker("untrusted");
    let alice = ladder.add_user("alice");
    let bob = ladder.add_user("bob");
    for (name, file) in [("greedy", bot("azul-greedy")), ("trivial", bot("azul-trivial"))] {
        ladder.upload_accepted(&alice, "azul", name, &file);
    }
    let file = bot("azul-random");
    let submitted = arena(&[
        "submit",
        "--server",
        &ladder.url,
        "--game",
        "azul",
        &file,
        "--name",
        "secret",
        "--private",
        "--token",
        &alice,
        "--wait",
        "--json",
    ]);
    assert_eq!(submitted.status.code(), Some(0), "{}", stderr(&submitted));
    let submitted: serde_json::Value = serde_json::from_str(stdout(&submitted).trim()).unwrap();
    assert_eq!(submitted["status"], "accepted", "{submitted}");
    let (id, secret) = (submitted["bot_id"].as_i64().unwrap(), submitted["version"].as_str().unwrap().to_owned());
    let version = submitted["version_id"].as_i64().unwrap();
    assert_eq!(ladder.get(&format!("/api/bots/{id}"), None).json()["bot"]["private"], true);

    // The file: to the trusted worker's signed request and its owner; 403 with the reason to the
    // others (an untrusted worker, another account, anyone).
    let bytes = std::fs::read(&file).unwrap();
    assert_eq!(fetch_signed(&ladder, &secret, Some(&trusted)), (200, bytes.clone()));
    let (status, body) = fetch_signed(&ladder, &secret, Some(&untrusted));
    assert_eq!(status, 403);
    assert!(String::from_utf8_lossy(&body).contains("a private bot's file"), "{}", String::from_utf8_lossy(&body));
    assert_eq!(fetch_signed(&ladder, &secret, None).0, 403);
    let blob = format!("/blobs/bots/{secret}.wasm");
    assert_eq!(ladder.get_with_token(&blob, &alice).status, 200, "its owner");
    assert_eq!(ladder.get_with_token(&blob, &bob).status, 403, "another account");
    let download = format!("/versions/{version}/bot.wasm");
    assert_eq!(ladder.get(&download, None).status, 403);
    assert_eq!(ladder.get_with_token(&download, &alice).status, 200);
    let page = ladder.get(&format!("/bots/{id}"), None).body;
    assert!(page.contains("Private:") && !page.contains(&download), "no download link for others: {page}");
    let answer =
        ladder.post_json(&format!("/api/bots/{id}/private"), Some(&bob), &serde_json::json!({"private": false}));
    assert_eq!(answer.status, 403, "only its owner makes it public: {}", answer.body);

    // What the workers publish, read from the results stream as the ladder reads it.
    let bus = Queue::connect(&nats.url).unwrap();
    let feed = bus.result_feed("private", "test-observer").unwrap();
    let workers = [
        worker(&nats.url, &trusted, &dir.join("trusted"), &["--bots-from", &ladder.url]),
        worker(&nats.url, &untrusted, &dir.join("untrusted"), &["--bots-from", &ladder.url]),
    ];
    // The public bots' matches queued first, then the private bot's among them.
    ladder.wait_for(&format!("/api/matches?bot={id}&limit=100"), 180, |matches| {
        matches.as_array().unwrap().iter().filter(|one| one["state"] == "done").count() >= 4
    });
    ladder.admin(&["freeze", "azul"]);
    ladder.wait_for("/api/queue", 180, |queue| queue["queued"] == 0 && queue["running"] == 0);
    for mut one in workers {
        one.kill().unwrap();
        one.wait().unwrap();
    }
    let (mut private_results, mut untrusted_results) = (0, 0);
    let started = Instant::now();
    loop {
        let deliveries = bus.take_results(&feed, 64, Duration::from_millis(500)).unwrap();
        if deliveries.is_empty() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(60));
        for delivery in &deliveries {
            let stored = delivery.result.as_ref().unwrap();
            let spec: serde_json::Value = serde_json::from_str(&stored.spec).unwrap();
            let seats_private = spec["seats"].as_array().unwrap().iter().any(|seat| seat == secret.as_str());
            let signer = delivery.signer().unwrap();
            if seats_private {
                assert_eq!(signer, "trusted", "a private bot's match played by another worker: {}", stored.spec);
                private_results += 1;
            }
            untrusted_results += usize::from(signer == "untrusted");
            bus.ack_result(delivery).unwrap();
        }
    }
    assert!(private_results >= 4, "the private bot played: {private_results} results");
    assert!(untrusted_results >= 1, "the untrusted worker played the public bots' matches");
    assert!(!ladder.log().contains("not marked trusted"), "no result refused: the workers obeyed\n{}", ladder.log());
    assert!(dir.join("trusted").join(format!("{secret}.wasm")).is_file(), "the trusted worker fetched it");
    let fetched: Vec<String> = std::fs::read_dir(dir.join("untrusted"))
        .unwrap()
        .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!fetched.iter().any(|name| name.contains(&secret)), "the untrusted worker never had it: {fetched:?}");
    let said = std::fs::read_to_string(dir.join("untrusted.log")).unwrap();
    assert!(!said.contains("403"), "the untrusted worker never asked for it: {said}");

    // Its matches stay on the ladder, in the dump, whose files leave it out.
    let ranked = ladder.get(&format!("/api/matches?bot={id}&limit=100"), None).json();
    assert!(ranked.as_array().unwrap().iter().any(|one| one["state"] == "done"), "{ranked}");
    let dump = ladder.get("/api/games/azul/dump", None).json();
    let listed = dump["bots"].as_array().unwrap().iter().find(|listed| listed["id"] == id).unwrap().clone();
    assert_eq!(listed["public"], false, "{listed}");

    // An admin makes it public again: its file is anyone's.
    ladder.admin(&["set-private", &id.to_string(), "off"]);
    assert_eq!(fetch_signed(&ladder, &secret, None), (200, bytes));
    assert_eq!(ladder.get(&download, None).status, 200);
}
