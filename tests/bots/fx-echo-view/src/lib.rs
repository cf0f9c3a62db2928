//! Logs every view exactly as the SDK lifted it (`{state:?}|{info:?}`), so a test can compare
//! what reached the guest with what the host lowered (the host writes Azul's view bytes itself:
//! `host/src/bindings/abi.rs`). Answers the engine's fallback move.

use arena_sdk::azul::prelude::*;

/// The echoing bot.
#[derive(Default)]
pub struct EchoView;

impl AzulBot for EchoView {
    fn act(&mut self, view: &View) -> Move {
        log::info(&format!("{:?}|{:?}", view.state, view.info));
        view.fallback_move().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(EchoView);
