//! The WASI a bot gets: nothing it could use to reach the host or the world, and nothing
//! nondeterministic (docs/design.md#capabilities).
//!
//! - no filesystem (no preopens), no network, no environment, no arguments, empty stdin;
//! - stdout and stderr go to the bot's bounded [`BotLog`];
//! - random (secure and insecure) is ChaCha8 seeded from (match seed, bot sha256), so a bot's
//!   randomness follows the bot, not its seat;
//! - both clocks are virtual: each reading advances a fixed step, so `Instant::now()` and
//!   `SystemTime::now()` work and are the same in every run;
//! - timers are virtual too ([`VirtualClock::subscribe`], linked over wasmtime-wasi's
//!   `subscribe-duration` and `subscribe-instant` by [`crate::Sandbox`]'s linker): a timer is always
//!   ready, and checking or waiting on it moves the virtual clock forward to its deadline. A
//!   sleep or a poll with a timeout returns at once, costs no real time, and what the bot sees
//!   afterwards is a function of its own calls only (the count of `ready()` checks before a timer
//!   fires is always 0). wasmtime-wasi's own timers wait on the real clock, and its zero-length
//!   timer yields to tokio, which a driver could take for a fuel yield.

use crate::log::{BotLog, LogSource};
use rand_core::SeedableRng;
use sha2::{Digest, Sha256};
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::task::{Context, Poll};
use std::time::Duration;
use wasmtime::component::{Resource, ResourceTable};
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::p2::{DynPollable, OutputStream, Pollable, StreamError, StreamResult};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtxBuilder};

/// Virtual time advanced by each clock reading.
pub const CLOCK_STEP: Duration = Duration::from_micros(1);
/// The virtual wall clock starts at 2020-01-01T00:00:00Z.
pub const WALL_CLOCK_START: Duration = Duration::from_secs(1_577_836_800);
pub use crate::host_fuel::MAX_RANDOM_REQUEST;

/// The 32-byte seed for a bot's randomness: sha256("wasm-arena/bot-random/v1" || match seed
/// (little endian) || bot sha256).
pub fn bot_seed(match_seed: u64, bot_sha256: &[u8; 32]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(b"wasm-arena/bot-random/v1");
    hasher.update(match_seed.to_le_bytes());
    hasher.update(bot_sha256);
    hasher.finalize().into()
}

/// The `seed` passed to the bot's `init`: the first 8 bytes of [`bot_seed`].
pub fn init_seed(match_seed: u64, bot_sha256: &[u8; 32]) -> u64 {
    let seed = bot_seed(match_seed, bot_sha256);
    let mut first = [0u8; 8];
    first.copy_from_slice(&seed[..8]);
    u64::from_le_bytes(first)
}

/// Builds the locked-down WASI context for one bot instance, whose clocks read `clock`
/// (wasmtime-wasi's preview1 context: the WASI 0.2 context and resource table, which a
/// component uses, with the preview1 descriptors a core module uses, `crate::preview1`).
pub fn locked_down_ctx(match_seed: u64, bot_sha256: &[u8; 32], log: &BotLog, clock: &VirtualClock) -> WasiP1Ctx {
    locked_down_builder(match_seed, bot_sha256, log, clock).build_p1()
}

/// The builder behind [`locked_down_ctx`], for callers that replace a stream (line-protocol
/// bots get the host's stdin and an answer collector as stdout; stderr stays the log).
pub fn locked_down_builder(
    match_seed: u64,
    bot_sha256: &[u8; 32],
    log: &BotLog,
    clock: &VirtualClock,
) -> WasiCtxBuilder {
    let seed = bot_seed(match_seed, bot_sha256);
    let mut insecure_seed = seed;
    insecure_seed[0] ^= 0x01;
    let mut seed128 = [0u8; 16];
    seed128.copy_from_slice(&seed[16..]);
    let mut builder = WasiCtxBuilder::new();
    builder
        .stdout(SinkStream(LogStream { log: log.clone(), source: LogSource::Stdout }))
        .stderr(SinkStream(LogStream { log: log.clone(), source: LogSource::Stderr }))
        .secure_random(rand_chacha::ChaCha8Rng::from_seed(seed))
        .insecure_random(rand_chacha::ChaCha8Rng::from_seed(insecure_seed))
        .insecure_random_seed(u128::from_le_bytes(seed128))
        .max_random_size(MAX_RANDOM_REQUEST)
        .wall_clock(VirtualWallClock(clock.clone()))
        .monotonic_clock(VirtualMonotonicClock(clock.clone()))
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false);
    builder
}

/// One bot instance's virtual time, in nanoseconds since the start of the instance: shared by
/// its wall clock, its monotonic clock and its timers. Cloning shares it.
#[derive(Debug, Clone, Default)]
pub struct VirtualClock {
    nanos: Arc<AtomicU64>,
}

impl VirtualClock {
    /// A clock at 0.
    pub fn new() -> VirtualClock {
        VirtualClock::default()
    }

    /// A reading: advances the clock by [`CLOCK_STEP`] and returns the new time.
    fn tick(&self) -> u64 {
        let step = CLOCK_STEP.as_nanos() as u64;
        self.advance(|now| now.saturating_add(step))
    }

    /// The time now, without a reading (for computing a timer's deadline).
    pub fn peek(&self) -> u64 {
        self.nanos.load(Ordering::SeqCst)
    }

    /// Moves the clock forward to `deadline` (never back); returns the time after.
    pub(crate) fn advance_to(&self, deadline: u64) -> u64 {
        self.advance(|now| now.max(deadline))
    }

    fn advance(&self, next: impl Fn(u64) -> u64) -> u64 {
        let previous = self.nanos.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |now| Some(next(now)));
        next(previous.unwrap_or_else(|now| now))
    }

    /// A timer firing at virtual time `deadline` (nanoseconds), as a WASI pollable in `table`.
    pub fn subscribe(&self, table: &mut ResourceTable, deadline: u64) -> wasmtime::Result<Resource<DynPollable>> {
        let timer = table.push(VirtualTimer { clock: self.clone(), deadline })?;
        wasmtime_wasi::p2::subscribe(table, timer)
    }

    /// A timer firing `duration` nanoseconds from now (`subscribe-duration`).
    pub fn subscribe_duration(
        &self,
        table: &mut ResourceTable,
        duration: u64,
    ) -> wasmtime::Result<Resource<DynPollable>> {
        self.subscribe(table, self.peek().saturating_add(duration))
    }
}

/// A virtual timer: always ready; checking or waiting on it moves the clock to its deadline.
struct VirtualTimer {
    clock: VirtualClock,
    deadline: u64,
}

#[async_trait::async_trait]
impl Pollable for VirtualTimer {
    async fn ready(&mut self) {
        self.clock.advance_to(self.deadline);
    }
}

struct VirtualWallClock(VirtualClock);

impl HostWallClock for VirtualWallClock {
    fn resolution(&self) -> Duration {
        CLOCK_STEP
    }

    fn now(&self) -> Duration {
        WALL_CLOCK_START + Duration::from_nanos(self.0.tick())
    }
}

struct VirtualMonotonicClock(VirtualClock);

impl HostMonotonicClock for VirtualMonotonicClock {
    fn resolution(&self) -> u64 {
        CLOCK_STEP.as_nanos() as u64
    }

    fn now(&self) -> u64 {
        self.0.tick()
    }
}

/// Where a bot's writes to stdout or stderr go. Writes never block and never fail: a sink keeps
/// what it bounds allow and counts the rest, so writing cannot trap a bot.
pub trait ByteSink: Clone + Send + Sync + 'static {
    /// Takes one write.
    fn accept(&self, bytes: &[u8]);
}

/// stdout/stderr into the bot's log.
#[derive(Clone)]
struct LogStream {
    log: BotLog,
    source: LogSource,
}

impl ByteSink for LogStream {
    fn accept(&self, bytes: &[u8]) {
        self.log.append(self.source, bytes);
    }
}

/// A WASI output stream over a [`ByteSink`]. Implemented as a WASI `OutputStream` directly
/// (rather than through wasmtime-wasi's `AsyncWrite` adapter, which finishes writes on a runtime
/// thread) so a write completes inside the bot's own call, synchronously.
#[derive(Clone)]
pub struct SinkStream<S>(pub S);

/// Bytes a bot may write per `write` call (WASI's `check-write` permit).
pub(crate) const WRITE_PERMIT: usize = 64 * 1024;

impl<S: ByteSink> IsTerminal for SinkStream<S> {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl<S: ByteSink> StdoutStream for SinkStream<S> {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }

    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        Box::new(self.clone())
    }
}

#[async_trait::async_trait]
impl<S: ByteSink> Pollable for SinkStream<S> {
    async fn ready(&mut self) {}
}

#[async_trait::async_trait]
impl<S: ByteSink> OutputStream for SinkStream<S> {
    fn write(&mut self, bytes: bytes::Bytes) -> StreamResult<()> {
        check_permit(bytes.len())?;
        self.0.accept(&bytes);
        Ok(())
    }

    /// Overridden: the default builds the zeroes first, however many were asked for.
    fn write_zeroes(&mut self, nelem: usize) -> StreamResult<()> {
        check_permit(nelem)?;
        self.write(bytes::Bytes::from(vec![0; nelem]))
    }

    fn flush(&mut self) -> StreamResult<()> {
        Ok(())
    }

    fn check_write(&mut self) -> StreamResult<usize> {
        Ok(WRITE_PERMIT)
    }
}

/// WASI: writing more than `check-write` permitted traps.
fn check_permit(len: usize) -> StreamResult<()> {
    if len > WRITE_PERMIT {
        return Err(StreamError::trap(&format!(
            "a write of {len} bytes is over the {WRITE_PERMIT}-byte check-write permit"
        )));
    }
    Ok(())
}

/// The `AsyncWrite` form, for WASI versions that ask for it.
impl<S: ByteSink> tokio::io::AsyncWrite for SinkStream<S> {
    fn poll_write(self: Pin<&mut Self>, _cx: &mut Context<'_>, buf: &[u8]) -> Poll<std::io::Result<usize>> {
        self.0.accept(buf);
        Poll::Ready(Ok(buf.len()))
    }

    fn poll_flush(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }

    fn poll_shutdown(self: Pin<&mut Self>, _cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Poll::Ready(Ok(()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::future::Future;

    #[test]
    fn bot_seed_depends_on_match_seed_and_bot_not_seat() {
        let a = [1u8; 32];
        let b = [2u8; 32];
        assert_eq!(bot_seed(7, &a), bot_seed(7, &a));
        assert_ne!(bot_seed(7, &a), bot_seed(8, &a));
        assert_ne!(bot_seed(7, &a), bot_seed(7, &b));
    }

    #[test]
    fn virtual_clocks_advance_a_fixed_step_per_reading() {
        let clock = VirtualClock::new();
        let mono = VirtualMonotonicClock(clock.clone());
        let wall = VirtualWallClock(clock);
        assert_eq!(mono.now(), 1_000);
        assert_eq!(mono.now(), 2_000);
        assert_eq!(wall.now(), WALL_CLOCK_START + Duration::from_micros(3));
    }

    #[test]
    fn a_timer_moves_the_clock_to_its_deadline_and_never_back() {
        let clock = VirtualClock::new();
        let mut table = ResourceTable::new();
        clock.tick();
        let mut sleep = VirtualTimer { clock: clock.clone(), deadline: clock.peek() + 1_000_000_000 };
        let mut past = VirtualTimer { clock: clock.clone(), deadline: 5 };
        let waker = std::task::Waker::noop();
        let mut cx = Context::from_waker(waker);
        assert!(std::pin::pin!(sleep.ready()).poll(&mut cx).is_ready());
        assert_eq!(clock.peek(), 1_000_001_000);
        assert!(std::pin::pin!(past.ready()).poll(&mut cx).is_ready());
        assert_eq!(clock.peek(), 1_000_001_000, "a past deadline leaves the clock alone");
        assert!(clock.subscribe_duration(&mut table, u64::MAX).is_ok());
        let mut forever = VirtualTimer { clock: clock.clone(), deadline: u64::MAX };
        assert!(std::pin::pin!(forever.ready()).poll(&mut cx).is_ready());
        assert_eq!(clock.tick(), u64::MAX, "the clock saturates instead of wrapping");
    }
}
