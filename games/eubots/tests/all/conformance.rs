//! The shared conformance kit (docs/design.md#errors-tests-and-habits) on the standard maps and on
//! small maps, with 2, 3, 4 and 8 players: determinism, clone independence, serialisation round
//! trips, refused joint actions, and eubots.md's invariants after every step (`check_invariants`:
//! the grid and the units index agree, so no two units share a square and none stands in a wall;
//! living units have defence 1..=2; no seat has more units than it started with; a running match
//! meets no end condition).

use arena_eubots::{Eubots, EubotsConfig, MapChoice};
use arena_game::conformance::{Plan, check_game};

/// A 12 x 9 map with a wall block in the middle and, for each of `players` seats, a 2 x 2 block
/// of units at one of 8 spots around the rim (as the standard map places its blocks).
fn small_map(players: usize) -> String {
    let spots = [(1, 1), (6, 1), (11, 1), (11, 4), (11, 8), (6, 8), (1, 8), (1, 4)];
    let mut rows = vec![vec!['.'; 12]; 9];
    for row in rows.iter_mut().take(5).skip(4) {
        row[5] = '#';
        row[6] = '#';
    }
    for seat in 0..players {
        let (x, y) = spots[seat * 8 / players];
        let digit = char::from_digit(seat as u32 + 1, 10).unwrap();
        for (dx, dy) in [(0, 0), (1, 0), (0, -1), (1, -1)] {
            let (x, y) = (x + dx - 1, if y == 1 { y - dy - 1 } else { y + dy - 1 });
            rows[y as usize][x as usize] = digit;
        }
    }
    rows.iter().map(|row| row.iter().collect::<String>() + "\n").collect()
}

/// The `Game` contract on the built-in map (40 x 30, 30 units per player).
#[test]
fn conformance_standard_map() {
    let plan = Plan { config: EubotsConfig::default(), players: vec![2, 3, 4, 8], seeds: 0..10, max_steps: 6_000 };
    check_game::<Eubots>(&plan);
    let corners = EubotsConfig { map: MapChoice::Corners, unequal: false };
    check_game::<Eubots>(&Plan { config: corners, players: vec![4], seeds: 10..15, max_steps: 6_000 });
}

/// The `Game` contract over many seeds on small maps.
#[test]
fn conformance_small_maps() {
    for players in [2, 3, 4, 8] {
        let config = EubotsConfig { map: MapChoice::Text(small_map(players)), unequal: false };
        check_game::<Eubots>(&Plan { config, players: vec![players], seeds: 0..200, max_steps: 6_000 });
    }
}
