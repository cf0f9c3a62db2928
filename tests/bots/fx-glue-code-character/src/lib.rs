//! The Code Character bot that does nothing: it answers no commands without reading the view, so a turn's fuel is
//! what the Rust SDK's glue costs (lifting the view and converting it to the engine's types,
//! lowering the answer). `cargo xtask bench glue` prints it per game.

use arena_sdk::code_character::prelude::*;

/// Answers a constant.
#[derive(Default)]
pub struct Constant;

impl CodeCharacterBot for Constant {
    fn act(&mut self, _view: &View) -> Vec<Command> {
        Vec::new()
    }
}

arena_sdk::export_code_character_bot!(Constant);
