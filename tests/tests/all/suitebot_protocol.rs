//! SuiteBot II's original JSON-per-round protocol: a plain WASI command bot
//! (`suitebot-stdio-random`, std only) plays WIT bots in one match through the registry, exactly
//! as `arena match` seats it, metered like any bot; and the game option `board` (the board
//! fields as one string per column), which carries the same board for less fuel.
//!
//! Needs the bots built: `cargo xtask bots`.

use arena_game::Game;
use arena_host::Budget;
use arena_host::bot_data::BotFiles;
use arena_host::record::MatchRecord;
use arena_host::registry::find_game;
use arena_host::replay::Verdict;
use arena_suitebot::protocol::{NO_BOMB, state_line};
use arena_suitebot::{Action, BoardEncoding, Suitebot, View};
use arena_tests::{arena, bot_path, play_registered, scratch, turns_of};

fn play(names: [&str; 4], seed: u64) -> (String, MatchRecord<Suitebot>) {
    play_registered("suitebot", &names, seed, Budget::default())
}

/// A protocol bot answers every round in time with a letter that the engine applies, its fuel is
/// charged per round, and the mixed match is deterministic and verifies from its replay.
#[test]
fn a_stdio_bot_plays_wit_bots_for_a_whole_game() {
    let names = ["suitebot-stdio-random", "suitebot-harvester", "suitebot-random", "suitebot-stdio-random"];
    let (replay, record) = play(names, 3);
    assert_eq!(record.turns.len(), 100, "a whole game");
    for seat in [0, 3] {
        let turns = turns_of(&record, seat);
        assert_eq!(turns.len(), 100);
        for turn in &turns {
            assert_eq!(turn.faults, [], "seat {seat} turn faults");
            let answer = turn.answer.as_ref().expect("answered in time");
            assert_ne!(*answer, Action::PlantBomb, "this bot never plants");
            assert!(turn.fuel > 0 && turn.fuel < Budget::default().turn_fuel, "fuel {}", turn.fuel);
        }
        let total: u64 = turns.iter().map(|turn| turn.fuel).sum::<u64>() + record.setup[seat].fuel;
        assert_eq!(total, record.result.players[seat].fuel_total);
    }
    let (again, _) = play(names, 3);
    assert_eq!(replay, again, "same bots and seed, same replay");

    let file = scratch("suitebot-protocol.json");
    std::fs::write(&file, &replay).unwrap();
    let verdict = find_game("suitebot").unwrap().verify(arena(), &file, &[]).unwrap();
    std::fs::remove_file(&file).ok();
    assert_eq!(verdict, arena_host::replay::Verdict::Identical);
}

/// Plays built bots through the registry, as `arena match --option KEY=VALUE` does.
fn play_with(names: &[&str], seed: u64, options: &[(&str, &str)]) -> (String, MatchRecord<Suitebot>) {
    let paths: Vec<_> = names.iter().map(|name| bot_path(name)).collect();
    let options: Vec<(String, String)> = options.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let entry = find_game("suitebot").unwrap();
    let played = entry
        .play(arena(), &BotFiles::all_code_only(&paths), &options, seed, Budget::default())
        .expect("the match is playable");
    let record = serde_json::from_str(&played.replay).expect("the replay parses");
    (played.replay, record)
}

/// A decoded board, `[x][y]`: the field's points and its bomb as (owner id, countdown).
type Fields = Vec<Vec<(u64, Option<(u64, u64)>)>>;

/// The board of a `board=nested` state line (the original arrays of arrays).
fn decode_nested(state: &serde_json::Value) -> Fields {
    let resources = state["fieldResources"].as_array().expect("columns");
    let bombs = state["fieldBombs"].as_array().expect("columns");
    assert_eq!(resources.len(), bombs.len());
    resources
        .iter()
        .zip(bombs)
        .map(|(points, bombs)| {
            let (points, bombs) = (points.as_array().unwrap(), bombs.as_array().unwrap());
            assert_eq!(points.len(), bombs.len());
            let bomb = |bomb: &serde_json::Value| {
                (!bomb.is_null()).then(|| (bomb["ownerId"].as_u64().unwrap(), bomb["countdown"].as_u64().unwrap()))
            };
            points.iter().zip(bombs).map(|(points, bombs)| (points.as_u64().unwrap(), bomb(bombs))).collect()
        })
        .collect()
}

/// The board of a `board=strings` state line: in `fieldResources[x]` character `y` is the points
/// digit; in `fieldBombs[x]` characters `2y`, `2y+1` are the owner id and countdown digits, or `..`.
fn decode_strings(state: &serde_json::Value) -> Fields {
    let column = |value: &serde_json::Value| -> Vec<u64> {
        value.as_str().expect("a string").chars().map(|c| c.to_digit(10).map_or(u64::MAX, u64::from)).collect()
    };
    let resources = state["fieldResources"].as_array().expect("columns");
    let bombs = state["fieldBombs"].as_array().expect("columns");
    assert_eq!(resources.len(), bombs.len());
    resources
        .iter()
        .zip(bombs)
        .map(|(points, bombs)| {
            let text = bombs.as_str().unwrap();
            let (points, bombs) = (column(points), column(bombs));
            assert_eq!(2 * points.len(), text.len());
            let bomb = |y: usize| match text.get(2 * y..2 * y + 2) {
                Some(NO_BOMB) => None,
                _ => Some((bombs[2 * y], bombs[2 * y + 1])),
            };
            points.iter().enumerate().map(|(y, points)| (*points, bomb(y))).collect()
        })
        .collect()
}

/// suitebot.md "Original protocol" and its option `board`: with `strings`, every round's line
/// carries the same board as the original nested arrays (each decoded and compared, over a
/// whole match with bombs going off) and every other field unchanged; the match records the
/// option, and its replay verifies.
#[test]
fn with_board_strings_each_line_carries_the_same_board_as_the_original() {
    let names = ["suitebot-stdio-random", "suitebot-harvester", "suitebot-random", "suitebot-harvester"];
    let (replay, record) = play_with(&names, 4, &[("board", "strings")]);
    assert_eq!(record.config.board, BoardEncoding::Strings, "the option is recorded");
    assert_eq!(record.turns.len(), 100);
    let mut game = Suitebot::new(&record.config, names.len(), record.seed).unwrap();
    let mut bombs_seen = 0;
    for turn in &record.turns {
        for seat in 0..names.len() {
            let view = game.observe(seat);
            assert_eq!(view.board, BoardEncoding::Strings);
            let mut strings: serde_json::Value = serde_json::from_str(&state_line::<&str>(&view, &[])).unwrap();
            let nested = View { board: BoardEncoding::Nested, ..view };
            let mut original: serde_json::Value = serde_json::from_str(&state_line::<&str>(&nested, &[])).unwrap();
            let board = decode_strings(&strings);
            assert_eq!(board, decode_nested(&original), "round {}, seat {seat}", turn.turn);
            assert_eq!(board.len(), 14);
            bombs_seen += board.iter().flatten().filter(|(_, bomb)| bomb.is_some()).count();
            for field in ["fieldResources", "fieldBombs"] {
                strings[field] = serde_json::Value::Null;
                original[field] = serde_json::Value::Null;
            }
            assert_eq!(strings, original, "every other field is the same");
        }
        let applied: Vec<_> = turn.seats.iter().map(|seat| (seat.seat, seat.applied)).collect();
        game.step(&applied).unwrap();
    }
    assert!(bombs_seen > 0, "the harvesters planted");
    let file = scratch("suitebot-board-strings.json");
    std::fs::write(&file, &replay).unwrap();
    let verdict = find_game("suitebot").unwrap().verify(arena(), &file, &[]).unwrap();
    std::fs::remove_file(&file).ok();
    assert_eq!(verdict, Verdict::Identical);
}

/// What the option is for, and why `strings` is the default: a whole default match costs the
/// line-protocol programs that parse every line less game fuel with `strings` than with the
/// original `nested` (the totals measured, every seat), the trivial Python program (`json.loads`
/// of each line, then HOLD) well under half.
#[test]
fn board_strings_costs_the_line_protocol_programs_less_fuel() {
    let fuel = |record: &MatchRecord<Suitebot>| -> Vec<u64> {
        record.result.players.iter().map(|player| player.fuel_total).collect()
    };
    for bot in ["suitebot-stdio-random", "fx-stdio-trivial-suitebot-py"] {
        let (_, nested) = play_with(&[bot, bot], 1, &[("board", "nested")]);
        let (_, strings) = play_with(&[bot, bot], 1, &[]);
        assert_eq!(strings.config.board, BoardEncoding::Strings, "strings is the default");
        for (nested, strings) in fuel(&nested).into_iter().zip(fuel(&strings)) {
            assert!(strings < nested, "{bot}: strings {strings} < nested {nested}");
            if bot.ends_with("-py") {
                assert!(strings * 2 < nested, "{bot}: strings {strings}, nested {nested}");
            }
        }
    }
}

/// The option is the line protocol's: WIT bots get the same view either way and play the same
/// match, answer for answer and fuel for fuel (only the recorded config and the state hashes,
/// which cover it, differ).
#[test]
fn the_board_option_leaves_wit_bots_unaffected() {
    let names = ["suitebot-harvester", "suitebot-random"];
    let (_, nested) = play_with(&names, 3, &[("board", "nested")]);
    let (_, strings) = play_with(&names, 3, &[]);
    let seats = |record: &MatchRecord<Suitebot>| -> Vec<_> {
        record.turns.iter().flat_map(|turn| &turn.seats).map(|seat| (seat.answer, seat.applied, seat.fuel)).collect()
    };
    assert_eq!(seats(&nested), seats(&strings));
    assert_eq!(nested.setup, strings.setup);
    assert_eq!(nested.result, strings.result);
}

/// An unknown value is refused before any bot is loaded, in one line naming the values allowed.
#[test]
fn an_unknown_board_value_is_a_config_error() {
    let options = [("board".to_string(), "rows".to_string())];
    let err = find_game("suitebot").unwrap().check_options(&options).unwrap_err().to_string();
    assert!(err.contains(r#"board must be "nested" or "strings", not "rows""#), "{err}");
    assert!(!err.contains('\n'), "{err}");
}
