//! The `arena` command line with SuiteBot II: a 4-bot match, its replay verified, the game and
//! its options listed. Needs the example bots (`cargo xtask bots`).

use crate::common;

use common::{arena, bot, scratch, stderr, stdout};

/// `arena match --game suitebot` with four bots prints one JSON result with fuel and fault
/// counters per seat, and `arena replay verify` re-runs the recorded match as identical.
#[test]
fn a_four_bot_match_runs_and_its_replay_verifies() {
    let (harvester, random) = (bot("suitebot-harvester"), bot("suitebot-random"));
    let replay = scratch("four-bots.json");
    let out = arena(&[
        "match",
        "--game",
        "suitebot",
        &harvester,
        &random,
        &random,
        &random,
        "--seed",
        "9",
        "--json",
        "--replay",
        replay.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["game"], "suitebot");
    assert_eq!(json["seed"], 9);
    assert_eq!(json["turns"], 100);
    let players = json["players"].as_array().unwrap();
    assert_eq!(players.len(), 4);
    for (seat, player) in players.iter().enumerate() {
        let expected = if seat == 0 { "suitebot-harvester" } else { "suitebot-random" };
        assert_eq!(player["bot"], expected);
        assert!(player["fuel_total"].as_u64().unwrap() > 0, "every bot spends fuel");
        assert!(player["fuel_max_turn"].as_u64().unwrap() <= player["fuel_total"].as_u64().unwrap());
        assert_eq!(player["forfeit"], false);
        for counter in ["skipped_turns", "traps", "invalid_actions"] {
            assert_eq!(player[counter], 0, "seat {seat} {counter}");
        }
    }
    assert_eq!(json["winner"], 0, "the harvester wins: {json}");

    let verify = arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert_eq!(verify.status.code(), Some(0), "{}", stderr(&verify));
    assert_eq!(stdout(&verify).trim(), "identical");
}

/// Options reach the engine (a 3-round game on a 9 x 7 board with radius 2), and a value out of
/// range is a one-line refusal with status 2.
#[test]
fn options_are_applied_and_bad_values_refused() {
    let random = bot("suitebot-random");
    let args = ["match", "--game", "suitebot", &random, &random, "--json", "--option", "rounds=3"];
    let out =
        arena(&[&args[..], &["--option", "width=9", "--option", "height=7", "--option", "blast_radius=2"]].concat());
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["turns"], 3);

    let out = arena(&["match", "--game", "suitebot", &random, &random, "--option", "width=2"]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains("width 2"), "{err}");

    let one = arena(&["match", "--game", "suitebot", &random]);
    assert_eq!(one.status.code(), Some(2));
    assert!(stderr(&one).contains("suitebot takes 2 to 8 bots, 1 given"), "{}", stderr(&one));
}

/// `arena games` lists SuiteBot II with its player counts, its options (from the engine) and the
/// component world it accepts.
#[test]
fn suitebot_is_listed_with_its_options() {
    let out = arena(&["games", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let games: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let game = games.as_array().unwrap().iter().find(|game| game["name"] == "suitebot").expect("suitebot is listed");
    assert_eq!((game["min_players"].as_u64(), game["max_players"].as_u64()), (Some(2), Some(8)));
    let options: Vec<&str> = game["options"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(options, ["width", "height", "rounds", "blast_radius"]);
    assert!(game["bot_kinds"][0].as_str().unwrap().contains("arena:suitebot/player@0.1.0"), "{game}");
    assert!(stdout(&arena(&["games"])).contains("suitebot"));
}
