//! The fuel profiler behind `arena profile`: where one seat's bot spent its fuel, as samples of
//! its wasm call stack taken every N units of fuel ([`sampler`]), placed in the match's phases
//! from the replay ([`phases`]), written as a speedscope file and summed up per function
//! ([`report`]). Deterministic: the same bot, opponents and seed give the same profile, byte for
//! byte, on any machine; and the match plays exactly as unprofiled (same moves, same fuel).

pub mod phases;
pub mod report;
pub mod sampler;

pub use sampler::{DEFAULT_EVERY, FuelSampler, Samples};

use std::sync::Arc;

/// Which seat an [`crate::runtime::Arena`] profiles, and the sampler its stores feed.
#[derive(Debug, Clone)]
pub struct Profiled {
    /// The profiled seat.
    pub seat: u8,
    /// Its sampler.
    pub sampler: Arc<FuelSampler>,
}
