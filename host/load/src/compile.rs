//! Compiling a bot's component (or core module: [`Artifact`]) with bounded time and memory.
//!
//! The static shape limits ([`crate::shape`]) refuse the shapes known to blow up Cranelift;
//! this module is the defence in depth for whatever they let through. When the [`Arena`](crate::runtime::Arena) has a
//! [`CompileWorker`] (the CLI always sets one: its own executable), the component is compiled
//! in a child process (`arena compile-worker`) that caps its own address space (`RLIMIT_AS`) and
//! CPU time (`RLIMIT_CPU`: unlike wall-clock time it does not depend on how busy the machine
//! is, so a legitimate bot is not refused on a loaded machine), and is killed after a much
//! longer wall-clock timeout should it ever block; its artifact ([`Component::serialize`]) comes back over a pipe and
//! is deserialised here. Without a worker (the library default, and tests) compilation stays in
//! this process, bounded by the static limits only.
//!
//! The worker builds its engine from the same [`ArenaOptions`] (with the on-demand allocator,
//! which compiles the same code: the allocator is not part of an artifact's compatibility), so
//! the artifact loads into the parent's engine; wasmtime checks that again when deserialising.

use crate::artifact::Artifact;
use crate::cache::{ArtifactCache, EntryFacts};
use crate::engine::{Allocator, ArenaOptions, new_engine};
use std::io::{Read, Write};
use std::path::PathBuf;
use std::process::{Command, ExitStatus, Stdio};

use std::time::{Duration, Instant};
use wasmtime::Engine;
use wasmtime::component::Component;

/// The hidden CLI subcommand that runs [`worker_main`].
pub const WORKER_SUBCOMMAND: &str = "compile-worker";
/// Default bound on the worker's address space beyond what it uses at start, in MiB.
pub const DEFAULT_WORKER_MEMORY_MIB: u64 = 4096;
/// Default bound on the worker's CPU time, in seconds (all its threads together). The largest
/// real bots (12-19 MB interpreter components) need about 14 s.
pub const DEFAULT_WORKER_CPU_SECONDS: u64 = 60;
/// Default wall-clock time after which the worker is killed: the backstop for a worker that
/// blocks instead of computing, far above what [`DEFAULT_WORKER_CPU_SECONDS`] allows on a
/// busy machine.
pub const DEFAULT_WORKER_TIMEOUT: Duration = Duration::from_secs(600);
/// Test hook read by the CLI: the worker's memory bound in MiB instead of
/// [`DEFAULT_WORKER_MEMORY_MIB`] (tests set a tiny one so a legitimate bot trips it).
pub const WORKER_MEMORY_ENV: &str = "ARENA_COMPILE_WORKER_MIB";
/// Test hook read by the CLI: the worker's CPU-time bound in seconds instead of
/// [`DEFAULT_WORKER_CPU_SECONDS`].
pub const WORKER_CPU_ENV: &str = "ARENA_COMPILE_WORKER_CPU_S";
/// Test hook read by the CLI: the worker's wall-clock timeout in milliseconds instead of
/// [`DEFAULT_WORKER_TIMEOUT`].
pub const WORKER_TIMEOUT_ENV: &str = "ARENA_COMPILE_WORKER_TIMEOUT_MS";
/// Worker exit status: the component does not compile (its message is on stderr).
pub const EXIT_INVALID: u8 = 3;
/// Worker exit status: an allocation failed (the address-space bound was reached).
pub const EXIT_OUT_OF_MEMORY: u8 = 4;

/// How to run the compile worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompileWorker {
    /// The executable with the [`WORKER_SUBCOMMAND`] (the `arena` binary).
    pub exe: PathBuf,
    /// Address space the worker may add to what it uses at start, in MiB.
    pub memory_mib: u64,
    /// CPU time the worker may use, in seconds.
    pub cpu_seconds: u64,
    /// Wall-clock time after which the worker is killed.
    pub timeout: Duration,
}

impl CompileWorker {
    /// A worker running `exe`, with the default bounds.
    pub fn new(exe: impl Into<PathBuf>) -> CompileWorker {
        CompileWorker {
            exe: exe.into(),
            memory_mib: DEFAULT_WORKER_MEMORY_MIB,
            cpu_seconds: DEFAULT_WORKER_CPU_SECONDS,
            timeout: DEFAULT_WORKER_TIMEOUT,
        }
    }
}

/// Why a component did not compile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// It is not a valid component (wasmtime's message, on one line).
    #[error("{0}")]
    Invalid(String),
    /// Compiling it went over the worker's time or memory bound.
    #[error("{0}")]
    Bound(String),
    /// The request's checks refused it before compiling (their message).
    #[error("{0}")]
    Refused(String),
}

/// The bound a worker went over, carried through the artifact cache's `wasmtime::Error`.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct BoundExceeded(String);

/// A component to compile: its bytes and their sha256 (the caller has it: hashing a 19 MB
/// component twice costs 15 ms), what the caller's facts depend on (part of the cache key), and
/// the checks to run before compiling it, which give the facts to keep ([`EntryFacts`]).
pub struct Request<'a, C> {
    /// The component's bytes.
    pub bytes: &'a [u8],
    /// Their sha256.
    pub sha256: &'a [u8; 32],
    /// What `check`'s verdict depends on besides the bytes (e.g. the limits it applies).
    pub context: &'a [u8],
    /// Runs before compiling (not on a cache hit, which hands back the facts it gave when the
    /// entry was written); an error refuses the component uncompiled.
    pub check: C,
}

/// Compiles `request.bytes` with `engine` (built from `options`): through `cache` if there is
/// one (a hit skips the checks and returns the facts stored with the entry), in `worker` if
/// there is one. With `pool_check` (an arena that allocates on demand: see
/// [`crate::engine::pool_check_engine`]) a component the pooling allocator could never hold is
/// refused, with the pool's own message, before it is stored; a pooling `engine` refuses it
/// itself.
pub fn compile<A: Artifact>(
    engine: &Engine,
    options: &ArenaOptions,
    cache: Option<&ArtifactCache>,
    worker: Option<&CompileWorker>,
    pool_check: Option<&Engine>,
    request: Request<'_, impl FnOnce() -> Result<EntryFacts, String>>,
) -> Result<(A, EntryFacts), CompileError> {
    let Request { bytes, sha256, context, check } = request;
    let build = || {
        let facts = check().map_err(|refusal| wasmtime::Error::new(Refused(refusal)))?;
        let compile_bytes = |bytes: &[u8]| match worker {
            Some(worker) => compile_in_worker::<A>(engine, options, worker, bytes),
            None => A::compile(engine, bytes),
        };
        // What runs is the bot with its stack use counted (`crate::stack`). Bytes the
        // instrumentation cannot read are compiled as they are, so that an invalid file is
        // refused with wasmtime's own message; one wasmtime would accept is refused here.
        let component = match crate::stack::instrument(bytes) {
            Ok(instrumented) => compile_bytes(&instrumented)?,
            Err(err) => {
                compile_bytes(bytes)?;
                wasmtime::bail!("the stack instrumentation cannot read this component: {err}");
            }
        };
        if let Some(pool) = pool_check {
            // wasmtime checks a component against its engine's pool whenever one is built
            // from code or an artifact: the artifact, built into the checking engine.
            deserialize::<A>(pool, &component.serialize()?)?;
        }
        Ok((component, facts))
    };
    let compiled = match cache {
        Some(cache) => {
            cache.load_or_compile_with(engine, sha256, context, build).map(|(component, facts, _)| (component, facts))
        }
        None => build(),
    };
    compiled.map_err(|err| match err.downcast::<BoundExceeded>() {
        Ok(bound) => CompileError::Bound(bound.0),
        Err(err) => match err.downcast::<Refused>() {
            Ok(refused) => CompileError::Refused(refused.0),
            Err(err) => CompileError::Invalid(one_line(&err)),
        },
    })
}

/// A refusal of the request's checks, carried through the artifact cache's `wasmtime::Error`.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Refused(String);

/// An error chain on one line.
pub(crate) fn one_line(err: &wasmtime::Error) -> String {
    format!("{err:#}").replace('\n', " ")
}

/// Runs the worker on `bytes` and deserialises its artifact.
fn compile_in_worker<A: Artifact>(
    engine: &Engine,
    options: &ArenaOptions,
    worker: &CompileWorker,
    bytes: &[u8],
) -> wasmtime::Result<A> {
    let mut child = Command::new(&worker.exe)
        .arg(WORKER_SUBCOMMAND)
        .args(A::WORKER_FLAG)
        .arg("--max-memory-mib")
        .arg(options.max_memory_mib.to_string())
        .arg("--address-space-mib")
        .arg(worker.memory_mib.to_string())
        .arg("--cpu-seconds")
        .arg(worker.cpu_seconds.to_string())
        // glibc reserves 64 MiB of address space per malloc arena, up to eight per core: two
        // keep the bound about compilation rather than the machine's core count.
        .env("MALLOC_ARENA_MAX", "2")
        // Its stderr carries its one-line verdict, not traces.
        .env_remove("ARENA_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|err| wasmtime::format_err!("cannot start the compile worker {}: {err}", worker.exe.display()))?;
    let (Some(mut stdin), Some(stdout), Some(stderr)) = (child.stdin.take(), child.stdout.take(), child.stderr.take())
    else {
        let _ = child.kill();
        let _ = child.wait();
        wasmtime::bail!("the compile worker's pipes are missing");
    };
    let (artifact, message, status) = std::thread::scope(|scope| {
        // Writing and reading on their own threads: the worker reads all its input before
        // writing, but a full pipe must never block the clock below.
        scope.spawn(move || {
            let _ = stdin.write_all(bytes);
        });
        let artifact = scope.spawn(move || read_all(stdout));
        let message = scope.spawn(move || read_all(stderr));
        let status = wait_until(&mut child, Instant::now() + worker.timeout);
        (artifact.join(), message.join(), status)
    });
    let message = message.unwrap_or_default();
    let message = String::from_utf8_lossy(&message);
    let message = message.trim().lines().last().unwrap_or("").to_owned();
    let Some(status) = status? else {
        return Err(BoundExceeded(format!("compiling took longer than {} s", worker.timeout.as_secs_f64())).into());
    };
    if status.success() {
        let artifact = artifact.unwrap_or_default();
        return deserialize(engine, &artifact);
    }
    if status.code() == Some(EXIT_INVALID.into()) {
        wasmtime::bail!("{message}");
    }
    if signal(&status) == Some(SIGXCPU) {
        return Err(BoundExceeded(format!("compiling took more than {} s of CPU time", worker.cpu_seconds)).into());
    }
    if status.code() == Some(EXIT_OUT_OF_MEMORY.into()) || out_of_memory(&status, &message) {
        return Err(BoundExceeded(format!("compiling needed more than {} MiB", worker.memory_mib)).into());
    }
    wasmtime::bail!("the compile worker failed ({status}): {message}")
}

/// Whether a worker that did not exit normally ran out of memory: Rust aborts when an
/// allocation fails, after saying so on stderr.
fn out_of_memory(status: &ExitStatus, message: &str) -> bool {
    signal(status) == Some(SIGABRT)
        || message.contains("memory allocation of")
        || message.contains("Cannot allocate memory")
}

/// `abort()`'s signal.
const SIGABRT: i32 = 6;
/// The signal `RLIMIT_CPU` ends a process with (Linux numbering).
const SIGXCPU: i32 = 24;

/// The signal that ended a process, if one did.
fn signal(status: &ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    return std::os::unix::process::ExitStatusExt::signal(status);
    #[cfg(not(unix))]
    return None;
}

fn read_all(mut pipe: impl Read) -> Vec<u8> {
    let mut bytes = Vec::new();
    let _ = pipe.read_to_end(&mut bytes);
    bytes
}

/// Waits for `child` until `deadline`; `None` when it had to be killed.
fn wait_until(child: &mut std::process::Child, deadline: Instant) -> std::io::Result<Option<ExitStatus>> {
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            child.wait()?;
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Deserialises the worker's artifact, or the artifact of a component just compiled (for the
/// pool check).
#[allow(unsafe_code)]
fn deserialize<A: Artifact>(engine: &Engine, artifact: &[u8]) -> wasmtime::Result<A> {
    // SAFETY: `Component::deserialize` runs the artifact's machine code as is, so it must come
    // from `Component::serialize` of a compatible engine. This artifact is either what
    // `compile` just serialised from a component of this arena's engine (the pool-check engine
    // is built from the same options, with only the allocator changed, which compiled code does
    // not depend on), or was written to a pipe by our own executable (`worker_main`, started by
    // `compile_in_worker` from the path the embedder configured, normally
    // `std::env::current_exe()`), straight from `Component::serialize` of an engine built from
    // this arena's options; nothing else writes to that pipe. wasmtime also checks its own
    // version and settings header.
    unsafe { A::deserialize(engine, artifact) }
}

/// The worker: reads a component (a core module when `core_module`) from `input`, caps its address space at what it uses now
/// plus `address_space_mib` and its CPU time at `cpu_seconds`, compiles with an engine built from `max_memory_mib`, and writes
/// the artifact to `output`. Returns the process exit status: 0, [`EXIT_INVALID`] with the
/// message on stderr, or [`EXIT_OUT_OF_MEMORY`] (an allocation that fails outright aborts the
/// process instead, which the parent also reads as out of memory).
pub fn worker_main(
    core_module: bool,
    max_memory_mib: u32,
    address_space_mib: u64,
    cpu_seconds: u64,
    mut input: impl Read,
    mut output: impl Write,
) -> u8 {
    let mut bytes = Vec::new();
    if let Err(err) = input.read_to_end(&mut bytes) {
        eprintln!("reading the component: {err}");
        return 1;
    }
    let options = ArenaOptions { allocator: Allocator::OnDemand, max_memory_mib };
    let engine = match new_engine(&options) {
        Ok(engine) => engine,
        Err(err) => {
            eprintln!("building the engine: {err:#}");
            return 1;
        }
    };
    let bound = current_address_space().saturating_add(address_space_mib << 20);
    if let Err(err) = rlimit::setrlimit(rlimit::Resource::AS, bound, bound) {
        eprintln!("setting the address-space limit: {err}");
        return 1;
    }
    // Soft limit: SIGXCPU, which ends the process; the hard limit a second later kills it.
    if let Err(err) = rlimit::setrlimit(rlimit::Resource::CPU, cpu_seconds, cpu_seconds.saturating_add(1)) {
        eprintln!("setting the CPU-time limit: {err}");
        return 1;
    }
    let artifact = match core_module {
        false => Component::new(&engine, &bytes).and_then(|component| component.serialize()),
        true => wasmtime::Module::new(&engine, &bytes).and_then(|module| module.serialize()),
    };
    match artifact {
        Ok(artifact) => match output.write_all(&artifact).and_then(|()| output.flush()) {
            Ok(()) => 0,
            Err(err) => {
                eprintln!("writing the artifact: {err}");
                1
            }
        },
        Err(err) => {
            let message = one_line(&err);
            eprintln!("{message}");
            if message.contains("Cannot allocate memory") || message.contains("out of memory") {
                EXIT_OUT_OF_MEMORY
            } else {
                EXIT_INVALID
            }
        }
    }
}

/// This process's virtual size in bytes (0 where /proc is not there: the bound is then
/// absolute, which is only stricter).
fn current_address_space() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
    let pages: u64 = statm.split_whitespace().next().and_then(|pages| pages.parse().ok()).unwrap_or(0);
    pages.saturating_mul(4096)
}
