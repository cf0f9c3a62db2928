//! `fx-init-loop`: logs the restart count it is told, then loops forever in `init`.
//!
//! docs/design.md#budgets: `init` is metered and capped at one turn budget (running out there is
//! a trap: `Trapped { phase: Init, trap: StartupFuelExhausted }`), a trapped bot is restarted
//! before its next turn with `init` told the restart count, and after 3 traps it forfeits.

use arena_sdk::azul::prelude::*;
use std::hint::black_box;

/// Never finishes `init`.
#[derive(Default)]
pub struct InitLoop;

impl AzulBot for InitLoop {
    fn init(&mut self, info: &InitInfo) {
        log::info(&format!("restart {}", info.restart_count));
        let mut x = black_box(u64::from(info.restart_count));
        loop {
            x = black_box(x.rotate_left(7) ^ 0x2545_f491);
        }
    }

    fn act(&mut self, view: &View) -> Move {
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(InitLoop);
