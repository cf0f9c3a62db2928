//! The fuel profiler behind `arena profile`: where one seat's bot spent its fuel, as samples of
//! its wasm call stack taken every N units of fuel ([`sampler`]), placed in the match's phases
//! from the replay ([`phases`]), written as a speedscope file and summed up per function
//! ([`report`]). Deterministic: the same bot, opponents and seed give the same profile, byte for
//! byte, on any machine; and the match plays exactly as unprofiled (same moves, same fuel).
//! [`Profiled`] is the [`StoreHook`] that installs the sampler on one seat's stores.
//!
//! [`fuel_profile`]: what a bot spends per turn and per match, read from a replay (`arena fuel`).
//!
//! It stands on the sandbox alone (stores, the call meter, budgets): no game, loader or match
//! loop.

pub mod fuel_profile;
pub mod phases;
pub mod report;
pub mod sampler;

pub use sampler::{DEFAULT_EVERY, FuelSampler, Samples};

use arena_sandbox::StoreHook;
use arena_sandbox::store::{BotState, StoreHandles};
use std::sync::Arc;
use wasmtime::Store;

/// Which seat a sandbox profiles, and the sampler its stores feed: installed with
/// `Sandbox::with_store_hook`.
#[derive(Debug, Clone)]
pub struct Profiled {
    /// The profiled seat.
    pub seat: u8,
    /// Its sampler.
    pub sampler: Arc<FuelSampler>,
}

impl StoreHook for Profiled {
    fn new_store(&self, store: &mut Store<BotState>, handles: &StoreHandles, seat: u8) {
        if seat == self.seat {
            self.sampler.install(store, handles.meter.clone());
        }
    }
}
