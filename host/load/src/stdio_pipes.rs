//! Stdio as pipes for `wasm32-wasip1` commands: the rewrite of a command's core module, before
//! [`crate::wasip1`] wraps it, that makes every positional or seek call on stdin, stdout and
//! stderr (fds 0, 1 and 2) answer `ESPIPE`, as a pipe does.
//!
//! Why: wasmtime's preview1 command adapter answers `fd_pread` on stdio with `EINVAL` (its
//! "not a file" answer), where wasmtime-wasi's own preview1 implementation (`wasmtime run`)
//! answers `ESPIPE`. A reader that tries a positional read first and falls back to streaming
//! on `ESPIPE` (Zig's standard `File.Reader`, what `zig init` reads stdin with) gives up on
//! `EINVAL`, and the bot traps at start-up. Measured answers of the adapter (wasmtime 48.0.8)
//! on fds 0, 1 and 2: `fd_pread` `EINVAL`, `fd_allocate` `EINVAL`, `fd_pwrite`, `fd_seek`,
//! `fd_tell` and `fd_advise` `ESPIPE`. After the rewrite all six answer `ESPIPE` on those fds,
//! whichever direction the stream goes, as Linux answers `pread`, `pwrite`, `lseek`,
//! `posix_fadvise` and `posix_fallocate` on a pipe (wasmtime-wasi answers `EBADF` for the
//! calls that make no sense in a stream's direction and for advise/allocate; an error either
//! way, and `ESPIPE` is the one a program falls back on).
//!
//! `fd_fdstat_get` needs no change: the adapter reports stdio as wasmtime-wasi does for a
//! stream that is not a terminal, filetype `unknown` (preview1 has no code for a FIFO;
//! wasmtime-wasi maps a FIFO to `unknown` too) with rights `fd_read` (stdin) or `fd_write`
//! (stdout, stderr) and neither `fd_seek` nor `fd_tell`; `fd_filestat_get` says `unknown`.
//!
//! How: each of those imports the module calls gets a small function appended to the module
//! (same type as the import) that answers `ESPIPE` for fds 0 to 2 and otherwise calls the
//! import; every reference to the import (calls, `ref.func`, element segments, exports) is
//! pointed at it. Appended functions take the next indices, so no other index moves, and every
//! other instruction is re-encoded one for one: fuel, which counts operators, is unchanged
//! for a bot that never makes these calls. Custom sections (names included) are copied as they
//! are. A module that imports none of these calls, or is not valid (the wrapper's validation
//! refuses it), is left byte for byte as it is. The rewrite is a function of the bytes alone,
//! so wrapping stays deterministic.

use std::collections::BTreeMap;
use std::convert::Infallible;
use wasm_encoder::reencode::{self, Reencode};
use wasm_encoder::{BlockType, CodeSection, Function, FunctionSection, Instruction, Module, ValType};
use wasmparser::{CompositeInnerType, FuncType, Parser, Payload, TypeRef, Validator};

use crate::core_module::PREVIEW1;

/// WASI's `errno::spipe`: "invalid seek", what a pipe answers to a positional call.
pub const ESPIPE: i32 = 70;

/// The descriptors below this are stdin, stdout and stderr.
const STDIO_FDS: i32 = 3;

/// The preview1 calls a pipe answers with `ESPIPE`, and their core signatures (all return an
/// `errno` as `i32`; the descriptor is the first parameter), from the preview1 witx.
const POSITIONAL: [(&str, &[wasmparser::ValType]); 6] = {
    use wasmparser::ValType::{I32, I64};
    [
        ("fd_pread", &[I32, I32, I32, I64, I32]),
        ("fd_pwrite", &[I32, I32, I32, I64, I32]),
        ("fd_seek", &[I32, I64, I32, I32]),
        ("fd_tell", &[I32, I32]),
        ("fd_advise", &[I32, I64, I64, I32]),
        ("fd_allocate", &[I32, I64, I64]),
    ]
};

/// One redirected import: its function index, its type index and how many parameters it has.
#[derive(Debug, Clone, Copy)]
struct Redirected {
    import: u32,
    type_index: u32,
    params: u32,
}

/// The module `bytes` with its positional preview1 calls answered as a pipe answers them on
/// stdio (see the module docs); `None` when there is nothing to rewrite: the module imports
/// none of them with their preview1 signature, defines no function, or is not a valid module
/// (left to the wrapper to refuse).
pub fn pipe_stdio(bytes: &[u8]) -> Result<Option<Vec<u8>>, anyhow::Error> {
    let Some(plan) = plan(bytes) else {
        return Ok(None);
    };
    let mut rewrite = Rewrite::new(plan);
    let mut module = Module::new();
    rewrite
        .parse_core_module(&mut module, Parser::new(0), bytes)
        .map_err(|err| anyhow::anyhow!("rewriting its positional stdio calls: {err}"))?;
    Ok(Some(module.finish()))
}

/// The imports to redirect, in import order, and the module's function count (imports
/// included): `None` when there is none to redirect, the module defines no function (nothing
/// in it can make a call), or it is not valid.
fn plan(bytes: &[u8]) -> Option<(Vec<Redirected>, u32)> {
    let mut types: Vec<Option<FuncType>> = Vec::new();
    let (mut imported, mut defined) = (0_u32, 0_u32);
    let mut redirected = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        match payload.ok()? {
            Payload::TypeSection(section) => {
                for group in section {
                    for sub in group.ok()?.into_types() {
                        types.push(match sub.composite_type.inner {
                            CompositeInnerType::Func(func) if !sub.composite_type.shared => Some(func),
                            _ => None,
                        });
                    }
                }
            }
            Payload::ImportSection(section) => {
                for import in section {
                    let import = import.ok()?;
                    let TypeRef::Func(type_index) = import.ty else { continue };
                    let signature = types.get(type_index as usize).and_then(Option::as_ref);
                    let positional = POSITIONAL.iter().any(|(name, params)| {
                        import.module == PREVIEW1
                            && import.name == *name
                            && signature.is_some_and(|func| {
                                func.params() == *params && func.results() == [wasmparser::ValType::I32]
                            })
                    });
                    if positional {
                        let params = signature.map_or(0, |func| func.params().len() as u32);
                        redirected.push(Redirected { import: imported, type_index, params });
                    }
                    imported = imported.checked_add(1)?;
                }
            }
            Payload::FunctionSection(section) => defined = section.count(),
            _ => {}
        }
    }
    if redirected.is_empty() || defined == 0 {
        return None;
    }
    // Only valid modules are rewritten (checked last: most commands have nothing to rewrite):
    // every index the rewrite keeps is then in range, and an invalid module reaches the wrapper
    // unchanged, which refuses it with its own message.
    Validator::new().validate_all(bytes).ok()?;
    Some((redirected, imported.checked_add(defined)?))
}

/// The re-encoder: points each redirected import at its appended function.
struct Rewrite {
    redirected: Vec<Redirected>,
    /// Redirected import index -> the index of the function appended for it.
    targets: BTreeMap<u32, u32>,
}

impl Rewrite {
    fn new((redirected, functions): (Vec<Redirected>, u32)) -> Rewrite {
        let targets = (functions..).zip(&redirected).map(|(index, import)| (import.import, index)).collect();
        Rewrite { redirected, targets }
    }
}

/// The body appended for `import`: `ESPIPE` for stdio, the import's own answer otherwise.
fn pipe_body(import: &Redirected) -> Function {
    let mut body = Function::new([]);
    body.instruction(&Instruction::LocalGet(0))
        .instruction(&Instruction::I32Const(STDIO_FDS))
        .instruction(&Instruction::I32LtU)
        .instruction(&Instruction::If(BlockType::Result(ValType::I32)))
        .instruction(&Instruction::I32Const(ESPIPE))
        .instruction(&Instruction::Else);
    for param in 0..import.params {
        body.instruction(&Instruction::LocalGet(param));
    }
    body.instruction(&Instruction::Call(import.import)).instruction(&Instruction::End).instruction(&Instruction::End);
    body
}

impl Reencode for Rewrite {
    type Error = Infallible;

    fn function_index(&mut self, func: u32) -> Result<u32, reencode::Error<Infallible>> {
        Ok(self.targets.get(&func).copied().unwrap_or(func))
    }

    fn parse_function_section(
        &mut self,
        functions: &mut FunctionSection,
        section: wasmparser::FunctionSectionReader<'_>,
    ) -> Result<(), reencode::Error<Infallible>> {
        reencode::utils::parse_function_section(self, functions, section)?;
        for import in &self.redirected {
            functions.function(import.type_index);
        }
        Ok(())
    }

    fn parse_code_section(
        &mut self,
        code: &mut CodeSection,
        section: wasmparser::CodeSectionReader<'_>,
    ) -> Result<(), reencode::Error<Infallible>> {
        reencode::utils::parse_code_section(self, code, section)?;
        for import in &self.redirected {
            code.function(&pipe_body(import));
        }
        Ok(())
    }

    /// Copied as they are: no index moved, so the name section still names what it named.
    fn parse_custom_section(
        &mut self,
        module: &mut Module,
        section: wasmparser::CustomSectionReader<'_>,
    ) -> Result<(), reencode::Error<Infallible>> {
        module.section(&reencode::utils::custom_section(self, section));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmparser::Operator;

    /// A command calling every positional call on fd 0 (and `fd_seek` also through a table and
    /// a `ref.func`, and re-exporting `fd_tell`), with a name section.
    const PROBE: &str = r#"(module
        (type $rw (func (param i32 i32 i32 i64 i32) (result i32)))
        (import "wasi_snapshot_preview1" "fd_pread" (func $pread (type $rw)))
        (import "wasi_snapshot_preview1" "fd_pwrite" (func $pwrite (type $rw)))
        (import "wasi_snapshot_preview1" "fd_seek" (func $seek (param i32 i64 i32 i32) (result i32)))
        (import "wasi_snapshot_preview1" "fd_tell" (func $tell (param i32 i32) (result i32)))
        (import "wasi_snapshot_preview1" "fd_advise" (func $advise (param i32 i64 i64 i32) (result i32)))
        (import "wasi_snapshot_preview1" "fd_allocate" (func $allocate (param i32 i64 i64) (result i32)))
        (import "wasi_snapshot_preview1" "fd_read" (func $read (param i32 i32 i32 i32) (result i32)))
        (memory (export "memory") 1)
        (table 1 funcref)
        (elem (i32.const 0) $seek)
        (global funcref (ref.func $seek))
        (export "tell" (func $tell))
        (func (export "pread") (param i32) (result i32)
            (call $pread (local.get 0) (i32.const 0) (i32.const 0) (i64.const 0) (i32.const 0)))
        (func (export "pwrite") (param i32) (result i32)
            (call $pwrite (local.get 0) (i32.const 0) (i32.const 0) (i64.const 0) (i32.const 0)))
        (func (export "seek") (param i32) (result i32)
            (call $seek (local.get 0) (i64.const 0) (i32.const 1) (i32.const 0)))
        (func (export "seek_indirect") (param i32) (result i32)
            (call_indirect (param i32 i64 i32 i32) (result i32)
                (local.get 0) (i64.const 0) (i32.const 1) (i32.const 0) (i32.const 0)))
        (func (export "advise") (param i32) (result i32)
            (call $advise (local.get 0) (i64.const 0) (i64.const 0) (i32.const 0)))
        (func (export "allocate") (param i32) (result i32)
            (call $allocate (local.get 0) (i64.const 0) (i64.const 1)))
        (func (export "read") (param i32) (result i32)
            (call $read (local.get 0) (i32.const 0) (i32.const 0) (i32.const 0)))
        (func (export "_start")))"#;

    fn rewritten(wat: &str) -> (Vec<u8>, Option<Vec<u8>>) {
        let bytes = wat::parse_str(wat).unwrap();
        let out = pipe_stdio(&bytes).unwrap();
        (bytes, out)
    }

    /// Every function body's operators, in order.
    fn bodies(bytes: &[u8]) -> Vec<Vec<String>> {
        let mut bodies = Vec::new();
        for payload in Parser::new(0).parse_all(bytes).flatten() {
            if let Payload::CodeSectionEntry(body) = payload {
                let reader = body.get_operators_reader().into_iter().flatten();
                bodies.push(reader.flatten().map(|op: Operator<'_>| format!("{op:?}")).collect());
            }
        }
        bodies
    }

    #[test]
    fn only_the_calls_move_and_the_rewrite_is_deterministic() {
        let (original, out) = rewritten(PROBE);
        let out = out.unwrap();
        assert!(Validator::new().validate_all(&out).is_ok(), "the rewrite is a valid module");
        assert_eq!(pipe_stdio(&original).ok().flatten(), Some(out.clone()), "deterministic");

        // Seven imports and eight functions: the six positional imports' functions are 15..=20.
        let (before, after) = (bodies(&original), bodies(&out));
        assert_eq!(after.len(), before.len() + 6, "one function appended per positional import");
        for (old, new) in before.iter().zip(&after) {
            assert_eq!(old.len(), new.len(), "operator for operator");
            for (old, new) in old.iter().zip(new) {
                if old.starts_with("Call ") {
                    let index =
                        |op: &str| op.trim_start_matches("Call { function_index: ").trim_end_matches(" }").to_owned();
                    let moved = match index(old).as_str() {
                        "6" => "6".to_owned(), // fd_read: not positional, untouched
                        import => (import.parse::<u32>().unwrap() + 15).to_string(),
                    };
                    assert_eq!(index(new), moved, "{old} -> {new}");
                } else {
                    assert_eq!(old, new);
                }
            }
        }
        let text = references(&out);
        assert!(text.contains("elem -> 17"), "the table holds the redirected fd_seek: {text}");
        assert!(text.contains("global -> 17"), "{text}");
        assert!(text.contains("export tell -> 18"), "{text}");

        // Names: the original name section, byte for byte.
        let names = |bytes: &[u8]| {
            Parser::new(0).parse_all(bytes).flatten().find_map(|payload| match payload {
                Payload::CustomSection(section) if section.name() == "name" => Some(section.data().to_vec()),
                _ => None,
            })
        };
        assert!(names(&original).is_some());
        assert_eq!(names(&original), names(&out));
    }

    /// What the element segment, the global and the `tell` export point at, in words.
    fn references(bytes: &[u8]) -> String {
        let mut summary = Vec::new();
        for payload in Parser::new(0).parse_all(bytes).flatten() {
            match payload {
                Payload::ElementSection(section) => {
                    for element in section.into_iter().flatten() {
                        if let wasmparser::ElementItems::Functions(funcs) = element.items {
                            summary.extend(funcs.into_iter().flatten().map(|f| format!("elem -> {f}")));
                        }
                    }
                }
                Payload::GlobalSection(section) => {
                    for global in section.into_iter().flatten() {
                        for op in global.init_expr.get_operators_reader().into_iter().flatten() {
                            if let Operator::RefFunc { function_index } = op {
                                summary.push(format!("global -> {function_index}"));
                            }
                        }
                    }
                }
                Payload::ExportSection(section) => {
                    for export in section.into_iter().flatten() {
                        summary.push(format!("export {} -> {}", export.name, export.index));
                    }
                }
                _ => {}
            }
        }
        summary.join(", ")
    }

    /// The appended functions answer `ESPIPE` on fds 0 to 2 and pass any other fd to the import.
    #[test]
    fn stdio_answers_espipe_and_other_fds_reach_the_import() {
        use wasmtime::{Engine, Linker, Module, Store};
        let (_, out) = rewritten(PROBE);
        let engine = Engine::default();
        let module = Module::new(&engine, out.unwrap_or_default()).unwrap();
        let mut linker = Linker::new(&engine);
        // Every import answers 99 (`fd_read` 98): what "the adapter's own answer" stands for.
        let m = PREVIEW1;
        let defined = [
            linker.func_wrap(m, "fd_pread", |_: i32, _: i32, _: i32, _: i64, _: i32| 99).is_ok(),
            linker.func_wrap(m, "fd_pwrite", |_: i32, _: i32, _: i32, _: i64, _: i32| 99).is_ok(),
            linker.func_wrap(m, "fd_seek", |_: i32, _: i64, _: i32, _: i32| 99).is_ok(),
            linker.func_wrap(m, "fd_tell", |_: i32, _: i32| 99).is_ok(),
            linker.func_wrap(m, "fd_advise", |_: i32, _: i64, _: i64, _: i32| 99).is_ok(),
            linker.func_wrap(m, "fd_allocate", |_: i32, _: i64, _: i64| 99).is_ok(),
            linker.func_wrap(m, "fd_read", |_: i32, _: i32, _: i32, _: i32| 98).is_ok(),
        ];
        assert!(defined.iter().all(|ok| *ok));
        let mut store = Store::new(&engine, ());
        let instance = linker.instantiate(&mut store, &module).unwrap();
        for name in ["pread", "pwrite", "seek", "seek_indirect", "advise", "allocate", "tell", "read"] {
            let call = instance.get_typed_func::<i32, i32>(&mut store, name);
            // `tell` is the re-exported import itself (one parameter too few for this probe).
            let answers: Vec<i32> = match (name, call) {
                ("tell", _) => {
                    let tell = instance.get_typed_func::<(i32, i32), i32>(&mut store, "tell").unwrap();
                    (0..5).map(|fd| tell.call(&mut store, (fd, 0)).unwrap_or(-1)).collect()
                }
                (_, Ok(call)) => (0..5).map(|fd| call.call(&mut store, fd).unwrap_or(-1)).collect(),
                (_, Err(err)) => panic!("{name}: {err}"),
            };
            let expected = if name == "read" { [98; 5] } else { [ESPIPE, ESPIPE, ESPIPE, 99, 99] };
            assert_eq!(answers, expected, "{name} on fds 0..5");
        }
    }

    #[test]
    fn modules_without_positional_calls_are_left_alone() {
        for wat in [
            // No positional import.
            r#"(module (import "wasi_snapshot_preview1" "fd_read" (func (param i32 i32 i32 i32) (result i32)))
                (func (export "_start")))"#,
            // A positional name from another module.
            r#"(module (import "env" "fd_pread" (func (param i32 i32 i32 i64 i32) (result i32)))
                (func (export "_start")))"#,
            // Not preview1's signature: the wrapper refuses it as it did.
            r#"(module (import "wasi_snapshot_preview1" "fd_seek" (func (param i32) (result i32)))
                (func (export "_start")))"#,
            // No function of its own: nothing can call the import.
            r#"(module (import "wasi_snapshot_preview1" "fd_tell" (func (param i32 i32) (result i32))))"#,
            // Not valid: left for the wrapper to refuse.
            r#"(module (import "wasi_snapshot_preview1" "fd_tell" (func (param i32 i32) (result i32)))
                (func (export "_start") (result i32) (call 0 (i32.const 0))))"#,
        ] {
            let (_, out) = rewritten(wat);
            assert_eq!(out, None, "{wat}");
        }
        for garbage in [&b""[..], b"\0asm\x01\0\0\0garbage", b"\0asm\x0d\0\x01\0"] {
            assert!(matches!(pipe_stdio(garbage), Ok(None)));
        }
    }

    /// Untrusted input: every byte of the probe module replaced by a few values, and every
    /// prefix of it, never panics the rewrite, and whatever it rewrites is a valid module.
    #[test]
    fn edited_modules_never_panic_and_rewrites_are_valid() {
        let bytes = wat::parse_str(PROBE).unwrap();
        let mut rewritten = 0;
        let mut check = |edited: &[u8]| match pipe_stdio(edited) {
            Ok(Some(out)) => {
                assert!(Validator::new().validate_all(&out).is_ok(), "an invalid rewrite");
                rewritten += 1;
            }
            Ok(None) => {}
            Err(err) => panic!("a valid module that cannot be rewritten: {err}"),
        };
        for at in 0..bytes.len() {
            for value in [0x00, 0x01, 0x7f, 0x80, 0xff, bytes[at].wrapping_add(1)] {
                let mut edited = bytes.clone();
                edited[at] = value;
                check(&edited);
            }
            check(&bytes[..at]);
        }
        assert!(rewritten > 0);
    }
}
