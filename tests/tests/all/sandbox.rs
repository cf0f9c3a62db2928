//! End-to-end tests of the sandbox and the meter against hostile bots: each rule of
//! docs/design.md#the-budget-contract with a fixture that obeys it and one that tries to break it,
//! asserting the typed outcome. Every match here also checks the fuel books
//! (`arena_tests::assert_fuel_books_balance`, called by the helpers).
//!
//! Needs the bots built: `cargo xtask bots`.

use arena_azul::Azul;
use arena_host::fault::{ForfeitReason, InvalidReason, Phase, TrapKind};
use arena_host::log::LogSource;
use arena_host::record::MatchRecord;
use arena_host::{BotFault, Budget};
use arena_tests::{
    assert_suspended_charge, assert_traps_three_times_then_forfeits, logged, play_azul, play_registered, turns_of,
};

/// Asserts seat `seat` answered every turn of a whole game with no fault.
fn assert_answers_every_turn(record: &MatchRecord<Azul>, seat: usize) {
    let turns = turns_of(record, seat);
    assert!(turns.len() > 10, "a whole game: {} turns", turns.len());
    for seat_turn in &turns {
        assert_eq!(seat_turn.faults, [], "{seat_turn:?}");
        assert!(seat_turn.answer.is_some());
    }
    let player = &record.result.players[seat];
    assert_eq!((player.traps, player.skipped_turns, player.forfeit), (0, 0, false), "{player:?}");
}

/// "Turn overrun: suspend ... when its turn fuel is spent": 200 zero-length timer
/// polls per turn are never taken for a spent turn: no turn is suspended, each is charged a
/// small fraction of a turn budget, and the whole game is played well within the game budget
/// (it used to be charged a turn budget per turn, 200M under a 100M budget, without a forfeit).
#[test]
fn zero_length_timer_polls_are_not_fuel_yields() {
    let budget = Budget::default();
    let record = play_azul(["fx-poll-zero", "azul-greedy"], 3, budget);
    assert_answers_every_turn(&record, 0);
    for seat_turn in turns_of(&record, 0) {
        assert!(seat_turn.fuel < budget.turn_fuel / 10, "{} fuel for 200 polls", seat_turn.fuel);
        assert_eq!(logged(seat_turn, LogSource::Debug), ["ready 200"], "every zero-length timer is ready");
    }
}

/// The violated side of the same rule: a bot that really spends its turn is suspended, and each
/// suspended turn is charged what it spent (its budget and a few instructions over).
#[test]
fn a_real_spin_is_suspended_and_charged_what_it_spent() {
    let budget = Budget { turn_fuel: 1_000_000, game_fuel: 20_000_000, ..Budget::default() };
    let record = play_azul(["fx-loop-forever", "azul-greedy"], 3, budget);
    let turns = turns_of(&record, 0);
    let suspended: Vec<_> = turns.iter().filter(|turn| turn.faults == [BotFault::Suspended]).collect();
    assert!(suspended.len() > 10);
    for seat_turn in suspended {
        assert_suspended_charge(seat_turn.fuel, budget.turn_fuel);
    }
    assert_eq!(record.result.players[0].fuel_total, budget.game_fuel);
}

/// "Clocks ... timers and polls ... virtual: a sleep or a timeout resolves against the virtual
/// clock, never real time": a bot sleeping a second per turn sees its clock move by
/// exactly one second (and one reading step), a 1 ms timer is ready the first time it is
/// checked, and the same match played twice gives byte-identical replays.
#[test]
fn sleeps_and_timers_resolve_against_the_virtual_clock() {
    let (first, record) = play_registered::<Azul>("azul", &["fx-sleep", "azul-greedy"], 5, Budget::default());
    assert_answers_every_turn(&record, 0);
    for seat_turn in turns_of(&record, 0) {
        assert_eq!(logged(seat_turn, LogSource::Info), ["slept 1000001000ns not-ready 0"]);
    }
    let (second, _) = play_registered::<Azul>("azul", &["fx-sleep", "azul-greedy"], 5, Budget::default());
    assert!(first == second, "the replays differ");
}

/// "Fuel is charged for whatever the store consumed, however a call ends": a bot that
/// spends about 7M fuel and then waits on a timer that would never fire in real time is charged
/// those 7M every turn; the wait ends at once on the virtual clock (it used to be trapped by
/// the backstop with its fuel uncharged).
#[test]
fn a_wait_forever_costs_no_time_and_the_fuel_before_it_is_charged() {
    // Room for a whole game of 7M turns.
    let budget = Budget { game_fuel: 2_000_000_000, ..Budget::default() };
    let record = play_azul(["fx-block-forever", "azul-greedy"], 1, budget);
    assert_answers_every_turn(&record, 0);
    for seat_turn in turns_of(&record, 0).into_iter().take(5) {
        assert!((5_000_000..budget.turn_fuel).contains(&seat_turn.fuel), "{} fuel charged", seat_turn.fuel);
    }
}

/// "Host work is fuel too": 34M bytes of host work per turn (1 MiB log lines, 1 MiB
/// random requests, 4 KiB writes) for a few thousand instructions is charged per byte: the bot
/// is suspended inside its host calls, then forfeits with exactly the game budget spent, and
/// the wall-clock backstop never fires.
#[test]
fn host_work_is_charged_per_byte() {
    let budget = Budget::default();
    let record = play_azul(["fx-host-bomb", "azul-greedy"], 1, budget);
    let turns = turns_of(&record, 0);
    assert!(turns.iter().any(|turn| turn.faults == [BotFault::Suspended]), "host work spends turn budgets");
    for seat_turn in &turns {
        for fault in &seat_turn.faults {
            // An answer finished after a suspension may be refused by the game (it was chosen
            // from an older view); nothing else may happen.
            assert!(
                matches!(
                    fault,
                    BotFault::Suspended
                        | BotFault::Forfeit { reason: ForfeitReason::GameFuelExhausted }
                        | BotFault::InvalidAction { reason: InvalidReason::Refused { .. } }
                ),
                "{fault:?}"
            );
        }
    }
    let player = &record.result.players[0];
    assert_eq!(player.forfeit_reason, Some(ForfeitReason::GameFuelExhausted));
    assert_eq!(player.fuel_total, budget.game_fuel, "exactly the game budget");
    assert_eq!(player.traps, 0, "no backstop, no trap");
}

/// "Memory and sizes: a bot's answer ... the host cannot lift (a bad enum value) is an invalid
/// action, not a trap": the first instance's answer (colour 9 of 5) is a malformed
/// invalid action with no trap counted; the instance is replaced and the next one's answers
/// are decoded (and judged by the game).
#[test]
fn an_answer_the_host_cannot_lift_is_a_malformed_invalid_action() {
    let record = play_azul(["fx-malformed", "azul-greedy"], 1, Budget::default());
    let turns = turns_of(&record, 0);
    assert!(
        matches!(&turns[0].faults[..], [BotFault::InvalidAction { reason: InvalidReason::Malformed { detail } }] if detail.len() <= 520),
        "{:?}",
        turns[0].faults
    );
    assert_eq!(turns[0].answer, None);
    for seat_turn in &turns[1..] {
        assert!(seat_turn.answer.is_some(), "a restarted instance answers well-formed actions: {seat_turn:?}");
        for fault in &seat_turn.faults {
            assert!(matches!(fault, BotFault::InvalidAction { reason: InvalidReason::Refused { .. } }), "{fault:?}");
        }
    }
    let player = &record.result.players[0];
    assert_eq!((player.traps, player.forfeit), (0, false), "{player:?}");
}

/// "Faults are data": a WIT bot's WASI `exit` is the typed `exited` trap with its
/// status (WASI 0.2's `exit` takes ok or err, so `exit(3)` arrives as status 1); three forfeit.
#[test]
fn exit_is_a_typed_exited_trap() {
    let record = play_azul(["fx-exit", "azul-greedy"], 1, Budget::default());
    assert_traps_three_times_then_forfeits(&record, TrapKind::Exited { code: 1 });
    assert!(record.setup[0].faults.iter().all(|fault| !matches!(fault, BotFault::Trapped { phase: Phase::Init, .. })));
}
