//! What a core WebAssembly module is, read without compiling it: whether it is a WASI preview1
//! command (exports `_start`, imports `wasi_snapshot_preview1`), which [`crate::wasip1`] wraps
//! into a component, and if not, why, which [`crate::loader`]'s refusal of a core module says;
//! and whether it is a Go program ([`is_go_program`]), which [`crate::wasip1`] refuses to wrap.

use wasmparser::{ExternalKind, Parser, Payload};

/// The module name a preview1 program imports WASI from.
pub const PREVIEW1: &str = "wasi_snapshot_preview1";

/// Whether `bytes` are a core module that is a WASI preview1 command: it exports a function
/// `_start` and imports from [`PREVIEW1`]. Anything unparsable is not.
pub fn is_preview1_command(bytes: &[u8]) -> bool {
    command_parts(bytes) == Some((true, true))
}

/// The custom section Go's linker writes into every wasm module it links
/// (`cmd/link/internal/wasm`, holding the build ID), whatever the `GOOS`; TinyGo, which links
/// with LLVM's `wasm-ld`, writes none.
pub const GO_BUILDID: &str = "go:buildid";

/// Whether `bytes` are a core module linked by Go's own toolchain: one with a [`GO_BUILDID`]
/// custom section. Function names are not looked at (a module from another language may
/// name a function like Go's runtime); anything unparsable before the section is not one.
pub fn is_go_program(bytes: &[u8]) -> bool {
    if !Parser::is_core_wasm(bytes) {
        return false;
    }
    for payload in Parser::new(0).parse_all(bytes) {
        match payload {
            Ok(Payload::CustomSection(section)) if section.name() == GO_BUILDID => return true,
            Ok(_) => {}
            Err(_) => return false,
        }
    }
    false
}

/// Why the core module `bytes` is not a preview1 command, in words (`None` when it is one, or
/// cannot be read): what a load error says beside "a core module".
pub fn not_a_command(bytes: &[u8]) -> Option<&'static str> {
    match command_parts(bytes)? {
        (true, true) => None,
        (false, true) => Some("it exports no `_start` function"),
        (true, false) => Some("it imports nothing from WASI (wasi_snapshot_preview1)"),
        (false, false) => Some("it exports no `_start` function and imports nothing from WASI"),
    }
}

/// Whether the core module `bytes` exports a function `_start`, and imports from [`PREVIEW1`];
/// `None` for what is not a readable core module.
fn command_parts(bytes: &[u8]) -> Option<(bool, bool)> {
    if !Parser::is_core_wasm(bytes) {
        return None;
    }
    let (mut start, mut wasi) = (false, false);
    for payload in Parser::new(0).parse_all(bytes) {
        match payload {
            Ok(Payload::ImportSection(imports)) => {
                for import in imports {
                    match import {
                        Ok(import) => wasi |= import.module == PREVIEW1,
                        Err(_) => return None,
                    }
                }
            }
            Ok(Payload::ExportSection(exports)) => {
                for export in exports {
                    match export {
                        Ok(export) => start |= export.name == "_start" && export.kind == ExternalKind::Func,
                        Err(_) => return None,
                    }
                }
            }
            Ok(_) => {}
            Err(_) => return None,
        }
    }
    Some((start, wasi))
}
