//! Bring your own stdin/stdout bot, in JavaScript: an ordinary Node.js program speaking
//! SuiteBot II's original protocol on stdin/stdout, with a helper module in a folder, a vendored
//! package and a JSON file (`tests/foreign-bots/fx-stdio-js`), copied into a temporary folder
//! outside the repository and built there unchanged into a WASI command by `xtask build-bot`,
//! plays a match; the same program run natively (`node main.js`) on the lines the arena sent it
//! answers the same moves, though it writes most of them from timers (`setTimeout`,
//! `setImmediate`): each answer counts for its own round. So does a program that asks for each
//! line (`rl.question`, `readline/promises`, `events.once`: `fx-stdio-js-question`). An exception
//! is a trap with the traceback, in the program's own files and lines, in its log.
//!
//! Needs the bots built (`cargo xtask bots`) and `node`.

use arena_game::Game;
use arena_host::Budget;
use arena_host::bot_data::BotFiles;
use arena_host::fault::{BotFault, Phase, TrapKind};
use arena_host::log::LogSource;
use arena_host::record::MatchRecord;
use arena_suitebot::Suitebot;
use arena_suitebot::protocol::{answer_line, state_line};
use arena_tests::{
    answer_natively_line_by_line, arena, bot_path, build_outside_the_repository, logged, run_natively, turns_of,
};
use std::path::PathBuf;

fn play(paths: [PathBuf; 2], rounds: u32, seed: u64) -> MatchRecord<Suitebot> {
    let entry = arena_host::registry::find_game("suitebot").unwrap();
    let options = [("rounds".to_owned(), rounds.to_string())];
    let played = entry.play(arena(), &BotFiles::all_code_only(&paths), &options, seed, Budget::default()).unwrap();
    serde_json::from_str(&played.replay).unwrap()
}

/// Seat 0's answers, as the letters it wrote.
fn answers(record: &MatchRecord<Suitebot>) -> Vec<String> {
    turns_of(record, 0).iter().map(|seat_turn| answer_line(seat_turn.answer.expect("an answer every turn"))).collect()
}

/// Builds the program in `folder` outside the repository, plays 12 rounds of it in seat 0, and
/// asserts that it played every round cleanly, answering what `node main.js` answers when fed
/// the lines the arena sent it (read back from the `in: ` lines it echoes to its log) one at a
/// time.
fn assert_plays_as_natively(folder: &str, seed: u64) {
    let built = build_outside_the_repository(folder);
    let record = play([built, bot_path("suitebot-random")], 12, seed);
    let player = &record.result.players[0];
    assert_eq!((player.traps, player.invalid_actions, player.skipped_turns, player.forfeit), (0, 0, 0, false));
    assert_eq!(record.result.turns, 12);
    let lines: Vec<String> = turns_of(&record, 0)
        .into_iter()
        .flat_map(|seat_turn| logged(seat_turn, LogSource::Stderr))
        .flat_map(|text| {
            text.lines().filter_map(|line| line.strip_prefix("in: ")).map(str::to_owned).collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(lines.len(), 12, "one state per round: {lines:?}");
    assert_eq!(answer_natively_line_by_line("node", &format!("{folder}/main.js"), &lines), answers(&record));
}

#[test]
fn a_stdio_javascript_program_plays_the_moves_it_plays_natively() {
    assert_plays_as_natively("tests/foreign-bots/fx-stdio-js", 7);
}

/// A program that asks for each line (`rl.question` with a callback, `readline/promises`, and
/// `events.once(rl, 'line')`, in turn, from an async loop) answers every round in that round:
/// what the line resolves runs before the arena reads on.
#[test]
fn a_program_that_asks_for_each_line_answers_in_its_round() {
    assert_plays_as_natively("tests/foreign-bots/fx-stdio-js-question", 5);
}

#[test]
fn an_exception_is_a_trap_with_the_programs_own_traceback_in_its_log() {
    // The fixture throws in round 13 (its settings.json), from lib/tactics.js line 7, called
    // from main.js line 29.
    let record = play([bot_path("fx-stdio-js"), bot_path("suitebot-random")], 20, 7);
    assert_eq!(record.result.players[0].traps, 1);
    assert!(!record.result.players[0].forfeit);
    let turns = turns_of(&record, 0);
    let failed = turns[12];
    assert_eq!(
        failed.faults,
        [BotFault::Trapped { phase: Phase::Turn, trap: TrapKind::Exited { code: 1 } }],
        "{failed:?}"
    );
    let log = logged(failed, LogSource::Stderr).concat();
    for part in ["Error: fx-stdio-js: deliberate exception in round 13", "safeMoves@lib/tactics.js:7:", "@main.js:29:"]
    {
        assert!(log.contains(part), "{part:?} missing from {log}");
    }
    // The program is started again for the next round, and answers every round after.
    assert!(turns[13..].iter().all(|seat_turn| seat_turn.answer.is_some() && seat_turn.faults.is_empty()));
}

/// The example `bots-examples/suitebot-stdio-js` is the program its author runs
/// with `node bot.js`, unchanged. It plays a whole match within the default budgets; the engine
/// re-steps the recorded actions, the engine's own renderer (`protocol::state_line`) gives each
/// state line seat 0 was sent, and the program run natively on those lines answers every move the
/// arena recorded.
#[test]
fn the_javascript_suitebot_example_answers_natively_what_it_answered_in_the_arena() {
    let record = play([bot_path("suitebot-stdio-js"), bot_path("suitebot-random")], 100, 3);
    let player = &record.result.players[0];
    assert_eq!((player.traps, player.invalid_actions, player.skipped_turns, player.forfeit), (0, 0, 0, false));
    assert!(player.score > record.result.players[1].score, "{:?}", record.result);

    let options = [("rounds".to_owned(), "100".to_owned())];
    let mut game = Suitebot::new(&Suitebot::config_from_options(&options).unwrap(), 2, record.seed).unwrap();
    let mut lines = Vec::new();
    for turn in &record.turns {
        lines.push(state_line::<&str>(&game.observe(0), &[]));
        let actions: Vec<_> = turn.seats.iter().map(|seat_turn| (seat_turn.seat, seat_turn.applied)).collect();
        game.step(&actions).unwrap();
        assert_eq!(format!("{:016x}", game.state_hash()), turn.state_hash, "turn {}", turn.turn);
    }
    assert_eq!(lines.len(), 100);
    assert_eq!(run_natively("node", "bots-examples/suitebot-stdio-js/bot.js", &lines), answers(&record));
}
