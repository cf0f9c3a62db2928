//! Code Character bots: the prelude, the [`CodeCharacterBot`] trait and the
//! [`export_code_character_bot!`](crate::export_code_character_bot) macro.
//!
//! The map, the flags and the match length come once, to `init`, as the engine's own
//! [`StaticView`]; the SDK keeps it and hands it back with every turn's [`View`]
//! ([`View::statics`], [`View::map`], [`View::flags`]). The per-turn state is the engine's own
//! [`arena_code_character::View`] (reachable through `Deref`: `view.bots`, `view.bot(id)`,
//! `view.tile_of(p)`, ...), so the helpers are the very rules the host plays by:
//! [`View::nearest_flag`], [`View::nearest_free_tile`] and [`View::check_commands`] (the
//! engine's validation) here, [`rules`](arena_code_character::rules) (blast damage, tiles,
//! scoring) and `Vec2`'s vector maths (`distance`, `toward`,
//! `+ - *`) in the prelude.
//!
//! Everything is in the bot's own perspective: its base is (0.5, 0.5), the enemy's
//! (29.5, 29.5), whichever seat it has. Fuel: the per-turn state is converted when the bot first
//! reads it ([`crate::Lazy`]; a few dozen operations per unit), so a turn that answers without
//! looking costs about a thousand; a bot that answers only for units whose situation changed
//! (units without a command keep their intents) and thinks every few turns fits a 1000-turn
//! match in the default game budget.

use crate::{InitInfo, TurnInfo};
use arena_code_character::{
    CodeCharacter, CodeCharacterConfig, Command, CommandError, Map, StaticView, Terrain, Tile, Vec2,
};
use arena_game::Game;
use std::rc::Rc;

#[doc(hidden)]
#[allow(missing_docs, unsafe_code, clippy::all)]
pub mod bindings {
    // Every game's world is called `bot`, and wit-bindgen names a crate-root (`#[macro_export]`)
    // macro after the world, so the bindings are generated for an SDK-local alias world that
    // includes `arena:code-character/bot@0.2.0` unchanged (see `suitebot.rs`).
    wit_bindgen::generate!({
        path: "../../wit/code-character",
        inline: "package arena-sdk:code-character;\nworld code-character-bot { include arena:code-character/bot@0.2.0; }",
        world: "arena-sdk:code-character/code-character-bot",
        with: {
            "arena:common/types@0.1.0": crate::common::bindings::arena::common::types,
            "arena:common/log@0.1.0": crate::common::bindings::arena::common::log,
            "arena:code-character/types@0.2.0": generate,
        },
        pub_export_macro: true,
        export_macro_name: "__export_code_character_world",
        default_bindings_module: "arena_sdk::code_character::bindings",
    });
}

use bindings::arena::code_character::types as wit;

/// Everything a Code Character bot needs: `use arena_sdk::code_character::prelude::*;`.
pub mod prelude {
    pub use super::{CodeCharacterBot, View};
    pub use crate::rng::{GameRng, new_rng, rng_below};
    pub use crate::{InitInfo, Lazy, TurnInfo, log};
    pub use arena_code_character::geometry::{EPSILON, MAP_EXTENT, MAP_SIZE};
    pub use arena_code_character::{
        BotStatus, BotView, Command, CommandError, Intent, MAX_COMMANDS, Map, Order, Rejection, StaticView, Terrain,
        Tile, TowerState, TowerView, Vec2, View as State, rules,
    };
}

/// What a Code Character bot sees on its turn: the engine's per-turn
/// [`arena_code_character::View`] (`state`, also reachable through `Deref`; converted from what
/// the host sent when first read), the match's [`StaticView`] kept since `init`, and this turn's
/// budget. Natively, build one with `state: Lazy::from(engine_view)`.
#[derive(Debug, Clone, PartialEq)]
pub struct View {
    /// What changes: units, scores, last turn's rejections.
    pub state: crate::Lazy<arena_code_character::View>,
    /// What never changes: the map, the flags, the match length (sent once, to `init`).
    pub statics: Rc<StaticView>,
    /// Remaining fuel, missed turns.
    pub info: TurnInfo,
}

impl std::ops::Deref for View {
    type Target = arena_code_character::View;

    fn deref(&self) -> &arena_code_character::View {
        &self.state
    }
}

impl View {
    /// The match's static view.
    pub fn statics(&self) -> &StaticView {
        &self.statics
    }

    /// The terrain (in this bot's perspective).
    pub fn map(&self) -> &Map {
        &self.statics.map
    }

    /// The flag tile centres, row-major.
    pub fn flags(&self) -> &[Vec2] {
        &self.statics.flags
    }

    /// The flag tile centre nearest to `from` (the original helper).
    pub fn nearest_flag(&self, from: Vec2) -> Option<Vec2> {
        self.state.nearest_flag(&self.statics, from)
    }

    /// The nearest tile where a transform could succeed: a BFS over 4-neighbour LAND/FLAG tiles
    /// with no living unit (the original helper).
    pub fn nearest_free_tile(&self, from: Vec2) -> Option<Tile> {
        self.state.nearest_free_tile(&self.statics, from)
    }

    /// What the engine would say about each command now: one result per command.
    pub fn check_commands(&self, commands: &[Command]) -> Vec<Result<(), CommandError>> {
        self.state.check_commands(&self.statics, commands)
    }

    /// The terrain of a tile.
    pub fn terrain(&self, tile: Tile) -> Terrain {
        self.statics.map.terrain(tile)
    }
}

/// A Code Character bot. One value lives for the whole match (and is rebuilt with `Default`
/// after a restart); its fields persist between turns.
pub trait CodeCharacterBot: Default + 'static {
    /// Called once before the first turn, and again after every restart, with the map and the
    /// rest of what never changes. Budget: one turn.
    fn init(&mut self, info: &InitInfo, statics: &StaticView) {
        let _ = (info, statics);
    }

    /// This turn's commands, at most one per unit and at most
    /// [`MAX_COMMANDS`](arena_code_character::MAX_COMMANDS) (more is an invalid action: nothing
    /// applies). Units without a command keep their intents, so an empty list is cheap and
    /// valid.
    fn act(&mut self, view: &View) -> Vec<Command>;
}

/// Exports a type implementing [`CodeCharacterBot`] as the component's
/// `arena:code-character/player` interface. Like [`crate::__export_bot`] (whose `init` takes
/// one argument; this game's also takes the static view): a native build gets `__arena_bot()`
/// instead.
#[macro_export]
macro_rules! export_code_character_bot {
    ($bot:ty) => {
        #[cfg(not(target_arch = "wasm32"))]
        #[doc(hidden)]
        pub fn __arena_bot() -> $bot {
            <$bot as ::core::default::Default>::default()
        }

        #[cfg(target_arch = "wasm32")]
        const _: () = {
            struct ArenaExport;
            ::std::thread_local! {
                static BOT: ::core::cell::RefCell<::core::option::Option<$bot>> =
                    const { ::core::cell::RefCell::new(::core::option::Option::None) };
            }
            impl $crate::code_character::bindings::exports::arena::code_character::player::Guest for ArenaExport {
                fn init(
                    info: $crate::code_character::__glue::WitInitInfo,
                    statics: $crate::code_character::__glue::WitStaticView,
                ) {
                    BOT.with(|slot| $crate::code_character::__glue::init::<$bot>(slot, info, statics))
                }
                fn take_turn(
                    view: $crate::code_character::__glue::WitView,
                ) -> $crate::code_character::__glue::WitAnswer {
                    BOT.with(|slot| $crate::code_character::__glue::take_turn::<$bot>(slot, view))
                }
            }
            $crate::code_character::bindings::__export_code_character_world!(
                ArenaExport with_types_in $crate::code_character::bindings
            );
        };
    };
}

#[doc(hidden)]
pub mod __glue {
    use super::*;
    use std::cell::RefCell;

    pub type WitInitInfo = crate::common::wit::InitInfo;
    pub type WitStaticView = wit::StaticView;
    pub type WitView = wit::View;
    pub type WitAnswer = Vec<wit::Command>;

    std::thread_local! {
        /// The static view `init` was given (one instance plays one seat of one match).
        static STATICS: RefCell<Option<Rc<StaticView>>> = const { RefCell::new(None) };
    }

    pub fn init<B: CodeCharacterBot>(slot: &RefCell<Option<B>>, info: WitInitInfo, statics: WitStaticView) {
        let info = InitInfo::from(info);
        let statics = Rc::new(static_view_from_wit(statics));
        STATICS.with(|kept| *kept.borrow_mut() = Some(statics.clone()));
        crate::__private::start(slot, |bot| bot.init(&info, &statics));
    }

    pub fn take_turn<B: CodeCharacterBot>(slot: &RefCell<Option<B>>, view: WitView) -> WitAnswer {
        let info = TurnInfo::from(view.info);
        let seat = view.seat;
        let statics =
            STATICS.with(|kept| kept.borrow_mut().get_or_insert_with(|| Rc::new(default_statics(seat))).clone());
        let view = View { state: crate::Lazy::new(move || view_from_wit(&view)), statics, info };
        let commands = crate::__private::with_bot(slot, |bot: &mut B| bot.act(&view));
        commands.iter().map(command_to_wit).collect()
    }
}

/// The default match's static view (only if `init` was somehow never called).
fn default_statics(seat: u8) -> StaticView {
    match CodeCharacter::new(&CodeCharacterConfig::default(), 2, 0) {
        Ok(game) => game.static_view(usize::from(seat)),
        Err(_) => StaticView {
            seat,
            map: Map::default(),
            flags: Vec::new(),
            turns: 0,
            base: arena_code_character::rules::BASE_POSITION,
            enemy_base: arena_code_character::rules::ENEMY_BASE_POSITION,
        },
    }
}

arena_code_character::wit_glue!(crate::common::wit::TurnInfo);
