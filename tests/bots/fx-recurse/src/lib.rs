//! `fx-recurse`: recurses without bound in `take-turn`.
//!
//! docs/design.md#memory-and-sizes, "Memory and sizes" (a bounded wasm stack) and "Traps": it traps
//! with `StackOverflow`; the obeyed side is `fx-recurse-bounded`, the same function 1000 deep.

use arena_sdk::azul::prelude::*;
use std::hint::black_box;

/// Recursion the optimiser cannot turn into a loop (the result is mixed after the call), with
/// only scalar locals, so each level takes a wasm (host) stack frame, not shadow-stack memory.
pub fn depth(level: u64, limit: u64) -> u64 {
    if level >= limit {
        return level;
    }
    let below = depth(level + 1, limit);
    below.rotate_left(3) ^ level.wrapping_mul(0x9e37_79b9)
}

/// Recurses forever (the limit is never reached before the stack is).
#[derive(Default)]
pub struct Recurse;

impl AzulBot for Recurse {
    fn act(&mut self, view: &View) -> Move {
        let x = depth(0, black_box(u64::MAX));
        log::info(&format!("returned {x}"));
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(Recurse);
