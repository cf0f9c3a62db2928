//! Azul (1v1) rules engine for Wasm Arena, exactly as the project's `azul.md` specifies.
//!
//! - [`rules`]: the rules once, as pure functions on plain data, shared by the engine and by bots
//!   (the guest SDK re-exports it).
//! - [`Azul`]: the engine, implementing `arena_game::Game`; [`View`]: what a seat sees, with the
//!   same legality check, move list and fallback the engine uses.
//! - [`Move`], [`Invalid`], [`Event`]: a seat's answer, why one is refused, what happened.
//!
//! Decisions azul.md leaves open are marked **\[ours\]** where they are made.

mod action;
mod bag;
mod board;
mod colour;
mod event;
mod game;
pub mod rules;
mod view;
pub mod wit_glue;

pub use action::{Invalid, Move};
pub use board::{BoardView, PatternLine};
pub use colour::{COLOURS, Colour};
pub use event::{EndReason, Event};
pub use game::{Azul, AzulConfig};
pub use rules::{CENTER, EndBonus, FACTORIES, FLOOR_LINE, FLOOR_SLOTS};
pub use view::View;
