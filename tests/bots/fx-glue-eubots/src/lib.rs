//! The Eubots bot that does nothing: it answers no orders without reading the view, so a turn's fuel is
//! what the Rust SDK's glue costs (lifting the view and converting it to the engine's types,
//! lowering the answer). `cargo xtask bench glue` prints it per game.

use arena_sdk::eubots::prelude::*;

/// Answers a constant.
#[derive(Default)]
pub struct Constant;

impl EubotsBot for Constant {
    fn act(&mut self, _view: &View) -> Vec<Order> {
        Vec::new()
    }
}

arena_sdk::export_eubots_bot!(Constant);
