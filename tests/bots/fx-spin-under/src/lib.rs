//! `fx-spin-under`: every turn, spins about half of the turn budget it is told it has, then
//! plays the first legal move.
//!
//! The obeyed side of `fx-loop-forever` (docs/design.md#turn-overrun-suspend-never-kill, "Turn
//! overrun: suspend, never kill"): heavy computation inside the turn budget is never suspended.

use arena_sdk::azul::prelude::*;
use std::hint::black_box;

/// Fuel one iteration of [`spin`] costs, measured on the `bot` profile (about; the tests allow
/// a wide margin).
pub const FUEL_PER_ITERATION: u64 = 10;

/// A computation the optimiser cannot shorten: `iterations` rounds of a mixing step.
pub fn spin(iterations: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15_u64;
    for i in 0..black_box(iterations) {
        x = (x.rotate_left(5) ^ i).wrapping_mul(0x0000_0100_0000_01b3);
    }
    x
}

/// Spends half of each turn's fuel, then plays.
#[derive(Default)]
pub struct SpinUnder;

impl AzulBot for SpinUnder {
    fn act(&mut self, view: &View) -> Move {
        let iterations = view.info.turn_fuel_remaining / 2 / FUEL_PER_ITERATION;
        let x = spin(iterations);
        log::debug(&format!("spun {iterations} iterations: {x:016x}"));
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(SpinUnder);
