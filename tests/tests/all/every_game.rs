//! Every registered game end to end through the host, from one table: the registry. A game's
//! strong example bot (`ExampleBots::strong`) wins at least 80% of matches against its random
//! one over ten seeds, each seed played from both seats, under the default budgets, and neither
//! bot is ever suspended, trapped, refused or forfeited. A game added to the registry is covered
//! here with no line of its own; what is particular to one game is in that game's file.
//! Needs the example bots (`cargo xtask bots`).

use arena_host::Budget;
use arena_host::bot_data::BotFiles;
use arena_tests::{arena, bot_path};

#[test]
fn every_games_strong_example_beats_its_random_one_in_at_least_80_percent() {
    for entry in arena_host::registry::games() {
        let info = entry.info();
        let bots = [bot_path(info.examples.strong), bot_path(info.examples.random)];
        // Seat 0 is the strong bot in even matches, the random one in odd matches; any further
        // seat of a game of more than two holds a random bot.
        let plan: Vec<(u64, Vec<usize>)> = (0..10u64)
            .flat_map(|seed| {
                [0, 1].map(|strong_seat| {
                    let seating = (0..info.min_players).map(|seat| usize::from(seat != strong_seat)).collect();
                    (seed, seating)
                })
            })
            .collect();
        let played = entry
            .play_series(arena(), &BotFiles::all_code_only(&bots), &[], &plan, Budget::default())
            .expect("the matches are playable");
        let mut wins = 0;
        for ((seed, seating), played) in plan.iter().zip(&played) {
            let result = &played.result;
            for player in &result.players {
                assert!(
                    !player.forfeit && player.traps == 0 && player.invalid_actions == 0 && player.skipped_turns == 0,
                    "{} seed {seed}: {player:?}",
                    info.name
                );
            }
            let strong_seat = seating.iter().position(|bot| *bot == 0);
            wins += usize::from(result.winner.is_some() && result.winner == strong_seat);
        }
        println!("{}: {} won {wins} of {}", info.name, info.examples.strong, plan.len());
        assert!(wins * 100 >= plan.len() * 80, "{}: {} won {wins} of {}", info.name, info.examples.strong, plan.len());
    }
}
