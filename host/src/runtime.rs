//! The wasmtime side of the arena: one [`Arena`] per process holds the engine (fuel metering,
//! determinism settings, limits), the epoch ticker behind the wall-clock backstop, and the
//! linker every bot is instantiated with. Engine, linker and compiled bots are shared across
//! matches and threads; each bot gets its own [`Store`] per instance (DESIGN.md section 4).

use crate::budget::Budget;
use crate::cache::ArtifactCache;
use crate::host_fuel::{Burner, WASI_P2_VERSION};
use crate::limits::BotLimits;
use crate::log::BotLog;
use crate::meter::CallMeter;
use crate::wasi::VirtualClock;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use wasmtime::component::{Linker, ResourceTable};
use wasmtime::{Config, Engine, InstanceAllocationStrategy, PoolingAllocationConfig, Store, UpdateDeadline};
use wasmtime_wasi::{WasiCtx, WasiCtxView, WasiView};

/// The exact wasmtime release the arena runs; replays record it.
pub const WASMTIME_VERSION: &str = "48.0.8";
/// The fuel cost settings, recorded in replays: what one unit of fuel means.
pub const FUEL_COSTS: &str = "wasmtime default operator costs (1 per operator), bulk memory per byte";
/// Interval of the epoch ticker behind the wall-clock backstop.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);
/// Most elements a bot's table may hold (a table declared larger is refused at load).
pub const MAX_TABLE_ELEMENTS: usize = 100_000;
/// Wasm stack limit per bot (unbounded recursion traps with `StackOverflow`).
pub const MAX_WASM_STACK: usize = 1 << 20;
/// Most bytes a bot may hand the host in one call (a string or list argument, or its answer),
/// checked by wasmtime before it copies them (`Store::set_hostcall_fuel`). Over it, a host call
/// traps and an answer is malformed. Far above any game's answer and the log's bounds.
pub const MAX_HOSTCALL_BYTES: usize = 1 << 20;

/// How instances are allocated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Allocator {
    /// Memory mapped on demand for each instance.
    #[default]
    OnDemand,
    /// wasmtime's pooling allocator: slots reserved up front, instantiation in about a
    /// microsecond. Sized for `max_bots` live instances.
    Pooling {
        /// Live bot instances the pool holds at once.
        max_bots: u32,
    },
}

/// What an [`Arena`] is built with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArenaOptions {
    /// Instance allocation.
    pub allocator: Allocator,
    /// Largest linear memory any match may grant (the pooling allocator reserves this much per
    /// slot); per-match limits are set by [`Budget::memory_mib`].
    pub max_memory_mib: u32,
}

impl Default for ArenaOptions {
    fn default() -> Self {
        ArenaOptions { allocator: Allocator::OnDemand, max_memory_mib: 4096 }
    }
}

/// The host state inside each bot's [`Store`].
pub struct BotState {
    wasi: WasiCtx,
    table: ResourceTable,
    limits: BotLimits,
    log: BotLog,
    /// Epoch count at which the running call is interrupted (the backstop); shared with the
    /// bot's driver, which moves it forward at every poll.
    deadline: Arc<AtomicU64>,
    /// The instance's virtual time (clocks and timers).
    clock: VirtualClock,
    /// Runs the fuel charges of host functions ([`crate::host_fuel`]).
    pub(crate) burner: Burner,
}

/// The handles a runner keeps to a store it hands to a call's future: its log, backstop
/// deadline, call meter and virtual clock. One set per instance.
#[derive(Clone)]
pub struct StoreHandles {
    /// The bot's log (shared across its instances).
    pub log: BotLog,
    /// The backstop deadline (shared across its instances).
    pub deadline: Arc<AtomicU64>,
    /// This instance's fuel at every host-call transition, and whether it is in a fuel yield.
    pub meter: Arc<CallMeter>,
    /// This instance's virtual time.
    pub clock: VirtualClock,
}

impl StoreHandles {
    /// Handles for a fresh instance: the bot's log and deadline, a new meter and clock.
    pub fn fresh(log: &BotLog, deadline: &Arc<AtomicU64>) -> StoreHandles {
        StoreHandles {
            log: log.clone(),
            deadline: deadline.clone(),
            meter: CallMeter::new(),
            clock: VirtualClock::new(),
        }
    }
}

impl BotState {
    /// The bot's log.
    pub fn log(&self) -> &BotLog {
        &self.log
    }

    /// The instance's resource table.
    pub(crate) fn table(&mut self) -> &mut ResourceTable {
        &mut self.table
    }

    /// wasmtime-wasi's random sources (seeded by [`crate::wasi::bot_seed`]).
    pub(crate) fn wasi_random(&mut self) -> &mut wasmtime_wasi::random::WasiRandomCtx {
        self.wasi.random()
    }
}

impl WasiView for BotState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView { ctx: &mut self.wasi, table: &mut self.table }
    }
}

/// Engine, linker and epoch ticker, shared by every match in the process.
#[derive(Clone)]
pub struct Arena {
    engine: Engine,
    linker: Arc<Linker<BotState>>,
    epoch: Arc<EpochTicker>,
    options: ArenaOptions,
    cache: Option<ArtifactCache>,
    /// The loop host functions charge fuel with ([`crate::host_fuel`]).
    burner: wasmtime::Module,
    /// Compile worker, load limits, reference components (set in [`crate::compile`]).
    pub(crate) load: crate::compile::LoadSettings,
}

impl Arena {
    /// An arena with the default (on-demand) allocator.
    pub fn new() -> anyhow::Result<Arena> {
        Arena::with_options(ArenaOptions::default())
    }

    /// An arena with explicit options.
    pub fn with_options(options: ArenaOptions) -> anyhow::Result<Arena> {
        let engine = Engine::new(&engine_config(&options))?;
        let linker = Arc::new(bot_linker(&engine)?);
        let epoch = EpochTicker::start(&engine);
        let burner = crate::host_fuel::compile_burner(&engine)?;
        Ok(Arena { engine, linker, epoch, options, cache: None, burner, load: Default::default() })
    }

    /// This arena, compiling bots through `cache` (`None`: always compile, the default).
    pub fn with_cache(mut self, cache: Option<ArtifactCache>) -> Arena {
        self.cache = cache;
        self
    }

    /// The compiled-artifact cache bots are loaded through, if any.
    pub fn cache(&self) -> Option<&ArtifactCache> {
        self.cache.as_ref()
    }

    /// The wasmtime engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The linker every bot is instantiated against.
    pub fn linker(&self) -> &Linker<BotState> {
        &self.linker
    }

    /// The options this arena was built with.
    pub fn options(&self) -> ArenaOptions {
        self.options
    }

    /// Epoch ticks elapsed so far.
    pub fn epoch_now(&self) -> u64 {
        self.epoch.now.load(Ordering::Relaxed)
    }

    /// A fresh store for one bot instance, with its limits, locked-down WASI (built with
    /// `handles.clock`), log and call meter.
    pub fn new_store(&self, budget: &Budget, wasi: WasiCtx, handles: &StoreHandles) -> Store<BotState> {
        let state = BotState {
            wasi,
            table: ResourceTable::new(),
            limits: BotLimits::new(budget.memory_bytes()),
            log: handles.log.clone(),
            deadline: handles.deadline.clone(),
            clock: handles.clock.clone(),
            burner: Burner::new(self.burner.clone()),
        };
        let mut store = Store::new(&self.engine, state);
        store.limiter(|state| &mut state.limits);
        store.set_hostcall_fuel(MAX_HOSTCALL_BYTES);
        let meter = handles.meter.clone();
        store.call_hook(move |ctx, hook| meter.hook(ctx, hook));
        let epoch = self.epoch.clone();
        // Checked every tick: interrupt the call once the shared deadline has passed.
        store.epoch_deadline_callback(move |ctx| {
            if epoch.now.load(Ordering::Relaxed) >= ctx.data().deadline.load(Ordering::Relaxed) {
                Err(wasmtime::Trap::Interrupt.into())
            } else {
                Ok(UpdateDeadline::Continue(1))
            }
        });
        store.set_epoch_deadline(1);
        store
    }
}

fn engine_config(options: &ArenaOptions) -> Config {
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
            .total_core_instances(max_bots.saturating_mul(8))
            .total_memories(max_bots.saturating_mul(2))
            .total_tables(max_bots.saturating_mul(4))
            .max_memories_per_component(2)
            .max_tables_per_component(4)
            .max_core_instances_per_component(16)
            .max_memory_size((options.max_memory_mib as usize) << 20)
            // Zero a freed slot's first pages with memset instead of madvise: cheaper when the
            // slot is reused right away, as it is match after match (measured by the benchmark).
            .linear_memory_keep_resident(4 << 20)
            .table_keep_resident(1 << 20);
        config.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    }
    config
}

/// The imports a bot may use: locked-down WASI p2 and the arena log.
fn bot_linker(engine: &Engine) -> anyhow::Result<Linker<BotState>> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_async(&mut linker)?;
    // Timers resolve against the bot's virtual clock, never real time (crate::wasi).
    linker.allow_shadowing(true);
    let mut clocks = linker.instance(&format!("wasi:clocks/monotonic-clock@{WASI_P2_VERSION}"))?;
    clocks.func_wrap(
        "subscribe-duration",
        |mut store: wasmtime::StoreContextMut<'_, BotState>, (duration,): (u64,)| {
            let state = store.data_mut();
            Ok((state.clock.subscribe_duration(&mut state.table, duration)?,))
        },
    )?;
    clocks.func_wrap("subscribe-instant", |mut store: wasmtime::StoreContextMut<'_, BotState>, (when,): (u64,)| {
        let state = store.data_mut();
        Ok((state.clock.subscribe(&mut state.table, when)?,))
    })?;
    linker.allow_shadowing(false);
    crate::host_fuel::add_to_linker(&mut linker)?;
    Ok(linker)
}

/// Increments the engine's epoch every [`EPOCH_TICK`] on a background thread, for as long as
/// any clone of the [`Arena`] lives.
struct EpochTicker {
    now: AtomicU64,
    stop: AtomicBool,
}

impl EpochTicker {
    fn start(engine: &Engine) -> Arc<EpochTicker> {
        let ticker = Arc::new(EpochTicker { now: AtomicU64::new(0), stop: AtomicBool::new(false) });
        let weak_ticker = Arc::downgrade(&ticker);
        let weak_engine = engine.weak();
        std::thread::Builder::new()
            .name("arena-epoch".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(EPOCH_TICK);
                    let (Some(ticker), Some(engine)) = (weak_ticker.upgrade(), weak_engine.upgrade()) else {
                        break;
                    };
                    if ticker.stop.load(Ordering::Relaxed) {
                        break;
                    }
                    ticker.now.fetch_add(1, Ordering::Relaxed);
                    engine.increment_epoch();
                }
            })
            .ok();
        ticker
    }
}

impl Drop for EpochTicker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

/// Ticks needed to cover `ms` milliseconds of wall clock.
pub fn ticks_for(ms: u64) -> u64 {
    ms.div_ceil(EPOCH_TICK.as_millis() as u64).max(1)
}
