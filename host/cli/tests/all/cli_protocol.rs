//! The `arena` command line with line-protocol bots (WASI commands): a match between a stdio bot
//! and a WIT bot, its replay verified, the accepted bot kinds listed, and a command refused by a
//! game without a line protocol. Needs the example bots (`cargo xtask bots`).

use crate::common;

use common::{arena, bot, stderr, stdout};

/// `arena match --game azul azul-stdio-random.wasm azul-greedy.wasm` plays, and
/// its replay verifies.
#[test]
fn a_stdio_bot_plays_a_wit_bot_from_the_command_line() {
    let replay = common::scratch("stdio.json");
    let replay = replay.to_str().unwrap();
    let (stdio, greedy) = (bot("azul-stdio-random"), bot("azul-greedy"));
    let out = arena(&["match", "--game", "azul", &stdio, &greedy, "--seed", "4", "--json", "--replay", replay]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let players = json["players"].as_array().unwrap();
    assert_eq!(players[0]["bot"], "azul-stdio-random");
    assert_eq!(players[1]["bot"], "azul-greedy");
    for player in players {
        assert!(player["fuel_total"].as_u64().unwrap() > 0, "{player}");
        for counter in ["skipped_turns", "traps", "invalid_actions"] {
            assert_eq!(player[counter], 0, "{counter}: {player}");
        }
    }

    let verify = arena(&["replay", "verify", replay]);
    assert_eq!(verify.status.code(), Some(0), "{}", stderr(&verify));
    assert_eq!(stdout(&verify).trim(), "identical");
}

/// `arena games` lists the WASI command as a bot kind where a game has a line
/// protocol; a game without one refuses a command with one line naming its export.
#[test]
fn commands_are_listed_where_accepted_and_refused_elsewhere() {
    let out = arena(&["games", "--json"]);
    assert_eq!(out.status.code(), Some(0));
    let games: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    let games = games.as_array().unwrap();
    let kinds = |game: &serde_json::Value| -> Vec<String> {
        game["bot_kinds"].as_array().unwrap().iter().map(|kind| kind.as_str().unwrap().to_owned()).collect()
    };
    let azul = games.iter().find(|game| game["name"] == "azul").unwrap();
    assert!(kinds(azul).iter().any(|kind| kind.starts_with("WASI command") && kind.contains("original protocol")));

    let Some(other) = games.iter().find(|game| !kinds(game).iter().any(|kind| kind.starts_with("WASI command"))) else {
        return; // every game speaks a line protocol: nothing to refuse
    };
    let name = other["name"].as_str().unwrap();
    let stdio = bot("azul-stdio-random");
    let out = arena(&["match", "--game", name, &stdio, &stdio]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains(&stdio) && err.contains("wasi:cli/run@0.2"), "{err}");
}
