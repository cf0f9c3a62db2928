//! `fx-init-heavy`: spends a few million fuel in `init` (well under one turn budget), then
//! plays greedily.
//!
//! The obeyed side of `fx-init-loop` (docs/design.md#budgets: `init` is metered, counts against
//! the game budget and is capped at one turn budget): a heavy but bounded `init` is no fault.

use arena_sdk::azul::prelude::*;
use std::hint::black_box;

/// Iterations of the `init` computation (about 10 fuel each: some 4M fuel).
pub const INIT_ITERATIONS: u64 = 400_000;

/// Heavy start, then the best immediate score.
#[derive(Default)]
pub struct InitHeavy {
    warmup: u64,
}

impl AzulBot for InitHeavy {
    fn init(&mut self, _info: &InitInfo) {
        let mut x = 0x9e37_79b9_7f4a_7c15_u64;
        for i in 0..black_box(INIT_ITERATIONS) {
            x = (x.rotate_left(5) ^ i).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.warmup = x;
        log::info(&format!("warmed up: {x:016x}"));
    }

    fn act(&mut self, view: &View) -> Move {
        let mut best: Option<(i32, Move)> = None;
        for mv in view.legal_moves() {
            let gain = view.score_if_placed(&mv);
            if best.is_none_or(|(best_gain, _)| gain > best_gain) {
                best = Some((gain, mv));
            }
        }
        best.map_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE }, |(_, mv)| mv)
    }
}

arena_sdk::export_azul_bot!(InitHeavy);
