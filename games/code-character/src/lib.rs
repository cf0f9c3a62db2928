//! Code Character 2020 rules engine for Wasm Arena, exactly as the project's
//! `code-character.md` specifies: two players, simultaneous turns, bots that move, blast and
//! transform into towers on a 30x30 map, scoring for units on flag tiles.
//!
//! - [`rules`], [`geometry`], [`command`]: the rules once, as constants and pure functions
//!   shared by the engine and by bots (the guest SDK re-exports them): blast damage, tiles of
//!   positions, command validation, nearest flag, nearest free tile, vector maths.
//! - [`CodeCharacter`]: the engine, implementing `arena_game::Game`;
//!   [`CodeCharacter::static_view`] and [`View`]: what a seat sees, always in its own
//!   perspective, split into what never changes and what does.
//! - [`Command`], [`Invalid`], [`CommandError`], [`Event`]: a seat's answer, why a whole answer
//!   is refused, why one command is rejected, what happened.
//! - [`Map`]: map files, the default map and the point-symmetry check.
//! - `arena_game::SeatSymmetric` for [`CodeCharacter`]: a match with the seats swapped is the
//!   exact mirror image (module `symmetry`).
//!
//! Modules inside: `perspective` (the mirrored view, and why units are stored in their owner's
//! coordinates), `path` (the visibility graph and shortest paths), `unit` (the state machines), `game` (the
//! engine and the turn order).
//!
//! Decisions code-character.md leaves open are marked **\[ours\]** where they are made.

pub mod command;
mod event;
mod game;
pub mod geometry;
mod map;
mod path;
mod perspective;
pub mod rules;
mod symmetry;
mod unit;
mod view;
pub mod wit_glue;

pub use command::{Command, CommandError, Invalid, MAX_COMMANDS, Order, Rejection};
pub use event::Event;
pub use game::{CodeCharacter, CodeCharacterConfig};
pub use geometry::{Tile, Vec2};
pub use map::{Map, MapError, Terrain};
pub use perspective::ENEMY_ID_BASE;
pub use unit::{BotState, BotStatus, Intent, TowerState};
pub use view::{BotView, StaticView, TowerView, View};
