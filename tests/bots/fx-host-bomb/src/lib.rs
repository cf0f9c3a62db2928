//! `fx-host-bomb`: every turn, makes the host work as hard as a few instructions can: 16 log
//! lines of 1 MiB, 16 requests for 1 MiB of random bytes and 256 stdout writes of 4 KiB, about
//! 34M bytes of host work for a few thousand instructions of its own; then plays the first
//! legal move.
//!
//! docs/design.md#host-work-is-fuel-too, "Host work is fuel too": each byte costs the bot fuel, so
//! this work spends more than a turn budget (the bot is suspended inside a host call and resumes at
//! its next turn) and soon the whole game budget (it forfeits with exactly the game budget spent),
//! and it never gets near the wall-clock backstop. Unmetered, one such bot kept the host busy for
//! seconds per turn on under 0.5M fuel.

use arena_sdk::azul::prelude::*;
use std::io::Write;

/// Bytes per log line and per random request.
pub const MIB: usize = 1 << 20;

/// Bombs, then plays.
#[derive(Default)]
pub struct HostBomb {
    line: String,
}

impl AzulBot for HostBomb {
    fn act(&mut self, view: &View) -> Move {
        if self.line.is_empty() {
            self.line = "x".repeat(MIB);
        }
        for _ in 0..16 {
            log::debug(&self.line);
            let bytes = wasi::random::random::get_random_bytes(MIB as u64);
            std::hint::black_box(bytes);
        }
        let chunk = [b'y'; 4096];
        let mut out = std::io::stdout();
        for _ in 0..256 {
            let _ = out.write_all(&chunk);
        }
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(HostBomb);
