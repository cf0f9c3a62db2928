//! The benchmarks' trivial bot: no work of its own, so a match of two of them measures the
//! host's cost per turn (observation, lowering, the metered call, decoding, stepping).

use arena_sdk::azul::prelude::*;

/// Answers the engine's fallback move (the floor line when the table is empty, which the host
/// never asks about).
#[derive(Default)]
pub struct Trivial;

impl AzulBot for Trivial {
    fn act(&mut self, view: &View) -> Move {
        view.fallback_move().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(Trivial);
