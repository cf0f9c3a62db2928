//! Azul bots: the prelude, the [`AzulBot`] trait and the [`export_azul_bot!`](crate::export_azul_bot) macro.
//!
//! The view a bot gets is the engine's own [`arena_azul::View`] (inside [`crate::View`]), so
//! `legal_moves`, `check`, `score_if_placed` and `fallback_move` are the very rules the host
//! plays by; [`rules`](arena_azul::rules) has the wall pattern and the scoring functions.

use crate::{InitInfo, TurnInfo};

#[doc(hidden)]
#[allow(missing_docs, unsafe_code, clippy::all)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../../wit/azul",
        world: "arena:azul/bot@0.2.0",
        with: {
            "arena:common/types@0.1.0": crate::common::bindings::arena::common::types,
            "arena:common/log@0.1.0": crate::common::bindings::arena::common::log,
        },
        pub_export_macro: true,
        export_macro_name: "__export_azul_world",
        default_bindings_module: "arena_sdk::azul::bindings",
    });
}

use bindings::arena::azul::types as wit;

/// Everything an Azul bot needs: `use arena_sdk::azul::prelude::*;`.
pub mod prelude {
    pub use super::{AzulBot, View};
    pub use crate::rng::{GameRng, new_rng, rng_below};
    pub use crate::{InitInfo, TurnInfo, log};
    pub use arena_azul::{
        BoardView, CENTER, COLOURS, Colour, FACTORIES, FLOOR_LINE, FLOOR_SLOTS, Move, PatternLine, View as BoardState,
        rules,
    };
}

/// What an Azul bot sees: the engine's [`arena_azul::View`] plus this turn's budget.
pub type View = crate::View<arena_azul::View>;

/// An Azul bot. One value lives for the whole match (and is rebuilt with `Default` after a
/// restart); its fields persist between turns.
pub trait AzulBot: Default + 'static {
    /// Called once before the first turn, and again after every restart. Budget: one turn.
    fn init(&mut self, info: &InitInfo) {
        let _ = info;
    }

    /// Chooses a move. An illegal move is an invalid action and the fallback applies.
    fn act(&mut self, view: &View) -> arena_azul::Move;
}

/// Exports a type implementing [`AzulBot`] as the component's `arena:azul/player` interface.
/// See [`crate::__export_bot`] for what a native build gets instead.
#[macro_export]
macro_rules! export_azul_bot {
    ($bot:ty) => {
        $crate::__export_bot!($bot, azul, __export_azul_world);
    };
}

#[doc(hidden)]
pub mod __glue {
    use super::*;
    use std::cell::RefCell;

    pub type WitInitInfo = crate::common::wit::InitInfo;
    pub type WitView = wit::View;
    pub type WitAction = wit::Action;

    pub fn init<B: AzulBot>(slot: &RefCell<Option<B>>, info: WitInitInfo) {
        crate::__private::start(slot, |bot| bot.init(&InitInfo::from(info)));
    }

    pub fn take_turn<B: AzulBot>(slot: &RefCell<Option<B>>, view: WitView) -> WitAction {
        let view = crate::View { info: TurnInfo::from(view.info), state: view_from_wit(&view) };
        crate::__private::with_bot(slot, |bot: &mut B| action_to_wit(&bot.act(&view)))
    }
}

arena_azul::wit_glue!(crate::common::wit::TurnInfo);
