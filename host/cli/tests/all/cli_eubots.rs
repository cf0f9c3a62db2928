//! Eubots through the `arena` command line: the game is listed with its options, a 4-player
//! match with four bot files runs and its replay verifies, a map file is accepted (and a bad one
//! refused naming its line and column), and an over-long answer shows as an invalid action in
//! the result. Needs the bots (`cargo xtask bots`).

use crate::common;

use common::{arena, bot, scratch, stderr, stdout};

/// Runs `arena match --game eubots ... --json` and returns the result.
fn play_json(args: &[&str]) -> serde_json::Value {
    let mut full = vec!["match", "--game", "eubots", "--json"];
    full.extend_from_slice(args);
    let out = arena(&full);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_str(stdout(&out).trim()).unwrap()
}

/// `arena games` lists Eubots with 2..=8 players, its options and the world its bots export.
#[test]
fn eubots_is_listed_with_its_options() {
    let out = arena(&["games", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let games: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let eubots = games.as_array().unwrap().iter().find(|game| game["name"] == "eubots").expect("eubots is listed");
    assert_eq!((eubots["min_players"].as_u64(), eubots["max_players"].as_u64()), (Some(2), Some(8)));
    let options: Vec<&str> =
        eubots["options"].as_array().unwrap().iter().map(|o| o["name"].as_str().unwrap()).collect();
    assert_eq!(options, ["map", "unequal"]);
    assert!(eubots["bot_kinds"][0].as_str().unwrap().contains("arena:eubots/player@0.2.0"), "{eubots}");
}

/// A 4-player match with four bot files (the swarm against three random bots, one
/// per corner) runs to its end, reports every seat's fuel and faults, and `arena replay verify`
/// re-runs it identically.
#[test]
fn a_four_player_match_runs_and_its_replay_verifies() {
    let replay = scratch("four.json");
    let bots = [bot("eubots-swarm"), bot("eubots-random"), bot("eubots-random"), bot("eubots-random")];
    let mut args: Vec<&str> = bots.iter().map(String::as_str).collect();
    args.extend(["--seed", "4", "--replay", replay.to_str().unwrap()]);
    let json = play_json(&args);
    assert_eq!(json["game"], "eubots");
    assert!(json["turns"].as_u64().unwrap() > 0);
    let players = json["players"].as_array().unwrap();
    assert_eq!(players.len(), 4);
    for (seat, player) in players.iter().enumerate() {
        let expected = ["eubots-swarm", "eubots-random", "eubots-random", "eubots-random"][seat];
        assert_eq!(player["bot"], expected);
        assert!(player["fuel_total"].as_u64().unwrap() > 0, "{player}");
        assert!(player["fuel_max_turn"].as_u64().unwrap() <= player["fuel_total"].as_u64().unwrap());
        for counter in ["skipped_turns", "traps", "invalid_actions"] {
            assert_eq!(player[counter], 0, "seat {seat} {counter}");
        }
        assert_eq!(player["forfeit"], false);
    }
    assert_eq!(json["winner"], 0, "the swarm wins: {json}");

    let verify = arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert_eq!(verify.status.code(), Some(0), "{}", stderr(&verify));
    assert_eq!(stdout(&verify).trim(), "identical");
}

/// `--option map=FILE`: the file's contents go into the replay (which verifies without the
/// file); a file with a bad character is refused before the match (status 2) naming its line
/// and column.
#[test]
fn a_map_file_is_played_and_a_bad_one_refused() {
    let map = scratch("small.map");
    std::fs::write(&map, "1..#...2\n1..#...2\n1......2\n").unwrap();
    let replay = scratch("small.json");
    let option = format!("map={}", map.display());
    let (swarm, random) = (bot("eubots-swarm"), bot("eubots-random"));
    let json = play_json(&[&swarm, &random, "--option", &option, "--replay", replay.to_str().unwrap()]);
    assert_eq!(json["winner"], 0, "{json}");
    std::fs::remove_file(&map).unwrap();
    let verify = arena(&["replay", "verify", replay.to_str().unwrap()]);
    assert_eq!(stdout(&verify).trim(), "identical", "{}", stderr(&verify));

    let bad = scratch("bad.map");
    std::fs::write(&bad, "1..\n.x2\n").unwrap();
    let option = format!("map={}", bad.display());
    let out = arena(&["match", "--game", "eubots", &swarm, &random, "--option", &option]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    let err = stderr(&out);
    assert!(err.contains("line 2, column 2"), "{err}");
}

/// An over-long answer (`fx-eubots-flood`) is an invalid action every turn, counted in the
/// result; the match completes and the opponent wins.
#[test]
fn an_over_long_answer_counts_as_an_invalid_action() {
    let json = play_json(&[&bot("fx-eubots-flood"), &bot("eubots-swarm"), "--seed", "1"]);
    let players = json["players"].as_array().unwrap();
    assert_eq!(players[0]["invalid_actions"].as_u64(), json["turns"].as_u64(), "{json}");
    assert_eq!(players[1]["invalid_actions"], 0);
    assert_eq!(json["winner"], 1);
}
