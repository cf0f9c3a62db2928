//! Tests of the pure rule functions on hand-built grids: each cites the eubots.md rule it checks.
//! The movement phase is also checked against a literal reading of the spec's fixed point.

use super::*;
use crate::Map;
use crate::grid::Direction::{self, E, N, S, W};
use arena_game::{new_rng, rng_below};

/// Grid and units index of a map text, for `players` seats (unequal counts allowed).
fn board(text: &str, players: usize) -> (Grid, Vec<Option<Unit>>) {
    let (grid, units) = Map::parse(text).unwrap().setup(players, true).unwrap();
    (grid, units.into_iter().map(Some).collect())
}

/// eubots.md "Arena": 1 <= x <= width, 1 <= y <= height.
#[test]
fn in_map_bounds() {
    assert!(in_map(3, 2, Pos::new(1, 1)));
    assert!(in_map(3, 2, Pos::new(3, 2)));
    for pos in [Pos::new(0, 1), Pos::new(4, 1), Pos::new(1, 0), Pos::new(1, 3), Pos::new(-1, -1)] {
        assert!(!in_map(3, 2, pos), "{pos}");
    }
    assert!(!in_map(0, 0, Pos::new(1, 1)));
}

/// eubots.md "Orders": the handle must exist, the unit be alive and belong to the seat.
#[test]
fn check_order_in_order() {
    let (_, mut units) = board("12\n", 2);
    assert_eq!(check_order(&units, 0, &Order::wait(0)), Ok(()));
    assert_eq!(check_order(&units, 0, &Order::wait(1)), Err(OrderError::NotYourUnit { handle: 1, owner: 1 }));
    assert_eq!(check_order(&units, 0, &Order::wait(2)), Err(OrderError::UnknownUnit { handle: 2 }));
    assert_eq!(check_order(&units, 0, &Order::wait(u32::MAX)), Err(OrderError::UnknownUnit { handle: u32::MAX }));
    units[1] = None;
    assert_eq!(check_order(&units, 0, &Order::wait(1)), Err(OrderError::DeadUnit { handle: 1 }));
}

/// eubots.md "Orders" and "Resolution" 1: accepted orders come out by handle, ignored ones in the
/// answer's order; every order of a unit named twice is ignored, valid or not otherwise.
#[test]
fn validation_sorts_the_answer() {
    let (_, units) = board("1112\n", 2);
    let answer = [Order::walk(2, E), Order::wait(3), Order::attack(0, W), Order::walk(1, N), Order::wait(1)];
    let validation = validate_orders(&units, 0, &answer);
    assert_eq!(validation.accepted, [Order::attack(0, W), Order::walk(2, E)]);
    let reasons: Vec<(Order, OrderError)> = validation.ignored.iter().map(|i| (i.order, i.reason)).collect();
    assert_eq!(
        reasons,
        [
            (Order::wait(3), OrderError::NotYourUnit { handle: 3, owner: 1 }),
            (Order::walk(1, N), OrderError::Duplicate { handle: 1, count: 2 }),
            (Order::wait(1), OrderError::Duplicate { handle: 1, count: 2 }),
        ]
    );
    // Orders for foreign units do not count towards a duplicate of one's own.
    let validation = validate_orders(&units, 1, &[Order::wait(3), Order::wait(0)]);
    assert_eq!(validation.accepted, [Order::wait(3)]);
}

/// eubots.md "What a bot sees" [ours]: at most one order per entry of the units index; a seat
/// without units is not asked.
#[test]
fn answer_bounds() {
    let (_, mut units) = board("1.2\n1..\n", 2);
    assert_eq!(max_orders(&units), 3);
    assert_eq!(check_answer(&units, 0, &[Order::wait(0); 3]), Ok(()));
    assert_eq!(check_answer(&units, 0, &[Order::wait(0); 4]), Err(Invalid::TooManyOrders { given: 4, max: 3 }));
    units[1] = None;
    assert_eq!(check_answer(&units, 1, &[]), Err(Invalid::NotActing { seat: 1 }));
    assert_eq!(check_answer(&units, 7, &[]), Err(Invalid::NotActing { seat: 7 }));
    assert_eq!(max_orders(&units), 3, "the bound does not shrink when units die");
    assert_eq!(units_remaining(&units, 2), [2, 0]);
}

/// eubots.md "Resolution" 3, read literally: start with every remaining move successful and fail
/// moves into squares held by a unit not moving away, until nothing changes.
fn reference_moves(grid: &Grid, units: &[Option<Unit>], movers: &[Order]) -> Vec<Option<MoveFail>> {
    let pos = |handle: Handle| units[handle as usize].unwrap().pos;
    let to: Vec<Pos> = movers.iter().map(|order| pos(order.handle).step(order.direction)).collect();
    let mut fate: Vec<Option<MoveFail>> = to
        .iter()
        .map(|dest| {
            if !grid.is_open(*dest) {
                Some(MoveFail::Wall)
            } else if to.iter().filter(|other| *other == dest).count() > 1 {
                Some(MoveFail::Contested)
            } else {
                None
            }
        })
        .collect();
    loop {
        let mut changed = false;
        for k in 0..movers.len() {
            if fate[k].is_some() {
                continue;
            }
            if let Square::Unit(occupant) = grid.get(to[k]) {
                let moving = movers.iter().zip(&fate).any(|(order, f)| order.handle == occupant && f.is_none());
                if !moving {
                    fate[k] = Some(MoveFail::Occupied);
                    changed = true;
                }
            }
        }
        if !changed {
            return fate;
        }
    }
}

/// Random crowded grids with random move orders: [`resolve_moves`] agrees with the literal fixed
/// point, whatever order the movers are listed in; it moves units consistently in grid and index.
#[test]
fn movement_matches_the_literal_fixed_point_in_any_order() {
    let mut rng = new_rng(3);
    for case in 0..2_000 {
        let (width, height) = (1 + rng_below(&mut rng, 5) as i32, 1 + rng_below(&mut rng, 5) as i32);
        let mut text = String::new();
        for _ in 0..height {
            for _ in 0..width {
                text.push(match rng_below(&mut rng, 10) {
                    0 => '#',
                    1..=3 => '.',
                    n if n % 2 == 0 => '1',
                    _ => '2',
                });
            }
            text.push('\n');
        }
        let Ok(map) = Map::parse(&text) else { continue };
        let Ok((grid, units)) = map.setup(2, true) else { continue };
        let units: Vec<Option<Unit>> = units.into_iter().map(Some).collect();
        let mut movers = Vec::new();
        for handle in 0..units.len() as u32 {
            let direction = Direction::ALL[rng_below(&mut rng, 8) as usize];
            if rng_below(&mut rng, 4) > 0 {
                movers.push(Order::walk(handle, direction));
            }
        }
        let expected = reference_moves(&grid, &units, &movers);

        let mut results = Vec::new();
        for reversed in [false, true] {
            let mut list = movers.clone();
            if reversed {
                list.reverse();
            }
            let (mut g, mut u) = (grid.clone(), units.clone());
            let fates = resolve_moves(&mut g, &mut u, &list);
            let mut by_handle: Vec<(Handle, Option<MoveFail>)> =
                list.iter().zip(&fates).map(|(order, fate)| (order.handle, fate.err())).collect();
            by_handle.sort_by_key(|(handle, _)| *handle);
            results.push((by_handle, g, u));
        }
        let want: Vec<(Handle, Option<MoveFail>)> = movers.iter().map(|o| o.handle).zip(expected).collect();
        assert_eq!(results[0].0, want, "case {case}:\n{text}{movers:?}");
        assert_eq!(results[0], results[1], "case {case}: order changed the result");
        let (g, u) = (&results[0].1, &results[0].2);
        for (handle, unit) in u.iter().enumerate() {
            assert_eq!(g.get(unit.unwrap().pos), Square::Unit(handle as u32), "case {case}");
        }
        let unit_squares = g.squares.iter().filter(|s| s.unit().is_some()).count();
        assert_eq!(unit_squares, u.len(), "case {case}: no two units share a square");
    }
}

/// eubots.md "Resolution" 3: a long chain resolves in one pass of its work list (no quadratic
/// blow-up) and fails all the way back from a blocked leader.
#[test]
fn long_chain_behind_a_wall() {
    let (mut grid, mut units) = board(&format!("{}#\n2{}\n", "1".repeat(254), ".".repeat(254)), 2);
    let movers: Vec<Order> = (0..254).map(|handle| Order::walk(handle, E)).collect();
    let fates = resolve_moves(&mut grid, &mut units, &movers);
    assert_eq!(fates[253], Err(MoveFail::Wall));
    assert!(fates[..253].iter().all(|fate| *fate == Err(MoveFail::Occupied)));
}

/// eubots.md "End of the match": the end conditions in their order [ours], with standings.
#[test]
fn match_end_conditions() {
    use Standing::{Drew, Lost, Won};
    assert_eq!(match_end(&[3, 1], &[2, 0], 0, 10), Some((EndReason::Win, vec![Won, Lost])));
    assert_eq!(
        match_end(&[3, 1], &[1, 0], 0, 10),
        Some((EndReason::Win, vec![Won, Lost])),
        "a win beats one unit each"
    );
    assert_eq!(match_end(&[0, 1, 2], &[0, 0, 0], 0, 10), Some((EndReason::WipeOut, vec![Lost, Drew, Drew])));
    assert_eq!(match_end(&[2, 2, 0], &[1, 1, 0], 0, 10), Some((EndReason::LastUnits, vec![Drew, Drew, Lost])));
    assert_eq!(match_end(&[2, 1], &[2, 1], 499, 4999), None);
    assert_eq!(match_end(&[2, 1], &[2, 1], 500, 600), Some((EndReason::NoDeaths, vec![Drew, Drew])));
    assert_eq!(match_end(&[2, 1], &[2, 1], 0, 5000), Some((EndReason::TurnCap, vec![Drew, Drew])));
    assert_eq!(match_end(&[2, 2], &[1, 1], 500, 5000), Some((EndReason::LastUnits, vec![Drew, Drew])));
    assert_eq!(scores(&[3, 0, 1]), [3, 0, 1]);
    // A win above a draw above a loss; equal standings share.
    assert_eq!(ranks(&[Lost, Drew, Drew, Lost]), [3, 1, 1, 3]);
    assert_eq!(ranks(&[Lost, Won]), [2, 1]);
}

/// eubots.md "Resolution": resolve_turn never panics on inconsistent input (a bot may feed it
/// any view it likes): units index shorter than the grid's handles, orders for unknown seats.
#[test]
fn resolve_turn_tolerates_inconsistent_input() {
    let (mut grid, mut units) = board("12\n21\n", 2);
    units.truncate(2);
    let orders = vec![vec![Order::attack(0, E), Order::walk(3, N)], vec![Order::walk(1, S)], vec![Order::wait(0)]];
    let events = resolve_turn(&mut grid, &mut units, &orders);
    assert!(!events.is_empty());
    let mut empty = Grid::default();
    let _ = resolve_turn(&mut empty, &mut [], &orders);
    let _ = resolve_moves(&mut empty, &mut [], &[Order::walk(5, S)]);
}
