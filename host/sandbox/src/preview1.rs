//! WASI preview1 for a core module that runs as one: a Go program (other `wasm32-wasip1`
//! commands are wrapped in the preview1 component adapter when loaded, but the adapter takes
//! pages of the module's memory that Go's runtime also uses as its heap). Its imports are
//! wasmtime-wasi's own preview1 functions (`wasmtime_wasi::p1`) over the same locked-down
//! context as every bot's ([`crate::wasi`]), with the arena's rules on top, so that such a bot
//! observes and pays what a component does:
//!
//! - every call pays the host-call fee ([`crate::budget::FUEL_PER_HOST_CALL`]): wasmtime-wasi's
//!   functions take their context through `BotState::counted_preview1`, once per call, and
//!   the arena's below count themselves;
//! - `poll_oneoff` is the arena's: each subscription costs [`FUEL_PER_POLLABLE`], charged before
//!   it is read, and timers are the instance's virtual clock, as a component's are: every
//!   subscription is ready at once, a clock's moving the clock forward to its deadline (the
//!   furthest one when there are several), so a sleep costs no real time and what the bot sees
//!   after it is a function of its own calls only. wasmtime-wasi's own waits on the real clock;
//! - `random_get` is the arena's: [`FUEL_PER_RANDOM_BYTE`] a byte, charged before the bytes are
//!   made, at most [`MAX_RANDOM_REQUEST`] bytes a call (more traps), from the bot's seeded
//!   generator;
//! - `fd_write` is the arena's: [`FUEL_PER_BYTE`] a byte of the iovec array it reads and of the
//!   bytes it writes, each charged before it is read, at most `WRITE_PERMIT` (64 KiB) bytes a call
//!   (a shorter write, as POSIX allows: C libraries and Go's runtime write the rest in further
//!   calls), to stdout or stderr (any other descriptor is `EBADF`: a data file is read-only);
//! - the bot's data folder, when it has one, is its only preopened directory, `/data` as
//!   descriptor 3, read-only, deterministic and charged as a component's (`preview1_data`,
//!   whose functions shadow wasmtime-wasi's file functions but hand every other descriptor to
//!   them); without one there is no preopened directory at all, and every call answers and costs
//!   what wasmtime-wasi's does;
//! - no sockets, no arguments or environment (the context's), and positional calls on stdio
//!   (`fd_pread`, `fd_seek`, ...) answer `ESPIPE`, as a pipe's do (wasmtime-wasi's answer).

use crate::budget::{FUEL_PER_BYTE, FUEL_PER_POLLABLE, FUEL_PER_RANDOM_BYTE};
use crate::host_fuel::{FuelPayer, MAX_RANDOM_REQUEST, charge_fuel};
use crate::preview1_data::{self, errno, exported_memory, range, read, u16_at, u32_at, u64_at, write};
use crate::store::BotState;
use crate::wasi::{WALL_CLOCK_START, WRITE_PERMIT};
use std::future::Future;
use wasmtime::{AsContextMut, Caller, Engine, Linker};
use wasmtime_wasi::cli::WasiCliView;
use wasmtime_wasi::p2::StreamError;
use wasmtime_wasi::p2::bindings::cli::{stderr, stdout};
use wasmtime_wasi::p2::bindings::random::random;

/// The import module of WASI preview1.
pub const PREVIEW1: &str = "wasi_snapshot_preview1";

/// The linker a preview1 core module is instantiated against (see the module doc).
pub(crate) fn linker(engine: &Engine) -> wasmtime::Result<Linker<BotState>> {
    let mut linker = Linker::new(engine);
    wasmtime_wasi::p1::add_to_linker_async(&mut linker, BotState::counted_preview1)?;
    linker.allow_shadowing(true);
    linker.func_wrap_async(PREVIEW1, "poll_oneoff", poll_oneoff)?;
    linker.func_wrap_async(PREVIEW1, "random_get", random_get)?;
    linker.func_wrap_async(PREVIEW1, "fd_write", fd_write)?;
    preview1_data::add_to_linker(&mut linker, PREVIEW1)?;
    linker.allow_shadowing(false);
    Ok(linker)
}

/// Bytes of a preview1 `subscription` and of an `event`.
const SUBSCRIPTION_SIZE: u64 = 48;
const EVENT_SIZE: u64 = 32;
/// `eventtype` values (a subscription's tag and an event's type).
const EVENT_CLOCK: u8 = 0;
const EVENT_FD_READ: u8 = 1;
const EVENT_FD_WRITE: u8 = 2;
/// `clockid` values a subscription may name.
const CLOCK_REALTIME: u32 = 0;
const CLOCK_MONOTONIC: u32 = 1;
/// `subclockflags`: the timeout is an absolute time, not a duration.
const ABSTIME: u16 = 1;

type HostFuture<'a> = Box<dyn Future<Output = wasmtime::Result<i32>> + Send + 'a>;

/// `poll_oneoff(in, out, nsubscriptions, nevents) -> errno` (see the module doc).
fn poll_oneoff(
    mut caller: Caller<'_, BotState>,
    (subs, events, count, nevents): (i32, i32, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        caller.data_mut().count_host_call();
        let count = u64::from(count as u32);
        if count == 0 {
            // Waiting for nothing forever: preview1 (and wasmtime-wasi) refuse it.
            return Ok(errno::INVAL);
        }
        charge_fuel(&mut caller.as_context_mut(), count.saturating_mul(FUEL_PER_POLLABLE)).await?;
        let memory = exported_memory(&mut caller)?;
        let Some(subscriptions) = read(&memory, &caller, subs, count * SUBSCRIPTION_SIZE) else {
            return Ok(errno::FAULT);
        };
        let clock = caller.data().clock().clone();
        let now = clock.peek();
        let mut furthest = None::<u64>;
        let mut out = Vec::with_capacity((count * EVENT_SIZE) as usize);
        for subscription in subscriptions.chunks_exact(SUBSCRIPTION_SIZE as usize) {
            let userdata = &subscription[0..8];
            let (kind, nbytes) = match subscription[8] {
                EVENT_CLOCK => {
                    let id = u32_at(subscription, 16);
                    let timeout = u64_at(subscription, 24);
                    let absolute = u16_at(subscription, 40) & ABSTIME != 0;
                    let deadline = match (id, absolute) {
                        (CLOCK_MONOTONIC, true) => timeout,
                        // The virtual wall clock reads WALL_CLOCK_START plus the virtual time.
                        (CLOCK_REALTIME, true) => timeout.saturating_sub(WALL_CLOCK_START.as_nanos() as u64),
                        (CLOCK_MONOTONIC | CLOCK_REALTIME, false) => now.saturating_add(timeout),
                        // The CPU-time clocks: wasmtime-wasi refuses them too.
                        _ => return Ok(errno::INVAL),
                    };
                    furthest = Some(furthest.map_or(deadline, |furthest| furthest.max(deadline)));
                    (EVENT_CLOCK, 0)
                }
                EVENT_FD_READ => match u32_at(subscription, 16) {
                    0 => (EVENT_FD_READ, 1),
                    _ => return Ok(errno::BADF),
                },
                EVENT_FD_WRITE => match u32_at(subscription, 16) {
                    1 | 2 => (EVENT_FD_WRITE, WRITE_PERMIT as u64),
                    _ => return Ok(errno::BADF),
                },
                _ => return Ok(errno::INVAL),
            };
            let mut event = [0u8; EVENT_SIZE as usize];
            event[0..8].copy_from_slice(userdata);
            event[10] = kind;
            event[16..24].copy_from_slice(&u64::to_le_bytes(nbytes));
            out.extend_from_slice(&event);
        }
        if write(&memory, &mut caller, events, &out).is_none()
            || write(&memory, &mut caller, nevents, &(count as u32).to_le_bytes()).is_none()
        {
            return Ok(errno::FAULT);
        }
        if let Some(deadline) = furthest {
            clock.advance_to(deadline);
        }
        Ok(errno::SUCCESS)
    })
}

/// `random_get(buf, buf_len) -> errno` (see the module doc).
fn random_get(mut caller: Caller<'_, BotState>, (buf, len): (i32, i32)) -> HostFuture<'_> {
    Box::new(async move {
        caller.data_mut().count_host_call();
        let len = u64::from(len as u32);
        if len > MAX_RANDOM_REQUEST {
            wasmtime::bail!("random_get of {len} bytes is over the {MAX_RANDOM_REQUEST}-byte limit");
        }
        let memory = exported_memory(&mut caller)?;
        if range(&memory, &caller, buf, len).is_none() {
            return Ok(errno::FAULT);
        }
        charge_fuel(&mut caller.as_context_mut(), len.saturating_mul(FUEL_PER_RANDOM_BYTE)).await?;
        let bytes = random::Host::get_random_bytes(caller.data_mut().random(), len)?;
        Ok(if write(&memory, &mut caller, buf, &bytes).is_some() { errno::SUCCESS } else { errno::FAULT })
    })
}

/// Bytes of a preview1 `ciovec` (a pointer and a length).
const CIOVEC_SIZE: u64 = 8;
/// What wasmtime-wasi hands an output stream at once in a blocking write.
const BLOCKING_WRITE_CHUNK: usize = 4096;

/// `fd_write(fd, iovs, iovs_len, nwritten) -> errno` (see the module doc): the first non-empty
/// buffer, or its first `WRITE_PERMIT` bytes, as wasmtime-wasi writes the first non-empty one.
fn fd_write(mut caller: Caller<'_, BotState>, (fd, iovs, iovs_len, nwritten): (i32, i32, i32, i32)) -> HostFuture<'_> {
    Box::new(async move {
        caller.data_mut().count_host_call();
        if !matches!(fd, 1 | 2) {
            return Ok(errno::BADF);
        }
        let memory = exported_memory(&mut caller)?;
        let array_len = u64::from(iovs_len as u32).saturating_mul(CIOVEC_SIZE);
        if range(&memory, &caller, iovs, array_len).is_none() {
            return Ok(errno::FAULT);
        }
        charge_fuel(&mut caller.as_context_mut(), array_len.saturating_mul(FUEL_PER_BYTE)).await?;
        let Some(array) = read(&memory, &caller, iovs, array_len) else { return Ok(errno::FAULT) };
        let buffer = array
            .chunks_exact(CIOVEC_SIZE as usize)
            .map(|ciovec| (u32_at(ciovec, 0) as i32, u64::from(u32_at(ciovec, 4))))
            .find(|&(_, len)| len > 0);
        let written = match buffer {
            None => 0,
            Some((ptr, len)) => {
                let len = len.min(WRITE_PERMIT as u64);
                if range(&memory, &caller, ptr, len).is_none() {
                    return Ok(errno::FAULT);
                }
                charge_fuel(&mut caller.as_context_mut(), len.saturating_mul(FUEL_PER_BYTE)).await?;
                let Some(bytes) = read(&memory, &caller, ptr, len) else { return Ok(errno::FAULT) };
                let mut stream = {
                    let mut cli = caller.data_mut().cli();
                    let stream = match fd {
                        1 => stdout::Host::get_stdout(&mut cli)?,
                        _ => stderr::Host::get_stderr(&mut cli)?,
                    };
                    cli.table.delete(stream)?
                };
                for chunk in bytes.chunks(BLOCKING_WRITE_CHUNK) {
                    match stream.blocking_write_and_flush(bytes::Bytes::copy_from_slice(chunk)).await {
                        Ok(()) => {}
                        Err(StreamError::Trap(err)) => return Err(err),
                        Err(_) => return Ok(errno::IO),
                    }
                }
                len as u32
            }
        };
        Ok(if write(&memory, &mut caller, nwritten, &written.to_le_bytes()).is_some() {
            errno::SUCCESS
        } else {
            errno::FAULT
        })
    })
}
