//! `fx-sleep`: every turn, sleeps one second (`std::thread::sleep`), then counts how often a
//! 1 ms timer says "not ready" before it fires, logs both what its clock saw and the count, and
//! plays the legal move the count picks.
//!
//! docs/design.md#capabilities, "Clocks ... timers and polls ... virtual: a sleep or a timeout
//! resolves against the virtual clock, never real time": the sleep costs no real time, the clock
//! moves by exactly the time slept, and the count (so the move) is the same in every run. With real
//! timers a 1000-turn match took over 16 minutes of sleeping, and the count depended on the
//! machine.

use arena_sdk::azul::prelude::*;
use std::time::{Duration, Instant};

/// Sleeps, counts, plays.
#[derive(Default)]
pub struct Sleep;

impl AzulBot for Sleep {
    fn act(&mut self, view: &View) -> Move {
        let before = Instant::now();
        std::thread::sleep(Duration::from_secs(1));
        let slept = before.elapsed();
        let timer = wasi::clocks::monotonic_clock::subscribe_duration(1_000_000);
        let mut not_ready = 0u32;
        while !timer.ready() && not_ready < 1_000_000 {
            not_ready += 1;
        }
        log::info(&format!("slept {}ns not-ready {not_ready}", slept.as_nanos()));
        let moves = view.legal_moves();
        let pick = not_ready as usize % moves.len().max(1);
        moves.get(pick).copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(Sleep);
