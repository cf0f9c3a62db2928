//! `fx-block-forever`: every turn, spends about 7M fuel, then blocks on a timer set as far in
//! the future as WASI can say (`u64::MAX` nanoseconds), then plays the first legal move.
//!
//! docs/design.md#host-work-is-fuel-too, "Host work is fuel too ... Fuel is charged for whatever
//! the store consumed, however a call ends" and "timers ... virtual": with real timers the call
//! never returned, the backstop trapped it three times, and the 7M fuel it had spent each time was
//! never charged. With virtual timers the wait ends at once (the clock jumps) and every turn is
//! charged what it spent.

use arena_sdk::azul::prelude::*;
use std::hint::black_box;

/// Iterations of the spin (about 10 fuel each on the `bot` profile).
pub const ITERATIONS: u64 = 700_000;

/// A computation the optimiser cannot shorten.
fn spin(iterations: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for i in 0..black_box(iterations) {
        x = (x.rotate_left(5) ^ i).wrapping_mul(0x0000_0100_0000_01b3);
    }
    x
}

/// Spins, blocks "forever", plays.
#[derive(Default)]
pub struct BlockForever;

impl AzulBot for BlockForever {
    fn act(&mut self, view: &View) -> Move {
        let x = spin(ITERATIONS);
        wasi::clocks::monotonic_clock::subscribe_duration(u64::MAX).block();
        log::debug(&format!("woke: {x:016x}"));
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(BlockForever);
