//! The Rust SDK for Wasm Arena bots.
//!
//! A bot is a struct that implements one trait per game (for Azul, [`azul::AzulBot`]: an `act`
//! method and an optional `init`) and is exported with that game's macro
//! ([`export_azul_bot!`]). Each game is a cargo feature of this crate (`azul`, `paint`,
//! `code-character`, `eubots`, `suitebot`): a bot enables its game's, and compiles that engine
//! only. Build it with `cargo build --target wasm32-wasip2 --release`: the
//! result is a WebAssembly component the `arena` host runs.
//!
//! ```ignore
//! use arena_sdk::azul::prelude::*;
//!
//! #[derive(Default)]
//! struct FirstLegal;
//!
//! impl AzulBot for FirstLegal {
//!     fn act(&mut self, view: &View) -> Move {
//!         view.legal_moves()[0]
//!     }
//! }
//!
//! arena_sdk::export_azul_bot!(FirstLegal);
//! ```
//!
//! What the SDK owns: the generated WIT bindings (one module per game, sharing
//! [`common`]'s types), the conversions from WIT records to the engines' own view types (so a
//! bot gets the same `legal_moves`, `score_if_placed`, ... the engine uses), the bot's log, and
//! a panic hook that writes the panic message to the log before the instance traps, and (feature
//! `fast-alloc`, on by default) a memory allocator that costs a bot less fuel than wasi-libc's.

#[cfg(feature = "azul")]
pub mod azul;
#[cfg(feature = "code-character")]
pub mod code_character;
pub mod common;
#[cfg(feature = "eubots")]
pub mod eubots;
// The games whose views convert on first read.
#[cfg(any(feature = "eubots", feature = "code-character"))]
mod lazy;
pub mod log;
#[cfg(feature = "paint")]
pub mod paint;
mod panic_hook;
// Compiled where it is the allocator, and natively for its tests.
#[cfg(any(test, all(feature = "fast-alloc", target_arch = "wasm32", not(target_feature = "atomics"))))]
mod size_classes;
#[cfg(feature = "suitebot")]
pub mod suitebot;
mod view;

/// The bot's allocator: size-class free lists over the system's (see `size_classes`).
#[cfg(all(feature = "fast-alloc", target_arch = "wasm32", not(target_feature = "atomics")))]
#[global_allocator]
static ALLOCATOR: size_classes::SizeClasses = size_classes::SizeClasses::new();

pub use common::{InitInfo, TurnInfo};
#[cfg(any(feature = "eubots", feature = "code-character"))]
pub use lazy::Lazy;
pub use view::View;

/// Deterministic randomness for bots: seed it with [`InitInfo::seed`].
pub mod rng {
    pub use arena_game::rng::{GameRng, new_rng, rng_below};
}

/// What every game's export glue shares.
#[doc(hidden)]
pub mod __private {
    use std::cell::RefCell;

    /// (Re)creates the bot in `slot` and runs its `init`.
    pub fn start<B: Default>(slot: &RefCell<Option<B>>, init: impl FnOnce(&mut B)) {
        crate::panic_hook::install();
        let mut bot = B::default();
        init(&mut bot);
        *slot.borrow_mut() = Some(bot);
    }

    /// Runs `act` on the bot in `slot` (created if `init` was never called).
    pub fn with_bot<B: Default, R>(slot: &RefCell<Option<B>>, act: impl FnOnce(&mut B) -> R) -> R {
        crate::panic_hook::install();
        let mut slot = slot.borrow_mut();
        act(slot.get_or_insert_with(B::default))
    }
}

/// The export glue every game's `export_<game>_bot!` macro expands to: `$game` is the SDK
/// module (and WIT package) name, `$world_macro` the export macro wit-bindgen generated for it.
///
/// Only a `wasm32` build gets the component exports (their symbol names are not valid native
/// linker symbols); a native build gets `__arena_bot()`, which constructs the bot, so bot crates
/// also build and test natively.
#[doc(hidden)]
#[macro_export]
macro_rules! __export_bot {
    ($bot:ty, $game:ident, $world_macro:ident) => {
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
            impl $crate::$game::bindings::exports::arena::$game::player::Guest for ArenaExport {
                fn init(info: $crate::$game::__glue::WitInitInfo) {
                    BOT.with(|slot| $crate::$game::__glue::init::<$bot>(slot, info))
                }
                fn take_turn(view: $crate::$game::__glue::WitView) -> $crate::$game::__glue::WitAction {
                    BOT.with(|slot| $crate::$game::__glue::take_turn::<$bot>(slot, view))
                }
            }
    $crate::$game::bindings::$world_macro!(ArenaExport with_types_in $crate::$game::bindings);
        };
    };
}
