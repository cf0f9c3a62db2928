//! Whole-game properties on seeded random playouts (suitebot.md "Board", "One round", "End"):
//! every agent is on the board after each round, a field's points never grow, scores never drop,
//! and the bots' prediction helpers ([`View::explosion_schedule`], [`View::danger`]) agree with what
//! the engine then does.

use arena_game::{Game, Seat, new_rng};
use arena_suitebot::{Action, BoardEncoding, Event, Suitebot, SuitebotConfig, View};

fn configs() -> Vec<SuitebotConfig> {
    vec![
        SuitebotConfig::default(),
        SuitebotConfig { width: 6, height: 5, rounds: 60, blast_radius: 2, board: BoardEncoding::Nested },
    ]
}

/// Plays every seed, calling `check(before, after view of seat 0, actions, events)` per round.
fn for_each_round(mut check: impl FnMut(&View, &View, &[Action], &[Event])) {
    for config in configs() {
        for players in [2, 3, 4, 8] {
            for seed in 0..30 {
                let mut game = Suitebot::new(&config, players, seed).unwrap();
                let mut rng = new_rng(seed);
                while !game.is_over() {
                    let before = game.observe(0);
                    let actions: Vec<Action> =
                        (0..players).map(|seat| game.random_action(seat, &mut rng).unwrap()).collect();
                    let joint: Vec<(Seat, Option<Action>)> =
                        actions.iter().enumerate().map(|(seat, action)| (seat, Some(*action))).collect();
                    let events = game.step(&joint).unwrap();
                    game.check_invariants().unwrap();
                    check(&before, &game.observe(0), &actions, &events);
                }
            }
        }
    }
}

/// suitebot.md "Board", "One round" 5 and "Constants" (no regrowth, nothing costs points).
#[test]
fn agents_stay_on_the_board_points_never_grow_scores_never_drop() {
    for_each_round(|before, after, _, _| {
        let torus = after.torus();
        for (seat, player) in after.players.iter().enumerate() {
            assert!(torus.contains(player.agent), "seat {seat} off the board at {}", player.agent);
        }
        for (field, (was, is)) in before.points.iter().zip(&after.points).enumerate() {
            assert!(is <= was, "field {field}: {was} -> {is}");
        }
        for (was, is) in before.players.iter().zip(&after.players) {
            assert!(is.score >= was.score);
        }
    });
}

/// suitebot.md "One round" 4: in a round where nobody plants, the bombs the view schedules for
/// round 0 are exactly the ones that explode, and the agents killed by explosions are exactly the
/// living ones whose move ends on a field the view marks as blasted in round 0.
#[test]
fn the_views_predictions_match_the_engine() {
    let mut checked = 0;
    for_each_round(|before, _, actions, events| {
        if actions.contains(&Action::PlantBomb) {
            return;
        }
        let schedule = before.explosion_schedule();
        let predicted: Vec<_> =
            before.bombs.iter().zip(&schedule).filter(|(_, when)| **when == 0).map(|(bomb, _)| *bomb).collect();
        let exploded = events
            .iter()
            .find_map(|event| match event {
                Event::Exploded { bombs } => Some(bombs.clone()),
                _ => None,
            })
            .unwrap_or_default();
        assert_eq!(predicted, exploded);

        let danger = before.danger();
        let collided: Vec<u8> = events
            .iter()
            .flat_map(|event| match event {
                Event::Collided { seats, .. } => seats.clone(),
                _ => Vec::new(),
            })
            .collect();
        let expected: Vec<u8> = (0u8..)
            .zip(before.players.iter().zip(actions))
            .filter(|(seat, _)| !collided.contains(seat))
            .filter(|(_, (player, action))| {
                let to = before.neighbour(player.agent, **action);
                danger[before.torus().index(to).unwrap()] == Some(0)
            })
            .map(|(seat, _)| seat)
            .collect();
        let killed: Vec<u8> = events
            .iter()
            .filter_map(|event| match event {
                Event::Killed { seat, .. } => Some(*seat),
                _ => None,
            })
            .collect();
        assert_eq!(killed, expected);
        checked += usize::from(!exploded.is_empty());
    });
    assert!(checked > 100, "only {checked} rounds with explosions checked");
}
