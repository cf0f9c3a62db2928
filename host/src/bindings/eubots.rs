//! Eubots' binding: `arena:eubots/bot@0.1.0` to and from [`arena_eubots`]'s types.
//!
//! The view is sent as the WIT declares it: the map once, as one byte per square (empty, wall or
//! unit, row-major), and the public units index, which locates every unit (so handles are not
//! repeated in the map).
//!
//! An answer is a `list<order>`. wasmtime lifts a returned list into a host `Vec` before
//! [`Binding::decode`] sees it, so the host's transient allocation is bounded by the bot's
//! memory limit (the list must fit in the bot's linear memory), not by this module. `decode`
//! then refuses an answer longer than any match allows ([`arena_eubots::MAX_ORDERS`]) as
//! [`InvalidReason::Malformed`], and the engine's check refuses one longer than this match's
//! units index ([`arena_eubots::Invalid::TooManyOrders`]); either is an invalid action.

use super::{Binding, InitInfo, Live, OwnedCall, TurnInfo};
use crate::fault::InvalidReason;
use arena_eubots::{
    Action, Direction, Eubots, Grid, IgnoredOrder, MAX_ORDERS, Order, OrderError, Pos, Square, Status, Unit, View,
};

#[allow(missing_docs, clippy::all)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit/eubots",
        world: "arena:eubots/bot@0.1.0",
        exports: { default: async },
        with: {
            "arena:common/types@0.1.0": crate::bindings::common::arena::common::types,
            "arena:common/log@0.1.0": crate::bindings::common::arena::common::log,
        },
    });
}

use super::common;
use bindings::arena::eubots::types as wit;

/// The `square-kind` byte of an empty square.
pub const SQUARE_EMPTY: u8 = 0;
/// The `square-kind` byte of a wall.
pub const SQUARE_WALL: u8 = 1;
/// The `square-kind` byte of a square holding a living unit.
pub const SQUARE_UNIT: u8 = 2;

/// Eubots' [`Binding`].
pub struct EubotsBinding;

impl Binding for EubotsBinding {
    type Game = Eubots;
    bot_world_plumbing!(bindings);

    type Answer = Vec<wit::Order>;

    const EXPORT: &'static str = "arena:eubots/player@0.1.0";
    const WORLD: &'static str = "arena:eubots/bot@0.1.0";

    fn init(live: Live<Self>, info: InitInfo) -> OwnedCall<Self::Instance> {
        let Live { mut store, instance } = live;
        let info = common::InitInfo::from(info);
        Box::pin(async move {
            let result = instance.arena_eubots_player().call_init(&mut store, info).await;
            (store, result.map(|()| instance))
        })
    }

    fn take_turn(live: Live<Self>, view: &View, info: TurnInfo) -> OwnedCall<(Self::Instance, Self::Answer)> {
        let Live { mut store, instance } = live;
        let view = view_to_wit(view, info);
        Box::pin(async move {
            let result = instance.arena_eubots_player().call_take_turn(&mut store, &view).await;
            (store, result.map(|answer| (instance, answer)))
        })
    }

    fn decode(answer: Vec<wit::Order>) -> Result<Vec<Order>, InvalidReason> {
        // The list is already in host memory (see the module docs); refuse what no match allows
        // before converting it. The match's own bound is the engine's `check`.
        if answer.len() > MAX_ORDERS {
            return Err(InvalidReason::Malformed {
                detail: format!("{} orders, more than any match allows ({MAX_ORDERS})", answer.len()),
            });
        }
        // Every other WIT value is an engine value: handles are checked order by order by the
        // rules (a bad one is ignored, not refused).
        Ok(answer.iter().map(order_from_wit).collect())
    }
}

fn direction_from_wit(direction: wit::Direction) -> Direction {
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

fn direction_to_wit(direction: Direction) -> wit::Direction {
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

fn order_from_wit(order: &wit::Order) -> Order {
    let action = match order.action {
        wit::Action::Wait => Action::Wait,
        wit::Action::Move => Action::Move,
        wit::Action::Attack => Action::Attack,
    };
    Order { handle: order.handle, action, direction: direction_from_wit(order.direction) }
}

fn order_to_wit(order: &Order) -> wit::Order {
    let action = match order.action {
        Action::Wait => wit::Action::Wait,
        Action::Move => wit::Action::Move,
        Action::Attack => wit::Action::Attack,
    };
    wit::Order { handle: order.handle, action, direction: direction_to_wit(order.direction) }
}

fn status_to_wit(status: Status) -> wit::Status {
    match status {
        Status::WaitSuccess => wit::Status::WaitSuccess,
        Status::MoveSuccess => wit::Status::MoveSuccess,
        Status::AttackSuccess => wit::Status::AttackSuccess,
        Status::MoveFail => wit::Status::MoveFail,
        Status::AttackFail => wit::Status::AttackFail,
        Status::Invalid => wit::Status::Invalid,
    }
}

/// A coordinate as the WIT's `u8`; positions of living units are always inside the map, whose
/// sides are at most 255.
fn coordinate(value: i32) -> u8 {
    u8::try_from(value).unwrap_or(0)
}

fn unit_to_wit(unit: &Unit) -> wit::Unit {
    wit::Unit {
        owner: unit.owner,
        x: coordinate(unit.pos.x),
        y: coordinate(unit.pos.y),
        defence: unit.defence,
        last_order: unit.last_order.as_ref().map(order_to_wit),
        status: status_to_wit(unit.status),
    }
}

fn ignored_to_wit(ignored: &IgnoredOrder) -> wit::IgnoredOrder {
    let reason = match ignored.reason {
        OrderError::UnknownUnit { .. } => wit::OrderError::UnknownUnit,
        OrderError::DeadUnit { .. } => wit::OrderError::DeadUnit,
        OrderError::NotYourUnit { owner, .. } => wit::OrderError::NotYourUnit(owner),
        OrderError::Duplicate { count, .. } => wit::OrderError::Duplicate(count),
    };
    wit::IgnoredOrder { order: order_to_wit(&ignored.order), reason }
}

/// The map, row-major, one `square-kind` byte per square.
fn squares_to_wit(grid: &Grid) -> Vec<u8> {
    grid.positions()
        .map(|pos: Pos| match grid.get(pos) {
            Square::Empty => SQUARE_EMPTY,
            Square::Wall => SQUARE_WALL,
            Square::Unit(_) => SQUARE_UNIT,
        })
        .collect()
}

fn view_to_wit(view: &View, info: TurnInfo) -> wit::View {
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
        squares: squares_to_wit(&view.map),
        units: view.units.iter().map(|unit| unit.as_ref().map(unit_to_wit)).collect(),
        ignored: view.ignored.iter().map(ignored_to_wit).collect(),
        info: common::TurnInfo::from(info),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every direction and action survives the WIT round trip.
    #[test]
    fn orders_round_trip() {
        for direction in Direction::ALL {
            for order in [Order::wait(7), Order::walk(3, direction), Order::attack(0, direction)] {
                let back = order_from_wit(&order_to_wit(&order));
                assert_eq!(back.handle, order.handle);
                assert_eq!(back.action, order.action);
                assert_eq!(back.direction, order.direction);
            }
        }
    }

    /// The map goes row-major, one byte per square.
    #[test]
    fn squares_are_row_major() {
        let mut grid = Grid::new(3, 2);
        grid.set(Pos::new(2, 1), Square::Wall);
        grid.set(Pos::new(1, 2), Square::Unit(0));
        assert_eq!(
            squares_to_wit(&grid),
            [SQUARE_EMPTY, SQUARE_WALL, SQUARE_EMPTY, SQUARE_UNIT, SQUARE_EMPTY, SQUARE_EMPTY]
        );
    }

    /// An answer longer than any match allows is malformed; one within the static bound decodes
    /// (the match's own bound is the engine's check).
    #[test]
    fn over_long_answers_are_malformed() {
        let order = order_to_wit(&Order::wait(0));
        assert!(matches!(EubotsBinding::decode(vec![order; MAX_ORDERS + 1]), Err(InvalidReason::Malformed { .. })));
        assert_eq!(EubotsBinding::decode(vec![order; 3]).map(|orders| orders.len()).ok(), Some(3));
    }
}
