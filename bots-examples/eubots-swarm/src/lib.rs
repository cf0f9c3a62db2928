//! `eubots-swarm`: focus fire.
//!
//! - Units next to enemies gang up on them, as many attackers per target as it has defence left
//!   (two for a fresh unit), so that attacks kill in one turn rather than spread damage. Units
//!   with the fewest targets choose first; each joins the target that already has the most
//!   attackers but still needs more.
//! - Every other unit walks towards the nearest enemy that this turn's attacks do not already
//!   kill, around walls ([`DistanceField`]), the units closest to the front first, never two onto
//!   one square. A unit whose move failed last turn waits instead with probability 1/2, so that
//!   two fronts contesting the same squares (a mirror match) do not block each other forever.
//! - Fuel: the walk's distance field is the expensive part. While at least half of the game fuel
//!   is left it is recomputed every turn; then every [`SLOW_PERIOD`] turns; below a fifth of the
//!   game fuel the swarm only attacks (its other units wait), so a long match never makes it
//!   forfeit.

use arena_sdk::eubots::prelude::*;

/// Turns a distance field is reused for once half of the game fuel is spent.
pub const SLOW_PERIOD: u32 = 4;

/// How much the swarm may spend this turn.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Pace {
    /// A fresh distance field every turn.
    Full,
    /// A fresh distance field every [`SLOW_PERIOD`] turns.
    Slow,
    /// Attacks only; the other units wait.
    Hold,
}

/// Focus fire and advance (see the crate docs).
#[derive(Default)]
pub struct Swarm {
    rng: Option<GameRng>,
    game_fuel: u64,
    /// The last distance field, the turn it was computed for, and whether it covers the whole
    /// map (only such a field is kept for later turns).
    field: Option<(u32, bool, DistanceField)>,
}

impl Swarm {
    /// The pace for `remaining` fuel out of the game's.
    pub fn pace(&self, remaining: u64) -> Pace {
        if self.game_fuel == 0 || remaining >= self.game_fuel / 2 {
            Pace::Full
        } else if remaining >= self.game_fuel / 5 {
            Pace::Slow
        } else {
            Pace::Hold
        }
    }

    /// The swarm's orders for `view`, one per own unit, in handle order.
    pub fn choose(&mut self, view: &BoardState, pace: Pace) -> Vec<Order> {
        let me = view.metrics.player;
        let own = view.own_units();
        let mut orders: Vec<Order> = Vec::with_capacity(own.len());

        // Attacks.
        let mut attackers = vec![0u8; view.units.len()];
        let mut fighters: Vec<(Handle, Vec<(Direction, Handle)>)> = own
            .iter()
            .map(|(handle, unit)| (*handle, view.adjacent_enemies(unit.pos)))
            .filter(|(_, adjacent)| !adjacent.is_empty())
            .collect();
        fighters.sort_by_key(|(handle, adjacent)| (adjacent.len(), *handle));
        let needed = |target: Handle| view.unit(target).map_or(0, |unit| unit.defence);
        let count = |attackers: &[u8], target: Handle| {
            usize::try_from(target).ok().and_then(|index| attackers.get(index)).copied().unwrap_or(u8::MAX)
        };
        let mut busy = vec![false; view.units.len()];
        for (handle, adjacent) in fighters {
            let best = adjacent
                .iter()
                .filter(|(_, target)| count(&attackers, *target) < needed(*target))
                .max_by_key(|(_, target)| (count(&attackers, *target), std::cmp::Reverse(needed(*target))));
            if let Some((direction, target)) = best {
                if let Some(n) = usize::try_from(*target).ok().and_then(|index| attackers.get_mut(index)) {
                    *n += 1;
                }
                if let Some(flag) = usize::try_from(handle).ok().and_then(|index| busy.get_mut(index)) {
                    *flag = true;
                }
                orders.push(Order::attack(handle, *direction));
            }
        }
        let is_busy = |busy: &[bool], handle: Handle| {
            usize::try_from(handle).ok().and_then(|index| busy.get(index)).copied().unwrap_or(true)
        };
        let walkers: Vec<(Handle, Pos, Status)> = own
            .iter()
            .filter(|(handle, _)| !is_busy(&busy, *handle))
            .map(|(handle, unit)| (*handle, unit.pos, unit.status))
            .collect();
        if pace == Pace::Hold || walkers.is_empty() {
            orders.extend(walkers.iter().map(|(handle, _, _)| Order::wait(*handle)));
            orders.sort_unstable_by_key(|order| order.handle);
            return orders;
        }

        // Moves, on the distance to the nearest enemy that this turn's attacks do not kill.
        let turn = view.metrics.turn;
        let stale = match (&self.field, pace) {
            (Some((computed, true, _)), Pace::Slow) => turn.saturating_sub(*computed) >= SLOW_PERIOD,
            _ => true,
        };
        if stale {
            let targets: Vec<Pos> = (0u32..)
                .zip(&view.units)
                .filter_map(|(handle, unit)| Some((handle, unit.as_ref()?)))
                .filter(|(handle, unit)| unit.owner != me && count(&attackers, *handle) < needed(*handle))
                .map(|(_, unit)| unit.pos)
                .collect();
            // A field kept for later turns covers the whole map; this turn's only needs to reach
            // the walkers.
            let goals: Vec<Pos> =
                if pace == Pace::Full { walkers.iter().map(|(_, pos, _)| *pos).collect() } else { Vec::new() };
            self.field = Some((turn, goals.is_empty(), DistanceField::reaching(&view.map, targets, &goals)));
        }
        let Some((_, _, field)) = &self.field else {
            return orders;
        };
        let rng = self.rng.get_or_insert_with(|| new_rng(0));
        let mut walkers: Vec<(u32, Handle, Pos, Status)> =
            walkers.into_iter().map(|(handle, pos, status)| (field.get(pos), handle, pos, status)).collect();
        walkers.sort_unstable();
        let mut claimed = vec![false; view.map.squares.len()];
        for (here, handle, pos, status) in walkers {
            if status == Status::MoveFail && rng_below(rng, 2) == 0 {
                orders.push(Order::wait(handle));
                continue;
            }
            // The free neighbour closest to a target, if it is closer than here: not a wall,
            // not an enemy, not one of ours that stays, not claimed by another walker.
            let mut best: Option<(u32, Direction, usize)> = None;
            for direction in DIRECTIONS {
                let to = pos.step(direction);
                let steps = field.get(to);
                if steps >= best.map_or(here, |(best, _, _)| best) {
                    continue;
                }
                let free = match view.square(to) {
                    Square::Empty => true,
                    Square::Wall => false,
                    Square::Unit(other) => {
                        view.unit(other).is_some_and(|unit| unit.owner == me) && !is_busy(&busy, other)
                    }
                };
                if let Some(index) = view.map.index(to).filter(|index| free && claimed.get(*index) == Some(&false)) {
                    best = Some((steps, direction, index));
                }
            }
            match best {
                Some((_, direction, index)) => {
                    if let Some(taken) = claimed.get_mut(index) {
                        *taken = true;
                    }
                    orders.push(Order::walk(handle, direction));
                }
                None => orders.push(Order::wait(handle)),
            }
        }
        orders.sort_unstable_by_key(|order| order.handle);
        orders
    }
}

impl EubotsBot for Swarm {
    /// Seeds the tie-breaking generator from the host's seed and the seat (two copies of this bot
    /// in one match get the same seed; their seats differ).
    fn init(&mut self, info: &InitInfo) {
        self.rng = Some(new_rng(info.seed ^ u64::from(info.seat).wrapping_mul(0x9E37_79B9_7F4A_7C15)));
        self.game_fuel = info.game_fuel;
    }

    fn act(&mut self, view: &View) -> Vec<Order> {
        let pace = self.pace(view.info.game_fuel_remaining);
        self.choose(&view.state, pace)
    }
}

arena_sdk::export_eubots_bot!(Swarm);

#[cfg(test)]
mod tests {
    use super::*;
    use arena_sdk::eubots::prelude::rules;

    fn view_of(map: &str, player: u8) -> BoardState {
        let (grid, units) = setup(map);
        BoardState {
            metrics: Metrics {
                width: grid.width,
                height: grid.height,
                players: 2,
                player,
                total_units: units.len() as u32,
                units_remaining: rules::units_remaining(&units, 2),
                turn: 1,
            },
            map: grid,
            units,
            ignored: Vec::new(),
        }
    }

    /// A tiny map parser for tests: `.`, `#`, `1`, `2`; handles in reading order.
    fn setup(text: &str) -> (Grid, Vec<Option<Unit>>) {
        let rows: Vec<&str> = text.lines().collect();
        let mut grid = Grid::new(rows[0].len() as i32, rows.len() as i32);
        let mut units = Vec::new();
        for (y, row) in (1..).zip(&rows) {
            for (x, c) in (1..).zip(row.chars()) {
                let pos = Pos::new(x, y);
                match c {
                    '#' => {
                        grid.set(pos, Square::Wall);
                    }
                    '1' | '2' => {
                        grid.set(pos, Square::Unit(units.len() as u32));
                        units.push(Some(Unit::new(if c == '1' { 0 } else { 1 }, pos)));
                    }
                    _ => {}
                }
            }
        }
        (grid, units)
    }

    /// Two attackers per fresh target; the third unit walks on.
    #[test]
    fn two_attackers_per_target() {
        // Handles: 0 = (2,1) seat 0, 1 = (3,1) seat 1, 2 = (2,2) seat 0, 3 = (1,3) seat 0,
        // 4 = (5,3) seat 1.
        let view = view_of(".12..\n.1...\n1...2\n", 0);
        let orders = Swarm::default().choose(&view, Pace::Full);
        assert_eq!(orders.len(), 3);
        assert_eq!(orders[0], Order::attack(0, Direction::E));
        assert_eq!(orders[1], Order::attack(2, Direction::NE));
        assert_eq!(orders[2].action, Action::Move, "{orders:?}");
        assert!(view.check(&orders).is_ok());
    }

    /// Walkers go around walls towards the enemy.
    #[test]
    fn walks_around_walls() {
        let view = view_of("1#...\n.#..2\n.....\n", 0);
        let orders = Swarm::default().choose(&view, Pace::Full);
        assert_eq!(orders, vec![Order::walk(0, Direction::S)]);
    }
}
