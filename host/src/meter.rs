//! What a bot's store reports at every host-call transition, for the code that drives its calls
//! without holding the store (the store lives inside the call's future):
//!
//! - **fuel left** at the last transition, exact: a call that ends without handing the store back
//!   (stuck in a host function past the backstop, or a line-protocol bot waiting for input) is
//!   charged from it, so fuel is charged for whatever the store consumed, however a call ends;
//! - **whether a pending call is a fuel yield**: wasmtime's fuel yield (a turn's fuel chunk is
//!   spent) is a libcall that enters the host like a host function (the hook sees
//!   `CallingHost`), so it is recognised by its fuel: the yield enters the host once a whole
//!   chunk (the turn budget, [`CallMeter::set_chunk`]) has been consumed since the chunk began.
//!   A host function that returns `Pending` (wasmtime-wasi yields to tokio in a few places, and
//!   used to for a zero-length timer) enters with fuel left in the chunk, so the driver never
//!   takes it for a spent turn ([`crate::driver`]). When the driver sees a yield suspend the
//!   call, the next chunk begins at the fuel left then (wasmtime refuels from there);
//! - a request, from the line-protocol layer, to restart the turn-fuel chunk on the next return
//!   from the host to wasm ([`crate::protocol::stdio`]).
//!
//! The hook is installed on every store by [`crate::runtime::Arena::new_store`].

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use wasmtime::{CallHook, StoreContextMut};

/// One store's transitions, shared with the runner that drives its calls.
#[derive(Debug, Default)]
pub struct CallMeter {
    fuel: AtomicU64,
    /// The fuel yield interval (0: the store does not yield).
    chunk: AtomicU64,
    /// Fuel left when the current chunk began.
    chunk_start: AtomicU64,
    /// The host was entered by a fuel yield and has not returned yet.
    in_fuel_yield: AtomicBool,
    restart_chunk: AtomicBool,
}

impl CallMeter {
    /// A meter for a fresh store.
    pub fn new() -> Arc<CallMeter> {
        Arc::default()
    }

    /// Fuel left at the last transition (or at the last [`CallMeter::set_fuel`]).
    pub fn fuel(&self) -> u64 {
        self.fuel.load(Ordering::SeqCst)
    }

    /// Records the fuel the runner just gave the store (`Store::set_fuel`, which also begins a
    /// new chunk), before a call starts.
    pub fn set_fuel(&self, fuel: u64) {
        self.fuel.store(fuel, Ordering::SeqCst);
        self.chunk_start.store(fuel, Ordering::SeqCst);
    }

    /// Records the store's fuel yield interval (`Store::fuel_async_yield_interval`).
    pub fn set_chunk(&self, interval: u64) {
        self.chunk.store(interval, Ordering::SeqCst);
    }

    /// The fuel left at which the current chunk (a turn's fuel) is spent, when the store yields
    /// for fuel: the profiler's samples never move that point (`profiler::sampler`).
    pub fn chunk_end(&self) -> Option<u64> {
        let chunk = self.chunk.load(Ordering::SeqCst);
        (chunk > 0).then(|| self.chunk_start.load(Ordering::SeqCst).saturating_sub(chunk))
    }

    /// Whether the call is inside a fuel yield: a pending call is then a spent turn, not a host
    /// function waiting.
    pub fn in_fuel_yield(&self) -> bool {
        self.in_fuel_yield.load(Ordering::SeqCst)
    }

    /// The driver saw the yield suspend the call: wasmtime's next chunk begins at the fuel left
    /// now. (Only then: a host function called in the few instructions a chunk can overrun
    /// before wasmtime checks also enters the host past the boundary, and must not move it.)
    pub fn begin_next_chunk(&self) {
        self.chunk_start.store(self.fuel(), Ordering::SeqCst);
    }

    /// Restarts the turn-fuel chunk (`set_fuel` with the fuel left) when the bot next returns
    /// from the host to wasm.
    pub fn restart_chunk_on_return(&self) {
        self.restart_chunk.store(true, Ordering::SeqCst);
    }

    /// The store's call hook: records fuel, recognises fuel yields, and restarts the chunk when
    /// asked.
    pub fn hook<T>(&self, mut ctx: StoreContextMut<'_, T>, hook: CallHook) -> wasmtime::Result<()> {
        let fuel = ctx.get_fuel()?;
        match hook {
            CallHook::CallingHost => {
                let chunk = self.chunk.load(Ordering::SeqCst);
                let start = self.chunk_start.load(Ordering::SeqCst);
                if chunk > 0 && fuel.saturating_add(chunk) <= start {
                    self.in_fuel_yield.store(true, Ordering::SeqCst);
                }
            }
            CallHook::ReturningFromHost => {
                self.in_fuel_yield.store(false, Ordering::SeqCst);
                if self.restart_chunk.swap(false, Ordering::SeqCst) {
                    ctx.set_fuel(fuel)?;
                    self.chunk_start.store(fuel, Ordering::SeqCst);
                }
            }
            CallHook::CallingWasm | CallHook::ReturningFromWasm => {}
        }
        self.fuel.store(fuel, Ordering::SeqCst);
        Ok(())
    }
}
