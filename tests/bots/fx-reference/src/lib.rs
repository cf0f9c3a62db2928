//! The fuel golden's reference bot. Its compiled component is checked in at
//! `tests/fixtures/fx-reference.wasm` (so only a wasmtime change can move the golden, not a
//! compiler or SDK change); this source is what it was built from.

use arena_sdk::azul::prelude::*;

/// Sorts a fixed pseudo-random array every turn, then plays the first legal move.
#[derive(Default)]
pub struct Reference;

impl AzulBot for Reference {
    fn act(&mut self, view: &View) -> Move {
        let mut values: Vec<u32> = (0..1000u32).map(|i| i.wrapping_mul(2_654_435_761) >> 7).collect();
        values.sort_unstable();
        let checksum = values.iter().fold(0u32, |acc, v| acc.rotate_left(5) ^ v);
        log::debug(&format!("checksum {checksum:08x}"));
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(Reference);
