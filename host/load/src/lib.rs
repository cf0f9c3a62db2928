//! Wasm Arena's loading: a bot file becomes a compiled, checked component ready to be
//! instantiated, and no bot code runs on the way.
//!
//! - [`runtime`]: the [`Arena`]: the sandbox and what loading needs beyond it (the artifact
//!   cache, the compile worker, the reference components).
//! - [`loader`]: reads a bot file (never blocking on a named pipe, [`regular_file`]), hashes
//!   it, compiles it once per run and checks it exports a game's world ([`loader::World`]) or
//!   is a WASI command; [`wasip1`] wraps a `wasm32-wasip1` command into a component first, or
//!   has it run as the core module it is when it is a Go program ([`core_module`] tells one from
//!   another core module, and why not; [`stdio_pipes`] makes a wrapped command's stdio answer
//!   positional calls as pipes do); [`artifact`]: what a bot compiles to (a component or that
//!   core module).
//! - [`bot_data`]: a bot's data folder (given, or `NAME.data/` beside `NAME.wasm`), read once
//!   into the tree its instances see at `/data`, and its digest in the bot's identity.
//! - [`shape`]: static limits on a bot's code, checked before compiling; [`compile`]: compiling
//!   (in a bounded worker process when the arena has one); [`typecheck`]: export types checked
//!   against a game's WIT without running bot code.
//! - [`cache`]: the compiled-artifact cache (entries authenticated per user, files' sha256
//!   remembered by stamp).
//!
//! It stands on the sandbox (the engine whose settings a compiled artifact depends on, the
//! linker a bot is checked against) and knows no game: a game's world comes in as a
//! [`loader::World`], which the referee's bindings implement.

use arena_sandbox::{budget, engine, limits, stack, store};

pub mod artifact;
pub mod bot_archive;
pub mod bot_data;
pub mod cache;
pub mod compile;
pub mod core_module;
pub mod loader;
pub mod regular_file;
pub mod runtime;
pub mod shape;
pub mod stdio_pipes;
pub mod typecheck;
pub mod wasip1;

pub use bot_data::{BotData, BotFiles, DataRef};
pub use loader::{BotRef, LoadError, LoadStage, LoadedBot, World};
pub use runtime::Arena;
