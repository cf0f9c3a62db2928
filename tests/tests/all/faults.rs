//! End-to-end tests of traps, invalid answers and bounded output (docs/design.md#traps, "Traps",
//! "Memory and sizes", "Faults are data", and the bounded log of "Capabilities"), each with
//! hostile fixture bots in an obeyed/violated pair, asserting fault variants.
//!
//! Needs the bots built: `cargo xtask bots`.

use arena_azul::{AzulConfig, Colour, Invalid, Move};
use arena_game::Game;
use arena_host::fault::{InvalidReason, TrapKind};
use arena_host::log::{LOG_BYTES_PER_MATCH, LOG_BYTES_PER_TURN, LogSource};
use arena_host::record::{MatchRecord, SeatTurn};
use arena_host::{BotFault, Budget};

use arena_azul::Azul;
use arena_tests::{assert_traps_three_times_then_forfeits, play_azul, turns_of};

/// Asserts the obeyed side: seat `seat` played the whole game with no fault at all.
fn assert_plays_cleanly(record: &MatchRecord<Azul>, seat: usize) {
    assert_eq!(record.setup[seat].faults, []);
    let turns = turns_of(record, seat);
    assert!(turns.len() > 10, "a whole game: {} turns", turns.len());
    for seat_turn in &turns {
        assert_eq!(seat_turn.faults, [], "{seat_turn:?}");
        assert!(seat_turn.answer.is_some());
        assert_eq!(seat_turn.applied, seat_turn.answer);
    }
    let player = &record.result.players[seat];
    assert_eq!((player.traps, player.invalid_actions, player.skipped_turns, player.forfeit), (0, 0, 0, false));
}

/// "Memory and sizes: 64 MiB linear memory per bot by default" and "Traps (... a refused
/// memory grow that the guest turns into a trap)": allocating 200 MiB is refused, Rust's
/// allocation-failure handler aborts (`unreachable`), the bot is restarted and, after 3 traps,
/// forfeits. Rust's report of the failure reaches the log through stderr.
#[test]
fn alloc_bomb_past_the_memory_limit_traps_unreachable_and_forfeits_after_three() {
    let record = play_azul(["fx-alloc-bomb", "azul-greedy"], 1, Budget::default());
    assert_traps_three_times_then_forfeits(&record, TrapKind::Unreachable);
    let first = turns_of(&record, 0)[0];
    assert!(
        first.log.entries.iter().any(|e| e.source == LogSource::Stderr && e.text.contains("memory allocation")),
        "{:?}",
        first.log
    );
}

/// The obeyed side of the memory rule ("all configurable per match"): the same bot under a
/// 512 MiB limit allocates its 200 MiB every turn and plays the whole game.
#[test]
fn alloc_bomb_under_a_raised_memory_limit_plays_normally() {
    let budget = Budget { memory_mib: 512, ..Budget::default() };
    let record = play_azul(["fx-alloc-bomb", "azul-greedy"], 1, budget);
    assert_plays_cleanly(&record, 0);
}

/// "Traps (panic, ...)": a panic traps (`unreachable` under `panic = "abort"`) and the SDK's
/// panic hook has put the message in that turn's log; three panics forfeit.
#[test]
fn panic_traps_unreachable_with_the_message_in_the_log() {
    let record = play_azul(["fx-panic", "azul-greedy"], 1, Budget::default());
    assert_traps_three_times_then_forfeits(&record, TrapKind::Unreachable);
    for (index, seat_turn) in turns_of(&record, 0).into_iter().enumerate() {
        let errors: Vec<&str> = seat_turn
            .log
            .entries
            .iter()
            .filter(|entry| entry.source == LogSource::Error)
            .map(|entry| entry.text.as_str())
            .collect();
        assert_eq!(errors.len(), 1, "{:?}", seat_turn.log);
        assert!(errors[0].contains("bot panicked"), "{}", errors[0]);
        // `TurnInfo.turn` counts the bot's calls across restarts.
        assert!(errors[0].contains(&format!("fx-panic: deliberate panic on turn {index}")), "{}", errors[0]);
    }
}

/// The obeyed side of the trap and invalid-action rules: a well-behaved bot has no fault in a
/// whole game, in either seat.
#[test]
fn greedy_plays_a_whole_game_without_a_fault() {
    let record = play_azul(["azul-greedy", "azul-greedy"], 1, Budget::default());
    assert_plays_cleanly(&record, 0);
    assert_plays_cleanly(&record, 1);
}

/// "Memory and sizes: ... a bounded wasm stack" and "Traps (... stack overflow)": unbounded
/// recursion traps with `StackOverflow`, three times, then forfeits.
#[test]
fn unbounded_recursion_traps_stack_overflow() {
    let record = play_azul(["fx-recurse", "azul-greedy"], 1, Budget::default());
    assert_traps_three_times_then_forfeits(&record, TrapKind::StackOverflow);
}

/// The obeyed side of the stack bound: the same recursion 1000 deep is no fault.
#[test]
fn bounded_recursion_plays_normally() {
    let record = play_azul(["fx-recurse-bounded", "azul-greedy"], 1, Budget::default());
    assert_plays_cleanly(&record, 0);
}

/// "Faults are data: every ... invalid action is a typed value": an illegal answer is an
/// `InvalidAction` carrying the game's own reason, the game's fallback (`Game::no_action` for
/// that state) is applied instead, and the counter counts it. Re-plays the game natively from
/// the record to know each state's fallback.
#[test]
fn illegal_answer_is_refused_with_the_games_reason_and_the_fallback_applies() {
    let seed = 1;
    let record = play_azul(["fx-illegal", "azul-greedy"], seed, Budget::default());
    let illegal = Move { source: 9, colour: Colour::Green, line: 7 };
    let refused = BotFault::InvalidAction {
        reason: InvalidReason::Refused { reason: serde_json::to_value(Invalid::NoSuchSource { source: 9 }).unwrap() },
    };

    let mut game = Azul::new(&AzulConfig::default(), 2, seed).unwrap();
    let mut refusals = 0;
    for turn in &record.turns {
        let mut actions = Vec::new();
        for seat_turn in &turn.seats {
            if seat_turn.seat == 0 {
                assert_eq!(seat_turn.answer, Some(illegal));
                assert_eq!(seat_turn.faults, std::slice::from_ref(&refused));
                assert_eq!(seat_turn.applied, game.no_action(0), "the fallback for this state");
                assert!(seat_turn.applied.is_some());
                refusals += 1;
            }
            actions.push((seat_turn.seat, seat_turn.applied));
        }
        game.step(&actions).unwrap();
        assert_eq!(format!("{:016x}", game.state_hash()), turn.state_hash, "turn {}", turn.turn);
    }
    assert!(game.is_over(), "the match was played to its end");
    assert!(refusals > 10);
    let player = &record.result.players[0];
    assert_eq!(player.invalid_actions, refusals);
    assert_eq!((player.traps, player.forfeit), (0, false), "an invalid action is not a trap");
    // An oversized answer is not representable in the Azul world (its answer is a fixed-size
    // record), so "a bot's answer larger than a game-defined bound" has no Azul fixture.
}

/// "stdout/stderr are captured into the bot's log in the replay, bounded per turn and per
/// match": two bots flooding the log (16 KiB through each of the log import, stdout and stderr
/// every turn) over a long match (both always play to the floor, so the game runs to the
/// round cap) keep at most `LOG_BYTES_PER_TURN` per turn and exactly `LOG_BYTES_PER_MATCH` per
/// match, count the rest as dropped, and the match completes with no fault. Every logged byte
/// is paid for ("Host work is fuel too"), so the game budget is raised to pay for a long match
/// of floods.
#[test]
fn log_flood_is_bounded_per_turn_and_per_match_and_harms_nothing() {
    // Per call: "init:" or "turn:" and 16 KiB, logged, then printed with a newline twice.
    const FLOODED: u64 = (5 + 16 * 1024) + 2 * (5 + 16 * 1024 + 1);
    let budget = Budget { game_fuel: 2_000_000_000, ..Budget::default() };
    let record = play_azul(["fx-log-flood", "fx-log-flood"], 1, budget);
    for seat in 0..2 {
        let turns: Vec<&SeatTurn<Azul>> = std::iter::once(&record.setup[seat]).chain(turns_of(&record, seat)).collect();
        let mut kept_total = 0;
        let mut silent_turns = 0;
        for seat_turn in &turns {
            assert_eq!(seat_turn.faults, []);
            let kept: usize = seat_turn.log.entries.iter().map(|entry| entry.text.len()).sum();
            assert!(kept <= LOG_BYTES_PER_TURN, "{kept} bytes kept in one turn");
            assert!(seat_turn.log.dropped_bytes > 0, "the excess is counted");
            assert_eq!(kept as u64 + seat_turn.log.dropped_bytes, FLOODED, "every byte kept or counted");
            if kept == 0 {
                silent_turns += 1;
            }
            kept_total += kept;
        }
        assert_eq!(kept_total, LOG_BYTES_PER_MATCH, "seat {seat}: the match bound");
        assert!(silent_turns > 0, "past the match bound nothing more is kept");
        let player = &record.result.players[seat];
        assert_eq!((player.traps, player.invalid_actions, player.skipped_turns, player.forfeit), (0, 0, 0, false));
    }
    assert!(record.turns.len() > 2 * LOG_BYTES_PER_MATCH / LOG_BYTES_PER_TURN, "{} turns", record.turns.len());
}
