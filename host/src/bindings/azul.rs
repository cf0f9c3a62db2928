//! Azul's binding: `arena:azul/bot@0.1.0` to and from [`arena_azul`]'s types.

use super::{Binding, InitInfo, Live, OwnedCall, TurnInfo};
use crate::fault::InvalidReason;
use arena_azul::{Azul, Move, View};

#[allow(missing_docs, clippy::all)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit/azul",
        world: "arena:azul/bot@0.1.0",
        exports: { default: async },
        with: {
            "arena:common/types@0.1.0": crate::bindings::common::arena::common::types,
            "arena:common/log@0.1.0": crate::bindings::common::arena::common::log,
        },
    });
}

use super::common;
use bindings::arena::azul::types as wit;

/// Azul's [`Binding`].
pub struct AzulBinding;

impl Binding for AzulBinding {
    type Game = Azul;
    bot_world_plumbing!(bindings);

    type Answer = wit::Action;

    const EXPORT: &'static str = "arena:azul/player@0.1.0";
    const WORLD: &'static str = "arena:azul/bot@0.1.0";
    const WIT: &'static str = include_str!("../../../wit/azul/azul.wit");

    fn init(live: Live<Self>, info: InitInfo) -> OwnedCall<Self::Instance> {
        let Live { mut store, instance } = live;
        let info = common::InitInfo::from(info);
        Box::pin(async move {
            let result = instance.arena_azul_player().call_init(&mut store, info).await;
            (store, result.map(|()| instance))
        })
    }

    fn take_turn(live: Live<Self>, view: &View, info: TurnInfo) -> OwnedCall<(Self::Instance, Self::Answer)> {
        let Live { mut store, instance } = live;
        let view = view_to_wit(view, common::TurnInfo::from(info));
        Box::pin(async move {
            let result = instance.arena_azul_player().call_take_turn(&mut store, view).await;
            (store, result.map(|answer| (instance, answer)))
        })
    }

    fn decode(answer: wit::Action) -> Result<Move, InvalidReason> {
        // Every WIT value is representable: range checks are the engine's (`check`).
        Ok(action_from_wit(&answer))
    }
}

arena_azul::wit_glue!(common::TurnInfo);

/// The generated bindings and the view conversion, for `cargo xtask bench`'s reference: a raw
/// wasmtime component call with the same arguments as [`AzulBinding::take_turn`]'s. Not an API.
#[doc(hidden)]
pub mod raw {
    pub use super::bindings::Bot;
    pub use super::wit::View;

    /// The WIT view the host passes for `view`.
    pub fn view(view: &arena_azul::View, info: crate::seat::TurnInfo) -> View {
        super::view_to_wit(view, super::common::TurnInfo::from(info))
    }
}
