//! Polling a bot call to completion, to a fuel yield, or to the wall-clock backstop.
//!
//! wasmtime's async fuel yielding returns `Pending` when a turn's fuel is used up, after waking
//! the task *on the polling thread*. A host function can also return `Pending`, with a wake on
//! the polling thread (wasmtime-wasi yields to tokio in places) or without one (waiting on I/O).
//! The driver counts a `Pending` as a fuel yield only when it was woken on the polling thread
//! *and* the store's [`CallMeter`] says the call is inside a fuel yield (a whole chunk spent):
//! a host function's yield is polled through. It never spins: it parks until
//! woken or until the backstop has passed.
//!
//! A line-protocol bot (a WASI command) never returns between turns: it finishes a turn by
//! waiting for its next input. [`drive`] reports that as [`Driven::Idle`]: `Pending`
//! without a fuel-yield wake while the bot's stdin says it is waiting for input (its
//! `Pollable::ready` returned `Pending` on an empty buffer). It does not park then: nothing
//! but the host's next message can wake the bot.

use crate::meter::CallMeter;
use crate::sandbox::{Sandbox, ticks_for};
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

/// How far a call got.
pub enum Driven<T> {
    /// It finished (successfully or with a trap).
    Ready(T),
    /// It used up its turn's fuel and is suspended (only when asked to stop at fuel yields).
    Suspended,
    /// It waited in a host function past the backstop.
    Stuck,
    /// It waits for input the host has not given yet (only when the caller can tell).
    Idle,
}

/// Polls `call` until it completes, yields for fuel (when `yield_is_suspend`; otherwise a
/// yield is polled through), is stuck in a host function past `backstop_ms`, or (for a bot that
/// reads input) is pending, not for fuel, while `is_idle` says it waits for input. The epoch
/// `deadline` the store's callback checks is moved to `backstop_ms` from now first; `meter` is
/// the call's store's.
pub fn drive<F: Future + ?Sized>(
    sandbox: &Sandbox,
    deadline: &AtomicU64,
    backstop_ms: u64,
    meter: &CallMeter,
    mut call: Pin<&mut F>,
    yield_is_suspend: bool,
    is_idle: &dyn Fn() -> bool,
) -> Driven<F::Output> {
    let backstop = Duration::from_millis(backstop_ms);
    deadline.store(sandbox.epoch_now() + ticks_for(backstop_ms), Ordering::Relaxed);
    // One flag per driving thread, made once: a call is driven on one thread from start to end.
    let flag = THREAD_FLAG.with(Arc::clone);
    let waker = Waker::from(Arc::clone(&flag));
    let mut cx = Context::from_waker(&waker);
    let started = Instant::now();
    loop {
        flag.woken.store(false, Ordering::SeqCst);
        let poll = wasmtime_wasi::runtime::with_ambient_tokio_runtime(|| call.as_mut().poll(&mut cx));
        let woken = flag.woken.load(Ordering::SeqCst);
        if woken && poll.is_pending() {
            meter.woke_suspended();
        }
        match poll {
            Poll::Ready(output) => return Driven::Ready(output),
            Poll::Pending if woken && meter.in_fuel_yield() => {
                meter.begin_next_chunk();
                if yield_is_suspend {
                    return Driven::Suspended;
                }
            }
            Poll::Pending if is_idle() => return Driven::Idle,
            // A host function yielded and asked to be polled again.
            Poll::Pending if woken && started.elapsed() < backstop => {}
            Poll::Pending => match backstop.checked_sub(started.elapsed()) {
                Some(left) if !left.is_zero() => std::thread::park_timeout(left),
                _ => return Driven::Stuck,
            },
        }
    }
}

thread_local! {
    /// This thread's [`WakeFlag`] (a waker per call would cost an allocation per turn).
    static THREAD_FLAG: Arc<WakeFlag> =
        Arc::new(WakeFlag { woken: AtomicBool::new(false), thread: std::thread::current() });
}

struct WakeFlag {
    woken: AtomicBool,
    thread: std::thread::Thread,
}

impl Wake for WakeFlag {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        // Only a wake on the driving thread (from inside the poll) is a fuel yield. Host I/O
        // completes on a runtime thread (wasmtime-wasi's stdout worker, timers) and can wake
        // us just before `drive` looks at the flag: counting that as a yield would suspend a
        // bot that had fuel left, at random.
        if std::thread::current().id() == self.thread.id() {
            self.woken.store(true, Ordering::SeqCst);
        }
        self.thread.unpark();
    }
}
