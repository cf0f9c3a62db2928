//! `fx-alloc-bomb`: allocates 200 MiB (touching both ends) in every `take-turn`, then plays the first
//! legal move.
//!
//! docs/design.md#memory-and-sizes, "Memory and sizes" and "Traps": under the default 64 MiB limit
//! the memory grow is refused, Rust's allocation-failure handler aborts (`unreachable`), the
//! instance is discarded and restarted, and after 3 traps the bot forfeits. Under a limit above 200
//! MiB the same bot plays normally.

use arena_sdk::azul::prelude::*;
use std::hint::black_box;

/// Bytes allocated per turn.
pub const BOMB_BYTES: usize = 200 << 20;

/// Allocates past the default memory limit.
#[derive(Default)]
pub struct AllocBomb;

impl AzulBot for AllocBomb {
    fn act(&mut self, view: &View) -> Move {
        let mut block: Vec<u8> = Vec::with_capacity(black_box(BOMB_BYTES));
        // Touch both ends (not the whole block: filling 200 MiB would cost more fuel than a
        // game), so the allocation cannot be elided or shrunk.
        block.push(1);
        if let Some(last) = block.spare_capacity_mut().last_mut() {
            last.write(7);
        }
        log::info(&format!("allocated {} bytes", black_box(&block).capacity()));
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(AllocBomb);
