//! `fx-panic`: panics in every `take-turn`.
//!
//! docs/design.md#traps, "Traps": a panic (with `panic = "abort"`: `unreachable`) discards the
//! instance; the SDK's panic hook writes the message to the bot's log first, so the replay says
//! why. After 3 traps the bot forfeits.

use arena_sdk::azul::prelude::*;

/// The panic message (the tests look for it in the log).
pub const MESSAGE: &str = "fx-panic: deliberate panic";

/// Panics.
#[derive(Default)]
pub struct Panicker;

impl AzulBot for Panicker {
    // Panicking is this fixture's whole purpose.
    #[allow(clippy::panic)]
    fn act(&mut self, view: &View) -> Move {
        panic!("{MESSAGE} on turn {}", view.info.turn);
    }
}

arena_sdk::export_azul_bot!(Panicker);
