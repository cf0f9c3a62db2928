//! The Wasm Arena host: runs untrusted WebAssembly bots under wasmtime fuel metering and steps
//! native game engines turn by turn.
//!
//! - [`engine`]: the wasmtime engine's settings (fuel, determinism, stack, allocator);
//!   [`runtime`]: the [`Arena`] (engine, linker, epoch backstop, compile settings) and each
//!   bot's store, whose data is [`store::BotState`]; the locked-down WASI each bot gets
//!   ([`wasi`]: virtual clocks and timers, seeded randomness).
//! - [`meter`]: each store's fuel at every host-call transition (fuel yields, stuck calls);
//!   `host_fuel`: host functions charging fuel per byte; `limits`: the whole-bot memory limit.
//! - [`loader`]: reads a bot file, compiles it once per run and checks which game it plays.
//! - [`cache`]: the compiled-artifact cache the loader may compile through.
//! - [`budget`]: what a bot may spend, and what a unit of fuel means (wasmtime release, costs).
//! - [`shape`]: static limits on a bot's code, checked before compiling; [`compile`]: compiling
//!   (in a bounded worker process when the arena has one); `typecheck`: export types checked
//!   against each game's WIT without running bot code.
//! - [`seat`]: what the match loop talks to, one [`seat::SeatBot`] per seat, whatever the bot's
//!   kind; [`seat::runner`] is what every kind shares (the seat's books, metered start-up, the
//!   turn's prologue). [`bot`]: a WIT component's turns (suspension, lift failures).
//! - [`bindings`]: one WIT binding module per game, converting engine types to and from WIT
//!   ([`bindings::common`]: the `arena:common` types every game shares).
//! - [`protocol`]: line-protocol bots (WASI commands speaking a game's original text protocol).
//! - [`play`]: the match loop; [`record`]: what a match leaves (the replay record, the result);
//!   [`replay`]: the replay file and its verification; [`regular_file`]: opening a path a
//!   replay names only if it is a regular file, never blocking on a named pipe.
//! - [`profiler`]: where one seat's fuel went (`arena profile`), sampled deterministically by
//!   fuel.
//! - [`registry`]: every game by name, for front ends; [`tournament`]: whole competitions (plan,
//!   resumable run into SQLite, ratings, leaderboard).
//!
//! The budget contract (DESIGN.md section 1) is implemented in [`seat::runner`], [`bot`] and,
//! for line-protocol bots, [`protocol::runner`]; every exception a bot
//! can cause is a [`fault::BotFault`] value in the match record, never a host error.

pub mod bindings;
pub mod bot;
pub mod budget;
pub mod cache;
pub mod compile;
pub mod driver;
pub mod engine;
pub mod fault;
pub mod fuel_profile;
mod host_fuel;
pub mod limits;
pub mod loader;
pub mod log;
pub mod meter;
pub mod play;
pub mod profiler;
pub mod protocol;
pub mod record;
pub mod registry;
pub mod regular_file;
pub mod replay;
pub mod runtime;
pub mod seat;
pub mod shape;
pub mod stack;
pub mod store;
pub mod tournament;
mod typecheck;
pub mod view;
pub mod wasi;

pub use budget::Budget;
pub use fault::{BotFault, TrapKind};
pub use loader::{LoadError, LoadedBot};
pub use play::{play_contestants, play_match};
pub use record::{MatchRecord, PlayerSummary};
pub use runtime::Arena;
