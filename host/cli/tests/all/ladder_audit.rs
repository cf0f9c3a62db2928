//! The audit of NATS workers (`arena serve --nats`): three registered workers, one of them lying
//! about every result it publishes (a test-only flag adds a turn to each). Every result is
//! audited (`audit_first` covers the whole run): the liar's results disagree with an honest
//! worker's re-run and a third run decides; so do the honest results it re-runs. It is caught
//! every time: marked suspect, the honest workers not; every audit is settled; and no lie
//! reaches the results or the ratings: `arena ladder verify` re-plays every recorded match here
//! and recomputes the ratings, and finds them identical. An unsigned worker's results are not
//! recorded at all. The admin page (`/admin`) shows the same to an admin, and is a missing page
//! to anyone else. Needs the example bots and `nats-server` (`cargo xtask test`).

use crate::common::ladder::Ladder;
use crate::common::nats::Nats;
use crate::common::{arena, bot, fresh_scratch, stderr, stdout};
use crate::ladder_nats::worker;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn a_lying_worker_is_caught_by_the_audit_every_time_and_the_ratings_are_unaffected() {
    let dir = fresh_scratch("ladder-audit");
    let nats = Nats::start(&dir.join("nats"));
    let config = dir.join("serve.toml");
    let settings = "[nats]\nladder = \"audit\"\nack_wait_seconds = 2\nbatch = 2\nin_flight = 6\naudit_first = 100000\n";
    std::fs::write(&config, settings).unwrap();
    let data = dir.join("data");
    let ladder = Ladder::start(&data, &["--workers", "0", "--nats", &nats.url, "--config", config.to_str().unwrap()]);
    let token = ladder.add_user("alice");
    for (name, file) in [("greedy", bot("azul-greedy")), ("random", bot("azul-random"))] {
        ladder.upload_accepted(&token, "azul", name, &file);
    }
    // A worker with no token plays, but nothing it publishes is recorded.
    let mut unsigned = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["worker", "--nats", &nats.url, "--bots-dir", data.join("bots").to_str().unwrap(), "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while !ladder.log().contains("an unsigned result, dropped") {
        assert!(started.elapsed() < Duration::from_secs(120), "{}", ladder.log());
        std::thread::sleep(Duration::from_millis(50));
    }
    unsigned.kill().unwrap();
    unsigned.wait().unwrap();
    assert_eq!(ladder.get("/api/queue", None).json()["done"], 0, "an unsigned result is not recorded");

    let mut workers = Vec::new();
    for (name, lies) in [("honest-a", false), ("honest-b", false), ("liar", true)] {
        let worker_token = ladder.add_worker(name);
        let mut extra = vec!["--bots-from", ladder.url.as_str()];
        if lies {
            extra.extend(["--test-lie-every", "1"]);
        }
        workers.push(worker(&nats.url, &worker_token, &dir.join(name), &extra));
    }
    ladder.wait_for("/api/queue", 180, |queue| queue["done"].as_u64().unwrap() >= 16);
    ladder.admin(&["freeze", "azul"]);
    ladder.wait_for("/api/queue", 180, |queue| queue["queued"] == 0 && queue["running"] == 0);
    // Every audit settled: agreed, or decided by a third run.
    let started = Instant::now();
    let report = loop {
        let report = ladder.admin(&["workers"]);
        let open = report.lines().any(|line| line.ends_with("\tpending") || line.ends_with("\tdisputed"));
        if !open {
            break report;
        }
        assert!(started.elapsed() < Duration::from_secs(180), "audits still open:\n{report}\n{}", ladder.log());
        std::thread::sleep(Duration::from_millis(200));
    };
    for mut one in workers {
        one.kill().unwrap();
        one.wait().unwrap();
    }
    let line = |name: &str| -> Vec<String> {
        let line = report.lines().find(|line| line.starts_with(&format!("{name}\t"))).unwrap();
        line.split('\t').map(str::to_owned).collect()
    };
    assert_eq!(line("liar")[2], "yes", "the liar is suspect:\n{report}");
    assert!(line("liar")[5].parse::<u64>().unwrap() >= 1, "its lies were caught:\n{report}");
    for honest in ["honest-a", "honest-b"] {
        assert_eq!(line(honest)[2], "no", "{honest} is not suspect:\n{report}");
    }
    assert!(report.lines().any(|line| line.ends_with("\tdecided")), "a third run decided:\n{report}");
    assert!(!report.lines().any(|line| line.ends_with("\tundecided")), "{report}");

    // Nothing the liar said was kept: every recorded match re-plays to its result, and the
    // ratings recompute to the page's.
    let dump = dir.join("dump");
    let out = arena(&["ladder", "dump", "--server", &ladder.url, "--game", "azul", "-o", dump.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let verified = arena(&["ladder", "verify", dump.to_str().unwrap()]);
    assert_eq!(stdout(&verified).trim(), "identical", "{}", stderr(&verified));

    // The admin page shows the same: the liar suspect, the honest workers not, and the decided
    // dispute linked to its match. To anyone else it is a page that does not exist.
    let root = ladder.admin(&["add-user", "root", "--admin"]);
    let page = ladder.get_with_token("/admin", &root);
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("<a href=\"/admin\">Admin</a>"), "the header links it for an admin:\n{}", page.body);
    assert!(page.body.contains("data-worker=\"liar\" data-suspect=\"yes\""), "{}", page.body);
    for honest in ["honest-a", "honest-b"] {
        assert!(page.body.contains(&format!("data-worker=\"{honest}\" data-suspect=\"no\"")), "{}", page.body);
    }
    let decided: Vec<&str> = report
        .lines()
        .filter(|line| line.ends_with("\tdecided"))
        .map(|line| line.split('\t').nth(1).unwrap())
        .collect();
    assert!(page.body.contains("data-audit-state=\"decided\""), "{}", page.body);
    for id in decided {
        assert!(page.body.contains(&format!("href=\"/matches/{id}\"")), "match {id}:\n{}", page.body);
    }
    let missing = ladder.get("/no-such-page", None);
    for (who, answer) in [
        ("anonymous", ladder.get("/admin", None)),
        ("alice", ladder.get_with_token("/admin", &token)),
        ("a bad token", ladder.get_with_token("/admin", "arena_nope")),
    ] {
        assert_eq!((answer.status, &answer.body), (404, &missing.body), "{who}");
        assert!(!answer.body.contains("liar"), "{who}");
    }
    assert!(!ladder.get("/", None).body.contains("href=\"/admin\""), "no link for anyone else");
}
