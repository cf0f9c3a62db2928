//! Host work is fuel too (DESIGN.md section 1): every host function whose work grows with its
//! input charges the bot [`FUEL_PER_BYTE`] per byte (or list element) of that input, before
//! doing the work, so a bot within its fuel can never keep the host busy for long.
//!
//! Charged here (the arena's linker defines these over wasmtime-wasi's, see
//! [`add_to_linker`]): the `arena:common/log` message (validated in place, paid for whether or
//! not it is valid, and only what fits in the log's bounds copied), `get-random-bytes` and
//! `get-insecure-random-bytes`, the output-stream writes (`write`, `blocking-write-and-flush`,
//! `write-zeroes`, `blocking-write-zeroes-and-flush`; a write over the stream's `check-write`
//! permit traps before its bytes are copied) and `poll` ([`FUEL_PER_POLLABLE`] per pollable).
//! Name lookups (not allowed) are refused without reading the name. What a bot may hand the host
//! in one call is also bounded ([`crate::store::MAX_HOSTCALL_BYTES`]).
//!
//! **How fuel is charged.** wasmtime can only *set* a store's fuel, and setting it restarts the
//! turn's fuel chunk, which would hand the bot a fresh turn budget at every host call. So the
//! host charges by running a tiny wasm loop in the bot's own store ([`BURNER_WAT`], one core
//! instance per store, made on first use): its fuel is metered exactly like the bot's, so a
//! charge that crosses the turn budget suspends the bot inside the host call (it resumes at its
//! next turn) and one that crosses the game budget forfeits it, with the exact same rules and
//! accounting as the bot's own instructions. A charge of `n` fuel runs `ceil(n / 7)` loop
//! iterations of 7 fuel each.

use crate::bindings::common::arena::common::log::Level;
use crate::budget::{FUEL_PER_BYTE, FUEL_PER_POLLABLE, MAX_HOSTCALL_BYTES};
use crate::log::{BotLog, LogSource};
use std::future::Future;
use wasmtime::component::{Linker, Resource, ResourceAny, WasmList, WasmStr};
use wasmtime::{Engine, Module, StoreContextMut, TypedFunc};
use wasmtime_wasi::WasiView;
use wasmtime_wasi::p2::bindings::io::streams::HostOutputStream;
use wasmtime_wasi::p2::bindings::random::{insecure, random};
use wasmtime_wasi::p2::{DynOutputStream, DynPollable, StreamError};

/// Fuel one iteration of the burner's loop costs (wasmtime's default costs: 7 operators).
pub const FUEL_PER_BURN_STEP: u64 = 7;
/// Largest `get-random-bytes` request honoured (larger ones trap the bot, not the host).
pub const MAX_RANDOM_REQUEST: u64 = 1 << 20;
/// The WASI 0.2 version wasmtime-wasi 48 links (components built against any 0.2.x are linked
/// to it), whose functions are defined again here.
pub const WASI_P2_VERSION: &str = "0.2.12";

/// The loop that burns a charge: `burn(n)` runs `n` iterations of 7 fuel each.
/// Named, so that `arena profile` tells its frames from the bot's (`profiler::sampler`).
pub const BURNER_WAT: &str = r#"(module $arena_charged_host_work
  (func $burn (export "burn") (param $n i64)
    (if (i64.eqz (local.get $n)) (then (return)))
    (loop $again
      (br_if $again (i64.ne (local.tee $n (i64.sub (local.get $n) (i64.const 1))) (i64.const 0))))))"#;

/// What the charged host functions need of a store's data (the arena's is
/// [`crate::store::BotState`]): its WASI context and resources, its burner, its log and its
/// random sources.
pub trait FuelPayer: WasiView + Send + 'static {
    /// The store's burner.
    fn burner(&mut self) -> &mut Burner;
    /// The bot's log.
    fn bot_log(&self) -> &BotLog;
    /// wasmtime-wasi's random sources (seeded per bot).
    fn random(&mut self) -> &mut wasmtime_wasi::random::WasiRandomCtx;
}

/// The burner, compiled once per engine.
pub fn compile_burner(engine: &Engine) -> wasmtime::Result<Module> {
    Module::new(engine, BURNER_WAT)
}

/// A store's burner instance, made on first use.
#[derive(Default)]
pub struct Burner {
    module: Option<Module>,
    burn: Option<TypedFunc<u64, ()>>,
}

impl Burner {
    /// A burner that instantiates `module` when first asked to charge.
    pub fn new(module: Module) -> Burner {
        Burner { module: Some(module), burn: None }
    }
}

/// Charges the bot `bytes` × [`FUEL_PER_BYTE`] by running the burner in its store.
pub async fn charge<T: FuelPayer>(store: &mut StoreContextMut<'_, T>, bytes: u64) -> wasmtime::Result<()> {
    charge_fuel(store, bytes.saturating_mul(FUEL_PER_BYTE)).await
}

/// Charges the bot `fuel` by running the burner in its store.
pub async fn charge_fuel<T: FuelPayer>(store: &mut StoreContextMut<'_, T>, fuel: u64) -> wasmtime::Result<()> {
    if fuel == 0 {
        return Ok(());
    }
    let burn = match store.data_mut().burner().burn.clone() {
        Some(burn) => burn,
        None => {
            let module = store.data_mut().burner().module.clone().ok_or_else(|| wasmtime::Error::msg("no burner"))?;
            let instance = wasmtime::Instance::new_async(&mut *store, &module, &[]).await?;
            let burn = instance.get_typed_func::<u64, ()>(&mut *store, "burn")?;
            store.data_mut().burner().burn = Some(burn.clone());
            burn
        }
    };
    burn.call_async(&mut *store, fuel.div_ceil(FUEL_PER_BURN_STEP)).await
}

type HostFuture<'a, R> = Box<dyn Future<Output = wasmtime::Result<R>> + Send + 'a>;

/// Defines the charged host functions (see the module documentation) in `linker`, over the
/// ones wasmtime-wasi defined.
pub fn add_to_linker<T: FuelPayer>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    let mut log = linker.instance("arena:common/log@0.1.0")?;
    log.func_wrap_async("log", |mut store: StoreContextMut<'_, T>, (level, message): (Level, WasmStr)| {
        Box::new(async move {
            let source = match level {
                Level::Debug => LogSource::Debug,
                Level::Info => LogSource::Info,
                Level::Warn => LogSource::Warn,
                Level::Error => LogSource::Error,
            };
            let log = store.data().bot_log().clone();
            // Validated in place (at most MAX_HOSTCALL_BYTES), and paid for whatever the
            // outcome: the bytes validated (and transcoded, for a UTF-16 bot) are host work
            // even when the last one is invalid. Only what fits in the log's bounds is copied,
            // the rest is counted; an invalid message is dropped.
            let (work, text) = match message.to_str(&store) {
                Ok(text) => (text.len() as u64, Some(text.len())),
                Err(err) => (failed_validation_work(&err), None),
            };
            charge(&mut store, work).await?;
            if text.is_some()
                && let Ok(text) = message.to_str(&store)
            {
                log.append(source, text.as_bytes());
            }
            Ok(())
        }) as HostFuture<'_, ()>
    })?;

    linker.allow_shadowing(true);
    let mut secure = linker.instance(&format!("wasi:random/random@{WASI_P2_VERSION}"))?;
    secure.func_wrap_async("get-random-bytes", |mut store: StoreContextMut<'_, T>, (len,): (u64,)| {
        Box::new(async move {
            check_random_len(len)?;
            charge(&mut store, len).await?;
            let bytes = random::Host::get_random_bytes(store.data_mut().random(), len)?;
            Ok((bytes,))
        }) as HostFuture<'_, (Vec<u8>,)>
    })?;
    let mut insecure = linker.instance(&format!("wasi:random/insecure@{WASI_P2_VERSION}"))?;
    insecure.func_wrap_async("get-insecure-random-bytes", |mut store: StoreContextMut<'_, T>, (len,): (u64,)| {
        Box::new(async move {
            check_random_len(len)?;
            charge(&mut store, len).await?;
            let bytes = insecure::Host::get_insecure_random_bytes(store.data_mut().random(), len)?;
            Ok((bytes,))
        }) as HostFuture<'_, (Vec<u8>,)>
    })?;

    let mut streams = linker.instance(&format!("wasi:io/streams@{WASI_P2_VERSION}"))?;
    streams.func_wrap_async(
        "[method]output-stream.write",
        |mut store: StoreContextMut<'_, T>, (stream, contents): (Resource<DynOutputStream>, WasmList<u8>)| {
            Box::new(async move {
                if let Err(err) = pay_for_write(&mut store, &stream, contents.len() as u64, None).await? {
                    return stream_result(&mut store, Err(err));
                }
                let bytes = contents.as_le_slice(&store).to_vec();
                let written = HostOutputStream::write(store.data_mut().ctx().table, stream, bytes);
                stream_result(&mut store, written)
            }) as HostFuture<'_, (Result<(), StreamErrorWit>,)>
        },
    )?;
    streams.func_wrap_async(
        "[method]output-stream.blocking-write-and-flush",
        |mut store: StoreContextMut<'_, T>, (stream, contents): (Resource<DynOutputStream>, WasmList<u8>)| {
            Box::new(async move {
                let limit = Some(BLOCKING_WRITE_LIMIT);
                if let Err(err) = pay_for_write(&mut store, &stream, contents.len() as u64, limit).await? {
                    return stream_result(&mut store, Err(err));
                }
                let bytes = contents.as_le_slice(&store).to_vec();
                let written =
                    HostOutputStream::blocking_write_and_flush(store.data_mut().ctx().table, stream, bytes).await;
                stream_result(&mut store, written)
            }) as HostFuture<'_, (Result<(), StreamErrorWit>,)>
        },
    )?;
    streams.func_wrap_async(
        "[method]output-stream.write-zeroes",
        |mut store: StoreContextMut<'_, T>, (stream, len): (Resource<DynOutputStream>, u64)| {
            Box::new(async move {
                if let Err(err) = pay_for_write(&mut store, &stream, len, None).await? {
                    return stream_result(&mut store, Err(err));
                }
                let written = HostOutputStream::write_zeroes(store.data_mut().ctx().table, stream, len);
                stream_result(&mut store, written)
            }) as HostFuture<'_, (Result<(), StreamErrorWit>,)>
        },
    )?;
    streams.func_wrap_async(
        "[method]output-stream.blocking-write-zeroes-and-flush",
        |mut store: StoreContextMut<'_, T>, (stream, len): (Resource<DynOutputStream>, u64)| {
            Box::new(async move {
                if let Err(err) = pay_for_write(&mut store, &stream, len, Some(BLOCKING_WRITE_LIMIT)).await? {
                    return stream_result(&mut store, Err(err));
                }
                let written =
                    HostOutputStream::blocking_write_zeroes_and_flush(store.data_mut().ctx().table, stream, len).await;
                stream_result(&mut store, written)
            }) as HostFuture<'_, (Result<(), StreamErrorWit>,)>
        },
    )?;

    let mut poll = linker.instance(&format!("wasi:io/poll@{WASI_P2_VERSION}"))?;
    poll.func_wrap_async(
        "poll",
        |mut store: StoreContextMut<'_, T>, (pollables,): (WasmList<Resource<DynPollable>>,)| {
            Box::new(async move {
                charge_fuel(&mut store, (pollables.len() as u64).saturating_mul(FUEL_PER_POLLABLE)).await?;
                let mut list = Vec::with_capacity(pollables.len());
                for index in 0..pollables.len() {
                    match pollables.get(&mut store, index) {
                        Some(pollable) => list.push(pollable?),
                        None => break,
                    }
                }
                let ready =
                    wasmtime_wasi::p2::bindings::io::poll::Host::poll(store.data_mut().ctx().table, list).await?;
                Ok((ready,))
            }) as HostFuture<'_, (Vec<u32>,)>
        },
    )?;
    // Name lookups are not allowed: refused without reading the name (wasmtime-wasi copies it
    // first, up to MAX_HOSTCALL_BYTES per call, before refusing).
    let mut lookup = linker.instance(&format!("wasi:sockets/ip-name-lookup@{WASI_P2_VERSION}"))?;
    lookup.func_wrap(
        "resolve-addresses",
        |_store: StoreContextMut<'_, T>, (_network, _name): (Resource<wasmtime_wasi::p2::Network>, WasmStr)| {
            Ok((Err::<ResourceAny, _>(SocketErrorCode::PermanentResolverFailure),))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// The bytes a string's validation went through before it failed, as fuel's unit of host work:
/// for UTF-8, up to and including the invalid sequence (the error says where); for UTF-16,
/// whose error does not say where, the most a call may carry ([`MAX_HOSTCALL_BYTES`]: wasmtime
/// refuses a longer string before the host sees it), an upper bound on the work done.
fn failed_validation_work(err: &wasmtime::Error) -> u64 {
    match err.downcast_ref::<std::str::Utf8Error>() {
        Some(utf8) => (utf8.valid_up_to() + utf8.error_len().unwrap_or(0)) as u64,
        None => MAX_HOSTCALL_BYTES as u64,
    }
}

/// The WIT `error-code` of `wasi:sockets`.
type SocketErrorCode = wasmtime_wasi::p2::bindings::sockets::network::ErrorCode;

/// The WIT `stream-error` a write returns.
type StreamErrorWit = wasmtime_wasi::p2::bindings::io::streams::StreamError;

/// wasmtime-wasi's bound on a blocking write (`blocking-write-and-flush` and
/// `blocking-write-zeroes-and-flush`), checked here before the bytes are copied.
const BLOCKING_WRITE_LIMIT: u64 = 4096;

fn borrow(stream: &Resource<DynOutputStream>) -> Resource<DynOutputStream> {
    Resource::new_borrow(stream.rep())
}

fn check_random_len(len: u64) -> wasmtime::Result<()> {
    if len > MAX_RANDOM_REQUEST {
        return Err(wasmtime::Error::msg(format!(
            "get-random-bytes of {len} bytes is over the {MAX_RANDOM_REQUEST}-byte limit"
        )));
    }
    Ok(())
}

/// Checks and charges a write of `len` bytes before its bytes are copied: over `limit` (a
/// blocking write's bound) or else over the stream's `check-write` permit it traps (WASI's rule);
/// a stream that cannot report its permit returns that stream error instead.
async fn pay_for_write<T: FuelPayer>(
    store: &mut StoreContextMut<'_, T>,
    stream: &Resource<DynOutputStream>,
    len: u64,
    limit: Option<u64>,
) -> wasmtime::Result<Result<(), StreamError>> {
    let permit = match limit {
        Some(limit) => limit,
        None => match HostOutputStream::check_write(store.data_mut().ctx().table, borrow(stream)) {
            Ok(permit) => permit,
            Err(err) => return Ok(Err(err)),
        },
    };
    if len > permit {
        return Err(wasmtime::Error::msg(format!("a write of {len} bytes is over the {permit}-byte permit")));
    }
    charge(store, len).await?;
    Ok(Ok(()))
}

/// A stream operation's result as the WIT returns it (a trap stays a trap).
fn stream_result<T: FuelPayer, R>(
    store: &mut StoreContextMut<'_, T>,
    result: Result<R, StreamError>,
) -> wasmtime::Result<(Result<R, StreamErrorWit>,)> {
    match result {
        Ok(value) => Ok((Ok(value),)),
        Err(err) => {
            let wit = wasmtime_wasi::p2::bindings::io::streams::Host::convert_stream_error(
                store.data_mut().ctx().table,
                err,
            )?;
            Ok((Err(wit),))
        }
    }
}
