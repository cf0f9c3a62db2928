//! Faults are data: every skipped turn, trap, invalid action and forfeit is a [`BotFault`]
//! value in the match record and the replay (DESIGN.md section 1), never a matched string.

use serde::{Deserialize, Serialize};

/// Where in a bot's life a trap happened.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Instantiation (start functions, data initialisation).
    Instantiate,
    /// The `init` export.
    Init,
    /// A `take-turn` call.
    Turn,
}

/// Why an instance stopped abnormally.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrapKind {
    /// Instantiation or `init` spent more than one turn budget.
    StartupFuelExhausted,
    /// Wasm stack exhausted (unbounded recursion).
    StackOverflow,
    /// Out-of-bounds linear memory access.
    MemoryOutOfBounds,
    /// `unreachable` executed: a Rust panic, a failed allocation, an abort.
    Unreachable,
    /// Integer division by zero or overflow, bad float-to-int conversion.
    Arithmetic,
    /// Bad indirect call or table access.
    BadCall,
    /// The wall-clock backstop fired (DESIGN.md: far above any turn budget).
    WallClockBackstop,
    /// Any other trap or host-side failure during the call, rendered.
    Other {
        /// What wasmtime reported.
        detail: String,
    },
}

/// Why a bot is out of the match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ForfeitReason {
    /// The game fuel budget is spent.
    GameFuelExhausted,
    /// The bot trapped the maximum number of times.
    TooManyTraps,
}

/// Why an answer was refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InvalidReason {
    /// The answer does not decode into a game action (bad enum value, oversized list, ...).
    Malformed {
        /// What is wrong with it.
        detail: String,
    },
    /// The game refused the action; the game's own typed reason, serialised.
    Refused {
        /// The game's `Invalid` value as JSON.
        reason: serde_json::Value,
    },
}

/// Something a bot did that was not a plain valid answer in time.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "fault", rename_all = "snake_case")]
pub enum BotFault {
    /// Ran out of turn fuel: suspended with memory and stack intact; no action this turn.
    Suspended,
    /// Trapped: the instance is discarded; a fresh one starts before the next turn.
    Trapped {
        /// During instantiation, `init` or a turn.
        phase: Phase,
        /// What happened.
        trap: TrapKind,
    },
    /// Answered something the game does not accept; the fallback applied.
    InvalidAction {
        /// Why.
        reason: InvalidReason,
    },
    /// Out of the match; takes no more actions.
    Forfeit {
        /// Why.
        reason: ForfeitReason,
    },
}

/// Maps a wasmtime error from a bot call to a [`TrapKind`].
pub fn classify(err: &wasmtime::Error) -> TrapKind {
    use wasmtime::Trap;
    match err.downcast_ref::<Trap>() {
        Some(Trap::StackOverflow) => TrapKind::StackOverflow,
        Some(Trap::MemoryOutOfBounds | Trap::HeapMisaligned) => TrapKind::MemoryOutOfBounds,
        Some(Trap::UnreachableCodeReached) => TrapKind::Unreachable,
        Some(Trap::IntegerDivisionByZero | Trap::IntegerOverflow | Trap::BadConversionToInteger) => {
            TrapKind::Arithmetic
        }
        Some(Trap::TableOutOfBounds | Trap::IndirectCallToNull | Trap::BadSignature) => TrapKind::BadCall,
        Some(Trap::Interrupt) => TrapKind::WallClockBackstop,
        Some(other) => TrapKind::Other { detail: other.to_string() },
        None => TrapKind::Other { detail: format!("{err:#}") },
    }
}

/// Whether a wasmtime error is fuel exhaustion.
pub fn is_out_of_fuel(err: &wasmtime::Error) -> bool {
    matches!(err.downcast_ref::<wasmtime::Trap>(), Some(wasmtime::Trap::OutOfFuel))
}
