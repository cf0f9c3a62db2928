//! Section 8 of the arena benchmarks: host calls against pure wasm, in wall time per unit of fuel
//! (the bench the third attack round asked for). Host work a bot causes is paid in fuel (`host_fuel`), so no host call
//! should buy much more of the host's time per unit of fuel than the bot's own code does.
//!
//! The reference is pure wasm: an export of [`HOSTCALLS_WAT`] running a plain arithmetic loop
//! (a 64-bit LCG and a sum, 17 fuel an iteration). Every other row is an export looping on one
//! host function the arena's linker gives a bot (`runtime::bot_linker`: wasmtime-wasi's p2
//! `add_to_linker_async` and the arena's own definitions), [`Case::calls`] times per call, with
//! an input that makes its work grow where it can (1 MiB strings and random requests, writes at
//! the stream's `check-write` permit, `poll` of many pollables), in a tight loop otherwise. A row
//! is the wall time of one whole call divided by the fuel it spent (the loop's own instructions
//! included, as a bot pays them). Each row has its own store, with the locked-down WASI context
//! the arena gives every bot, and its calls are driven by the arena's driver (`driver::drive`)
//! with fuel to spare and a backstop that never fires: every measured call must return cleanly
//! and spend the same fuel each time. The goal is at most 8x pure wasm's time per fuel: the charged calls measured
//! 2.6-17.5 ns per fuel there against 2.2 ns for pure wasm.
//!
//! The `filesystem:` rows run on a store given a data folder (`BotState::set_data`), as the
//! store of a bot with one is: [`data_tree`], built in memory, a 1 MiB file, a directory of
//! 10,000 entries and 2,048 nested directories, served by the arena's own `wasi:filesystem`
//! (`data_fs`). They read the whole file with `read` and with a data stream's `blocking-read`,
//! drain `read-directory` of the directory, `open-at` the longest path an entry may have (4 KiB
//! through the nested directories: a lookup every 2 bytes), and `stat` and `metadata-hash` a
//! file. The `preview1:` rows are a core module on WASI preview1 ([`PREVIEW1_WAT`], the arena's
//! `preview1::linker`, whose file functions are `preview1_data`'s) given the same folder, as a Go
//! bot with one is: `fd_read` of the whole file (after an `fd_seek` to its start) and
//! `fd_readdir` of the whole directory in one call. Without a data folder `get-directories` is
//! empty, and measured so.
//!
//! Not covered, because a locked-down bot cannot reach them: `wasi:cli/exit` (it ends the
//! bot's call, there is no loop of it); `wasi:io/error`'s `to-debug-string` and the
//! `filesystem-error-code`/`network-error-code` lookups (an error resource only comes from a
//! stream whose last operation failed, and the bot's streams never fail: stdout and stderr are
//! sinks, stdin is closed, a data file's stream always reads); the `tcp-socket`, `udp-socket`
//! and `resolve-address-stream` methods (creating a socket is refused, as is name resolution:
//! both measured). `wasi:clocks/timezone` is not linked. Not measured, because they do the work
//! of a measured row: the other `wasi:filesystem/types` functions (the path ones, `stat-at`,
//! `metadata-hash-at`, `readlink-at` and every refused change, walk or charge their paths as
//! `open-at` does; the rest are constant work, as `stat` is) and the other preview1 file
//! functions (`preview1_data`'s, over the same tree).

use super::{Sample, endless_budget, human, measure, verdict};
use anyhow::{Context, Result, bail, ensure};
use arena_host::budget::DEFAULT_TURN_FUEL;
use arena_host::data::{DataLimits, DataTree, MAX_PATH_BYTES};
use arena_host::driver::{Driven, drive};
use arena_host::log::BotLog;
use arena_host::runtime::Arena;
use arena_host::store::{BotState, StoreHandles};
use arena_host::wasi::locked_down_ctx;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use wasmtime::component::{Component, TypedFunc};
use wasmtime::{Module, Store};

/// Fuel each measured call starts with: far more than any case spends.
const CALL_FUEL: u64 = 1_000_000_000;
/// The goal: no host call buys more than this many times pure wasm's wall time per fuel.
const RATIO_GOAL: f64 = 8.0;

/// One row: `export(calls, arg)` of [`HOSTCALLS_WAT`] (or [`PREVIEW1_WAT`]), after
/// `setup(len, last)` if any (the log cases fill the message buffer with it, the data cases open
/// their descriptors).
struct Case {
    label: &'static str,
    export: &'static str,
    /// Host calls per measured call (iterations, for the reference).
    calls: u32,
    /// The call's input size: bytes, units, pollables (ignored by fixed-cost functions).
    arg: u32,
    setup: Option<(&'static str, u32, u32)>,
    bot: Bot,
}

/// Which bot a case runs, on what store.
#[derive(Clone, Copy, PartialEq)]
enum Bot {
    /// [`HOSTCALLS_WAT`] on a store without data, as most bots have.
    Plain,
    /// [`HOSTCALLS_WAT`] on a store given [`data_tree`].
    Data,
    /// [`PREVIEW1_WAT`], a core module on WASI preview1, on a store given [`data_tree`].
    Preview1,
}

const fn case(label: &'static str, export: &'static str, calls: u32, arg: u32) -> Case {
    Case { label, export, calls, arg, setup: None, bot: Bot::Plain }
}

/// `case`, whose store first takes `case.arg` timers (`distinct`) or one timer `case.arg` times
/// in the list it polls.
const fn timers(case: Case, distinct: bool) -> Case {
    Case { setup: Some(("timers", case.arg, distinct as u32)), ..case }
}

/// `case`, on a store given [`data_tree`], whose descriptors it opens first (`data`).
const fn data(case: Case) -> Case {
    Case { setup: Some(("data", DEPTH, 0)), bot: Bot::Data, ..case }
}

/// `case` of [`PREVIEW1_WAT`], on a store given [`data_tree`], whose descriptors it opens first.
const fn preview1(case: Case) -> Case {
    Case { setup: Some(("data", 0, 0)), bot: Bot::Preview1, ..case }
}

const MIB: u32 = 1 << 20;
/// The stdout/stderr sinks' `check-write` permit (`wasi::WRITE_PERMIT`).
const PERMIT: u32 = 64 * 1024;
/// wasmtime-wasi's bound on a blocking write.
const BLOCKING_PERMIT: u32 = 4096;
/// Host calls per measured call of a fixed-cost function.
const TIGHT: u32 = 10_000;
/// Entries of the data tree's directory `wide`.
const WIDE: u32 = 10_000;
/// Directories nested in the data tree's `d/d/.../d`, whose path `open-at` walks: the longest
/// path an entry may have (`data::MAX_PATH_BYTES`, 4 KiB).
const DEPTH: u32 = (MAX_PATH_BYTES as u32).div_ceil(2);

/// Pure wasm: [`HOSTCALLS_WAT`]'s arithmetic loop.
const REFERENCE: Case = case("reference: pure wasm, arithmetic loop", "pure", 1_000_000, 1);

fn cases() -> Vec<Case> {
    let log = |label, units, setup: (&'static str, u32, u32)| Case {
        label,
        export: if setup.0 == "fill16" { "log16" } else { "log8" },
        calls: 16,
        arg: units,
        setup: Some(setup),
        bot: Bot::Plain,
    };
    vec![
        log("log, 1 MiB of UTF-8", MIB, ("fill8", MIB, 0x61)),
        log("log, 1 MiB of UTF-8, last byte invalid", MIB, ("fill8", MIB, 0xff)),
        log("log, 1 MiB of UTF-16", MIB / 2, ("fill16", MIB / 2, 0x61)),
        log("log, 1 MiB of UTF-16, lone surrogate at the end", MIB / 2, ("fill16", MIB / 2, 0xd800)),
        Case { calls: 4096, ..log("log, 16 bytes of UTF-8", 16, ("fill8", 16, 0x61)) },
        case("random: get-random-bytes, 1 MiB", "random-bytes", 4, MIB),
        case("random: get-random-u64", "random-u64", TIGHT, 0),
        case("insecure: get-insecure-random-bytes, 1 MiB", "insecure-bytes", 4, MIB),
        case("insecure: get-insecure-random-u64", "insecure-u64", TIGHT, 0),
        case("insecure-seed: insecure-seed", "insecure-seed", TIGHT, 0),
        case("monotonic-clock: now", "monotonic-now", TIGHT, 0),
        case("monotonic-clock: resolution", "monotonic-resolution", TIGHT, 0),
        case("monotonic-clock: subscribe-duration + drop", "subscribe-duration", TIGHT, 0),
        case("monotonic-clock: subscribe-instant + drop", "subscribe-instant", TIGHT, 0),
        case("wall-clock: now", "wall-now", TIGHT, 0),
        case("wall-clock: resolution", "wall-resolution", TIGHT, 0),
        timers(case("poll: poll, 1,024 timers", "poll", 64, 1024), true),
        timers(case("poll: poll, one timer 65,536 times", "poll", 8, 65_536), false),
        timers(case("poll: pollable.ready", "pollable-ready", TIGHT, 1), true),
        timers(case("poll: pollable.block", "pollable-block", TIGHT, 1), true),
        case("stdout: get-stdout + drop", "get-stdout", TIGHT, 0),
        case("stderr: get-stderr + drop", "get-stderr", TIGHT, 0),
        case("streams: check-write", "check-write", TIGHT, 0),
        case("streams: write, 64 KiB", "write", 64, PERMIT),
        case("streams: blocking-write-and-flush, 4 KiB", "blocking-write", 256, BLOCKING_PERMIT),
        case("streams: write-zeroes, 64 KiB", "write-zeroes", 64, PERMIT),
        case("streams: blocking-write-zeroes-and-flush, 4 KiB", "blocking-write-zeroes", 256, BLOCKING_PERMIT),
        case("streams: flush", "flush", TIGHT, 0),
        case("streams: blocking-flush", "blocking-flush", TIGHT, 0),
        case("streams: output-stream.subscribe + drop", "output-subscribe", TIGHT, 0),
        case("streams: splice 64 KiB from stdin (closed)", "splice", TIGHT, PERMIT),
        case("streams: blocking-splice 64 KiB from stdin", "blocking-splice", TIGHT, PERMIT),
        case("stdin: get-stdin + drop", "get-stdin", TIGHT, 0),
        case("streams: read 64 KiB of stdin (closed)", "read", TIGHT, PERMIT),
        case("streams: blocking-read 64 KiB of stdin", "blocking-read", TIGHT, PERMIT),
        case("streams: skip 64 KiB of stdin", "skip", TIGHT, PERMIT),
        case("streams: blocking-skip 64 KiB of stdin", "blocking-skip", TIGHT, PERMIT),
        case("streams: input-stream.subscribe + drop", "input-subscribe", TIGHT, 0),
        case("environment: get-environment (empty)", "get-environment", TIGHT, 0),
        case("environment: get-arguments (empty)", "get-arguments", TIGHT, 0),
        case("environment: initial-cwd (none)", "initial-cwd", TIGHT, 0),
        case("terminal-stdin: get-terminal-stdin (none)", "terminal-stdin", TIGHT, 0),
        case("terminal-stdout: get-terminal-stdout (none)", "terminal-stdout", TIGHT, 0),
        case("terminal-stderr: get-terminal-stderr (none)", "terminal-stderr", TIGHT, 0),
        case("preopens: get-directories (empty)", "get-directories", TIGHT, 0),
        case("instance-network: instance-network + drop", "instance-network", TIGHT, 0),
        case("tcp-create-socket: create-tcp-socket (refused)", "create-tcp", TIGHT, 0),
        case("udp-create-socket: create-udp-socket (refused)", "create-udp", TIGHT, 0),
        case("ip-name-lookup: resolve-addresses, 1 MiB name", "resolve", TIGHT, MIB),
        data(case("filesystem: descriptor.read, 1 MiB", "fs-read", 4, MIB)),
        data(case("filesystem: read-via-stream + blocking-read, 1 MiB", "fs-stream-read", 4, MIB)),
        data(case("filesystem: read-directory drained, 10,000 entries", "fs-read-directory", 1, WIDE)),
        data(case("filesystem: open-at + drop, 4 KiB path, 2,048 dirs", "fs-open-at", 256, 0)),
        data(case("filesystem: descriptor.stat", "fs-stat", TIGHT, 0)),
        data(case("filesystem: descriptor.metadata-hash", "fs-metadata-hash", TIGHT, 0)),
        preview1(case("preview1: fd_seek + fd_read, 1 MiB", "fd-read", 4, MIB)),
        preview1(case("preview1: fd_readdir, 10,000 entries in one call", "fd-readdir", 4, MIB)),
    ]
}

/// The data folder of the data cases, built in memory: `big.bin` (1 MiB), `wide/` ([`WIDE`]
/// empty files named by number, `00000` to `09999`) and [`DEPTH`] nested directories `d/d/.../d`.
/// Over the default limits' 10,000 entries: an arena may allow more (`Arena::with_data_limits`).
fn data_tree() -> Result<Arc<DataTree>> {
    let entries = (WIDE + DEPTH) as usize + 2;
    let mut tree = DataTree::builder(DataLimits { max_entries: entries, ..DataLimits::DEFAULT });
    tree.file("big.bin", vec![0x61; MIB as usize])?;
    for i in 0..WIDE {
        tree.file(&format!("wide/{i:05}"), "")?;
    }
    tree.dir(&vec!["d"; DEPTH as usize].join("/"))?;
    Ok(Arc::new(tree.build()))
}

pub fn hostcalls() -> Result<()> {
    let arena = Arena::new()?;
    let component = Component::new(arena.engine(), HOSTCALLS_WAT)
        .map_err(anyhow::Error::from)
        .context("the host-call bench's component")?;
    let module = Module::new(arena.engine(), PREVIEW1_WAT)
        .map_err(anyhow::Error::from)
        .context("the host-call bench's preview1 module")?;
    let tree = data_tree()?;
    let bots = Bots { component: &component, module: &module, tree: &tree };
    println!("8. host calls: wall time per unit of fuel of a loop of each host function, against pure wasm");
    let (reference, reference_fuel) = per_fuel(&arena, &bots, &REFERENCE)?;
    println!(
        "  {:<50} {:>7.3} ns/fuel  [{:.3}..{:.3}]  {} fuel/call",
        REFERENCE.label, reference.median, reference.low, reference.high, reference_fuel
    );
    let mut worst: Option<(&str, f64, f64)> = None;
    let cases = cases();
    let mut over = 0;
    for case in &cases {
        let (sample, fuel) = per_fuel(&arena, &bots, case)?;
        let ratio = sample.median / reference.median;
        println!(
            "  {:<50} {:>7.3} ns/fuel  ({ratio:>6.1}x pure wasm)  {} fuel/host call",
            case.label,
            sample.median,
            fuel / u64::from(case.calls)
        );
        over += usize::from(ratio > RATIO_GOAL);
        if worst.is_none_or(|(_, worst_ratio, _)| ratio > worst_ratio) {
            worst = Some((case.label, ratio, sample.median));
        }
    }
    let (label, ratio, ns) = worst.context("no host calls measured")?;
    verdict(
        "host calls: the worst against pure wasm",
        format!("{ratio:.1}x, {label} ({over} of {} over)", cases.len()),
        &format!("every host call within {RATIO_GOAL}x of pure wasm's ns per fuel"),
        ratio <= RATIO_GOAL,
    );
    println!(
        "  {:<50} {:>10}  (backstop {} s)",
        "  a default turn's fuel spent on it",
        human(ns * DEFAULT_TURN_FUEL as f64),
        endless_budget().backstop_ms / 1000
    );
    println!();
    Ok(())
}

/// The bench's bots, and the data folder of the data cases.
struct Bots<'a> {
    component: &'a Component,
    module: &'a Module,
    tree: &'a Arc<DataTree>,
}

/// An export of a case's instance: a component's, or a preview1 core module's.
enum Export {
    Component(TypedFunc<(u32, u32), ()>),
    Core(wasmtime::TypedFunc<(i32, i32), ()>),
}

impl Export {
    fn get(instance: &Instance, store: &mut Store<BotState>, name: &str) -> Result<Export> {
        Ok(match instance {
            Instance::Component(instance) => Export::Component(instance.get_typed_func(&mut *store, name)?),
            Instance::Core(instance) => Export::Core(instance.get_typed_func(&mut *store, name)?),
        })
    }

    /// Calls the export with `(a, b)`, driven to its end by [`finish`].
    fn call(
        &self,
        arena: &Arena,
        handles: &StoreHandles,
        backstop_ms: u64,
        store: &mut Store<BotState>,
        (a, b): (u32, u32),
    ) -> Result<()> {
        match self {
            Export::Component(func) => finish(arena, handles, backstop_ms, func.call_async(store, (a, b))),
            Export::Core(func) => finish(arena, handles, backstop_ms, func.call_async(store, (a as i32, b as i32))),
        }
    }
}

enum Instance {
    Component(wasmtime::component::Instance),
    Core(wasmtime::Instance),
}

/// Times `case` on a fresh store: wall time per unit of fuel of one call, and the fuel it spends.
fn per_fuel(arena: &Arena, bots: &Bots<'_>, case: &Case) -> Result<(Sample, u64)> {
    let budget = endless_budget();
    let log = BotLog::default();
    let handles = StoreHandles::fresh(&log, &Arc::new(AtomicU64::new(u64::MAX)));
    let wasi = locked_down_ctx(1, &[0; 32], &log, &handles.clock);
    let mut store = arena.new_store(&budget, wasi, &handles);
    if case.bot != Bot::Plain {
        store.data_mut().set_data(bots.tree.clone());
    }
    store.set_fuel(CALL_FUEL)?;
    let backstop = budget.backstop_ms;
    let instance = match case.bot {
        Bot::Plain | Bot::Data => Instance::Component(finish(
            arena,
            &handles,
            backstop,
            arena.linker().instantiate_async(&mut store, bots.component),
        )?),
        Bot::Preview1 => Instance::Core(finish(
            arena,
            &handles,
            backstop,
            arena.sandbox().preview1_linker().instantiate_async(&mut store, bots.module),
        )?),
    };
    if let Some((setup, len, last)) = case.setup {
        Export::get(&instance, &mut store, setup)?.call(arena, &handles, backstop, &mut store, (len, last))?;
    }
    let run = Export::get(&instance, &mut store, case.export)?;
    let mut call = || -> Result<u64> {
        store.set_fuel(CALL_FUEL)?;
        run.call(arena, &handles, backstop, &mut store, (case.calls, case.arg))
            .with_context(|| format!("{}: the measured call failed", case.label))?;
        let spent = CALL_FUEL - store.get_fuel()?;
        ensure!(spent > 0, "{}: the call spent no fuel", case.label);
        Ok(spent)
    };
    let fuel = call()?;
    let sample = measure(|| {
        let spent = call()?;
        ensure!(spent == fuel, "{}: {fuel} fuel, then {spent}: fuel is deterministic", case.label);
        Ok(())
    })?;
    Ok((sample.per(fuel as usize), fuel))
}

/// Drives `call` to its end with the arena's driver: an error if it trapped or did not finish.
fn finish<T>(
    arena: &Arena,
    handles: &StoreHandles,
    backstop_ms: u64,
    call: impl std::future::Future<Output = wasmtime::Result<T>>,
) -> Result<T> {
    match drive(arena.sandbox(), &handles.deadline, backstop_ms, &handles.meter, std::pin::pin!(call), false, &|| false)
    {
        Driven::Ready(result) => Ok(result?),
        Driven::Suspended | Driven::Stuck | Driven::Idle => bail!("the call did not finish"),
    }
}

/// The bench's bot: every WASI interface the arena links, imported at 0.2.0 (linked to the
/// 0.2.x wasmtime-wasi defines), and `arena:common/log`; one export per [`Case`], each taking
/// `(calls, arg)`. Memory: the message and write buffer at 0 (1 MiB), everything the host
/// allocates in the guest at 1 MiB (the realloc always answers that address: the answers
/// measured are dropped; the data cases' setup keeps its preopen in a bump allocator's space at
/// 3.5 MiB), the pollable handle list at 2 MiB, the path `open-at` walks at 3 MiB, return areas
/// at `0x3f0000`. Results that must succeed (writes, `check-write`, `flush`, the data folder's
/// reads, listings and opens) or fail (socket creation, name lookup) are checked and trap
/// otherwise.
const HOSTCALLS_WAT: &str = r#"(component
  (import "wasi:io/error@0.2.0" (instance $io_error (export "error" (type (sub resource)))))
  (alias export $io_error "error" (type $error))
  (import "wasi:io/poll@0.2.0" (instance $io_poll
    (export "pollable" (type $p (sub resource)))
    (export "poll" (func (param "in" (list (borrow $p))) (result (list u32))))
    (export "[method]pollable.ready" (func (param "self" (borrow $p)) (result bool)))
    (export "[method]pollable.block" (func (param "self" (borrow $p))))))
  (alias export $io_poll "pollable" (type $pollable))
  (import "wasi:io/streams@0.2.0" (instance $io_streams
    (alias outer 1 $error (type $e0)) (export "error" (type $e (eq $e0)))
    (alias outer 1 $pollable (type $p0)) (export "pollable" (type $p (eq $p0)))
    (type $se0 (variant (case "last-operation-failed" (own $e)) (case "closed")))
    (export "stream-error" (type $se (eq $se0)))
    (export "input-stream" (type $in (sub resource)))
    (export "output-stream" (type $out (sub resource)))
    (export "[method]input-stream.read" (func (param "self" (borrow $in)) (param "len" u64) (result (result (list u8) (error $se)))))
    (export "[method]input-stream.blocking-read" (func (param "self" (borrow $in)) (param "len" u64) (result (result (list u8) (error $se)))))
    (export "[method]input-stream.skip" (func (param "self" (borrow $in)) (param "len" u64) (result (result u64 (error $se)))))
    (export "[method]input-stream.blocking-skip" (func (param "self" (borrow $in)) (param "len" u64) (result (result u64 (error $se)))))
    (export "[method]input-stream.subscribe" (func (param "self" (borrow $in)) (result (own $p))))
    (export "[method]output-stream.check-write" (func (param "self" (borrow $out)) (result (result u64 (error $se)))))
    (export "[method]output-stream.write" (func (param "self" (borrow $out)) (param "contents" (list u8)) (result (result (error $se)))))
    (export "[method]output-stream.blocking-write-and-flush" (func (param "self" (borrow $out)) (param "contents" (list u8)) (result (result (error $se)))))
    (export "[method]output-stream.flush" (func (param "self" (borrow $out)) (result (result (error $se)))))
    (export "[method]output-stream.blocking-flush" (func (param "self" (borrow $out)) (result (result (error $se)))))
    (export "[method]output-stream.subscribe" (func (param "self" (borrow $out)) (result (own $p))))
    (export "[method]output-stream.write-zeroes" (func (param "self" (borrow $out)) (param "len" u64) (result (result (error $se)))))
    (export "[method]output-stream.blocking-write-zeroes-and-flush" (func (param "self" (borrow $out)) (param "len" u64) (result (result (error $se)))))
    (export "[method]output-stream.splice" (func (param "self" (borrow $out)) (param "src" (borrow $in)) (param "len" u64) (result (result u64 (error $se)))))
    (export "[method]output-stream.blocking-splice" (func (param "self" (borrow $out)) (param "src" (borrow $in)) (param "len" u64) (result (result u64 (error $se)))))))
  (alias export $io_streams "input-stream" (type $input_stream))
  (alias export $io_streams "output-stream" (type $output_stream))
  (import "wasi:cli/stdin@0.2.0" (instance $stdin
    (alias outer 1 $input_stream (type $i0)) (export "input-stream" (type $i (eq $i0)))
    (export "get-stdin" (func (result (own $i))))))
  (import "wasi:cli/stdout@0.2.0" (instance $stdout
    (alias outer 1 $output_stream (type $o0)) (export "output-stream" (type $o (eq $o0)))
    (export "get-stdout" (func (result (own $o))))))
  (import "wasi:cli/stderr@0.2.0" (instance $stderr
    (alias outer 1 $output_stream (type $o0)) (export "output-stream" (type $o (eq $o0)))
    (export "get-stderr" (func (result (own $o))))))
  (import "wasi:cli/environment@0.2.0" (instance $environment
    (export "get-environment" (func (result (list (tuple string string)))))
    (export "get-arguments" (func (result (list string))))
    (export "initial-cwd" (func (result (option string))))))
  (import "wasi:cli/terminal-input@0.2.0" (instance $terminal_input (export "terminal-input" (type (sub resource)))))
  (alias export $terminal_input "terminal-input" (type $terminal_in))
  (import "wasi:cli/terminal-output@0.2.0" (instance $terminal_output (export "terminal-output" (type (sub resource)))))
  (alias export $terminal_output "terminal-output" (type $terminal_out))
  (import "wasi:cli/terminal-stdin@0.2.0" (instance $terminal_stdin
    (alias outer 1 $terminal_in (type $t0)) (export "terminal-input" (type $t (eq $t0)))
    (export "get-terminal-stdin" (func (result (option (own $t)))))))
  (import "wasi:cli/terminal-stdout@0.2.0" (instance $terminal_stdout
    (alias outer 1 $terminal_out (type $t0)) (export "terminal-output" (type $t (eq $t0)))
    (export "get-terminal-stdout" (func (result (option (own $t)))))))
  (import "wasi:cli/terminal-stderr@0.2.0" (instance $terminal_stderr
    (alias outer 1 $terminal_out (type $t0)) (export "terminal-output" (type $t (eq $t0)))
    (export "get-terminal-stderr" (func (result (option (own $t)))))))
  (import "wasi:clocks/monotonic-clock@0.2.0" (instance $monotonic
    (alias outer 1 $pollable (type $p0)) (export "pollable" (type $p (eq $p0)))
    (export "now" (func (result u64)))
    (export "resolution" (func (result u64)))
    (export "subscribe-instant" (func (param "when" u64) (result (own $p))))
    (export "subscribe-duration" (func (param "when" u64) (result (own $p))))))
  (import "wasi:clocks/wall-clock@0.2.0" (instance $wall
    (type $dt0 (record (field "seconds" u64) (field "nanoseconds" u32)))
    (export "datetime" (type $dt (eq $dt0)))
    (export "now" (func (result $dt)))
    (export "resolution" (func (result $dt)))))
  (import "wasi:random/random@0.2.0" (instance $random
    (export "get-random-bytes" (func (param "len" u64) (result (list u8))))
    (export "get-random-u64" (func (result u64)))))
  (import "wasi:random/insecure@0.2.0" (instance $insecure
    (export "get-insecure-random-bytes" (func (param "len" u64) (result (list u8))))
    (export "get-insecure-random-u64" (func (result u64)))))
  (import "wasi:random/insecure-seed@0.2.0" (instance $insecure_seed
    (export "insecure-seed" (func (result (tuple u64 u64))))))
  (alias export $wall "datetime" (type $datetime))
  (import "wasi:filesystem/types@0.2.0" (instance $fs_types
    (alias outer 1 $input_stream (type $in0)) (export "input-stream" (type $in (eq $in0)))
    (alias outer 1 $datetime (type $dt0)) (export "datetime" (type $dt (eq $dt0)))
    (type $dtype0 (enum "unknown" "block-device" "character-device" "directory" "fifo" "symbolic-link" "regular-file" "socket"))
    (export "descriptor-type" (type $dtype (eq $dtype0)))
    (type $dflags0 (flags "read" "write" "file-integrity-sync" "data-integrity-sync" "requested-write-sync" "mutate-directory"))
    (export "descriptor-flags" (type $dflags (eq $dflags0)))
    (type $pflags0 (flags "symlink-follow"))
    (export "path-flags" (type $pflags (eq $pflags0)))
    (type $oflags0 (flags "create" "directory" "exclusive" "truncate"))
    (export "open-flags" (type $oflags (eq $oflags0)))
    (type $stat0 (record (field "type" $dtype) (field "link-count" u64) (field "size" u64)
      (field "data-access-timestamp" (option $dt)) (field "data-modification-timestamp" (option $dt))
      (field "status-change-timestamp" (option $dt))))
    (export "descriptor-stat" (type $stat (eq $stat0)))
    (type $entry0 (record (field "type" $dtype) (field "name" string)))
    (export "directory-entry" (type $entry (eq $entry0)))
    (type $ec0 (enum "access" "would-block" "already" "bad-descriptor" "busy" "deadlock" "quota" "exist"
      "file-too-large" "illegal-byte-sequence" "in-progress" "interrupted" "invalid" "io" "is-directory"
      "loop" "too-many-links" "message-size" "name-too-long" "no-device" "no-entry" "no-lock"
      "insufficient-memory" "insufficient-space" "not-directory" "not-empty" "not-recoverable" "unsupported"
      "no-tty" "no-such-device" "overflow" "not-permitted" "pipe" "read-only" "invalid-seek" "text-file-busy"
      "cross-device"))
    (export "error-code" (type $ec (eq $ec0)))
    (type $mh0 (record (field "lower" u64) (field "upper" u64)))
    (export "metadata-hash-value" (type $mh (eq $mh0)))
    (export "descriptor" (type $d (sub resource)))
    (export "directory-entry-stream" (type $des (sub resource)))
    (export "[method]descriptor.read-via-stream" (func (param "self" (borrow $d)) (param "offset" u64) (result (result (own $in) (error $ec)))))
    (export "[method]descriptor.read" (func (param "self" (borrow $d)) (param "length" u64) (param "offset" u64) (result (result (tuple (list u8) bool) (error $ec)))))
    (export "[method]descriptor.read-directory" (func (param "self" (borrow $d)) (result (result (own $des) (error $ec)))))
    (export "[method]descriptor.stat" (func (param "self" (borrow $d)) (result (result $stat (error $ec)))))
    (export "[method]descriptor.open-at" (func (param "self" (borrow $d)) (param "path-flags" $pflags) (param "path" string) (param "open-flags" $oflags) (param "flags" $dflags) (result (result (own $d) (error $ec)))))
    (export "[method]descriptor.metadata-hash" (func (param "self" (borrow $d)) (result (result $mh (error $ec)))))
    (export "[method]directory-entry-stream.read-directory-entry" (func (param "self" (borrow $des)) (result (result (option $entry) (error $ec)))))))
  (alias export $fs_types "descriptor" (type $descriptor))
  (alias export $fs_types "directory-entry-stream" (type $entry_stream))
  (import "wasi:filesystem/preopens@0.2.0" (instance $preopens
    (alias outer 1 $descriptor (type $d0)) (export "descriptor" (type $d (eq $d0)))
    (export "get-directories" (func (result (list (tuple (own $d) string)))))))
  (import "wasi:sockets/network@0.2.0" (instance $network
    (export "network" (type (sub resource)))
    (type $ec0 (enum "unknown" "access-denied" "not-supported" "invalid-argument" "out-of-memory"
      "timeout" "concurrency-conflict" "not-in-progress" "would-block" "invalid-state"
      "new-socket-limit" "address-not-bindable" "address-in-use" "remote-unreachable"
      "connection-refused" "connection-reset" "connection-aborted" "datagram-too-large"
      "name-unresolvable" "temporary-resolver-failure" "permanent-resolver-failure"))
    (export "error-code" (type (eq $ec0)))
    (type $af0 (enum "ipv4" "ipv6"))
    (export "ip-address-family" (type (eq $af0)))))
  (alias export $network "network" (type $net))
  (alias export $network "error-code" (type $error_code))
  (alias export $network "ip-address-family" (type $family))
  (import "wasi:sockets/instance-network@0.2.0" (instance $instance_network
    (alias outer 1 $net (type $n0)) (export "network" (type $n (eq $n0)))
    (export "instance-network" (func (result (own $n))))))
  (import "wasi:sockets/ip-name-lookup@0.2.0" (instance $lookup
    (alias outer 1 $net (type $n0)) (export "network" (type $n (eq $n0)))
    (alias outer 1 $error_code (type $ec0)) (export "error-code" (type $ec (eq $ec0)))
    (export "resolve-address-stream" (type $s (sub resource)))
    (export "resolve-addresses" (func (param "network" (borrow $n)) (param "name" string) (result (result (own $s) (error $ec)))))))
  (import "wasi:sockets/tcp@0.2.0" (instance $tcp (export "tcp-socket" (type (sub resource)))))
  (alias export $tcp "tcp-socket" (type $tcp_socket))
  (import "wasi:sockets/tcp-create-socket@0.2.0" (instance $tcp_create
    (alias outer 1 $error_code (type $ec0)) (export "error-code" (type $ec (eq $ec0)))
    (alias outer 1 $family (type $af0)) (export "ip-address-family" (type $af (eq $af0)))
    (alias outer 1 $tcp_socket (type $t0)) (export "tcp-socket" (type $t (eq $t0)))
    (export "create-tcp-socket" (func (param "address-family" $af) (result (result (own $t) (error $ec)))))))
  (import "wasi:sockets/udp@0.2.0" (instance $udp (export "udp-socket" (type (sub resource)))))
  (alias export $udp "udp-socket" (type $udp_socket))
  (import "wasi:sockets/udp-create-socket@0.2.0" (instance $udp_create
    (alias outer 1 $error_code (type $ec0)) (export "error-code" (type $ec (eq $ec0)))
    (alias outer 1 $family (type $af0)) (export "ip-address-family" (type $af (eq $af0)))
    (alias outer 1 $udp_socket (type $u0)) (export "udp-socket" (type $u (eq $u0)))
    (export "create-udp-socket" (func (param "address-family" $af) (result (result (own $u) (error $ec)))))))
  (type $log_instance (instance
    (type $level (enum "debug" "info" "warn" "error"))
    (export "level" (type $level_eq (eq $level)))
    (export "log" (func (param "level" $level_eq) (param "message" string)))))
  (import "arena:common/log@0.1.0" (instance $log (type $log_instance)))

  (core module $mem (memory (export "memory") 64))
  (core instance $mem (instantiate $mem))
  (core module $alloc
    (func (export "realloc") (param i32 i32 i32 i32) (result i32) (i32.const 0x100000))
    ;; The data cases' setup keeps what `get-directories` answers: a bump allocator from 3.5 MiB.
    (global $next (mut i32) (i32.const 0x380000))
    (func (export "bump") (param i32 i32 i32 i32) (result i32)
      (global.get $next)
      (global.set $next (i32.add (global.get $next) (i32.and (i32.add (local.get 3) (i32.const 7)) (i32.const -8))))))
  (core instance $alloc (instantiate $alloc))

  (core func $log8 (canon lower (func $log "log") (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $log16 (canon lower (func $log "log") (memory (core memory $mem "memory")) string-encoding=utf16))
  (core func $poll (canon lower (func $io_poll "poll") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $ready (canon lower (func $io_poll "[method]pollable.ready")))
  (core func $block (canon lower (func $io_poll "[method]pollable.block")))
  (core func $read (canon lower (func $io_streams "[method]input-stream.read") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $blocking_read (canon lower (func $io_streams "[method]input-stream.blocking-read") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $skip (canon lower (func $io_streams "[method]input-stream.skip") (memory (core memory $mem "memory"))))
  (core func $blocking_skip (canon lower (func $io_streams "[method]input-stream.blocking-skip") (memory (core memory $mem "memory"))))
  (core func $input_subscribe (canon lower (func $io_streams "[method]input-stream.subscribe")))
  (core func $check_write (canon lower (func $io_streams "[method]output-stream.check-write") (memory (core memory $mem "memory"))))
  (core func $write (canon lower (func $io_streams "[method]output-stream.write") (memory (core memory $mem "memory"))))
  (core func $blocking_write (canon lower (func $io_streams "[method]output-stream.blocking-write-and-flush") (memory (core memory $mem "memory"))))
  (core func $flush (canon lower (func $io_streams "[method]output-stream.flush") (memory (core memory $mem "memory"))))
  (core func $blocking_flush (canon lower (func $io_streams "[method]output-stream.blocking-flush") (memory (core memory $mem "memory"))))
  (core func $output_subscribe (canon lower (func $io_streams "[method]output-stream.subscribe")))
  (core func $write_zeroes (canon lower (func $io_streams "[method]output-stream.write-zeroes") (memory (core memory $mem "memory"))))
  (core func $blocking_write_zeroes (canon lower (func $io_streams "[method]output-stream.blocking-write-zeroes-and-flush") (memory (core memory $mem "memory"))))
  (core func $splice (canon lower (func $io_streams "[method]output-stream.splice") (memory (core memory $mem "memory"))))
  (core func $blocking_splice (canon lower (func $io_streams "[method]output-stream.blocking-splice") (memory (core memory $mem "memory"))))
  (core func $get_stdin (canon lower (func $stdin "get-stdin")))
  (core func $get_stdout (canon lower (func $stdout "get-stdout")))
  (core func $get_stderr (canon lower (func $stderr "get-stderr")))
  (core func $get_environment (canon lower (func $environment "get-environment") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $get_arguments (canon lower (func $environment "get-arguments") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $initial_cwd (canon lower (func $environment "initial-cwd") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $terminal_stdin (canon lower (func $terminal_stdin "get-terminal-stdin") (memory (core memory $mem "memory"))))
  (core func $terminal_stdout (canon lower (func $terminal_stdout "get-terminal-stdout") (memory (core memory $mem "memory"))))
  (core func $terminal_stderr (canon lower (func $terminal_stderr "get-terminal-stderr") (memory (core memory $mem "memory"))))
  (core func $monotonic_now (canon lower (func $monotonic "now")))
  (core func $monotonic_resolution (canon lower (func $monotonic "resolution")))
  (core func $subscribe_instant (canon lower (func $monotonic "subscribe-instant")))
  (core func $subscribe_duration (canon lower (func $monotonic "subscribe-duration")))
  (core func $wall_now (canon lower (func $wall "now") (memory (core memory $mem "memory"))))
  (core func $wall_resolution (canon lower (func $wall "resolution") (memory (core memory $mem "memory"))))
  (core func $random_bytes (canon lower (func $random "get-random-bytes") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $random_u64 (canon lower (func $random "get-random-u64")))
  (core func $insecure_bytes (canon lower (func $insecure "get-insecure-random-bytes") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $insecure_u64 (canon lower (func $insecure "get-insecure-random-u64")))
  (core func $insecure_seed (canon lower (func $insecure_seed "insecure-seed") (memory (core memory $mem "memory"))))
  (core func $get_directories (canon lower (func $preopens "get-directories") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $data_preopen (canon lower (func $preopens "get-directories") (memory (core memory $mem "memory")) (realloc (core func $alloc "bump"))))
  (core func $fs_read (canon lower (func $fs_types "[method]descriptor.read") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $fs_read_via_stream (canon lower (func $fs_types "[method]descriptor.read-via-stream") (memory (core memory $mem "memory"))))
  (core func $fs_read_directory (canon lower (func $fs_types "[method]descriptor.read-directory") (memory (core memory $mem "memory"))))
  (core func $fs_read_directory_entry (canon lower (func $fs_types "[method]directory-entry-stream.read-directory-entry") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc")) string-encoding=utf8))
  (core func $fs_stat (canon lower (func $fs_types "[method]descriptor.stat") (memory (core memory $mem "memory"))))
  (core func $fs_open_at (canon lower (func $fs_types "[method]descriptor.open-at") (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $fs_metadata_hash (canon lower (func $fs_types "[method]descriptor.metadata-hash") (memory (core memory $mem "memory"))))
  (core func $instance_network (canon lower (func $instance_network "instance-network")))
  (core func $resolve (canon lower (func $lookup "resolve-addresses") (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $create_tcp (canon lower (func $tcp_create "create-tcp-socket") (memory (core memory $mem "memory"))))
  (core func $create_udp (canon lower (func $udp_create "create-udp-socket") (memory (core memory $mem "memory"))))
  (core func $drop_pollable (canon resource.drop $pollable))
  (core func $drop_input (canon resource.drop $input_stream))
  (core func $drop_output (canon resource.drop $output_stream))
  (core func $drop_network (canon resource.drop $net))
  (core func $drop_descriptor (canon resource.drop $descriptor))
  (core func $drop_entry_stream (canon resource.drop $entry_stream))

  (core module $bot
    (import "mem" "memory" (memory 64))
    (import "host" "log8" (func $log8 (param i32 i32 i32)))
    (import "host" "log16" (func $log16 (param i32 i32 i32)))
    (import "host" "poll" (func $poll (param i32 i32 i32)))
    (import "host" "ready" (func $ready (param i32) (result i32)))
    (import "host" "block" (func $block (param i32)))
    (import "host" "read" (func $read (param i32 i64 i32)))
    (import "host" "blocking-read" (func $blocking_read (param i32 i64 i32)))
    (import "host" "skip" (func $skip (param i32 i64 i32)))
    (import "host" "blocking-skip" (func $blocking_skip (param i32 i64 i32)))
    (import "host" "input-subscribe" (func $input_subscribe (param i32) (result i32)))
    (import "host" "check-write" (func $check_write (param i32 i32)))
    (import "host" "write" (func $write (param i32 i32 i32 i32)))
    (import "host" "blocking-write" (func $blocking_write (param i32 i32 i32 i32)))
    (import "host" "flush" (func $flush (param i32 i32)))
    (import "host" "blocking-flush" (func $blocking_flush (param i32 i32)))
    (import "host" "output-subscribe" (func $output_subscribe (param i32) (result i32)))
    (import "host" "write-zeroes" (func $write_zeroes (param i32 i64 i32)))
    (import "host" "blocking-write-zeroes" (func $blocking_write_zeroes (param i32 i64 i32)))
    (import "host" "splice" (func $splice (param i32 i32 i64 i32)))
    (import "host" "blocking-splice" (func $blocking_splice (param i32 i32 i64 i32)))
    (import "host" "get-stdin" (func $get_stdin (result i32)))
    (import "host" "get-stdout" (func $get_stdout (result i32)))
    (import "host" "get-stderr" (func $get_stderr (result i32)))
    (import "host" "get-environment" (func $get_environment (param i32)))
    (import "host" "get-arguments" (func $get_arguments (param i32)))
    (import "host" "initial-cwd" (func $initial_cwd (param i32)))
    (import "host" "terminal-stdin" (func $terminal_stdin (param i32)))
    (import "host" "terminal-stdout" (func $terminal_stdout (param i32)))
    (import "host" "terminal-stderr" (func $terminal_stderr (param i32)))
    (import "host" "monotonic-now" (func $monotonic_now (result i64)))
    (import "host" "monotonic-resolution" (func $monotonic_resolution (result i64)))
    (import "host" "subscribe-instant" (func $subscribe_instant (param i64) (result i32)))
    (import "host" "subscribe-duration" (func $subscribe_duration (param i64) (result i32)))
    (import "host" "wall-now" (func $wall_now (param i32)))
    (import "host" "wall-resolution" (func $wall_resolution (param i32)))
    (import "host" "random-bytes" (func $random_bytes (param i64 i32)))
    (import "host" "random-u64" (func $random_u64 (result i64)))
    (import "host" "insecure-bytes" (func $insecure_bytes (param i64 i32)))
    (import "host" "insecure-u64" (func $insecure_u64 (result i64)))
    (import "host" "insecure-seed" (func $insecure_seed (param i32)))
    (import "host" "get-directories" (func $get_directories (param i32)))
    (import "host" "instance-network" (func $instance_network (result i32)))
    (import "host" "resolve" (func $resolve (param i32 i32 i32 i32)))
    (import "host" "create-tcp" (func $create_tcp (param i32 i32)))
    (import "host" "create-udp" (func $create_udp (param i32 i32)))
    (import "host" "drop-pollable" (func $drop_pollable (param i32)))
    (import "host" "drop-input" (func $drop_input (param i32)))
    (import "host" "drop-output" (func $drop_output (param i32)))
    (import "host" "drop-network" (func $drop_network (param i32)))
    (import "host" "data-preopen" (func $data_preopen (param i32)))
    (import "host" "fs-read" (func $fs_read (param i32 i64 i64 i32)))
    (import "host" "fs-read-via-stream" (func $fs_read_via_stream (param i32 i64 i32)))
    (import "host" "fs-read-directory" (func $fs_read_directory (param i32 i32)))
    (import "host" "fs-read-directory-entry" (func $fs_read_directory_entry (param i32 i32)))
    (import "host" "fs-stat" (func $fs_stat (param i32 i32)))
    (import "host" "fs-open-at" (func $fs_open_at (param i32 i32 i32 i32 i32 i32 i32)))
    (import "host" "fs-metadata-hash" (func $fs_metadata_hash (param i32 i32)))
    (import "host" "drop-descriptor" (func $drop_descriptor (param i32)))
    (import "host" "drop-entry-stream" (func $drop_entry_stream (param i32)))
    (global $ret i32 (i32.const 0x3f0000))
    (global $list i32 (i32.const 0x200000))
    ;; The data cases' descriptors (`data` opens them) and the path `open-at` walks.
    (global $file (mut i32) (i32.const 0))
    (global $wide (mut i32) (i32.const 0))
    (global $path i32 (i32.const 0x300000))
    (global $path_len (mut i32) (i32.const 0))
    (data (i32.const 0x3e0000) "big.bin")
    (data (i32.const 0x3e0010) "wide")

    ;; The reference: an LCG and a running sum, 17 fuel an iteration.
    (func (export "pure") (param $k i32) (param $seed i32)
      (local $x i64) (local $sum i64)
      (local.set $x (i64.extend_i32_u (local.get $seed)))
      (loop $l
        (local.set $x (i64.add (i64.mul (local.get $x) (i64.const 6364136223846793005)) (i64.const 1442695040888963407)))
        (local.set $sum (i64.add (local.get $sum) (i64.shr_u (local.get $x) (i64.const 33))))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (i64.store (global.get $ret) (local.get $sum)))

    (func (export "fill8") (param $len i32) (param $last i32)
      (memory.fill (i32.const 0) (i32.const 0x61) (local.get $len))
      (i32.store8 (i32.sub (local.get $len) (i32.const 1)) (local.get $last)))
    (func (export "fill16") (param $units i32) (param $last i32)
      (local $i i32)
      (loop $l
        (i32.store16 (i32.shl (local.get $i) (i32.const 1)) (i32.const 0x61))
        (br_if $l (i32.ne (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $units))))
      (i32.store16 (i32.shl (i32.sub (local.get $units) (i32.const 1)) (i32.const 1)) (local.get $last)))
    (func (export "log8") (param $k i32) (param $len i32)
      (loop $l
        (call $log8 (i32.const 1) (i32.const 0) (local.get $len))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "log16") (param $k i32) (param $units i32)
      (loop $l
        (call $log16 (i32.const 1) (i32.const 0) (local.get $units))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))

    (func (export "random-bytes") (param $k i32) (param $len i32)
      (loop $l
        (call $random_bytes (i64.extend_i32_u (local.get $len)) (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "random-u64") (param $k i32) (param i32)
      (loop $l
        (drop (call $random_u64))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "insecure-bytes") (param $k i32) (param $len i32)
      (loop $l
        (call $insecure_bytes (i64.extend_i32_u (local.get $len)) (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "insecure-u64") (param $k i32) (param i32)
      (loop $l
        (drop (call $insecure_u64))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "insecure-seed") (param $k i32) (param i32)
      (loop $l
        (call $insecure_seed (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))

    (func (export "monotonic-now") (param $k i32) (param i32)
      (loop $l
        (drop (call $monotonic_now))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "monotonic-resolution") (param $k i32) (param i32)
      (loop $l
        (drop (call $monotonic_resolution))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "subscribe-duration") (param $k i32) (param i32)
      (loop $l
        (call $drop_pollable (call $subscribe_duration (i64.const 1000)))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "subscribe-instant") (param $k i32) (param i32)
      (loop $l
        (call $drop_pollable (call $subscribe_instant (i64.const 1000)))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "wall-now") (param $k i32) (param i32)
      (loop $l
        (call $wall_now (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "wall-resolution") (param $k i32) (param i32)
      (loop $l
        (call $wall_resolution (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))

    ;; The setup of the poll cases: the list holds `n` timers (`distinct`) or one timer `n`
    ;; times, each ready at once (the clock is virtual); the store keeps them.
    (func (export "timers") (param $n i32) (param $distinct i32)
      (local $i i32) (local $timer i32)
      (loop $take
        (if (i32.or (local.get $distinct) (i32.eqz (local.get $i)))
          (then (local.set $timer (call $subscribe_duration (i64.const 0)))))
        (i32.store (i32.add (global.get $list) (i32.shl (local.get $i) (i32.const 2))) (local.get $timer))
        (br_if $take (i32.ne (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $n)))))
    (func (export "poll") (param $k i32) (param $n i32)
      (loop $l
        (call $poll (global.get $list) (local.get $n) (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "pollable-ready") (param $k i32) (param i32)
      (loop $l
        (drop (call $ready (i32.load (global.get $list))))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "pollable-block") (param $k i32) (param i32)
      (loop $l
        (call $block (i32.load (global.get $list)))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))

    (func (export "get-stdout") (param $k i32) (param i32)
      (loop $l
        (call $drop_output (call $get_stdout))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "get-stderr") (param $k i32) (param i32)
      (loop $l
        (call $drop_output (call $get_stderr))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "get-stdin") (param $k i32) (param i32)
      (loop $l
        (call $drop_input (call $get_stdin))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "check-write") (param $k i32) (param i32)
      (local $out i32)
      (local.set $out (call $get_stdout))
      (loop $l
        (call $check_write (local.get $out) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_output (local.get $out)))
    (func (export "write") (param $k i32) (param $len i32)
      (local $out i32)
      (local.set $out (call $get_stdout))
      (loop $l
        (call $write (local.get $out) (i32.const 0) (local.get $len) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_output (local.get $out)))
    (func (export "blocking-write") (param $k i32) (param $len i32)
      (local $out i32)
      (local.set $out (call $get_stdout))
      (loop $l
        (call $blocking_write (local.get $out) (i32.const 0) (local.get $len) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_output (local.get $out)))
    (func (export "write-zeroes") (param $k i32) (param $len i32)
      (local $out i32)
      (local.set $out (call $get_stdout))
      (loop $l
        (call $write_zeroes (local.get $out) (i64.extend_i32_u (local.get $len)) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_output (local.get $out)))
    (func (export "blocking-write-zeroes") (param $k i32) (param $len i32)
      (local $out i32)
      (local.set $out (call $get_stdout))
      (loop $l
        (call $blocking_write_zeroes (local.get $out) (i64.extend_i32_u (local.get $len)) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_output (local.get $out)))
    (func (export "flush") (param $k i32) (param i32)
      (local $out i32)
      (local.set $out (call $get_stdout))
      (loop $l
        (call $flush (local.get $out) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_output (local.get $out)))
    (func (export "blocking-flush") (param $k i32) (param i32)
      (local $out i32)
      (local.set $out (call $get_stdout))
      (loop $l
        (call $blocking_flush (local.get $out) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_output (local.get $out)))
    (func (export "output-subscribe") (param $k i32) (param i32)
      (local $out i32)
      (local.set $out (call $get_stdout))
      (loop $l
        (call $drop_pollable (call $output_subscribe (local.get $out)))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_output (local.get $out)))
    (func (export "splice") (param $k i32) (param $len i32)
      (local $out i32) (local $in i32)
      (local.set $out (call $get_stdout))
      (local.set $in (call $get_stdin))
      (loop $l
        (call $splice (local.get $out) (local.get $in) (i64.extend_i32_u (local.get $len)) (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_input (local.get $in))
      (call $drop_output (local.get $out)))
    (func (export "blocking-splice") (param $k i32) (param $len i32)
      (local $out i32) (local $in i32)
      (local.set $out (call $get_stdout))
      (local.set $in (call $get_stdin))
      (loop $l
        (call $blocking_splice (local.get $out) (local.get $in) (i64.extend_i32_u (local.get $len)) (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_input (local.get $in))
      (call $drop_output (local.get $out)))
    (func (export "read") (param $k i32) (param $len i32)
      (local $in i32)
      (local.set $in (call $get_stdin))
      (loop $l
        (call $read (local.get $in) (i64.extend_i32_u (local.get $len)) (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_input (local.get $in)))
    (func (export "blocking-read") (param $k i32) (param $len i32)
      (local $in i32)
      (local.set $in (call $get_stdin))
      (loop $l
        (call $blocking_read (local.get $in) (i64.extend_i32_u (local.get $len)) (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_input (local.get $in)))
    (func (export "skip") (param $k i32) (param $len i32)
      (local $in i32)
      (local.set $in (call $get_stdin))
      (loop $l
        (call $skip (local.get $in) (i64.extend_i32_u (local.get $len)) (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_input (local.get $in)))
    (func (export "blocking-skip") (param $k i32) (param $len i32)
      (local $in i32)
      (local.set $in (call $get_stdin))
      (loop $l
        (call $blocking_skip (local.get $in) (i64.extend_i32_u (local.get $len)) (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_input (local.get $in)))
    (func (export "input-subscribe") (param $k i32) (param i32)
      (local $in i32)
      (local.set $in (call $get_stdin))
      (loop $l
        (call $drop_pollable (call $input_subscribe (local.get $in)))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_input (local.get $in)))

    (func (export "get-environment") (param $k i32) (param i32)
      (loop $l
        (call $get_environment (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "get-arguments") (param $k i32) (param i32)
      (loop $l
        (call $get_arguments (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "initial-cwd") (param $k i32) (param i32)
      (loop $l
        (call $initial_cwd (global.get $ret))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "terminal-stdin") (param $k i32) (param i32)
      (loop $l
        (call $terminal_stdin (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "terminal-stdout") (param $k i32) (param i32)
      (loop $l
        (call $terminal_stdout (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "terminal-stderr") (param $k i32) (param i32)
      (loop $l
        (call $terminal_stderr (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "get-directories") (param $k i32) (param i32)
      (loop $l
        (call $get_directories (global.get $ret))
        (if (i32.load (i32.add (global.get $ret) (i32.const 4))) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))

    (func (export "instance-network") (param $k i32) (param i32)
      (loop $l
        (call $drop_network (call $instance_network))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "create-tcp") (param $k i32) (param i32)
      (loop $l
        (call $create_tcp (i32.const 0) (global.get $ret))
        (if (i32.eqz (i32.load8_u (global.get $ret))) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "create-udp") (param $k i32) (param i32)
      (loop $l
        (call $create_udp (i32.const 0) (global.get $ret))
        (if (i32.eqz (i32.load8_u (global.get $ret))) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "resolve") (param $k i32) (param $len i32)
      (local $network i32)
      (local.set $network (call $instance_network))
      (loop $l
        (call $resolve (local.get $network) (i32.const 0) (local.get $len) (global.get $ret))
        (if (i32.eqz (i32.load8_u (global.get $ret))) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))
      (call $drop_network (local.get $network)))

    ;; The setup of the data cases: the preopen (the store's data tree), `big.bin` and `wide`
    ;; opened from it, and the path `open-at` walks: `depth` nested `d`s, `d/d/.../d`.
    (func $open (param $at i32) (param $len i32) (result i32)
      (call $fs_open_at (global.get $root) (i32.const 0) (local.get $at) (local.get $len) (i32.const 0) (i32.const 1) (global.get $ret))
      (if (i32.load8_u (global.get $ret)) (then unreachable))
      (i32.load offset=4 (global.get $ret)))
    (global $root (mut i32) (i32.const 0))
    (func (export "data") (param $depth i32) (param i32)
      (local $i i32)
      (call $data_preopen (global.get $ret))
      (if (i32.ne (i32.load offset=4 (global.get $ret)) (i32.const 1)) (then unreachable))
      (global.set $root (i32.load (i32.load (global.get $ret))))
      (global.set $file (call $open (i32.const 0x3e0000) (i32.const 7)))
      (global.set $wide (call $open (i32.const 0x3e0010) (i32.const 4)))
      (loop $d
        (i32.store16 (i32.add (global.get $path) (i32.shl (local.get $i) (i32.const 1))) (i32.const 0x2f64))
        (br_if $d (i32.ne (local.tee $i (i32.add (local.get $i) (i32.const 1))) (local.get $depth))))
      (global.set $path_len (i32.sub (i32.shl (local.get $depth) (i32.const 1)) (i32.const 1))))
    (func (export "fs-read") (param $k i32) (param $len i32)
      (loop $l
        (call $fs_read (global.get $file) (i64.extend_i32_u (local.get $len)) (i64.const 0) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (if (i32.ne (i32.load offset=8 (global.get $ret)) (local.get $len)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "fs-stream-read") (param $k i32) (param $len i32)
      (local $in i32)
      (loop $l
        (call $fs_read_via_stream (global.get $file) (i64.const 0) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (local.set $in (i32.load offset=4 (global.get $ret)))
        (call $blocking_read (local.get $in) (i64.extend_i32_u (local.get $len)) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (if (i32.ne (i32.load offset=8 (global.get $ret)) (local.get $len)) (then unreachable))
        (call $drop_input (local.get $in))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "fs-read-directory") (param $k i32) (param $entries i32)
      (local $stream i32) (local $n i32)
      (loop $l
        (call $fs_read_directory (global.get $wide) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (local.set $stream (i32.load offset=4 (global.get $ret)))
        (local.set $n (i32.const 0))
        (loop $entry
          (call $fs_read_directory_entry (local.get $stream) (global.get $ret))
          (if (i32.load8_u (global.get $ret)) (then unreachable))
          (if (i32.load8_u offset=4 (global.get $ret))
            (then
              (local.set $n (i32.add (local.get $n) (i32.const 1)))
              (br $entry))))
        (if (i32.ne (local.get $n) (local.get $entries)) (then unreachable))
        (call $drop_entry_stream (local.get $stream))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "fs-open-at") (param $k i32) (param i32)
      (loop $l
        (call $drop_descriptor (call $open (global.get $path) (global.get $path_len)))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "fs-stat") (param $k i32) (param i32)
      (loop $l
        (call $fs_stat (global.get $file) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
    (func (export "fs-metadata-hash") (param $k i32) (param i32)
      (loop $l
        (call $fs_metadata_hash (global.get $file) (global.get $ret))
        (if (i32.load8_u (global.get $ret)) (then unreachable))
        (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))))

  (core instance $bot (instantiate $bot
    (with "mem" (instance $mem))
    (with "host" (instance
      (export "log8" (func $log8)) (export "log16" (func $log16))
      (export "poll" (func $poll)) (export "ready" (func $ready)) (export "block" (func $block))
      (export "read" (func $read)) (export "blocking-read" (func $blocking_read))
      (export "skip" (func $skip)) (export "blocking-skip" (func $blocking_skip))
      (export "input-subscribe" (func $input_subscribe))
      (export "check-write" (func $check_write)) (export "write" (func $write))
      (export "blocking-write" (func $blocking_write)) (export "flush" (func $flush))
      (export "blocking-flush" (func $blocking_flush)) (export "output-subscribe" (func $output_subscribe))
      (export "write-zeroes" (func $write_zeroes)) (export "blocking-write-zeroes" (func $blocking_write_zeroes))
      (export "splice" (func $splice)) (export "blocking-splice" (func $blocking_splice))
      (export "get-stdin" (func $get_stdin)) (export "get-stdout" (func $get_stdout)) (export "get-stderr" (func $get_stderr))
      (export "get-environment" (func $get_environment)) (export "get-arguments" (func $get_arguments))
      (export "initial-cwd" (func $initial_cwd))
      (export "terminal-stdin" (func $terminal_stdin)) (export "terminal-stdout" (func $terminal_stdout))
      (export "terminal-stderr" (func $terminal_stderr))
      (export "monotonic-now" (func $monotonic_now)) (export "monotonic-resolution" (func $monotonic_resolution))
      (export "subscribe-instant" (func $subscribe_instant)) (export "subscribe-duration" (func $subscribe_duration))
      (export "wall-now" (func $wall_now)) (export "wall-resolution" (func $wall_resolution))
      (export "random-bytes" (func $random_bytes)) (export "random-u64" (func $random_u64))
      (export "insecure-bytes" (func $insecure_bytes)) (export "insecure-u64" (func $insecure_u64))
      (export "insecure-seed" (func $insecure_seed)) (export "get-directories" (func $get_directories))
      (export "instance-network" (func $instance_network)) (export "resolve" (func $resolve))
      (export "create-tcp" (func $create_tcp)) (export "create-udp" (func $create_udp))
      (export "drop-pollable" (func $drop_pollable)) (export "drop-input" (func $drop_input))
      (export "drop-output" (func $drop_output)) (export "drop-network" (func $drop_network))
      (export "data-preopen" (func $data_preopen)) (export "fs-read" (func $fs_read))
      (export "fs-read-via-stream" (func $fs_read_via_stream)) (export "fs-read-directory" (func $fs_read_directory))
      (export "fs-read-directory-entry" (func $fs_read_directory_entry)) (export "fs-stat" (func $fs_stat))
      (export "fs-open-at" (func $fs_open_at)) (export "fs-metadata-hash" (func $fs_metadata_hash))
      (export "drop-descriptor" (func $drop_descriptor)) (export "drop-entry-stream" (func $drop_entry_stream))))))
  (func (export "pure") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "pure")))
  (func (export "fill8") (param "len" u32) (param "last" u32) (canon lift (core func $bot "fill8")))
  (func (export "fill16") (param "units" u32) (param "last" u32) (canon lift (core func $bot "fill16")))
  (func (export "log8") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "log8")))
  (func (export "log16") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "log16")))
  (func (export "random-bytes") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "random-bytes")))
  (func (export "random-u64") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "random-u64")))
  (func (export "insecure-bytes") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "insecure-bytes")))
  (func (export "insecure-u64") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "insecure-u64")))
  (func (export "insecure-seed") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "insecure-seed")))
  (func (export "monotonic-now") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "monotonic-now")))
  (func (export "monotonic-resolution") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "monotonic-resolution")))
  (func (export "subscribe-duration") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "subscribe-duration")))
  (func (export "subscribe-instant") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "subscribe-instant")))
  (func (export "wall-now") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "wall-now")))
  (func (export "wall-resolution") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "wall-resolution")))
  (func (export "poll") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "poll")))
  (func (export "timers") (param "n" u32) (param "distinct" u32) (canon lift (core func $bot "timers")))
  (func (export "pollable-ready") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "pollable-ready")))
  (func (export "pollable-block") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "pollable-block")))
  (func (export "get-stdout") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "get-stdout")))
  (func (export "get-stderr") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "get-stderr")))
  (func (export "get-stdin") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "get-stdin")))
  (func (export "check-write") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "check-write")))
  (func (export "write") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "write")))
  (func (export "blocking-write") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "blocking-write")))
  (func (export "write-zeroes") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "write-zeroes")))
  (func (export "blocking-write-zeroes") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "blocking-write-zeroes")))
  (func (export "flush") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "flush")))
  (func (export "blocking-flush") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "blocking-flush")))
  (func (export "output-subscribe") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "output-subscribe")))
  (func (export "splice") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "splice")))
  (func (export "blocking-splice") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "blocking-splice")))
  (func (export "read") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "read")))
  (func (export "blocking-read") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "blocking-read")))
  (func (export "skip") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "skip")))
  (func (export "blocking-skip") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "blocking-skip")))
  (func (export "input-subscribe") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "input-subscribe")))
  (func (export "get-environment") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "get-environment")))
  (func (export "get-arguments") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "get-arguments")))
  (func (export "initial-cwd") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "initial-cwd")))
  (func (export "terminal-stdin") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "terminal-stdin")))
  (func (export "terminal-stdout") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "terminal-stdout")))
  (func (export "terminal-stderr") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "terminal-stderr")))
  (func (export "get-directories") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "get-directories")))
  (func (export "instance-network") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "instance-network")))
  (func (export "create-tcp") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "create-tcp")))
  (func (export "create-udp") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "create-udp")))
  (func (export "resolve") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "resolve")))
  (func (export "data") (param "depth" u32) (param "unused" u32) (canon lift (core func $bot "data")))
  (func (export "fs-read") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "fs-read")))
  (func (export "fs-stream-read") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "fs-stream-read")))
  (func (export "fs-read-directory") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "fs-read-directory")))
  (func (export "fs-open-at") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "fs-open-at")))
  (func (export "fs-stat") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "fs-stat")))
  (func (export "fs-metadata-hash") (param "calls" u32) (param "arg" u32) (canon lift (core func $bot "fs-metadata-hash"))))"#;

/// The preview1 cases' bot: a core module on WASI preview1 (`preview1::linker`, whose file
/// functions over a data folder are `preview1_data`'s), one export per [`Case`], each taking
/// `(calls, arg)`, after `data` opened `big.bin` and `wide` from the preopen (descriptor 3).
/// Memory: read and listing buffers at 1 MiB, the iovec and the answers at `0x3f0000`.
const PREVIEW1_WAT: &str = r#"(module
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_seek" (func $fd_seek (param i32 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_readdir" (func $fd_readdir (param i32 i32 i32 i64 i32) (result i32)))
  (memory (export "memory") 64)
  (global $buf i32 (i32.const 0x100000))
  (global $ret i32 (i32.const 0x3f0000))
  (global $file (mut i32) (i32.const 0))
  (global $wide (mut i32) (i32.const 0))
  (data (i32.const 0x3e0000) "big.bin")
  (data (i32.const 0x3e0010) "wide")

  ;; Opens `len` bytes at `at` from the preopen, for reading, seeking and listing
  ;; (`oflags` 2: a directory).
  (func $open (param $at i32) (param $len i32) (param $oflags i32) (result i32)
    (if (call $path_open (i32.const 3) (i32.const 0) (local.get $at) (local.get $len) (local.get $oflags)
          (i64.const 16390) (i64.const 0) (i32.const 0) (global.get $ret))
      (then unreachable))
    (i32.load (global.get $ret)))
  (func (export "data") (param i32 i32)
    (global.set $file (call $open (i32.const 0x3e0000) (i32.const 7) (i32.const 0)))
    (global.set $wide (call $open (i32.const 0x3e0010) (i32.const 4) (i32.const 2))))
  (func (export "fd-read") (param $k i32) (param $len i32)
    (i32.store (global.get $ret) (global.get $buf))
    (i32.store offset=4 (global.get $ret) (local.get $len))
    (loop $l
      (if (call $fd_seek (global.get $file) (i64.const 0) (i32.const 0) (i32.add (global.get $ret) (i32.const 16)))
        (then unreachable))
      (if (call $fd_read (global.get $file) (global.get $ret) (i32.const 1) (i32.add (global.get $ret) (i32.const 8)))
        (then unreachable))
      (if (i32.ne (i32.load offset=8 (global.get $ret)) (local.get $len)) (then unreachable))
      (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1))))))
  ;; The whole directory in one call: what it wrote must be less than the buffer.
  (func (export "fd-readdir") (param $k i32) (param $len i32)
    (loop $l
      (if (call $fd_readdir (global.get $wide) (global.get $buf) (local.get $len) (i64.const 0) (global.get $ret))
        (then unreachable))
      (if (i32.ge_u (i32.load (global.get $ret)) (local.get $len)) (then unreachable))
      (br_if $l (local.tee $k (i32.sub (local.get $k) (i32.const 1)))))))"#;
