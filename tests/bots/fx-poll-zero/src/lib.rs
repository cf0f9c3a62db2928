//! `fx-poll-zero`: every turn, polls a zero-length timer 200 times (what wasi-libc's `poll` with
//! a zero timeout does), then plays the first legal move.
//!
//! docs/design.md#turn-overrun-suspend-never-kill, "Turn overrun: suspend" and "Clocks ... timers
//! and polls ... virtual": a timer that is due at once must never be taken for a spent turn.
//! wasmtime-wasi's own zero-length timer yields to its executor, which the arena once counted as a
//! fuel yield: every turn was marked suspended and charged a whole turn budget.

use arena_sdk::azul::prelude::*;

/// Zero-length polls per turn.
pub const POLLS: u32 = 200;

/// Polls, then plays.
#[derive(Default)]
pub struct PollZero;

impl AzulBot for PollZero {
    fn act(&mut self, view: &View) -> Move {
        let mut ready = 0;
        for _ in 0..POLLS {
            let timer = wasi::clocks::monotonic_clock::subscribe_duration(0);
            ready += wasi::io::poll::poll(&[&timer]).len();
        }
        log::debug(&format!("ready {ready}"));
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(PollZero);
