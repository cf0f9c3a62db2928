//! Paint's binding: `arena:paint/bot@0.1.0` to and from [`arena_paint`]'s types.
//!
//! The conversions are [`arena_paint::wit_glue`](mod@arena_paint::wit_glue)'s, shared with the SDK.

use super::{Binding, InitInfo, Live, OwnedCall, TurnInfo};
use crate::fault::InvalidReason;
use arena_paint::{Action, Paint, View};

#[allow(missing_docs, clippy::all)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit/paint",
        world: "arena:paint/bot@0.1.0",
        exports: { default: async },
        with: {
            "arena:common/types@0.1.0": crate::bindings::common::arena::common::types,
            "arena:common/log@0.1.0": crate::bindings::common::arena::common::log,
        },
    });
}

use super::common;
use bindings::arena::paint::types as wit;

pub use arena_paint::wit_glue::{OBSTACLE, UNPAINTED};

/// Paint's [`Binding`].
pub struct PaintBinding;

bot_world!(PaintBinding, bindings, world: "arena:paint/bot@0.1.0", export: "arena:paint/player@0.1.0", wit: "../../../wit/paint/paint.wit");

impl Binding for PaintBinding {
    type Game = Paint;
    bot_world_plumbing!(bindings);

    type Answer = wit::Action;

    fn init(live: Live<Self>, info: InitInfo) -> OwnedCall<Self::Instance> {
        let Live { mut store, instance } = live;
        let info = common::InitInfo::from(info);
        Box::pin(async move {
            let result = instance.arena_paint_player().call_init(&mut store, info).await;
            (store, result.map(|()| instance))
        })
    }

    fn take_turn(live: Live<Self>, view: &View, info: TurnInfo) -> OwnedCall<(Self::Instance, Self::Answer)> {
        let Live { mut store, instance } = live;
        let view = view_to_wit(view, common::TurnInfo::from(info));
        Box::pin(async move {
            let result = instance.arena_paint_player().call_take_turn(&mut store, &view).await;
            (store, result.map(|answer| (instance, answer)))
        })
    }

    fn decode(answer: wit::Action) -> Result<Action, InvalidReason> {
        // Every WIT value is representable: a direction that is not a king move is the engine's
        // to refuse (`check`, `Invalid::BadDirection`).
        Ok(action_from_wit(&answer))
    }
}

arena_paint::wit_glue!(common::TurnInfo);

#[cfg(test)]
mod tests {
    use super::*;
    use arena_paint::wit_glue::squares_to_wit;
    use arena_paint::{ActionKind, Board, Direction, Pos};

    /// Every action survives the trip to WIT and back, and so does a vector that is not a
    /// direction (the engine refuses it, not the decoder).
    #[test]
    fn actions_round_trip() {
        let mut actions = Action::all().to_vec();
        actions.push(Action { kind: ActionKind::Walk, direction: [0, 0] });
        actions.push(Action { kind: ActionKind::Shoot, direction: [i32::MIN, 7] });
        for action in actions {
            assert_eq!(PaintBinding::decode(action_to_wit(&action)), Ok(action));
        }
        assert_eq!(action_from_wit(&action_to_wit(&Action::walk(Direction::East))), Action::walk(Direction::East));
    }

    /// Squares: seats, obstacles and unpainted squares, row-major.
    #[test]
    fn squares_encode_seats_obstacles_and_unpainted() {
        let mut board = Board::new(3, 2);
        board.paint(Pos::new(0, 0), 0);
        board.paint(Pos::new(1, 2), 1);
        board.block(Pos::new(0, 2));
        assert_eq!(squares_to_wit(&board), vec![0, UNPAINTED, OBSTACLE, UNPAINTED, UNPAINTED, 1]);
    }
}

/// This binding's conversions both ways over the conformance kit's random playouts
/// (`super::roundtrip`).
#[cfg(test)]
mod round_trip {

    use super::super::roundtrip::{info, plan};
    use arena_game::conformance::for_each_observation;

    /// Paint sends only the last turn's actions; the SDK's history rebuilds the rest.
    #[test]
    fn paint_views_and_actions_survive_the_round_trip() {
        use super::{action_from_wit, action_to_wit, view_from_wit, view_to_wit};
        let mut memory: std::collections::BTreeMap<(usize, usize), (arena_paint::View, Vec<u8>)> = Default::default();
        let mut views = 0;
        let plan = plan::<arena_paint::Paint>(Default::default(), vec![2, 3, 4], 0..6);
        for_each_observation(&plan, |playout, seat, view, action| {
            let wit_view = view_to_wit(view, info(0));
            let mut back = match memory.remove(&(playout, seat)) {
                Some((previous, squares)) => view_from_wit(&wit_view, Some((previous, &squares))),
                None => view_from_wit(&wit_view, None),
            };
            // How much history the line protocol sends is the match's option, not part of the
            // WIT view (a view rebuilt from nothing says the original, `all`; one rebuilt on the
            // previous turn's keeps that view's).
            back.sent_history = view.sent_history;
            assert_eq!(&back, view, "playout {playout}, seat {seat}");
            memory.insert((playout, seat), (back, wit_view.squares));
            if let Some(action) = action {
                assert_eq!(&action_from_wit(&action_to_wit(action)), action);
            }
            views += 1;
        });
        assert!(views > 1_000, "{views} views");
    }
}
