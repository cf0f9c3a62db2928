//! Wasm Arena's sandbox: everything a bot's instructions touch, and nothing about games.
//!
//! - [`Sandbox`]: the wasmtime engine ([`engine`]: fuel, determinism settings, stack, the
//!   instance allocator and its per-bot limits, [`limits`]), the linker every bot is
//!   instantiated with, the epoch ticker behind the wall-clock backstop, and
//!   [`Sandbox::new_store`], one store per bot instance ([`store::BotState`]), handed to a
//!   [`StoreHook`] if one is installed (the fuel profiler's).
//! - [`wasi`]: the locked-down WASI each bot gets (virtual clocks and timers, seeded
//!   randomness, output into its [`log`]); [`common`]: the `arena:common` WIT types (the log
//!   import, the init and turn infos every game's world shares).
//! - [`meter`]: each store's fuel at every host-call transition (fuel yields, stuck calls) and
//!   the host-call fee; `host_fuel`: host functions charging fuel for their work;
//!   [`driver`]: polling a bot's call to completion, a fuel yield or the backstop.
//! - [`data`]: a bot's read-only data folder (its tree, loaded once, and its digest);
//!   `data_fs`: the arena's own `wasi:filesystem` over it, deterministic and charged.
//! - [`preview1`]: WASI preview1 for a core module run as one (a Go program), under the same
//!   rules; `preview1_data`: its view of the data folder, `/data` as descriptor 3.
//! - [`stack`]: the deterministic stack limit instrumented into every core module before it
//!   is compiled.
//! - [`budget`]: what a bot may spend, and what a unit of fuel means.
//!
//! The crates above it (loading, the referee, tournaments, the front ends) use it through this
//! surface; it depends on no other crate of the arena.

pub mod budget;
pub mod common;
pub mod data;
mod data_fs;
pub mod driver;
pub mod engine;
mod host_fuel;
pub mod limits;
pub mod log;
pub mod meter;
pub mod preview1;
mod preview1_data;
mod sandbox;
pub mod stack;
pub mod store;
pub mod wasi;

pub use budget::Budget;
pub use host_fuel::BURNER_MODULE;
pub use sandbox::{EPOCH_TICK, Sandbox, StoreHook, ticks_for};
