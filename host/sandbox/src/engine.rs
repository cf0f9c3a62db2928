//! The wasmtime engine every bot runs on, as configured for the arena: fuel metering, epoch
//! interruption, determinism settings, stack limits and the instance allocator. A leaf: the
//! compile worker builds the very same engine from the same options.
//!
//! Both allocators enforce one set of per-bot limits ([`crate::limits`]): the pool is
//! configured from the same constants the on-demand store's limiter counts against, and a
//! component the pool could never hold is refused at load whatever the allocator
//! ([`pool_check_engine`]).

use crate::limits::{MAX_CORE_INSTANCES, MAX_MEMORIES, MAX_TABLE_ELEMENTS, MAX_TABLES};
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

/// Native stack limit per bot: a backstop. Where a bot's recursion stops is decided by the stack
/// height its code counts ([`crate::stack::STACK_LIMIT`] units, instrumented at load), which the
/// native stack a bot's frames take at that height stays far below: Cranelift's frames take
/// under 3 bytes a unit for plain recursion, and this limit allows over 20 (a unit stands for
/// one value's slot; a 16-byte vector value spilled is one). It was the only limit and 1 MiB,
/// and where it fired depended on the host's own frames: the same bot overflowed after a few
/// hundred fuel more or less under a debug build than under a release build.
pub const MAX_WASM_STACK: usize = 8 << 20;

/// Native stack a bot's calls run on (each call on its own fiber). wasmtime sets the wasm stack
/// limit again from wherever the host enters wasm, and on a fiber that includes re-entries
/// during a host call: the host lowers a host call's answer through the bot's own `realloc`,
/// which may recurse a whole [`MAX_WASM_STACK`] more below the host's frames. `realloc` runs
/// with the canonical ABI's `may_leave` flag cleared (it cannot call the host again), so there
/// are at most two such segments: the fiber holds both, plus room for the host's frames before
/// and between them. (It held one segment plus 1 MiB, and a bot that recursed to its limit and
/// then recursed again in `realloc` ran off the fiber and aborted the whole process.)
pub const FIBER_STACK: usize = 2 * MAX_WASM_STACK + HOST_FRAMES;

/// Native stack kept for the host's own frames on a bot's fiber (the call machinery, a host
/// function and the lowering of its answer): far more than they use.
const HOST_FRAMES: usize = 1 << 20;

/// How instances are allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Allocator {
    /// Memory mapped on demand for each instance.
    #[default]
    OnDemand,
    /// wasmtime's pooling allocator: slots reserved up front and reused, instantiation about
    /// five times faster than on demand (`cargo xtask bench instantiate`). Sized for `max_bots`
    /// live instances.
    Pooling {
        /// Live bot instances the pool holds at once.
        max_bots: u32,
    },
}

/// What a [`Sandbox`](crate::Sandbox) is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaOptions {
    /// Instance allocation.
    pub allocator: Allocator,
    /// Largest linear memory any match may grant (the pooling allocator reserves this much per
    /// slot); per-match limits are set by [`Budget::memory_mib`](crate::budget::Budget::memory_mib).
    pub max_memory_mib: u32,
}

impl ArenaOptions {
    /// The options a tournament plays on: the pooling allocator, sized for `jobs` matches of
    /// `players` bots at once (twice over: a bot restarted after a trap gets a new instance
    /// while the match goes on) with memories of up to `memory_mib`. Instances reuse their
    /// slots instead of mapping and unmapping memory for every match, which with more than one
    /// worker thread costs a TLB shootdown on every core per unmap (`cargo xtask bench
    /// tournament`: on-demand allocation scaled 1.0x from 1 to 2 jobs, pooling 1.7x).
    pub fn for_tournament(jobs: usize, players: usize, memory_mib: u32) -> ArenaOptions {
        let max_bots = jobs.saturating_mul(players).saturating_mul(2);
        ArenaOptions {
            allocator: Allocator::Pooling { max_bots: u32::try_from(max_bots).unwrap_or(u32::MAX) },
            max_memory_mib: memory_mib,
        }
    }
}

impl Default for ArenaOptions {
    fn default() -> Self {
        ArenaOptions { allocator: Allocator::OnDemand, max_memory_mib: 4096 }
    }
}

/// A new engine configured for `options`.
pub fn new_engine(options: &ArenaOptions) -> wasmtime::Result<Engine> {
    Engine::new(&engine_config(options))
}

/// The configuration [`new_engine`] builds an engine from (the benchmarks build variants of it to
/// measure what each setting costs).
pub fn engine_config(options: &ArenaOptions) -> Config {
    let mut config = Config::new();
    config
        .consume_fuel(true)
        .epoch_interruption(true)
        // Determinism (docs/design.md#determinism): the same bot computes the same bits everywhere.
        .cranelift_nan_canonicalization(true)
        .relaxed_simd_deterministic(true)
        // Threads are off: wasmtime's `threads` feature is not compiled in.
        .wasm_shared_everything_threads(false)
        .max_wasm_stack(MAX_WASM_STACK)
        .async_stack_size(FIBER_STACK);
    if let Allocator::Pooling { max_bots } = options.allocator {
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool_config(max_bots, options.max_memory_mib)));
    }
    config
}

/// The pool for `max_bots` live bots with memories of up to `max_memory_mib`. Every per-bot
/// limit is [`crate::limits`]'s, so a bot fits the pool exactly when it fits an on-demand
/// store; and the totals hold `max_bots` bots each at those limits (a bot's store also holds
/// the host's fuel burner, one more core instance), so a full pool only ever means more live
/// bots than `max_bots`, never one bot larger than its share.
fn pool_config(max_bots: u32, max_memory_mib: u32) -> PoolingAllocationConfig {
    let per_bot = |limit: usize| max_bots.saturating_mul(u32::try_from(limit).unwrap_or(u32::MAX));
    let mut pool = PoolingAllocationConfig::default();
    pool.total_component_instances(max_bots)
        // A bot's call runs on a fiber stack from the pool, and the host's fuel burner, called
        // during a host call, on a second one.
        .total_stacks(max_bots.saturating_mul(2))
        .total_core_instances(per_bot(MAX_CORE_INSTANCES + 1))
        .total_memories(per_bot(MAX_MEMORIES))
        .total_tables(per_bot(MAX_TABLES))
        .max_core_instances_per_component(MAX_CORE_INSTANCES as u32)
        .max_memories_per_component(MAX_MEMORIES as u32)
        .max_tables_per_component(MAX_TABLES as u32)
        // A core module may define as many as its whole bot may (wasmtime's default is one).
        .max_memories_per_module(MAX_MEMORIES as u32)
        .max_tables_per_module(MAX_TABLES as u32)
        .table_elements(MAX_TABLE_ELEMENTS)
        .max_memory_size((max_memory_mib as usize) << 20)
        // Zero a freed slot's first pages with memset instead of madvise: cheaper when the
        // slot is reused right away, as it is match after match (measured by the benchmark).
        .linear_memory_keep_resident(4 << 20)
        .table_keep_resident(1 << 20)
        // ... and only the pages the instance wrote, found with Linux's PAGEMAP_SCAN (6.7+;
        // elsewhere the whole kept-resident prefix is reset): a trivial bot dirties a few
        // pages of its 1 MiB stack and data, and the memset of all of them was most of an
        // instantiation (`cargo xtask bench instantiate`).
        .pagemap_scan(wasmtime::Enabled::Auto);
    pool
}

/// An engine whose only use is to refuse, at load, a component the pool could never hold, in an
/// arena that allocates on demand: a component deserialised into it is checked by wasmtime's
/// own pooling checks (instances, memories and tables per component and per module, table
/// sizes, instance sizes) for one bot with memories of up to `max_memory_mib`. It compiles
/// nothing and runs nothing; its pool reserves one bot's slots.
pub fn pool_check_engine(max_memory_mib: u32) -> wasmtime::Result<Engine> {
    let mut config = engine_config(&ArenaOptions { allocator: Allocator::OnDemand, max_memory_mib });
    let pool = pool_config(1, max_memory_mib);
    config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    Engine::new(&config)
}
