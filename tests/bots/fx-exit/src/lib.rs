//! `fx-exit`: calls WASI `exit(3)` from `take-turn`.
//!
//! docs/design.md#traps, "Traps ... Faults are data": the instance is gone, which is handled as
//! a trap of the typed kind `exited` with the status, not as an unnamed host error; three of
//! them forfeit.

use arena_sdk::azul::prelude::*;

/// Exits.
#[derive(Default)]
pub struct Exit;

impl AzulBot for Exit {
    fn act(&mut self, _view: &View) -> Move {
        std::process::exit(3)
    }
}

arena_sdk::export_azul_bot!(Exit);
