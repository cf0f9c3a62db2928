//! Deterministic sampling of one seat's wasm call stack by fuel.
//!
//! wasmtime counts fuel in a register and checks it at every function entry and loop header;
//! when a store's fuel chunk is spent, the check calls into the host (saving the exact count),
//! which refills the chunk and, with `fuel_async_yield_interval`, yields. The arena already
//! uses that yield for the end of a turn. A profiled store gets chunks sized to end exactly at
//! the next sample point (every `every` units of fuel the seat consumes) or at the end of the
//! turn's chunk, whichever comes first: when the chunk runs out, the call hook sees the host
//! entered with the wasm stack in place, captures it and charges it the fuel consumed since
//! the previous sample, and the driver polls the yield through. Sample points are a function of
//! the instructions executed alone, so the same match gives the same profile on any machine.
//!
//! The match plays exactly as it would unprofiled: every chunk is sized from the exact fuel
//! left, and never past the fuel left at which the turn's chunk ends ([`CallMeter::chunk_end`]),
//! so the end of a turn falls at the same check, with the same fuel, as without the profiler.
//! No fuel is spent on profiling.

use arena_sandbox::meter::CallMeter;
use arena_sandbox::store::BotState;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, PoisonError};
use wasmtime::{AsContext, AsContextMut, CallHook, Module, Store, StoreContextMut, WasmBacktrace};

/// Fuel between samples when `arena profile` is not told otherwise.
pub const DEFAULT_EVERY: u64 = 10_000;

/// The name the arena's fuel burner module carries: its frames are host work charged to the bot
/// as fuel (WASI output, the log), not the bot's code.
pub use arena_sandbox::BURNER_MODULE;

/// How a profile names the frames of the burner.
pub const HOST_WORK_FRAME: &str = "[host work charged as fuel: output, log]";

/// One function as a profile shows it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Frame {
    /// Its name: demangled from the module's name section, or `<module>!wasm-function[<index>]`.
    pub name: String,
    /// Whether the name came from a name section.
    pub named: bool,
}

/// One sample: the call stack when `every` fuel had been consumed since the previous one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Sample {
    /// Fuel the seat had consumed in all (start-up included) when the sample was taken.
    pub at: u64,
    /// Fuel consumed since the previous sample: what this stack is charged with.
    pub weight: u64,
    /// Indexes into [`Samples::frames`], outermost call first.
    pub stack: Vec<usize>,
}

/// What a profiled seat's stores recorded.
#[derive(Clone, Default)]
pub struct Samples {
    /// Every function seen, in the order first seen.
    pub frames: Vec<Frame>,
    /// The samples, in the order taken.
    pub samples: Vec<Sample>,
    /// Fuel the seat consumed in all.
    pub consumed: u64,
    /// Fuel consumed since the last sample (charged to no stack).
    pub unsampled: u64,
    pub(crate) index: BTreeMap<Frame, usize>,
    /// Per core module seen, its functions' indexes into `frames`.
    pub(crate) modules: Vec<(Module, BTreeMap<u32, usize>)>,
}

impl std::fmt::Debug for Samples {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Samples")
            .field("frames", &self.frames)
            .field("samples", &self.samples.len())
            .field("consumed", &self.consumed)
            .field("unsampled", &self.unsampled)
            .finish_non_exhaustive()
    }
}

impl Samples {
    /// The index of a backtrace frame's function, named once per function (demangling every
    /// frame of every sample was most of a sample's cost).
    fn frame_index(&mut self, frame: &wasmtime::FrameInfo) -> usize {
        let module = match self.modules.iter().position(|(module, _)| Module::same(module, frame.module())) {
            Some(position) => position,
            None => {
                self.modules.push((frame.module().clone(), BTreeMap::new()));
                self.modules.len() - 1
            }
        };
        if let Some(&index) = self.modules[module].1.get(&frame.func_index()) {
            return index;
        }
        let index = self.intern(frame_of(frame));
        self.modules[module].1.insert(frame.func_index(), index);
        index
    }

    fn intern(&mut self, frame: Frame) -> usize {
        if let Some(&index) = self.index.get(&frame) {
            return index;
        }
        self.frames.push(frame.clone());
        self.index.insert(frame, self.frames.len() - 1);
        self.frames.len() - 1
    }
}

/// The profiler of one seat: shared by every store the seat's bot gets (a trap restarts it in a
/// fresh store), filled in as the match plays.
#[derive(Debug)]
pub struct FuelSampler {
    every: u64,
    samples: Mutex<Samples>,
}

/// One store's position in its fuel counter.
#[derive(Debug, Default)]
struct StoreTrack {
    /// Wasm activations on the stack (host → wasm calls not yet returned).
    depth: u32,
    /// The store's fuel when last read.
    last: u64,
}

impl FuelSampler {
    /// A sampler taking a sample every `every` units of fuel (at least 1).
    pub fn new(every: u64) -> Arc<FuelSampler> {
        Arc::new(FuelSampler { every: every.max(1), samples: Mutex::default() })
    }

    /// What was recorded so far.
    pub fn samples(&self) -> Samples {
        self.lock().clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Samples> {
        self.samples.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Adds what the store consumed since `track.last`.
    fn account(&self, track: &mut StoreTrack, now: u64) {
        let spent = track.last.saturating_sub(now);
        track.last = now;
        let mut samples = self.lock();
        samples.consumed += spent;
        samples.unsampled += spent;
    }

    /// Fuel the seat may consume before the next sample is due (at least 1).
    fn to_next_sample(&self) -> u64 {
        let samples = self.lock();
        self.every.saturating_sub(samples.unsampled).max(1)
    }

    /// Records the wasm call stack of `store` when a sample is due, charged with the fuel
    /// consumed since the previous one.
    fn sample_if_due(&self, store: impl AsContext) {
        let mut samples = self.lock();
        if samples.unsampled < self.every {
            return;
        }
        let backtrace = WasmBacktrace::capture(&store);
        let stack = backtrace.frames().iter().rev().map(|frame| samples.frame_index(frame)).collect();
        let sample = Sample { at: samples.consumed, weight: samples.unsampled, stack };
        samples.samples.push(sample);
        samples.unsampled = 0;
    }

    /// Profiles `store`: its call hook (the meter's, which still runs first) also accounts fuel,
    /// samples when the host is entered at a sample point, and sizes the store's fuel chunks.
    pub(crate) fn install(self: &Arc<Self>, store: &mut Store<BotState>, meter: Arc<CallMeter>) {
        let track = Mutex::new(StoreTrack::default());
        let sampler = self.clone();
        store.call_hook(move |mut ctx, hook| {
            meter.hook(ctx.as_context_mut(), hook)?;
            let now = ctx.get_fuel()?;
            let mut track = track.lock().unwrap_or_else(PoisonError::into_inner);
            match hook {
                // A call from the host into a store at rest: the turn may have refuelled it.
                CallHook::CallingWasm if track.depth == 0 => track.last = now,
                _ => sampler.account(&mut track, now),
            }
            match hook {
                CallHook::CallingHost => sampler.sample_if_due(&ctx),
                CallHook::CallingWasm => track.depth += 1,
                CallHook::ReturningFromWasm => track.depth = track.depth.saturating_sub(1),
                CallHook::ReturningFromHost => {}
            }
            // Only where wasm reloads its fuel count: into wasm from the host, or back from a
            // host function or a fuel check (`CallMeter::fuel_settable`).
            let settable = match hook {
                CallHook::CallingWasm => true,
                CallHook::ReturningFromHost => meter.fuel_settable(),
                CallHook::CallingHost | CallHook::ReturningFromWasm => false,
            };
            if settable {
                sampler.size_chunk(&mut ctx, &meter, now)?;
            }
            Ok(())
        });
    }

    /// Before wasm runs on with `now` fuel left: a chunk that ends at the next sample point,
    /// or at the end of the turn's chunk if that comes first. Past the end of the turn's chunk
    /// (a host call in the few instructions a chunk overruns before its check) the chunk is
    /// left as it is, so the turn ends at the very next check, as it would unprofiled.
    fn size_chunk(&self, ctx: &mut StoreContextMut<'_, BotState>, meter: &CallMeter, now: u64) -> wasmtime::Result<()> {
        let to_turn_end = meter.chunk_end().map_or(u64::MAX, |end| now.saturating_sub(end));
        if to_turn_end == 0 {
            return Ok(());
        }
        ctx.fuel_async_yield_interval(Some(self.to_next_sample().min(to_turn_end)))
    }
}

/// A backtrace frame as a profile names it.
fn frame_of(frame: &wasmtime::FrameInfo) -> Frame {
    let module = frame.module().name();
    if module == Some(BURNER_MODULE) {
        return Frame { name: HOST_WORK_FRAME.into(), named: true };
    }
    match frame.func_name() {
        Some(name) => Frame { name: demangle(name), named: true },
        None => Frame {
            name: format!("{}!wasm-function[{}]", module.unwrap_or("module"), frame.func_index()),
            named: false,
        },
    }
}

/// A Rust symbol demangled without its hash (`arena_sdk::azul::act`); any other name as it is.
fn demangle(name: &str) -> String {
    match rustc_demangle::try_demangle(name) {
        Ok(demangled) => format!("{demangled:#}"),
        Err(_) => name.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_names_lose_their_hash_and_others_stay() {
        assert_eq!(demangle("_ZN4core3ptr13drop_in_place17h0123456789abcdefE"), "core::ptr::drop_in_place");
        assert_eq!(demangle("cabi_realloc"), "cabi_realloc");
    }

    #[test]
    fn fuel_is_accounted_between_reads_and_samples_fall_due_every_interval() {
        let sampler = FuelSampler::new(100);
        let mut track = StoreTrack { depth: 1, last: 1_000 };
        sampler.account(&mut track, 950);
        assert_eq!(sampler.to_next_sample(), 50);
        sampler.account(&mut track, 900);
        assert_eq!(sampler.to_next_sample(), 1, "due: 100 consumed");
        // A counter that went up (a refuel) adds nothing.
        sampler.account(&mut track, 5_000);
        let samples = sampler.samples();
        assert_eq!((samples.consumed, samples.unsampled), (100, 100));
    }

    #[test]
    fn frames_are_interned_in_first_seen_order() {
        let mut samples = Samples::default();
        let a = Frame { name: "a".into(), named: true };
        let b = Frame { name: "b".into(), named: true };
        assert_eq!(samples.intern(b.clone()), 0);
        assert_eq!(samples.intern(a.clone()), 1);
        assert_eq!(samples.intern(b), 0);
        assert_eq!(samples.frames[1], a);
    }
}
