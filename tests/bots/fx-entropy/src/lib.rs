//! `fx-entropy`: chooses each move from every nondeterminism source a Rust bot reaches by
//! accident or on purpose: `HashMap` iteration order (std's `RandomState`), the `rand` crate's
//! OS-seeded `rand::rng()` and `rand::random`, `Instant::now()` and `SystemTime::now()`. Each
//! turn it logs `entropy hash=.. rand=.. random=.. instant=.. system=..`.
//!
//! docs/design.md#capabilities, "Capabilities": randomness is seeded per (match seed, bot sha256)
//! and the clocks are virtual, so the same match replays byte for byte, the bot behaves the same in
//! either seat, and another match seed gives other random values.

use arena_sdk::azul::prelude::*;
use rand::Rng;
use std::collections::HashMap;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

/// Moves chosen from entropy.
#[derive(Default)]
pub struct Entropy {
    started: Option<Instant>,
}

impl AzulBot for Entropy {
    fn act(&mut self, view: &View) -> Move {
        let map: HashMap<u32, u32> = (0..16).map(|k| (k, k * k)).collect();
        let hash = map.keys().fold(0u64, |acc, k| acc.wrapping_mul(31).wrapping_add(u64::from(*k)));
        let rand_value: u64 = rand::rng().random();
        let random_value: u64 = rand::random();
        let started = *self.started.get_or_insert_with(Instant::now);
        let instant = started.elapsed().as_nanos() as u64;
        let system = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
        log::info(&format!(
            "entropy hash={hash:016x} rand={rand_value:016x} random={random_value:016x} instant={instant} system={system}"
        ));
        let moves = view.legal_moves();
        let mixed = hash ^ rand_value ^ random_value.rotate_left(17) ^ instant ^ system.rotate_left(29);
        let pick = (mixed % moves.len().max(1) as u64) as usize;
        moves.get(pick).copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(Entropy);
