//! `fx-loop-forever`: never returns from `take-turn`; it computes in an endless loop.
//!
//! Exercises docs/design.md#turn-overrun-suspend-never-kill, "Turn overrun: suspend, never kill"
//! (every turn it is suspended with no action, the fallback applies) and "Game overrun: forfeit"
//! (once its suspended call has spent the whole game budget it is out).

use arena_sdk::azul::prelude::*;
use std::hint::black_box;

/// Loops forever on its first turn.
#[derive(Default)]
pub struct LoopForever;

impl AzulBot for LoopForever {
    fn act(&mut self, _view: &View) -> Move {
        let mut x = black_box(0x9e37_79b9_7f4a_7c15_u64);
        loop {
            x = black_box(x.rotate_left(5) ^ 0x5851_f42d);
        }
    }
}

arena_sdk::export_azul_bot!(LoopForever);
