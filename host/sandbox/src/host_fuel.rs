//! Host work is fuel too (docs/design.md#host-work-is-fuel-too): every host function whose work
//! grows with its input charges the bot [`FUEL_PER_BYTE`] per byte (or list element) of that input,
//! before doing the work, so a bot within its fuel can never keep the host busy for long.
//!
//! Charged here (the arena's linker defines these over wasmtime-wasi's, see
//! [`add_to_linker`]): the `arena:common/log` message (validated in place, paid for whether or
//! not it is valid, at [`FUEL_PER_TRANSCODED_BYTE`] when it must be transcoded, and only what
//! fits in the log's bounds copied), `get-random-bytes` and `get-insecure-random-bytes`
//! ([`FUEL_PER_RANDOM_BYTE`]), the output-stream writes (`write`, `blocking-write-and-flush`,
//! `write-zeroes`, `blocking-write-zeroes-and-flush`; a write over the stream's `check-write`
//! permit traps before its bytes are copied) and `poll` ([`FUEL_PER_POLLABLE`] per pollable).
//! The arena's own `wasi:filesystem` (`data_fs`) charges its paths, reads and directory entries
//! itself, and the reads, skips and splices of its files' streams (it defines those stream
//! methods over these).
//! Name lookups (not allowed) are refused without reading the name. What a bot may hand the host
//! in one call is also bounded ([`crate::store::MAX_HOSTCALL_BYTES`]).
//!
//! **Every call pays a fee** on top: [`crate::budget::FUEL_PER_HOST_CALL`], for wasmtime's own
//! path into and out of the host, which costs more than most functions' work. Each function
//! the linker defines counts its call once ([`FuelPayer::count_host_call`]: wasmtime-wasi's
//! through the getters [`add_wasi_to_linker`] gives them, the arena's at their start) and the
//! store's call meter charges the fees on the way back to wasm (`meter`).
//!
//! **How fuel is charged.** wasmtime can only *set* a store's fuel, and setting it restarts the
//! turn's fuel chunk, which would hand the bot a fresh turn budget at every host call. So the
//! host charges by running a tiny wasm loop in the bot's own store ([`BURNER_WAT`], one core
//! instance per store, made on first use): its fuel is metered exactly like the bot's, so a
//! charge that crosses the turn budget suspends the bot inside the host call (it resumes at its
//! next turn) and one that crosses the game budget forfeits it, with the exact same rules and
//! accounting as the bot's own instructions. A charge of `n` fuel runs `ceil(n / 7)` loop
//! iterations of 7 fuel each.

use crate::budget::{
    FUEL_PER_BYTE, FUEL_PER_PATH_BYTE, FUEL_PER_POLLABLE, FUEL_PER_RANDOM_BYTE, FUEL_PER_TRANSCODED_BYTE,
    MAX_HOSTCALL_BYTES,
};
use crate::common::arena::common::log::Level;
use crate::log::{BotLog, LOG_BYTES_PER_TURN, LogSource};
use std::borrow::Cow;
use std::future::Future;
use wasmtime::component::{HasData, Linker, Resource, ResourceAny, ResourceTable, WasmList, WasmStr};
use wasmtime::{Engine, Module, StoreContextMut, TypedFunc};
use wasmtime_wasi::WasiView;
use wasmtime_wasi::cli::{WasiCliCtxView, WasiCliView};
use wasmtime_wasi::clocks::{WasiClocksCtxView, WasiClocksView};
use wasmtime_wasi::p2::bindings::io::streams::HostOutputStream;
use wasmtime_wasi::p2::bindings::random::{insecure, random};
use wasmtime_wasi::p2::{DynOutputStream, DynPollable, StreamError};
use wasmtime_wasi::random::WasiRandomCtx;
use wasmtime_wasi::sockets::{WasiSocketsCtxView, WasiSocketsView};

/// Fuel one iteration of the burner's loop costs (wasmtime's default costs: 7 operators).
pub const FUEL_PER_BURN_STEP: u64 = 7;
/// Largest `get-random-bytes` request honoured (larger ones trap the bot, not the host).
pub const MAX_RANDOM_REQUEST: u64 = 1 << 20;
/// The WASI 0.2 version wasmtime-wasi 48 links (components built against any 0.2.x are linked
/// to it), whose functions are defined again here.
pub const WASI_P2_VERSION: &str = "0.2.12";

/// The name of the fuel burner's module, so that a profiler tells its frames (host work
/// charged to the bot) from the bot's own.
pub const BURNER_MODULE: &str = "arena_charged_host_work";

/// The loop that burns a charge: `burn(n)` runs `n` iterations of 7 fuel each.
/// Named [`BURNER_MODULE`], so that `arena profile` tells its frames from the bot's.
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
    /// Counts one host call, whose fee ([`crate::budget::FUEL_PER_HOST_CALL`]) the store's
    /// call meter charges on the way back to wasm.
    fn count_host_call(&mut self);
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

/// Charges the bot for `bytes` of paths into its data folder: × [`FUEL_PER_PATH_BYTE`].
pub async fn charge_path<T: FuelPayer>(store: &mut StoreContextMut<'_, T>, bytes: u64) -> wasmtime::Result<()> {
    charge_fuel(store, bytes.saturating_mul(FUEL_PER_PATH_BYTE)).await
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
            store.data_mut().count_host_call();
            let source = match level {
                Level::Debug => LogSource::Debug,
                Level::Info => LogSource::Info,
                Level::Warn => LogSource::Warn,
                Level::Error => LogSource::Error,
            };
            let log = store.data().bot_log().clone();
            // Validated (and transcoded, for a UTF-16 or Latin-1 bot) once, in place (at most
            // MAX_HOSTCALL_BYTES), and paid for whatever the outcome: the bytes validated are
            // host work even when the last one is invalid. A transcoded message is charged per
            // byte the bot handed over, bounded above by twice its UTF-8 length (every unit
            // becomes at least one UTF-8 byte). Only what a turn's log can keep is copied, the
            // rest is counted; an invalid message is dropped.
            let (work, kept) = match message.to_str(&store) {
                Ok(text) => {
                    let work = match &text {
                        Cow::Borrowed(text) => text.len() as u64 * FUEL_PER_BYTE,
                        Cow::Owned(text) => text.len() as u64 * 2 * FUEL_PER_TRANSCODED_BYTE,
                    };
                    let prefix = &text.as_bytes()[..text.len().min(LOG_BYTES_PER_TURN)];
                    (work, Some((prefix.to_vec(), text.len())))
                }
                Err(err) => (failed_validation_fuel(&err), None),
            };
            charge_fuel(&mut store, work).await?;
            if let Some((prefix, len)) = kept {
                log.append_prefix(source, &prefix, len);
            }
            Ok(())
        }) as HostFuture<'_, ()>
    })?;

    linker.allow_shadowing(true);
    let mut secure = linker.instance(&format!("wasi:random/random@{WASI_P2_VERSION}"))?;
    secure.func_wrap_async("get-random-bytes", |mut store: StoreContextMut<'_, T>, (len,): (u64,)| {
        Box::new(async move {
            store.data_mut().count_host_call();
            check_random_len(len)?;
            charge_fuel(&mut store, len.saturating_mul(FUEL_PER_RANDOM_BYTE)).await?;
            let bytes = random::Host::get_random_bytes(store.data_mut().random(), len)?;
            Ok((bytes,))
        }) as HostFuture<'_, (Vec<u8>,)>
    })?;
    let mut insecure = linker.instance(&format!("wasi:random/insecure@{WASI_P2_VERSION}"))?;
    insecure.func_wrap_async("get-insecure-random-bytes", |mut store: StoreContextMut<'_, T>, (len,): (u64,)| {
        Box::new(async move {
            store.data_mut().count_host_call();
            check_random_len(len)?;
            charge_fuel(&mut store, len.saturating_mul(FUEL_PER_RANDOM_BYTE)).await?;
            let bytes = insecure::Host::get_insecure_random_bytes(store.data_mut().random(), len)?;
            Ok((bytes,))
        }) as HostFuture<'_, (Vec<u8>,)>
    })?;

    let mut streams = linker.instance(&format!("wasi:io/streams@{WASI_P2_VERSION}"))?;
    streams.func_wrap_async(
        "[method]output-stream.write",
        |mut store: StoreContextMut<'_, T>, (stream, contents): (Resource<DynOutputStream>, WasmList<u8>)| {
            Box::new(async move {
                store.data_mut().count_host_call();
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
                store.data_mut().count_host_call();
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
                store.data_mut().count_host_call();
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
                store.data_mut().count_host_call();
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
                store.data_mut().count_host_call();
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
        |mut store: StoreContextMut<'_, T>, (_network, _name): (Resource<wasmtime_wasi::p2::Network>, WasmStr)| {
            store.data_mut().count_host_call();
            Ok((Err::<ResourceAny, _>(SocketErrorCode::PermanentResolverFailure),))
        },
    )?;
    linker.allow_shadowing(false);
    Ok(())
}

/// Links wasmtime-wasi's WASI 0.2 into `linker` as `wasmtime_wasi::p2::add_to_linker_async`
/// does, interface by interface, each through a getter that first counts the call: every
/// function and resource drop wasmtime-wasi defines gets its view of the store from its getter
/// once per call, so each call pays [`crate::budget::FUEL_PER_HOST_CALL`] (`meter`).
pub fn add_wasi_to_linker<T: FuelPayer>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    use wasmtime_wasi::cli::WasiCli;
    use wasmtime_wasi::clocks::WasiClocks;
    use wasmtime_wasi::p2::bindings::{cli, clocks, io, random, sockets};
    use wasmtime_wasi::random::WasiRandom;
    use wasmtime_wasi::sockets::WasiSockets;

    let l = linker;
    io::error::add_to_linker::<T, HasIo>(l, counted_table)?;
    io::poll::add_to_linker::<T, HasIo>(l, counted_table)?;
    io::streams::add_to_linker::<T, HasIo>(l, counted_table)?;
    clocks::wall_clock::add_to_linker::<T, WasiClocks>(l, counted_clocks)?;
    clocks::monotonic_clock::add_to_linker::<T, WasiClocks>(l, counted_clocks)?;
    // No wasmtime-wasi filesystem: the arena's own, over the bot's data folder if it has one, is
    // linked beside these (`data_fs`, by the sandbox's linker).
    random::random::add_to_linker::<T, WasiRandom>(l, counted_random)?;
    random::insecure::add_to_linker::<T, WasiRandom>(l, counted_random)?;
    random::insecure_seed::add_to_linker::<T, WasiRandom>(l, counted_random)?;
    cli::exit::add_to_linker::<T, WasiCli>(l, counted_cli)?;
    cli::environment::add_to_linker::<T, WasiCli>(l, counted_cli)?;
    cli::stdin::add_to_linker::<T, WasiCli>(l, counted_cli)?;
    cli::stdout::add_to_linker::<T, WasiCli>(l, counted_cli)?;
    cli::stderr::add_to_linker::<T, WasiCli>(l, counted_cli)?;
    cli::terminal_input::add_to_linker::<T, WasiCli>(l, counted_cli)?;
    cli::terminal_output::add_to_linker::<T, WasiCli>(l, counted_cli)?;
    cli::terminal_stdin::add_to_linker::<T, WasiCli>(l, counted_cli)?;
    cli::terminal_stdout::add_to_linker::<T, WasiCli>(l, counted_cli)?;
    cli::terminal_stderr::add_to_linker::<T, WasiCli>(l, counted_cli)?;
    let network = sockets::network::LinkOptions::default();
    sockets::tcp_create_socket::add_to_linker::<T, WasiSockets>(l, counted_sockets)?;
    sockets::instance_network::add_to_linker::<T, WasiSockets>(l, counted_sockets)?;
    sockets::network::add_to_linker::<T, WasiSockets>(l, &network, counted_sockets)?;
    sockets::ip_name_lookup::add_to_linker::<T, WasiSockets>(l, counted_sockets)?;
    sockets::tcp::add_to_linker::<T, WasiSockets>(l, counted_sockets)?;
    sockets::udp::add_to_linker::<T, WasiSockets>(l, counted_sockets)?;
    sockets::udp_create_socket::add_to_linker::<T, WasiSockets>(l, counted_sockets)?;
    Ok(())
}

/// `wasi:io`'s view of a store: its resource table.
struct HasIo;

impl HasData for HasIo {
    type Data<'a> = &'a mut ResourceTable;
}

fn counted_table<T: FuelPayer>(state: &mut T) -> &mut ResourceTable {
    state.count_host_call();
    state.ctx().table
}

fn counted_clocks<T: FuelPayer>(state: &mut T) -> WasiClocksCtxView<'_> {
    state.count_host_call();
    state.clocks()
}

fn counted_random<T: FuelPayer>(state: &mut T) -> &mut WasiRandomCtx {
    state.count_host_call();
    state.random()
}

fn counted_cli<T: FuelPayer>(state: &mut T) -> WasiCliCtxView<'_> {
    state.count_host_call();
    state.cli()
}

fn counted_sockets<T: FuelPayer>(state: &mut T) -> WasiSocketsCtxView<'_> {
    state.count_host_call();
    state.sockets()
}

/// The fuel for a string whose validation failed, for the work done until then: for UTF-8,
/// the bytes up to and including the invalid sequence (the error says where); for UTF-16,
/// whose error does not say where, the most a call may carry ([`MAX_HOSTCALL_BYTES`]: wasmtime
/// refuses a longer string before the host sees it) at the transcoding rate, an upper bound.
fn failed_validation_fuel(err: &wasmtime::Error) -> u64 {
    match err.downcast_ref::<std::str::Utf8Error>() {
        Some(utf8) => (utf8.valid_up_to() + utf8.error_len().unwrap_or(0)) as u64 * FUEL_PER_BYTE,
        None => MAX_HOSTCALL_BYTES as u64 * FUEL_PER_TRANSCODED_BYTE,
    }
}

/// The WIT `error-code` of `wasi:sockets`.
type SocketErrorCode = wasmtime_wasi::p2::bindings::sockets::network::ErrorCode;

/// The WIT `stream-error` a write returns.
pub(crate) type StreamErrorWit = wasmtime_wasi::p2::bindings::io::streams::StreamError;

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
pub(crate) fn stream_result<T: FuelPayer, R>(
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
