//! Faults are data: every skipped turn, trap, invalid action and forfeit is a [`BotFault`] value in
//! the match record and the replay (docs/design.md#faults-are-data), never a matched string.

use serde::{Deserialize, Serialize};

/// Most bytes of text a fault carries into the match record and the replay (a trap's message,
/// what was wrong with an answer): the bot controls some of it (names in a backtrace, its own
/// output), so it is bounded like the log.
pub const MAX_DETAIL_BYTES: usize = 512;

/// `text` cut to [`MAX_DETAIL_BYTES`] on a character boundary, with `…` when cut.
pub fn bounded_detail(text: &str) -> String {
    if text.len() <= MAX_DETAIL_BYTES {
        return text.to_owned();
    }
    let mut end = MAX_DETAIL_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

/// What an error says, without the wasm backtrace wasmtime attaches (its frame names come from
/// the bot), bounded.
fn error_detail(err: &wasmtime::Error) -> String {
    bounded_detail(&err.root_cause().to_string())
}

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
    /// Wasm stack exhausted (unbounded recursion): the bot's counted stack passed its limit
    /// ([`crate::stack`]), or, as a backstop, wasmtime's native limit.
    StackOverflow,
    /// Out-of-bounds linear memory access.
    MemoryOutOfBounds,
    /// `unreachable` executed: a Rust panic, a failed allocation, an abort.
    Unreachable,
    /// Integer division by zero or overflow, bad float-to-int conversion.
    Arithmetic,
    /// Bad indirect call or table access.
    BadCall,
    /// The wall-clock backstop fired (docs/design.md#wall-clock-backstop: far above any turn
    /// budget).
    WallClockBackstop,
    /// The bot called WASI `exit`, or a line-protocol bot's `run` returned. The instance is
    /// gone and is restarted like after any trap.
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
    /// The bot asked for more host resources (timers, streams) than it may hold at once
    /// ([`crate::store::MAX_HOST_RESOURCES`]).
    HostResources {
        /// The cap.
        limit: u32,
    },
    /// Any other trap or host-side failure during the call, rendered.
    Other {
        /// What wasmtime reported.
        detail: String,
    },
}

impl TrapKind {
    /// [`TrapKind::Other`] for a host-side failure, with a bounded message.
    pub fn other(err: &wasmtime::Error) -> TrapKind {
        TrapKind::Other { detail: error_detail(err) }
    }
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
    /// The answer does not decode into a game action: the host could not lift it (a bad enum
    /// value, a list over the host's bound), or it is over the game's bounds.
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

impl InvalidReason {
    /// [`InvalidReason::Malformed`] for an answer wasmtime could not lift (see
    /// [`is_lift_failure`]), with a bounded message.
    pub fn malformed(err: &wasmtime::Error) -> InvalidReason {
        InvalidReason::Malformed { detail: error_detail(err) }
    }
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

/// A fault in words, as the ladder's pages and `arena match` show it: its kind (`suspended`,
/// `trap`, `invalid action` or `forfeit`) and what happened, bounded ([`MAX_DETAIL_BYTES`]).
/// The detail is partly the bot's own words (a trap's message, its answer), kept as they are:
/// whoever shows it escapes it for its medium (a page's HTML, a terminal's control characters).
pub fn in_words(fault: &BotFault) -> (&'static str, String) {
    let (kind, detail) = match fault {
        BotFault::Suspended => ("suspended", "out of turn fuel: no action this turn".to_owned()),
        BotFault::Trapped { phase, trap } => ("trap", format!("{}: {}", words(phase), words(trap))),
        BotFault::InvalidAction { reason } => ("invalid action", words(reason)),
        BotFault::Forfeit { reason } => ("forfeit", words(reason)),
    };
    (kind, bounded_detail(&detail))
}

/// A part of a fault in words, from its serialised form (so a new kind of trap or refusal needs
/// nothing here): an enum's variant name with spaces for underscores, a variant with fields as
/// `name: fields`, a field as `name value`, except the fields that are the text itself
/// (`detail`, `line`, `reason`, `error`), bare, and a line-protocol answer's error (tagged by
/// `error`) as `name: fields`. A game's own reason for refusing an action is its JSON.
fn words(value: &impl Serialize) -> String {
    use serde_json::Value;
    const BARE: [&str; 4] = ["detail", "line", "reason", "error"];
    fn name(text: &str) -> String {
        text.replace('_', " ")
    }
    fn of_value(value: &Value) -> String {
        match value {
            Value::String(variant) => name(variant),
            // A variant with fields (`{"exited": {"code": 1}}`).
            Value::Object(map)
                if map.len() == 1
                    && map.iter().all(|(key, field)| field.is_object() && !BARE.contains(&key.as_str())) =>
            {
                map.iter().map(|(variant, fields)| format!("{}: {}", name(variant), of_value(fields))).collect()
            }
            // Fields (of a variant, or of an answer's error tagged by `error`).
            Value::Object(map) => {
                let tag = map.get("error").and_then(Value::as_str).map(name);
                let fields: Vec<String> = map
                    .iter()
                    .filter(|(key, _)| tag.is_none() || key.as_str() != "error")
                    .map(|(key, field)| match field {
                        Value::String(text) if BARE.contains(&key.as_str()) => text.clone(),
                        Value::Object(_) if BARE.contains(&key.as_str()) => of_value(field),
                        Value::String(text) => format!("{} {text}", name(key)),
                        other => format!("{} {other}", name(key)),
                    })
                    .collect();
                match tag {
                    Some(tag) if fields.is_empty() => tag,
                    Some(tag) => format!("{tag}: {}", fields.join(", ")),
                    None => fields.join(", "),
                }
            }
            other => other.to_string(),
        }
    }
    serde_json::to_value(value).map_or_else(|err| err.to_string(), |value| of_value(&value))
}

/// Maps a wasmtime error from a bot call to a [`TrapKind`]; a WASI `exit` is
/// [`TrapKind::Exited`].
pub fn classify(err: &wasmtime::Error) -> TrapKind {
    use wasmtime::Trap;
    if let Some(code) = exit_code(err) {
        return TrapKind::Exited { code };
    }
    if let Some(wasmtime::component::ResourceTableError::Full) = err.downcast_ref() {
        let limit = u32::try_from(crate::store::MAX_HOST_RESOURCES).unwrap_or(u32::MAX);
        return TrapKind::HostResources { limit };
    }
    if crate::stack::is_stack_exhausted(err) {
        return TrapKind::StackOverflow;
    }
    match err.downcast_ref::<Trap>() {
        Some(Trap::StackOverflow) => TrapKind::StackOverflow,
        Some(Trap::MemoryOutOfBounds | Trap::HeapMisaligned) => TrapKind::MemoryOutOfBounds,
        Some(Trap::UnreachableCodeReached) => TrapKind::Unreachable,
        Some(Trap::IntegerDivisionByZero | Trap::IntegerOverflow | Trap::BadConversionToInteger) => {
            TrapKind::Arithmetic
        }
        Some(Trap::TableOutOfBounds | Trap::IndirectCallToNull | Trap::BadSignature) => TrapKind::BadCall,
        Some(Trap::Interrupt) => TrapKind::WallClockBackstop,
        Some(other) => TrapKind::Other { detail: bounded_detail(&other.to_string()) },
        None => TrapKind::other(err),
    }
}

/// Whether a call's error came from lifting its result after the bot's code had returned (a
/// bad enum discriminant, invalid UTF-8, a list out of bounds or over
/// [`crate::store::MAX_HOSTCALL_BYTES`]): not a wasm trap, not an `exit`, and without the
/// wasm backtrace wasmtime attaches to every error that unwinds through the bot's frames (a
/// host function's failure inside the call has one).
pub fn is_lift_failure(err: &wasmtime::Error) -> bool {
    err.downcast_ref::<wasmtime::Trap>().is_none()
        && exit_code(err).is_none()
        && err.downcast_ref::<wasmtime::WasmBacktrace>().is_none()
}

/// The exit status if a wasmtime error is a WASI `exit` call.
pub fn exit_code(err: &wasmtime::Error) -> Option<i32> {
    err.downcast_ref::<wasmtime_wasi::I32Exit>().map(|exit| exit.0)
}

/// Whether an instantiation failed for want of host resources (the pooling allocator's slots
/// are all taken by other instances): the host's failure, never the bot's fault.
pub fn is_host_exhaustion(err: &wasmtime::Error) -> bool {
    err.downcast_ref::<wasmtime::PoolConcurrencyLimitError>().is_some()
}

/// Whether a wasmtime error is fuel exhaustion.
pub fn is_out_of_fuel(err: &wasmtime::Error) -> bool {
    matches!(err.downcast_ref::<wasmtime::Trap>(), Some(wasmtime::Trap::OutOfFuel))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn details_are_bounded_on_a_character_boundary() {
        let long = "é".repeat(MAX_DETAIL_BYTES);
        let cut = bounded_detail(&long);
        assert!(cut.len() <= MAX_DETAIL_BYTES + '…'.len_utf8());
        assert!(cut.ends_with('…'));
        assert_eq!(bounded_detail("short"), "short");
    }

    fn words_of(fault: BotFault) -> (String, String) {
        let (kind, detail) = in_words(&fault);
        (kind.to_owned(), detail)
    }

    #[test]
    fn faults_are_put_in_words_with_the_bots_text_as_it_is_and_bounded() {
        let trapped = |phase, trap| words_of(BotFault::Trapped { phase, trap });
        assert_eq!(trapped(Phase::Turn, TrapKind::Unreachable), ("trap".into(), "turn: unreachable".into()));
        assert_eq!(trapped(Phase::Init, TrapKind::StartupFuelExhausted).1, "init: startup fuel exhausted");
        assert_eq!(trapped(Phase::Turn, TrapKind::Exited { code: 3 }).1, "turn: exited: code 3");
        let other = TrapKind::Other { detail: "<script>alert(1)</script> a_b".into() };
        assert_eq!(trapped(Phase::Turn, other).1, "turn: other: <script>alert(1)</script> a_b", "the text untouched");
        let invalid = |reason| words_of(BotFault::InvalidAction { reason });
        assert_eq!(
            invalid(InvalidReason::Malformed { detail: "bad enum".into() }),
            ("invalid action".into(), "malformed: bad enum".into())
        );
        assert_eq!(
            invalid(InvalidReason::Refused { reason: serde_json::json!({"tile": "red", "row": 3}) }).1,
            "refused: row 3, tile red"
        );
        assert_eq!(
            invalid(InvalidReason::Protocol { error: AnswerError::NotJson { detail: "line 1".into() } }).1,
            "protocol: not json: line 1"
        );
        assert_eq!(
            invalid(InvalidReason::Protocol { error: AnswerError::WrongNonce { expected: 3, got: 2 } }).1,
            "protocol: wrong nonce: expected 3, got 2"
        );
        assert_eq!(invalid(InvalidReason::Protocol { error: AnswerError::NoAnswer }).1, "protocol: no answer");
        assert_eq!(
            words_of(BotFault::Forfeit { reason: ForfeitReason::GameFuelExhausted }),
            ("forfeit".into(), "game fuel exhausted".into())
        );
        assert_eq!(words_of(BotFault::Suspended).0, "suspended");
        let long = TrapKind::Other { detail: "x".repeat(5000) };
        assert!(trapped(Phase::Turn, long).1.len() <= MAX_DETAIL_BYTES + '…'.len_utf8(), "bounded");
    }

    #[test]
    fn an_exit_is_its_own_kind_and_not_a_lift_failure() {
        let exit = wasmtime::Error::new(wasmtime_wasi::I32Exit(3));
        assert_eq!(classify(&exit), TrapKind::Exited { code: 3 });
        assert!(!is_lift_failure(&exit));
        assert!(is_lift_failure(&wasmtime::Error::msg("unexpected discriminant: 9")));
        assert!(!is_lift_failure(&wasmtime::Error::new(wasmtime::Trap::UnreachableCodeReached)));
    }
}
