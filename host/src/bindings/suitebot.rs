//! SuiteBot II's binding: `arena:suitebot/bot@0.1.0` to and from [`arena_suitebot`]'s types.

use super::{Binding, InitInfo, Live, OwnedCall, TurnInfo};
use crate::fault::InvalidReason;
use arena_suitebot::{Action, Bomb, PlayerView, Pos, Suitebot, View};

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

impl Binding for SuitebotBinding {
    type Game = Suitebot;
    bot_world_plumbing!(bindings);

    type Answer = wit::Action;

    const EXPORT: &'static str = "arena:suitebot/player@0.1.0";
    const WORLD: &'static str = "arena:suitebot/bot@0.1.0";

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
        let view = view_to_wit(view, info);
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

fn action_from_wit(action: wit::Action) -> Action {
    match action {
        wit::Action::Up => Action::Up,
        wit::Action::Down => Action::Down,
        wit::Action::Left => Action::Left,
        wit::Action::Right => Action::Right,
        wit::Action::Hold => Action::Hold,
        wit::Action::PlantBomb => Action::PlantBomb,
    }
}

fn action_to_wit(action: Action) -> wit::Action {
    match action {
        Action::Up => wit::Action::Up,
        Action::Down => wit::Action::Down,
        Action::Left => wit::Action::Left,
        Action::Right => wit::Action::Right,
        Action::Hold => wit::Action::Hold,
        Action::PlantBomb => wit::Action::PlantBomb,
    }
}

fn pos_to_wit(pos: Pos) -> wit::Pos {
    wit::Pos { x: pos.x, y: pos.y }
}

fn bomb_to_wit(bomb: &Bomb) -> wit::Bomb {
    wit::Bomb { at: pos_to_wit(bomb.at), owner: bomb.owner, countdown: bomb.countdown }
}

fn player_to_wit(player: &PlayerView) -> wit::PlayerView {
    wit::PlayerView {
        score: u32::try_from(player.score.max(0)).unwrap_or(u32::MAX),
        base: pos_to_wit(player.base),
        agent: pos_to_wit(player.agent),
        last_move: player.last_move.map(action_to_wit),
    }
}

fn view_to_wit(view: &View, info: TurnInfo) -> wit::View {
    wit::View {
        seat: view.seat,
        round: view.round,
        rounds: view.rounds,
        width: view.width,
        height: view.height,
        blast_radius: view.blast_radius,
        players: view.players.iter().map(player_to_wit).collect(),
        points: view.points.clone(),
        bombs: view.bombs.iter().map(bomb_to_wit).collect(),
        info: common::TurnInfo::from(info),
    }
}
