//! Competitions on `arena serve`, against the real binary: an organizer creates one with
//! `arena serve admin competition create` (deadline `now`), the server's workers play its bracket
//! to the end, the results stay hidden from anonymous callers until released, then the API and
//! the page show the standings and the series; single and double elimination; swiss and gauntlet
//! are refused as not yet played. Needs the example bots (`cargo xtask bots`).

use crate::common::ladder::Ladder;
use crate::common::{arena, bot, fresh_scratch, stderr};

/// Creates a competition of azul in `format` with deadline `now` and 1 seed; its id.
fn create(ladder: &Ladder, format: &str) -> i64 {
    let args = ["competition", "create", "--game", "azul", "--format", format, "--deadline", "now", "--seeds", "1"];
    ladder.admin(&[&args[..], &["--name", &format!("<{format}>")]].concat()).parse().unwrap()
}

/// The bot names of the standings' lines, best first, with their places.
fn standings(view: &serde_json::Value) -> Vec<(u64, u64, String)> {
    let lines = view["standings"].as_array().unwrap();
    lines
        .iter()
        .map(|line| {
            (line["first"].as_u64().unwrap(), line["last"].as_u64().unwrap(), line["bot"].as_str().unwrap().to_owned())
        })
        .collect()
}

#[test]
fn an_elimination_competition_is_played_by_the_workers_hidden_until_released_then_shown() {
    let data = fresh_scratch("ladder-competition");
    let ladder = Ladder::start(&data, &[]);
    let alice = ladder.add_user("alice");
    let root = ladder.admin(&["add-user", "root", "--admin"]);
    ladder.upload_accepted(&alice, "azul", "greedy", &bot("azul-greedy"));
    ladder.upload_accepted(&alice, "azul", "random", &bot("azul-random"));
    ladder.upload_accepted(&alice, "azul", "stdio", &bot("azul-stdio-random"));

    // Formats not played yet are refused in words; nothing is created.
    let database = data.to_str().unwrap();
    for format in ["swiss", "gauntlet"] {
        let args = ["serve", "admin", "--data", database, "competition", "create", "--game", "azul"];
        let out = arena(&[&args[..], &["--format", format, "--deadline", "now"]].concat());
        assert!(!out.status.success(), "{format}");
        assert!(stderr(&out).contains("not yet"), "{format}: {}", stderr(&out));
    }
    let out = arena(&[
        "serve",
        "admin",
        "--data",
        database,
        "competition",
        "create",
        "--game",
        "azul",
        "--format",
        "round-robin",
        "--deadline",
        "2025-13-01T00:00:00Z",
    ]);
    assert!(!out.status.success() && stderr(&out).contains("RFC 3339"), "{}", stderr(&out));
    assert_eq!(ladder.get("/api/competitions", None).json(), serde_json::json!([]));

    let single = create(&ladder, "single-elimination");
    let path = format!("/api/competitions/{single}");
    let done = ladder.wait_for(&path, 180, |view| view["state"] == "done");
    assert_eq!(done["format"], "single-elimination");
    assert_eq!(done["entrant_list"].as_array().unwrap().len(), 3, "{done}");
    let [total, played] = [done["matches"][0].as_u64().unwrap(), done["matches"][1].as_u64().unwrap()];
    assert_eq!((total, played), (4, 4), "2 series (one bye) of 1 seed in both seat orders: {done}");
    // Hidden: an anonymous caller sees the entrants, not the results; an admin sees them.
    assert_eq!(
        (&done["results_visible"], &done["standings"], &done["series"]),
        (&serde_json::json!(false), &serde_json::json!([]), &serde_json::json!([]))
    );
    assert!(!ladder.get(&format!("/competitions/{single}"), None).body.contains("Standings"));
    // Nor do the ladder's lists, match pages, replays or bot pages show a competition's matches
    // to anyone but an admin.
    let listed = ladder.get("/api/matches?game=azul&limit=500", None).json();
    assert!(listed.as_array().unwrap().iter().all(|one| one["kind"] != "competition"), "{listed}");
    let counts = ladder.get("/api/queue", None).json();
    let last = ["queued", "running", "done"].iter().map(|key| counts[key].as_u64().unwrap()).sum::<u64>() + 8;
    let mut competition_matches = 0;
    for id in 1..=last {
        let as_admin = ladder.get_with_token(&format!("/api/matches/{id}"), &root);
        if as_admin.status != 200 || as_admin.json()["kind"] != "competition" {
            continue;
        }
        competition_matches += 1;
        for path in [format!("/api/matches/{id}"), format!("/matches/{id}"), format!("/matches/{id}/replay.json")] {
            assert_eq!(ladder.get(&path, None).status, 404, "{path} is a hidden competition's");
        }
    }
    assert_eq!(competition_matches, 4, "the admin sees each of the competition's matches");
    let seen = ladder.get_with_token(&path, &root).json();
    assert_eq!(seen["results_visible"], true, "{seen}");
    assert_eq!(ladder.get_with_token(&path, "arena_not-a-token").status, 401);

    ladder.admin(&["competition", "release", &single.to_string(), "--to", "public"]);
    let public = ladder.get(&path, None).json();
    assert_eq!(public["release"], "public");
    let lines = standings(&public);
    assert_eq!(lines.len(), 3, "{public}");
    assert_eq!((lines[0].0, lines[0].1, lines[0].2.as_str()), (1, 1, "greedy"), "{public}");
    let series = public["series"].as_array().unwrap();
    assert_eq!(series.len(), 2, "{public}");
    for one in series {
        assert!(one["winner"].is_i64() && one["result"]["wins"].is_array(), "{one}");
    }
    let page = ladder.get(&format!("/competitions/{single}"), None);
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Standings") && page.body.contains("greedy"), "{}", page.body);
    assert!(page.body.contains("&lt;single-elimination&gt;"), "the name escaped");

    let double = create(&ladder, "double-elimination");
    let finished = ladder.wait_for(&format!("/api/competitions/{double}"), 240, |view| view["state"] == "done");
    ladder.admin(&["competition", "release", &double.to_string(), "--to", "participants"]);
    assert_eq!(ladder.get(&format!("/api/competitions/{double}"), None).json()["results_visible"], false);
    let shown = ladder.get_with_token(&format!("/api/competitions/{double}"), &alice).json();
    assert_eq!(shown["results_visible"], true, "alice owns the entrants: {shown}");
    let places: Vec<u64> = standings(&shown).iter().map(|line| line.0).collect();
    assert_eq!(places, [1, 2, 3], "{shown}");
    assert!(finished["matches"][0].as_u64().unwrap() >= 8, "at least 4 series of 2 matches: {finished}");
    let listed = ladder.get("/api/competitions", None).json();
    assert_eq!(listed.as_array().unwrap().len(), 2);
    assert_eq!(listed[0]["id"], double, "newest first");

    let audit = ladder.admin(&["audit"]);
    assert!(audit.contains("competition-create") && audit.contains("competition-release"), "{audit}");
}
