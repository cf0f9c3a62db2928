//! Bring your own stdin/stdout bot: an ordinary Python program speaking Paint's original
//! protocol on stdin/stdout, with a helper module and a vendored pure-Python package
//! (`tests/foreign-bots/fx-stdio-py`), copied into a temporary folder outside the repository and
//! built there unchanged into a WASI command by `xtask build-bot`, plays a match; the same program run natively
//! (`python3 main.py`) on the lines the arena sent it answers the same moves. The fixture logs
//! each line it reads to stderr, as a program logs, which is how the test knows the lines.
//!
//! Needs the bots built (`cargo xtask bots`) and `python3`.

use arena_host::Budget;
use arena_host::bot_data::BotFiles;
use arena_host::log::LogSource;
use arena_host::record::MatchRecord;
use arena_paint::Paint;
use arena_tests::{arena, bot_path, build_outside_the_repository, logged, run_natively};

#[test]
fn a_stdio_python_program_plays_the_moves_it_plays_natively() {
    let entry = arena_host::registry::find_game("paint").unwrap();
    let paths = [build_outside_the_repository("tests/foreign-bots/fx-stdio-py"), bot_path("paint-random")];
    let options = [("turns".to_owned(), "12".to_owned())];
    let played = entry.play(arena(), &BotFiles::all_code_only(&paths), &options, 7, Budget::default()).unwrap();
    let record: MatchRecord<Paint> = serde_json::from_str(&played.replay).unwrap();
    let player = &record.result.players[0];
    assert_eq!((player.traps, player.invalid_actions, player.skipped_turns, player.forfeit), (0, 0, 0, false));
    assert_eq!(record.result.turns, 12);

    // The lines the arena sent, from the bot's own log; its answers, from the replay.
    let seat_turns = std::iter::once(&record.setup[0]).chain(record.turns.iter().flat_map(|turn| &turn.seats));
    let lines: Vec<String> = seat_turns
        .filter(|seat_turn| seat_turn.seat == 0)
        .flat_map(|seat_turn| logged(seat_turn, LogSource::Stderr))
        .flat_map(|text| {
            text.lines().filter_map(|line| line.strip_prefix("in: ")).map(str::to_owned).collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(lines.len(), 13, "the greeting and 12 states: {lines:?}");
    let answers: Vec<serde_json::Value> = record
        .turns
        .iter()
        .flat_map(|turn| &turn.seats)
        .filter(|seat_turn| seat_turn.seat == 0)
        .map(|seat_turn| serde_json::to_value(seat_turn.answer.as_ref().expect("an answer every turn")).unwrap())
        .collect();

    assert_native_moves("tests/foreign-bots/fx-stdio-py/main.py", &lines, &answers);
}

/// Runs `script` (from the workspace root) with `python3` in its folder, `lines` on its stdin;
/// asserts it says it is ready, then answers each state with the move of `answers` (as the replay
/// records them).
fn assert_native_moves(script: &str, lines: &[String], answers: &[serde_json::Value]) {
    let printed: Vec<serde_json::Value> =
        run_natively("python3", script, lines).iter().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(printed[0], serde_json::json!({"ready": true}));
    assert_eq!(printed.len(), answers.len() + 1);
    for (turn, (native, arena)) in printed[1..].iter().zip(answers).enumerate() {
        assert_eq!(
            (&native["type"], &native["direction"]),
            (&arena["type"], &arena["direction"]),
            "turn {turn}: natively {native}, in the arena {arena}"
        );
    }
}

/// The example `bots-examples/paint-stdio-py` is the program its author runs with
/// `python3 bot.py`, unchanged. It plays a match in the arena; the engine re-steps the recorded
/// actions, the host's own renderer (`protocol::paint::state_line`) gives each state line seat 0
/// was sent, and the program run natively on those lines answers every move the arena recorded.
#[test]
fn the_python_paint_example_answers_natively_what_it_answered_in_the_arena() {
    use arena_game::Game;
    let options = [("turns".to_owned(), "15".to_owned())];
    let entry = arena_host::registry::find_game("paint").unwrap();
    let paths = [bot_path("paint-stdio-py"), bot_path("paint-random")];
    let played = entry.play(arena(), &BotFiles::all_code_only(&paths), &options, 4, Budget::default()).unwrap();
    let record: MatchRecord<Paint> = serde_json::from_str(&played.replay).unwrap();
    assert_eq!(record.result.players[0].invalid_actions, 0);

    let mut game = Paint::new(&Paint::config_from_options(&options).unwrap(), 2, record.seed).unwrap();
    let mut lines = vec![format!("{{\"player_id\":\"{}\"}}", arena_host::protocol::paint::player_id(0))];
    let mut answers = Vec::new();
    for turn in &record.turns {
        lines.push(arena_host::protocol::paint::state_line(&game.observe(0)));
        let ours = turn.seats.iter().find(|seat_turn| seat_turn.seat == 0).unwrap();
        answers.push(serde_json::to_value(ours.answer.as_ref().expect("an answer every turn")).unwrap());
        let actions: Vec<_> = turn.seats.iter().map(|seat_turn| (seat_turn.seat, seat_turn.applied)).collect();
        game.step(&actions).unwrap();
        assert_eq!(format!("{:016x}", game.state_hash()), turn.state_hash, "turn {}", turn.turn);
    }
    assert_eq!(answers.len(), 15);

    assert_native_moves("bots-examples/paint-stdio-py/bot.py", &lines, &answers);
}
