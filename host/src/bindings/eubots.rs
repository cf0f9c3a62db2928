//! Eubots' binding: `arena:eubots/bot@0.2.0` to and from [`arena_eubots`]'s types.
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
use arena_eubots::{Eubots, MAX_ORDERS, Order, View};

#[allow(missing_docs, clippy::all)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit/eubots",
        world: "arena:eubots/bot@0.2.0",
        exports: { default: async },
        with: {
            "arena:common/types@0.1.0": crate::bindings::common::arena::common::types,
            "arena:common/log@0.1.0": crate::bindings::common::arena::common::log,
        },
    });
}

use super::common;
use bindings::arena::eubots::types as wit;

pub use arena_eubots::wit_glue::{SQUARE_EMPTY, SQUARE_UNIT, SQUARE_WALL};

/// Eubots' [`Binding`].
pub struct EubotsBinding;

bot_world!(EubotsBinding, bindings, world: "arena:eubots/bot@0.2.0", export: "arena:eubots/player@0.2.0", wit: "../../../wit/eubots/eubots.wit");

impl Binding for EubotsBinding {
    type Game = Eubots;
    bot_world_plumbing!(bindings);

    type Answer = Vec<wit::Order>;

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
        let view = view_to_wit(view, common::TurnInfo::from(info));
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

arena_eubots::wit_glue!(common::TurnInfo);

#[cfg(test)]
mod tests {
    use super::*;
    use arena_eubots::wit_glue::squares_to_wit;
    use arena_eubots::{Direction, Grid, Pos, Square};

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

    /// A units-index entry's codes are the WIT enums' case indices, and the codes come back as
    /// the values they encode.
    #[test]
    fn unit_codes_are_the_wit_case_indices() {
        use arena_eubots::wit_glue::{
            NO_ORDER, action_code, action_from_code, direction_code, direction_from_code, status_code, status_from_code,
        };
        use arena_eubots::{Action, Status};
        let directions = Direction::ALL.map(|direction| (direction, direction_to_wit(direction) as u8));
        super::super::assert_case_codes(&directions, direction_code, direction_from_code);
        let actions = [
            (Some(Action::Wait), wit::Action::Wait as u8),
            (Some(Action::Move), wit::Action::Move as u8),
            (Some(Action::Attack), wit::Action::Attack as u8),
        ];
        super::super::assert_case_codes(&actions, |action| action.map_or(NO_ORDER, action_code), action_from_code);
        assert_eq!(action_from_code(NO_ORDER), None);
        let statuses = [
            (Status::WaitSuccess, wit::Status::WaitSuccess as u8),
            (Status::MoveSuccess, wit::Status::MoveSuccess as u8),
            (Status::AttackSuccess, wit::Status::AttackSuccess as u8),
            (Status::MoveFail, wit::Status::MoveFail as u8),
            (Status::AttackFail, wit::Status::AttackFail as u8),
            (Status::Invalid, wit::Status::Invalid as u8),
        ];
        super::super::assert_case_codes(&statuses, status_code, status_from_code);
        // Codes the host never sends still decode to something (the SDK must not panic).
        assert_eq!(status_from_code(200), Status::Invalid);
        assert_eq!(direction_from_code(8), Direction::E);
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

/// This binding's conversions both ways over the conformance kit's random playouts
/// (`super::roundtrip`).
#[cfg(test)]
mod round_trip {

    use super::super::roundtrip::{info, plan};
    use arena_game::conformance::for_each_observation;

    /// Eubots sends the map as square kinds and the units index; the SDK rebuilds the engine's grid
    /// from the last view the bot read (walls never change), which may be some turns old: here every
    /// third view is not kept, as if the bot had not read it.
    #[test]
    fn eubots_views_and_orders_survive_the_round_trip() {
        use super::{order_from_wit, order_to_wit, view_from_wit, view_to_wit};
        let mut memory: std::collections::BTreeMap<(usize, usize), arena_eubots::View> = Default::default();
        let mut views = 0;
        let plan = plan::<arena_eubots::Eubots>(Default::default(), vec![2, 3], 0..4);
        for_each_observation(&plan, |playout, seat, view, orders| {
            let previous = memory.get(&(playout, seat)).cloned();
            let back = view_from_wit(view_to_wit(view, info(0)), previous);
            assert_eq!(&back, view, "playout {playout}, seat {seat}");
            if views % 3 != 2 {
                memory.insert((playout, seat), back);
            }
            for order in orders.into_iter().flatten() {
                assert_eq!(&order_from_wit(&order_to_wit(order)), order);
            }
            views += 1;
        });
        assert!(views > 500, "{views} views");
    }
}
