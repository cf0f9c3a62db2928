//! C bots end to end (guest-sdk/c): the C greedy bot picks exactly the Rust greedy bot's moves,
//! C bots play Rust bots through the registry like any other bot, and their budget faults are
//! reported like a Rust bot's.
//!
//! Needs the bots built: `cargo xtask bots` (or `cargo xtask build-bot bots-examples/azul-greedy-c`,
//! `bots-examples/azul-trivial-c` and `tests/foreign-bots/fx-trivial-cpp`).

use arena_azul::Azul;
use arena_host::fault::ForfeitReason;
use arena_host::log::LogSource;
use arena_host::record::MatchRecord;
use arena_host::{BotFault, Budget};
use arena_tests::{
    assert_answers_the_first_legal_move, assert_clean_game, logged, play_azul, play_registered, turns_of,
};

/// Everything about a match the bots' code decides, and nothing about the bots' identity or
/// cost: per turn, each seat's answer and applied move, the events and the state hash; then each
/// player's score, rank and faults, and the winner.
fn moves_and_result(record: &MatchRecord<Azul>) -> String {
    let turns: Vec<_> = record
        .turns
        .iter()
        .map(|turn| {
            let seats: Vec<_> =
                turn.seats.iter().map(|seat| (seat.seat, &seat.answer, &seat.applied, &seat.faults)).collect();
            (turn.turn, seats, &turn.events, &turn.state_hash)
        })
        .collect();
    let players: Vec<_> = record
        .result
        .players
        .iter()
        .map(|player| (player.score, player.rank, player.forfeit, player.traps, player.invalid_actions))
        .collect();
    format!("{turns:?}\n{players:?}\nwinner {:?}", record.result.winner)
}

/// The C greedy bot is the Rust greedy bot's strategy over the C helper header
/// (legal moves in the SDK's order, the same immediate score, ties to the first move). Against
/// the same random bot (whose randomness depends only on the match seed and its own sha256) it
/// makes every move the Rust bot makes, so the matches are identical move for move, in both
/// seats.
#[test]
fn c_greedy_plays_exactly_the_rust_greedy_moves() {
    for seed in 0..10 {
        for c_seat in 0..2 {
            let seat =
                |greedy: &'static str| if c_seat == 0 { [greedy, "azul-random"] } else { ["azul-random", greedy] };
            let c = play_azul(seat("azul-greedy-c"), seed, Budget::default());
            let rust = play_azul(seat("azul-greedy"), seed, Budget::default());
            assert!(c.turns.len() > 20, "seed {seed}: a whole game");
            assert_eq!(moves_and_result(&c), moves_and_result(&rust), "seed {seed}, C bot in seat {c_seat}");
        }
    }
}

/// The C helper header's legal moves come in the Rust SDK's order: azul-trivial-c answers the
/// first of them, and on every turn of a match (the engine re-stepped alongside the record) that
/// is the first of the engine's own `View::legal_moves`.
#[test]
fn c_trivial_plays_the_first_legal_move_in_the_sdk_order() {
    for seed in 0..3 {
        assert_answers_the_first_legal_move("azul-trivial-c", seed);
    }
}

/// A C++ bot on the C bindings (`build-bot` compiles `*.cpp` with clang++ and links wasm32
/// libc++): fx-trivial-cpp is azul-trivial-c's strategy through `std::vector` and an algorithm,
/// and plays like it, the first legal move every turn, without a fault; the C++ library keeps
/// it small.
#[test]
fn cpp_bot_on_the_c_bindings_plays_the_first_legal_move() {
    for seed in 0..2 {
        assert_answers_the_first_legal_move("fx-trivial-cpp", seed);
    }
    let size = std::fs::metadata(arena_tests::bot_path("fx-trivial-cpp")).expect("built").len();
    assert!(size < 200_000, "fx-trivial-cpp is {size} bytes");
}

/// C bots are loaded and played through the registry exactly as `arena match`
/// plays any bot: a full game against Rust bots, no faults, fuel reported per turn and in total
/// (nonzero, within the budgets), and the C library's start-up and the log import work.
#[test]
fn c_bots_play_rust_bots_through_the_registry() {
    let budget = Budget::default();
    for (names, c_seat) in [(["azul-greedy-c", "azul-random"], 0), (["azul-greedy", "azul-trivial-c"], 1)] {
        let (replay, record) = play_registered::<Azul>("azul", &names, 7, budget);
        assert!(replay.contains(names[c_seat]), "the replay names the C bot");
        assert_clean_game(&record, names, budget);
    }
    // azul-greedy-c logs one line from `init` through arena_logf (the C library's printf, then
    // the arena:common/log import).
    let (_, record) = play_registered::<Azul>("azul", &["azul-random", "azul-greedy-c"], 7, budget);
    assert_eq!(logged(&record.setup[1], LogSource::Info), ["azul-greedy-c: seat 1, restart 0"]);
}

/// docs/design.md#turn-overrun-suspend-never-kill "Turn overrun: suspend, never kill" and "Game
/// overrun: forfeit", for a C bot: with a turn budget below what the greedy bot's turns cost, the C
/// bot is suspended (its late answers still land) and, once the game budget is spent, forfeits,
/// charged exactly the game budget, the way the Rust greedy bot is under the same budget.
#[test]
fn c_bot_budget_faults_are_reported_like_a_rust_bots() {
    // The turn budget leaves room for the C bot's start-up (its `init` logs a line: the log's
    // host-call fee and the line's bytes) and is below what a greedy turn costs.
    let budget = Budget { turn_fuel: 10_000, game_fuel: 150_000, ..Budget::default() };
    for greedy in ["azul-greedy-c", "azul-greedy"] {
        let record = play_azul([greedy, "azul-random"], 1, budget);
        let turns = turns_of(&record, 0);
        assert!(turns.iter().any(|turn| turn.faults == [BotFault::Suspended]), "{greedy}: suspended at least once");
        let last = turns.last().expect("it had turns");
        assert_eq!(last.faults, [BotFault::Forfeit { reason: ForfeitReason::GameFuelExhausted }], "{greedy}");
        let player = &record.result.players[0];
        assert!(player.forfeit && player.traps == 0, "{greedy}: {player:?}");
        assert_eq!(player.forfeit_reason, Some(ForfeitReason::GameFuelExhausted), "{greedy}");
        assert!(player.skipped_turns > 0, "{greedy}: {player:?}");
        assert_eq!(player.fuel_total, budget.game_fuel, "{greedy}: charged the game budget, exactly");
        assert_eq!(record.result.winner, Some(1), "{greedy}: a forfeited bot ranks below the rest");
    }
}
