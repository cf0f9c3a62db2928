//! Eubots (2 to 8 players, simultaneous turns) rules engine for Wasm Arena, exactly as the
//! project's `eubots.md` specifies.
//!
//! - [`rules`]: the rules once, as pure functions on plain data (order validation, the attack and
//!   movement phases, the end of the match), shared by the engine and by bots (the guest SDK
//!   re-exports it).
//! - [`Pos`], [`Direction`], [`Square`], [`Grid`]: the geometry bots share: neighbours, in-map
//!   checks (everything outside the map is a wall), distances.
//! - [`Map`]: map files (parser with typed [`MapError`]s naming line and column) and the
//!   built-in maps.
//! - [`Eubots`]: the engine, implementing `arena_game::Game`; [`View`]: what a seat sees, with
//!   the same checks the engine applies.
//! - [`Order`] (a seat answers a `Vec<Order>`), [`Invalid`] (why a whole answer is refused),
//!   [`OrderError`] (why one order is ignored), [`Unit`] and [`Status`] (the public units index),
//!   [`Event`] (what happened).
//!
//! Decisions eubots.md leaves open are marked **\[ours\]** where they are made.

mod event;
mod game;
mod grid;
mod map;
mod order;
pub mod rules;
mod unit;
mod view;
pub mod wit_glue;

pub use event::{EndReason, Event, MoveFail, Standing};
pub use game::{Eubots, EubotsConfig, MapChoice};
pub use grid::{Direction, Grid, Handle, Pos, Square};
pub use map::{Map, MapError, Tile};
pub use order::{Action, IgnoredOrder, Invalid, Order, OrderError};
pub use rules::{DEFENCE, MAX_ORDERS, MAX_PLAYERS, MAX_SIDE, MIN_PLAYERS, STALEMATE_TURNS, TURN_CAP, Validation};
pub use unit::{Status, Unit};
pub use view::{Metrics, View};
