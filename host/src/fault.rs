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
    /// A line-protocol bot (a WASI command) ended: `run` returned or it called `exit`. The
    /// instance is gone and is restarted like after any trap.
    Exited {
        /// The exit status: 0 for `run` returning `ok`, 1 for `err`, else what `exit` was given.
        code: i32,
    },
    /// A line-protocol bot did not answer the protocol's greeting acceptably (a wrong reply,
    /// or it waited for input without replying).
    BadGreeting {
        /// What was wrong.
        detail: String,
    },
    /// A line-protocol bot left more unread input than the host keeps for it.
    InputBacklog,
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
    /// A line-protocol bot's answer line was unusable (see [`AnswerError`]).
    Protocol {
        /// What is wrong with the line.
        error: AnswerError,
    },
}

/// Why a line-protocol bot's answer line is not an action (the protocol's typed parse errors
/// and the runner's own checks).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "error", rename_all = "snake_case")]
pub enum AnswerError {
    /// The line is longer than the protocol's bound; the host kept none of it.
    TooLong {
        /// The bound, in bytes (newline excluded).
        limit: usize,
    },
    /// The line is not UTF-8.
    NotUtf8,
    /// The line is not JSON (JSON protocols).
    NotJson {
        /// The parser's message.
        detail: String,
    },
    /// The line carries the nonce of another state (a suspended bot answering late).
    WrongNonce {
        /// The nonce of the state being answered now.
        expected: u64,
        /// The nonce the line carries.
        got: u64,
    },
    /// The line was written before the bot had read the state it would answer: a late answer
    /// to an earlier state (after a suspension), or a second answer to one state.
    Stale {
        /// The start of the line, for the replay.
        line: String,
    },
    /// The line does not have the answer's shape.
    Malformed {
        /// What is wrong, with the start of the line.
        detail: String,
    },
    /// The bot waited for its next input without answering this turn.
    NoAnswer,
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

/// The exit status if a wasmtime error is a WASI `exit` call.
pub fn exit_code(err: &wasmtime::Error) -> Option<i32> {
    err.downcast_ref::<wasmtime_wasi::I32Exit>().map(|exit| exit.0)
}

/// Whether a wasmtime error is fuel exhaustion.
pub fn is_out_of_fuel(err: &wasmtime::Error) -> bool {
    matches!(err.downcast_ref::<wasmtime::Trap>(), Some(wasmtime::Trap::OutOfFuel))
}
