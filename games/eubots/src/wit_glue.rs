//! Eubots' WIT conversions, written once for both sides of the wasm boundary: the host's
//! wasmtime bindings and the SDK's wit-bindgen bindings expand [`wit_glue!`](crate::wit_glue!)
//! against their own generated types.
//!
//! The view is sent as the WIT declares it: the map as one byte per square (empty, wall or unit,
//! row-major), and the public units index, which locates every unit (so handles are not repeated
//! in the map). The SDK rebuilds the engine's grid from them, reusing its previous turn's grid
//! ([`next_grid`]): walls never change in a match.

use crate::{Grid, Pos, Square, Unit};

/// The `square-kind` byte of an empty square.
pub const SQUARE_EMPTY: u8 = 0;
/// The `square-kind` byte of a wall.
pub const SQUARE_WALL: u8 = 1;
/// The `square-kind` byte of a square holding a living unit.
pub const SQUARE_UNIT: u8 = 2;

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

/// The grid of this turn from the grid of the previous one (with the units it held): walls never
/// change in a match, so only the squares units left and entered are rewritten. Rebuilding the
/// whole grid every turn cost most of a do-nothing bot's turn (the allocation and fill are bulk
/// memory, charged per byte); a first view, or one of other sides, is built from scratch.
pub fn next_grid(
    previous: Option<(Grid, Vec<Option<Unit>>)>,
    width: i32,
    height: i32,
    kinds: &[u8],
    units: &[Option<Unit>],
) -> Grid {
    let Some((mut grid, left)) = previous.filter(|(grid, _)| (grid.width, grid.height) == (width, height)) else {
        return grid_from_wit(width, height, kinds, units);
    };
    // Only the units that moved, died or appeared are touched (most stand still in a turn):
    // their old squares are emptied first, then their new ones filled, so a unit stepping onto
    // a square another just left ends up there whatever the handles' order.
    let square =
        |list: &[Option<Unit>], handle: usize| list.get(handle).and_then(|unit| unit.as_ref()).map(|unit| unit.pos);
    let moved = |handle: usize| square(&left, handle) != square(units, handle);
    for (handle, unit) in left.iter().enumerate() {
        if let Some(unit) = unit
            && moved(handle)
            && let Square::Unit(_) = grid.get(unit.pos)
        {
            grid.set(unit.pos, Square::Empty);
        }
    }
    for (index, (handle, unit)) in (0u32..).zip(units).enumerate() {
        if let Some(unit) = unit
            && moved(index)
        {
            grid.set(unit.pos, Square::Unit(handle));
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

        #[allow(dead_code)]
        fn unit_to_wit(unit: &$crate::Unit) -> wit::Unit {
            use $crate::Status;
            let status = match unit.status {
                Status::WaitSuccess => wit::Status::WaitSuccess,
                Status::MoveSuccess => wit::Status::MoveSuccess,
                Status::AttackSuccess => wit::Status::AttackSuccess,
                Status::MoveFail => wit::Status::MoveFail,
                Status::AttackFail => wit::Status::AttackFail,
                Status::Invalid => wit::Status::Invalid,
            };
            wit::Unit {
                owner: unit.owner,
                x: $crate::wit_glue::coordinate(unit.pos.x),
                y: $crate::wit_glue::coordinate(unit.pos.y),
                defence: unit.defence,
                last_order: unit.last_order.as_ref().map(order_to_wit),
                status,
            }
        }

        #[allow(dead_code)]
        fn unit_from_wit(unit: &wit::Unit) -> $crate::Unit {
            use $crate::Status;
            let status = match unit.status {
                wit::Status::WaitSuccess => Status::WaitSuccess,
                wit::Status::MoveSuccess => Status::MoveSuccess,
                wit::Status::AttackSuccess => Status::AttackSuccess,
                wit::Status::MoveFail => Status::MoveFail,
                wit::Status::AttackFail => Status::AttackFail,
                wit::Status::Invalid => Status::Invalid,
            };
            $crate::Unit {
                owner: unit.owner,
                pos: $crate::Pos::new(i32::from(unit.x), i32::from(unit.y)),
                defence: unit.defence,
                last_order: unit.last_order.as_ref().map(order_from_wit),
                status,
            }
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
                units: view.units.iter().map(|unit| unit.as_ref().map(unit_to_wit)).collect(),
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
                view.units.iter().map(|unit| unit.as_ref().map(unit_from_wit)).collect();
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
