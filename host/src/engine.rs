//! The wasmtime engine every bot runs on, as configured for the arena: fuel metering, epoch
//! interruption, determinism settings, stack limits and the instance allocator. A leaf: the
//! compile worker builds the very same engine from the same options.

use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig};

/// Wasm stack limit per bot (unbounded recursion traps with `StackOverflow`).
pub const MAX_WASM_STACK: usize = 1 << 20;

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

/// What an [`Arena`](crate::runtime::Arena) is built with.
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
        // Determinism (DESIGN.md section 1): the same bot computes the same bits everywhere.
        .cranelift_nan_canonicalization(true)
        .relaxed_simd_deterministic(true)
        // Threads are off: wasmtime's `threads` feature is not compiled in.
        .wasm_shared_everything_threads(false)
        .max_wasm_stack(MAX_WASM_STACK)
        .async_stack_size(MAX_WASM_STACK + (1 << 20));
    if let Allocator::Pooling { max_bots } = options.allocator {
        let mut pool = PoolingAllocationConfig::default();
        pool.total_component_instances(max_bots)
            // Per component, room for what toolchains emit (an interpreter bot links a dozen
            // core instances); a component over these is refused when it loads.
            .total_core_instances(max_bots.saturating_mul(16))
            .total_memories(max_bots.saturating_mul(2))
            .total_tables(max_bots.saturating_mul(4))
            .max_memories_per_component(4)
            .max_tables_per_component(8)
            .max_core_instances_per_component(32)
            .max_memory_size((options.max_memory_mib as usize) << 20)
            // Zero a freed slot's first pages with memset instead of madvise: cheaper when the
            // slot is reused right away, as it is match after match (measured by the benchmark).
            .linear_memory_keep_resident(4 << 20)
            .table_keep_resident(1 << 20)
            // ... and only the pages the instance wrote, found with Linux's PAGEMAP_SCAN (6.7+;
            // elsewhere the whole kept-resident prefix is reset): a trivial bot dirties a few
            // pages of its 1 MiB stack and data, and the memset of all of them was most of an
            // instantiation (`cargo xtask bench instantiate`).
            .pagemap_scan(wasmtime::Enabled::Auto);
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    config
}
