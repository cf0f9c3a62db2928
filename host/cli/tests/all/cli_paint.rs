//! The `arena` command line playing Paint, what is particular to it (what every game does is
//! `cli_games.rs`'s): a board option played and recorded, scores and ranks in the result, a bad
//! board and a bot for another game refused. Needs the example bots (`cargo xtask bots`).

use crate::common::{arena, assert_clean_seats, assert_replay_identical, bot, match_json, scratch, stderr};

/// `--option board=seven_by_thirteen`: the match plays the template's 130 turns and `--json`
/// reports every player's score, rank, fuel and fault counters; `replay verify` says identical.
#[test]
fn a_seven_by_thirteen_match_reports_json_and_its_replay_verifies() {
    let replay = scratch("seven.json");
    let (greedy, random) = (bot("paint-greedy"), bot("paint-random"));
    let json = match_json(
        "paint",
        &[&greedy, &random, "--option", "board=seven_by_thirteen", "--seed", "3", "--replay", replay.to_str().unwrap()],
    );
    assert_clean_seats(&json, &["paint-greedy", "paint-random"]);
    assert_eq!(json["seed"], 3);
    assert_eq!(json["turns"], 130, "seven_by_thirteen plays 130 turns");
    assert_eq!(json["winner"], 0, "greedy wins: {json}");
    for (seat, player) in json["players"].as_array().unwrap().iter().enumerate() {
        assert_eq!(player["sha256"].as_str().unwrap().len(), 64);
        assert!(player["score"].as_i64().unwrap() >= 1, "its start square at least: {player}");
        assert_eq!(player["rank"], seat + 1);
    }
    let recorded: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    assert_eq!(recorded["config"]["board"], "seven_by_thirteen");
    assert_replay_identical(&replay);
}

/// A bad board name and a bot for another game are refused with status 2.
#[test]
fn a_bad_board_and_a_bot_for_another_game_are_refused() {
    let (greedy, random) = (bot("paint-greedy"), bot("paint-random"));
    let out = arena(&["match", "--game", "paint", &greedy, &random, "--option", "board=nine_by_nine"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("nine_by_nine"), "{}", stderr(&out));

    let out = arena(&["match", "--game", "paint", &greedy, &bot("azul-random")]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(err.contains("arena:azul/player@0.2.0") && err.contains("expected arena:paint/player@0.1.0"), "{err}");
}
