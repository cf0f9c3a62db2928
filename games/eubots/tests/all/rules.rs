//! The rules of eubots.md, one test per rule, on small hand-made maps played through the engine.
//! Each test cites the rule it checks. Handles are given in map reading order (top row first,
//! west to east), seats are the map digit minus one.

use arena_eubots::Direction::{E, N, NE, NW, S, SE, SW, W};
use arena_eubots::{
    Action, EndReason, Eubots, EubotsConfig, Event, Handle, Invalid, MapChoice, MoveFail, Order, OrderError, Pos,
    Square, Standing, Status, Unit,
};
use arena_game::{Game, Seat, StepError};

/// A match on `map` (unequal unit counts allowed) for `players` seats.
fn game(map: &str, players: usize) -> Eubots {
    let config = EubotsConfig { map: MapChoice::Text(map.to_string()), unequal: true };
    let game = Eubots::new(&config, players, 0).unwrap();
    game.check_invariants().unwrap();
    game
}

/// Plays one turn: `orders` per seat; every other acting seat gives no orders.
fn turn(game: &mut Eubots, orders: &[(Seat, Vec<Order>)]) -> Vec<Event> {
    let actions: Vec<(Seat, Option<Vec<Order>>)> = game
        .to_act()
        .into_iter()
        .map(|seat| (seat, orders.iter().find(|(s, _)| *s == seat).map(|(_, list)| list.clone())))
        .collect();
    let events = game.step(&actions).unwrap();
    game.check_invariants().unwrap();
    events
}

fn unit(game: &Eubots, handle: Handle) -> Option<Unit> {
    game.observe(0).unit(handle).copied()
}

fn at(game: &Eubots, x: i32, y: i32) -> Square {
    game.observe(0).square(Pos::new(x, y))
}

fn status(game: &Eubots, handle: Handle) -> Status {
    unit(game, handle).unwrap().status
}

fn moves(events: &[Event]) -> Vec<(Handle, Result<Pos, MoveFail>)> {
    events
        .iter()
        .filter_map(|event| match event {
            Event::Moved { handle, to, .. } => Some((*handle, Ok(*to))),
            Event::Blocked { handle, reason, .. } => Some((*handle, Err(*reason))),
            _ => None,
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Arena and units

/// eubots.md "Arena" and "Units": 1-based map[x][y], handles in reading order, every unit at
/// defence 2 with status WAIT_SUCCESS on turn 1, the index as long as the initial total.
#[test]
fn setup_from_a_map_file() {
    let g = game(".1#\n2..\n..2\n", 2);
    let view = g.observe(1);
    assert_eq!((view.metrics.width, view.metrics.height), (3, 3));
    assert_eq!(view.metrics.players, 2);
    assert_eq!(view.metrics.player, 1);
    assert_eq!(view.metrics.total_units, 3);
    assert_eq!(view.metrics.units_remaining, [1, 2]);
    assert_eq!(view.metrics.turn, 1);
    assert_eq!(view.square(Pos::new(2, 1)), Square::Unit(0));
    assert_eq!(view.square(Pos::new(3, 1)), Square::Wall);
    assert_eq!(view.square(Pos::new(1, 2)), Square::Unit(1));
    assert_eq!(view.square(Pos::new(3, 3)), Square::Unit(2));
    assert_eq!(view.square(Pos::new(0, 2)), Square::Wall, "outside the map is a wall");
    assert_eq!(view.square(Pos::new(2, 4)), Square::Wall);
    for (handle, owner, pos) in [(0, 0, Pos::new(2, 1)), (1, 1, Pos::new(1, 2)), (2, 1, Pos::new(3, 3))] {
        let unit = view.unit(handle).unwrap();
        assert_eq!((unit.owner, unit.pos, unit.defence), (owner, pos, 2));
        assert_eq!(unit.status, Status::WaitSuccess);
        assert_eq!(unit.last_order, None);
    }
    assert_eq!(g.to_act(), vec![0, 1]);
}

/// eubots.md "Arena": unequal unit counts need the explicit option; players need units.
#[test]
fn unequal_maps_need_the_option() {
    let config = EubotsConfig { map: MapChoice::Text("11.2\n".into()), unequal: false };
    let err = Eubots::new(&config, 2, 0).unwrap_err().to_string();
    assert!(err.contains("unequal unit counts [2, 1]"), "{err}");
    let config = EubotsConfig { unequal: true, ..config };
    assert!(Eubots::new(&config, 2, 0).is_ok());
    let err = Eubots::new(&config, 3, 0).unwrap_err().to_string();
    assert!(err.contains("no unit for player 3"), "{err}");
    let config = EubotsConfig { map: MapChoice::Text("1.2\n..3\n".into()), unequal: false };
    let err = Eubots::new(&config, 2, 0).unwrap_err().to_string();
    assert!(err.contains("units for player 3"), "{err}");
}

/// eubots.md "Arena": 2 to 8 players.
#[test]
fn two_to_eight_players() {
    for players in [0, 1, 9] {
        assert!(Eubots::new(&EubotsConfig::default(), players, 0).is_err(), "{players}");
    }
    for players in 2..=8 {
        let g = Eubots::new(&EubotsConfig::default(), players, 0).unwrap();
        assert_eq!(g.to_act(), (0..players).collect::<Vec<_>>());
        assert_eq!(g.observe(0).metrics.total_units as usize, 30 * players);
    }
}

// ---------------------------------------------------------------------------------------------
// Orders and status flags

/// eubots.md "Orders": a unit with no order waits with status INVALID; a wait succeeds.
#[test]
fn no_order_means_wait_with_invalid() {
    let mut g = game("1.1\n...\n2.2\n", 2);
    turn(&mut g, &[(0, vec![Order::wait(0)])]);
    assert_eq!(status(&g, 0), Status::WaitSuccess);
    assert_eq!(unit(&g, 0).unwrap().last_order, Some(Order::wait(0)));
    assert_eq!(status(&g, 1), Status::Invalid);
    assert_eq!(unit(&g, 1).unwrap().last_order, None);
    assert_eq!(status(&g, 2), Status::Invalid, "seat 1 gave no answer at all");
    assert_eq!(at(&g, 1, 1), Square::Unit(0));
}

/// eubots.md "Orders": more than one order for a unit: it waits, status INVALID, and every one of
/// its orders is reported ignored.
#[test]
fn duplicate_orders_mean_wait_with_invalid() {
    let mut g = game("1.1\n...\n2.2\n", 2);
    let events = turn(&mut g, &[(0, vec![Order::walk(0, E), Order::walk(0, E)])]);
    assert_eq!(at(&g, 1, 1), Square::Unit(0), "it did not move");
    assert_eq!(status(&g, 0), Status::Invalid);
    let duplicate = OrderError::Duplicate { handle: 0, count: 2 };
    let ignored: Vec<OrderError> = g.observe(0).ignored.iter().map(|i| i.reason).collect();
    assert_eq!(ignored, [duplicate, duplicate]);
    assert_eq!(events.iter().filter(|e| matches!(e, Event::Ignored { seat: 0, .. })).count(), 2);
    assert!(g.observe(1).ignored.is_empty(), "each seat sees only its own");
}

/// eubots.md "Orders": orders for another player's unit, a dead unit or an unknown handle are
/// ignored (INVALID); the rest of the answer stands and the foreign unit is not affected.
#[test]
fn orders_for_units_one_may_not_command_are_ignored() {
    let mut g = game("12.\n1..\n..2\n", 2);
    // Kill h1 (seat 1 at (2,1)) first: h0 attacks E, h2 attacks NE.
    turn(&mut g, &[(0, vec![Order::attack(0, E), Order::attack(2, NE)])]);
    assert_eq!(unit(&g, 1), None);
    let answer = vec![Order::walk(3, W), Order::walk(1, E), Order::walk(99, E), Order::walk(0, S)];
    let events = turn(&mut g, &[(0, answer)]);
    let view = g.observe(0);
    let reasons: Vec<OrderError> = view.ignored.iter().map(|i| i.reason).collect();
    assert_eq!(
        reasons,
        [
            OrderError::NotYourUnit { handle: 3, owner: 1 },
            OrderError::DeadUnit { handle: 1 },
            OrderError::UnknownUnit { handle: 99 },
        ]
    );
    assert_eq!(at(&g, 3, 3), Square::Unit(3), "the foreign unit did not move");
    assert_eq!(status(&g, 3), Status::Invalid, "its owner gave it no order");
    assert_eq!(status(&g, 0), Status::MoveFail, "h0's own order stood (blocked by h2)");
    assert!(moves(&events).contains(&(0, Err(MoveFail::Occupied))));
}

/// eubots.md "What a bot sees" / issue bound: an answer longer than the units index is refused
/// as a whole, with a typed error, and the engine refuses to step with it.
#[test]
fn over_long_answers_are_refused() {
    let mut g = game("1.2\n1.2\n", 2);
    let long = vec![Order::wait(0); 5];
    assert_eq!(g.check(0, &long), Err(Invalid::TooManyOrders { given: 5, max: 4 }));
    assert_eq!(g.observe(0).check(&long), Err(Invalid::TooManyOrders { given: 5, max: 4 }));
    assert_eq!(g.check(0, &long[..4].to_vec()), Ok(()), "duplicates are ignored one by one, not refused");
    let hash = g.state_hash();
    let refused = g.step(&[(0, Some(long)), (1, None)]);
    assert!(matches!(refused, Err(StepError::Invalid { seat: 0, .. })), "{refused:?}");
    assert_eq!(g.state_hash(), hash, "a refused step changes nothing");
}

// ---------------------------------------------------------------------------------------------
// Attack phase

/// eubots.md "Resolution" 2: damage from several attackers adds up; two attackers kill a unit of
/// defence 2 and both attacks succeed.
#[test]
fn two_attackers_kill_one_unit() {
    let mut g = game("121\n..2\n", 2);
    let events = turn(&mut g, &[(0, vec![Order::attack(0, E), Order::attack(2, W)])]);
    assert_eq!(unit(&g, 1), None, "the index entry is empty");
    assert_eq!(at(&g, 2, 1), Square::Empty);
    assert_eq!(status(&g, 0), Status::AttackSuccess);
    assert_eq!(status(&g, 2), Status::AttackSuccess);
    assert_eq!(g.observe(0).metrics.units_remaining, [2, 1]);
    assert_eq!(
        events,
        [
            Event::Hit { attacker: 0, target: 1, at: Pos::new(2, 1), defence: 1 },
            Event::Hit { attacker: 2, target: 1, at: Pos::new(2, 1), defence: 0 },
            Event::Died { handle: 1, owner: 1, at: Pos::new(2, 1) },
        ]
    );
}

/// eubots.md "Units" and "Resolution" 2: one attack leaves defence 1 and fails (the target did not
/// die); damage stays, so a single later hit kills.
#[test]
fn damage_persists_and_attack_succeeds_only_on_a_kill() {
    let mut g = game("12.\n..2\n", 2);
    turn(&mut g, &[(0, vec![Order::attack(0, E)])]);
    assert_eq!(unit(&g, 1).unwrap().defence, 1);
    assert_eq!(status(&g, 0), Status::AttackFail);
    turn(&mut g, &[(0, vec![Order::attack(0, E)])]);
    assert_eq!(unit(&g, 1), None);
    assert_eq!(status(&g, 0), Status::AttackSuccess);
}

/// eubots.md "Resolution" 2: attacks on empty squares, walls, outside the map or friendly units
/// fail and deal no damage.
#[test]
fn attacks_on_anything_but_an_enemy_fail() {
    let mut g = game("11#\n...\n..2\n", 2);
    let orders = vec![Order::attack(0, E), Order::attack(1, E)];
    let events = turn(&mut g, &[(0, orders), (1, vec![Order::attack(2, SE)])]);
    assert_eq!(unit(&g, 1).unwrap().defence, 2, "no friendly fire");
    assert_eq!(status(&g, 0), Status::AttackFail);
    assert_eq!(status(&g, 1), Status::AttackFail, "a wall");
    assert_eq!(status(&g, 2), Status::AttackFail, "outside the map");
    assert!(events.iter().all(|e| matches!(e, Event::Missed { .. })), "{events:?}");
    turn(&mut g, &[(0, vec![Order::attack(0, S)])]);
    assert_eq!(status(&g, 0), Status::AttackFail, "an empty square");
}

/// eubots.md "Resolution" 2: units die at the end of the attack phase, so a dying attacker still
/// deals its damage: two units at defence 1 attacking each other both die.
#[test]
fn dying_attackers_still_hit() {
    let mut g = game("12.\n1..\n.22\n", 2);
    // Bring h0 and h1 to defence 1: h2 hits h1 (NE), h1 hits h0 (W).
    turn(&mut g, &[(0, vec![Order::attack(2, NE)]), (1, vec![Order::attack(1, W)])]);
    assert_eq!((unit(&g, 0).unwrap().defence, unit(&g, 1).unwrap().defence), (1, 1));
    let events = turn(&mut g, &[(0, vec![Order::attack(0, E)]), (1, vec![Order::attack(1, W)])]);
    assert_eq!(unit(&g, 0), None);
    assert_eq!(unit(&g, 1), None);
    let deaths: Vec<Handle> =
        events.iter().filter_map(|e| if let Event::Died { handle, .. } = e { Some(*handle) } else { None }).collect();
    assert_eq!(deaths, [0, 1]);
}

/// eubots.md "Resolution" 2: a unit attacked while moving away dies before it could move.
#[test]
fn unit_attacked_while_moving_away_dies_and_does_not_move() {
    let mut g = game("12..\n1...\n...2\n", 2);
    let events = turn(&mut g, &[(0, vec![Order::attack(0, E), Order::attack(2, NE)]), (1, vec![Order::walk(1, E)])]);
    assert_eq!(unit(&g, 1), None);
    assert_eq!(at(&g, 2, 1), Square::Empty);
    assert_eq!(at(&g, 3, 1), Square::Empty, "it never moved");
    assert!(moves(&events).is_empty(), "{events:?}");
    // With only one attacker it survives the hit and moves on.
    let mut g = game("12..\n....\n...2\n", 2);
    turn(&mut g, &[(0, vec![Order::attack(0, E)]), (1, vec![Order::walk(1, E)])]);
    assert_eq!(at(&g, 3, 1), Square::Unit(1));
    assert_eq!(unit(&g, 1).unwrap().defence, 1);
    assert_eq!(status(&g, 1), Status::MoveSuccess);
    assert_eq!(status(&g, 0), Status::AttackFail);
}

/// eubots.md "Resolution" 2 and 3: a square emptied by a death in the attack phase is free in the
/// movement phase.
#[test]
fn the_square_of_a_dead_unit_is_free_to_move_into() {
    let mut g = game("121\n.1.\n..2\n", 2);
    let orders = vec![Order::attack(0, E), Order::attack(2, W), Order::walk(3, N)];
    turn(&mut g, &[(0, orders)]);
    assert_eq!(at(&g, 2, 1), Square::Unit(3));
    assert_eq!(status(&g, 3), Status::MoveSuccess);
}

// ---------------------------------------------------------------------------------------------
// Movement phase

/// eubots.md "Resolution" 3: moves onto walls and outside the map fail; onto empty squares succeed.
#[test]
fn moves_into_walls_fail() {
    let mut g = game("1#1\n...\n2.2\n", 2);
    let events = turn(&mut g, &[(0, vec![Order::walk(0, E)]), (1, vec![Order::walk(3, SE)])]);
    assert_eq!(moves(&events), [(0, Err(MoveFail::Wall)), (3, Err(MoveFail::Wall))]);
    assert_eq!(status(&g, 0), Status::MoveFail);
    assert_eq!(status(&g, 3), Status::MoveFail, "outside the map");
    let events = turn(&mut g, &[(0, vec![Order::walk(0, S)]), (1, vec![Order::walk(3, NW)])]);
    assert_eq!(moves(&events), [(0, Ok(Pos::new(1, 2))), (3, Ok(Pos::new(2, 2)))]);
    assert_eq!(status(&g, 3), Status::MoveSuccess);
    assert_eq!(unit(&g, 3).unwrap().last_order, Some(Order::walk(3, NW)));
}

/// eubots.md "Resolution" 3: when two or more units target the same square, all those moves fail,
/// whoever owns them, and a unit moving into one of their squares fails too.
#[test]
fn contested_square_fails_for_all() {
    let mut g = game("1.2\n1..\n2..\n", 2);
    // h0 (1,1) and h1 (3,1) both target (2,1); h2 (1,2) moves N into h0's square.
    let events = turn(&mut g, &[(0, vec![Order::walk(0, E), Order::walk(2, N)]), (1, vec![Order::walk(1, W)])]);
    assert_eq!(
        moves(&events),
        [(0, Err(MoveFail::Contested)), (1, Err(MoveFail::Contested)), (2, Err(MoveFail::Occupied))]
    );
    assert_eq!(at(&g, 2, 1), Square::Empty);
    assert_eq!((status(&g, 0), status(&g, 1), status(&g, 2)), (Status::MoveFail, Status::MoveFail, Status::MoveFail));
    // Three movers onto one square: all fail.
    let mut g = game("1.1\n...\n1.2\n", 2);
    let orders = vec![Order::walk(0, SE), Order::walk(1, SW), Order::walk(2, NE)];
    let events = turn(&mut g, &[(0, orders)]);
    assert!(moves(&events).iter().all(|(_, fate)| *fate == Err(MoveFail::Contested)), "{events:?}");
}

/// eubots.md "Resolution" 3 [ours] fixed point: a chain of movers behind a blocked leader all
/// fail, one after the other.
#[test]
fn chain_behind_a_blocked_leader_fails() {
    let mut g = game("1111#\n....2\n", 2);
    let orders: Vec<Order> = (0..4).map(|handle| Order::walk(handle, E)).collect();
    let events = turn(&mut g, &[(0, orders)]);
    assert_eq!(
        moves(&events),
        [
            (0, Err(MoveFail::Occupied)),
            (1, Err(MoveFail::Occupied)),
            (2, Err(MoveFail::Occupied)),
            (3, Err(MoveFail::Wall))
        ]
    );
    for (x, handle) in (1..=4).zip(0..) {
        assert_eq!(at(&g, x, 1), Square::Unit(handle));
        assert_eq!(status(&g, handle), Status::MoveFail);
    }
    // A waiting leader blocks the chain the same way; a leader that moves lets it all move.
    let mut g = game("1111.\n....2\n", 2);
    let mut orders: Vec<Order> = (0..3).map(|handle| Order::walk(handle, E)).collect();
    let events = turn(&mut g, &[(0, orders.clone())]);
    assert!(moves(&events).iter().all(|(_, fate)| *fate == Err(MoveFail::Occupied)), "{events:?}");
    orders.push(Order::walk(3, E));
    let events = turn(&mut g, &[(0, orders)]);
    assert_eq!(moves(&events).iter().filter(|(_, fate)| fate.is_ok()).count(), 4);
    assert_eq!(at(&g, 1, 1), Square::Empty);
    assert_eq!(at(&g, 5, 1), Square::Unit(3));
}

/// eubots.md "Resolution" 3 [ours]: a chain's leader that fails because it is contested fails
/// the whole chain behind it.
#[test]
fn chain_behind_a_contested_leader_fails() {
    let mut g = game("11.2\n....\n...2\n", 2);
    let events = turn(&mut g, &[(0, vec![Order::walk(0, E), Order::walk(1, E)]), (1, vec![Order::walk(2, W)])]);
    assert_eq!(
        moves(&events),
        [(0, Err(MoveFail::Occupied)), (1, Err(MoveFail::Contested)), (2, Err(MoveFail::Contested))]
    );
}

/// eubots.md "Resolution" 3 [ours]: three units rotating in a cycle all move.
#[test]
fn three_units_rotate_in_a_cycle() {
    let mut g = game("11.\n.1.\n..2\n", 2);
    // h0 (1,1) -> (2,1), h1 (2,1) -> (2,2), h2 (2,2) -> (1,1).
    let orders = vec![Order::walk(0, E), Order::walk(1, S), Order::walk(2, NW)];
    let events = turn(&mut g, &[(0, orders)]);
    assert_eq!(moves(&events), [(0, Ok(Pos::new(2, 1))), (1, Ok(Pos::new(2, 2))), (2, Ok(Pos::new(1, 1)))]);
    assert_eq!((at(&g, 2, 1), at(&g, 2, 2), at(&g, 1, 1)), (Square::Unit(0), Square::Unit(1), Square::Unit(2)));
    assert!((0..3).all(|handle| status(&g, handle) == Status::MoveSuccess));
}

/// eubots.md "Resolution" 3 [ours]: two units swapping squares both move, friends or enemies.
#[test]
fn two_units_swap() {
    let mut g = game("11\n22\n", 2);
    turn(&mut g, &[(0, vec![Order::walk(0, E), Order::walk(1, W)])]);
    assert_eq!((at(&g, 1, 1), at(&g, 2, 1)), (Square::Unit(1), Square::Unit(0)));
    assert_eq!((status(&g, 0), status(&g, 1)), (Status::MoveSuccess, Status::MoveSuccess));
    // Enemies swap diagonally: h1 now at (1,1), h3 at (2,2).
    turn(&mut g, &[(0, vec![Order::walk(1, SE)]), (1, vec![Order::walk(3, NW)])]);
    assert_eq!((at(&g, 1, 1), at(&g, 2, 2)), (Square::Unit(3), Square::Unit(1)));
}

/// eubots.md "Resolution" 3: a cycle that one member leaves by failing (it is contested from
/// outside) fails as a whole.
#[test]
fn a_broken_cycle_fails() {
    // h0 (1,1) E, h1 (2,1) S and h3 (2,2) NW would close a cycle, but h2 (3,1) SW contests h1's
    // destination (2,2): h1 fails, then h0 (into h1's square), then h3 (into h0's square).
    let mut g = game("111\n.1.\n..2\n", 2);
    let orders = vec![Order::walk(0, E), Order::walk(1, S), Order::walk(2, SW), Order::walk(3, NW)];
    let events = turn(&mut g, &[(0, orders)]);
    assert_eq!(
        moves(&events),
        [
            (0, Err(MoveFail::Occupied)),
            (1, Err(MoveFail::Contested)),
            (2, Err(MoveFail::Contested)),
            (3, Err(MoveFail::Occupied))
        ]
    );
}

/// eubots.md "Resolution" 1 and 3: an order's action decides the phase; a wait never moves and
/// blocks a mover.
#[test]
fn waiting_units_block_movers() {
    let mut g = game("11.\n..2\n", 2);
    let events = turn(&mut g, &[(0, vec![Order::walk(0, E), Order::wait(1)])]);
    assert_eq!(moves(&events), [(0, Err(MoveFail::Occupied))]);
    assert_eq!(status(&g, 1), Status::WaitSuccess);
    // An attacker stays put too.
    let events = turn(&mut g, &[(0, vec![Order::walk(0, E), Order::attack(1, E)])]);
    assert_eq!(moves(&events), [(0, Err(MoveFail::Occupied))]);
    assert_eq!(unit(&g, 1).unwrap().last_order.map(|o| o.action), Some(Action::Attack));
}

// ---------------------------------------------------------------------------------------------
// End of the match

fn game_ended(events: &[Event]) -> (EndReason, Vec<Standing>, Vec<i64>) {
    match events.last() {
        Some(Event::GameEnded { reason, standings, scores }) => (*reason, standings.clone(), scores.clone()),
        other => panic!("no end: {other:?} in {events:?}"),
    }
}

/// eubots.md "End of the match": one player left with units wins and scores 1 point per
/// surviving unit; the others score 0.
#[test]
fn last_player_with_units_wins() {
    let mut g = game("121\n1..\n", 2);
    let events = turn(&mut g, &[(0, vec![Order::attack(0, E), Order::attack(2, W)])]);
    assert!(events.contains(&Event::Eliminated { seat: 1 }));
    assert_eq!(game_ended(&events), (EndReason::Win, vec![Standing::Won, Standing::Lost], vec![3, 0]));
    assert!(g.is_over());
    assert!(g.to_act().is_empty());
    let outcome = g.outcome();
    assert_eq!(outcome.scores, [3, 0]);
    assert_eq!(outcome.ranks, [1, 2]);
    assert_eq!(outcome.winner(), Some(0));
    assert_eq!(g.end_reason(), Some(EndReason::Win));
    assert!(matches!(g.step(&[]), Err(StepError::GameOver)));
}

/// eubots.md "End of the match": all remaining players wiped out in the same turn: a draw, 0
/// points each.
#[test]
fn mutual_wipe_out_is_a_draw() {
    // A 2x2 block, friends on the diagonals: h0 (1,1) and h3 (2,2) of seat 0, h1 (2,1) and
    // h2 (1,2) of seat 1. Each pair facing east-west hits the other twice.
    let mut g = game("12\n21\n", 2);
    let all = |g: &mut Eubots| {
        turn(
            g,
            &[(0, vec![Order::attack(0, E), Order::attack(3, W)]), (1, vec![Order::attack(1, W), Order::attack(2, E)])],
        )
    };
    all(&mut g);
    assert!(!g.is_over());
    let events = all(&mut g);
    assert_eq!(game_ended(&events), (EndReason::WipeOut, vec![Standing::Drew; 2], vec![0, 0]));
    assert!(events.contains(&Event::Eliminated { seat: 0 }) && events.contains(&Event::Eliminated { seat: 1 }));
    let outcome = g.outcome();
    assert_eq!(outcome.winner(), None);
    assert_eq!((outcome.scores, outcome.ranks), (vec![0, 0], vec![1, 1]));
}

/// eubots.md "End of the match": in a wipe-out, a draw ranks above a loss: a player wiped out in
/// an earlier turn ranks below the players wiped out together at the end, all with 0 points.
/// Also: a player with no units is no longer asked for orders.
#[test]
fn wiped_out_players_are_no_longer_asked_and_rank_below_a_draw() {
    // The block of the previous test plus seat 2's h4 at (3,2), next to h1 (SE of it) and h3 (E).
    let mut g = game("12.\n213\n", 3);
    let events = turn(&mut g, &[(0, vec![Order::attack(3, E)]), (1, vec![Order::attack(1, SE)])]);
    assert_eq!(events.last(), Some(&Event::Eliminated { seat: 2 }));
    assert_eq!(g.to_act(), vec![0, 1], "seat 2 is no longer asked");
    assert_eq!(g.check(2, &Vec::new()), Err(Invalid::NotActing { seat: 2 }));
    assert_eq!(g.no_action(2), None);
    let with_seat_2: Vec<(Seat, Option<Vec<Order>>)> = vec![(0, None), (1, None), (2, None)];
    assert!(matches!(g.step(&with_seat_2), Err(StepError::WrongSeats { .. })));
    assert_eq!(g.observe(2).metrics.units_remaining, [2, 2, 0]);
    let all = |g: &mut Eubots| {
        turn(
            g,
            &[(0, vec![Order::attack(0, E), Order::attack(3, W)]), (1, vec![Order::attack(1, W), Order::attack(2, E)])],
        )
    };
    all(&mut g);
    let events = all(&mut g);
    let (reason, standings, scores) = game_ended(&events);
    assert_eq!(reason, EndReason::WipeOut);
    assert_eq!(standings, [Standing::Drew, Standing::Drew, Standing::Lost]);
    assert_eq!(scores, [0, 0, 0]);
    assert_eq!(g.outcome().ranks, [1, 1, 3]);
}

/// eubots.md "End of the match": when every remaining player has exactly one unit, a stalemate:
/// a draw, each scoring its surviving units.
#[test]
fn one_unit_each_is_a_stalemate() {
    let mut g = game("12\n21\n", 2);
    let duel = |g: &mut Eubots| turn(g, &[(0, vec![Order::attack(0, E)]), (1, vec![Order::attack(1, W)])]);
    duel(&mut g);
    let events = duel(&mut g);
    assert_eq!(game_ended(&events), (EndReason::LastUnits, vec![Standing::Drew; 2], vec![1, 1]));
    assert_eq!(g.outcome().ranks, [1, 1]);
    // [ours] A map giving every player one unit is a stalemate before turn 1.
    let g = game("1.2\n", 2);
    assert!(g.is_over());
    assert!(g.to_act().is_empty());
    assert_eq!(g.end_reason(), Some(EndReason::LastUnits));
    assert_eq!(g.outcome().scores, [1, 1]);
}

/// eubots.md "End of the match": a stalemate when no unit has died for 500 consecutive turns; a
/// death starts the count again. A stalemate is a draw for every remaining player whatever its
/// unit count [ours ranks], each scoring its units.
#[test]
fn five_hundred_turns_without_a_death_is_a_stalemate() {
    let mut g = game("121\n...\n2.2\n", 2);
    for _ in 0..300 {
        turn(&mut g, &[]);
    }
    let events = turn(&mut g, &[(0, vec![Order::attack(0, E), Order::attack(2, W)])]);
    assert!(events.iter().any(|e| matches!(e, Event::Died { handle: 1, .. })));
    for t in 0..499 {
        let events = turn(&mut g, &[]);
        assert!(events.is_empty() && !g.is_over(), "quiet turn {t}");
    }
    let events = turn(&mut g, &[]);
    assert_eq!(game_ended(&events), (EndReason::NoDeaths, vec![Standing::Drew; 2], vec![2, 2]));
    assert_eq!(g.turn(), 802);
    let mut g = game("11\n..\n.2\n", 2);
    for _ in 0..500 {
        assert!(!g.is_over());
        turn(&mut g, &[]);
    }
    assert_eq!(g.end_reason(), Some(EndReason::NoDeaths));
    let outcome = g.outcome();
    assert_eq!((outcome.scores, outcome.ranks), (vec![2, 1], vec![1, 1]));
}
