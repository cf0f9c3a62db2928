//! The Paint bot that does nothing: it answers a walk north without reading the view, so a turn's fuel is
//! what the Rust SDK's glue costs (lifting the view and converting it to the engine's types,
//! lowering the answer). `cargo xtask bench glue` prints it per game.

use arena_sdk::paint::prelude::*;

/// Answers a constant.
#[derive(Default)]
pub struct Constant;

impl PaintBot for Constant {
    fn act(&mut self, _view: &View) -> Action {
        Action::walk(Direction::North)
    }
}

arena_sdk::export_paint_bot!(Constant);
