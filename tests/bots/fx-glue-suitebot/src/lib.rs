//! The SuiteBot II bot that does nothing: it answers `Hold` without reading the view, so a turn's fuel is
//! what the Rust SDK's glue costs (lifting the view and converting it to the engine's types,
//! lowering the answer). `cargo xtask bench glue` prints it per game.

use arena_sdk::suitebot::prelude::*;

/// Answers a constant.
#[derive(Default)]
pub struct Constant;

impl SuitebotBot for Constant {
    fn act(&mut self, _view: &View) -> Action {
        Action::Hold
    }
}

arena_sdk::export_suitebot_bot!(Constant);
