//! The `arena` command line with a Paint line-protocol bot (a WASI command speaking paint.md's
//! original JSON protocol): a match against a WIT bot, its replay verified, and the bot kinds
//! `arena games` lists for paint. Needs the example bots (`cargo xtask bots`).

use crate::common;

use common::{arena, bot, stderr, stdout};

/// `arena match --game paint paint-stdio-random.wasm paint-greedy.wasm --json` plays a whole
/// match without faults, and its replay verifies.
#[test]
fn a_paint_stdio_bot_plays_a_wit_bot_from_the_command_line() {
    let replay = common::scratch("paint-stdio.json");
    let replay = replay.to_str().unwrap();
    let (stdio, greedy) = (bot("paint-stdio-random"), bot("paint-greedy"));
    let out = arena(&["match", "--game", "paint", &stdio, &greedy, "--json", "--replay", replay]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(json["game"], "paint");
    assert_eq!(json["turns"], 100);
    let players = json["players"].as_array().unwrap();
    assert_eq!(players[0]["bot"], "paint-stdio-random");
    assert_eq!(players[1]["bot"], "paint-greedy");
    for player in players {
        assert!(player["fuel_total"].as_u64().unwrap() > 0, "{player}");
        assert_eq!(player["forfeit"], false, "{player}");
        for counter in ["skipped_turns", "traps", "invalid_actions"] {
            assert_eq!(player[counter], 0, "{counter}: {player}");
        }
    }

    let verify = arena(&["replay", "verify", replay]);
    assert_eq!(verify.status.code(), Some(0), "{}", stderr(&verify));
    assert_eq!(stdout(&verify).trim(), "identical");
}

/// `arena games` lists the WASI command kind for paint, naming its protocol.
#[test]
fn paint_lists_the_command_kind() {
    let out = arena(&["games", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let games: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let paint = games.as_array().unwrap().iter().find(|game| game["name"] == "paint").unwrap();
    let kinds = paint["bot_kinds"].as_array().unwrap();
    assert!(kinds.iter().any(|kind| kind.as_str().unwrap().contains("paint-json")), "{kinds:?}");
}
