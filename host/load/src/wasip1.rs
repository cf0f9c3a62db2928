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
//! A command linked by Go's own toolchain (`GOOS=wasip1 GOARCH=wasm`, told by its `go:buildid`
//! section: [`crate::core_module::is_go_program`]) is not wrapped but runs as the core module it
//! is, on WASI preview1 ([`Preview1Command::Native`], `arena_sandbox::preview1`): the adapter,
//! finding no `cabi_realloc` in a Go module, gets its stack and state pages by growing the
//! module's own memory, and Go's runtime takes all of memory up to its current size as its heap
//! whatever `memory.grow` returns, so the two would overwrite each other (a crash at start-up,
//! or corrupted state mid-match). TinyGo output has no such section and is wrapped (whether
//! its heap clashes too is untested); a Go program whose custom sections were stripped is not
//! recognised either, and is wrapped.
//!
//! Any other core module is left alone (and refused by the loader as a core module).

use crate::loader::LoadError;
use std::path::Path;
use wasi_preview1_component_adapter_provider::WASI_SNAPSHOT_PREVIEW1_COMMAND_ADAPTER;

pub use crate::core_module::{PREVIEW1, is_go_program, is_preview1_command};

/// How the arena runs a WASI preview1 command (see the module doc).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Preview1Command {
    /// As this component: the command wrapped with the preview1 command adapter.
    Wrapped(Vec<u8>),
    /// As the core module it is, on WASI preview1 (a Go program).
    Native,
}

/// How `bytes` run when they are a WASI preview1 command ([`is_preview1_command`]), `None` when
/// they are not; a preview1 command the adapter cannot wrap is refused naming `path`.
pub fn preview1_command(path: &Path, bytes: &[u8]) -> Result<Option<Preview1Command>, LoadError> {
    if is_preview1_command(bytes) && is_go_program(bytes) {
        return Ok(Some(Preview1Command::Native));
    }
    Ok(wrap_preview1_command(path, bytes)?.map(Preview1Command::Wrapped))
}

/// The component wrapping `bytes` when they are a WASI preview1 command ([`is_preview1_command`]),
/// `None` when they are not; a preview1 command the adapter cannot wrap is refused naming `path`.
/// (A Go program is wrapped too, and would not run: [`preview1_command`] decides.)
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

    /// [`COMMAND`] as Go's linker would leave it: its build ID in a `go:buildid` section first.
    const GO_COMMAND: &str = r#"(module
        (@custom "go:buildid" (before first) "\ff Go build ID: \"ECNz14k8avBroZdzmef2/zksTxDpsD4TGsW_kVXOn\"\n \ff")
        (import "wasi_snapshot_preview1" "proc_exit" (func (param i32)))
        (memory (export "memory") 1)
        (func (export "_start")))"#;

    #[test]
    fn go_commands_run_natively() {
        let path = Path::new("paint-go.wasm");
        let go = wat::parse_str(GO_COMMAND).unwrap_or_default();
        assert!(is_preview1_command(&go) && is_go_program(&go));
        assert_eq!(preview1_command(path, &go).ok().flatten(), Some(Preview1Command::Native));

        // The same module without the section is wrapped; so is one whose custom sections only
        // resemble Go's (a producers section naming Go, another `go:` name).
        let plain = GO_COMMAND.replace("go:buildid", "other");
        let lookalike = GO_COMMAND.replace("go:buildid", "go:buildid2").replace(
            "(@custom \"go:buildid2\"",
            "(@producers (language \"Go\" \"go1.27.3\")) (@custom \"go:buildid2\"",
        );
        for text in [plain, lookalike] {
            let bytes = wat::parse_str(&text).unwrap_or_default();
            assert!(is_preview1_command(&bytes) && !is_go_program(&bytes), "{text}");
            assert!(matches!(preview1_command(path, &bytes), Ok(Some(Preview1Command::Wrapped(_)))), "{text}");
        }

        // A Go module that is not a command (`-buildmode=c-shared`: `_initialize`, no `_start`)
        // is left alone here, as any other core module is.
        let reactor = GO_COMMAND.replace("_start", "_initialize");
        let reactor = wat::parse_str(&reactor).unwrap_or_default();
        assert!(is_go_program(&reactor) && !is_preview1_command(&reactor));
        assert!(matches!(preview1_command(path, &reactor), Ok(None)));
        assert!(!is_go_program(b"\0asm\x01\0\0\0\0\x0bgo:buildid"), "truncated: not readable");
    }

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
