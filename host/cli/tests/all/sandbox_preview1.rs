//! A core module run on WASI preview1 (what a Go program is: `arena_host::preview1`), tested on
//! hand-written modules: Go's way with memory survives there and not in the preview1 adapter,
//! timers are the virtual clock, and every call, byte and subscription is charged as a
//! component's are.

use crate::sandbox_runtime::{arena, run};

use arena_host::Budget;
use arena_host::budget::{
    FUEL_PER_BYTE, FUEL_PER_HOST_CALL, FUEL_PER_PATH_BYTE, FUEL_PER_POLLABLE, FUEL_PER_RANDOM_BYTE,
};
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

/// Preview1 file calls, one export each answering its errno, for a data folder. The test puts
/// paths at 0x100; the opened descriptor lands at 8, a `prestat` at 16, the iovec is at 32,
/// `nread` at 40, `bufused` at 44, a `fd_seek` result at 48, an `fdstat` at 64, a preopen's name
/// at 0x200, bytes read from 0x1000 and listings from 0x20000.
const DATA_CALLS: &str = r#"(module
  (@custom "go:buildid" (before first) "\ff Go build ID: \"data\"\n \ff")
  (import "wasi_snapshot_preview1" "fd_prestat_get" (func $prestat_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_prestat_dir_name" (func $prestat_dir_name (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open"
    (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_readdir" (func $fd_readdir (param i32 i32 i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_seek" (func $fd_seek (param i32 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_fdstat_get" (func $fd_fdstat_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_create_directory" (func $mkdir (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_unlink_file" (func $unlink (param i32 i32 i32) (result i32)))
  (memory (export "memory") 4)
  (func (export "_start"))
  (func (export "prestat") (param $fd i32) (result i32)
    (call $prestat_get (local.get $fd) (i32.const 16)))
  (func (export "name_len") (result i32) (i32.load (i32.const 20)))
  (func (export "dir_name") (param $fd i32) (param $len i32) (result i32)
    (call $prestat_dir_name (local.get $fd) (i32.const 0x200) (local.get $len)))
  ;; Opens the `len` bytes of path at 0x100 from `dir`, with `oflags` and base rights `rights`.
  (func (export "open") (param $dir i32) (param $len i32) (param $oflags i32) (param $rights i64) (result i32)
    (call $path_open (local.get $dir) (i32.const 1) (i32.const 0x100) (local.get $len)
      (local.get $oflags) (local.get $rights) (i64.const 0) (i32.const 0) (i32.const 8)))
  (func (export "opened") (result i32) (i32.load (i32.const 8)))
  ;; Reads up to `len` bytes of `fd` into 0x1000 (or, `outside`, into the last page and past it).
  (func (export "read") (param $fd i32) (param $len i32) (param $outside i32) (result i32)
    (i32.store (i32.const 32) (select (i32.const 0x3ff00) (i32.const 0x1000) (local.get $outside)))
    (i32.store (i32.const 36) (local.get $len))
    (call $fd_read (local.get $fd) (i32.const 32) (i32.const 1) (i32.const 40)))
  (func (export "nread") (result i32) (i32.load (i32.const 40)))
  (func (export "readdir") (param $fd i32) (param $len i32) (param $cookie i64) (result i32)
    (call $fd_readdir (local.get $fd) (i32.const 0x20000) (local.get $len) (local.get $cookie) (i32.const 44)))
  (func (export "bufused") (result i32) (i32.load (i32.const 44)))
  (func (export "seek") (param $fd i32) (param $offset i64) (param $whence i32) (result i32)
    (call $fd_seek (local.get $fd) (local.get $offset) (local.get $whence) (i32.const 48)))
  (func (export "fdstat") (param $fd i32) (result i32) (call $fd_fdstat_get (local.get $fd) (i32.const 64)))
  (func (export "close") (param $fd i32) (result i32) (call $fd_close (local.get $fd)))
  (func (export "mkdir") (param $len i32) (result i32) (call $mkdir (i32.const 3) (i32.const 0x100) (local.get $len)))
  (func (export "unlink") (param $len i32) (result i32)
    (call $unlink (i32.const 3) (i32.const 0x100) (local.get $len))))"#;

/// preview1 errnos and flags the data tests use.
const ESUCCESS: i32 = 0;
const EBADF: i32 = 8;
const EFAULT: i32 = 21;
const ENAMETOOLONG: i32 = 37;
const ENOENT: i32 = 44;
const ENOTDIR: i32 = 54;
const EPERM: i32 = 63;
const EROFS: i32 = 69;
const ESPIPE: i32 = 70;
const OFLAG_CREAT: i32 = 1;
const OFLAG_DIRECTORY: i32 = 2;
const OFLAG_TRUNC: i32 = 8;
const RIGHT_FD_READ: i64 = 1 << 1;
const RIGHT_FD_WRITE: i64 = 1 << 6;

/// `table.txt` (5,000 bytes: `0123456789` repeated), `b.txt`, `sub/deep.txt`, made in an order
/// that is not the sorted one.
fn table() -> Vec<u8> {
    (0..5000).map(|i| b'0' + (i % 10) as u8).collect()
}

fn data_tree() -> arena_host::data::DataTree {
    use arena_host::data::{DataLimits, DataTree};
    let mut builder = DataTree::builder(DataLimits::DEFAULT);
    builder.file("table.txt", table()).unwrap().dir("sub").unwrap().file("sub/deep.txt", "deep").unwrap();
    builder.file("b.txt", "b").unwrap();
    builder.build()
}

/// A Go program's preview1 file calls on its data folder, with the errno and fuel of each.
struct DataBot {
    store: Store<BotState>,
    handles: StoreHandles,
    instance: wasmtime::Instance,
}

impl DataBot {
    /// The instance of [`DATA_CALLS`], ready, in a store holding `tree` as its data folder.
    fn new(tree: Option<arena_host::data::DataTree>) -> DataBot {
        let pre = load_native(DATA_CALLS);
        let (mut store, handles) = preview1_store();
        if let Some(tree) = tree {
            store.data_mut().set_data(Arc::new(tree));
        }
        let instance = run(&handles, pre.instantiate_async(&mut store)).unwrap();
        DataBot { store, handles, instance }
    }

    /// `export(args)`: its answer and the fuel it spent.
    fn call<P: wasmtime::WasmParams + Sync>(&mut self, export: &str, args: P) -> (i32, u64) {
        let (result, fuel) = call::<P, i32>(&mut self.store, &self.handles, &self.instance, export, args);
        (result.unwrap(), fuel)
    }

    fn errno<P: wasmtime::WasmParams + Sync>(&mut self, export: &str, args: P) -> i32 {
        self.call(export, args).0
    }

    fn memory(&mut self, at: usize, len: usize) -> Vec<u8> {
        let memory = self.instance.get_memory(&mut self.store, "memory").unwrap();
        memory.data(&self.store)[at..at + len].to_vec()
    }

    /// Puts `path` at 0x100: its length.
    fn path(&mut self, path: &str) -> i32 {
        let memory = self.instance.get_memory(&mut self.store, "memory").unwrap();
        memory.write(&mut self.store, 0x100, path.as_bytes()).unwrap();
        path.len() as i32
    }

    /// Opens `path` from the data folder with `oflags` and `rights`: the errno.
    fn open(&mut self, path: &str, oflags: i32, rights: i64) -> i32 {
        let len = self.path(path);
        self.errno("open", (3, len, oflags, rights))
    }

    /// Opens `path` for reading: its descriptor.
    fn open_read(&mut self, path: &str) -> i32 {
        assert_eq!(self.open(path, 0, RIGHT_FD_READ), ESUCCESS, "open {path}");
        self.errno("opened", ())
    }
}

/// Obeyed: with a data folder, descriptor 3 is a preopened directory named `/data` (5 bytes),
/// as Go's runtime and wasi-libc look for it, and the scan stops at 4 (`EBADF`). Violated:
/// without one, descriptor 3 is `EBADF` as before (wasmtime-wasi's answer), and so is every
/// file call on it.
#[test]
fn the_data_folder_is_preopened_as_descriptor_3_only_when_there_is_one() {
    let mut bot = DataBot::new(Some(data_tree()));
    assert_eq!(bot.errno("prestat", 3), ESUCCESS);
    assert_eq!(bot.memory(16, 1), [0], "a directory");
    assert_eq!(bot.errno("name_len", ()), 5);
    assert_eq!(bot.errno("dir_name", (3, 5)), ESUCCESS);
    assert_eq!(bot.memory(0x200, 5), b"/data");
    assert_eq!(bot.errno("dir_name", (3, 4)), ENAMETOOLONG);
    assert_eq!(bot.errno("prestat", 4), EBADF, "the preopen scan stops after 3");

    let mut bare = DataBot::new(None);
    assert_eq!(bare.errno("prestat", 3), EBADF);
    assert_eq!(bare.open("table.txt", 0, RIGHT_FD_READ), EBADF);
    assert_eq!(bare.errno("readdir", (3, 4096, 0i64)), EBADF);
}

/// A file opened from the data folder reads its bytes, in order, to the end; reading N bytes
/// more costs exactly N fuel more (one a byte; both reads pay the same fee and iovec array, and
/// N is a multiple of the burner's step of 7). A buffer outside memory is `EFAULT`, not a
/// host panic.
#[test]
fn a_data_file_reads_its_bytes_at_one_fuel_a_byte() {
    let mut bot = DataBot::new(Some(data_tree()));
    let fd = bot.open_read("table.txt");
    assert_eq!(fd, 4, "the lowest free descriptor");
    let (errno, small) = bot.call("read", (fd, 700, 0));
    assert_eq!((errno, bot.errno("nread", ())), (ESUCCESS, 700));
    assert_eq!(bot.memory(0x1000, 700), &table()[..700]);
    let (errno, large) = bot.call("read", (fd, 1400, 0));
    assert_eq!((errno, bot.errno("nread", ())), (ESUCCESS, 1400));
    assert_eq!(bot.memory(0x1000, 1400), &table()[700..2100], "from where the last read ended");
    assert_eq!(large - small, 700 * FUEL_PER_BYTE, "700 bytes more cost {} fuel more", large - small);
    // The rest, then the end.
    assert_eq!(bot.call("read", (fd, 10_000, 0)).0, ESUCCESS);
    assert_eq!(bot.errno("nread", ()), 5000 - 2100);
    assert_eq!(bot.call("read", (fd, 10_000, 0)).0, ESUCCESS);
    assert_eq!(bot.errno("nread", ()), 0, "end of file");
    // Back to the start, then a read into memory the bot does not have.
    assert_eq!(bot.errno("seek", (fd, 0i64, 0)), ESUCCESS);
    assert_eq!(bot.errno("read", (fd, 0x1000, 1)), EFAULT);
    assert_eq!(bot.errno("read", (fd, 10, 0)), ESUCCESS);
    assert_eq!(bot.memory(0x1000, 10), b"0123456789", "a refused read moved nothing");
    assert_eq!(bot.errno("close", fd), ESUCCESS);
    assert_eq!(bot.errno("read", (fd, 10, 0)), EBADF, "closed");
    assert_eq!(bot.open_read("sub/deep.txt"), fd, "its number is free again");
}

/// A path into the data folder pays [`FUEL_PER_PATH_BYTE`] (16) a byte before it is walked (the
/// host walks it name by name: at 1 a byte a 4 KiB path of nested directories held the host
/// 44-49 times longer per fuel than pure wasm, `cargo xtask bench hostcalls`). Obeyed: a path 70
/// bytes longer that opens costs exactly 1,120 fuel more. Violated (a path that is not there):
/// the same, paid whether or not it resolves.
#[test]
fn a_path_pays_sixteen_fuel_a_byte_found_or_not() {
    let mut bot = DataBot::new(Some(data_tree()));
    let mut fuel_of = |path: &str, expected: i32| {
        let len = bot.path(path);
        let (errno, fuel) = bot.call("open", (3, len, 0, RIGHT_FD_READ));
        assert_eq!(errno, expected, "{path}");
        fuel
    };
    let found = fuel_of("table.txt", ESUCCESS);
    let found_longer = fuel_of(&format!("{}table.txt", "./".repeat(35)), ESUCCESS);
    assert_eq!(found_longer - found, 70 * FUEL_PER_PATH_BYTE, "70 bytes more of a path that opens");
    let missing = fuel_of("missing", ENOENT);
    let missing_longer = fuel_of(&format!("missing/{}", "x".repeat(69)), ENOENT);
    assert_eq!(missing_longer - missing, 70 * FUEL_PER_PATH_BYTE, "70 bytes more of a path that is not there");
}

/// Obeyed: what exists opens. Violated: every change answers `EROFS` (errno 69), whatever the
/// path; leaving the folder (`..` past its root, an absolute path) `EPERM`; a missing entry
/// `ENOENT`; `O_DIRECTORY` on a file `ENOTDIR`.
#[test]
fn every_change_and_every_way_out_of_the_data_folder_is_refused() {
    let mut bot = DataBot::new(Some(data_tree()));
    assert_eq!(bot.open("sub/../table.txt", 0, RIGHT_FD_READ), ESUCCESS, "`..` within the folder");
    assert_eq!(bot.open("sub", OFLAG_DIRECTORY, RIGHT_FD_READ), ESUCCESS);
    assert_eq!(bot.open("new.txt", OFLAG_CREAT, RIGHT_FD_READ | RIGHT_FD_WRITE), EROFS);
    assert_eq!(bot.open("table.txt", OFLAG_TRUNC, RIGHT_FD_WRITE), EROFS);
    assert_eq!(bot.open("table.txt", 0, RIGHT_FD_WRITE), EROFS, "opened for writing");
    let len = bot.path("made");
    assert_eq!(bot.errno("mkdir", len), EROFS);
    let len = bot.path("table.txt");
    assert_eq!(bot.errno("unlink", len), EROFS);
    assert_eq!(bot.open("../etc/passwd", 0, RIGHT_FD_READ), EPERM);
    assert_eq!(bot.open("sub/../../table.txt", 0, RIGHT_FD_READ), EPERM);
    assert_eq!(bot.open("/table.txt", 0, RIGHT_FD_READ), EPERM);
    let len = bot.path("../made");
    assert_eq!(bot.errno("mkdir", len), EPERM, "leaving is refused before writing");
    assert_eq!(bot.open("missing.txt", 0, RIGHT_FD_READ), ENOENT);
    assert_eq!(bot.open("table.txt", OFLAG_DIRECTORY, RIGHT_FD_READ), ENOTDIR);
    assert_eq!(bot.open("table.txt/x", 0, RIGHT_FD_READ), ENOTDIR);
    assert_eq!(bot.open(&"x".repeat(0x1000), 0, RIGHT_FD_READ), ENOENT, "a long path is charged, then not found");
}

/// The directory's entries as wasmtime-wasi lists a folder to a preview1 program: `.` and `..`,
/// then the entries sorted by name, each `d_next` the cookie of the one after it; a cookie
/// resumes there; a buffer too small for the next entry is filled with its beginning.
#[test]
fn fd_readdir_lists_the_data_folder_sorted() {
    let mut bot = DataBot::new(Some(data_tree()));
    let listing = |bot: &mut DataBot, fd: i32, cookie: i64| {
        assert_eq!(bot.errno("readdir", (fd, 4096, cookie)), ESUCCESS);
        let used = bot.errno("bufused", ()) as usize;
        let bytes = bot.memory(0x20000, used);
        let mut entries = Vec::new();
        let mut at = 0;
        while at < bytes.len() {
            let next = u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
            let namlen = u32::from_le_bytes(bytes[at + 16..at + 20].try_into().unwrap()) as usize;
            let kind = bytes[at + 20];
            let name = String::from_utf8(bytes[at + 24..at + 24 + namlen].to_vec()).unwrap();
            entries.push((next, name, kind));
            at += 24 + namlen;
        }
        entries
    };
    let (dir, file) = (3, 4);
    let expected = [
        (1, ".".to_owned(), dir),
        (2, "..".to_owned(), dir),
        (3, "b.txt".to_owned(), file),
        (4, "sub".to_owned(), dir),
        (5, "table.txt".to_owned(), file),
    ];
    assert_eq!(listing(&mut bot, 3, 0), expected, "the preopen itself");
    let root = bot.open_read(".");
    assert_eq!(listing(&mut bot, root, 0), expected);
    assert_eq!(listing(&mut bot, root, 3), expected[3..], "from a cookie");
    assert_eq!(listing(&mut bot, root, 9), [], "past the end");
    let sub = bot.open_read("sub");
    assert_eq!(listing(&mut bot, sub, 2), [(3, "deep.txt".to_owned(), file)]);
    assert_eq!(bot.errno("readdir", (root, 30, 0i64)), ESUCCESS);
    assert_eq!(bot.errno("bufused", ()), 30, "a full buffer: `.` and the start of `..`");
    let table = bot.open_read("table.txt");
    assert_eq!(bot.errno("readdir", (table, 4096, 0i64)), ENOTDIR);
}

/// Stdio keeps wasmtime-wasi's answers and costs when the bot has data: `fd_seek` on stdin is
/// `ESPIPE` and `fd_fdstat_get` on stdout succeeds, for the same fuel as without a data folder
/// (one fee each); a data file's `fd_seek` is the arena's.
#[test]
fn stdio_calls_answer_and_cost_the_same_with_a_data_folder() {
    let mut with = DataBot::new(Some(data_tree()));
    let mut without = DataBot::new(None);
    for bot in [&mut with, &mut without] {
        assert_eq!(bot.errno("seek", (0, 0i64, 0)), ESPIPE);
    }
    let seek = |bot: &mut DataBot| bot.call("seek", (0, 0i64, 0));
    let fdstat = |bot: &mut DataBot| bot.call("fdstat", 1);
    assert_eq!(seek(&mut with), seek(&mut without));
    assert_eq!(fdstat(&mut with), fdstat(&mut without));
    let (errno, fuel) = fdstat(&mut with);
    assert_eq!(errno, ESUCCESS);
    assert!(
        (FUEL_PER_HOST_CALL..FUEL_PER_HOST_CALL + 32).contains(&fuel),
        "one fee and the export's few instructions: {fuel}"
    );
    let fd = with.open_read("table.txt");
    assert_eq!(with.errno("seek", (fd, 4990i64, 0)), ESUCCESS);
    assert_eq!(with.memory(48, 8), 4990u64.to_le_bytes());
    assert_eq!(with.errno("read", (fd, 100, 0)), ESUCCESS);
    assert_eq!(with.errno("nread", ()), 10);
}
