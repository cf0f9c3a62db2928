//! The bot loader: every bot file goes through it, so it must refuse anything with a
//! [`LoadError`](arena_host::LoadError), never panic. One [`Arena`] is made per thread, once.
//!
//! Each input is loaded exactly as a game with a line protocol loads a seat's file (the
//! registry's `load_either`, made of the loader's public steps): a `wasm32-wasip1` command is
//! wrapped into a component ([`preview1_command`]), compiled and checked as a WASI command, and
//! also loaded as the core module it is, as a Go program is ([`load_preview1_command`]);
//! anything else is compiled, then checked as a WASI command if it exports `wasi:cli/run`, else
//! as an Azul WIT bot ([`load_bot_component`], the body of `load_bot_bytes::<AzulBinding>` after
//! the compile). Core modules that are not commands are refused by [`compile`] as core modules.
//!
//! Inputs: raw bytes behind a wasm header; byte-edited real bots (the checked-in fixtures, a
//! real WIT component and one built against an older WIT); edited WAT templates of a
//! component exporting the Azul interface with the wrong types and of a preview1 command;
//! wasm-smith core modules shaped like preview1 commands (exporting `_start` and `memory`,
//! importing preview1 functions, with start functions that run when the check instantiates
//! them); and wasm-smith components. Compiling makes this target slow: tens to hundreds of
//! inputs per second rather than thousands.

use crate::mutate;
use arbitrary::{Result, Unstructured};
use arena_host::bindings::azul::AzulBinding;
use arena_host::loader::{
    COMMAND_EXPORT, Loader, compile, is_command, load_bot_component, load_command_component, load_preview1_command,
    sha256,
};
use arena_host::protocol::wasip1::{Preview1Command, preview1_command};
use arena_host::runtime::Arena;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

/// A real WIT bot for Azul.
const FX_REFERENCE: &[u8] = include_bytes!("../../fixtures/fx-reference.wasm");
/// A real Azul bot built against an older version of the WIT.
const OLDER_WIT: &[u8] = include_bytes!("../../fixtures/azul-bot-older-wit.wasm");

/// A component exporting the Azul interface's name with the wrong types.
pub const WRONG_TYPES: &str = r#"(component
  (core module $m
    (memory (export "memory") 1)
    (func (export "init") (param i32) (result i32) local.get 0)
    (func (export "cabi_realloc") (param i32 i32 i32 i32) (result i32) i32.const 8))
  (core instance $i (instantiate $m))
  (func $init (param "x" u32) (result u32) (canon lift (core func $i "init")))
  (instance $player (export "init" (func $init)))
  (export "arena:azul/player@0.2.0" (instance $player)))"#;

/// A minimal `wasm32-wasip1` command.
pub const PREVIEW1_COMMAND: &str = r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func $write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "0 b 5\n")
  (func (export "_start")
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 6))
    (drop (call $write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))
    (call $exit (i32.const 0))))"#;

/// What wasm-smith's command-shaped modules must export.
const COMMAND_EXPORTS: &str = r#"(module (memory (export "memory") 1) (func (export "_start")))"#;

/// What wasm-smith's command-shaped modules may import: preview1 functions only (wasm-smith
/// takes most of what it is offered, and one import the adapter lacks refuses the whole module
/// before it is wrapped; the edited command template covers such imports). `fd_pread` and
/// `fd_seek` are positional calls, which the wrapper redirects before wrapping
/// (`arena_load::stdio_pipes`), re-encoding the module.
const COMMAND_IMPORTS: &str = r#"(module
  (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_pread" (func (param i32 i32 i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_seek" (func (param i32 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func (param i32)))
  (import "wasi_snapshot_preview1" "random_get" (func (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func (param i32 i64 i32) (result i32))))"#;

thread_local! {
    static ARENA: Option<Arena> = Arena::new().ok();
}

/// The loader fed generated and mutated modules and components.
pub fn loader(data: &[u8]) {
    let mut u = Unstructured::new(data);
    let Ok(Some(bytes)) = input(&mut u) else { return };
    ARENA.with(|arena| match arena {
        Some(arena) => load(arena, &bytes),
        None => panic!("cannot create the arena"),
    });
}

/// The registry's `load_either` for Azul, made of the loader's public steps; every outcome but
/// a panic is fine.
fn load(arena: &Arena, bytes: &[u8]) {
    let path = Path::new("fuzz.wasm");
    let loader = Loader::for_any_match(arena);
    match preview1_command(path, bytes) {
        Ok(Some(Preview1Command::Wrapped(wrapped))) => {
            if let Ok(compiled) = compile(&loader, path, &wrapped, COMMAND_EXPORT) {
                let _ = load_command_component(arena, path, compiled);
            }
            // And as a Go program is loaded (its `go:buildid` section is all that differs).
            let _ = load_preview1_command(&loader, path, bytes, &sha256(bytes));
        }
        Ok(Some(Preview1Command::Native)) => {
            let _ = load_preview1_command(&loader, path, bytes, &sha256(bytes));
        }
        Ok(None) => {
            if let Ok(compiled) = compile(&loader, path, bytes, COMMAND_EXPORT) {
                if is_command(arena, &compiled.component) {
                    let _ = load_command_component(arena, path, compiled);
                } else {
                    let _ = load_bot_component::<AzulBinding>(arena, path, compiled);
                }
            }
        }
        Err(_) => {}
    }
}

/// One input's file bytes; `None` when the input makes nothing worth loading.
fn input(u: &mut Unstructured) -> Result<Option<Vec<u8>>> {
    Ok(Some(match u.int_in_range(0..=9)? {
        0 => {
            let headers: [&[u8]; 4] = [b"\0asm\x0d\0\x01\0", b"\0asm\x01\0\0\0", b"\0asm", b""];
            let mut bytes = headers[u.choose_index(headers.len())?].to_vec();
            let rest = u.len();
            bytes.extend_from_slice(u.bytes(rest)?);
            bytes
        }
        1 | 2 => {
            let sample = if u.ratio(3, 4)? { FX_REFERENCE } else { OLDER_WIT };
            mutate::bytes(sample, u)
        }
        3 | 4 => {
            let template = if u.arbitrary()? { WRONG_TYPES } else { PREVIEW1_COMMAND };
            let text = String::from_utf8_lossy(&mutate::bytes(template.as_bytes(), u)).into_owned();
            match wat::parse_str(&text) {
                Ok(bytes) => bytes,
                Err(_) => return Ok(None),
            }
        }
        5..=7 => return generated(|| smith_command(u)),
        _ => return generated(|| smith_component(u)),
    }))
}

/// Runs a generator, treating its panics (wasm-smith's component support is a work in
/// progress) as "nothing generated": a generator bug is not a finding in the arena.
fn generated(make: impl FnOnce() -> Result<Vec<u8>>) -> Result<Option<Vec<u8>>> {
    match catch_unwind(AssertUnwindSafe(make)) {
        Ok(Ok(bytes)) => Ok(Some(bytes)),
        Ok(Err(err)) => Err(err),
        Err(_) => Ok(None),
    }
}

/// wasm-smith settings that keep modules small and within what the arena's wasmtime accepts
/// (no GC, threads or exceptions: those features are not compiled in), so they get past
/// validation into the loader's checks.
fn smith_config() -> wasm_smith::Config {
    wasm_smith::Config {
        max_funcs: 8,
        max_instructions: 64,
        max_memories: 1,
        max_memory32_bytes: 1 << 20,
        max_memory64_bytes: 1 << 20,
        max_tables: 2,
        max_table_elements: 64,
        max_data_segments: 4,
        max_element_segments: 4,
        max_globals: 8,
        max_types: 16,
        gc_enabled: false,
        threads_enabled: false,
        shared_everything_threads_enabled: false,
        exceptions_enabled: false,
        ..wasm_smith::Config::default()
    }
}

/// A wasm-smith core module exporting `_start` and `memory` and importing from preview1.
fn smith_command(u: &mut Unstructured) -> Result<Vec<u8>> {
    let config = wasm_smith::Config {
        exports: wat::parse_str(COMMAND_EXPORTS).ok(),
        available_imports: wat::parse_str(COMMAND_IMPORTS).ok(),
        ..smith_config()
    };
    Ok(wasm_smith::Module::new(config, u)?.to_bytes())
}

/// A wasm-smith component.
fn smith_component(u: &mut Unstructured) -> Result<Vec<u8>> {
    Ok(wasm_smith::Component::new(smith_config(), u)?.to_bytes())
}
