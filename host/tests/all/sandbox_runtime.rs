//! The sandbox's runtime pieces, tested on hand-written components: the whole-bot memory limit
//! (issue 11, hole 5) and the call meter that charges a call stuck in a host function (hole 3).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::common;

use arena_host::Budget;
use arena_host::driver::{Driven, drive};
use arena_host::log::BotLog;
use arena_host::runtime::Arena;
use arena_host::store::{BotState, StoreHandles};
use arena_host::wasi::locked_down_ctx;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use wasmtime::Store;
use wasmtime::component::{Component, Linker};

fn arena() -> &'static Arena {
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

/// Runs a future that needs no fuel yields to completion.
fn run<F: std::future::Future>(handles: &StoreHandles, future: F) -> F::Output {
    match drive(arena(), &handles.deadline, 10_000, &handles.meter, std::pin::pin!(future), false, &|| false) {
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
        arena(),
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
