//! SuiteBot II's original JSON-per-round protocol: a plain WASI command bot
//! (`suitebot-stdio-random`, std only) plays WIT bots in one match through the registry, exactly
//! as `arena match` seats it, metered like any bot.
//!
//! Needs the bots built: `cargo xtask bots`.

use arena_host::Budget;
use arena_host::record::MatchRecord;
use arena_host::registry::find_game;
use arena_suitebot::{Action, Suitebot};
use arena_tests::{arena, play_registered, scratch, turns_of};

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
