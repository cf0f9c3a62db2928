//! `fx-spin-once`: on its first turn, fills a 375,000-entry `Vec` with a hash chain (about 25M
//! fuel, measured: two and a half default turn budgets), then answers and logs a checksum of the whole
//! `Vec`; afterwards it plays the first legal move at once and logs the `missed_turns` it is
//! told.
//!
//! docs/design.md#turn-overrun-suspend-never-kill: it is suspended twice and resumes where it
//! stopped. The checksum covers entries written before each suspension, so it is right only if
//! the instance's memory survived them; the tests recompute it natively.

use arena_sdk::azul::prelude::*;
use std::hint::black_box;

/// Entries in the table.
pub const ENTRIES: u32 = 375_000;
/// Hash rounds per entry.
pub const ROUNDS: u32 = 3;

/// One entry of the table (the tests have a copy of this function).
pub fn entry(index: u32) -> u32 {
    let mut x = index.wrapping_mul(0x9e37_79b9) ^ 0x85eb_ca6b;
    for _ in 0..ROUNDS {
        x ^= x >> 15;
        x = x.wrapping_mul(0x2c1b_3c6d);
        x ^= x >> 12;
    }
    x
}

/// The checksum logged (the tests have a copy of this function).
pub fn checksum(table: &[u32]) -> u32 {
    table.iter().fold(0u32, |acc, v| acc.rotate_left(5) ^ v)
}

/// Computes once, then behaves.
#[derive(Default)]
pub struct SpinOnce {
    done: bool,
}

impl AzulBot for SpinOnce {
    fn act(&mut self, view: &View) -> Move {
        log::info(&format!("turn {} missed_turns {}", view.info.turn, view.info.missed_turns));
        if !self.done {
            self.done = true;
            let table: Vec<u32> = (0..black_box(ENTRIES)).map(entry).collect();
            log::info(&format!("checksum {:08x}", checksum(&table)));
        }
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(SpinOnce);
