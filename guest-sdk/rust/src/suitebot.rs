//! SuiteBot II bots: the prelude, the [`SuitebotBot`] trait and the
//! [`export_suitebot_bot!`](crate::export_suitebot_bot) macro.
//!
//! The view a bot gets is the engine's own [`arena_suitebot::View`] (inside [`crate::View`]), so
//! its helpers (`distance`, `neighbour`, `blast_area`, `points_in_blast`, `explosion_schedule`,
//! `danger`, ...) are the very rules the host plays by; [`rules`](arena_suitebot::rules) has the
//! torus, chain reactions ([`rules::set_off`](arena_suitebot::rules::set_off)), one explosion
//! step ([`rules::explode`](arena_suitebot::rules::explode)) and the constants, for bots that
//! simulate ahead.

use crate::{InitInfo, TurnInfo};

#[doc(hidden)]
#[allow(missing_docs, unsafe_code, clippy::all)]
pub mod bindings {
    // Every game's world is called `bot`, and wit-bindgen names a crate-root (`#[macro_export]`)
    // macro after the world (`__export_bot_impl`), so a second `bot` world in this crate would
    // collide with Azul's. The bindings are generated for an SDK-local alias world that includes
    // `arena:suitebot/bot@0.1.0` unchanged: same imports, same exports, a distinct macro name.
    wit_bindgen::generate!({
        path: "../../wit/suitebot",
        inline: "package arena-sdk:suitebot;\nworld suitebot-bot { include arena:suitebot/bot@0.1.0; }",
        world: "arena-sdk:suitebot/suitebot-bot",
        with: {
            "arena:common/types@0.1.0": crate::common::bindings::arena::common::types,
            "arena:common/log@0.1.0": crate::common::bindings::arena::common::log,
            "arena:suitebot/types@0.1.0": generate,
        },
        pub_export_macro: true,
        export_macro_name: "__export_suitebot_world",
        default_bindings_module: "arena_sdk::suitebot::bindings",
    });
}

use bindings::arena::suitebot::types as wit;

/// Everything a SuiteBot II bot needs: `use arena_sdk::suitebot::prelude::*;`.
pub mod prelude {
    pub use super::{DIRECTIONS, SuitebotBot, View};
    pub use crate::rng::{GameRng, new_rng, rng_below};
    pub use crate::{InitInfo, TurnInfo, log};
    pub use arena_suitebot::rules::{self, BOMB_COUNTDOWN, Cover, KILL_POINTS, Torus};
    pub use arena_suitebot::{Action, Bomb, PlayerView, Pos, View as BoardState};
}

/// What a SuiteBot II bot sees: the engine's [`arena_suitebot::View`] plus this round's budget.
pub type View = crate::View<arena_suitebot::View>;

/// The four moves, in the order of the original protocol's letters (`U D L R`).
pub const DIRECTIONS: [arena_suitebot::Action; 4] = [
    arena_suitebot::Action::Up,
    arena_suitebot::Action::Down,
    arena_suitebot::Action::Left,
    arena_suitebot::Action::Right,
];

/// A SuiteBot II bot. One value lives for the whole match (and is rebuilt with `Default` after a
/// restart); its fields persist between rounds.
pub trait SuitebotBot: Default + 'static {
    /// Called once before the first round, and again after every restart. Budget: one turn.
    fn init(&mut self, info: &InitInfo) {
        let _ = info;
    }

    /// Chooses this round's action (called once per round; every action is legal).
    fn act(&mut self, view: &View) -> arena_suitebot::Action;
}

/// Exports a type implementing [`SuitebotBot`] as the component's `arena:suitebot/player`
/// interface. See [`crate::__export_bot`] for what a native build gets instead.
#[macro_export]
macro_rules! export_suitebot_bot {
    ($bot:ty) => {
        $crate::__export_bot!($bot, suitebot, __export_suitebot_world);
    };
}

#[doc(hidden)]
pub mod __glue {
    use super::*;
    use std::cell::RefCell;

    pub type WitInitInfo = crate::common::wit::InitInfo;
    pub type WitView = wit::View;
    pub type WitAction = wit::Action;

    pub fn init<B: SuitebotBot>(slot: &RefCell<Option<B>>, info: WitInitInfo) {
        crate::__private::start(slot, |bot| bot.init(&InitInfo::from(info)));
    }

    pub fn take_turn<B: SuitebotBot>(slot: &RefCell<Option<B>>, view: WitView) -> WitAction {
        let info = TurnInfo::from(view.info);
        let view = crate::View { info, state: view_from_wit(view) };
        crate::__private::with_bot(slot, |bot: &mut B| action_to_wit(bot.act(&view)))
    }
}

arena_suitebot::wit_glue!(crate::common::wit::TurnInfo);
