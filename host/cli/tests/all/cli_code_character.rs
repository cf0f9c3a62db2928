//! The `arena` command line playing Code Character, what is particular to it (what every game
//! does is `cli_games.rs`'s): the turns option, mirror-exact seats, a map file. Needs the example
//! bots (`cargo xtask bots`).

use crate::common::{arena, assert_clean_seats, assert_replay_identical, bot, match_json, scratch, stderr};

/// `--option turns=50 --json`: one JSON object with both players; `replay verify` says
/// identical.
#[test]
fn a_fifty_turn_match_reports_json_and_its_replay_verifies() {
    let replay = scratch("fifty.json");
    let (default, rush) = (bot("cc-default"), bot("cc-rush"));
    let json =
        match_json("code-character", &[&default, &rush, "--option", "turns=50", "--replay", replay.to_str().unwrap()]);
    assert_clean_seats(&json, &["cc-default", "cc-rush"]);
    assert_eq!(json["turns"], 50);
    let recorded: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
    assert_eq!(recorded["config"]["turns"], 50);
    assert_replay_identical(&replay);
}

/// Scores, total fuel and the winner of a full default-length match, `--json`.
fn full_match(seat0: &str, seat1: &str, seed: &str) -> (Vec<i64>, Vec<u64>, serde_json::Value) {
    let json = match_json("code-character", &[&bot(seat0), &bot(seat1), "--seed", seed]);
    let players = json["players"].as_array().unwrap();
    assert_eq!(json["turns"], 1000);
    let scores = players.iter().map(|p| p["score"].as_i64().unwrap()).collect();
    let fuel = players.iter().map(|p| p["fuel_total"].as_u64().unwrap()).collect();
    (scores, fuel, json["winner"].clone())
}

/// The seats are mirror-exact. `cc-default` (and `cc-rush`) against a copy of itself
/// see the same views in both seats, so every turn's points tie: a 0-0 draw with the very same
/// fuel, whatever the seed. And `cc-default` against `cc-rush` gives each bot the same score and
/// fuel in either seat.
#[test]
fn self_play_draws_with_equal_fuel_and_seats_swap_exactly() {
    for seed in ["0", "5"] {
        let (scores, fuel, winner) = full_match("cc-default", "cc-default", seed);
        assert_eq!((scores, winner), (vec![0, 0], serde_json::Value::Null), "seed {seed}: a draw");
        assert_eq!(fuel[0], fuel[1], "seed {seed}: equal fuel");
        assert!(fuel[0] > 0);
    }
    let (scores, fuel, _) = full_match("cc-rush", "cc-rush", "1");
    assert_eq!((scores[0], fuel[0]), (scores[1], fuel[1]), "cc-rush: a draw with equal fuel");
    let (scores, fuel, winner) = full_match("cc-default", "cc-rush", "2");
    let (swapped_scores, swapped_fuel, swapped_winner) = full_match("cc-rush", "cc-default", "2");
    assert_eq!((scores[0], scores[1]), (swapped_scores[1], swapped_scores[0]), "scores follow the bots");
    assert_eq!((fuel[0], fuel[1]), (swapped_fuel[1], swapped_fuel[0]), "fuel follows the bots");
    assert_eq!((winner, swapped_winner), (serde_json::json!(0), serde_json::json!(1)), "cc-default wins in both seats");
}

/// `--option map=FILE`: the map's contents go into the replay, which verifies; a map that is not
/// point-symmetric is refused with status 2.
#[test]
fn a_map_file_is_played_and_a_bad_one_refused() {
    let mut lines = vec!["L".repeat(30); 30];
    lines[10] = format!("{}F{}", "L".repeat(10), "L".repeat(19));
    lines[19] = format!("{}F{}", "L".repeat(19), "L".repeat(10));
    let map = scratch("two-flags.txt");
    std::fs::write(&map, lines.join("\n")).unwrap();
    let replay = scratch("two-flags.json");
    let (default, rush) = (bot("cc-default"), bot("cc-rush"));
    let map_option = format!("map={}", map.to_str().unwrap());
    let out = arena(&[
        "match",
        "--game",
        "code-character",
        &rush,
        &default,
        "--option",
        &map_option,
        "--option",
        "turns=30",
        "--replay",
        replay.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_replay_identical(&replay);

    lines[0] = format!("W{}", "L".repeat(29));
    let bad = scratch("asymmetric.txt");
    std::fs::write(&bad, lines.join("\n")).unwrap();
    let bad_option = format!("map={}", bad.to_str().unwrap());
    let out = arena(&["match", "--game", "code-character", &rush, &default, "--option", &bad_option]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("symmetric"), "{}", stderr(&out));
}
