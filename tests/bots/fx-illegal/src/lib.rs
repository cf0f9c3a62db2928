//! `fx-illegal`: answers `source 9, colour green, line 7` every turn: no such source, no such
//! line.
//!
//! docs/design.md#faults-are-data: the game refuses the answer (an `InvalidAction` with the
//! game's own typed reason) and applies its fallback. An answer larger than a bound (the other
//! half of docs/design.md#memory-and-sizes) is not representable in the Azul world: its answer
//! is a fixed-size record of three small fields, so this fixture covers the refused half only.

use arena_sdk::azul::prelude::*;

/// The answer, every turn.
pub const ANSWER: Move = Move { source: 9, colour: Colour::Green, line: 7 };

/// Always illegal.
#[derive(Default)]
pub struct Illegal;

impl AzulBot for Illegal {
    fn act(&mut self, _view: &View) -> Move {
        ANSWER
    }
}

arena_sdk::export_azul_bot!(Illegal);
