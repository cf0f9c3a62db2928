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
//! - a request, from the line-protocol layer, to restart the turn-fuel chunk when the host
//!   function running returns to wasm (the line protocols' stdin and stdout);
//! - **the host-call fee**: every host function a bot calls counts itself here
//!   ([`CallMeter::count_host_call`], from the linker's getters in `host_fuel`), and the
//!   hook charges [`FUEL_PER_HOST_CALL`] when that function returns to wasm. The fee is taken
//!   with `set_fuel`, which would begin a fresh turn chunk: the store's yield interval is
//!   resized so that the chunk still ends at the same fuel ([`CallMeter::chunk_end`]), and
//!   restored to the whole turn once a fuel yield begins the next chunk. A fee that takes the
//!   fuel past the chunk's end leaves a chunk of 1, so the turn ends at the bot's very next fuel
//!   check (as a turn ends after the few instructions a chunk overruns); one that takes more
//!   than the fuel left traps with wasmtime's `OutOfFuel`, as the bot's own instructions would.
//!
//! The hook is installed on every store by [`crate::Sandbox::new_store`].

use crate::budget::FUEL_PER_HOST_CALL;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
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
    /// Host calls made whose fee is not charged yet.
    unpaid_calls: AtomicU64,
    /// The store's yield interval is smaller than the chunk (a fee kept the chunk's end in
    /// place): it is resized at every return to wasm until a new chunk begins.
    shrunk: AtomicBool,
    /// Host entries in progress (a host function, or a libcall such as a fuel check, and what
    /// they call back into wasm).
    depth: AtomicU32,
    /// Bit `d`: the host entry at depth `d` is a host function (it counted itself).
    counted: AtomicU64,
    /// The depth of the host entry in which the driver last saw the call suspended (0: none
    /// since it returned).
    yielded_at: AtomicU32,
    /// The last return from the host may set the fuel ([`CallMeter::fuel_settable`]).
    settable: AtomicBool,
}

/// The bit of [`CallMeter::counted`] for host-entry depth `depth` (host functions never nest
/// deeper than a few entries: a host function, the wasm it calls, that wasm's libcalls).
fn depth_bit(depth: u32) -> u64 {
    1 << depth.min(63)
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
        self.shrunk.store(false, Ordering::SeqCst);
    }

    /// Counts one call of a host function by the bot, from inside it: its fee
    /// ([`FUEL_PER_HOST_CALL`]) is charged when it returns to wasm.
    pub fn count_host_call(&self) {
        self.unpaid_calls.fetch_add(1, Ordering::SeqCst);
        self.counted.fetch_or(depth_bit(self.depth.load(Ordering::SeqCst)), Ordering::SeqCst);
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

    /// The driver saw the call return `Pending` after a wake on its own thread: it is
    /// suspended in a fuel yield (or a host function's yield), in the innermost host entry,
    /// which may set the fuel when it returns (wasmtime reloads it after a fuel check).
    pub fn woke_suspended(&self) {
        self.yielded_at.store(self.depth.load(Ordering::SeqCst), Ordering::SeqCst);
    }

    /// Whether the host entry that last returned to wasm was a host function or a fuel yield:
    /// the only returns after which wasm reloads its fuel, so the only ones at which the fuel
    /// (or the yield interval, which sets it) may be set ([`CallMeter::hook`]).
    pub fn fuel_settable(&self) -> bool {
        self.settable.load(Ordering::SeqCst)
    }

    /// Restarts the turn-fuel chunk (`set_fuel` with the fuel left) when the host function the
    /// bot is in (or calls next) returns to wasm.
    pub fn restart_chunk_on_return(&self) {
        self.restart_chunk.store(true, Ordering::SeqCst);
    }

    /// The store's call hook: records fuel, recognises fuel yields, charges host-call fees and
    /// restarts the chunk when asked.
    ///
    /// The fuel is only ever set on the way back from a host function or from a fuel yield:
    /// compiled wasm keeps its fuel count in a register and reloads it from the store only
    /// after a call or a fuel check, so fuel set when a libcall it does not reload after
    /// returns (an epoch check, `memory.grow`) would be overwritten, or worse, by its stale
    /// count. Host functions count themselves ([`CallMeter::count_host_call`]), which marks
    /// their entry; a fuel yield is the only other host entry that can suspend the call.
    pub fn hook<T>(&self, mut ctx: StoreContextMut<'_, T>, hook: CallHook) -> wasmtime::Result<()> {
        let mut fuel = ctx.get_fuel()?;
        match hook {
            CallHook::CallingHost => {
                let depth = self.depth.fetch_add(1, Ordering::SeqCst) + 1;
                self.counted.fetch_and(!depth_bit(depth), Ordering::SeqCst);
                let chunk = self.chunk.load(Ordering::SeqCst);
                let start = self.chunk_start.load(Ordering::SeqCst);
                if chunk > 0 && fuel.saturating_add(chunk) <= start {
                    self.in_fuel_yield.store(true, Ordering::SeqCst);
                }
            }
            CallHook::ReturningFromHost => {
                self.in_fuel_yield.store(false, Ordering::SeqCst);
                let depth = self.depth.fetch_sub(1, Ordering::SeqCst);
                let from_host_function = self.counted.fetch_and(!depth_bit(depth), Ordering::SeqCst) & depth_bit(depth);
                let from_yield = self.yielded_at.compare_exchange(depth, 0, Ordering::SeqCst, Ordering::SeqCst).is_ok();
                let settable = from_host_function != 0 || from_yield;
                self.settable.store(settable, Ordering::SeqCst);
                // Fees and restarts at the host function's own return only: the same point
                // in the bot's code whatever yields happened inside the call (a profiler's
                // samples, a turn's end inside a charge).
                if from_host_function != 0 {
                    // A restarted chunk begins before the fee: the fee of the call that
                    // begins a turn (the answer's write, the read of the next message) is paid
                    // from that turn, where the line protocol's runner counts it.
                    if self.restart_chunk.swap(false, Ordering::SeqCst) {
                        ctx.set_fuel(fuel)?;
                        self.chunk_start.store(fuel, Ordering::SeqCst);
                    }
                    fuel = self.charge_fees(&mut ctx, fuel)?;
                }
                // Past the chunk's end the turn ends at the next check: the interval stays.
                if settable && self.shrunk.load(Ordering::SeqCst) && self.chunk_end().is_some_and(|end| fuel > end) {
                    self.keep_chunk_end(&mut ctx, fuel)?;
                }
            }
            CallHook::CallingWasm | CallHook::ReturningFromWasm => {}
        }
        self.fuel.store(fuel, Ordering::SeqCst);
        Ok(())
    }

    /// Charges the fees of the host calls made since the last charge out of `fuel`, the store's
    /// fuel now, and returns what is left. More than is left traps with `OutOfFuel`.
    fn charge_fees<T>(&self, ctx: &mut StoreContextMut<'_, T>, fuel: u64) -> wasmtime::Result<u64> {
        let calls = self.unpaid_calls.swap(0, Ordering::SeqCst);
        if calls == 0 {
            return Ok(fuel);
        }
        let fee = calls.saturating_mul(FUEL_PER_HOST_CALL);
        let Some(left) = fuel.checked_sub(fee) else {
            ctx.set_fuel(0)?;
            self.fuel.store(0, Ordering::SeqCst);
            return Err(wasmtime::Trap::OutOfFuel.into());
        };
        ctx.set_fuel(left)?;
        self.keep_chunk_end(ctx, left)?;
        Ok(left)
    }

    /// Sizes the store's yield interval so that, with `fuel` left, the current chunk ends where
    /// it began to end (`set_fuel` begins a whole chunk otherwise); past its end, a chunk of 1.
    fn keep_chunk_end<T>(&self, ctx: &mut StoreContextMut<'_, T>, fuel: u64) -> wasmtime::Result<()> {
        let chunk = self.chunk.load(Ordering::SeqCst);
        let Some(end) = self.chunk_end() else { return Ok(()) };
        let interval = fuel.saturating_sub(end).clamp(1, chunk);
        self.shrunk.store(interval < chunk, Ordering::SeqCst);
        // Setting the interval also sets the fuel again, with it.
        ctx.fuel_async_yield_interval(Some(interval))
    }
}
