//! The host state inside each bot's [`Store`](wasmtime::Store): its WASI context and resources, its memory
//! limits, log, backstop deadline, virtual clock, fuel burner and data folder, and the
//! [`StoreHandles`] a runner keeps to a store it hands to a call's future.

use crate::data::DataTree;
use crate::data_fs::{DataFs, DataPayer};
use crate::host_fuel::{Burner, FuelPayer};
use crate::limits::BotLimits;
use crate::log::BotLog;
use crate::meter::CallMeter;
use crate::preview1_data::{DataFds, Preview1DataPayer};
use crate::wasi::VirtualClock;
use std::sync::Arc;
use std::sync::atomic::AtomicU64;
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::{WasiCtxView, WasiView};

pub use crate::budget::MAX_HOSTCALL_BYTES;

/// Most host resources a bot may hold at once: entries of its WASI resource table (timers and
/// other pollables, streams, errors). Each costs the host a few hundred bytes outside the
/// bot's memory limit (a timer about 230 with its guest handle: 95,000 live timers pinned
/// 22 MiB), so they are capped low enough not to matter: at this cap, about 1 MiB. A bot asking
/// for one more traps (the referee calls it `TrapKind::HostResources`). Real bots hold a handful
/// (the interpreters' stdio streams, a JavaScript bot's pending timers).
pub const MAX_HOST_RESOURCES: usize = 4096;

/// The host state inside each bot's [`Store`](wasmtime::Store).
pub struct BotState {
    /// The WASI context and resource table. wasmtime-wasi's preview1 context holds both, and
    /// its own descriptors for a core module speaking preview1 (`crate::preview1`); a
    /// component's calls use only the two it shares.
    wasi: WasiP1Ctx,
    limits: BotLimits,
    log: BotLog,
    /// Epoch count at which the running call is interrupted (the backstop); shared with the
    /// bot's driver, which moves it forward at every poll.
    deadline: Arc<AtomicU64>,
    /// The instance's virtual time (clocks and timers).
    clock: VirtualClock,
    /// Runs the fuel charges of host functions (`host_fuel`).
    burner: Burner,
    /// The instance's call meter, which charges each host call's fee.
    meter: Arc<CallMeter>,
    /// The bot's data folder, if it has one, and its open file streams (`data_fs`).
    data: DataFs,
    /// The data descriptors a core module on preview1 has open (`preview1_data`): none
    /// without a data folder.
    data_fds: DataFds,
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
    /// The state of a fresh instance: its locked-down WASI context (built with `handles.clock`),
    /// its limits, the bot's handles and a burner for host charges.
    pub(crate) fn new(mut wasi: WasiP1Ctx, limits: BotLimits, handles: &StoreHandles, burner: Burner) -> BotState {
        wasi.ctx().table.set_max_capacity(MAX_HOST_RESOURCES);
        BotState {
            wasi,
            limits,
            log: handles.log.clone(),
            deadline: handles.deadline.clone(),
            clock: handles.clock.clone(),
            burner,
            meter: handles.meter.clone(),
            data: DataFs::default(),
            data_fds: DataFds::default(),
        }
    }

    /// Gives the bot `tree` as its read-only data folder, which it sees at `/data`
    /// (`data_fs`'s preopen; on preview1, descriptor 3, `preview1_data`'s). Without one (the
    /// default) it has no filesystem at all. Set it before the bot's first call: a bot built
    /// with wasi-libc or the preview1 adapter, or Go's runtime, asks for its preopens once, at
    /// start-up.
    pub fn set_data(&mut self, tree: Arc<DataTree>) {
        self.data.set_tree(tree);
        self.data_fds = DataFds::preopened();
    }

    /// The bot's data folder, if it has one.
    pub fn data(&self) -> Option<&Arc<DataTree>> {
        self.data.tree()
    }

    /// The bot's log.
    pub fn log(&self) -> &BotLog {
        &self.log
    }

    /// The store's limiter.
    pub(crate) fn limits(&mut self) -> &mut BotLimits {
        &mut self.limits
    }

    /// The epoch count past which the running call is interrupted.
    pub(crate) fn deadline(&self) -> u64 {
        self.deadline.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// A pollable ready `duration` ns from now on the instance's virtual clock.
    pub(crate) fn subscribe_duration(
        &mut self,
        duration: u64,
    ) -> wasmtime::Result<wasmtime::component::Resource<wasmtime_wasi::p2::DynPollable>> {
        self.clock.subscribe_duration(self.wasi.ctx().table, duration)
    }

    /// A pollable ready at `when` ns on the instance's virtual clock.
    pub(crate) fn subscribe_instant(
        &mut self,
        when: u64,
    ) -> wasmtime::Result<wasmtime::component::Resource<wasmtime_wasi::p2::DynPollable>> {
        self.clock.subscribe(self.wasi.ctx().table, when)
    }

    /// The instance's virtual clock.
    pub(crate) fn clock(&self) -> &VirtualClock {
        &self.clock
    }

    /// The preview1 context, for wasmtime-wasi's preview1 functions: each call counts itself
    /// here, once (they take their context once per call), so that it pays its fee.
    pub(crate) fn counted_preview1(&mut self) -> &mut WasiP1Ctx {
        self.meter.count_host_call();
        &mut self.wasi
    }
}

impl FuelPayer for BotState {
    fn burner(&mut self) -> &mut Burner {
        &mut self.burner
    }

    fn bot_log(&self) -> &BotLog {
        &self.log
    }

    fn random(&mut self) -> &mut wasmtime_wasi::random::WasiRandomCtx {
        self.wasi.ctx().ctx.random()
    }

    fn count_host_call(&mut self) {
        self.meter.count_host_call();
    }
}

impl DataPayer for BotState {
    fn data_fs(&mut self) -> &mut DataFs {
        &mut self.data
    }
}

impl Preview1DataPayer for BotState {
    fn data_fds(&mut self) -> &mut DataFds {
        &mut self.data_fds
    }

    fn counted_wasi_p1(&mut self) -> &mut WasiP1Ctx {
        self.counted_preview1()
    }
}

impl WasiView for BotState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        self.wasi.ctx()
    }
}
