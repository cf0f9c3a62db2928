//! Eubots end to end through the host: a 4-player match and its
//! replay, an over-long answer as an invalid action, and fuel and faults in the results.
//! Needs the bots (`cargo xtask bots`).

use arena_eubots::{Eubots, EubotsConfig, Event, Invalid, MAX_ORDERS, MapChoice};
use arena_host::bindings::eubots::EubotsBinding;
use arena_host::fault::InvalidReason;
use arena_host::loader::LoadedBot;
use arena_host::record::{MatchRecord, SeatTurn};
use arena_host::replay::{Verdict, verify};
use arena_host::{BotFault, Budget, play_match};
use arena_tests::{arena, load};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};

/// A built Eubots bot, compiled once per test binary.
fn bot(name: &str) -> Arc<LoadedBot<EubotsBinding>> {
    static BOTS: OnceLock<Mutex<BTreeMap<String, Arc<LoadedBot<EubotsBinding>>>>> = OnceLock::new();
    let mut bots = BOTS.get_or_init(Default::default).lock().unwrap_or_else(PoisonError::into_inner);
    bots.entry(name.to_owned()).or_insert_with(|| load::<EubotsBinding>(arena(), name)).clone()
}

/// Plays a match between built bots, in seat order.
fn play(names: &[&str], config: &EubotsConfig, seed: u64, budget: Budget) -> MatchRecord<Eubots> {
    let bots: Vec<_> = names.iter().map(|name| bot(name)).collect();
    play_match::<EubotsBinding>(arena(), &bots, config, seed, budget).expect("the match is playable")
}

/// Seat `seat`'s part of every turn, in order.
fn turns_of(record: &MatchRecord<Eubots>, seat: usize) -> Vec<&SeatTurn<Eubots>> {
    record.turns.iter().flat_map(|turn| &turn.seats).filter(|seat_turn| seat_turn.seat == seat).collect()
}

/// Whether the last turn's events end the match.
fn ended(record: &MatchRecord<Eubots>) -> bool {
    let last = record.turns.last().expect("at least one turn");
    last.events.iter().any(|event| matches!(event, Event::GameEnded { .. }))
}

/// A 4-player match runs through the host on the four-corner map, to its end,
/// with every seat's fuel and faults reported, and its record replays identically.
#[test]
fn a_four_player_match_runs_and_replays() {
    let names = ["eubots-swarm", "eubots-random", "eubots-swarm", "eubots-random"];
    let record = play(&names, &EubotsConfig::default(), 7, Budget::default());
    assert_eq!(record.game, "eubots");
    assert_eq!(record.setup.len(), 4);
    assert_eq!(record.result.players.len(), 4);
    assert!(ended(&record));
    // Turn 1 asks all four seats; every seat answered turn 1 without a fault.
    assert_eq!(record.turns[0].seats.iter().map(|seat| seat.seat).collect::<Vec<_>>(), [0, 1, 2, 3]);
    for (seat, player) in record.result.players.iter().enumerate() {
        assert_eq!(player.bot, names[seat]);
        assert!(player.fuel_total > 0 && player.fuel_max_turn <= player.fuel_total, "{player:?}");
        assert!(!player.forfeit && player.invalid_actions == 0 && player.traps == 0, "{player:?}");
    }
    let winner = record.result.winner.expect("one seat is left");
    assert!(names[winner] == "eubots-swarm", "won by {}", names[winner]);
    assert_eq!(verify::<EubotsBinding>(arena(), &record, &[]).unwrap(), Verdict::Identical);
}

/// docs/design.md#memory-and-sizes ("an answer larger than a bound is an invalid
/// action"): `fx-eubots-flood` answers one order more than the units index holds (the engine
/// refuses it: `TooManyOrders`), and on turn 2 `MAX_ORDERS + 1` (the host refuses it while
/// decoding: malformed). Every such turn is an invalid action, its units wait, and the match goes
/// on; the swarm facing it never gets one.
#[test]
fn an_over_long_answer_is_an_invalid_action() {
    let record = play(&["fx-eubots-flood", "eubots-swarm"], &EubotsConfig::default(), 3, Budget::default());
    let flood = turns_of(&record, 0);
    assert!(flood.len() >= 2, "played {} turns", flood.len());
    // The units index of the standard map for 2 players: 2 x 30 units.
    let max = 60;
    for (turn, seat_turn) in record.turns.iter().zip(&flood) {
        assert_eq!(seat_turn.applied, Some(Vec::new()), "turn {}: the units wait", turn.turn);
        let [BotFault::InvalidAction { reason }] = seat_turn.faults.as_slice() else {
            panic!("turn {}: {:?}", turn.turn, seat_turn.faults);
        };
        if turn.turn != 2 {
            let InvalidReason::Refused { reason } = reason else { panic!("turn {}: {reason:?}", turn.turn) };
            let invalid: Invalid = serde_json::from_value(reason.clone()).unwrap();
            assert_eq!(invalid, Invalid::TooManyOrders { given: max + 1, max });
            // Decoded (the replay keeps it), then refused by the engine's check.
            assert_eq!(seat_turn.answer.as_ref().map(Vec::len), Some(max + 1));
        } else {
            let InvalidReason::Malformed { detail } = reason else { panic!("turn {}: {reason:?}", turn.turn) };
            assert!(detail.contains(&format!("{} orders", MAX_ORDERS + 1)), "{detail}");
            // Refused while decoding: nothing of it is kept.
            assert_eq!(seat_turn.answer, None);
        }
    }
    let [flood_result, swarm_result] = record.result.players.as_slice() else { panic!() };
    assert_eq!(flood_result.invalid_actions as usize, flood.len());
    assert!(!flood_result.forfeit && flood_result.traps == 0, "{flood_result:?}");
    assert_eq!(swarm_result.invalid_actions, 0);
    assert!(turns_of(&record, 1).iter().all(|seat_turn| seat_turn.faults.is_empty()));
    assert_eq!(record.result.winner, Some(1));
    assert!(ended(&record));
}

/// Results report fuel and faults as for any bot: a turn budget below what the swarm spends on
/// some turns suspends it (skipped turns, `Suspended` faults), the match still completes, and
/// per-turn fuel adds up to the totals the result reports.
#[test]
fn fuel_and_faults_are_reported() {
    let budget = Budget { turn_fuel: 250_000, ..Budget::default() };
    let record = play(&["eubots-swarm", "eubots-random"], &EubotsConfig::default(), 1, budget);
    assert!(ended(&record) || record.result.players.iter().any(|player| player.forfeit));
    for (seat, player) in record.result.players.iter().enumerate() {
        let turns = turns_of(&record, seat);
        let spent: u64 = record.setup[seat].fuel + turns.iter().map(|seat_turn| seat_turn.fuel).sum::<u64>();
        assert_eq!(spent, player.fuel_total, "seat {seat}");
        assert_eq!(
            turns.iter().map(|seat_turn| seat_turn.fuel).max().unwrap_or(0),
            player.fuel_max_turn,
            "seat {seat}"
        );
        let suspended = turns.iter().filter(|seat_turn| seat_turn.faults.contains(&BotFault::Suspended)).count();
        assert_eq!(suspended as u32, player.skipped_turns, "seat {seat}");
    }
    let swarm = &record.result.players[0];
    assert!(swarm.skipped_turns > 0, "the swarm spends more than 250k on some turns: {swarm:?}");
    assert!(record.result.players[1].skipped_turns == 0, "{:?}", record.result.players[1]);
}

/// `--option map=FILE` keeps the map's contents in the config: a small custom map plays, with
/// handles in reading order, and the swarm wins it.
#[test]
fn a_custom_map_plays() {
    let map = "1..#....\n1..#...2\n1......2\n....#..2\n";
    let config = EubotsConfig { map: MapChoice::Text(map.to_string()), unequal: false };
    let record = play(&["eubots-swarm", "eubots-random"], &config, 2, Budget::default());
    assert!(ended(&record));
    assert_eq!(record.result.winner, Some(0), "{:?}", record.result);
    assert_eq!(record.config, config);
}
