//! `wasm32-wasip1` commands: a core module exporting `_start` and importing
//! `wasi_snapshot_preview1` (what `cargo build --target wasm32-wasip1` makes of a Rust `main`) is
//! wrapped into a component when it is loaded, in process, with the WASI preview1 *command*
//! adapter of the same wasmtime release, so that it runs as a WASI command (exporting
//! `wasi:cli/run`) speaking a game's line protocol. Before wrapping, its positional and seek
//! calls on stdio are made to answer `ESPIPE` as a pipe's do ([`crate::stdio_pipes`]: the
//! adapter answers `fd_pread` with `EINVAL`, which readers such as Zig's give up on). The bot's
//! identity (its sha256 in replays) stays the file's; the wrapping is deterministic, so a replay
//! re-wraps it identically.
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
    let piped = crate::stdio_pipes::pipe_stdio(bytes).map_err(invalid)?;
    let module = piped.as_deref().unwrap_or(bytes);
    let encoder = wit_component::ComponentEncoder::default().validate(true).module(module).map_err(invalid)?;
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

    const PREAD: &str = r#"(module
        (import "wasi_snapshot_preview1" "fd_pread" (func $pread (param i32 i32 i32 i64 i32) (result i32)))
        (memory (export "memory") 1)
        (func (export "_start")
            (drop (call $pread (i32.const 0) (i32.const 0) (i32.const 0) (i64.const 0) (i32.const 0)))))"#;

    #[test]
    fn only_preview1_commands_are_wrapped() {
        let path = Path::new("bot.wasm");
        let command = wat::parse_str(COMMAND).unwrap_or_default();
        assert!(is_preview1_command(&command));
        let wrapped = wrap_preview1_command(path, &command).ok().flatten().unwrap_or_default();
        assert_eq!(wrapped.get(..8), Some(&[0, b'a', b's', b'm', 0x0d, 0, 1, 0][..]), "a component");
        assert_eq!(wrap_preview1_command(path, &command).ok().flatten(), Some(wrapped), "deterministic");

        // With a positional call to redirect (stdio_pipes) it is wrapped, deterministically too.
        let piped = wat::parse_str(PREAD).unwrap_or_default();
        let wrapped = wrap_preview1_command(path, &piped).ok().flatten();
        assert!(wrapped.is_some());
        assert_eq!(wrap_preview1_command(path, &piped).ok().flatten(), wrapped, "deterministic");

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
