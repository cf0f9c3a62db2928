//! An exception in a Python or JavaScript bot is a trap like a Rust panic (docs/design.md#traps;
//! `tests/tests/all/faults.rs` has the Rust side): the SDK logs what the bot's author needs
//! (the exception and where it was raised) at error level, the instance traps, the host restarts
//! it before its next turn, and the third trap forfeits.
//!
//! Needs the bots built: `cargo xtask bots` (the fixtures are in `tests/foreign-bots/`).

use arena_host::Budget;
use arena_host::fault::TrapKind;
use arena_host::log::LogSource;
use arena_tests::{assert_traps_three_times_then_forfeits, logged, play_azul, turns_of};

/// Asserts that every turn of seat 0 logged one error naming the exception, its turn, and the
/// bot's own source line.
fn assert_each_turn_logs(name: &str, expected: &[&str]) {
    let record = play_azul([name, "azul-greedy"], 1, Budget::default());
    assert_traps_three_times_then_forfeits(&record, TrapKind::Unreachable);
    for (turn, seat_turn) in turns_of(&record, 0).into_iter().enumerate() {
        let errors = logged(seat_turn, LogSource::Error);
        assert_eq!(errors.len(), 1, "{:?}", seat_turn.log);
        // `TurnInfo.turn` counts the bot's calls across restarts.
        assert!(errors[0].contains(&format!("deliberate exception on turn {turn}")), "{}", errors[0]);
        for part in expected {
            assert!(errors[0].contains(part), "{part:?} missing from {}", errors[0]);
        }
    }
}

#[test]
fn a_python_exception_is_logged_with_its_traceback_and_traps() {
    assert_each_turn_logs("fx-raise-py", &["Traceback", "app.py\", line 12, in act", "ValueError: fx-raise-py"]);
}

#[test]
fn a_javascript_exception_is_logged_with_its_stack_and_traps() {
    assert_each_turn_logs("fx-throw-js", &["Error: fx-throw-js", "act@bot.js:10"]);
}
