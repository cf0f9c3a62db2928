//! The bot-facing [`View`]: what it shows (eubots.md "What a bot sees") and its helpers, which
//! must agree with the engine.

use arena_eubots::Direction::{E, NE, S, SE, W};
use arena_eubots::{
    Eubots, EubotsConfig, IgnoredOrder, MapChoice, Order, OrderError, Pos, Square, Status, View, rules,
};
use arena_game::{Game, Seat, new_rng, rng_below};

fn game(map: &str, players: usize) -> Eubots {
    Eubots::new(&EubotsConfig { map: MapChoice::Text(map.to_string()), unequal: true }, players, 0).unwrap()
}

/// eubots.md "What a bot sees": metrics (width, height, players, own id, total units, units
/// remaining per player, turn), the map and the whole units index, enemies included.
#[test]
fn view_shows_metrics_map_and_the_public_index() {
    let mut g = game("1.#2\n1..2\n", 2);
    let view = g.observe(1);
    assert_eq!(view.metrics.width, 4);
    assert_eq!(view.metrics.height, 2);
    assert_eq!(view.metrics.players, 2);
    assert_eq!(view.metrics.player, 1);
    assert_eq!(view.metrics.total_units, 4);
    assert_eq!(view.metrics.units_remaining, [2, 2]);
    assert_eq!(view.metrics.turn, 1);
    assert_eq!(view.units.len(), 4);
    assert_eq!(view.unit(0).unwrap().owner, 0, "enemy units are visible");
    assert_eq!(view.own_units().iter().map(|(handle, _)| *handle).collect::<Vec<_>>(), [1, 3]);
    assert_eq!(view.units_of(0).iter().map(|(handle, _)| *handle).collect::<Vec<_>>(), [0, 2]);
    assert_eq!(view.square(Pos::new(3, 1)), Square::Wall);
    assert_eq!(view.square(Pos::new(5, 1)), Square::Wall);
    assert_eq!(view.unit_at(Pos::new(1, 2)).map(|(handle, _)| handle), Some(2));
    assert_eq!(view.unit_at(Pos::new(2, 2)), None);
    assert_eq!(view.unit(9), None);
    g.step(&[(0, Some(vec![Order::walk(2, E)])), (1, None)]).unwrap();
    let view = g.observe(0);
    assert_eq!(view.metrics.turn, 2);
    assert_eq!(view.unit(2).unwrap().pos, Pos::new(2, 2));
    assert_eq!(view.unit(2).unwrap().status, Status::MoveSuccess);
    assert_eq!(view.unit(1).unwrap().status, Status::Invalid, "the enemy's flags are public too");
}

/// eubots.md "Units": the index's entry of a dead unit is empty; the index keeps its length.
#[test]
fn dead_units_leave_an_empty_entry() {
    let mut g = game("121\n2.2\n", 2);
    g.step(&[(0, Some(vec![Order::attack(0, E), Order::attack(2, W)])), (1, None)]).unwrap();
    let view = g.observe(1);
    assert_eq!(view.unit(1), None);
    assert_eq!(view.units.len(), 5);
    assert_eq!(view.metrics.total_units, 5);
    assert_eq!(view.metrics.units_remaining, [2, 2]);
}

/// The helpers: adjacent enemies in direction order, with the direction to attack.
#[test]
fn adjacent_enemies_in_direction_order() {
    let g = game("2.2\n.1.\n221\n", 2);
    let view = g.observe(0);
    let me = view.unit_at(Pos::new(2, 2)).unwrap().1.pos;
    let around: Vec<_> = view.adjacent_enemies(me).into_iter().map(|(direction, _)| direction).collect();
    use arena_eubots::Direction::{NW, SW};
    assert_eq!(around, [NE, NW, SW, S]);
    assert_eq!(view.enemy_at(Pos::new(3, 3)), None, "a friend");
    assert_eq!(view.enemy_at(Pos::new(1, 1)).map(|(handle, _)| handle), Some(0));
}

/// eubots.md "Orders" [ours]: the observer's ignored orders of last turn are reported back in
/// its next view, and `View::validate` predicts them.
#[test]
fn ignored_orders_are_reported_back() {
    let mut g = game("1.2\n1.2\n1.2\n", 2);
    let answer = vec![Order::walk(0, SE), Order::wait(1), Order::wait(2), Order::wait(2), Order::wait(7)];
    let predicted = g.observe(0).validate(&answer);
    assert_eq!(predicted.accepted, [Order::walk(0, SE)]);
    g.step(&[(0, Some(answer)), (1, None)]).unwrap();
    let view = g.observe(0);
    assert_eq!(view.ignored, predicted.ignored);
    assert_eq!(
        view.ignored,
        [
            IgnoredOrder { order: Order::wait(1), reason: OrderError::NotYourUnit { handle: 1, owner: 1 } },
            IgnoredOrder { order: Order::wait(2), reason: OrderError::Duplicate { handle: 2, count: 2 } },
            IgnoredOrder { order: Order::wait(2), reason: OrderError::Duplicate { handle: 2, count: 2 } },
            IgnoredOrder { order: Order::wait(7), reason: OrderError::UnknownUnit { handle: 7 } },
        ]
    );
    assert_eq!(view.unit(2).unwrap().status, Status::Invalid);
    g.step(&[(0, None), (1, None)]).unwrap();
    assert!(g.observe(0).ignored.is_empty(), "only last turn's");
}

/// The view's checks are the engine's, and simulating a turn with `rules::resolve_turn` on a copy
/// of the view predicts the engine's next state exactly, in random playouts.
#[test]
fn view_agrees_with_the_engine() {
    for seed in 0..20 {
        let players = 2 + (seed as usize % 3);
        let mut g = Eubots::new(&EubotsConfig::default(), players, seed).unwrap();
        let mut rng = new_rng(seed);
        while !g.is_over() {
            let mut answers: Vec<(Seat, Option<Vec<Order>>)> = Vec::new();
            for seat in g.to_act() {
                let view = g.observe(seat);
                let mut answer = g.random_action(seat, &mut rng).unwrap();
                if rng_below(&mut rng, 10) == 0 {
                    answer.resize(view.max_orders() + 1, Order::wait(0));
                }
                assert_eq!(view.check(&answer), g.check(seat, &answer), "seed {seed}, seat {seat}");
                answers.push((seat, g.check(seat, &answer).is_ok().then_some(answer)));
            }
            let view = g.observe(0);
            let (mut map, mut units) = (view.map.clone(), view.units.clone());
            let mut orders = vec![Vec::new(); players];
            for (seat, answer) in &answers {
                orders[*seat] = answer.clone().unwrap_or_default();
            }
            let predicted = rules::resolve_turn(&mut map, &mut units, &orders);
            let events = g.step(&answers).unwrap();
            assert_eq!(events[..predicted.len()], predicted[..], "seed {seed}");
            let after: View = g.observe(0);
            assert_eq!((after.map, after.units), (map, units), "seed {seed}");
        }
    }
}

/// The observation crosses the host/guest boundary as data: it round-trips through JSON.
#[test]
fn view_round_trips_through_json() {
    let mut g = game("12\n21\n", 2);
    g.step(&[(0, Some(vec![Order::attack(0, E), Order::walk(3, S), Order::wait(9)])), (1, None)]).unwrap();
    let view = g.observe(0);
    let back: View = serde_json::from_str(&serde_json::to_string(&view).unwrap()).unwrap();
    assert_eq!(back, view);
}
