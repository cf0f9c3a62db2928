// The bot of `fx-profile-hot` and `fx-profile-stripped` (included by both: the same code, with
// and without a name section). No inner doc comments here: this file is `include!`d.

use arena_sdk::azul::prelude::*;
use std::hint::black_box;

/// Rounds of `hot_three_quarters`; `hot_one_quarter` runs a third as many of the same loop.
pub const ROUNDS: u32 = 5_000;

/// One round of a hash chain: the same work in both hot functions, so fuel is in proportion
/// to rounds.
#[inline(always)]
fn round(x: u32) -> u32 {
    let x = (x ^ (x >> 15)).wrapping_mul(0x2c1b_3c6d);
    x ^ (x >> 12)
}

/// Three quarters of the bot's own work.
#[inline(never)]
pub fn hot_three_quarters(seed: u32) -> u32 {
    (0..black_box(3 * ROUNDS)).fold(seed, |x, _| round(black_box(x)))
}

/// One quarter of the bot's own work.
#[inline(never)]
pub fn hot_one_quarter(seed: u32) -> u32 {
    (0..black_box(ROUNDS)).fold(seed, |x, _| round(black_box(x)))
}

/// Spends its turn in the two hot functions, then plays the first legal move.
#[derive(Default)]
pub struct Hot;

impl AzulBot for Hot {
    fn act(&mut self, view: &View) -> Move {
        let a = hot_three_quarters(view.info.turn);
        let b = hot_one_quarter(a);
        black_box(b);
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(Hot);
