//! The pipes between the host and one line-protocol bot instance, and its fuel meter, all
//! around one shared [`Exchange`]:
//!
//! - **stdin** ([`HostStdin`]): the runner queues one message per turn; stdin releases them one
//!   at a time, the next only once the bot has read all of the previous one, so a bot that reads
//!   ahead (any buffered reader) never takes in a message before it has answered the one before.
//!   With nothing left, its `Pollable::ready` records the waker, marks the bot as *waiting for
//!   input* and returns `Pending`: that is how the driver sees that a bot finished its turn
//!   ([`crate::driver::Driven::Idle`]). The exchange counts the bytes the bot has read.
//! - **stdout** ([`AnswerCollector`]): cut into lines. A line longer than the protocol's bound
//!   is kept as "too long", never buffered past the bound. Each completed line is classified:
//!   the first line written after the bot had read the whole current message is the turn's
//!   answer; any other line is stale (written before the bot read the state it would answer,
//!   or a second answer to one state). Whitespace-only lines are ignored.
//! - **fuel**: the store is inside the pending `run` future, so the runner cannot ask it for its
//!   fuel. The store's [`CallMeter`] holds the fuel left at every host-call transition; a line is
//!   stamped with the fuel left when it was written (inside the write call). The meter also
//!   restarts the turn-fuel chunk (`set_fuel` with the fuel left) when asked, on the way back to
//!   wasm: after an answer, and when a turn's message is read after a turn that ended without
//!   one.
//!
//! Every method is non-blocking and panic-free; the lock is never held across an await.

use crate::fault::AnswerError;
use crate::meter::CallMeter;
use crate::wasi::{ByteSink, SinkStream};
use std::collections::VecDeque;
use std::pin::Pin;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::task::{Context, Poll, Waker};
use wasmtime_wasi::cli::{IsTerminal, StdinStream};
use wasmtime_wasi::p2::{InputStream, Pollable, StreamResult};

/// Most unread input the host keeps for a bot; past it the bot is trapped
/// ([`crate::fault::TrapKind::InputBacklog`]). A bot only leaves input unread while it computes,
/// which its game budget bounds; this bounds the host's memory whatever the budget.
pub const MAX_BACKLOG: usize = 8 << 20;
/// Stale lines kept per turn for the replay (the rest are counted).
pub const STALE_KEPT: usize = 4;

/// A completed stdout line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// The text (newline and trailing `\r` removed), or why it is unusable.
    pub text: Result<String, AnswerError>,
    /// Fuel left when the line was completed.
    pub fuel: u64,
}

/// The lines completed since they were last taken.
#[derive(Debug, Default)]
pub struct Written {
    /// The answer to the current message, if one was written.
    pub answer: Option<Line>,
    /// Stale lines, the first [`STALE_KEPT`].
    pub stale: Vec<Line>,
    /// Stale lines past those.
    pub more_stale: u32,
}

/// The unread input is over [`MAX_BACKLOG`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Backlog;

#[derive(Default)]
struct State {
    /// Messages not released to the bot yet.
    queue: VecDeque<Vec<u8>>,
    /// Released bytes the bot has not read yet.
    input: VecDeque<u8>,
    /// Bytes the bot has read.
    consumed: u64,
    /// Bytes handed to the bot.
    handed: u64,
    /// A line is the answer only if the bot had read this many bytes when it wrote it.
    fresh_from: u64,
    /// The current message has its answer.
    answered: bool,
    /// The bot's stdin `ready` is pending on an empty buffer.
    waiting: bool,
    waker: Option<Waker>,
    partial: Vec<u8>,
    overflow: bool,
    written: Written,
}

impl State {
    /// Releases the next queued message once the bot has read everything released before it.
    fn release(&mut self) {
        if self.input.is_empty()
            && let Some(message) = self.queue.pop_front()
        {
            self.input.extend(message);
        }
    }
}

/// What the host, the bot's stdin and stdout, and its store's call hook share.
pub struct Exchange {
    state: Mutex<State>,
    /// The instance's store's meter.
    meter: Arc<CallMeter>,
    max_line: usize,
}

impl Exchange {
    /// An exchange for one instance whose answer lines may be `max_line` bytes long, and whose
    /// store reports to `meter`.
    pub fn new(max_line: usize, meter: Arc<CallMeter>) -> Arc<Exchange> {
        Arc::new(Exchange { state: Mutex::new(State::default()), meter, max_line })
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues a message for the bot. With `must_read`, only a line written after the bot has
    /// read all of it answers it; without (a greeting), the bot's first line does.
    pub fn hand(&self, lines: &[String], must_read: bool) -> Result<(), Backlog> {
        let mut state = self.lock();
        let bytes: usize = lines.iter().map(|line| line.len() + 1).sum();
        let unread = state.input.len() + state.queue.iter().map(Vec::len).sum::<usize>();
        if unread.saturating_add(bytes) > MAX_BACKLOG {
            return Err(Backlog);
        }
        let mut message = Vec::with_capacity(bytes);
        for line in lines {
            message.extend_from_slice(line.as_bytes());
            message.push(b'\n');
        }
        state.queue.push_back(message);
        state.handed += bytes as u64;
        state.fresh_from = if must_read { state.handed } else { 0 };
        state.answered = false;
        state.waiting = false;
        if let Some(waker) = state.waker.take() {
            drop(state);
            waker.wake();
        }
        Ok(())
    }

    /// Takes the lines completed since the last call.
    pub fn take_written(&self) -> Written {
        std::mem::take(&mut self.lock().written)
    }

    /// Whether the bot waits for input with nothing left to read.
    pub fn is_waiting(&self) -> bool {
        let state = self.lock();
        state.waiting && state.input.is_empty() && state.queue.is_empty()
    }

    /// Fuel left at the bot's last host-call transition.
    pub fn fuel(&self) -> u64 {
        self.meter.fuel()
    }

    /// Restarts the turn-fuel chunk when the bot next returns from the host (it is waiting for
    /// input: that is when it reads the next message).
    pub fn restart_chunk_on_read(&self) {
        self.meter.restart_chunk_on_return();
    }

    /// The bot's stdin.
    pub fn stdin(self: &Arc<Self>) -> HostStdin {
        HostStdin(self.clone())
    }

    /// The bot's stdout.
    pub fn stdout(self: &Arc<Self>) -> SinkStream<AnswerCollector> {
        SinkStream(AnswerCollector(self.clone()))
    }

    fn poll_ready(&self, cx: &Context<'_>) -> Poll<()> {
        let mut state = self.lock();
        state.release();
        if state.input.is_empty() {
            state.waiting = true;
            state.waker = Some(cx.waker().clone());
            Poll::Pending
        } else {
            state.waiting = false;
            Poll::Ready(())
        }
    }

    fn read(&self, size: usize) -> bytes::Bytes {
        let mut state = self.lock();
        state.release();
        let n = size.min(state.input.len());
        let bytes: Vec<u8> = state.input.drain(..n).collect();
        state.consumed += n as u64;
        if n > 0 {
            state.waiting = false;
        }
        bytes.into()
    }

    fn collect(&self, bytes: &[u8]) {
        let fuel = self.fuel();
        let mut state = self.lock();
        for piece in bytes.split_inclusive(|b| *b == b'\n') {
            let (content, complete) = match piece.split_last() {
                Some((b'\n', content)) => (content, true),
                _ => (piece, false),
            };
            if !state.overflow {
                if state.partial.len() + content.len() > self.max_line {
                    state.overflow = true;
                    state.partial = Vec::new();
                } else {
                    state.partial.extend_from_slice(content);
                }
            }
            if complete {
                let text = if std::mem::take(&mut state.overflow) {
                    Err(AnswerError::TooLong { limit: self.max_line })
                } else {
                    let raw = std::mem::take(&mut state.partial);
                    match String::from_utf8(raw) {
                        Ok(text) if text.trim().is_empty() => continue,
                        Ok(text) => Ok(text.trim_end_matches('\r').to_owned()),
                        Err(_) => Err(AnswerError::NotUtf8),
                    }
                };
                state.partial.clear();
                self.classify(&mut state, Line { text, fuel });
            }
        }
    }

    fn classify(&self, state: &mut State, line: Line) {
        if !state.answered && state.consumed >= state.fresh_from {
            state.answered = true;
            state.written.answer = Some(line);
            self.meter.restart_chunk_on_return();
        } else if state.written.stale.len() < STALE_KEPT {
            state.written.stale.push(line);
        } else {
            state.written.more_stale += 1;
        }
    }
}

/// The bot's stdin: the messages the runner hands it.
pub struct HostStdin(Arc<Exchange>);

impl IsTerminal for HostStdin {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdinStream for HostStdin {
    fn async_stream(&self) -> Box<dyn tokio::io::AsyncRead + Send + Sync> {
        Box::new(StdinHandle(self.0.clone()))
    }

    fn p2_stream(&self) -> Box<dyn InputStream> {
        Box::new(StdinHandle(self.0.clone()))
    }
}

struct StdinHandle(Arc<Exchange>);

#[async_trait::async_trait]
impl Pollable for StdinHandle {
    async fn ready(&mut self) {
        std::future::poll_fn(|cx| self.0.poll_ready(cx)).await
    }
}

#[async_trait::async_trait]
impl InputStream for StdinHandle {
    fn read(&mut self, size: usize) -> StreamResult<bytes::Bytes> {
        Ok(self.0.read(size))
    }
}

impl tokio::io::AsyncRead for StdinHandle {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        match self.0.poll_ready(cx) {
            Poll::Ready(()) => {
                let bytes = self.0.read(buf.remaining());
                buf.put_slice(&bytes);
                Poll::Ready(Ok(()))
            }
            Poll::Pending => Poll::Pending,
        }
    }
}

/// The bot's stdout: answer lines, bounded.
#[derive(Clone)]
pub struct AnswerCollector(Arc<Exchange>);

impl ByteSink for AnswerCollector {
    fn accept(&self, bytes: &[u8]) {
        self.0.collect(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Text = Result<String, AnswerError>;

    fn lines(exchange: &Exchange) -> (Option<Text>, Vec<Text>) {
        let written = exchange.take_written();
        (written.answer.map(|line| line.text), written.stale.into_iter().map(|line| line.text).collect())
    }

    #[test]
    fn the_first_line_after_reading_the_message_is_the_answer() {
        let exchange = Exchange::new(16, CallMeter::new());
        exchange.hand(&["state 1".into()], true).unwrap_or(());
        exchange.collect(b"early\n");
        assert_eq!(lines(&exchange), (None, vec![Ok("early".into())]), "written before reading: stale");
        assert_eq!(exchange.read(100).len(), 8);
        exchange.collect(b"1 b");
        exchange.collect(b" 2\r\n\nextra\n");
        assert_eq!(lines(&exchange), (Some(Ok("1 b 2".into())), vec![Ok("extra".into())]));
    }

    #[test]
    fn messages_are_released_one_at_a_time() {
        let exchange = Exchange::new(16, CallMeter::new());
        exchange.hand(&["one".into()], true).unwrap_or(());
        exchange.hand(&["two".into()], true).unwrap_or(());
        assert_eq!(&exchange.read(100)[..], b"one\n", "a read-ahead stops at the message's end");
        exchange.collect(b"1 b 2\n");
        assert_eq!(lines(&exchange), (None, vec![Ok("1 b 2".into())]), "the answer to `one` is stale");
        assert_eq!(&exchange.read(100)[..], b"two\n");
        exchange.collect(b"0 g 5\n");
        assert_eq!(lines(&exchange).0, Some(Ok("0 g 5".into())));
        assert!(!exchange.is_waiting());
    }

    #[test]
    fn an_over_long_line_is_kept_as_too_long_without_its_bytes() {
        let exchange = Exchange::new(4, CallMeter::new());
        exchange.hand(&[], false).unwrap_or(());
        exchange.collect(&[b'x'; 1000]);
        exchange.collect(b"xx\nok\n");
        assert_eq!(lines(&exchange), (Some(Err(AnswerError::TooLong { limit: 4 })), vec![Ok("ok".into())]));
        exchange.collect(&[0xff, b'\n']);
        assert_eq!(lines(&exchange).1, vec![Err(AnswerError::NotUtf8)]);
    }

    #[test]
    fn the_backlog_is_bounded() {
        let exchange = Exchange::new(4, CallMeter::new());
        let big = vec!["x".repeat(MAX_BACKLOG / 2)];
        assert_eq!(exchange.hand(&big, true), Ok(()));
        assert_eq!(exchange.hand(&big, true), Err(Backlog));
    }
}
