//! SuiteBot II's binding: `arena:suitebot/bot@0.1.0` to and from [`arena_suitebot`]'s types.

use super::{Binding, InitInfo, Live, OwnedCall, TurnInfo};
use crate::fault::InvalidReason;
use arena_suitebot::{Action, Suitebot, View};

#[allow(missing_docs, clippy::all)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit/suitebot",
        world: "arena:suitebot/bot@0.1.0",
        exports: { default: async },
        with: {
            "arena:common/types@0.1.0": crate::bindings::common::arena::common::types,
            "arena:common/log@0.1.0": crate::bindings::common::arena::common::log,
        },
    });
}

use super::common;
use bindings::arena::suitebot::types as wit;

/// SuiteBot II's [`Binding`].
pub struct SuitebotBinding;

bot_world!(SuitebotBinding, bindings, world: "arena:suitebot/bot@0.1.0", export: "arena:suitebot/player@0.1.0", wit: "../../../wit/suitebot/suitebot.wit");

impl Binding for SuitebotBinding {
    type Game = Suitebot;
    bot_world_plumbing!(bindings);

    type Answer = wit::Action;

    fn init(live: Live<Self>, info: InitInfo) -> OwnedCall<Self::Instance> {
        let Live { mut store, instance } = live;
        let info = common::InitInfo::from(info);
        Box::pin(async move {
            let result = instance.arena_suitebot_player().call_init(&mut store, info).await;
            (store, result.map(|()| instance))
        })
    }

    fn take_turn(live: Live<Self>, view: &View, info: TurnInfo) -> OwnedCall<(Self::Instance, Self::Answer)> {
        let Live { mut store, instance } = live;
        let view = view_to_wit(view, common::TurnInfo::from(info));
        Box::pin(async move {
            let result = instance.arena_suitebot_player().call_take_turn(&mut store, &view).await;
            (store, result.map(|answer| (instance, answer)))
        })
    }

    fn decode(answer: wit::Action) -> Result<Action, InvalidReason> {
        // Every WIT action is an engine action, and every action is legal.
        Ok(action_from_wit(answer))
    }
}

arena_suitebot::wit_glue!(common::TurnInfo);

/// This binding's conversions both ways over the conformance kit's random playouts
/// (`super::roundtrip`).
#[cfg(test)]
mod round_trip {

    use super::super::roundtrip::{info, plan};
    use arena_game::conformance::for_each_observation;

    #[test]
    fn suitebot_views_and_actions_survive_the_round_trip() {
        use super::{action_from_wit, action_to_wit, view_from_wit, view_to_wit};
        let mut views = 0;
        let plan = plan::<arena_suitebot::Suitebot>(Default::default(), vec![2, 4], 0..6);
        for_each_observation(&plan, |_, _, view, action| {
            // How the line protocol writes the board is the match's option, not part of the WIT
            // view (a rebuilt view says the original, `nested`).
            let back = view_from_wit(view_to_wit(view, info(0)));
            assert_eq!(back.board, arena_suitebot::BoardEncoding::Nested);
            assert_eq!(&arena_suitebot::View { board: view.board, ..back }, view);
            if let Some(action) = action {
                assert_eq!(&action_from_wit(action_to_wit(*action)), action);
            }
            views += 1;
        });
        assert!(views > 1_000, "{views} views");
    }
}
