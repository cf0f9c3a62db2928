//! The arena a match loads and plays its bots in: one [`Arena`] per process holds the
//! [`Sandbox`] (engine, linker, epoch ticker, the store of each bot instance) and what loading
//! needs beyond it (the artifact cache, the compile worker, the reference components; a
//! match's memory limit comes with each load, `loader::Loader`), and a store hook (the profiler's, when `arena profile` runs). Engine, linker and compiled
//! bots are shared across matches and threads; each bot gets its own [`Store`] per instance
//! (docs/design.md#the-match-loop).

use crate::budget::Budget;
use crate::cache::ArtifactCache;
use crate::compile::{CompileError, CompileWorker, one_line};
use crate::engine::{Allocator, ArenaOptions, pool_check_engine};
use crate::store::{BotState, StoreHandles};
use arena_sandbox::data::DataLimits;
use arena_sandbox::{Sandbox, StoreHook};
use std::sync::{Arc, Mutex, OnceLock};
use wasmtime::component::{Component, Linker};
use wasmtime::{Engine, Store};
use wasmtime_wasi::p1::WasiP1Ctx;

/// The sandbox and what loading needs beyond it, shared by every match in the process.
#[derive(Clone)]
pub struct Arena {
    sandbox: Sandbox,
    cache: Option<ArtifactCache>,
    /// How big a bot's data folder may be.
    data_limits: DataLimits,
    /// Compile worker and reference components.
    pub(crate) load: LoadSettings,
}

impl Arena {
    /// An arena with the default (on-demand) allocator.
    pub fn new() -> wasmtime::Result<Arena> {
        Arena::with_options(ArenaOptions::default())
    }

    /// An arena with explicit options.
    pub fn with_options(options: ArenaOptions) -> wasmtime::Result<Arena> {
        let sandbox = Sandbox::new(options)?;
        Ok(Arena { sandbox, cache: None, data_limits: DataLimits::DEFAULT, load: Default::default() })
    }

    /// The sandbox bots run in.
    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
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

    /// This arena, refusing a bot's data folder over `limits` (default: [`DataLimits::DEFAULT`]).
    pub fn with_data_limits(mut self, limits: DataLimits) -> Arena {
        self.data_limits = limits;
        self
    }

    /// How big a bot's data folder may be.
    pub fn data_limits(&self) -> DataLimits {
        self.data_limits
    }

    /// The wasmtime engine.
    pub fn engine(&self) -> &Engine {
        self.sandbox.engine()
    }

    /// The linker every bot is instantiated against.
    pub fn linker(&self) -> &Linker<BotState> {
        self.sandbox.linker()
    }

    /// The options this arena was built with.
    pub fn options(&self) -> ArenaOptions {
        self.sandbox.options()
    }

    /// A fresh store for one bot instance ([`Sandbox::new_store`]).
    pub fn new_store(&self, budget: &Budget, wasi: WasiP1Ctx, handles: &StoreHandles) -> Store<BotState> {
        self.sandbox.new_store(budget, wasi, handles)
    }

    /// [`Arena::new_store`] for the bot in `seat`, handed to the store hook if there is one
    /// ([`Sandbox::new_seat_store`]).
    pub fn new_seat_store(
        &self,
        budget: &Budget,
        wasi: WasiP1Ctx,
        handles: &StoreHandles,
        seat: u8,
    ) -> Store<BotState> {
        self.sandbox.new_seat_store(budget, wasi, handles, seat)
    }

    /// This arena, handing every seat's new store to `hook` ([`Sandbox::with_store_hook`]; the
    /// fuel profiler's `Profiled`, for `arena profile`: the match plays the same).
    pub fn with_store_hook(mut self, hook: Option<Arc<dyn StoreHook>>) -> Arena {
        self.sandbox = self.sandbox.with_store_hook(hook);
        self
    }
}

/// What an [`Arena`] loads bots with beyond its engine: the compile worker and the reference
/// components built from the games' WIT (see `typecheck`), shared by the arena's clones. The
/// memory limit a load checks against is the match's, given with each load
/// ([`crate::loader::Loader`]).
#[derive(Clone, Default)]
pub struct LoadSettings {
    worker: Option<CompileWorker>,
    pool_check: Arc<OnceLock<Engine>>,
    pub(crate) references: Arc<Mutex<Vec<(&'static str, Component)>>>,
}

impl Arena {
    /// This arena, compiling bots in `worker` (`None`: in this process, the default).
    pub fn with_compile_worker(mut self, worker: Option<CompileWorker>) -> Arena {
        self.load.worker = worker;
        self
    }

    /// The compile worker, if bots are compiled in one.
    pub fn compile_worker(&self) -> Option<&CompileWorker> {
        self.load.worker.as_ref()
    }

    /// Compiles a component with this arena's engine: through its artifact cache if it has
    /// one, in its compile worker if it has one ([`crate::compile`]).
    pub fn compile<A: crate::artifact::Artifact>(
        &self,
        request: crate::compile::Request<'_, impl FnOnce() -> Result<crate::cache::EntryFacts, String>>,
    ) -> Result<(A, crate::cache::EntryFacts), CompileError> {
        let pool_check = match self.options().allocator {
            Allocator::OnDemand => Some(self.pool_check_engine().map_err(|err| CompileError::Invalid(one_line(&err)))?),
            Allocator::Pooling { .. } => None,
        };
        crate::compile::compile(
            self.engine(),
            &self.options(),
            self.cache(),
            self.compile_worker(),
            pool_check,
            request,
        )
    }

    /// The engine an on-demand arena checks components against the pool's limits with
    /// ([`crate::engine::pool_check_engine`]), built on first use and shared by the arena's
    /// clones.
    fn pool_check_engine(&self) -> wasmtime::Result<&Engine> {
        if let Some(engine) = self.load.pool_check.get() {
            return Ok(engine);
        }
        let engine = pool_check_engine(self.options().max_memory_mib)?;
        Ok(self.load.pool_check.get_or_init(|| engine))
    }
}
