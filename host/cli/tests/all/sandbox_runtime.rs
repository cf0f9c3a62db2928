//! The sandbox's runtime pieces, tested on hand-written components: the whole-bot memory limit
//! and the call meter that charges a call stuck in a host function.

use crate::common;

use arena_host::Budget;
use arena_host::driver::{Driven, drive};
use arena_host::engine::Allocator;
use arena_host::log::BotLog;
use arena_host::runtime::Arena;
use arena_host::store::{BotState, StoreHandles};
use arena_host::wasi::locked_down_ctx;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use wasmtime::Store;
use wasmtime::component::{Component, Linker};

pub(crate) fn arena() -> &'static Arena {
    static ARENA: OnceLock<Arena> = OnceLock::new();
    ARENA.get_or_init(|| Arena::new().expect("arena"))
}

fn new_store(budget: &Budget) -> (Store<BotState>, StoreHandles) {
    let handles = StoreHandles::fresh(&BotLog::default(), &Arc::new(AtomicU64::new(u64::MAX)));
    let wasi = locked_down_ctx(1, &[0; 32], &handles.log, &handles.clock);
    let mut store = arena().new_store(budget, wasi, &handles);
    store.set_fuel(10_000_000).unwrap();
    (store, handles)
}

/// A fresh store (default budget) with `component` instantiated in it by the arena's linker.
fn instantiated(component: &Component) -> (Store<BotState>, StoreHandles, wasmtime::component::Instance) {
    let (mut store, handles) = new_store(&Budget::default());
    let instance = run(&handles, arena().linker().instantiate_async(&mut store, component)).unwrap();
    (store, handles, instance)
}

/// The fuel `export(arg)` of `instance` spends, run to completion in `store`.
fn fuel_of(
    store: &mut Store<BotState>,
    handles: &StoreHandles,
    instance: &wasmtime::component::Instance,
    export: &str,
    arg: u32,
) -> u64 {
    let func = instance.get_typed_func::<(u32,), ()>(&mut *store, export).unwrap();
    let before = store.get_fuel().unwrap();
    run(handles, func.call_async(&mut *store, (arg,))).unwrap();
    before - store.get_fuel().unwrap()
}

/// Runs a future that needs no fuel yields to completion.
pub(crate) fn run<F: std::future::Future>(handles: &StoreHandles, future: F) -> F::Output {
    match drive(arena().sandbox(), &handles.deadline, 10_000, &handles.meter, std::pin::pin!(future), false, &|| false)
    {
        Driven::Ready(output) => output,
        _ => panic!("the call did not finish"),
    }
}

/// Two core instances of one module, each with its own memory, and their `memory.grow`.
const TWO_MEMORIES: &str = r#"(component
  (core module $m
    (memory 0)
    (func (export "grow") (param i32) (result i32) (memory.grow (local.get 0))))
  (core instance $a (instantiate $m))
  (core instance $b (instantiate $m))
  (func (export "grow-a") (param "pages" u32) (result s32) (canon lift (core func $a "grow")))
  (func (export "grow-b") (param "pages" u32) (result s32) (canon lift (core func $b "grow"))))"#;

/// 64 KiB pages in `mib` MiB.
fn pages(mib: u32) -> u32 {
    mib * 16
}

/// "Memory and sizes: 64 MiB per bot by default, counted across all of the bot's memories":
/// a bot's second memory cannot take it past the limit (the grow fails, as `memory.grow`
/// reports: -1), and growth within the remaining room succeeds. Before, each memory had its
/// own 64 MiB, and 16 of them held 1 GiB.
#[test]
fn memory_is_limited_for_the_whole_bot_across_its_memories() {
    let budget = Budget::default();
    let component = Component::new(arena().engine(), TWO_MEMORIES).unwrap();
    let (mut store, handles) = new_store(&budget);
    let instance = run(&handles, arena().linker().instantiate_async(&mut store, &component)).unwrap();
    let grow_a = instance.get_typed_func::<(u32,), (i32,)>(&mut store, "grow-a").unwrap();
    let grow_b = instance.get_typed_func::<(u32,), (i32,)>(&mut store, "grow-b").unwrap();
    assert_eq!(run(&handles, grow_a.call_async(&mut store, (pages(40),))).unwrap(), (0,), "40 MiB in the first memory");
    assert_eq!(
        run(&handles, grow_b.call_async(&mut store, (pages(40),))).unwrap(),
        (-1,),
        "80 MiB in total is refused"
    );
    assert_eq!(run(&handles, grow_b.call_async(&mut store, (pages(24),))).unwrap(), (0,), "64 MiB in total fits");
    assert_eq!(run(&handles, grow_a.call_async(&mut store, (1,))).unwrap(), (-1,), "not one page more");
}

/// A component that spins `n` iterations, then calls the host's `block`.
const SPIN_THEN_BLOCK: &str = r#"(component
  (import "block" (func $block))
  (core func $block_lowered (canon lower (func $block)))
  (core module $m
    (import "host" "block" (func $block))
    (func (export "run") (param $n i32)
      (loop $again
        (local.set $n (i32.sub (local.get $n) (i32.const 1)))
        (br_if $again (i32.ne (local.get $n) (i32.const 0))))
      (call $block)))
  (core instance $i (instantiate $m (with "host" (instance (export "block" (func $block_lowered))))))
  (func (export "run") (param "n" u32) (canon lift (core func $i "run"))))"#;

/// "Fuel is charged for whatever the store consumed, however a call ends": a call stuck in a
/// host function past the backstop never hands its store back, yet the meter holds exactly the
/// fuel that was left when it entered the host: the same as a run whose host function returns
/// reads from the store at that moment. (A stuck call used to be charged nothing.)
#[test]
fn a_call_stuck_in_the_host_is_metered_to_the_instruction() {
    static SEEN_BY_HOST: AtomicU64 = AtomicU64::new(0);
    let component = Component::new(arena().engine(), SPIN_THEN_BLOCK).unwrap();
    let budget = Budget::default();

    // The host function returns, and records the fuel left when it was called.
    let mut returning: Linker<BotState> = arena().linker().clone();
    returning
        .root()
        .func_wrap("block", |store, ()| {
            SEEN_BY_HOST.store(store.get_fuel()?, Ordering::SeqCst);
            Ok(())
        })
        .unwrap();
    let (mut store, handles) = new_store(&budget);
    let instance = run(&handles, returning.instantiate_async(&mut store, &component)).unwrap();
    let spin = instance.get_typed_func::<(u32,), ()>(&mut store, "run").unwrap();
    store.set_fuel(10_000_000).unwrap();
    run(&handles, spin.call_async(&mut store, (1000,))).unwrap();
    let expected = SEEN_BY_HOST.load(Ordering::SeqCst);
    assert!(expected < 10_000_000 - 3_000, "the spin is charged: {expected}");

    // The host function never returns.
    let mut blocking: Linker<BotState> = arena().linker().clone();
    blocking
        .root()
        .func_wrap_async("block", |_store, ()| Box::new(std::future::pending::<wasmtime::Result<()>>()))
        .unwrap();
    let (mut store, handles) = new_store(&budget);
    let instance = run(&handles, blocking.instantiate_async(&mut store, &component)).unwrap();
    let spin = instance.get_typed_func::<(u32,), ()>(&mut store, "run").unwrap();
    store.set_fuel(10_000_000).unwrap();
    let stuck = drive(
        arena().sandbox(),
        &handles.deadline,
        50,
        &handles.meter,
        std::pin::pin!(spin.call_async(&mut store, (1000,))),
        true,
        &|| false,
    );
    assert!(matches!(stuck, Driven::Stuck), "a host function that never returns is stuck");
    assert_eq!(handles.meter.fuel(), expected, "the meter holds the fuel left on entering the host");
}

/// "No other bot or match is affected": when the pooling allocator has no instance slot left
/// for a bot, the match stops with a host error naming the seat, and no fault is recorded
/// against the bot (it used to trap at instantiation, three times, and forfeit).
#[test]
fn a_full_instance_pool_is_a_host_error_not_a_bot_fault() {
    use arena_azul::AzulConfig;
    use arena_host::bindings::azul::AzulBinding;
    use arena_host::engine::{Allocator, ArenaOptions};
    use arena_host::play::MatchError;
    let options = ArenaOptions { allocator: Allocator::Pooling { max_bots: 1 }, max_memory_mib: 64 };
    let arena = Arena::with_options(options).unwrap();
    let bot = Arc::new(
        arena_host::loader::load_bot::<AzulBinding>(&arena, std::path::Path::new(&common::bot("azul-random"))).unwrap(),
    );
    let played = arena_host::play_match(&arena, &[bot.clone(), bot], &AzulConfig::default(), 1, Budget::default());
    match played {
        Err(MatchError::HostResources { seat, detail }) => {
            assert_eq!(seat, 1, "the first seat took the only slot");
            assert!(detail.contains("limit"), "{detail}");
        }
        Err(other) => panic!("another error: {other}"),
        Ok(record) => panic!("the match was played: {:?}", record.setup[1].faults),
    }
}

/// A bot that recurses `depth` levels and, at the bottom, asks the host for one random byte: the
/// host lowers the answer through the bot's own `cabi_realloc`, which recurses `realloc-depth`
/// levels first (`u32::MAX`: until the stack is exhausted). wasmtime checks the wasm stack limit
/// again from where the host re-enters wasm, so that second recursion starts a second stack
/// segment on the same fiber.
const RECURSE_THEN_REALLOC: &str = r#"(component
  (import "wasi:random/random@0.2.0" (instance $random
    (export "get-random-bytes" (func (param "len" u64) (result (list u8))))))
  (alias export $random "get-random-bytes" (func $get))
  (core module $mem (memory (export "memory") 1))
  (core instance $mem (instantiate $mem))
  (core module $alloc
    (import "mem" "memory" (memory 1))
    (func $down (param $n i32) (result i32)
      (if (result i32) (i32.eqz (local.get $n))
        (then (i32.const 0))
        (else (i32.add (call $down (i32.sub (local.get $n) (i32.const 1))) (i32.const 1)))))
    (func (export "realloc") (param i32 i32 i32 i32) (result i32)
      (drop (call $down (i32.load (i32.const 0))))
      (i32.const 1024)))
  (core instance $alloc (instantiate $alloc (with "mem" (instance $mem))))
  (core func $get_lowered (canon lower (func $get) (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core module $bot
    (import "mem" "memory" (memory 1))
    (import "host" "get" (func $get (param i64 i32)))
    (func $deeper (param $n i32) (result i32)
      (if (result i32) (i32.eqz (local.get $n))
        (then (call $get (i64.const 1) (i32.const 16)) (i32.const 0))
        (else (i32.add (call $deeper (i32.sub (local.get $n) (i32.const 1))) (i32.const 1)))))
    (func (export "run") (param $depth i32) (param $realloc_depth i32) (result i32)
      (i32.store (i32.const 0) (local.get $realloc_depth))
      (call $deeper (local.get $depth))))
  (core instance $bot (instantiate $bot
    (with "mem" (instance $mem))
    (with "host" (instance (export "get" (func $get_lowered))))))
  (func (export "run") (param "depth" u32) (param "realloc-depth" u32) (result u32)
    (canon lift (core func $bot "run"))))"#;

/// Runs [`RECURSE_THEN_REALLOC`] once in a fresh store (a trapped instance cannot be entered
/// again): `Ok(levels)` or the trap.
fn recurse_then_realloc(component: &Component, depth: u32, realloc_depth: u32) -> Result<u32, wasmtime::Error> {
    let (mut store, handles, instance) = instantiated(component);
    let call = instance.get_typed_func::<(u32, u32), (u32,)>(&mut store, "run").unwrap();
    run(&handles, call.call_async(&mut store, (depth, realloc_depth))).map(|(levels,)| levels)
}

fn is_stack_overflow(err: &wasmtime::Error) -> bool {
    err.downcast_ref::<wasmtime::Trap>() == Some(&wasmtime::Trap::StackOverflow)
}

/// docs/design.md#memory-and-sizes, "Memory and sizes" and "Traps": whatever a bot does on its
/// stack ends in a typed trap for that bot. A bot that recursed to just under its stack limit and
/// then made its `cabi_realloc` recurse again while the host lowered a host call's answer used to
/// run off the end of the fiber stack and abort the whole host process ("execution on async fiber
/// has overflowed its stack"): the fiber held the limit plus 1 MiB, not the two stack segments
/// wasmtime allows (one per entry into wasm; `realloc` may not call the host, so there is no
/// third).
#[test]
fn recursing_again_in_realloc_at_the_stack_limit_is_a_stack_overflow_trap() {
    let component = Component::new(arena().engine(), RECURSE_THEN_REALLOC).unwrap();
    // The deepest recursion that still returns when the realloc does not recurse.
    let (mut fits, mut overflows) = (0u32, 1u32 << 20);
    while overflows - fits > 1 {
        let middle = fits + (overflows - fits) / 2;
        match recurse_then_realloc(&component, middle, 0) {
            Ok(levels) => {
                assert_eq!(levels, middle);
                fits = middle;
            }
            Err(err) => {
                assert!(is_stack_overflow(&err), "{err:?}");
                overflows = middle;
            }
        }
    }
    assert!(fits > 1_000, "the wasm stack holds more than a thousand small frames: {fits}");
    // Obeyed: at that depth a realloc that recurses a little returns, and so does the call.
    assert_eq!(recurse_then_realloc(&component, fits, 1_000).unwrap(), fits);
    // Violated: a realloc that recurses without bound traps with a stack overflow, at the
    // deepest level and at shallower ones, and the host goes on.
    for depth in [fits, fits - fits / 64, fits / 2, 1] {
        let err = recurse_then_realloc(&component, depth, u32::MAX).unwrap_err();
        assert!(is_stack_overflow(&err), "depth {depth}: {err:?}");
    }
}

/// A bot that logs `len` bytes (UTF-8) or `len` code units (UTF-16) from the start of its memory,
/// which `fill8`/`fill16` fill with valid text whose last byte or unit is `last`.
const LOG_FILLED: &str = r#"(component
  (type $log_instance (instance
    (type $level (enum "debug" "info" "warn" "error"))
    (export "level" (type $level_eq (eq $level)))
    (export "log" (func (param "level" $level_eq) (param "message" string)))))
  (import "arena:common/log@0.1.0" (instance $log (type $log_instance)))
  (alias export $log "log" (func $log_fn))
  (core module $mem (memory (export "memory") 17))
  (core instance $mem (instantiate $mem))
  (core func $log8 (canon lower (func $log_fn) (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $log16 (canon lower (func $log_fn) (memory (core memory $mem "memory")) string-encoding=utf16))
  (core module $bot
    (import "mem" "memory" (memory 17))
    (import "host" "log8" (func $log8 (param i32 i32 i32)))
    (import "host" "log16" (func $log16 (param i32 i32 i32)))
    (func (export "fill8") (param $len i32) (param $last i32)
      (memory.fill (i32.const 0) (i32.const 0x61) (local.get $len))
      (i32.store8 (i32.sub (local.get $len) (i32.const 1)) (local.get $last)))
    (func (export "fill16") (param $units i32) (param $last i32)
      (memory.fill (i32.const 0) (i32.const 0x61) (i32.shl (local.get $units) (i32.const 1)))
      (i32.store16 (i32.shl (i32.sub (local.get $units) (i32.const 1)) (i32.const 1)) (local.get $last)))
    (func (export "log8") (param $len i32) (call $log8 (i32.const 1) (i32.const 0) (local.get $len)))
    (func (export "log16") (param $units i32) (call $log16 (i32.const 1) (i32.const 0) (local.get $units))))
  (core instance $bot (instantiate $bot
    (with "mem" (instance $mem))
    (with "host" (instance (export "log8" (func $log8)) (export "log16" (func $log16))))))
  (func (export "fill8") (param "len" u32) (param "last" u32) (canon lift (core func $bot "fill8")))
  (func (export "fill16") (param "units" u32) (param "last" u32) (canon lift (core func $bot "fill16")))
  (func (export "log8") (param "len" u32) (canon lift (core func $bot "log8")))
  (func (export "log16") (param "units" u32) (canon lift (core func $bot "log16"))))"#;

/// Fills [`LOG_FILLED`]'s memory with `len` bytes or units (`encoding` 8 or 16) ending in
/// `last`, logs them, and returns the fuel the log call spent and what the bot's log holds.
fn log_filled(component: &Component, encoding: u8, len: u32, last: u32) -> (u64, String) {
    let (mut store, handles, instance) = instantiated(component);
    let fill = instance.get_typed_func::<(u32, u32), ()>(&mut store, &format!("fill{encoding}")).unwrap();
    run(&handles, fill.call_async(&mut store, (len, last))).unwrap();
    let spent = fuel_of(&mut store, &handles, &instance, &format!("log{encoding}"), len);
    let logged = handles.log.take_turn().entries.iter().map(|entry| entry.text.clone()).collect();
    (spent, logged)
}

/// docs/design.md#host-work-is-fuel-too, "host work is fuel too": a `log` message is paid for
/// whatever its validation finds. A 1 MiB UTF-8 message whose last byte is invalid costs exactly
/// what the valid one does (it cost nothing before: a loop of them kept the host busy at about
/// 1,200 ns per unit of fuel, into the wall-clock backstop), and is dropped; a UTF-16 message
/// ending in a lone surrogate costs at least its bytes (its error does not say where it stopped, so
/// the most a call may carry is charged).
#[test]
fn a_log_message_that_fails_validation_is_paid_for() {
    use arena_host::budget::FUEL_PER_TRANSCODED_BYTE;
    use arena_host::store::MAX_HOSTCALL_BYTES;
    let component = Component::new(arena().engine(), LOG_FILLED).unwrap();
    let len = 1 << 20;
    // Obeyed: valid text is charged and logged.
    let (valid_fuel, valid_log) = log_filled(&component, 8, len, u32::from(b'a'));
    assert!(valid_fuel >= u64::from(len), "charged per byte: {valid_fuel}");
    assert!(valid_log.starts_with("aaaa"), "logged");
    // Violated: an invalid last byte is charged the same, and nothing is logged.
    let (invalid_fuel, invalid_log) = log_filled(&component, 8, len, 0xff);
    assert_eq!(invalid_fuel, valid_fuel, "the bytes validated are paid for");
    assert_eq!(invalid_log, "", "an invalid message is dropped");
    // UTF-16: transcoded, so charged per byte the bot handed over at the transcoding rate; a
    // lone surrogate at the end at least for the bytes a call may carry.
    let units = (MAX_HOSTCALL_BYTES / 2) as u32;
    let (valid16_fuel, valid16_log) = log_filled(&component, 16, units, u32::from(b'a'));
    assert!(valid16_fuel >= u64::from(units) * 2 * FUEL_PER_TRANSCODED_BYTE, "{valid16_fuel}");
    assert!(!valid16_log.is_empty(), "logged");
    let (surrogate_fuel, surrogate_log) = log_filled(&component, 16, units, 0xd800);
    assert!(surrogate_fuel >= MAX_HOSTCALL_BYTES as u64 * FUEL_PER_TRANSCODED_BYTE, "{surrogate_fuel}");
    assert_eq!(surrogate_log, "");
}

/// A bot that takes `n` timers (`subscribe-duration`) and keeps every one.
const HOLD_TIMERS: &str = r#"(component
  (import "wasi:io/poll@0.2.0" (instance $poll (export "pollable" (type (sub resource)))))
  (alias export $poll "pollable" (type $pollable))
  (import "wasi:clocks/monotonic-clock@0.2.0" (instance $clock
    (alias outer 1 $pollable (type $outer))
    (export "pollable" (type $p (eq $outer)))
    (export "subscribe-duration" (func (param "when" u64) (result (own $p))))))
  (alias export $clock "subscribe-duration" (func $subscribe))
  (core func $subscribe_lowered (canon lower (func $subscribe)))
  (core module $bot
    (import "host" "subscribe" (func $subscribe (param i64) (result i32)))
    (func (export "hold") (param $n i32)
      (block $done
        (loop $again
          (br_if $done (i32.eqz (local.get $n)))
          (drop (call $subscribe (i64.const 1000)))
          (local.set $n (i32.sub (local.get $n) (i32.const 1)))
          (br $again)))))
  (core instance $bot (instantiate $bot (with "host" (instance (export "subscribe" (func $subscribe_lowered))))))
  (func (export "hold") (param "n" u32) (canon lift (core func $bot "hold"))))"#;

/// Host resources count against a cap ([`arena_host::store::MAX_HOST_RESOURCES`]
/// entries, a timer taking two: its clock entry and its pollable), not only the bot's memory.
/// A bot holding a thousand timers plays on (obeyed); one holding more than the cap allows
/// traps with the typed fault (violated). 95,000 live timers used to pin 22 MiB of host memory
/// outside the bot's 64 MiB.
#[test]
fn host_resources_a_bot_holds_are_capped_with_a_typed_trap() {
    use arena_host::TrapKind;
    use arena_host::store::MAX_HOST_RESOURCES;
    let component = Component::new(arena().engine(), HOLD_TIMERS).unwrap();
    let hold = |n: u32| {
        let (mut store, handles, instance) = instantiated(&component);
        let hold = instance.get_typed_func::<(u32,), ()>(&mut store, "hold").unwrap();
        run(&handles, hold.call_async(&mut store, (n,)))
    };
    hold(1_000).unwrap();
    hold((MAX_HOST_RESOURCES / 2) as u32).unwrap();
    let err = hold((MAX_HOST_RESOURCES / 2 + 1) as u32).unwrap_err();
    assert_eq!(
        arena_host::fault::classify(&err),
        TrapKind::HostResources { limit: MAX_HOST_RESOURCES as u32 },
        "{err:?}"
    );
}

/// A tournament's pool holds as many bots as it is sized for, each at the
/// per-bot limits ([`arena_host::limits::MAX_CORE_INSTANCES`] core instances), so a match of such
/// bots plays instead of waiting forever "to retry (the host ran out of instances)" (the pool
/// held 16 core instances per bot on average while a bot could have 32: two such bots filled a
/// pool sized for four).
#[test]
fn a_tournament_pool_holds_its_bots_at_the_per_bot_limits() {
    use arena_host::engine::ArenaOptions;
    use arena_host::limits::MAX_CORE_INSTANCES;
    let options = ArenaOptions::for_tournament(1, 2, 64);
    let arena = Arena::with_options(options).unwrap();
    let Allocator::Pooling { max_bots } = options.allocator else { panic!("a tournament pools") };
    let wat = format!("(component (core module $m) {})", "(core instance (instantiate $m))".repeat(MAX_CORE_INSTANCES));
    let component = Component::new(arena.engine(), wat).unwrap();
    let mut live = Vec::new();
    for bot in 0..max_bots {
        let handles = StoreHandles::fresh(&BotLog::default(), &Arc::new(AtomicU64::new(u64::MAX)));
        let wasi = locked_down_ctx(1, &[0; 32], &handles.log, &handles.clock);
        let mut store = arena.new_store(&Budget::default(), wasi, &handles);
        store.set_fuel(10_000_000).unwrap();
        let instantiated = match drive(
            arena.sandbox(),
            &handles.deadline,
            10_000,
            &handles.meter,
            std::pin::pin!(arena.linker().instantiate_async(&mut store, &component)),
            false,
            &|| false,
        ) {
            Driven::Ready(result) => result,
            _ => panic!("instantiation did not finish"),
        };
        instantiated.unwrap_or_else(|err| panic!("bot {bot} of {max_bots}: {err:?}"));
        live.push(store);
    }
}

/// A bot that takes `n` zero-length timers (their handles at the start of its memory) and polls
/// the first `n` of them in one call.
const POLL_TIMERS: &str = r#"(component
  (import "wasi:io/poll@0.2.0" (instance $io_poll
    (export "pollable" (type $p (sub resource)))
    (export "poll" (func (param "in" (list (borrow $p))) (result (list u32))))))
  (alias export $io_poll "pollable" (type $pollable))
  (alias export $io_poll "poll" (func $poll))
  (import "wasi:clocks/monotonic-clock@0.2.0" (instance $clock
    (alias outer 1 $pollable (type $outer))
    (export "pollable" (type $p (eq $outer)))
    (export "subscribe-duration" (func (param "when" u64) (result (own $p))))))
  (alias export $clock "subscribe-duration" (func $subscribe))
  (core module $mem
    (memory (export "memory") 1)
    (global $next (mut i32) (i32.const 8192))
    (func (export "realloc") (param i32 i32 i32 i32) (result i32)
      (local $at i32)
      (local.set $at (global.get $next))
      (global.set $next (i32.add (global.get $next) (local.get 3)))
      (local.get $at)))
  (core instance $mem (instantiate $mem))
  (core func $subscribe_lowered (canon lower (func $subscribe)))
  (core func $poll_lowered (canon lower (func $poll) (memory (core memory $mem "memory")) (realloc (core func $mem "realloc"))))
  (core module $bot
    (import "mem" "memory" (memory 1))
    (import "host" "subscribe" (func $subscribe (param i64) (result i32)))
    (import "host" "poll" (func $poll (param i32 i32 i32)))
    (func (export "take") (param $n i32)
      (local $i i32)
      (block $done
        (loop $again
          (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
          (i32.store (i32.shl (local.get $i) (i32.const 2)) (call $subscribe (i64.const 0)))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $again))))
    (func (export "poll") (param $n i32) (call $poll (i32.const 0) (local.get $n) (i32.const 4096))))
  (core instance $bot (instantiate $bot
    (with "mem" (instance $mem))
    (with "host" (instance (export "subscribe" (func $subscribe_lowered)) (export "poll" (func $poll_lowered))))))
  (func (export "take") (param "n" u32) (canon lift (core func $bot "take")))
  (func (export "poll") (param "n" u32) (canon lift (core func $bot "poll"))))"#;

/// Bench section 8 (`cargo xtask bench hostcalls`) measured `poll` at about 180 ns of host work
/// per pollable, charged 1 fuel each: a turn of polls held the host about 1.7 s. A poll is now
/// charged [`arena_host::budget::FUEL_PER_POLLABLE`] per pollable: polling one timer costs about
/// that and the host-call fee (obeyed), and polling a hundred costs at least a hundred times it (violated: it cost 99
/// fuel more).
#[test]
fn a_poll_is_charged_per_pollable_what_the_host_spends_on_it() {
    use arena_host::budget::FUEL_PER_POLLABLE;
    let component = Component::new(arena().engine(), POLL_TIMERS).unwrap();
    let poll_fuel = |n: u32| {
        let (mut store, handles, instance) = instantiated(&component);
        fuel_of(&mut store, &handles, &instance, "take", n);
        fuel_of(&mut store, &handles, &instance, "poll", n)
    };
    let one = poll_fuel(1);
    let expected = FUEL_PER_POLLABLE + arena_host::budget::FUEL_PER_HOST_CALL;
    assert!((expected..expected + 200).contains(&one), "{one}");
    let hundred = poll_fuel(100);
    assert!(hundred >= 100 * FUEL_PER_POLLABLE, "{hundred} against {one}");
}

/// A bot that reads the monotonic clock `n` times in a loop: a host call that does almost no
/// work, so the bot pays for it almost only through the host-call fee.
const CLOCK_LOOP: &str = r#"(component
  (import "wasi:clocks/monotonic-clock@0.2.0" (instance $clock
    (export "now" (func (result u64)))))
  (alias export $clock "now" (func $now))
  (core func $now_lowered (canon lower (func $now)))
  (core module $bot
    (import "host" "now" (func $now (result i64)))
    (func (export "spin") (param $n i32)
      (block $done
        (loop $again
          (br_if $done (i32.eqz (local.get $n)))
          (drop (call $now))
          (local.set $n (i32.sub (local.get $n) (i32.const 1)))
          (br $again)))))
  (core instance $bot (instantiate $bot (with "host" (instance (export "now" (func $now_lowered))))))
  (func (export "spin") (param "n" u32) (canon lift (core func $bot "spin"))))"#;

/// Fuel `spin(n)` of [`CLOCK_LOOP`] spends in a fresh store with fuel to spare.
fn clock_loop_fuel(component: &Component, n: u32) -> u64 {
    let (mut store, handles, instance) = instantiated(component);
    fuel_of(&mut store, &handles, &instance, "spin", n)
}

/// Bench section 8 measured the host calls that do a fixed amount of work (clocks, random
/// numbers, making and dropping a stream) at 75-300 ns each while the bot paid only the 6-14
/// fuel of instructions around the call: 130-900 times pure wasm's wall time per fuel. Every
/// host call now pays [`arena_host::budget::FUEL_PER_HOST_CALL`]: a hundred clock readings cost
/// a hundred fees and the loop's instructions (violated before: about 10 fuel each), and no
/// calls cost no fee (obeyed).
#[test]
fn every_host_call_pays_the_host_call_fee() {
    use arena_host::budget::FUEL_PER_HOST_CALL;
    let component = Component::new(arena().engine(), CLOCK_LOOP).unwrap();
    let none = clock_loop_fuel(&component, 0);
    assert!(none < 20, "an empty loop costs its few instructions, not a fee: {none}");
    let hundred = clock_loop_fuel(&component, 100) - none;
    let per_call = hundred / 100;
    assert_eq!(hundred % 100, 0, "every iteration costs the same");
    assert!(
        (FUEL_PER_HOST_CALL..FUEL_PER_HOST_CALL + 20).contains(&per_call),
        "a clock reading costs the fee and the loop's instructions: {per_call}"
    );
}

/// The fee is charged with `set_fuel`, which on its own would begin a whole new turn chunk at
/// every host call (a bot looping on the clock would never be suspended). The turn still ends
/// where its fuel runs out: a bot that does nothing but read the clock is suspended after each
/// turn's fuel, overrunning it by less than one fee (the chunk of 1 a fee past the end leaves),
/// and each turn after a suspension gets the whole turn's fuel again.
#[test]
fn host_call_fees_end_the_turn_where_its_fuel_runs_out() {
    use arena_host::budget::FUEL_PER_HOST_CALL;
    const TURN: u64 = 100_000;
    let component = Component::new(arena().engine(), CLOCK_LOOP).unwrap();
    let (mut store, handles, instance) = instantiated(&component);
    let spin = instance.get_typed_func::<(u32,), ()>(&mut store, "spin").unwrap();
    let game = 1_000_000;
    store.fuel_async_yield_interval(Some(TURN)).unwrap();
    store.set_fuel(game).unwrap();
    handles.meter.set_chunk(TURN);
    handles.meter.set_fuel(game);
    let mut call = std::pin::pin!(spin.call_async(&mut store, (u32::MAX,)));
    let mut left = game;
    for turn in 0..5 {
        match drive(arena().sandbox(), &handles.deadline, 10_000, &handles.meter, call.as_mut(), true, &|| false) {
            Driven::Suspended => {}
            _ => panic!("turn {turn}: the clock loop was not suspended"),
        }
        let spent = left - handles.meter.fuel();
        assert!(
            (TURN..TURN + FUEL_PER_HOST_CALL).contains(&spent),
            "turn {turn} spent {spent}: its fuel and less than one fee more"
        );
        left = handles.meter.fuel();
    }
}

/// A fee the bot cannot pay ends its game as running out of its own instructions would: a
/// wasmtime `OutOfFuel` trap, with no fuel left (violated), while the same loop with fuel for
/// its fees finishes (obeyed).
#[test]
fn a_host_call_fee_past_the_game_fuel_is_out_of_fuel() {
    use arena_host::budget::FUEL_PER_HOST_CALL;
    let component = Component::new(arena().engine(), CLOCK_LOOP).unwrap();
    for (fuel, finishes) in [(10 * (FUEL_PER_HOST_CALL + 20), true), (5 * FUEL_PER_HOST_CALL, false)] {
        let (mut store, handles, instance) = instantiated(&component);
        let spin = instance.get_typed_func::<(u32,), ()>(&mut store, "spin").unwrap();
        store.set_fuel(fuel).unwrap();
        handles.meter.set_fuel(fuel);
        let result = run(&handles, spin.call_async(&mut store, (10,)));
        match result {
            Ok(()) => assert!(finishes, "ten fees cannot be paid from {fuel}"),
            Err(err) => {
                assert!(!finishes, "{err:?}");
                assert!(arena_host::fault::is_out_of_fuel(&err), "{err:?}");
                assert_eq!(store.get_fuel().unwrap(), 0);
            }
        }
    }
}

/// A bot that asks for `len` random bytes, answered into its memory.
const RANDOM_BYTES: &str = r#"(component
  (import "wasi:random/random@0.2.0" (instance $random
    (export "get-random-bytes" (func (param "len" u64) (result (list u8))))))
  (alias export $random "get-random-bytes" (func $get))
  (core module $mem
    (memory (export "memory") 2)
    (func (export "realloc") (param i32 i32 i32 i32) (result i32) (i32.const 1024)))
  (core instance $mem (instantiate $mem))
  (core func $get_lowered (canon lower (func $get) (memory (core memory $mem "memory")) (realloc (core func $mem "realloc"))))
  (core module $bot
    (import "host" "get" (func $get (param i64 i32)))
    (func (export "draw") (param $len i32) (call $get (i64.extend_i32_u (local.get $len)) (i32.const 16))))
  (core instance $bot (instantiate $bot (with "host" (instance (export "get" (func $get_lowered))))))
  (func (export "draw") (param "len" u32) (canon lift (core func $bot "draw"))))"#;

/// Bench section 8 measured `get-random-bytes` at 2.3-2.9 ns of host time per byte
/// (wasmtime-wasi draws each byte with a call of the boxed generator), 39-49 times pure wasm's
/// wall time per fuel at 1 fuel a byte. A random byte is now charged
/// [`arena_host::budget::FUEL_PER_RANDOM_BYTE`]: 4 KiB more costs exactly that many times more
/// (violated before: 1 fuel a byte), and no bytes cost only the call (obeyed).
#[test]
fn random_bytes_are_charged_what_drawing_them_costs() {
    use arena_host::budget::{FUEL_PER_HOST_CALL, FUEL_PER_RANDOM_BYTE};
    let component = Component::new(arena().engine(), RANDOM_BYTES).unwrap();
    let draw_fuel = |len: u32| {
        let (mut store, handles, instance) = instantiated(&component);
        fuel_of(&mut store, &handles, &instance, "draw", len)
    };
    let none = draw_fuel(0);
    assert!((FUEL_PER_HOST_CALL..FUEL_PER_HOST_CALL + 50).contains(&none), "the call and its fee: {none}");
    // The charge runs in whole steps of the fuel burner's loop (7 fuel each) after its entry.
    let drawn = draw_fuel(4096) - none;
    assert!(
        (4096 * FUEL_PER_RANDOM_BYTE..4096 * FUEL_PER_RANDOM_BYTE + 16).contains(&drawn),
        "per byte drawn: {drawn}"
    );
}
