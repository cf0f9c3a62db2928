//! A bot's bounded log: lines from the `arena:common/log` import and bytes written to stdout
//! and stderr, kept per turn in the replay. Bounded per turn and per match so a chatty or
//! hostile bot costs the host a fixed amount of memory; what is over the bound is counted, not
//! kept.

use serde::{Deserialize, Serialize};
use std::sync::{Arc, Mutex, PoisonError};

/// Bytes kept per turn (each call, including a resumed one, is one turn).
pub const LOG_BYTES_PER_TURN: usize = 4 * 1024;
/// Bytes kept per match.
pub const LOG_BYTES_PER_MATCH: usize = 256 * 1024;

/// Where a log entry came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LogSource {
    /// `log(debug, ..)`.
    Debug,
    /// `log(info, ..)`.
    Info,
    /// `log(warn, ..)`.
    Warn,
    /// `log(error, ..)`.
    Error,
    /// Written to stdout.
    Stdout,
    /// Written to stderr.
    Stderr,
}

/// One kept entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Where it came from.
    pub source: LogSource,
    /// The text (lossily decoded for stdout/stderr bytes).
    pub text: String,
}

/// What a turn's log holds once drained.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnLog {
    /// Kept entries, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub entries: Vec<LogEntry>,
    /// Bytes the bot logged past the bounds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped_bytes: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl TurnLog {
    /// Whether nothing was logged.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty() && self.dropped_bytes == 0
    }
}

#[derive(Debug, Default)]
struct State {
    turn: TurnLog,
    turn_bytes: usize,
    match_bytes: usize,
}

/// A bot's log, shared by its log import and its stdout/stderr streams. Cloning shares it.
#[derive(Debug, Clone, Default)]
pub struct BotLog {
    state: Arc<Mutex<State>>,
}

impl BotLog {
    /// Appends `bytes` from `source`, keeping what fits in the turn and match bounds.
    pub fn append(&self, source: LogSource, bytes: &[u8]) {
        self.append_prefix(source, bytes, bytes.len());
    }

    /// Appends a message of `len` bytes from `source` of which only `prefix` (at least the
    /// first [`LOG_BYTES_PER_TURN`] bytes, or all of them) was copied: a turn keeps no more, so
    /// the rest is only counted as dropped.
    pub fn append_prefix(&self, source: LogSource, prefix: &[u8], len: usize) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        let room = (LOG_BYTES_PER_TURN - state.turn_bytes.min(LOG_BYTES_PER_TURN))
            .min(LOG_BYTES_PER_MATCH - state.match_bytes.min(LOG_BYTES_PER_MATCH));
        let kept = &prefix[..prefix.len().min(room)];
        state.turn.dropped_bytes += len.saturating_sub(kept.len()) as u64;
        if kept.is_empty() {
            return;
        }
        state.turn_bytes += kept.len();
        state.match_bytes += kept.len();
        let text = String::from_utf8_lossy(kept).into_owned();
        // Consecutive writes to one stream (print! in pieces) join into one entry.
        match state.turn.entries.last_mut() {
            Some(last) if last.source == source && matches!(source, LogSource::Stdout | LogSource::Stderr) => {
                last.text.push_str(&text)
            }
            _ => state.turn.entries.push(LogEntry { source, text }),
        }
    }

    /// Takes this turn's entries and starts a new turn.
    pub fn take_turn(&self) -> TurnLog {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.turn_bytes = 0;
        std::mem::take(&mut state.turn)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_turn_keeps_its_bound_and_counts_the_rest() {
        let log = BotLog::default();
        log.append(LogSource::Info, &vec![b'x'; LOG_BYTES_PER_TURN + 10]);
        let turn = log.take_turn();
        assert_eq!(turn.entries[0].text.len(), LOG_BYTES_PER_TURN);
        assert_eq!(turn.dropped_bytes, 10);
        log.append(LogSource::Info, b"next");
        assert_eq!(log.take_turn().entries[0].text, "next");
    }

    #[test]
    fn the_match_bound_holds_across_turns() {
        let log = BotLog::default();
        let mut kept = 0;
        for _ in 0..(LOG_BYTES_PER_MATCH / LOG_BYTES_PER_TURN + 5) {
            log.append(LogSource::Stdout, &vec![b'y'; LOG_BYTES_PER_TURN]);
            kept += log.take_turn().entries.iter().map(|e| e.text.len()).sum::<usize>();
        }
        assert_eq!(kept, LOG_BYTES_PER_MATCH);
    }

    #[test]
    fn stdout_pieces_join_but_log_lines_stay_apart() {
        let log = BotLog::default();
        log.append(LogSource::Stdout, b"a");
        log.append(LogSource::Stdout, b"b\n");
        log.append(LogSource::Info, b"one");
        log.append(LogSource::Info, b"two");
        let turn = log.take_turn();
        let texts: Vec<&str> = turn.entries.iter().map(|e| e.text.as_str()).collect();
        assert_eq!(texts, ["ab\n", "one", "two"]);
    }
}
