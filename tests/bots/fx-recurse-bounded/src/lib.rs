//! `fx-recurse-bounded`: recurses 1000 deep in `take-turn`, then plays the first legal move.
//!
//! The obeyed side of `fx-recurse` (docs/design.md#memory-and-sizes, "Memory and sizes": a bounded
//! wasm stack): recursion within the bound is no fault.

use arena_sdk::azul::prelude::*;
use std::hint::black_box;

/// Recursion depth.
pub const DEPTH: u64 = 1000;

/// The same function as `fx-recurse`'s.
pub fn depth(level: u64, limit: u64) -> u64 {
    if level >= limit {
        return level;
    }
    let below = depth(level + 1, limit);
    below.rotate_left(3) ^ level.wrapping_mul(0x9e37_79b9)
}

/// Bounded recursion.
#[derive(Default)]
pub struct RecurseBounded;

impl AzulBot for RecurseBounded {
    fn act(&mut self, view: &View) -> Move {
        let x = depth(0, black_box(DEPTH));
        log::debug(&format!("depth {DEPTH}: {x:016x}"));
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(RecurseBounded);
