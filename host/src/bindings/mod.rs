//! One binding module per game: the glue between a game engine's Rust types and its WIT world
//! (wasmtime's generated bindings; the engines themselves are in `games/`).
//! Every binding implements [`Binding`], so the bot driver and the match loop are written once.

mod abi;
pub use arena_sandbox::common;

impl From<InitInfo> for common::InitInfo {
    fn from(info: InitInfo) -> Self {
        common::InitInfo {
            seat: info.seat,
            players: info.players,
            restart_count: info.restart_count,
            seed: info.seed,
            turn_fuel: info.turn_fuel,
            game_fuel: info.game_fuel,
            game_fuel_remaining: info.game_fuel_remaining,
        }
    }
}

impl From<TurnInfo> for common::TurnInfo {
    fn from(info: TurnInfo) -> Self {
        common::TurnInfo {
            turn: info.turn,
            turn_fuel_remaining: info.turn_fuel_remaining,
            game_fuel_remaining: info.game_fuel_remaining,
            missed_turns: info.missed_turns,
        }
    }
}

/// A game's [`World`] (what loading checks a bot against): the binding type, the module
/// `bindgen!` generated, the world's and the export's names, and its WIT file (a path relative
/// to this folder, read at compile time).
macro_rules! bot_world {
    ($binding:ty, $bindings:ident, world: $world:literal, export: $export:literal, wit: $wit:literal) => {
        impl $crate::loader::World for $binding {
            type Pre = $bindings::BotPre<$crate::store::BotState>;
            const EXPORT: &'static str = $export;
            const WORLD: &'static str = $world;
            const WIT: &'static str = include_str!($wit);
            fn pre(pre: ::wasmtime::component::InstancePre<$crate::store::BotState>) -> ::wasmtime::Result<Self::Pre> {
                $bindings::BotPre::new(pre)
            }
        }
    };
}

/// The part of a [`Binding`] impl that is the same for every game's `bot` world: the
/// pre-instantiated and instance types `bindgen!` generated in module `$bindings`, and
/// instantiation. Used inside `impl Binding for ...`.
macro_rules! bot_world_plumbing {
    ($bindings:ident) => {
        type Instance = $bindings::Bot;

        fn instance_pre(pre: &Self::Pre) -> &::wasmtime::component::InstancePre<$crate::store::BotState> {
            pre.instance_pre()
        }

        fn instantiate(
            pre: &Self::Pre,
            mut store: ::wasmtime::Store<$crate::store::BotState>,
        ) -> $crate::bindings::OwnedCall<Self::Instance> {
            let pre = pre.clone();
            Box::pin(async move {
                let result = pre.instantiate_async(&mut store).await;
                (store, result)
            })
        }
    };
}

pub mod azul;
pub mod code_character;
pub mod eubots;
pub mod paint;
#[cfg(test)]
mod roundtrip;

/// Asserts that each engine value's code (`code`) is its WIT enum case's index, given as the
/// pair's second half (the generated enum cast to `u8`), and that `from_code` decodes it back.
#[cfg(test)]
fn assert_case_codes<T: Copy + PartialEq + std::fmt::Debug>(
    pairs: &[(T, u8)],
    code: impl Fn(T) -> u8,
    from_code: impl Fn(u8) -> T,
) {
    for (value, case_index) in pairs {
        assert_eq!(code(*value), *case_index, "{value:?}");
        assert_eq!(from_code(code(*value)), *value, "{value:?}");
    }
}
pub mod suitebot;

use crate::fault::InvalidReason;
use crate::loader::World;
use crate::seat::{InitInfo, TurnInfo};
use crate::store::BotState;
use arena_game::Game;
use wasmtime::Store;
use wasmtime::component::InstancePre;

pub use crate::seat::OwnedCall;

/// A live instance: the store and the bindings to call into it.
pub struct Live<B: Binding> {
    /// The bot's store (one per instance).
    pub store: Store<BotState>,
    /// The instance's exports.
    pub instance: B::Instance,
}

/// The glue for one game's WIT world.
pub trait Binding: World {
    /// The engine.
    type Game: Game;
    /// An instance's typed exports.
    type Instance: Send + Sync + 'static;
    /// A turn's answer as the bot returned it.
    type Answer: Send + 'static;

    /// The linked, not yet instantiated component.
    fn instance_pre(pre: &Self::Pre) -> &InstancePre<BotState>;

    /// Instantiates (metered by the caller's fuel setting).
    fn instantiate(pre: &Self::Pre, store: Store<BotState>) -> OwnedCall<Self::Instance>;

    /// Calls `init`.
    fn init(live: Live<Self>, info: InitInfo) -> OwnedCall<Self::Instance>
    where
        Self: Sized;

    /// Calls `init` for a bot seated in a match whose initial state is `game` (`None` when the
    /// caller has no match, e.g. a benchmark starting a bot by itself). The same state is passed
    /// again at every restart. A game whose `init` also sends data that never changes (Code
    /// Character's map) overrides this; the default ignores `game` and calls [`Binding::init`].
    fn init_in(live: Live<Self>, info: InitInfo, game: Option<&Self::Game>) -> OwnedCall<Self::Instance>
    where
        Self: Sized,
    {
        let _ = game;
        Self::init(live, info)
    }

    /// Calls `take-turn` with the observation and budget facts.
    fn take_turn(
        live: Live<Self>,
        observation: &<Self::Game as Game>::Observation,
        info: TurnInfo,
    ) -> OwnedCall<(Self::Instance, Self::Answer)>
    where
        Self: Sized;

    /// Decodes an answer into a game action; a malformed one is an invalid action.
    fn decode(answer: Self::Answer) -> Result<<Self::Game as Game>::Action, InvalidReason>;
}
