//! Paint ("multipaint") rules engine for Wasm Arena, exactly as the project's `paint.md`
//! specifies: 2 to 8 players walk and shoot paint on a grid for a fixed number of simultaneous
//! turns; the most squares of one's colour wins.
//!
//! - [`rules`]: the rules once, as pure functions on plain data, shared by the engine and by bots
//!   (the guest SDK re-exports it).
//! - [`Paint`]: the engine, implementing `arena_game::Game`, set up from a [`PaintConfig`]
//!   (template, placement, turns, obstacles, and [`PreviousActions`]: how much history the line
//!   protocol sends); [`View`]: what a seat sees, with the grid helpers bots need (directions,
//!   neighbours, bounds, runs of colour, what an action would gain).
//! - [`Action`], [`Invalid`], [`Event`]: a seat's answer, why one is refused, what happened.
//! - [`Board`], [`Pos`], [`Direction`]: the board and its coordinates (`[row, col]`, king moves).
//! - [`fixtures`]: runs the upstream transition-fixture format against the engine.
//!
//! Decisions paint.md leaves open are marked **\[ours\]** where they are made.

mod action;
mod board;
mod event;
pub mod fixtures;
mod game;
mod grid;
pub mod rules;
mod template;
mod view;
pub mod wit_glue;

pub use action::{Action, ActionKind, Invalid};
pub use board::Board;
pub use event::{Event, ShotStop, WalkDrop};
pub use game::{MAX_TURNS, Paint, PaintConfig, PreviousActions, StateError};
pub use grid::{DIRECTIONS, Direction, Pos};
pub use template::{BOARD_NAMES, BoardName, MAX_SEATS, Placement, Template, symmetric_starts};
pub use view::View;
