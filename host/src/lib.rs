//! The Wasm Arena host: runs untrusted WebAssembly bots under wasmtime fuel metering and steps
//! native game engines turn by turn.
//!
//! - The sandbox bots run in is its own crate, `arena-sandbox`, re-exported here module by
//!   module: [`engine`] (the wasmtime engine's settings), [`store`] (each bot's store),
//!   [`wasi`] (the locked-down WASI: virtual clocks and timers, seeded randomness), [`meter`]
//!   (each store's fuel at every host-call transition, and the host-call fee), [`driver`]
//!   (polling a bot's call), [`limits`] (the whole-bot memory limit), [`stack`] (the
//!   deterministic stack limit), [`log`] and [`budget`].
//! - Loading is its own crate too, `arena-load`, re-exported here: [`runtime`] (the [`Arena`]:
//!   the sandbox and what loading needs beyond it), [`loader`] (a bot file read, hashed,
//!   compiled once per run and checked against a game's world), [`cache`], [`shape`],
//!   [`compile`], [`typecheck`] and [`regular_file`].
//! - [`seat`]: what the match loop talks to, one [`seat::SeatBot`] per seat, whatever the bot's
//!   kind; [`seat::runner`] is what every kind shares (the seat's books, metered start-up, the
//!   whole turn). [`bot`]: a WIT component's calls (suspension, lift failures).
//! - [`bindings`]: one WIT binding module per game, converting engine types to and from WIT
//!   ([`bindings::common`]: the `arena:common` types every game shares).
//! - [`protocol`]: line-protocol bots (WASI commands speaking a game's original text protocol).
//! - [`play`]: the match loop; [`record`]: what a match leaves (the replay record, the result);
//!   [`replay`]: the replay file and its verification; [`post_mortem`]: why a seat forfeited for
//!   its traps (its last trap, exit code and stderr), for the terminal.
//! - [`registry`]: every game by name, for front ends (the viewer, `arena-view`, and whole
//!   competitions, `arena-tournament`, are crates above this one).
//!
//! The budget contract (docs/design.md#the-budget-contract) is implemented in [`seat::runner`],
//! [`bot`] and, for line-protocol bots, [`protocol::runner`]; every exception a bot can cause is a
//! [`fault::BotFault`] value in the match record, never a host error.

pub mod bindings;
pub mod bot;
pub mod fault;
pub mod play;
pub mod post_mortem;
pub mod protocol;
pub mod record;
pub mod registry;
pub mod replay;
pub mod seat;

pub use arena_load::{
    artifact, bot_archive, bot_data, cache, compile, loader, regular_file, runtime, shape, typecheck,
};
pub use arena_sandbox::{Budget, budget, data, driver, engine, limits, log, meter, preview1, stack, store, wasi};
pub use fault::{BotFault, TrapKind};
pub use loader::{LoadError, LoadedBot};
pub use play::{play_contestants, play_match};
pub use record::{MatchRecord, PlayerSummary};
pub use runtime::Arena;
