//! Property tests on seeded random playouts (no extra crates): after every step of many matches,
//! on the standard and on small maps, with 2 to 8 players, eubots.md's invariants hold as seen
//! from the public view, and the step's events agree with the change of state.

use arena_eubots::{
    Action, DEFENCE, Eubots, EubotsConfig, Event, MapChoice, Pos, Square, Status, TURN_CAP, Unit, View,
};
use arena_game::{Game, GameRng, Seat, new_rng, rng_below};

/// A random small map: `players` seats with `units` units each on random open squares.
fn random_map(rng: &mut GameRng, players: usize, units: usize) -> String {
    let width = 6 + rng_below(rng, 12) as usize;
    let height = 5 + rng_below(rng, 10) as usize;
    let mut squares: Vec<char> = (0..width * height).map(|_| if rng_below(rng, 6) == 0 { '#' } else { '.' }).collect();
    let units = units.min(squares.iter().filter(|square| **square == '.').count() / players);
    for seat in 0..players {
        let digit = char::from_digit(seat as u32 + 1, 10).unwrap();
        for _ in 0..units {
            let free: Vec<usize> = (0..squares.len()).filter(|i| squares[*i] == '.').collect();
            let i = free[rng_below(rng, free.len() as u32) as usize];
            squares[i] = digit;
        }
    }
    squares.chunks(width).map(|row| row.iter().collect::<String>() + "\n").collect()
}

/// What must hold in every state, checked on the public view alone.
fn check_view(view: &View, walls: &[Pos], ctx: &str) {
    let living: Vec<(u32, &Unit)> =
        (0u32..).zip(&view.units).filter_map(|(handle, unit)| Some((handle, unit.as_ref()?))).collect();
    // No two units on one square, none in a wall or outside the map: each living unit stands on
    // its own square of the map, and the map shows exactly the living units.
    for (handle, unit) in &living {
        assert_eq!(view.square(unit.pos), Square::Unit(*handle), "{ctx}: unit {handle}");
        assert!(view.in_map(unit.pos), "{ctx}: unit {handle} outside the map");
        assert!(!walls.contains(&unit.pos), "{ctx}: unit {handle} in a wall");
        // Defence never below 1 for a living unit (below 1 it is dead), never above 2.
        assert!((1..=DEFENCE).contains(&unit.defence), "{ctx}: unit {handle} defence {}", unit.defence);
    }
    let on_map = view.map.squares.iter().filter(|square| square.unit().is_some()).count();
    assert_eq!(on_map, living.len(), "{ctx}: the map shows {on_map} units, the index {}", living.len());
    let walls_now = view.map.squares.iter().filter(|square| **square == Square::Wall).count();
    assert_eq!(walls_now, walls.len(), "{ctx}: walls changed");
    let mut counts = vec![0u32; usize::from(view.metrics.players)];
    for (_, unit) in &living {
        counts[usize::from(unit.owner)] += 1;
    }
    assert_eq!(counts, view.metrics.units_remaining, "{ctx}: metrics disagree with the index");
    assert_eq!(view.units.len(), view.metrics.total_units as usize, "{ctx}: the index changed length");
}

/// What must hold from one state to the next, given the step's events.
fn check_transition(before: &View, after: &View, events: &[Event], ctx: &str) {
    // The unit count never grows, per seat; exactly the units reported dead are gone.
    for (seat, (was, is)) in before.metrics.units_remaining.iter().zip(&after.metrics.units_remaining).enumerate() {
        assert!(is <= was, "{ctx}: seat {seat} went from {was} to {is} units");
    }
    let died: Vec<u32> =
        events.iter().filter_map(|e| if let Event::Died { handle, .. } = e { Some(*handle) } else { None }).collect();
    for (handle, (old, new)) in (0u32..).zip(before.units.iter().zip(&after.units)) {
        match (old, new) {
            (None, Some(_)) => panic!("{ctx}: unit {handle} came back to life"),
            (Some(_), None) => assert!(died.contains(&handle), "{ctx}: unit {handle} vanished without dying"),
            (Some(old), Some(new)) => {
                assert_eq!(old.owner, new.owner, "{ctx}: unit {handle} changed owner");
                assert!(new.defence <= old.defence, "{ctx}: unit {handle} healed");
                // A unit moves at most one step, and exactly when its move succeeded, in its
                // order's direction.
                let order = new.last_order;
                if new.status == Status::MoveSuccess {
                    let order = order.unwrap();
                    assert_eq!(order.action, Action::Move, "{ctx}");
                    assert_eq!(old.pos.step(order.direction), new.pos, "{ctx}: unit {handle}");
                } else {
                    assert_eq!(old.pos, new.pos, "{ctx}: unit {handle} moved with status {:?}", new.status);
                }
                // The status matches the order kind.
                let expected: &[Status] = match order.map(|o| o.action) {
                    None => &[Status::Invalid],
                    Some(Action::Wait) => &[Status::WaitSuccess],
                    Some(Action::Move) => &[Status::MoveSuccess, Status::MoveFail],
                    Some(Action::Attack) => &[Status::AttackSuccess, Status::AttackFail],
                };
                assert!(expected.contains(&new.status), "{ctx}: unit {handle}: {order:?} gave {:?}", new.status);
                // An attack succeeds exactly when the unit on its target square died this turn.
                if let Some(order) = order.filter(|o| o.action == Action::Attack) {
                    let target = before.square(old.pos.step(order.direction)).unit();
                    let killed = target
                        .is_some_and(|t| died.contains(&t) && before.unit(t).is_some_and(|t| t.owner != old.owner));
                    assert_eq!(new.status == Status::AttackSuccess, killed, "{ctx}: unit {handle} attack");
                }
            }
            (None, None) => {}
        }
    }
}

/// Plays one match with random answers, checking every step; returns the number of steps.
fn playout(config: &EubotsConfig, players: usize, seed: u64) -> usize {
    let mut game = Eubots::new(config, players, seed).unwrap();
    let mut rng = new_rng(seed);
    let first = game.observe(0);
    let walls: Vec<Pos> = first.map.positions().filter(|pos| first.square(*pos) == Square::Wall).collect();
    let mut steps = 0;
    while !game.is_over() {
        let ctx = format!("seed {seed}, {players} players, step {steps}");
        let before = game.observe(0);
        check_view(&before, &walls, &ctx);
        let actions: Vec<(Seat, Option<Vec<_>>)> =
            game.to_act().into_iter().map(|seat| (seat, game.random_action(seat, &mut rng))).collect();
        let events = game.step(&actions).unwrap();
        game.check_invariants().unwrap();
        let after = game.observe(0);
        check_view(&after, &walls, &ctx);
        check_transition(&before, &after, &events, &ctx);
        steps += 1;
        assert!(steps <= TURN_CAP as usize, "{ctx}: past the cap");
    }
    steps
}

/// eubots.md "Units" and "Resolution": the unit count never grows, defence stays 1..=2 for
/// living units, no two units share a square, no unit stands in a wall, units move at most one
/// step and only on MOVE_SUCCESS, statuses match orders; on the standard map.
#[test]
fn invariants_hold_on_the_standard_map() {
    for players in [2, 3, 4, 8] {
        for seed in 0..4 {
            playout(&EubotsConfig::default(), players, seed);
        }
    }
}

/// The same properties on random small maps (random walls, unequal unit counts allowed).
#[test]
fn invariants_hold_on_random_small_maps() {
    let mut rng = new_rng(99);
    let mut steps = 0;
    for seed in 0..1_000 {
        let players = 2 + rng_below(&mut rng, 7) as usize;
        let units = 1 + rng_below(&mut rng, 6) as usize;
        let config = EubotsConfig { map: MapChoice::Text(random_map(&mut rng, players, units)), unequal: true };
        steps += playout(&config, players, seed);
    }
    assert!(steps > 10_000, "the playouts are too short to mean much: {steps} steps");
}
