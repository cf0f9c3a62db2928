//! The shared conformance kit (docs/design.md#errors-tests-and-habits) plus whole-game properties
//! on random playouts: scores are painted-square counts that the events account for, paint never
//! disappears, and the view agrees with the engine.

use arena_game::conformance::{Plan, check_game};
use arena_game::{Game, Seat, new_rng};
use arena_paint::{Action, ActionKind, BOARD_NAMES, Board, Event, Paint, PaintConfig, Placement, Pos};

/// The `Game` contract and paint.md's invariants (avatars on distinct open squares of their own
/// colour, colours naming seats, no painted obstacle) after every step, for 2, 3 and 4 players.
#[test]
fn conformance_kit_2_3_4_players() {
    check_game::<Paint>(&Plan { config: PaintConfig::default(), players: vec![2, 3, 4], seeds: 0..60, max_steps: 200 });
}

/// The kit on every template, with the symmetric placement up to 8 players, and with obstacles.
#[test]
fn conformance_kit_templates_placements_obstacles() {
    for board in BOARD_NAMES {
        let config = PaintConfig { board, turns: Some(40), ..PaintConfig::default() };
        check_game::<Paint>(&Plan { config, players: vec![2, 5, 8], seeds: 0..8, max_steps: 100 });
    }
    let config = PaintConfig {
        placement: Placement::Symmetric,
        obstacles: vec![Pos::new(4, 4), Pos::new(4, 5), Pos::new(5, 4), Pos::new(5, 5), Pos::new(0, 1), Pos::new(1, 0)],
        ..PaintConfig::default()
    };
    check_game::<Paint>(&Plan { config, players: vec![2, 4], seeds: 0..20, max_steps: 200 });
}

/// Every action value a bot could send: both kinds with every vector in -2..=2.
fn every_action() -> Vec<Action> {
    let mut actions = Vec::new();
    for kind in [ActionKind::Walk, ActionKind::Shoot] {
        for di in -2..=2 {
            for dj in -2..=2 {
                actions.push(Action { kind, direction: [di, dj] });
            }
        }
    }
    actions
}

/// Replays one step's events on `board` and `positions`: walks move and paint, every avatar's
/// square is painted, shots paint what they list.
fn replay(board: &mut Board, positions: &mut [Pos], events: &[Event]) {
    for event in events {
        if let Event::Walked { seat, to, .. } = event {
            positions[usize::from(*seat)] = *to;
        }
    }
    for (seat, pos) in (0u8..).zip(positions.iter()) {
        board.paint(*pos, seat);
    }
    for event in events {
        if let Event::Shot { seat, painted, .. } = event {
            for pos in painted {
                assert!(board.paint(*pos, *seat));
            }
        }
    }
}

/// paint.md "End and score": each seat's score is the number of squares of its colour. Checked
/// against a board rebuilt from the events alone (so the events account for every change), with
/// painted squares never becoming unpainted, over random playouts with 2 to 4 players.
#[test]
fn scores_are_painted_square_counts_rebuilt_from_events() {
    for players in 2..=4 {
        for seed in 0..30 {
            let mut game = Paint::new(&PaintConfig::default(), players, seed).unwrap();
            let mut rng = new_rng(seed);
            let mut board = game.board().clone();
            let mut positions = game.positions().to_vec();
            let mut last = Vec::new();
            while !game.is_over() {
                let actions: Vec<(Seat, Option<Action>)> =
                    game.to_act().into_iter().map(|seat| (seat, game.random_action(seat, &mut rng))).collect();
                let painted_before = board.colors.iter().filter(|c| c.is_some()).count();
                let events = game.step(&actions).unwrap();
                replay(&mut board, &mut positions, &events);
                assert_eq!(&board, game.board(), "seed {seed}, {players} players: events do not explain the board");
                assert_eq!(positions, game.positions());
                assert!(board.colors.iter().filter(|c| c.is_some()).count() >= painted_before, "paint disappeared");
                let counts: Vec<i64> = (0..players)
                    .map(|seat| board.colors.iter().filter(|c| **c == Some(u8::try_from(seat).unwrap())).count() as i64)
                    .collect();
                assert_eq!(game.outcome().scores, counts);
                assert!(counts.iter().sum::<i64>() <= 100);
                last = events.into_iter().filter(|e| matches!(e, Event::GameEnded { .. })).collect();
            }
            assert_eq!(last, vec![Event::GameEnded { scores: game.outcome().scores }], "the final step ends the game");
        }
    }
}

/// paint.md "Original protocol" 2: the view's `check` is the engine's for every action value;
/// `squares_gained` predicts exactly what a step gains when the other seats do nothing.
#[test]
fn view_agrees_with_the_engine() {
    let all = every_action();
    for seed in 0..6 {
        let mut game = Paint::new(&PaintConfig::default(), 3, seed).unwrap();
        let mut rng = new_rng(seed);
        while !game.is_over() {
            for seat in game.to_act() {
                let view = game.observe(seat);
                for action in &all {
                    assert_eq!(view.check(action), game.check(seat, action), "seed {seed}, seat {seat}, {action:?}");
                }
                let accepted: Vec<Action> = all.iter().copied().filter(|a| game.check(seat, a).is_ok()).collect();
                let mut listed = view.legal_actions();
                listed.sort_by_key(|a| (a.kind, a.direction));
                assert_eq!(listed, accepted);
                for action in view.legal_actions() {
                    let mut alone = game.clone();
                    let joint: Vec<(Seat, Option<Action>)> =
                        alone.to_act().into_iter().map(|s| (s, (s == seat).then_some(action))).collect();
                    alone.step(&joint).unwrap();
                    let seat8 = u8::try_from(seat).unwrap();
                    let gained: Vec<Pos> = game
                        .board()
                        .squares()
                        .filter(|p| alone.board().color(*p) == Some(seat8) && game.board().color(*p) != Some(seat8))
                        .collect();
                    assert_eq!(view.squares_gained(&action), gained, "seed {seed}, seat {seat}, {action}");
                }
            }
            let actions: Vec<(Seat, Option<Action>)> =
                game.to_act().into_iter().map(|seat| (seat, game.random_action(seat, &mut rng))).collect();
            game.step(&actions).unwrap();
        }
    }
}
