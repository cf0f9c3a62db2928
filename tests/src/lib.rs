//! Shared helpers for the end-to-end tests: where the built bots are, and loading them once.
//!
//! Bots are built by `cargo xtask bots` (which `cargo xtask test` runs first) into
//! `target/bots/<crate-name>.wasm`.

use arena_host::games::Binding;
use arena_host::loader::{LoadedBot, load_bot};
use arena_host::runtime::Arena;
use std::path::PathBuf;
use std::sync::Arc;

/// The workspace root.
pub fn workspace_root() -> PathBuf {
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().map(PathBuf::from).unwrap_or(manifest)
}

/// Path of a built bot.
pub fn bot_path(name: &str) -> PathBuf {
    let target =
        std::env::var_os("CARGO_TARGET_DIR").map(PathBuf::from).unwrap_or_else(|| workspace_root().join("target"));
    target.join("bots").join(format!("{name}.wasm"))
}

/// Loads a built bot for game `B`, panicking with a hint when it has not been built.
#[allow(clippy::panic)]
pub fn load<B: Binding>(arena: &Arena, name: &str) -> Arc<LoadedBot<B>> {
    let path = bot_path(name);
    if !path.exists() {
        panic!("{} is missing: run `cargo xtask bots` (or `cargo xtask test`) first", path.display());
    }
    match load_bot::<B>(arena, &path) {
        Ok(bot) => Arc::new(bot),
        Err(err) => panic!("{err}"),
    }
}
