//! The Rust SDK for Wasm Arena bots.
//!
//! A bot is a struct that implements one trait per game (for Azul, [`azul::AzulBot`]: an `act`
//! method and an optional `init`) and is exported with that game's macro
//! ([`export_azul_bot!`]). Build it with `cargo build --target wasm32-wasip2 --release`: the
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
//! a panic hook that writes the panic message to the log before the instance traps.

pub mod azul;
pub mod common;
pub mod log;
mod panic_hook;
mod view;

pub use common::{InitInfo, TurnInfo};
pub use view::View;

/// Deterministic randomness for bots: seed it with [`InitInfo::seed`].
pub mod rng {
    pub use arena_game::rng::{GameRng, new_rng, rng_below};
}

#[doc(hidden)]
pub mod __private {
    pub use crate::panic_hook::install as install_panic_hook;
}
