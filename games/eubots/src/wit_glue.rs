//! Eubots' WIT conversions, written once for both sides of the wasm boundary: the host's
//! wasmtime bindings and the SDK's wit-bindgen bindings expand [`wit_glue!`](crate::wit_glue!)
//! against their own generated types.
//!
//! The view is sent as the WIT declares it: the map as one byte per square (empty, wall or unit,
//! row-major), and the public units index, which locates every unit (so handles are not repeated
//! in the map), as records of plain numbers (enums as their case indices, a dead unit as defence
//! 0) that cross the boundary as one block. The SDK rebuilds the engine's grid from them, reusing
//! the grid of an earlier view ([`next_grid`]): walls never change in a match.

use crate::{Action, Direction, Grid, Pos, Square, Status, Unit};
use arena_game::case_codes::{case_of, code_of};

/// The `square-kind` byte of an empty square.
pub const SQUARE_EMPTY: u8 = 0;
/// The `square-kind` byte of a wall.
pub const SQUARE_WALL: u8 = 1;
/// The `square-kind` byte of a square holding a living unit.
pub const SQUARE_UNIT: u8 = 2;

/// A units-index entry's `last-action` when the unit had no order last turn.
pub const NO_ORDER: u8 = 255;

/// The WIT `action` enum's cases, in order: a unit entry's `last-action` is the index.
const ACTIONS: [Action; 3] = [Action::Wait, Action::Move, Action::Attack];

/// The WIT `status` enum's cases, in order: a unit entry's `status` is the index.
const STATUSES: [Status; 6] = [
    Status::WaitSuccess,
    Status::MoveSuccess,
    Status::AttackSuccess,
    Status::MoveFail,
    Status::AttackFail,
    Status::Invalid,
];

/// `action`'s case index in the WIT `action` enum.
pub fn action_code(action: Action) -> u8 {
    code_of(&ACTIONS, &action)
}

/// The action with WIT case index `code`; `None` for [`NO_ORDER`] (and any other code).
pub fn action_from_code(code: u8) -> Option<Action> {
    case_of(&ACTIONS, code)
}

/// `direction`'s case index in the WIT `direction` enum (the spec's order, [`Direction::ALL`]).
pub fn direction_code(direction: Direction) -> u8 {
    code_of(&Direction::ALL, &direction)
}

/// The direction with WIT case index `code`; E for a code out of range.
pub fn direction_from_code(code: u8) -> Direction {
    case_of(&Direction::ALL, code).unwrap_or(Direction::E)
}

/// `status`'s case index in the WIT `status` enum.
pub fn status_code(status: Status) -> u8 {
    code_of(&STATUSES, &status)
}

/// The status with WIT case index `code`; INVALID for a code out of range.
pub fn status_from_code(code: u8) -> Status {
    case_of(&STATUSES, code).unwrap_or(Status::Invalid)
}

/// A coordinate as the WIT's `u8`; positions of living units are always inside the map, whose
/// sides are at most 255.
pub fn coordinate(value: i32) -> u8 {
    u8::try_from(value).unwrap_or(0)
}

/// The map, row-major, one `square-kind` byte per square.
pub fn squares_to_wit(grid: &Grid) -> Vec<u8> {
    grid.positions()
        .map(|pos: Pos| match grid.get(pos) {
            Square::Empty => SQUARE_EMPTY,
            Square::Wall => SQUARE_WALL,
            Square::Unit(_) => SQUARE_UNIT,
        })
        .collect()
}

/// Rebuilds the engine's grid: walls from the row-major square kinds (the engine's grid is
/// column-major), then each living unit's handle on its square.
pub fn grid_from_wit(width: i32, height: i32, kinds: &[u8], units: &[Option<Unit>]) -> Grid {
    let mut grid = Grid::new(width, height);
    let columns = usize::try_from(grid.width).unwrap_or(0).max(1);
    for (index, kind) in kinds.iter().enumerate() {
        if *kind == SQUARE_WALL {
            let (x, y) = (index % columns + 1, index / columns + 1);
            grid.set(Pos::new(i32::try_from(x).unwrap_or(0), i32::try_from(y).unwrap_or(0)), Square::Wall);
        }
    }
    for (handle, unit) in (0u32..).zip(units) {
        if let Some(unit) = unit {
            grid.set(unit.pos, Square::Unit(handle));
        }
    }
    grid
}

/// The grid of this turn from an earlier turn's grid (with the units it held): walls never
/// change in a match, so only the squares of units that moved, died or appeared since are
/// rewritten. `previous` need not be the turn just before (the SDK keeps the last view a bot
/// read): a pair of grid and units that agree is all it takes. Rebuilding the whole grid every
/// turn cost most of a do-nothing bot's turn (the allocation and fill are bulk memory, charged
/// per byte); a first view, or one of other sides or another units index length, is built from
/// scratch.
pub fn next_grid(
    previous: Option<(Grid, Vec<Option<Unit>>)>,
    width: i32,
    height: i32,
    kinds: &[u8],
    units: &[Option<Unit>],
) -> Grid {
    let Some((mut grid, left)) =
        previous.filter(|(grid, left)| (grid.width, grid.height) == (width, height) && left.len() == units.len())
    else {
        return grid_from_wit(width, height, kinds, units);
    };
    let square = |unit: &Option<Unit>| unit.as_ref().map(|unit| unit.pos);
    // The old squares of the units that moved are emptied first, then their new ones filled, so
    // a unit stepping onto a square another just left ends up there whatever the handles' order.
    for (old, new) in left.iter().zip(units) {
        if let Some(pos) = square(old)
            && square(new) != Some(pos)
        {
            grid.set(pos, Square::Empty);
        }
    }
    for ((handle, old), new) in (0u32..).zip(&left).zip(units) {
        if let Some(pos) = square(new)
            && square(old) != Some(pos)
        {
            grid.set(pos, Square::Unit(handle));
        }
    }
    grid
}

/// Expands to `view_to_wit`, `view_from_wit` (which reuses the grid of the instance's previous
/// view), `order_to_wit` and `order_from_wit` for the generated module `wit` in scope;
/// `$turn_info` is that side's generated `turn-info` type.
#[macro_export]
macro_rules! wit_glue {
    ($turn_info:ty) => {
        #[allow(dead_code)]
        fn direction_from_wit(direction: wit::Direction) -> $crate::Direction {
            use $crate::Direction;
            match direction {
                wit::Direction::E => Direction::E,
                wit::Direction::Ne => Direction::NE,
                wit::Direction::N => Direction::N,
                wit::Direction::Nw => Direction::NW,
                wit::Direction::W => Direction::W,
                wit::Direction::Sw => Direction::SW,
                wit::Direction::S => Direction::S,
                wit::Direction::Se => Direction::SE,
            }
        }

        #[allow(dead_code)]
        fn direction_to_wit(direction: $crate::Direction) -> wit::Direction {
            use $crate::Direction;
            match direction {
                Direction::E => wit::Direction::E,
                Direction::NE => wit::Direction::Ne,
                Direction::N => wit::Direction::N,
                Direction::NW => wit::Direction::Nw,
                Direction::W => wit::Direction::W,
                Direction::SW => wit::Direction::Sw,
                Direction::S => wit::Direction::S,
                Direction::SE => wit::Direction::Se,
            }
        }

        /// A WIT order as the engine's (handles are the rules' to check, order by order).
        #[allow(dead_code)]
        pub(crate) fn order_from_wit(order: &wit::Order) -> $crate::Order {
            use $crate::Action;
            let action = match order.action {
                wit::Action::Wait => Action::Wait,
                wit::Action::Move => Action::Move,
                wit::Action::Attack => Action::Attack,
            };
            $crate::Order { handle: order.handle, action, direction: direction_from_wit(order.direction) }
        }

        /// An engine order as the WIT's.
        #[allow(dead_code)]
        pub(crate) fn order_to_wit(order: &$crate::Order) -> wit::Order {
            use $crate::Action;
            let action = match order.action {
                Action::Wait => wit::Action::Wait,
                Action::Move => wit::Action::Move,
                Action::Attack => wit::Action::Attack,
            };
            wit::Order { handle: order.handle, action, direction: direction_to_wit(order.direction) }
        }

        /// An entry of the units index as the WIT's all-number record (`None`, a dead unit: all
        /// zeros).
        #[allow(dead_code)]
        fn unit_to_wit(unit: Option<&$crate::Unit>) -> wit::Unit {
            use $crate::wit_glue::{NO_ORDER, action_code, coordinate, direction_code, status_code};
            let Some(unit) = unit else {
                return wit::Unit { owner: 0, x: 0, y: 0, defence: 0, last_action: 0, last_direction: 0, status: 0 };
            };
            let (last_action, last_direction) = match &unit.last_order {
                Some(order) => (action_code(order.action), direction_code(order.direction)),
                None => (NO_ORDER, 0),
            };
            wit::Unit {
                owner: unit.owner,
                x: coordinate(unit.pos.x),
                y: coordinate(unit.pos.y),
                defence: unit.defence,
                last_action,
                last_direction,
                status: status_code(unit.status),
            }
        }

        /// The engine's entry of the units index for a WIT one with `handle`: `None` for a dead
        /// unit (defence 0); codes out of range read as no order, direction E and status INVALID
        /// (the host never sends them).
        #[allow(dead_code)]
        fn unit_from_wit(handle: u32, unit: &wit::Unit) -> Option<$crate::Unit> {
            use $crate::wit_glue::{action_from_code, direction_from_code, status_from_code};
            if unit.defence == 0 {
                return None;
            }
            let last_order = action_from_code(unit.last_action).map(|action| $crate::Order {
                handle,
                action,
                direction: direction_from_code(unit.last_direction),
            });
            Some($crate::Unit {
                owner: unit.owner,
                pos: $crate::Pos::new(i32::from(unit.x), i32::from(unit.y)),
                defence: unit.defence,
                last_order,
                status: status_from_code(unit.status),
            })
        }

        #[allow(dead_code)]
        fn ignored_to_wit(ignored: &$crate::IgnoredOrder) -> wit::IgnoredOrder {
            use $crate::OrderError;
            let reason = match ignored.reason {
                OrderError::UnknownUnit { .. } => wit::OrderError::UnknownUnit,
                OrderError::DeadUnit { .. } => wit::OrderError::DeadUnit,
                OrderError::NotYourUnit { owner, .. } => wit::OrderError::NotYourUnit(owner),
                OrderError::Duplicate { count, .. } => wit::OrderError::Duplicate(count),
            };
            wit::IgnoredOrder { order: order_to_wit(&ignored.order), reason }
        }

        #[allow(dead_code)]
        fn ignored_from_wit(ignored: &wit::IgnoredOrder) -> $crate::IgnoredOrder {
            use $crate::OrderError;
            let order = order_from_wit(&ignored.order);
            let handle = order.handle;
            let reason = match ignored.reason {
                wit::OrderError::UnknownUnit => OrderError::UnknownUnit { handle },
                wit::OrderError::DeadUnit => OrderError::DeadUnit { handle },
                wit::OrderError::NotYourUnit(owner) => OrderError::NotYourUnit { handle, owner },
                wit::OrderError::Duplicate(count) => OrderError::Duplicate { handle, count },
            };
            $crate::IgnoredOrder { order, reason }
        }

        /// The engine's view as the WIT view.
        #[allow(dead_code)]
        pub(crate) fn view_to_wit(view: &$crate::View, info: $turn_info) -> wit::View {
            use $crate::wit_glue::coordinate;
            let metrics = &view.metrics;
            wit::View {
                metrics: wit::Metrics {
                    width: coordinate(metrics.width),
                    height: coordinate(metrics.height),
                    players: metrics.players,
                    player: metrics.player,
                    total_units: metrics.total_units,
                    units_remaining: metrics.units_remaining.clone(),
                    turn: metrics.turn,
                },
                squares: $crate::wit_glue::squares_to_wit(&view.map),
                units: view.units.iter().map(|unit| unit_to_wit(unit.as_ref())).collect(),
                ignored: view.ignored.iter().map(ignored_to_wit).collect(),
                info,
            }
        }

        /// The engine's view of a WIT view, reusing the grid of `previous` (this instance's last
        /// view).
        #[allow(dead_code)]
        pub(crate) fn view_from_wit(view: wit::View, previous: Option<$crate::View>) -> $crate::View {
            let metrics = view.metrics;
            let units: Vec<Option<$crate::Unit>> =
                (0u32..).zip(&view.units).map(|(handle, unit)| unit_from_wit(handle, unit)).collect();
            let (width, height) = (i32::from(metrics.width), i32::from(metrics.height));
            let previous = previous.map(|previous| (previous.map, previous.units));
            $crate::View {
                map: $crate::wit_glue::next_grid(previous, width, height, &view.squares, &units),
                metrics: $crate::Metrics {
                    width,
                    height,
                    players: metrics.players,
                    player: metrics.player,
                    total_units: metrics.total_units,
                    units_remaining: metrics.units_remaining,
                    turn: metrics.turn,
                },
                units,
                ignored: view.ignored.iter().map(ignored_from_wit).collect(),
            }
        }
    };
}
