//! The `arena` command line playing Paint: `match --game paint` with options and more than two
//! bots, `replay verify`, `games`. Needs the example bots (`cargo xtask bots`).

use crate::common;

use common::{arena, bot, scratch, stderr, stdout};

/// `--option board=seven_by_thirteen`: the match plays the template's 130 turns and `--json`
/// reports every player's score, rank, fuel and fault counters; `replay verify` says identical.
#[test]
fn a_seven_by_thirteen_match_reports_json_and_its_replay_verifies() {
    let replay = scratch("seven.json");
    let (greedy, random) = (bot("paint-greedy"), bot("paint-random"));
    let out = arena(&[
        "match",
        "--game",
        "paint",
        &greedy,
        &random,
        "--option",
        "board=seven_by_thirteen",
        "--seed",
        "3",
        "--json",
        "--replay",
        replay.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.trim().lines().count(), 1, "one line of JSON: {text}");
    let json: serde_json::Value = serde_json::from_str(text.trim()).unwrap();
    assert_eq!(json["game"], "paint");
    assert_eq!(json["seed"], 3);
    assert_eq!(json["turns"], 130, "seven_by_thirteen plays 130 turns");
    assert_eq!(json["winner"], 0, "greedy wins: {json}");
    let players = json["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    for (seat, player) in players.iter().enumerate() {
        assert_eq!(player["bot"], ["paint-greedy", "paint-random"][seat]);
        assert_eq!(player["sha256"].as_str().unwrap().len(), 64);
        assert!(player["score"].as_i64().unwrap() >= 1, "its start square at least: {player}");
        assert_eq!(player["rank"], seat + 1);
        assert_eq!(player["forfeit"], false);
        assert!(player["fuel_total"].as_u64().unwrap() > 0, "every bot spends fuel");
        assert!(player["fuel_max_turn"].as_u64().unwrap() <= player["fuel_total"].as_u64().unwrap());
        for counter in ["skipped_turns", "traps", "invalid_actions"] {
            assert_eq!(player[counter], 0, "{counter}");
        }
    }
    let recorded: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    assert_eq!(recorded["config"]["board"], "seven_by_thirteen");

    let verify = arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert_eq!(verify.status.code(), Some(0), "{}", stderr(&verify));
    assert_eq!(stdout(&verify).trim(), "identical");
}

/// Three bots on the default board (the symmetric placement) play, and the human table lists
/// every seat; a replay of it verifies.
#[test]
fn three_bots_play_and_verify() {
    let replay = scratch("three.json");
    let (greedy, random) = (bot("paint-greedy"), bot("paint-random"));
    let out = arena(&["match", "--game", "paint", &random, &greedy, &random, "--replay", replay.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("paint seed "), "{text}");
    let seats: Vec<&str> = text.lines().filter(|line| line.split(' ').next().unwrap().parse::<u8>().is_ok()).collect();
    assert_eq!(seats.len(), 3, "one line per seat: {text}");
    assert!(seats.iter().all(|line| line.contains("paint-") && line.ends_with("ok")), "{text}");
    let verify = arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert_eq!(verify.status.code(), Some(0), "{}", stderr(&verify));
    assert_eq!(stdout(&verify).trim(), "identical");
}

/// `arena games` lists paint with 2..=8 players, its options and the WIT bot kind; a bad board
/// name and a bot for another game are refused with status 2.
#[test]
fn paint_is_listed_and_bad_input_refused() {
    let out = arena(&["games", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let games: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let paint = games.as_array().unwrap().iter().find(|game| game["name"] == "paint").expect("paint is listed");
    assert_eq!((paint["min_players"].as_u64(), paint["max_players"].as_u64()), (Some(2), Some(8)));
    let options: Vec<&str> = paint["options"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(options, ["board", "placement", "turns", "obstacles"]);
    let kinds = paint["bot_kinds"].as_array().unwrap();
    assert!(kinds.iter().any(|kind| kind.as_str().unwrap().contains("arena:paint/player@0.1.0")), "{kinds:?}");

    let (greedy, random) = (bot("paint-greedy"), bot("paint-random"));
    let out = arena(&["match", "--game", "paint", &greedy, &random, "--option", "board=nine_by_nine"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("nine_by_nine"), "{}", stderr(&out));

    let out = arena(&["match", "--game", "paint", &greedy, &bot("azul-random")]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("arena:azul/player@0.2.0") && err.contains("expected arena:paint/player@0.1.0"), "{err}");
}
