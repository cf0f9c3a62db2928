//! `fx-log-flood`: every turn (and in `init`) logs 16 KiB through the log import and prints
//! 16 KiB to stdout and stderr, then plays the game's own fallback move (all tiles to the
//! floor: no row is ever completed, so two of them play to the round cap, a long match).
//!
//! docs/design.md#capabilities, "Capabilities": stdout/stderr and the log are captured into the
//! replay, bounded per turn and per match; what is over the bound is counted and dropped, and
//! the host is unaffected.

use arena_sdk::azul::prelude::*;
use std::io::Write;

/// Bytes per flood burst.
pub const BURST: usize = 16 * 1024;

fn flood(tag: &str) {
    let line = format!("{tag}:{}", "x".repeat(BURST));
    log::info(&line);
    // Errors are ignored on purpose: a full log must never stop the bot.
    let _ = writeln!(std::io::stdout(), "{line}");
    let _ = writeln!(std::io::stderr(), "{line}");
}

/// Floods the log.
#[derive(Default)]
pub struct LogFlood;

impl AzulBot for LogFlood {
    fn init(&mut self, _info: &InitInfo) {
        flood("init");
    }

    fn act(&mut self, view: &View) -> Move {
        flood("turn");
        view.fallback_move().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(LogFlood);
