//! Loading a bot file: read it, hash it, compile it once, and check that it is a component
//! for the game being played before any match starts. A file that is not a component, or a
//! component for another game, is refused with one line naming the file, what it exports and
//! what was expected.
//!
//! No bot code runs at load: before compiling, the file's shape is checked against static
//! limits and its declared initial memory against the match's limit ([`crate::shape`]);
//! compiling is bounded in time and memory ([`crate::compile`]); export types are checked
//! against the game's WIT without instantiating (`typecheck`).
//!
//! A WASI command (a component exporting `wasi:cli/run@0.2.*`, or a Go program's core module
//! run on WASI preview1: [`load_preview1_command`]) loads as a [`LoadedCommand`] for games that
//! speak a line protocol to it (the referee's line-protocol runner).

use crate::artifact::Artifact;
use crate::bot_data::{BotData, DataRef};
use crate::cache::{EntryFacts, FileStamp};
use crate::compile::{CompileError, one_line};
use crate::limits::{MAX_CORE_INSTANCES, MAX_MEMORIES, MAX_TABLE_ELEMENTS, MAX_TABLES};
use crate::runtime::Arena;
use crate::shape::{Shape, ShapeLimits, scan};
use crate::store::BotState;
use crate::typecheck::{check_command_exports, check_world_exports};
use arena_sandbox::data::DataError;
use sha2::{Digest, Sha256};
use std::io::Read;
use std::marker::PhantomData;
use std::path::{Path, PathBuf};
use wasmtime::component::{Component, InstancePre};
use wasmtime_wasi::p2::bindings::CommandPre;

/// A game's WIT world as loading sees it: what a bot must export, and how a component that
/// exports it is pre-instantiated. The referee's per-game bindings implement it (a binding is a
/// world plus the conversions of its types).
pub trait World: Send + Sync + 'static {
    /// Pre-instantiated component (compiled and linked once per run).
    type Pre: Clone + Send + Sync + 'static;
    /// The export a bot for this game must have, e.g. `arena:azul/player@0.2.0`.
    const EXPORT: &'static str;
    /// The world a bot for this game targets, e.g. `arena:azul/bot@0.2.0`.
    const WORLD: &'static str;
    /// The game's WIT file (the one `bindgen!` reads): the world's types are checked against it
    /// at load, before any bot code runs.
    const WIT: &'static str;
    /// Checks the component has the world's exports (their types are checked without
    /// instantiating by `typecheck` at load).
    fn pre(pre: InstancePre<BotState>) -> wasmtime::Result<Self::Pre>;
}

/// A bot as replays, results and plans name it: its identity.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BotRef {
    /// Display name.
    pub name: String,
    /// Where it was loaded from.
    pub path: PathBuf,
    /// sha256 of the file, hex.
    pub sha256: String,
    /// Its data folder, if it has one (left out when it has none, so a bot without data is named
    /// as before data folders existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<DataRef>,
}

/// Largest bot file accepted (an interpreter component for Python is under 20 MB).
pub const MAX_BOT_FILE: u64 = 64 << 20;

/// Why a bot file was refused.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("{path}: cannot read")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The path names something other than a regular file (a FIFO, a device, a folder): not
    /// opened, or opened without blocking.
    #[error("{path}: is {kind}, not a regular file")]
    NotAFile {
        /// The path.
        path: PathBuf,
        /// What it is: "a named pipe (FIFO)", "a directory", ...
        kind: &'static str,
    },
    /// The file is larger than [`MAX_BOT_FILE`].
    #[error("{path}: {size} bytes is larger than the {MAX_BOT_FILE}-byte limit for a bot")]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size.
        size: u64,
    },
    /// Not a WebAssembly binary at all.
    #[error("{path}: not a WebAssembly file (no \\0asm header); expected a component exporting {expected}")]
    NotWasm {
        /// The file.
        path: PathBuf,
        /// The export expected.
        expected: &'static str,
    },
    /// A core module where a component was expected.
    #[error(
        "{path}: is a core WebAssembly module, not a component exporting {expected} (build Rust bots with --target wasm32-wasip2); nor is it a wasm32-wasip1 command, which games with a line protocol accept: {why}"
    )]
    CoreModule {
        /// The file.
        path: PathBuf,
        /// The export expected.
        expected: &'static str,
        /// Why it is not a wasip1 command either.
        why: &'static str,
    },
    /// The component does not compile.
    #[error("{path}: invalid component: {detail}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// wasmtime's message.
        detail: String,
    },
    /// The component exports another world.
    #[error("{path}: exports [{exports}]; expected {expected} (the {world} world)")]
    WrongWorld {
        /// The file.
        path: PathBuf,
        /// What it exports, comma-separated.
        exports: String,
        /// The export expected.
        expected: &'static str,
        /// The world expected.
        world: &'static str,
    },
    /// The component exports the game's interface, but of another version of its WIT package
    /// (built with an older or newer SDK).
    #[error(
        "{path}: built for {found}, but this arena plays {expected}: rebuild the bot with this \
         release's SDK (the WIT is in the repository's wit/ folder)"
    )]
    OtherVersion {
        /// The file.
        path: PathBuf,
        /// The export it has (`arena:eubots/player@0.1.0`).
        found: String,
        /// The export expected.
        expected: &'static str,
    },
    /// The component exports the right name with the wrong types (another version).
    #[error("{path}: exports {expected} but its types do not match this arena's: {detail}")]
    WrongTypes {
        /// The file.
        path: PathBuf,
        /// The export.
        expected: &'static str,
        /// wasmtime's message.
        detail: String,
    },
    /// A function or module is over a static shape limit ([`crate::shape`]); not compiled.
    #[error("{path}: {detail}")]
    Shape {
        /// The file.
        path: PathBuf,
        /// Which module, function and limit.
        detail: String,
    },
    /// Compiling went over the compile worker's time or memory bound ([`crate::compile`]).
    #[error("{path}: {what}")]
    CompileBound {
        /// The file.
        path: PathBuf,
        /// Which bound, e.g. "compiling took more than 60 s of CPU time".
        what: String,
    },
    /// The core modules' memories start larger than the match's memory limit: the bot could
    /// never start.
    #[error("{path}: declares {declared_mib} MiB of initial memory; the limit is {limit_mib} MiB")]
    InitialMemory {
        /// The file.
        path: PathBuf,
        /// Sum of the initial sizes of the memories its core modules define, rounded up.
        declared_mib: u64,
        /// The limit.
        limit_mib: u32,
    },
    /// A table starts larger than the arena lets a table grow.
    #[error("{path}: declares a table of {declared} elements; the limit is {limit}")]
    InitialTable {
        /// The file.
        path: PathBuf,
        /// The largest initial table size its core modules define.
        declared: u64,
        /// The limit.
        limit: usize,
    },
    /// The component imports something the arena does not provide.
    #[error("{path}: imports something the arena does not provide: {detail}")]
    Imports {
        /// The file.
        path: PathBuf,
        /// wasmtime's message.
        detail: String,
    },
    /// The bot's data folder was refused (a link, a special file, over a limit, unreadable).
    #[error(transparent)]
    Data(#[from] DataError),
}

/// The step of loading a [`LoadError`] refused a bot at, in words a page or a log can show.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LoadStage {
    /// Reading the file.
    Read,
    /// Its shape: a WebAssembly component within the limits on sizes, memory and tables.
    Shape,
    /// Its types: the game's world, at this arena's version, importing only what is provided.
    TypeCheck,
    /// Compiling it within the compile worker's bounds.
    Compile,
    /// Reading its data folder.
    Data,
}

impl LoadStage {
    /// The stage's name: `read`, `shape`, `type check`, `compile` or `data`.
    pub fn name(self) -> &'static str {
        match self {
            LoadStage::Read => "read",
            LoadStage::Shape => "shape",
            LoadStage::TypeCheck => "type check",
            LoadStage::Compile => "compile",
            LoadStage::Data => "data",
        }
    }
}

impl LoadError {
    /// The step of loading that refused the bot.
    pub fn stage(&self) -> LoadStage {
        match self {
            LoadError::Read { .. } | LoadError::NotAFile { .. } | LoadError::TooLarge { .. } => LoadStage::Read,
            LoadError::NotWasm { .. }
            | LoadError::CoreModule { .. }
            | LoadError::Invalid { .. }
            | LoadError::Shape { .. }
            | LoadError::InitialMemory { .. }
            | LoadError::InitialTable { .. } => LoadStage::Shape,
            LoadError::WrongWorld { .. }
            | LoadError::OtherVersion { .. }
            | LoadError::WrongTypes { .. }
            | LoadError::Imports { .. } => LoadStage::TypeCheck,
            LoadError::CompileBound { .. } => LoadStage::Compile,
            LoadError::Data(_) => LoadStage::Data,
        }
    }
}

/// A bot compiled and checked for game `B`, ready to be instantiated any number of times.
pub struct LoadedBot<B: World> {
    /// Where it was loaded from.
    pub path: PathBuf,
    /// Display name: the file stem.
    pub name: String,
    /// sha256 of the file.
    pub sha256: [u8; 32],
    /// The compiled component.
    pub component: Component,
    /// Pre-instantiated against the arena's linker.
    pub pre: B::Pre,
    /// Its data folder, if it has one: every instance sees it at `/data`.
    pub data: Option<BotData>,
    _binding: PhantomData<B>,
}

impl<B: World> LoadedBot<B> {
    /// The sha256 as lowercase hex.
    pub fn sha256_hex(&self) -> String {
        hex::encode(self.sha256)
    }

    /// This bot with `data` as its data folder.
    pub fn with_data(self, data: Option<BotData>) -> LoadedBot<B> {
        LoadedBot { data, ..self }
    }
}

/// sha256 of `bytes`.
pub fn sha256(bytes: &[u8]) -> [u8; 32] {
    Sha256::digest(bytes).into()
}

/// What loads bots: the arena (its sandbox, artifact cache, compile worker and reference
/// components) and the memory limit a bot's declared initial memory is checked against, the
/// match's own (`Budget::memory_mib`): a bot that could never start in the match is refused at
/// load instead of forfeiting in it.
#[derive(Clone, Copy)]
pub struct Loader<'a> {
    arena: &'a Arena,
    memory_mib: u32,
}

impl<'a> Loader<'a> {
    /// A loader for a match granting `memory_mib` MiB per bot.
    pub fn new(arena: &'a Arena, memory_mib: u32) -> Loader<'a> {
        Loader { arena, memory_mib }
    }

    /// A loader outside any match: it checks against the most any match may grant
    /// ([`crate::engine::ArenaOptions::max_memory_mib`]).
    pub fn for_any_match(arena: &'a Arena) -> Loader<'a> {
        Loader::new(arena, arena.options().max_memory_mib)
    }

    /// The arena it loads with.
    pub fn arena(&self) -> &'a Arena {
        self.arena
    }

    /// The memory limit, in MiB, declared initial memory is checked against.
    pub fn memory_mib(&self) -> u32 {
        self.memory_mib
    }
}

/// Reads, compiles and checks a bot file (a file the artifact cache knows is not read: see
/// [`open_bot`]), for any match ([`Loader::for_any_match`]).
pub fn load_bot<B: World>(arena: &Arena, path: &Path) -> Result<LoadedBot<B>, LoadError> {
    let loader = Loader::for_any_match(arena);
    let source = open_bot(&loader, path)?;
    let compiled = compile_source(&loader, path, &source, B::EXPORT)?;
    load_bot_component::<B>(arena, path, compiled)
}

/// A bot file as a load sees it.
pub enum BotSource {
    /// Its bytes, read, and their sha256.
    Read {
        /// The file's bytes.
        bytes: Vec<u8>,
        /// Their sha256.
        sha256: [u8; 32],
    },
    /// Not read: the artifact cache remembered the file's sha256 and holds its component,
    /// compiled as a bot (under the loader's shape limits) and checked against this run's
    /// memory limit.
    Cached(Compiled),
}

impl BotSource {
    /// The file's sha256: the bot's identity.
    pub fn sha256(&self) -> &[u8; 32] {
        match self {
            BotSource::Read { sha256, .. } => sha256,
            BotSource::Cached(compiled) => &compiled.sha256,
        }
    }
}

/// Opens a bot file, refusing one over [`MAX_BOT_FILE`]. When the arena's artifact cache
/// remembers the file's sha256 for its exact stamp (device, inode, size and times: see
/// [`crate::cache::FileStamp`]) and holds the component compiled from it, the file is not read;
/// otherwise it is read and hashed, and the cache remembers the hash for the next load.
pub fn open_bot(loader: &Loader<'_>, path: &Path) -> Result<BotSource, LoadError> {
    let arena = loader.arena();
    let (mut file, metadata) = open_bot_file(path)?;
    let cache = arena.cache();
    let stamp = cache.and_then(|_| FileStamp::of(&metadata));
    if let (Some(cache), Some(stamp)) = (cache, &stamp)
        && let Some(sha256) = cache.remembered_sha256(stamp)
        && let Some((component, facts)) = cache.lookup(arena.engine(), &sha256, &shape_context())
    {
        check_declared(path, &facts, loader.memory_mib())?;
        return Ok(BotSource::Cached(Compiled { component, sha256 }));
    }
    let bytes = read_open_bot_file(path, &mut file, metadata.len())?;
    let sha256 = sha256(&bytes);
    if let (Some(cache), Some(stamp)) = (cache, stamp) {
        // Unchanged while it was read: the bytes hashed are the stamped version's.
        let after = file.metadata().ok().and_then(|metadata| FileStamp::of(&metadata));
        if after == Some(stamp) && bytes.len() as u64 == stamp.size() {
            cache.remember_sha256(&stamp, &sha256);
        }
    }
    Ok(BotSource::Read { bytes, sha256 })
}

/// The component of an opened bot file: the cached one, or its bytes compiled (see
/// [`compile`]).
pub fn compile_source(
    loader: &Loader<'_>,
    path: &Path,
    source: &BotSource,
    expected: &'static str,
) -> Result<Compiled, LoadError> {
    match source {
        BotSource::Cached(compiled) => Ok(compiled.clone()),
        BotSource::Read { bytes, sha256 } => compile_hashed(loader, path, bytes, sha256, expected),
    }
}

/// A bot file's sha256 in hex, as plans, tournaments and replays name a bot (read in full,
/// refusing a file over [`MAX_BOT_FILE`]).
pub fn bot_file_sha256_hex(path: &Path) -> Result<String, LoadError> {
    read_bot_file(path).map(|bytes| hex::encode(sha256(&bytes)))
}

/// Reads a bot file, refusing one over [`MAX_BOT_FILE`].
pub fn read_bot_file(path: &Path) -> Result<Vec<u8>, LoadError> {
    let (mut file, metadata) = open_bot_file(path)?;
    read_open_bot_file(path, &mut file, metadata.len())
}

/// Opens a bot file, refusing one that is not a regular file (a FIFO, a device, a folder: a
/// path may name a FIFO no one writes to, where a plain open would wait forever; see
/// [`crate::regular_file`]) or whose size is over [`MAX_BOT_FILE`].
fn open_bot_file(path: &Path) -> Result<(std::fs::File, std::fs::Metadata), LoadError> {
    let (file, metadata) = crate::regular_file::open(path).map_err(|err| match err {
        crate::regular_file::OpenError::Io { path, source } => LoadError::Read { path, source },
        crate::regular_file::OpenError::NotRegular { path, kind } => LoadError::NotAFile { path, kind },
    })?;
    if metadata.len() > MAX_BOT_FILE {
        return Err(LoadError::TooLarge { path: path.to_owned(), size: metadata.len() });
    }
    Ok((file, metadata))
}

/// Reads an opened bot file (`size` as opened), refusing it if it grew past [`MAX_BOT_FILE`]
/// since: at most one byte more is read.
fn read_open_bot_file(path: &Path, file: &mut std::fs::File, size: u64) -> Result<Vec<u8>, LoadError> {
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(MAX_BOT_FILE + 1)
        .read_to_end(&mut bytes)
        .map_err(|source| LoadError::Read { path: path.to_owned(), source })?;
    if bytes.len() as u64 > MAX_BOT_FILE {
        return Err(LoadError::TooLarge { path: path.to_owned(), size: bytes.len() as u64 });
    }
    Ok(bytes)
}

/// Compiles and checks bot bytes, for any match; `path` names them in messages.
pub fn load_bot_bytes<B: World>(arena: &Arena, path: &Path, bytes: &[u8]) -> Result<LoadedBot<B>, LoadError> {
    let compiled = compile(&Loader::for_any_match(arena), path, bytes, B::EXPORT)?;
    load_bot_component::<B>(arena, path, compiled)
}

/// A compiled component and the sha256 of the bytes it was compiled from (the bot's identity).
#[derive(Clone)]
pub struct Compiled {
    /// The component.
    pub component: Component,
    /// sha256 of its bytes.
    pub sha256: [u8; 32],
}

/// The facts a cache entry keeps for the loader: what the shape scan found that the load
/// checks against this run's limits (a hit does not scan again).
fn shape_facts(shape: &Shape) -> EntryFacts {
    let mut facts = EntryFacts::default();
    facts[..8].copy_from_slice(&shape.initial_memory_bytes.to_le_bytes());
    facts[8..].copy_from_slice(&shape.max_initial_table_elements.to_le_bytes());
    facts
}

/// [`shape_facts`] read back: (initial memory bytes, largest initial table).
fn facts_shape(facts: &EntryFacts) -> (u64, u64) {
    let (memory, table) = facts.split_at(8);
    let word = |bytes: &[u8]| u64::from_le_bytes(bytes.try_into().unwrap_or_default());
    (word(memory), word(table))
}

/// What the scan's verdict depends on besides the bytes: an entry written under other shape
/// limits is another key, so a hit never skips a scan that these limits would fail.
fn shape_context() -> Vec<u8> {
    let ShapeLimits {
        function_bytes,
        function_locals,
        nesting_depth,
        locals_times_depth,
        module_functions,
        module_code_bytes,
    } = ShapeLimits::DEFAULT;
    // "2": entries are stored only once they fit the pool's per-bot limits, whatever the
    // allocator (`compile::compile`'s pool check); those limits are part of the key, and so is
    // the stack instrumentation the compiled code carries (`crate::stack`).
    let mut context = b"shape scan 2".to_vec();
    context.extend_from_slice(crate::stack::VERSION);
    for limit in [
        function_bytes,
        function_locals,
        nesting_depth,
        locals_times_depth,
        module_functions,
        module_code_bytes,
        MAX_CORE_INSTANCES as u64,
        MAX_MEMORIES as u64,
        MAX_TABLES as u64,
        MAX_TABLE_ELEMENTS as u64,
        u64::from(crate::stack::STACK_LIMIT),
        u64::from(crate::stack::FRAME_UNITS),
    ] {
        context.extend_from_slice(&limit.to_le_bytes());
    }
    context
}

/// Checks the header, the shape and the declared minimums, and compiles a component (through
/// the arena's artifact cache and compile worker, if it has them); `expected` names the export
/// in refusals.
pub fn compile(loader: &Loader<'_>, path: &Path, bytes: &[u8], expected: &'static str) -> Result<Compiled, LoadError> {
    compile_hashed(loader, path, bytes, &sha256(bytes), expected)
}

/// [`compile`] for bytes whose sha256 the caller has already taken.
fn compile_hashed(
    loader: &Loader<'_>,
    path: &Path,
    bytes: &[u8],
    sha256: &[u8; 32],
    expected: &'static str,
) -> Result<Compiled, LoadError> {
    let path_buf = path.to_owned();
    match bytes.get(..8) {
        Some([0, b'a', b's', b'm', 1, 0, 0, 0]) => {
            let why = crate::core_module::not_a_command(bytes).unwrap_or("it cannot be read as one");
            return Err(LoadError::CoreModule { path: path_buf, expected, why });
        }
        Some([0, b'a', b's', b'm', ..]) => {}
        _ => return Err(LoadError::NotWasm { path: path_buf, expected }),
    }
    let component = compile_checked::<Component>(loader, path, bytes, sha256, &shape_context())?;
    Ok(Compiled { component, sha256: *sha256 })
}

/// Checks the shape and the declared minimums of `bytes` and compiles them into an `A` (through
/// the arena's artifact cache, keyed with `context`, and compile worker, if it has them).
fn compile_checked<A: Artifact>(
    loader: &Loader<'_>,
    path: &Path,
    bytes: &[u8],
    sha256: &[u8; 32],
    context: &[u8],
) -> Result<A, LoadError> {
    let path_buf = path.to_owned();
    let (arena, limit_mib) = (loader.arena(), loader.memory_mib());
    // On a miss the declared sizes are checked before compiling (a bot that can never start
    // costs no compilation); on a hit, from the facts its entry kept. The typed refusal is kept
    // here, since the cache carries only a message.
    let refused = std::cell::RefCell::new(None);
    let check = || {
        let facts =
            scan(bytes, &ShapeLimits::DEFAULT).map(|shape| shape_facts(&shape)).map_err(|err| err.to_string())?;
        check_declared(path, &facts, limit_mib).map_err(|err| {
            let message = err.to_string();
            *refused.borrow_mut() = Some(err);
            message
        })?;
        Ok(facts)
    };
    let request = crate::compile::Request { bytes, sha256, context, check };
    let (component, facts) = arena.compile(request).map_err(|err| match err {
        CompileError::Invalid(detail) => LoadError::Invalid { path: path_buf.clone(), detail },
        CompileError::Bound(what) => LoadError::CompileBound { path: path_buf.clone(), what },
        CompileError::Refused(detail) => {
            refused.take().unwrap_or_else(|| LoadError::Shape { path: path_buf.clone(), detail })
        }
    })?;
    check_declared(path, &facts, limit_mib)?;
    Ok(component)
}

/// Refuses a component whose declared memories or tables (its entry's or its scan's `facts`)
/// can never fit: it could never start under this run's memory limit of `limit_mib`.
fn check_declared(path: &Path, facts: &EntryFacts, limit_mib: u32) -> Result<(), LoadError> {
    let (initial_memory_bytes, max_initial_table_elements) = facts_shape(facts);
    if initial_memory_bytes > u64::from(limit_mib) << 20 {
        let declared_mib = initial_memory_bytes.div_ceil(1 << 20);
        return Err(LoadError::InitialMemory { path: path.to_owned(), declared_mib, limit_mib });
    }
    if max_initial_table_elements > MAX_TABLE_ELEMENTS as u64 {
        let declared = max_initial_table_elements;
        return Err(LoadError::InitialTable { path: path.to_owned(), declared, limit: MAX_TABLE_ELEMENTS });
    }
    Ok(())
}

/// The export among `exports` that is `expected`'s interface at another version
/// (`arena:eubots/player@0.1.0` for `arena:eubots/player@0.2.0`), if any.
fn other_version<'a>(exports: &'a [String], expected: &str) -> Option<&'a str> {
    let (interface, _) = expected.split_once('@')?;
    exports.iter().map(String::as_str).find(|name| name.split_once('@').is_some_and(|(found, _)| found == interface))
}

/// The names a component exports.
fn export_names(arena: &Arena, component: &Component) -> Vec<String> {
    component.component_type().exports(arena.engine()).map(|(name, _)| name.to_owned()).collect()
}

/// Checks a compiled component against game `B`'s world.
pub fn load_bot_component<B: World>(arena: &Arena, path: &Path, compiled: Compiled) -> Result<LoadedBot<B>, LoadError> {
    let Compiled { component, sha256 } = compiled;
    let path_buf = path.to_owned();
    let exports = export_names(arena, &component);
    if !exports.iter().any(|name| name == B::EXPORT) {
        if let Some(found) = other_version(&exports, B::EXPORT) {
            return Err(LoadError::OtherVersion { path: path_buf, found: found.to_owned(), expected: B::EXPORT });
        }
        let exports = if exports.is_empty() { "nothing".to_owned() } else { exports.join(", ") };
        return Err(LoadError::WrongWorld { path: path_buf, exports, expected: B::EXPORT, world: B::WORLD });
    }
    let instance_pre = arena
        .linker()
        .instantiate_pre(&component)
        .map_err(|err| LoadError::Imports { path: path_buf.clone(), detail: one_line(&err) })?;
    let pre = B::pre(instance_pre).map_err(|err| LoadError::WrongTypes {
        path: path_buf.clone(),
        expected: B::EXPORT,
        detail: one_line(&err),
    })?;
    check_world_exports(arena, &component, B::WORLD, B::WIT, B::EXPORT).map_err(|detail| LoadError::WrongTypes {
        path: path_buf.clone(),
        expected: B::EXPORT,
        detail,
    })?;
    Ok(LoadedBot {
        path: path_buf,
        name: display_name(path),
        sha256,
        component,
        pre,
        data: None,
        _binding: PhantomData,
    })
}

fn display_name(path: &Path) -> String {
    path.file_stem().map(|stem| stem.to_string_lossy().into_owned()).unwrap_or_else(|| "bot".into())
}

/// The export every WASI command has (`wasi:cli/run`, any 0.2 version).
pub const COMMAND_EXPORT: &str = "wasi:cli/run@0.2";

/// A WASI command (a program with a `main`), compiled and checked, for games that speak a line
/// protocol to such bots.
pub struct LoadedCommand {
    /// Where it was loaded from.
    pub path: PathBuf,
    /// Display name: the file stem.
    pub name: String,
    /// sha256 of the file.
    pub sha256: [u8; 32],
    /// What runs.
    pub program: CommandProgram,
    /// Its data folder, if it has one: every instance sees it at `/data`.
    pub data: Option<BotData>,
}

/// What runs for a [`LoadedCommand`].
#[derive(Clone)]
pub enum CommandProgram {
    /// A component exporting `wasi:cli/run@0.2.*` (a `wasm32-wasip1` command wrapped into one
    /// included), pre-instantiated against the arena's linker.
    Component(CommandPre<BotState>),
    /// A core module run on WASI preview1 (a Go program: [`crate::wasip1`]), pre-instantiated
    /// against the arena's preview1 linker; its `_start` is the program's `main`.
    Preview1(wasmtime::InstancePre<BotState>),
}

impl<B: World> LoadedBot<B> {
    /// The bot as the replay names it.
    pub fn identity(&self) -> BotRef {
        let data = self.data.as_ref().map(BotData::identity);
        BotRef { name: self.name.clone(), path: self.path.clone(), sha256: self.sha256_hex(), data }
    }
}

impl LoadedCommand {
    /// The bot as the replay names it.
    pub fn identity(&self) -> BotRef {
        let data = self.data.as_ref().map(BotData::identity);
        BotRef { name: self.name.clone(), path: self.path.clone(), sha256: hex::encode(self.sha256), data }
    }

    /// This command with `data` as its data folder: a component and a program run on WASI
    /// preview1 (a Go program) alike see it at `/data`.
    pub fn with_data(self, data: Option<BotData>) -> LoadedCommand {
        LoadedCommand { data, ..self }
    }
}

/// Whether a compiled component is a WASI command.
pub fn is_command(arena: &Arena, component: &Component) -> bool {
    export_names(arena, component).iter().any(|name| is_command_export(name))
}

/// Whether `name` is `wasi:cli/run@0.2.*`.
fn is_command_export(name: &str) -> bool {
    name.strip_prefix(COMMAND_EXPORT).is_some_and(|rest| rest.starts_with('.'))
}

/// Checks a compiled component as a WASI command.
pub fn load_command_component(arena: &Arena, path: &Path, compiled: Compiled) -> Result<LoadedCommand, LoadError> {
    let Compiled { component, sha256 } = compiled;
    const EXPECTED: &str = "wasi:cli/run@0.2.x";
    let path_buf = path.to_owned();
    let instance_pre = arena
        .linker()
        .instantiate_pre(&component)
        .map_err(|err| LoadError::Imports { path: path_buf.clone(), detail: one_line(&err) })?;
    let pre = CommandPre::new(instance_pre).map_err(|err| LoadError::WrongTypes {
        path: path_buf.clone(),
        expected: EXPECTED,
        detail: one_line(&err),
    })?;
    let export = export_names(arena, &component).into_iter().find(|name| is_command_export(name)).unwrap_or_default();
    check_command_exports(arena.engine(), &component, &export).map_err(|detail| LoadError::WrongTypes {
        path: path_buf.clone(),
        expected: EXPECTED,
        detail,
    })?;
    let program = CommandProgram::Component(pre);
    Ok(LoadedCommand { path: path_buf, name: display_name(path), sha256, program, data: None })
}

/// What the artifact cache's key of a core module run on WASI preview1 depends on: the
/// loader's, and the kind, so that its entry is never taken for a component's.
fn preview1_context() -> Vec<u8> {
    let mut context = shape_context();
    context.extend_from_slice(b"\0preview1 core module");
    context
}

/// Compiles and checks a WASI preview1 command as the core module it is, to run on WASI
/// preview1 (a Go program: [`crate::wasip1::Preview1Command::Native`]); `sha256` is the file's.
pub fn load_preview1_command(
    loader: &Loader<'_>,
    path: &Path,
    bytes: &[u8],
    sha256: &[u8; 32],
) -> Result<LoadedCommand, LoadError> {
    const EXPECTED: &str = "a wasm32-wasip1 command (`_start`, `memory`)";
    let module = compile_checked::<wasmtime::Module>(loader, path, bytes, sha256, &preview1_context())?;
    let wrong = |detail: String| LoadError::WrongTypes { path: path.to_owned(), expected: EXPECTED, detail };
    match module.get_export("_start") {
        Some(wasmtime::ExternType::Func(start)) if start.params().len() == 0 && start.results().len() == 0 => {}
        _ => return Err(wrong("its `_start` is not a function without parameters or results".into())),
    }
    if !matches!(module.get_export("memory"), Some(wasmtime::ExternType::Memory(_))) {
        return Err(wrong("it exports no memory named `memory`, which WASI preview1 reads and writes".into()));
    }
    let pre = loader
        .arena()
        .sandbox()
        .preview1_linker()
        .instantiate_pre(&module)
        .map_err(|err| LoadError::Imports { path: path.to_owned(), detail: one_line(&err) })?;
    let program = CommandProgram::Preview1(pre);
    Ok(LoadedCommand { path: path.to_owned(), name: display_name(path), sha256: *sha256, program, data: None })
}
