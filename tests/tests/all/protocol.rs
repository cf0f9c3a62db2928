//! End-to-end tests of line-protocol bots: WASI commands speaking Azul's text protocol on
//! stdin/stdout, seated through the registry exactly as `arena match` seats them, under the budget
//! contract of docs/design.md#the-budget-contract (per-turn fuel, suspension, stale late answers,
//! forfeit, traps and restarts, bounded answers), against and alongside WIT bots.
//!
//! Needs the bots built: `cargo xtask bots`.

use arena_azul::{Azul, Invalid};
use arena_host::Budget;
use arena_host::bindings::azul::AzulBinding;
use arena_host::fault::{AnswerError, BotFault, ForfeitReason, InvalidReason, Phase, TrapKind};
use arena_host::loader::{LoadError, load_bot, load_bot_bytes};
use arena_host::log::LogSource;
use arena_host::record::MatchRecord;
use arena_host::registry::{GameEntry, find_game};
use arena_host::replay::Verdict;
use arena_tests::{arena, bot_path, play_registered, protocol_error, scratch, turns_of};

fn azul() -> &'static dyn GameEntry {
    find_game("azul").expect("azul is registered")
}

fn play(names: [&str; 2], seed: u64, budget: Budget) -> (String, MatchRecord<Azul>) {
    play_registered("azul", &names, seed, budget)
}

/// A plain std Rust program built for wasm32-wasip2 plays a WIT bot in one
/// match, in either seat; every turn's fuel is recorded, within the turn budget, and the same
/// seed gives the same replay byte for byte.
#[test]
fn a_stdio_bot_plays_a_wit_bot_with_deterministic_per_turn_fuel() {
    for (names, seat) in [(["azul-stdio-random", "azul-greedy"], 0), (["azul-greedy", "azul-stdio-random"], 1)] {
        let (replay, record) = play(names, 5, Budget::default());
        let (again, _) = play(names, 5, Budget::default());
        assert_eq!(replay, again, "two runs give identical replays");

        assert_eq!(record.bots[seat].name, "azul-stdio-random");
        assert_eq!(record.setup[seat].faults, [], "greeting and mode declaration went fine");
        assert!(record.setup[seat].fuel > 0, "start-up is metered");
        let turns = turns_of(&record, seat);
        assert!(turns.len() > 10, "a whole game: {} turns", turns.len());
        for seat_turn in &turns {
            assert_eq!(seat_turn.faults, [], "{seat_turn:?}");
            assert!(seat_turn.answer.is_some(), "a legal move every turn");
            assert_eq!(seat_turn.applied, seat_turn.answer);
            assert!(seat_turn.fuel > 0 && seat_turn.fuel < Budget::default().turn_fuel, "{}", seat_turn.fuel);
        }
        let player = &record.result.players[seat];
        assert_eq!((player.traps, player.invalid_actions, player.skipped_turns, player.forfeit), (0, 0, 0, false));
        let total: u64 = record.setup[seat].fuel + turns.iter().map(|turn| turn.fuel).sum::<u64>();
        assert_eq!(player.fuel_total, total, "every unit of fuel is charged to exactly one turn");
    }
}

/// A replay of a mixed match verifies (the stdio bot is re-loaded as a command
/// from the file the replay names), and a changed fuel count of a stdio turn is found.
#[test]
fn replays_of_mixed_matches_verify() {
    let (replay, _) = play(["azul-stdio-random", "fx-stdio-slow"], 9, Budget::default());
    let file = scratch("mixed.json");
    std::fs::write(&file, &replay).unwrap();
    assert_eq!(azul().verify(arena(), &file, &[]).unwrap(), Verdict::Identical);

    let mut json: serde_json::Value = serde_json::from_str(&replay).unwrap();
    let fuel = &mut json["turns"][0]["seats"][0]["fuel"];
    *fuel = serde_json::json!(fuel.as_u64().unwrap() + 1);
    let altered = scratch("mixed-altered.json");
    std::fs::write(&altered, serde_json::to_string(&json).unwrap()).unwrap();
    match azul().verify(arena(), &altered, &[]).unwrap() {
        Verdict::Differs { turn, detail } => assert!(turn == 1 && detail.contains("fuel"), "{turn}: {detail}"),
        Verdict::Identical => panic!("the altered fuel was not noticed"),
    }
}

/// docs/design.md#turn-overrun-suspend-never-kill, "Turn overrun: suspend, never kill", for a
/// line-protocol bot: it spends about 15M fuel on its first turn, so it is suspended there (charged
/// exactly its turn budget, plus the few units of the last block); on its second turn it resumes,
/// writes its answer to the first state (stale: an invalid action), reads the second state and
/// answers it in time; then it plays cleanly. Its memory survived: the hash chain it logs is right.
#[test]
fn a_slow_stdio_bot_is_suspended_and_its_late_answer_is_stale() {
    let budget = Budget::default();
    let (_, record) = play(["fx-stdio-slow", "azul-greedy"], 3, budget);
    let turns = turns_of(&record, 0);

    assert_eq!(turns[0].faults, [BotFault::Suspended]);
    assert_eq!(turns[0].answer, None);
    assert!(turns[0].applied.is_some(), "the game's fallback applied");
    assert!((budget.turn_fuel..budget.turn_fuel + 1_000).contains(&turns[0].fuel), "{}", turns[0].fuel);

    let [stale] = turns[1].faults.as_slice() else { panic!("{:?}", turns[1].faults) };
    assert!(matches!(protocol_error(stale), Some(AnswerError::Stale { .. })), "{stale:?}");
    assert!(turns[1].answer.is_some(), "it answered the current state too, in time");
    assert_eq!(turns[1].applied, turns[1].answer, "and that answer is legal");
    assert!(turns[1].fuel < budget.turn_fuel);
    let logged: Vec<&str> =
        turns[1].log.entries.iter().filter(|e| e.source == LogSource::Stderr).map(|e| e.text.as_str()).collect();
    assert_eq!(logged, ["chain 67a8cadd632d6b76\n"], "the computation finished where it stopped");

    for seat_turn in &turns[2..] {
        assert_eq!(seat_turn.faults, [], "{seat_turn:?}");
        assert_eq!(seat_turn.applied, seat_turn.answer);
    }
    let player = &record.result.players[0];
    assert_eq!((player.skipped_turns, player.invalid_actions, player.traps, player.forfeit), (1, 1, 0, false));
}

/// docs/design.md#game-overrun-forfeit, "Game overrun: forfeit": with 12M of game fuel, the slow
/// bot's first turn takes 10M and its resumed computation runs out of the rest: it forfeits and the
/// WIT bot wins.
#[test]
fn a_stdio_bot_out_of_game_fuel_forfeits() {
    let budget = Budget { game_fuel: 12_000_000, ..Budget::default() };
    let (_, record) = play(["fx-stdio-slow", "azul-greedy"], 3, budget);
    let turns = turns_of(&record, 0);
    assert_eq!(turns[0].faults, [BotFault::Suspended]);
    assert_eq!(turns[1].faults, [BotFault::Forfeit { reason: ForfeitReason::GameFuelExhausted }]);
    assert_eq!(turns.len(), 2, "no turns after forfeiting");
    let player = &record.result.players[0];
    assert_eq!(player.forfeit_reason, Some(ForfeitReason::GameFuelExhausted));
    assert_eq!(player.fuel_total, budget.game_fuel, "exactly the game budget was spent");
    assert_eq!(record.result.winner, Some(1));
}

/// docs/design.md#memory-and-sizes, "Memory and sizes" (an answer over the bound is an invalid
/// action, not a host allocation), "Faults are data" and "Traps": a hostile stdio bot's answers
/// give one typed fault each, its exit is a trap, it is restarted (told so in the greeting) and
/// then plays cleanly; the host is fine throughout.
#[test]
fn a_garbage_stdio_bot_gets_typed_faults_and_a_restart() {
    let (_, record) = play(["fx-stdio-garbage", "azul-greedy"], 3, Budget::default());
    let turns = turns_of(&record, 0);
    let only = |index: usize| -> &BotFault {
        let [fault] = turns[index].faults.as_slice() else { panic!("turn {index}: {:?}", turns[index].faults) };
        fault
    };
    assert_eq!(protocol_error(only(0)), Some(&AnswerError::TooLong { limit: 64 }), "a 100,000-byte line");
    assert!(
        matches!(protocol_error(only(1)), Some(AnswerError::Malformed { detail }) if detail.contains("hello there"))
    );
    assert_eq!(protocol_error(only(2)), Some(&AnswerError::NotUtf8));
    let refused = serde_json::to_value(Invalid::NoSuchSource { source: 9 }).unwrap();
    assert_eq!(only(3), &BotFault::InvalidAction { reason: InvalidReason::Refused { reason: refused } });
    // WASI 0.2 carries only success or failure: `exit(3)` arrives as status 1.
    assert_eq!(only(4), &BotFault::Trapped { phase: Phase::Turn, trap: TrapKind::Exited { code: 1 } });
    for seat_turn in &turns[..5] {
        assert!(seat_turn.applied.is_some(), "the fallback applied");
    }
    for seat_turn in &turns[5..] {
        assert_eq!(seat_turn.faults, [], "restarted, it plays cleanly: {seat_turn:?}");
        assert_eq!(seat_turn.applied, seat_turn.answer);
    }
    let player = &record.result.players[0];
    assert_eq!((player.invalid_actions, player.traps, player.forfeit), (4, 1, false));
}

/// A bot built for another version of the game's WIT package (an older SDK) is told so, and what
/// to do, instead of being listed as a bot of another world; one exporting both the old and the
/// wanted version loads.
#[test]
fn a_bot_of_another_wit_version_is_told_to_rebuild() {
    let old = wat::parse_str(r#"(component (instance $i) (export "arena:azul/player@0.0.9" (instance $i)))"#).unwrap();
    let err = match load_bot_bytes::<AzulBinding>(arena(), std::path::Path::new("old.wasm"), &old) {
        Err(err @ LoadError::OtherVersion { .. }) => err.to_string(),
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("a bot of another version loaded"),
    };
    assert!(
        err.starts_with("old.wasm: built for arena:azul/player@0.0.9, but this arena plays arena:azul/player@0.2.0"),
        "{err}"
    );
    assert!(err.contains("rebuild the bot"), "{err}");
    // Another interface of the same package at any version is still another world.
    let other =
        wat::parse_str(r#"(component (instance $i) (export "arena:azul/viewer@0.1.0" (instance $i)))"#).unwrap();
    assert!(matches!(
        load_bot_bytes::<AzulBinding>(arena(), std::path::Path::new("other.wasm"), &other),
        Err(LoadError::WrongWorld { .. })
    ));
}

/// Where a WIT bot is expected (a game without a line protocol, or any direct WIT
/// load), a WASI command is refused with the usual one line naming what it exports.
#[test]
fn a_command_where_a_wit_bot_is_expected_is_refused_naming_its_export() {
    let err = match load_bot::<AzulBinding>(arena(), &bot_path("azul-stdio-random")) {
        Err(err @ LoadError::WrongWorld { .. }) => err.to_string(),
        Err(other) => panic!("{other}"),
        Ok(_) => panic!("a command loaded as a WIT bot"),
    };
    assert!(err.contains("wasi:cli/run@0.2") && err.contains("expected arena:azul/player@0.2.0"), "{err}");
    assert_eq!(err.lines().count(), 1);
}
