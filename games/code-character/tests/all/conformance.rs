//! The shared conformance kit (docs/design.md#errors-tests-and-habits) plus whole-game properties
//! on seeded random playouts: code-character.md's invariants after every step (via
//! `check_invariants`: hp within bounds and never negative, unique ids, at most 150 bots and 100
//! towers per player, no bot inside water or a tower tile, towers on distinct walkable non-base
//! tiles), and the view's command check agreeing with the engine's rejections.

use crate::common;

use arena_code_character::{CodeCharacter, CodeCharacterConfig, Command, Rejection};
use arena_game::conformance::{Plan, check_game, check_symmetry};
use arena_game::{Game, new_rng, rng_below};

fn config(turns: u32) -> CodeCharacterConfig {
    CodeCharacterConfig { turns, map: None }
}

/// The `Game` contract (determinism, clones, JSON round trips of states and views, refusals,
/// `to_act`/`is_over`, invariants) on random playouts of 120 turns (debug builds are slow for
/// 1000), several seeds.
#[test]
fn conformance_kit() {
    check_game::<CodeCharacter>(&Plan { config: config(120), players: vec![2], seeds: 0..4, max_steps: 130 });
}

/// The kit's seat-swap property (Code Character declares itself symmetric): random playouts
/// and the same playouts with the seats swapped are exact mirror images, observations, events
/// and outcome, step by step, over many seeds.
#[test]
fn seat_swap_mirrors_random_playouts() {
    check_symmetry::<CodeCharacter>(&Plan { config: config(150), players: vec![2], seeds: 0..40, max_steps: 160 });
}

/// The kit on one full-length (1000-turn) match.
#[test]
fn conformance_kit_full_length() {
    check_game::<CodeCharacter>(&Plan { config: config(1000), players: vec![2], seeds: 7..8, max_steps: 1001 });
}

/// Property: seeded playouts mixing the flag-rush policy, junk commands and the engine's random
/// actions (and a passive player giving no answers) keep every invariant after every step, reach
/// the bot cap, and the view's
/// `check_commands` predicts exactly the rejections the engine reports.
#[test]
fn random_playouts_keep_the_invariants() {
    let mut max_bots = 0;
    let mut max_towers = 0;
    let mut rejections = 0;
    for seed in 0..6 {
        let mut game = CodeCharacter::new(&config(400), 2, seed).unwrap();
        let mut rng = new_rng(seed);
        let statics = [game.static_view(0), game.static_view(1)];
        while !game.is_over() {
            let mut answers = Vec::new();
            let mut predicted: Vec<Vec<Rejection>> = Vec::new();
            for (seat, statics) in statics.iter().enumerate() {
                let view = game.observe(seat);
                if seat == 1 && seed % 3 == 2 {
                    // A passive player (no answers): its bots pile up at the base to the cap.
                    answers.push((seat, None));
                    predicted.push(Vec::new());
                    continue;
                }
                let mut commands: Vec<Command> = match rng_below(&mut rng, 4) {
                    0 => game.random_action(seat, &mut rng).unwrap(),
                    _ => common::flag_rush(&view, statics, &mut rng),
                };
                commands.extend(common::junk(&view, &mut rng));
                let results = view.check_commands(statics, &commands);
                predicted.push(
                    commands
                        .iter()
                        .zip(results)
                        .filter_map(|(command, result)| {
                            result.err().map(|reason| Rejection { command: *command, reason })
                        })
                        .collect(),
                );
                answers.push((seat, Some(commands)));
            }
            game.step(&answers).unwrap();
            game.check_invariants().unwrap_or_else(|err| panic!("seed {seed}, turn {}: {err}", game.turn()));
            for (seat, predicted) in predicted.iter().enumerate() {
                let view = game.observe(seat);
                assert_eq!(&view.rejected, predicted, "seed {seed}, turn {}, seat {seat}", game.turn());
                rejections += view.rejected.len();
                max_bots = max_bots.max(view.bots.len());
                max_towers = max_towers.max(view.towers.len());
            }
        }
    }
    assert_eq!(max_bots, 150, "the bot cap is reached");
    assert!(max_towers >= 10, "towers get built ({max_towers})");
    assert!(rejections > 100);
}
