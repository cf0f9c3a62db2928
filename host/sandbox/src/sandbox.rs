//! The sandbox every bot runs in: one [`Sandbox`] per process holds the wasmtime engine (fuel
//! metering, determinism settings, limits: [`crate::engine`]), the epoch ticker behind the
//! wall-clock backstop, the linker every bot is instantiated with (locked-down WASI and the
//! arena's log, every host function charged: [`crate::host_fuel`]) and the fuel burner, and
//! makes each bot instance's [`Store`]. Engine, linker and compiled bots are shared across
//! matches and threads; each bot gets its own store per instance.

use crate::budget::Budget;
use crate::engine::{ArenaOptions, new_engine};
use crate::host_fuel::{Burner, FuelPayer, WASI_P2_VERSION};
use crate::limits::BotLimits;
use crate::store::{BotState, MAX_HOSTCALL_BYTES, StoreHandles};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;
use wasmtime::component::Linker;
use wasmtime::{Engine, Store, UpdateDeadline};
use wasmtime_wasi::p1::WasiP1Ctx;

/// Interval of the epoch ticker behind the wall-clock backstop.
pub const EPOCH_TICK: Duration = Duration::from_millis(10);

/// Engine, linker, epoch ticker and fuel burner, shared by every match in the process.
#[derive(Clone)]
pub struct Sandbox {
    engine: Engine,
    linker: Arc<Linker<BotState>>,
    /// The linker a core module speaking WASI preview1 is instantiated against
    /// ([`crate::preview1`]).
    preview1: Arc<wasmtime::Linker<BotState>>,
    epoch: Arc<EpochTicker>,
    options: ArenaOptions,
    /// The loop host functions charge fuel with (`host_fuel`).
    burner: wasmtime::Module,
    /// Called on every seat's new store (the profiler installs its sampler this way).
    store_hook: Option<Arc<dyn StoreHook>>,
}

/// Something that watches the stores of a match's bots, installed with
/// [`Sandbox::with_store_hook`]: [`Sandbox::new_seat_store`] hands it every store it makes. It
/// must not change what the bot observes or spends (the fuel profiler replaces the store's call
/// hook with one that runs the meter's first, and only reads fuel).
pub trait StoreHook: Send + Sync {
    /// `store`, just made for the bot in `seat`, whose call meter is `handles.meter`.
    fn new_store(&self, store: &mut Store<BotState>, handles: &StoreHandles, seat: u8);
}

impl Sandbox {
    /// A sandbox with these options.
    pub fn new(options: ArenaOptions) -> wasmtime::Result<Sandbox> {
        let engine = new_engine(&options)?;
        let linker = Arc::new(bot_linker(&engine)?);
        let preview1 = Arc::new(crate::preview1::linker(&engine)?);
        let epoch = EpochTicker::start(&engine);
        let burner = crate::host_fuel::compile_burner(&engine)?;
        Ok(Sandbox { engine, linker, preview1, epoch, options, burner, store_hook: None })
    }

    /// The wasmtime engine.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The linker every bot is instantiated against.
    pub fn linker(&self) -> &Linker<BotState> {
        &self.linker
    }

    /// The linker a core module speaking WASI preview1 (a Go program) is instantiated against.
    pub fn preview1_linker(&self) -> &wasmtime::Linker<BotState> {
        &self.preview1
    }

    /// The options this sandbox was built with.
    pub fn options(&self) -> ArenaOptions {
        self.options
    }

    /// Epoch ticks elapsed so far.
    pub fn epoch_now(&self) -> u64 {
        self.epoch.now.load(Ordering::Relaxed)
    }

    /// A fresh store for one bot instance, with its limits, locked-down WASI (built with
    /// `handles.clock`), log and call meter.
    pub fn new_store(&self, budget: &Budget, wasi: WasiP1Ctx, handles: &StoreHandles) -> Store<BotState> {
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

    /// [`Sandbox::new_store`] for the bot in `seat`, handed to the store hook if there is one
    /// ([`Sandbox::with_store_hook`]).
    pub fn new_seat_store(
        &self,
        budget: &Budget,
        wasi: WasiP1Ctx,
        handles: &StoreHandles,
        seat: u8,
    ) -> Store<BotState> {
        let mut store = self.new_store(budget, wasi, handles);
        if let Some(hook) = &self.store_hook {
            hook.new_store(&mut store, handles, seat);
        }
        store
    }

    /// This sandbox, handing every seat's new store to `hook` (`None`: no hook, the default).
    pub fn with_store_hook(mut self, hook: Option<Arc<dyn StoreHook>>) -> Sandbox {
        self.store_hook = hook;
        self
    }
}

/// The imports a bot may use: locked-down WASI p2 and the arena log.
fn bot_linker(engine: &Engine) -> wasmtime::Result<Linker<BotState>> {
    let mut linker = Linker::new(engine);
    crate::host_fuel::add_wasi_to_linker(&mut linker)?;
    // The arena's own filesystem: the bot's data folder, if it has one.
    crate::data_fs::add_to_linker(&mut linker)?;
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
/// any clone of the [`Sandbox`] lives.
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
