//! A core module run on WASI preview1 (what a Go program is: `arena_host::preview1`), tested on
//! hand-written modules: Go's way with memory survives there and not in the preview1 adapter,
//! timers are the virtual clock, and every call, byte and subscription is charged as a
//! component's are.

use crate::sandbox_runtime::{arena, run};

use arena_host::Budget;
use arena_host::budget::{FUEL_PER_BYTE, FUEL_PER_HOST_CALL, FUEL_PER_POLLABLE, FUEL_PER_RANDOM_BYTE};
use arena_host::loader::{CommandProgram, Loader, compile, load_command_component, load_preview1_command, sha256};
use arena_host::log::{BotLog, LogSource};
use arena_host::protocol::wasip1::{Preview1Command, preview1_command, wrap_preview1_command};
use arena_host::store::{BotState, StoreHandles};
use arena_host::wasi::locked_down_ctx;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use wasmtime::Store;

/// Go's runtime on wasm, reduced to what matters here (its `mem_wasm.go` and `mem_sbrk.go`):
/// the heap begins where memory ends when the runtime starts, and `sbrk` grows memory by the
/// pages it needs and takes them as `[blocMax, blocMax + n)` without looking at what
/// `memory.grow` returned. Between two writes to stdout (WASI calls) it fills the page it
/// believes it grew with a pattern, then checks the pattern: `ok` when it is intact, `corrupt`
/// otherwise. The `go:buildid` section is what tells the loader it is a Go program.
const GO_LIKE: &str = r#"(module
  (@custom "go:buildid" (before first) "\ff Go build ID: \"ECNz14k8avBroZdzmef2/zksTxDpsD4TGsW_kVXOn\"\n \ff")
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (global $blocMax (mut i32) (i32.const 0))
  (data (i32.const 64) "hello\n")
  (data (i32.const 80) "ok\n")
  (data (i32.const 96) "corrupt\n")
  (func $write (param $ptr i32) (param $len i32)
    (i32.store (i32.const 0) (local.get $ptr))
    (i32.store (i32.const 4) (local.get $len))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 16))))
  (func (export "_start") (local $at i32) (local $end i32)
    (global.set $blocMax (i32.mul (memory.size) (i32.const 65536)))
    (call $write (i32.const 64) (i32.const 6))
    (drop (memory.grow (i32.const 1)))
    (local.set $at (global.get $blocMax))
    (local.set $end (i32.add (global.get $blocMax) (i32.const 65536)))
    (loop $fill
      (i32.store (local.get $at) (i32.const 0xa5a5a5a5))
      (br_if $fill (i32.lt_u (local.tee $at (i32.add (local.get $at) (i32.const 4))) (local.get $end))))
    (call $write (i32.const 64) (i32.const 6))
    (local.set $at (global.get $blocMax))
    (loop $check
      (if (i32.ne (i32.load (local.get $at)) (i32.const 0xa5a5a5a5))
        (then (call $write (i32.const 96) (i32.const 8)) (return)))
      (br_if $check (i32.lt_u (local.tee $at (i32.add (local.get $at) (i32.const 4))) (local.get $end))))
    (call $write (i32.const 80) (i32.const 3))))"#;

/// Preview1 calls, one export each, for their answers and their fuel (`_start` does nothing).
/// Memory: an iovec at 0, `nwritten` at 16, clock readings at 32 and 40, a subscription
/// array from 256 (48 bytes each), events from 1024 (32 bytes each), `nevents` at 24, random
/// bytes from 4096, bytes to write (`a`s, `fill`) from 8192.
const CALLS: &str = r#"(module
  (@custom "go:buildid" (before first) "\ff Go build ID: \"calls\"\n \ff")
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock (param i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func $random (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "sched_yield" (func $yield (result i32)))
  (memory (export "memory") 4)
  (func (export "_start"))
  ;; `n` subscriptions to the monotonic clock, each `nanos` from now (relative), user data 7 + i.
  (func $subscribe (param $n i32) (param $nanos i64) (local $i i32) (local $at i32)
    (loop $each
      (local.set $at (i32.add (i32.const 256) (i32.mul (local.get $i) (i32.const 48))))
      (i64.store (local.get $at) (i64.add (i64.const 7) (i64.extend_i32_u (local.get $i))))
      (i32.store8 offset=8 (local.get $at) (i32.const 0))
      (i32.store offset=16 (local.get $at) (i32.const 1))
      (i64.store offset=24 (local.get $at) (local.get $nanos))
      (i32.store16 offset=40 (local.get $at) (i32.const 0))
      (br_if $each (i32.lt_u (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $n)))))
  ;; Reads the clock, sleeps `nanos`, reads it again: the difference, or -errno.
  (func (export "sleep") (param $nanos i64) (result i64) (local $errno i32)
    (drop (call $clock (i32.const 1) (i64.const 1) (i32.const 32)))
    (call $subscribe (i32.const 1) (local.get $nanos))
    (local.set $errno (call $poll (i32.const 256) (i32.const 1024) (i32.const 1) (i32.const 24)))
    (if (local.get $errno) (then (return (i64.extend_i32_u (i32.sub (i32.const 0) (local.get $errno))))))
    (drop (call $clock (i32.const 1) (i64.const 1) (i32.const 40)))
    (i64.sub (i64.load (i32.const 40)) (i64.load (i32.const 32))))
  ;; Polls `n` subscriptions of 1 ns: the errno.
  (func (export "poll") (param $n i32) (result i32)
    (if (local.get $n) (then (call $subscribe (local.get $n) (i64.const 1))))
    (call $poll (i32.const 256) (i32.const 1024) (local.get $n) (i32.const 24)))
  (func (export "event") (param $field i32) (result i64)
    (i64.load (i32.add (i32.const 1024) (local.get $field))))
  (func (export "nevents") (result i32) (i32.load (i32.const 24)))
  (func (export "nwritten") (result i32) (i32.load (i32.const 16)))
  (func (export "random") (param $len i32) (result i32)
    (call $random (i32.const 4096) (local.get $len)))
  (func (export "fill") (param $len i32) (result i32)
    (memory.fill (i32.const 8192) (i32.const 0x61) (local.get $len))
    (i32.const 0))
  (func (export "write") (param $len i32) (result i32)
    (i32.store (i32.const 0) (i32.const 8192))
    (i32.store (i32.const 4) (local.get $len))
    (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 16)))
  (func (export "yield") (param $n i32) (result i32) (local $errno i32)
    (loop $each
      (local.set $errno (i32.or (local.get $errno) (call $yield)))
      (br_if $each (local.tee $n (i32.sub (local.get $n) (i32.const 1)))))
    (local.get $errno)))"#;

fn fresh_handles() -> StoreHandles {
    StoreHandles::fresh(&BotLog::default(), &Arc::new(AtomicU64::new(u64::MAX)))
}

/// A fresh store for a preview1 module, with fuel, and its handles.
fn preview1_store() -> (Store<BotState>, StoreHandles) {
    let handles = fresh_handles();
    let wasi = locked_down_ctx(1, &[0; 32], &handles.log, &handles.clock);
    let mut store = arena().new_store(&Budget::default(), wasi, &handles);
    store.set_fuel(10_000_000).unwrap();
    (store, handles)
}

/// `wat` loaded as the arena loads a Go program: as the core module it is, on preview1.
fn load_native(wat: &str) -> wasmtime::InstancePre<BotState> {
    let bytes = wat::parse_str(wat).unwrap();
    let path = Path::new("go-like.wasm");
    assert_eq!(preview1_command(path, &bytes).unwrap(), Some(Preview1Command::Native));
    let loaded = load_preview1_command(&Loader::for_any_match(arena()), path, &bytes, &sha256(&bytes)).unwrap();
    match loaded.program {
        CommandProgram::Preview1(pre) => pre,
        CommandProgram::Component(_) => panic!("loaded as a component"),
    }
}

/// What the bot wrote to stdout.
fn stdout(handles: &StoreHandles) -> String {
    let entries = handles.log.take_turn().entries;
    entries.iter().filter(|entry| entry.source == LogSource::Stdout).map(|entry| entry.text.as_str()).collect()
}

/// Go's heap and WASI preview1: run as the core module it is, the Go-like program's page stays
/// its own across WASI calls (`hello`, `hello`, `ok`). Wrapped in the preview1 adapter, as it was
/// before Go programs ran natively, the adapter's first call takes a page by growing the same
/// memory, the program fills that page as its heap, and the adapter's next call finds its state
/// overwritten: the call traps, or the pattern is gone.
#[test]
fn a_go_like_heap_survives_wasi_calls_natively_and_not_in_the_adapter() {
    let pre = load_native(GO_LIKE);
    let (mut store, handles) = preview1_store();
    let instance = run(&handles, pre.instantiate_async(&mut store)).unwrap();
    let start = instance.get_typed_func::<(), ()>(&mut store, "_start").unwrap();
    run(&handles, start.call_async(&mut store, ())).unwrap();
    assert_eq!(stdout(&handles), "hello\nhello\nok\n");

    let bytes = wat::parse_str(GO_LIKE).unwrap();
    let path = Path::new("go-like.wasm");
    let wrapped = wrap_preview1_command(path, &bytes).unwrap().unwrap();
    let compiled = compile(&Loader::for_any_match(arena()), path, &wrapped, "wasi:cli/run@0.2").unwrap();
    let command = load_command_component(arena(), path, compiled).unwrap();
    let CommandProgram::Component(pre) = command.program else { panic!("not a component") };
    let handles = fresh_handles();
    let mut store =
        arena().new_store(&Budget::default(), locked_down_ctx(1, &[0; 32], &handles.log, &handles.clock), &handles);
    store.set_fuel(10_000_000).unwrap();
    let command = run(&handles, pre.instantiate_async(&mut store)).unwrap();
    let ran = run(&handles, command.wasi_cli_run().call_run(&mut store));
    let written = stdout(&handles);
    assert!(ran.is_err() || written != "hello\nhello\nok\n", "the adapter left Go's heap alone: {ran:?} {written:?}");
}

/// The instance of [`CALLS`], ready.
fn calls() -> (Store<BotState>, StoreHandles, wasmtime::Instance) {
    let pre = load_native(CALLS);
    let (mut store, handles) = preview1_store();
    let instance = run(&handles, pre.instantiate_async(&mut store)).unwrap();
    (store, handles, instance)
}

/// Calls `export(arg)`: its result and the fuel it spent.
fn call<P: wasmtime::WasmParams + Sync, R: wasmtime::WasmResults + Sync>(
    store: &mut Store<BotState>,
    handles: &StoreHandles,
    instance: &wasmtime::Instance,
    export: &str,
    arg: P,
) -> (wasmtime::Result<R>, u64) {
    let func = instance.get_typed_func::<P, R>(&mut *store, export).unwrap();
    let before = store.get_fuel().unwrap();
    let result = run(handles, func.call_async(&mut *store, arg));
    (result, before - store.get_fuel().unwrap())
}

/// `poll_oneoff` waits on the virtual clock: a one-second sleep returns at once and moves the
/// clock exactly one second (plus the reading's step of 1 µs), the event names the
/// subscription, and waiting on nothing is `EINVAL` (28), as under wasmtime-wasi.
#[test]
fn poll_oneoff_sleeps_on_the_virtual_clock() {
    let (mut store, handles, instance) = calls();
    let (slept, _) = call::<i64, i64>(&mut store, &handles, &instance, "sleep", 1_000_000_000);
    assert_eq!(slept.unwrap(), 1_000_001_000);
    let (nevents, _) = call::<(), i32>(&mut store, &handles, &instance, "nevents", ());
    assert_eq!(nevents.unwrap(), 1);
    let (userdata, _) = call::<i32, i64>(&mut store, &handles, &instance, "event", 0);
    let (kind, _) = call::<i32, i64>(&mut store, &handles, &instance, "event", 8);
    assert_eq!((userdata.unwrap(), kind.unwrap()), (7, 0), "user data 7, errno 0, type clock");
    let (nothing, _) = call::<i32, i32>(&mut store, &handles, &instance, "poll", 0);
    assert_eq!(nothing.unwrap(), 28);
}

/// What each call costs, as for a component: the host-call fee once per call (two
/// `sched_yield`s cost one fee more than one), [`FUEL_PER_POLLABLE`] a subscription,
/// [`FUEL_PER_RANDOM_BYTE`] a random byte and [`FUEL_PER_BYTE`] a byte written (charged by the
/// burner, in steps of 7); a write takes at most 64 KiB; a random request over 1 MiB traps.
#[test]
fn preview1_calls_pay_the_fee_and_their_bytes() {
    let (mut store, handles, instance) = calls();
    let mut fuel = |export: &str, arg: i32| {
        let (result, fuel) = call::<i32, i32>(&mut store, &handles, &instance, export, arg);
        assert_eq!(result.unwrap(), 0, "{export}({arg}) succeeds");
        fuel
    };
    let one_more_yield = fuel("yield", 2) - fuel("yield", 1);
    assert!((FUEL_PER_HOST_CALL..FUEL_PER_HOST_CALL + 16).contains(&one_more_yield), "{one_more_yield}");
    // The burner charges in steps of 7; the module's loop runs once more.
    let one_more_subscription = fuel("poll", 2) - fuel("poll", 1);
    assert!(
        (FUEL_PER_POLLABLE - 7..FUEL_PER_POLLABLE + 64).contains(&one_more_subscription),
        "{one_more_subscription}"
    );
    let thousand_random_bytes = fuel("random", 2000) - fuel("random", 1000);
    assert!(thousand_random_bytes.abs_diff(1000 * FUEL_PER_RANDOM_BYTE) <= 7, "{thousand_random_bytes}");
    fuel("fill", 2000);
    let thousand_bytes_written = fuel("write", 2000) - fuel("write", 1000);
    assert!(thousand_bytes_written.abs_diff(1000 * FUEL_PER_BYTE) <= 7, "{thousand_bytes_written}");
    assert_eq!(stdout(&handles), "a".repeat(3000));
    // At most 64 KiB a call, as POSIX allows a write to be short.
    fuel("fill", 100_000);
    let (written, _) = call::<i32, i32>(&mut store, &handles, &instance, "write", 100_000);
    assert_eq!(written.unwrap(), 0);
    let (nwritten, _) = call::<(), i32>(&mut store, &handles, &instance, "nwritten", ());
    assert_eq!(nwritten.unwrap(), 65_536);

    let (over, _) = call::<i32, i32>(&mut store, &handles, &instance, "random", (1 << 20) + 1);
    let message = format!("{:#}", over.unwrap_err());
    assert!(message.contains("random_get of 1048577 bytes is over the 1048576-byte limit"), "{message}");
}
