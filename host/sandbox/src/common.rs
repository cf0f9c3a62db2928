//! `arena:common`'s types (init and turn info, the log), generated once; every game's `bindgen!`
//! maps its copy of `arena:common` here (`with:`), so the conversions serve every game. A leaf:
//! it imports nothing from the crate, so the host functions (`host_fuel`'s log) can use it too.

#![allow(missing_docs, clippy::all)]

wasmtime::component::bindgen!({
    path: "../../wit/common",
    world: "arena:common/imports@0.1.0",
});
pub use self::arena::common::types::{InitInfo, TurnInfo};
