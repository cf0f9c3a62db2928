//! `azul-trivial`: plays the first legal move in the SDK's order. The Rust row of the README's
//! fuel-per-language table; `azul-trivial-c`, `-py` and `-js` do the same in their languages.

use arena_sdk::azul::prelude::*;

/// The first legal move.
#[derive(Default)]
pub struct TrivialBot;

impl AzulBot for TrivialBot {
    fn act(&mut self, view: &View) -> Move {
        let first = view.legal_moves().into_iter().next();
        first.unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(TrivialBot);
