//! `arena cache`: the compiled-artifact cache (`info`, `clear`), and the `--cache-dir` /
//! `--no-cache` options of the commands that load bots.

use anyhow::Context;
use arena_host::Arena;
use arena_host::cache::{ArtifactCache, CACHE_DIR_ENV, DEFAULT_MAX_BYTES};
use arena_host::compile::{CompileWorker, WORKER_CPU_ENV, WORKER_MEMORY_ENV, WORKER_TIMEOUT_ENV};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  arena cache info
  arena cache clear
  arena cache info --cache-dir ~/arena-cache --cache-max-mib 500
  ARENA_CACHE_DIR=/tmp/arena-cache arena match --game azul a.wasm b.wasm
  arena match --game azul a.wasm b.wasm --no-cache

`arena match` and `arena replay verify` keep each bot they compile in the cache, keyed by the
bot's sha256, the wasmtime version and the engine settings, so the next run loads it in
milliseconds instead of compiling it again (seconds for a Python or JavaScript bot).
The cache directory is --cache-dir, else $ARENA_CACHE_DIR, else $XDG_CACHE_HOME/wasm-arena,
else ~/.cache/wasm-arena. --no-cache compiles every bot and touches no cache.
Entries are authenticated with a MAC (keyed BLAKE3) under a per-user secret (the file `key` in the
directory, created on first use); an entry that fails its checks is deleted and rebuilt. A
directory or key that another user owns or can write is not used (one warning, then every
bot is compiled). When the entries exceed --cache-max-mib (default 2048), the least recently
used ones are deleted. The cache also remembers each bot file's sha256 for the file's exact
size and times, so an unchanged bot whose entry is cached is not even read again.
`clear` deletes only cache entries and remembered sha256s, not the key.";

/// Where the cache is, for every command that uses it.
#[derive(Debug, Args)]
pub struct CacheArgs {
    /// The compiled-artifact cache directory [default: $ARENA_CACHE_DIR, else
    /// $XDG_CACHE_HOME/wasm-arena, else ~/.cache/wasm-arena].
    #[arg(long, value_name = "DIR")]
    cache_dir: Option<PathBuf>,
    /// Bound on the cache's total size in MiB: past it, the least recently used entries are
    /// deleted [default: 2048].
    #[arg(long, value_name = "MIB")]
    cache_max_mib: Option<u64>,
}

impl CacheArgs {
    fn cache(&self) -> anyhow::Result<ArtifactCache> {
        let dir = self.cache_dir.clone().or_else(ArtifactCache::default_dir).with_context(|| {
            format!("no cache directory: set --cache-dir, ${CACHE_DIR_ENV}, $XDG_CACHE_HOME or $HOME")
        })?;
        let max_bytes = self.cache_max_mib.map_or(DEFAULT_MAX_BYTES, |mib| mib.saturating_mul(1 << 20));
        Ok(ArtifactCache::new(dir).with_max_bytes(max_bytes))
    }
}

/// The cache options of a command that loads bots.
#[derive(Debug, Args)]
pub struct UseCacheArgs {
    #[command(flatten)]
    dir: CacheArgs,
    /// Compile every bot; read and write no compiled-artifact cache (`arena cache --help`).
    #[arg(long, conflicts_with_all = ["cache_dir", "cache_max_mib"])]
    no_cache: bool,
}

impl UseCacheArgs {
    /// An arena compiling through the cache these options name (none with `--no-cache`, when
    /// no directory can be found, or when the directory is refused: then with one warning line
    /// on stderr saying why), in a bounded worker process (this executable's `compile-worker`;
    /// the bounds can be changed by test hooks, see arena_host::compile).
    pub fn arena(&self) -> anyhow::Result<Arena> {
        self.arena_with(Arena::new()?)
    }

    /// [`UseCacheArgs::arena`] on an arena built with other options.
    pub fn arena_with(&self, arena: Arena) -> anyhow::Result<Arena> {
        let cache = if self.no_cache { None } else { self.dir.cache().ok() };
        let cache = cache.filter(|cache| match cache.check() {
            Ok(()) => true,
            Err(refused) => {
                eprintln!("warning: not using the compiled-artifact cache: {refused}");
                false
            }
        });
        Ok(arena.with_cache(cache).with_compile_worker(Some(compile_worker()?)))
    }
}

/// The compile worker: this executable, with the default bounds or those of the test hooks
/// `ARENA_COMPILE_WORKER_MIB`, `ARENA_COMPILE_WORKER_CPU_S` and `ARENA_COMPILE_WORKER_TIMEOUT_MS`.
pub(super) fn compile_worker() -> anyhow::Result<CompileWorker> {
    let exe = std::env::current_exe().context("finding this executable for the compile worker")?;
    let mut worker = CompileWorker::new(exe);
    let hook = |name: &str| -> anyhow::Result<Option<u64>> {
        std::env::var(name).ok().map(|value| value.parse().with_context(|| format!("${name}={value:?}"))).transpose()
    };
    if let Some(mib) = hook(WORKER_MEMORY_ENV)? {
        worker.memory_mib = mib;
    }
    if let Some(seconds) = hook(WORKER_CPU_ENV)? {
        worker.cpu_seconds = seconds;
    }
    if let Some(ms) = hook(WORKER_TIMEOUT_ENV)? {
        worker.timeout = std::time::Duration::from_millis(ms);
    }
    Ok(worker)
}

/// `arena cache ...`.
#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Print the cache directory, its entries, their total size and its bound.
    #[command(after_help = EXAMPLES)]
    Info {
        #[command(flatten)]
        dir: CacheArgs,
        /// Print one JSON object instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Delete every cache entry.
    #[command(after_help = EXAMPLES)]
    Clear {
        #[command(flatten)]
        dir: CacheArgs,
    },
}

pub fn run(command: CacheCommand) -> anyhow::Result<ExitCode> {
    match command {
        CacheCommand::Info { dir, json } => {
            let cache = dir.cache()?;
            let info = cache.info().with_context(|| format!("reading {}", cache.dir().display()))?;
            if json {
                let object = serde_json::json!({
                    "dir": cache.dir(),
                    "entries": info.entries,
                    "bytes": info.bytes,
                    "max_bytes": cache.max_bytes(),
                });
                outln!("{object}");
            } else {
                outln!("dir: {}", cache.dir().display());
                outln!("entries: {}", info.entries);
                outln!("size: {} bytes ({:.1} MiB)", info.bytes, info.bytes as f64 / (1 << 20) as f64);
                let max = cache.max_bytes();
                outln!("max size: {max} bytes ({:.1} MiB)", max as f64 / (1 << 20) as f64);
            }
        }
        CacheCommand::Clear { dir } => {
            let cache = dir.cache()?;
            let info = cache.clear().with_context(|| format!("clearing {}", cache.dir().display()))?;
            outln!("removed {} entries ({} bytes) from {}", info.entries, info.bytes, cache.dir().display());
        }
    }
    Ok(ExitCode::SUCCESS)
}
