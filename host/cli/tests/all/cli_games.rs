//! Every registered game through the command line, from one table: the registry itself
//! (`arena games --json`). Each game is listed as the registry describes it, with its example
//! bots; its strong example beats its random one from either seat; a game that seats more than
//! two plays a full table; a game with a line protocol plays its line-protocol example; every
//! seat's books are clean (fuel spent, no fault) and every match's replay verifies as identical.
//! A game added to the registry is covered here with no line of its own. What is particular to
//! one game (its options, its maps) is in that game's `cli_<game>.rs`. Needs the example bots
//! (`cargo xtask bots`).

use crate::common::{
    arena, assert_clean_seats, assert_replay_identical, bot, listed_games, match_json, scratch, stderr,
};

/// The example bot of `role` (`strong`, `random`, `stdio`) of `game` as listed, if it has one.
fn example<'a>(game: &'a serde_json::Value, role: &str) -> Option<&'a str> {
    game["examples"][role].as_str()
}

/// Plays `bots` (example names) in `game` on seed 1, checks every seat's books and the replay,
/// and returns the result.
fn play_clean(game: &str, bots: &[&str], label: &str) -> serde_json::Value {
    let paths: Vec<String> = bots.iter().map(|name| bot(name)).collect();
    let replay = scratch(&format!("{game}-{label}.json"));
    let mut args = vec!["--seed", "1", "--replay", replay.to_str().unwrap()];
    args.extend(paths.iter().map(String::as_str));
    let json = match_json(game, &args);
    assert_clean_seats(&json, bots);
    assert_replay_identical(&replay);
    json
}

#[test]
fn every_game_is_listed_as_the_registry_describes_it() {
    let infos: Vec<_> = arena_host::registry::games().iter().map(|game| game.info()).collect();
    let listed = listed_games();
    assert_eq!(serde_json::Value::Array(listed.clone()), serde_json::to_value(&infos).unwrap());
    for game in &listed {
        let name = game["name"].as_str().unwrap();
        let commands = game["bot_kinds"].as_array().unwrap().iter().any(|kind| {
            let kind = kind.as_str().unwrap();
            kind.starts_with("WASI command") && kind.contains("original protocol")
        });
        assert_eq!(commands, example(game, "stdio").is_some(), "{name}: a line protocol comes with its example");
        let world = format!("arena:{name}/player@");
        assert!(game["bot_kinds"][0].as_str().unwrap().contains(&world), "{name}: {game}");
    }
}

#[test]
fn every_games_strong_example_beats_its_random_one_from_either_seat() {
    for game in &listed_games() {
        let name = game["name"].as_str().unwrap();
        let (strong, random) = (example(game, "strong").unwrap(), example(game, "random").unwrap());
        let players = game["min_players"].as_u64().unwrap() as usize;
        for strong_seat in [0, 1] {
            let bots: Vec<&str> = (0..players).map(|seat| if seat == strong_seat { strong } else { random }).collect();
            let json = play_clean(name, &bots, &format!("examples-{strong_seat}"));
            assert_eq!(json["winner"], strong_seat, "{name}: {strong} in seat {strong_seat} wins: {json}");
        }
    }
}

/// A game that seats more than two plays its strong example against random ones in up to four
/// seats, and the strong one wins.
#[test]
fn every_game_that_seats_more_than_two_plays_a_full_table() {
    for game in listed_games().iter().filter(|game| game["max_players"].as_u64().unwrap() > 2) {
        let name = game["name"].as_str().unwrap();
        let seats = game["max_players"].as_u64().unwrap().min(4) as usize;
        let mut bots = vec![example(game, "random").unwrap(); seats];
        bots[0] = example(game, "strong").unwrap();
        let json = play_clean(name, &bots, "table");
        assert_eq!(json["winner"], 0, "{name}: the strong example wins: {json}");
    }
}

/// A game with a line protocol plays its line-protocol example (a WASI command) against its
/// strong WIT example, from either seat, with clean books.
#[test]
fn every_line_protocol_game_plays_its_command_example_against_a_component() {
    for game in &listed_games() {
        let Some(stdio) = example(game, "stdio") else { continue };
        let name = game["name"].as_str().unwrap();
        let strong = example(game, "strong").unwrap();
        let players = game["min_players"].as_u64().unwrap() as usize;
        for stdio_seat in [0, 1] {
            let bots: Vec<&str> = (0..players).map(|seat| if seat == stdio_seat { stdio } else { strong }).collect();
            play_clean(name, &bots, &format!("stdio-{stdio_seat}"));
        }
    }
}

/// A game without a line protocol refuses a command (another game's line-protocol example) with
/// one line naming the export it lacks.
#[test]
fn a_game_without_a_line_protocol_refuses_a_command() {
    let games = listed_games();
    let Some(stdio) = games.iter().find_map(|game| example(game, "stdio")) else { return };
    let Some(other) = games.iter().find(|game| example(game, "stdio").is_none()) else {
        return; // every game speaks a line protocol: nothing to refuse
    };
    let name = other["name"].as_str().unwrap();
    let stdio = bot(stdio);
    let out = arena(&["match", "--game", name, &stdio, &stdio]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(err.contains(&stdio) && err.contains("wasi:cli/run@0.2"), "{err}");
}
