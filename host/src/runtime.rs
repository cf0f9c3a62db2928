//! The wasmtime side of the arena: one [`Arena`] per process holds the engine (fuel metering,
//! determinism settings, limits), the epoch ticker behind the wall-clock backstop, and the
//! linker every bot is instantiated with. Engine, linker and compiled bots are shared across
//! matches and threads; each bot gets its own [`Store`] per instance (DESIGN.md section 4).

use crate::budget::Budget;
use crate::cache::ArtifactCache;
use crate::compile::{CompileError, CompileWorker, one_line};
use crate::engine::{Allocator, ArenaOptions, new_engine, pool_check_engine};
use crate::host_fuel::{Burner, FuelPayer, WASI_P2_VERSION};
use crate::limits::BotLimits;
use crate::profiler::Profiled;
use crate::store::{BotState, MAX_HOSTCALL_BYTES, StoreHandles};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use wasmtime::component::{Component, Linker};
use wasmtime::{Engine, Store, UpdateDeadline};
use wasmtime_wasi::WasiCtx;

/// Interval of the epoch ticker behind the wall-clock backstop.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Engine, linker and epoch ticker, shared by every match in the process.
#[derive(Clone)]
pub struct Arena {
    engine: Engine,
    linker: Arc<Linker<BotState>>,
    epoch: Arc<EpochTicker>,
    options: ArenaOptions,
    cache: Option<ArtifactCache>,
    /// The loop host functions charge fuel with (`host_fuel`).
    burner: wasmtime::Module,
    /// Compile worker, load limits, reference components.
    pub(crate) load: LoadSettings,
    /// The seat whose stores are profiled, if any (`arena profile`).
    profiled: Option<Profiled>,
}

impl Arena {
    /// An arena with the default (on-demand) allocator.
    pub fn new() -> anyhow::Result<Arena> {
        Arena::with_options(ArenaOptions::default())
    }

    /// An arena with explicit options.
    pub fn with_options(options: ArenaOptions) -> anyhow::Result<Arena> {
        let engine = new_engine(&options)?;
        let linker = Arc::new(bot_linker(&engine)?);
        let epoch = EpochTicker::start(&engine);
        let burner = crate::host_fuel::compile_burner(&engine)?;
        Ok(Arena { engine, linker, epoch, options, cache: None, burner, load: Default::default(), profiled: None })
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
        let limits = BotLimits::new(budget.memory_bytes());
        let state = BotState::new(wasi, limits, handles, Burner::new(self.burner.clone()));
        let mut store = Store::new(&self.engine, state);
        store.limiter(|state| state.limits());
        store.set_hostcall_fuel(MAX_HOSTCALL_BYTES);
        let meter = handles.meter.clone();
        store.call_hook(move |ctx, hook| meter.hook(ctx, hook));
        let epoch = self.epoch.clone();
        // Checked every tick: interrupt the call once the shared deadline has passed.
        store.epoch_deadline_callback(move |ctx| {
            if epoch.now.load(Ordering::Relaxed) >= ctx.data().deadline() {
                Err(wasmtime::Trap::Interrupt.into())
            } else {
                Ok(UpdateDeadline::Continue(1))
            }
        });
        store.set_epoch_deadline(1);
        store
    }

    /// [`Arena::new_store`] for the bot in `seat`: profiled when this arena profiles that seat
    /// ([`Arena::with_profiler`]).
    pub fn new_seat_store(&self, budget: &Budget, wasi: WasiCtx, handles: &StoreHandles, seat: u8) -> Store<BotState> {
        let mut store = self.new_store(budget, wasi, handles);
        if let Some(profiled) = self.profiled.as_ref().filter(|profiled| profiled.seat == seat) {
            profiled.sampler.install(&mut store, handles.meter.clone());
        }
        store
    }

    /// This arena, profiling the stores of one seat's bot (`arena profile`): the match plays the
    /// same, and `profiled.sampler` records where the seat's fuel went.
    pub fn with_profiler(mut self, profiled: Option<Profiled>) -> Arena {
        self.profiled = profiled;
        self
    }
}

/// What an [`Arena`] loads bots with beyond its engine: the compile worker, the memory limit
/// declared minimums are checked against, and the reference components built from the games'
/// WIT (see `typecheck`), shared by the arena's clones.
#[derive(Clone, Default)]
pub struct LoadSettings {
    worker: Option<CompileWorker>,
    memory_limit_mib: Option<u32>,
    pool_check: Arc<OnceLock<Engine>>,
    pub(crate) references: Arc<Mutex<Vec<(&'static str, Component)>>>,
}

impl Arena {
    /// This arena, compiling bots in `worker` (`None`: in this process, the default).
    pub fn with_compile_worker(mut self, worker: Option<CompileWorker>) -> Arena {
        self.load.worker = worker;
        self
    }

    /// This arena, refusing at load a bot whose core modules declare more initial memory than
    /// `mib` (a match's [`crate::Budget::memory_mib`]); by default the limit is
    /// [`ArenaOptions::max_memory_mib`], the most any match may grant.
    pub fn with_load_memory_limit(mut self, mib: u32) -> Arena {
        self.load.memory_limit_mib = Some(mib);
        self
    }

    /// The compile worker, if bots are compiled in one.
    pub fn compile_worker(&self) -> Option<&CompileWorker> {
        self.load.worker.as_ref()
    }

    /// Compiles a component with this arena's engine: through its artifact cache if it has
    /// one, in its compile worker if it has one ([`crate::compile`]).
    pub fn compile(
        &self,
        request: crate::compile::Request<'_, impl FnOnce() -> Result<crate::cache::EntryFacts, String>>,
    ) -> Result<(Component, crate::cache::EntryFacts), CompileError> {
        let pool_check = match self.options.allocator {
            Allocator::OnDemand => Some(self.pool_check_engine().map_err(|err| CompileError::Invalid(one_line(&err)))?),
            Allocator::Pooling { .. } => None,
        };
        crate::compile::compile(&self.engine, &self.options, self.cache(), self.compile_worker(), pool_check, request)
    }

    /// The engine an on-demand arena checks components against the pool's limits with
    /// ([`crate::engine::pool_check_engine`]), built on first use and shared by the arena's
    /// clones.
    fn pool_check_engine(&self) -> wasmtime::Result<&Engine> {
        if let Some(engine) = self.load.pool_check.get() {
            return Ok(engine);
        }
        let engine = pool_check_engine(self.options.max_memory_mib)?;
        Ok(self.load.pool_check.get_or_init(|| engine))
    }

    /// The memory limit, in MiB, bots' declared initial memory is checked against at load.
    pub fn load_memory_limit_mib(&self) -> u32 {
        self.load.memory_limit_mib.unwrap_or(self.options().max_memory_mib)
    }
}

/// The imports a bot may use: locked-down WASI p2 and the arena log.
fn bot_linker(engine: &Engine) -> anyhow::Result<Linker<BotState>> {
    let mut linker = Linker::new(engine);
    crate::host_fuel::add_wasi_to_linker(&mut linker)?;
    // Timers resolve against the bot's virtual clock, never real time (crate::wasi).
    linker.allow_shadowing(true);
    let mut clocks = linker.instance(&format!("wasi:clocks/monotonic-clock@{WASI_P2_VERSION}"))?;
    clocks.func_wrap(
        "subscribe-duration",
        |mut store: wasmtime::StoreContextMut<'_, BotState>, (duration,): (u64,)| {
            store.data_mut().count_host_call();
            Ok((store.data_mut().subscribe_duration(duration)?,))
        },
    )?;
    clocks.func_wrap("subscribe-instant", |mut store: wasmtime::StoreContextMut<'_, BotState>, (when,): (u64,)| {
        store.data_mut().count_host_call();
        Ok((store.data_mut().subscribe_instant(when)?,))
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
