//! Every registered game through the command line, from one table: the registry itself
//! (`arena games --json`). Each game is listed with its example bots; its strong example beats its
//! random one from either seat; every seat's books are clean (fuel spent, no fault); and each
//! match's replay verifies as identical. A game added to the registry is covered here with no
//! line of its own. Needs the example bots (`cargo xtask bots`).

use crate::common::{arena, bot, scratch, stderr, stdout};

/// `arena games --json`: every game's info.
fn listed_games() -> Vec<serde_json::Value> {
    let out = arena(&["games", "--json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    serde_json::from_str::<serde_json::Value>(stdout(&out).trim()).unwrap().as_array().unwrap().clone()
}

#[test]
fn every_game_lists_its_example_bots_and_the_strong_one_beats_the_random_one_from_either_seat() {
    let games = listed_games();
    assert_eq!(
        games.iter().map(|game| game["name"].as_str().unwrap()).collect::<Vec<_>>(),
        arena_host::registry::game_names(),
        "arena games lists the registry's games in its order"
    );
    for game in &games {
        let name = game["name"].as_str().unwrap();
        let (strong, random) =
            (game["examples"]["strong"].as_str().unwrap(), game["examples"]["random"].as_str().unwrap());
        let players = game["min_players"].as_u64().unwrap() as usize;
        for strong_seat in [0, 1] {
            let names: Vec<&str> = (0..players).map(|seat| if seat == strong_seat { strong } else { random }).collect();
            let paths: Vec<String> = names.iter().map(|name| bot(name)).collect();
            let replay = scratch(&format!("{name}-examples-{strong_seat}.json"));
            let mut args = vec!["match", "--game", name, "--seed", "1", "--json", "--replay", replay.to_str().unwrap()];
            args.extend(paths.iter().map(String::as_str));
            let out = arena(&args);
            assert_eq!(out.status.code(), Some(0), "{name}: {}", stderr(&out));
            let json: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
            assert_eq!(json["game"], name);
            let seats = json["players"].as_array().unwrap();
            assert_eq!(seats.len(), players, "{name}");
            for (seat, player) in seats.iter().enumerate() {
                assert_eq!(player["bot"], names[seat], "{name} seat {seat}");
                assert!(player["fuel_total"].as_u64().unwrap() > 0, "{name} seat {seat}: {player}");
                assert!(player["fuel_max_turn"].as_u64().unwrap() <= player["fuel_total"].as_u64().unwrap());
                for counter in ["skipped_turns", "traps", "invalid_actions"] {
                    assert_eq!(player[counter], 0, "{name} seat {seat} {counter}");
                }
                assert_eq!(player["forfeit"], false, "{name} seat {seat}");
            }
            assert_eq!(json["winner"], strong_seat, "{name}: {strong} in seat {strong_seat} wins: {json}");
            let verify = arena(&["replay", "verify", replay.to_str().unwrap()]);
            assert_eq!(stdout(&verify).trim(), "identical", "{name}: {}", stderr(&verify));
        }
    }
}
