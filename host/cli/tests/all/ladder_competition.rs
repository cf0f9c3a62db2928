//! Competitions on `arena serve`, against the real binary: an organizer creates one with
//! `arena serve admin competition create` (deadline `now`), the server's workers play it to the
//! end, the results stay hidden from anonymous callers until released (to participants, to all,
//! round by round), then the API, the page, the match pages and the results as a tournament
//! database (read by the real `arena tournament show` and `report`) show them; every format:
//! single and double elimination, round robin, Swiss and gauntlet. Needs the example bots
//! (`cargo xtask bots`).

use crate::common::ladder::Ladder;
use crate::common::{arena, bot, fresh_scratch, stderr, stdout};
use std::collections::BTreeMap;

/// Creates a competition of azul in `format` with deadline `now`, 1 seed and `extra` options;
/// its id.
fn create(ladder: &Ladder, format: &str, extra: &[&str]) -> i64 {
    let args = ["competition", "create", "--game", "azul", "--format", format, "--deadline", "now", "--seeds", "1"];
    ladder.admin(&[&args[..], &["--name", &format!("<{format}>")], extra].concat()).parse().unwrap()
}

/// A ladder with alice's three azul bots (greedy, random, stdio) and an admin, root; root's
/// API token and alice's.
fn three_bots(name: &str) -> (Ladder, String, String) {
    let data = fresh_scratch(name);
    let ladder = Ladder::start(&data, &[]);
    let alice = ladder.add_user("alice");
    let root = ladder.admin(&["add-user", "root", "--admin"]);
    ladder.upload_accepted(&alice, "azul", "greedy", &bot("azul-greedy"));
    ladder.upload_accepted(&alice, "azul", "random", &bot("azul-random"));
    ladder.upload_accepted(&alice, "azul", "stdio", &bot("azul-stdio-random"));
    (ladder, root, alice)
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

/// The competition matches an admin (`root`) finds among every match id so far.
fn competition_matches(ladder: &Ladder, root: &str) -> Vec<serde_json::Value> {
    let counts = ladder.get("/api/queue", None).json();
    let last = ["queued", "running", "done"].iter().map(|key| counts[key].as_u64().unwrap()).sum::<u64>() + 8;
    (1..=last)
        .map(|id| ladder.get_with_token(&format!("/api/matches/{id}"), root))
        .filter(|answer| answer.status == 200)
        .map(|answer| answer.json())
        .filter(|one| one["kind"] == "competition")
        .collect()
}

/// Each series' or pairing's id with its round of play, as `view` shows them.
fn play_rounds(view: &serde_json::Value) -> BTreeMap<String, u64> {
    let series = view["series"].as_array().unwrap();
    series.iter().map(|one| (one["id"].as_str().unwrap().to_owned(), one["play_round"].as_u64().unwrap())).collect()
}

/// The label of a pairing of a match's two seats (`V<a>-V<b>`, lower version first).
fn label(one: &serde_json::Value) -> String {
    let mut versions: Vec<i64> =
        one["seats"].as_array().unwrap().iter().map(|seat| seat["version_id"].as_i64().unwrap()).collect();
    versions.sort_unstable();
    format!("V{}-V{}", versions[0], versions[1])
}

#[test]
fn an_elimination_competition_is_played_by_the_workers_hidden_until_released_then_shown() {
    let (ladder, root, alice) = three_bots("ladder-competition");

    // Options that do not fit the format are refused in words; nothing is created.
    let database = ladder.data.to_str().unwrap();
    for (format, extra, refusal) in [
        ("gauntlet", &[][..], "needs its pool"),
        ("gauntlet", &["--pool", "greedy,nobody"][..], "no bot \"nobody\""),
        ("round-robin", &["--pool", "greedy"][..], "for the gauntlet format only"),
        ("round-robin", &["--rounds", "2"][..], "for the swiss format only"),
        ("swiss", &["--rounds", "0"][..], "--rounds is 1 to"),
        ("knockout", &[][..], "no format"),
    ] {
        let args = ["serve", "admin", "--data", database, "competition", "create", "--game", "azul"];
        let out = arena(&[&args[..], &["--format", format, "--deadline", "now"], extra].concat());
        assert!(!out.status.success(), "{format} {extra:?}");
        assert!(stderr(&out).contains(refusal), "{format} {extra:?}: {}", stderr(&out));
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

    let single = create(&ladder, "single-elimination", &[]);
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
    assert_eq!(ladder.get(&format!("{path}/database"), None).status, 403, "nor its results as a database");
    // Nor do the ladder's lists, match pages, replays or bot pages show a competition's matches
    // to anyone but an admin.
    let listed = ladder.get("/api/matches?game=azul&limit=500", None).json();
    assert!(listed.as_array().unwrap().iter().all(|one| one["kind"] != "competition"), "{listed}");
    let matches = competition_matches(&ladder, &root);
    assert_eq!(matches.len(), 4, "the admin sees each of the competition's matches");
    let match_pages = |id: &serde_json::Value| {
        [format!("/api/matches/{id}"), format!("/matches/{id}"), format!("/matches/{id}/replay.json")]
    };
    for one in &matches {
        for path in match_pages(&one["id"]) {
            assert_eq!(ladder.get(&path, None).status, 404, "{path} is a hidden competition's");
        }
    }
    let seen = ladder.get_with_token(&path, &root).json();
    assert_eq!(seen["results_visible"], true, "{seen}");
    assert_eq!(ladder.get_with_token(&path, "arena_not-a-token").status, 401);

    ladder.admin(&["competition", "release", &single.to_string(), "--to", "public"]);
    let public = ladder.get(&path, None).json();
    assert_eq!((&public["release"], &public["released_rounds"]), (&"public".into(), &serde_json::Value::Null));
    let lines = standings(&public);
    assert_eq!(lines.len(), 3, "{public}");
    assert_eq!((lines[0].0, lines[0].1, lines[0].2.as_str()), (1, 1, "greedy"), "{public}");
    let series = public["series"].as_array().unwrap();
    assert_eq!(series.len(), 2, "{public}");
    for one in series {
        assert!(one["winner"].is_i64() && one["result"]["wins"].is_array(), "{one}");
    }
    assert_eq!(play_rounds(&public), BTreeMap::from([("W1-2".into(), 1), ("W2-1".into(), 2)]), "{public}");
    let page = ladder.get(&format!("/competitions/{single}"), None);
    assert_eq!(page.status, 200);
    assert!(page.body.contains("Standings") && page.body.contains("greedy"), "{}", page.body);
    assert!(page.body.contains("&lt;single-elimination&gt;"), "the name escaped");
    assert!(page.body.contains(&format!("/api/competitions/{single}/database")), "the download is linked");
    // Public: its matches' pages and replays are everyone's.
    for path in match_pages(&matches[0]["id"]) {
        assert_eq!(ladder.get(&path, None).status, 200, "{path} is a public competition's");
    }

    let double = create(&ladder, "double-elimination", &[]);
    let path = format!("/api/competitions/{double}");
    let finished = ladder.wait_for(&path, 240, |view| view["state"] == "done");
    ladder.admin(&["competition", "release", &double.to_string(), "--to", "participants", "--rounds", "1"]);
    assert_eq!(ladder.get(&path, None).json()["results_visible"], false);
    // Round 1 only: the one series of round 1 (the top seed has a bye), nobody placed yet.
    let first = ladder.get_with_token(&path, &alice).json();
    assert_eq!((&first["results_visible"], &first["results_up_to_round"]), (&true.into(), &1.into()), "{first}");
    assert_eq!(play_rounds(&first), BTreeMap::from([("W1-2".into(), 1)]), "{first}");
    assert!(first["series"][0]["result"]["wins"].is_array() && standings(&first).is_empty(), "{first}");
    ladder.admin(&["competition", "release", &double.to_string(), "--to", "participants"]);
    let shown = ladder.get_with_token(&path, &alice).json();
    assert_eq!(shown["results_visible"], true, "alice owns the entrants: {shown}");
    let places: Vec<u64> = standings(&shown).iter().map(|line| line.0).collect();
    assert_eq!(places, [1, 2, 3], "{shown}");
    assert!(finished["matches"][0].as_u64().unwrap() >= 8, "at least 4 series of 2 matches: {finished}");
    let listed = ladder.get("/api/competitions", None).json();
    assert_eq!(listed.as_array().unwrap().len(), 2);
    assert_eq!(listed[0]["id"], double, "newest first");

    let audit = ladder.admin(&["audit"]);
    assert!(audit.contains("competition-create") && audit.contains("competition-release"), "{audit}");
    assert!(audit.contains("(rounds 1 to 1)") && audit.contains("(every round)"), "{audit}");
}

#[test]
fn a_round_robin_is_released_round_by_round_and_downloads_as_a_tournament_database_show_reads() {
    let (ladder, root, _) = three_bots("ladder-competition-database");
    let id = create(&ladder, "round-robin", &[]);
    let path = format!("/api/competitions/{id}");
    let all = ladder.wait_for(&path, 180, |view| view["state"] == "done");
    assert_eq!(all["matches"], serde_json::json!([6, 6]), "3 pairings of 1 seed in both seat orders: {all}");
    assert_eq!(ladder.get(&format!("{path}/database"), None).status, 403, "hidden");
    assert_eq!(ladder.get_with_token(&format!("{path}/database"), &root).status, 200, "an admin's");
    // 3 entrants: 3 rounds of one pairing each (one entrant sits each round out).
    let admin = ladder.get_with_token(&path, &root).json();
    let rounds = play_rounds(&admin);
    let mut numbers: Vec<u64> = rounds.values().copied().collect();
    numbers.sort_unstable();
    assert_eq!(numbers, [1, 2, 3], "{admin}");

    let scratch = fresh_scratch("ladder-competition-database-files");
    let show = |name: &str| -> serde_json::Value {
        let file = scratch.join(name);
        std::fs::write(&file, ladder.get_bytes(&format!("{path}/database"))).unwrap();
        let out = arena(&["tournament", "show", file.to_str().unwrap(), "--format", "json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        serde_json::from_str(&stdout(&out)).unwrap()
    };

    // Round 1 released: its pairing's two matches, to everyone, and nothing of the others.
    ladder.admin(&["competition", "release", &id.to_string(), "--to", "public", "--rounds", "1"]);
    let first = ladder.get(&path, None).json();
    assert_eq!(first["results_up_to_round"], 1, "{first}");
    let pairing = rounds.iter().find(|(_, round)| **round == 1).unwrap().0.clone();
    assert_eq!(play_rounds(&first), BTreeMap::from([(pairing.clone(), 1)]), "{first}");
    assert_eq!(standings(&first).len(), 2, "the two that played round 1: {first}");
    let board = show("round-1.sqlite");
    assert_eq!((&board["matches_played"], board["leaderboard"].as_array().unwrap().len()), (&2.into(), 2), "{board}");
    let page = ladder.get(&format!("/competitions/{id}"), None).body;
    assert!(page.contains("After round 1"), "{page}");
    for one in competition_matches(&ladder, &root) {
        let expected = if label(&one) == pairing { 200 } else { 404 };
        assert_eq!(ladder.get(&format!("/matches/{}", one["id"]), None).status, expected, "{one}");
    }

    // Every round: the API's standings are the database's, as `arena tournament show` reads it.
    ladder.admin(&["competition", "release", &id.to_string(), "--to", "public"]);
    let public = ladder.get(&path, None).json();
    let board = show("all.sqlite");
    assert_eq!(board["matches_played"], 6, "{board}");
    let lines = public["standings"].as_array().unwrap();
    let shown = board["leaderboard"].as_array().unwrap();
    assert_eq!(lines.len(), 3, "{public}");
    assert_eq!(shown.len(), 3, "{board}");
    for (line, standing) in lines.iter().zip(shown) {
        let name = standing["bot"].as_str().unwrap();
        assert_eq!(name.split('@').next(), line["bot"].as_str(), "same order: {public} {board}");
        let (rating, wins) = (standing["rating"].as_f64().unwrap(), standing["wins"].as_u64());
        assert!((rating - line["rating"].as_f64().unwrap()).abs() < 1e-6, "{line} {standing}");
        assert_eq!(wins, line["wins"].as_u64(), "{line} {standing}");
    }
    let site = scratch.join("site");
    let report =
        arena(&["tournament", "report", scratch.join("all.sqlite").to_str().unwrap(), "-o", site.to_str().unwrap()]);
    assert!(report.status.success(), "{}", stderr(&report));
    assert!(std::fs::read_to_string(site.join("index.html")).unwrap().contains("greedy@"));
}

#[test]
fn swiss_and_gauntlet_competitions_are_paired_and_played_by_the_service() {
    let (ladder, root, _) = three_bots("ladder-competition-swiss");
    // Swiss, 3 entrants: ⌈log2 3⌉ = 2 rounds; round 1 pairs seeds 1 and 2 (seed 3 sits out),
    // round 2 pairs by the standings so far, never the same two again.
    let swiss = create(&ladder, "swiss", &[]);
    let gauntlet = create(&ladder, "gauntlet", &["--pool", "random"]);
    let swiss_path = format!("/api/competitions/{swiss}");
    ladder.wait_for(&swiss_path, 180, |view| view["state"] == "done");
    let view = ladder.get_with_token(&swiss_path, &root).json();
    assert_eq!(view["matches"], serde_json::json!([4, 4]), "2 rounds of one pairing: {view}");
    let series = view["series"].as_array().unwrap();
    let seeds: Vec<i64> =
        view["entrant_list"].as_array().unwrap().iter().map(|one| one["version_id"].as_i64().unwrap()).collect();
    assert_eq!(series.len(), 2, "{view}");
    assert_eq!((&series[0]["play_round"], &series[1]["play_round"]), (&1.into(), &2.into()), "{view}");
    assert_eq!(series[0]["id"], format!("V{}-V{}", seeds[0].min(seeds[1]), seeds[0].max(seeds[1])), "{view}");
    assert_ne!(series[0]["id"], series[1]["id"], "never twice: {view}");
    assert!(series.iter().all(|one| one["result"]["wins"].is_array()), "{view}");
    assert_eq!(standings(&view).len(), 3, "{view}");

    // Gauntlet: greedy and stdio (the challengers) each play random (the pool), in round 1.
    let gauntlet_path = format!("/api/competitions/{gauntlet}");
    ladder.wait_for(&gauntlet_path, 180, |view| view["state"] == "done");
    let view = ladder.get_with_token(&gauntlet_path, &root).json();
    assert_eq!(view["pool"], serde_json::json!(["random"]), "{view}");
    let entrants = view["entrant_list"].as_array().unwrap();
    let pool: Vec<&serde_json::Value> = entrants.iter().filter(|one| one["pool"] == true).collect();
    assert_eq!((pool.len(), &pool[0]["bot"]), (1, &"random".into()), "{view}");
    assert_eq!(view["matches"], serde_json::json!([4, 4]), "{view}");
    let series = view["series"].as_array().unwrap();
    assert_eq!(series.len(), 2, "{view}");
    for one in series {
        assert_eq!((&one["play_round"], &one["names"][1]), (&1.into(), &"random".into()), "{one}");
    }
    assert_eq!(standings(&view).len(), 3, "{view}");
    ladder.admin(&["competition", "release", &gauntlet.to_string(), "--to", "public"]);
    let page = ladder.get(&format!("/competitions/{gauntlet}"), None).body;
    assert!(page.contains("the gauntlet&#39;s pool") || page.contains("the gauntlet's pool"), "{page}");
}
