//! SuiteBot II rules engine for Wasm Arena, exactly as the project's `suitebot.md` specifies: a
//! Bomberman-like game for 2 to 8 players on a torus, 100 simultaneous rounds.
//!
//! - [`rules`]: the rules once, as pure functions on plain data (the torus, moves, collisions,
//!   planting, blast areas, chain reactions, scoring covers, home bases), shared by the engine
//!   and by bots (the guest SDK re-exports it).
//! - [`Suitebot`]: the engine, implementing `arena_game::Game`; [`SuitebotConfig`]: its options
//!   (with [`BoardEncoding`]: how the line protocol writes the board);
//!   [`View`]: what a seat sees, with helpers that call the same rules.
//! - [`Action`], [`Invalid`], [`Event`]: a seat's answer, why one is refused, what happened.
//! - [`protocol`]: the original JSON-per-round protocol (state line out, answer letter in).
//!
//! Decisions suitebot.md leaves open are marked **\[ours\]** where they are made.

mod action;
mod board;
mod config;
mod event;
mod game;
pub mod protocol;
pub mod rules;
mod view;
pub mod wit_glue;

pub use action::{Action, Invalid};
pub use board::{Bomb, PlayerView, Pos};
pub use config::{BoardEncoding, MAX_BLAST_RADIUS, MAX_ROUNDS, MAX_SIDE, MIN_SIDE, SuitebotConfig};
pub use event::Event;
pub use game::Suitebot;
pub use rules::{Cover, Torus};
pub use view::View;
