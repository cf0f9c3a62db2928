//! `fx-recurse-hostcall`: recurses without bound in `take-turn`, asking the host for the time at
//! every 16th level (every call pays the host-call fee: at every level, three overflows cost
//! more than a game's fuel).
//!
//! The stack bound is counted by the bot's own code (`arena_host::stack`), so where the
//! recursion stops, and the fuel spent until then, are fixed by this code alone; host calls in
//! between change nothing (with wasmtime's native limit alone, the host's frames moved it: the
//! same recursion spent 7,639,029 fuel under a release build and 7,636,200 under a debug one).
//! It traps with `StackOverflow`; the obeyed side is `fx-recurse-bounded`.

use arena_sdk::azul::prelude::*;
use std::hint::black_box;
use std::time::Instant;

/// Recursion the optimiser cannot turn into a loop, with a host call at every 16th level.
pub fn depth(level: u64, limit: u64) -> u64 {
    if level >= limit {
        return level;
    }
    if level.is_multiple_of(16) {
        black_box(Instant::now());
    }
    let below = depth(level + 1, limit);
    below.rotate_left(3) ^ level.wrapping_mul(0x9e37_79b9)
}

/// Recurses forever (the limit is never reached before the stack is).
#[derive(Default)]
pub struct RecurseHostcall;

impl AzulBot for RecurseHostcall {
    fn act(&mut self, view: &View) -> Move {
        let x = depth(0, black_box(u64::MAX));
        log::info(&format!("returned {x}"));
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(RecurseHostcall);
