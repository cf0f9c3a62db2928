//! `wasm32-wasip1` commands: a core module exporting `_start` and importing
//! `wasi_snapshot_preview1` (what `cargo build --target wasm32-wasip1` makes of a Rust `main`) is
//! wrapped into a component when it is loaded, in process, with the WASI preview1 *command*
//! adapter of the same wasmtime release, so that it runs as a WASI command (exporting
//! `wasi:cli/run`) speaking a game's line protocol. The bot's identity (its sha256 in replays)
//! stays the file's; the wrapping is deterministic, so a replay re-wraps it identically.
//!
//! Any other core module is left alone (and refused by the loader as a core module).

use crate::loader::LoadError;
use std::path::Path;
use wasi_preview1_component_adapter_provider::WASI_SNAPSHOT_PREVIEW1_COMMAND_ADAPTER;

pub use crate::core_module::{PREVIEW1, is_preview1_command};

/// The component wrapping `bytes` when they are a WASI preview1 command ([`is_preview1_command`]),
/// `None` when they are not; a preview1 command the adapter cannot wrap is refused naming
/// `path`.
pub fn wrap_preview1_command(path: &Path, bytes: &[u8]) -> Result<Option<Vec<u8>>, LoadError> {
    if !is_preview1_command(bytes) {
        return Ok(None);
    }
    let invalid = |err: anyhow::Error| LoadError::Invalid {
        path: path.to_owned(),
        detail: format!("a wasm32-wasip1 command that cannot be wrapped into a component: {err:#}").replace('\n', " "),
    };
    let encoder = wit_component::ComponentEncoder::default().validate(true).module(bytes).map_err(invalid)?;
    let mut encoder = encoder.adapter(PREVIEW1, WASI_SNAPSHOT_PREVIEW1_COMMAND_ADAPTER).map_err(invalid)?;
    encoder.encode().map(Some).map_err(invalid)
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMAND: &str = r#"(module
        (import "wasi_snapshot_preview1" "proc_exit" (func (param i32)))
        (memory (export "memory") 1)
        (func (export "_start")))"#;

    #[test]
    fn only_preview1_commands_are_wrapped() {
        let path = Path::new("bot.wasm");
        let command = wat::parse_str(COMMAND).unwrap_or_default();
        assert!(is_preview1_command(&command));
        let wrapped = wrap_preview1_command(path, &command).ok().flatten().unwrap_or_default();
        assert_eq!(wrapped.get(..8), Some(&[0, b'a', b's', b'm', 0x0d, 0, 1, 0][..]), "a component");
        assert_eq!(wrap_preview1_command(path, &command).ok().flatten(), Some(wrapped), "deterministic");

        for other in [
            r#"(module (func (export "_start")))"#,
            r#"(module (import "wasi_snapshot_preview1" "proc_exit" (func (param i32))))"#,
            "(component)",
        ] {
            let bytes = wat::parse_str(other).unwrap_or_default();
            assert!(matches!(wrap_preview1_command(path, &bytes), Ok(None)), "{other}");
        }
        assert!(matches!(wrap_preview1_command(path, b"\0asm\x01\0\0\0garbage"), Ok(None)));
    }
}
