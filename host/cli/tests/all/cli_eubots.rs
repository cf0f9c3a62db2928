//! Eubots through the `arena` command line, what is particular to it (what every game does is
//! `cli_games.rs`'s): a map file is accepted (and a bad one refused naming its line and column),
//! and an over-long answer shows as an invalid action in the result. Needs the bots
//! (`cargo xtask bots`).

use crate::common::{arena, assert_replay_identical, bot, match_json, scratch, stderr, stdout};

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
    let json = match_json("eubots", &[&swarm, &random, "--option", &option, "--replay", replay.to_str().unwrap()]);
    assert_eq!(json["winner"], 0, "{json}");
    std::fs::remove_file(&map).unwrap();
    assert_replay_identical(&replay);

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
    let json = match_json("eubots", &[&bot("fx-eubots-flood"), &bot("eubots-swarm"), "--seed", "1"]);
    let players = json["players"].as_array().unwrap();
    assert_eq!(players[0]["invalid_actions"].as_u64(), json["turns"].as_u64(), "{json}");
    assert_eq!(players[1]["invalid_actions"], 0);
    assert_eq!(json["winner"], 1);
}
