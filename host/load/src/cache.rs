//! The compiled-artifact cache: a directory of components precompiled by this host, so that a
//! bot compiled once (seconds for a 12-18 MB interpreter component) loads in milliseconds on
//! the next run.
//!
//! An entry is keyed by the sha256 of the component's bytes, the wasmtime version, a hash
//! of the engine's compilation settings ([`wasmtime::Engine::precompile_compatibility_hash`])
//! and the caller's context (the loader's shape limits), so an entry is only ever looked up by
//! an engine that can run it. Its file holds the artifact ([`Component::serialize`], or a core
//! module's: [`Artifact`]), then a
//! trailer (magic, format version, key, length and sha256 of the artifact, the caller's
//! [`EntryFacts`], then a keyed BLAKE3 MAC of all of these and the artifact). The artifact comes
//! first so that a hit maps the file and wasmtime runs the code from that mapping (its ELF
//! parser ignores the bytes after the artifact): the entry is never copied, and only the pages
//! a bot's code touches are ever paged in for it (an interpreter's entry is 40 MB). The facts
//! are what the caller learned about the component when it compiled it (the loader keeps the
//! memory and table sizes its shape scan found, so a hit needs no scan); they are authenticated
//! with the entry.
//! BLAKE3 rather than HMAC-SHA256: an interpreter bot's entry is 40 MB, which HMAC-SHA256
//! took about 30 ms to verify on every load, several times what BLAKE3 takes.
//!
//! Deserialising an artifact is `unsafe` (it is machine code wasmtime runs as is), so the cache
//! guarantees:
//! - **Authenticity.** The MAC is keyed with a 32-byte per-user secret, the file [`KEY_FILE`]
//!   in the cache directory, made from the operating system's randomness on first use (a new
//!   file, mode 0600, in a directory the cache creates with mode 0700). An entry is deserialised
//!   only when its header names the key looked up and its MAC verifies (a constant-time
//!   comparison); any other entry (truncated, corrupted, another format, another bot's artifact
//!   under this key, written with another secret) is deleted and rebuilt ([`Lookup::Rejected`]).
//!   Whoever can write entries without the secret cannot get code deserialised.
//! - **A private directory.** On Unix the directory and the key file must belong to this user
//!   (the effective uid) and be closed to others (the directory not writable by group or others;
//!   the key neither readable nor writable by them), and the key must be a regular file of
//!   exactly 32 bytes, not followed if it is a symlink. Otherwise the cache is not used at all:
//!   bots are compiled, nothing is read or written, and the reason is logged once
//!   ([`ArtifactCache::check`], [`Lookup::Bypassed`]).
//! - **Atomic writes.** Entries (and the key) are written to a new temporary file (created with
//!   `create_new`, mode 0600, a name made of the pid, a counter and random bytes; removed if
//!   anything fails), then renamed (hard-linked for the key) into place: a reader sees a whole
//!   entry or none, and concurrent runs just race to put the same bytes in place.
//! - **A bounded size.** After writing an entry, when the entries exceed the bound
//!   ([`DEFAULT_MAX_BYTES`], [`ArtifactCache::with_max_bytes`]) the least recently used ones are
//!   deleted (oldest modification time first, ties by file name; a hit touches its entry's
//!   modification time) until they fit. The entry just written, the key file and files that are
//!   not the cache's are never deleted; an artifact larger than the bound is not stored.
//! - **Remembered identities** ([`FileStamp`]): the sha256 of each bot file loaded, for the exact
//!   version of the file it was taken from, so that a load of an unchanged bot whose component
//!   the cache holds reads neither the file nor more than the mapped entry. Memos are MAC'd and
//!   evicted like entries.

mod identity;

pub use identity::{FileStamp, IDENTITY_EXTENSION};

use crate::artifact::Artifact;
use crate::budget::WASMTIME_VERSION;
use sha2::{Digest, Sha256};
use std::fs::{File, Metadata, OpenOptions};
use std::hash::{Hash, Hasher};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::SystemTime;
use wasmtime::Engine;
use wasmtime::component::Component;

/// The first bytes of every entry.
pub const MAGIC: &[u8; 8] = b"ARENACWA";
/// The entry format version; bump it when the header changes.
pub const FORMAT_VERSION: u32 = 4;
/// Length of the facts an entry keeps for its caller.
pub const FACTS_LEN: usize = 16;
/// What the caller learned about a component when it compiled it, kept (authenticated) with
/// the entry and handed back on a hit.
pub type EntryFacts = [u8; FACTS_LEN];
/// Extension of entry files.
pub const ENTRY_EXTENSION: &str = "cwasm";
/// The file, in the cache directory, holding the secret entries are authenticated with.
pub const KEY_FILE: &str = "key";
/// Length of the secret in [`KEY_FILE`].
pub const KEY_LEN: usize = 32;
/// The default bound on the total size of the entries: 2 GiB.
pub const DEFAULT_MAX_BYTES: u64 = 2 << 30;
/// The environment variable naming the cache directory (the CLI's `--cache-dir` default).
pub const CACHE_DIR_ENV: &str = "ARENA_CACHE_DIR";
/// Length of the authenticated part of the trailer (the "header", though it follows the
/// artifact): magic, format version, key, artifact length, artifact sha256, facts.
const SIGNED_LEN: usize = 8 + 4 + 32 + 8 + 32 + FACTS_LEN;
/// Header (trailer) length: the authenticated part, then its MAC (which also covers the
/// artifact).
const HEADER_LEN: usize = SIGNED_LEN + blake3::OUT_LEN;
/// Prefix of temporary files (written, then renamed into place).
const TEMP_PREFIX: &str = ".tmp-";
/// Mode bits that make the directory unsafe: others could plant or swap files in it.
const DIR_FORBIDDEN_MODE: u32 = 0o022;
/// Mode bits that make the key unsafe: others could read (and forge with) or change it.
const KEY_FORBIDDEN_MODE: u32 = 0o077;

/// How a component was obtained through the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// Deserialised from a valid entry.
    Hit,
    /// No entry: compiled (and an entry written).
    Miss,
    /// An entry was there but failed its checks (including its MAC) or did not deserialise: it
    /// was deleted, the component compiled and the entry rewritten.
    Rejected,
    /// The cache directory or its key was refused ([`ArtifactCache::check`]): compiled, and no
    /// entry read or written.
    Bypassed,
}

/// Why a cache directory is not used (see the module documentation).
#[derive(Debug, Clone, thiserror::Error)]
pub enum CacheRefused {
    /// The directory or the key could not be created or read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The directory or key file.
        path: PathBuf,
        /// What the operating system said.
        #[source]
        source: Arc<std::io::Error>,
    },
    /// The cache path is not a directory.
    #[error("{} is not a directory", path.display())]
    NotADirectory {
        /// The cache path.
        path: PathBuf,
    },
    /// The directory or key file belongs to another user.
    #[error("{} is owned by uid {owner}, not by this user (uid {uid})", path.display())]
    ForeignOwner {
        /// The directory or key file.
        path: PathBuf,
        /// Its owner.
        owner: u32,
        /// This process's effective uid.
        uid: u32,
    },
    /// The directory is writable, or the key readable or writable, by group or others.
    #[error("{} is open to other users (mode {mode:o})", path.display())]
    OpenToOthers {
        /// The directory or key file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// The key is not a regular file (a symlink, a directory...).
    #[error("{} is not a regular file", path.display())]
    KeyNotAFile {
        /// The key file.
        path: PathBuf,
    },
    /// The key file does not hold exactly [`KEY_LEN`] bytes.
    #[error("{} holds {len} bytes, not a {KEY_LEN}-byte key", path.display())]
    KeyLength {
        /// The key file.
        path: PathBuf,
        /// Its length.
        len: u64,
    },
    /// The operating system gave no randomness for a new key.
    #[error("no randomness for a new cache key: {0}")]
    Random(getrandom::Error),
}

impl CacheRefused {
    fn io(path: &Path, source: std::io::Error) -> CacheRefused {
        CacheRefused::Io { path: path.to_path_buf(), source: Arc::new(source) }
    }
}

/// The per-user secret entries are authenticated with (the key of BLAKE3's keyed mode).
#[derive(Clone)]
struct Secret([u8; KEY_LEN]);

impl std::fmt::Debug for Secret {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Secret(..)")
    }
}

/// Why an entry is not deserialised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Invalid {
    /// Too short, another magic or format version, another key, or a length that is not the
    /// artifact's.
    Header,
    /// The artifact does not match the sha256 in its header: corrupted.
    Corrupt,
    /// Header and artifact are consistent but the MAC does not verify: not written with this
    /// directory's secret (a forged or foreign entry), or a damaged MAC.
    Mac,
}

impl std::fmt::Display for Invalid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Invalid::Header => "its header is not this format's or does not name this component",
            Invalid::Corrupt => "its artifact does not match its sha256",
            Invalid::Mac => "its MAC does not verify (not written with this cache's key)",
        })
    }
}

/// What the clones of a cache share.
#[derive(Debug, Default)]
struct Shared {
    hits: AtomicU64,
    misses: AtomicU64,
    rejected: AtomicU64,
    /// The directory's secret, or why the directory is refused: looked up once.
    secret: OnceLock<Result<Secret, CacheRefused>>,
    /// Whether the refusal was logged.
    warned: AtomicBool,
}

/// A directory of precompiled components (see the module documentation). Clones share their
/// counters and the directory's key.
#[derive(Debug, Clone)]
pub struct ArtifactCache {
    dir: PathBuf,
    max_bytes: u64,
    shared: Arc<Shared>,
}

/// What [`ArtifactCache::info`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheInfo {
    /// Entry files.
    pub entries: u64,
    /// Their total size in bytes.
    pub bytes: u64,
}

/// A file of the cache directory that the cache owns.
#[derive(Debug)]
struct CacheFile {
    path: PathBuf,
    size: u64,
    modified: SystemTime,
    kind: FileKind,
}

/// What a [`CacheFile`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum FileKind {
    /// A compiled artifact.
    Entry,
    /// A remembered bot file sha256 ([`FileStamp`]).
    Memo,
    /// A leftover temporary file.
    Temp,
}

impl ArtifactCache {
    /// A cache in `dir` (created, with its key, when first used), bounded to
    /// [`DEFAULT_MAX_BYTES`].
    pub fn new(dir: impl Into<PathBuf>) -> ArtifactCache {
        ArtifactCache { dir: dir.into(), max_bytes: DEFAULT_MAX_BYTES, shared: Arc::default() }
    }

    /// This cache, keeping its entries under `max_bytes` in total.
    pub fn with_max_bytes(mut self, max_bytes: u64) -> ArtifactCache {
        self.max_bytes = max_bytes;
        self
    }

    /// The default directory: `$ARENA_CACHE_DIR`, else `$XDG_CACHE_HOME/wasm-arena`, else
    /// `$HOME/.cache/wasm-arena`; `None` when none of these is set.
    pub fn default_dir() -> Option<PathBuf> {
        let non_empty = |name: &str| std::env::var_os(name).filter(|value| !value.is_empty()).map(PathBuf::from);
        non_empty(CACHE_DIR_ENV)
            .or_else(|| non_empty("XDG_CACHE_HOME").map(|dir| dir.join("wasm-arena")))
            .or_else(|| non_empty("HOME").map(|dir| dir.join(".cache").join("wasm-arena")))
    }

    /// The cache directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The bound on the entries' total size, in bytes.
    pub fn max_bytes(&self) -> u64 {
        self.max_bytes
    }

    /// Components deserialised from an entry so far (by this cache and its clones).
    pub fn hits(&self) -> u64 {
        self.shared.hits.load(Ordering::Relaxed)
    }

    /// Components compiled because there was no entry.
    pub fn misses(&self) -> u64 {
        self.shared.misses.load(Ordering::Relaxed)
    }

    /// Entries found invalid, deleted and rebuilt.
    pub fn rejected(&self) -> u64 {
        self.shared.rejected.load(Ordering::Relaxed)
    }

    /// Sets the directory up on first use (creates it with mode 0700 and the key, if missing)
    /// and checks that it is safe to use (see the module documentation); the answer is kept
    /// for this cache and its clones. A refused cache is never read or written.
    pub fn check(&self) -> Result<(), CacheRefused> {
        self.secret().map(|_| ()).map_err(CacheRefused::clone)
    }

    fn secret(&self) -> Result<&Secret, &CacheRefused> {
        self.shared.secret.get_or_init(|| open_dir(&self.dir)).as_ref()
    }

    /// The key of `bytes` compiled by `engine` with no caller context (what
    /// [`ArtifactCache::load_or_compile`] uses).
    pub fn key(engine: &Engine, bytes: &[u8]) -> [u8; 32] {
        Self::key_of(engine, &Sha256::digest(bytes).into(), &[])
    }

    /// The key of the component whose sha256 is `component_sha256`, compiled by `engine`, for a
    /// caller whose facts depend on `context`: sha256 of the component's sha256, the wasmtime
    /// version, the engine's compatibility hash and the context.
    pub fn key_of(engine: &Engine, component_sha256: &[u8; 32], context: &[u8]) -> [u8; 32] {
        let mut hasher = Sha256Hasher(Sha256::new());
        hasher.0.update(b"wasm-arena artifact key\0");
        hasher.0.update(component_sha256);
        hasher.0.update(WASMTIME_VERSION.as_bytes());
        hasher.0.update([0]);
        engine.precompile_compatibility_hash().hash(&mut hasher);
        hasher.0.update((context.len() as u64).to_le_bytes());
        hasher.0.update(context);
        hasher.0.finalize().into()
    }

    /// The entry file for `key`.
    pub fn entry_path(&self, key: &[u8; 32]) -> PathBuf {
        self.dir.join(format!("{}.{ENTRY_EXTENSION}", hex::encode(key)))
    }

    /// The component `bytes` compiles to with `engine`: deserialised from a valid entry, or
    /// compiled with [`Component::new`] (whose error is returned as is) and stored. A cache
    /// that cannot be read or written only costs the compilation; a refused one is not used.
    pub fn load_or_compile(&self, engine: &Engine, bytes: &[u8]) -> wasmtime::Result<(Component, Lookup)> {
        let sha256 = Sha256::digest(bytes).into();
        let compile = || Ok((Component::new(engine, bytes)?, EntryFacts::default()));
        let (component, _, lookup) = self.load_or_compile_with(engine, &sha256, &[], compile)?;
        Ok((component, lookup))
    }

    /// [`ArtifactCache::load_or_compile`] for the component whose sha256 is `component_sha256`
    /// (the caller has it already: hashing a 19 MB component again costs 15 ms), for a caller
    /// whose facts depend on `context` (see [`ArtifactCache::key_of`]). On a miss `compile`
    /// (e.g. checks, then a bounded worker process, [`crate::compile`]) gives the component and
    /// the facts to keep; its error is returned as is. Returns the facts stored with the entry
    /// on a hit, `compile`'s otherwise.
    pub fn load_or_compile_with<A: Artifact>(
        &self,
        engine: &Engine,
        component_sha256: &[u8; 32],
        context: &[u8],
        compile: impl FnOnce() -> wasmtime::Result<(A, EntryFacts)>,
    ) -> wasmtime::Result<(A, EntryFacts, Lookup)> {
        let secret = match self.secret() {
            Ok(secret) => secret,
            Err(refused) => {
                if !self.shared.warned.swap(true, Ordering::Relaxed) {
                    tracing::warn!("not using the compiled-artifact cache: {refused}");
                }
                let (component, facts) = compile()?;
                return Ok((component, facts, Lookup::Bypassed));
            }
        };
        let key = Self::key_of(engine, component_sha256, context);
        let path = self.entry_path(&key);
        let lookup = match self.find(engine, secret, &key) {
            Ok((component, facts)) => return Ok((component, facts, Lookup::Hit)),
            Err(lookup) => lookup,
        };
        if lookup == Lookup::Miss {
            self.shared.misses.fetch_add(1, Ordering::Relaxed);
        }
        let (component, facts) = compile()?;
        match Artifact::serialize(&component) {
            Ok(artifact) if (HEADER_LEN + artifact.len()) as u64 > self.max_bytes => {
                tracing::debug!("{}: artifact larger than the cache bound; not stored", path.display());
            }
            Ok(artifact) => {
                if let Err(err) = self.store(secret, &key, &facts, &artifact) {
                    tracing::warn!("{}: cannot write the cache entry ({err})", path.display());
                } else if let Err(err) = self.evict(&path) {
                    tracing::warn!("{}: cannot bound the cache's size ({err})", self.dir.display());
                }
            }
            Err(err) => tracing::warn!("cannot serialise a compiled component ({err})"),
        }
        Ok((component, facts, lookup))
    }

    /// The component whose sha256 is `component_sha256`, for a caller whose facts depend on
    /// `context`, and its facts, if this cache holds a valid entry for it; never compiles (an
    /// entry that fails its checks is deleted, as by [`ArtifactCache::load_or_compile_with`]).
    pub fn lookup<A: Artifact>(
        &self,
        engine: &Engine,
        component_sha256: &[u8; 32],
        context: &[u8],
    ) -> Option<(A, EntryFacts)> {
        let secret = self.secret().ok()?;
        self.find(engine, secret, &Self::key_of(engine, component_sha256, context)).ok()
    }

    /// The entry for `key`, deserialised, or how the lookup failed ([`Lookup::Miss`] or
    /// [`Lookup::Rejected`], after deleting the entry).
    fn find<A: Artifact>(&self, engine: &Engine, secret: &Secret, key: &[u8; 32]) -> Result<(A, EntryFacts), Lookup> {
        let path = self.entry_path(key);
        let lookup = match EntryFile::open(&path) {
            Ok(entry) => match verified_artifact(&entry.bytes, key, secret) {
                Ok((artifact, facts)) => match entry.deserialize(engine, artifact) {
                    Ok(component) => {
                        self.shared.hits.fetch_add(1, Ordering::Relaxed);
                        touch(&path);
                        return Ok((component, facts));
                    }
                    Err(err) => {
                        tracing::warn!("{}: cached artifact does not deserialise ({err}); rebuilding", path.display());
                        Lookup::Rejected
                    }
                },
                Err(invalid) => {
                    tracing::warn!("{}: cache entry rejected: {invalid}; rebuilding", path.display());
                    Lookup::Rejected
                }
            },
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => Lookup::Miss,
            Err(err) => {
                tracing::warn!("{}: cannot read the cache entry ({err}); rebuilding", path.display());
                Lookup::Rejected
            }
        };
        if lookup == Lookup::Rejected {
            // Never trusted; another run may already have replaced it, which only costs a miss.
            let _ = std::fs::remove_file(&path);
            self.shared.rejected.fetch_add(1, Ordering::Relaxed);
        }
        Err(lookup)
    }

    /// Writes the entry for `key` atomically: a new temporary file in the cache directory,
    /// renamed into place.
    fn store(&self, secret: &Secret, key: &[u8; 32], facts: &EntryFacts, artifact: &[u8]) -> std::io::Result<()> {
        let header = header(secret, key, facts, artifact);
        write_into_place(&self.dir, &hex::encode(&key[..8]), &self.entry_path(key), &[artifact, header.as_slice()])
    }

    /// Deletes the least recently used entries and memos (oldest modification time first, then
    /// by file name), never `keep`, until they fit in the bound.
    fn evict(&self, keep: &Path) -> std::io::Result<()> {
        let mut entries: Vec<_> = self.files()?.into_iter().filter(|file| file.kind != FileKind::Temp).collect();
        let mut total: u64 = entries.iter().map(|file| file.size).sum();
        if total <= self.max_bytes {
            return Ok(());
        }
        entries.sort_by(|a, b| (a.modified, &a.path).cmp(&(b.modified, &b.path)));
        for file in entries {
            if total <= self.max_bytes {
                break;
            }
            if file.path == keep {
                continue;
            }
            match std::fs::remove_file(&file.path) {
                Ok(()) => {}
                // Another run evicted or rejected it first.
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
                Err(err) => return Err(err),
            }
            total -= file.size;
        }
        Ok(())
    }

    /// The entry files, memo files and leftover temporary files in the directory (nothing
    /// else: not the key), in no particular order.
    fn files(&self) -> std::io::Result<Vec<CacheFile>> {
        let listing = match std::fs::read_dir(&self.dir) {
            Ok(listing) => listing,
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(err) => return Err(err),
        };
        let mut files = Vec::new();
        for entry in listing {
            let entry = entry?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let extension = path.extension().filter(|_| !name.starts_with('.'));
            let kind = if name.starts_with(TEMP_PREFIX) {
                FileKind::Temp
            } else if extension.is_some_and(|ext| ext == ENTRY_EXTENSION) {
                FileKind::Entry
            } else if extension.is_some_and(|ext| ext == IDENTITY_EXTENSION) {
                FileKind::Memo
            } else {
                continue;
            };
            // Not followed: a symlink is neither an entry nor ours to size.
            let metadata = entry.metadata()?;
            if metadata.is_file() {
                let modified = metadata.modified().unwrap_or(SystemTime::UNIX_EPOCH);
                files.push(CacheFile { path, size: metadata.len(), modified, kind });
            }
        }
        Ok(files)
    }

    /// Entries and their total size.
    pub fn info(&self) -> std::io::Result<CacheInfo> {
        let mut info = CacheInfo::default();
        for file in self.files()? {
            if file.kind == FileKind::Entry {
                info.entries += 1;
                info.bytes += file.size;
            }
        }
        Ok(info)
    }

    /// Deletes every entry (and memo and leftover temporary file), nothing else (the key stays); returns
    /// what the entries held.
    pub fn clear(&self) -> std::io::Result<CacheInfo> {
        let mut info = CacheInfo::default();
        for file in self.files()? {
            match std::fs::remove_file(&file.path) {
                Ok(()) => {}
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                Err(err) => return Err(err),
            }
            if file.kind == FileKind::Entry {
                info.entries += 1;
                info.bytes += file.size;
            }
        }
        Ok(info)
    }
}

/// Creates `dir` (mode 0700) if needed, checks it and its key, creating the key if missing.
fn open_dir(dir: &Path) -> Result<Secret, CacheRefused> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
    builder.create(dir).map_err(|err| CacheRefused::io(dir, err))?;
    let metadata = std::fs::metadata(dir).map_err(|err| CacheRefused::io(dir, err))?;
    if !metadata.is_dir() {
        return Err(CacheRefused::NotADirectory { path: dir.to_path_buf() });
    }
    check_private(dir, &metadata, DIR_FORBIDDEN_MODE)?;
    let key_path = dir.join(KEY_FILE);
    if let Some(secret) = read_key(&key_path)? {
        return Ok(secret);
    }
    create_key(dir, &key_path)?;
    read_key(&key_path)?.ok_or_else(|| CacheRefused::io(&key_path, std::io::ErrorKind::NotFound.into()))
}

/// The key in `path`, `None` if there is none; refused unless it is a private regular file of
/// [`KEY_LEN`] bytes. A symlink is not followed.
fn read_key(path: &Path) -> Result<Option<Secret>, CacheRefused> {
    let metadata = match std::fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(CacheRefused::io(path, err)),
    };
    if !metadata.file_type().is_file() {
        return Err(CacheRefused::KeyNotAFile { path: path.to_path_buf() });
    }
    check_private(path, &metadata, KEY_FORBIDDEN_MODE)?;
    if metadata.len() != KEY_LEN as u64 {
        return Err(CacheRefused::KeyLength { path: path.to_path_buf(), len: metadata.len() });
    }
    let file = File::open(path).map_err(|err| CacheRefused::io(path, err))?;
    // `open` follows symlinks: make sure it opened the file just checked, not one swapped in.
    let opened = file.metadata().map_err(|err| CacheRefused::io(path, err))?;
    if !same_file(&metadata, &opened) {
        return Err(CacheRefused::KeyNotAFile { path: path.to_path_buf() });
    }
    let mut bytes = Vec::with_capacity(KEY_LEN + 1);
    file.take(KEY_LEN as u64 + 1).read_to_end(&mut bytes).map_err(|err| CacheRefused::io(path, err))?;
    if bytes.len() != KEY_LEN {
        return Err(CacheRefused::KeyLength { path: path.to_path_buf(), len: bytes.len() as u64 });
    }
    let key = <[u8; KEY_LEN]>::try_from(bytes.as_slice())
        .map_err(|_| CacheRefused::KeyLength { path: path.to_path_buf(), len: bytes.len() as u64 })?;
    Ok(Some(Secret(key)))
}

/// Writes a new random key to `path` unless one appears first (another run creating it at the
/// same time: theirs is kept, whole, since a hard link puts a complete file in place or fails).
fn create_key(dir: &Path, path: &Path) -> Result<(), CacheRefused> {
    let mut secret = [0; KEY_LEN];
    getrandom::fill(&mut secret).map_err(CacheRefused::Random)?;
    let temp = write_temp(dir, KEY_FILE, &[secret.as_slice()]).map_err(|err| CacheRefused::io(dir, err))?;
    let linked = std::fs::hard_link(&temp, path);
    let _ = std::fs::remove_file(&temp);
    match linked {
        Err(err) if err.kind() != std::io::ErrorKind::AlreadyExists => Err(CacheRefused::io(path, err)),
        _ => Ok(()),
    }
}

/// Refuses `path` unless it belongs to this process's effective user and has none of the
/// `forbidden` mode bits; Unix only (elsewhere there are no such bits to check).
#[cfg(unix)]
fn check_private(path: &Path, metadata: &Metadata, forbidden: u32) -> Result<(), CacheRefused> {
    use std::os::unix::fs::MetadataExt;
    let uid = rustix::process::geteuid().as_raw();
    if metadata.uid() != uid {
        return Err(CacheRefused::ForeignOwner { path: path.to_path_buf(), owner: metadata.uid(), uid });
    }
    if metadata.mode() & forbidden != 0 {
        return Err(CacheRefused::OpenToOthers { path: path.to_path_buf(), mode: metadata.mode() & 0o7777 });
    }
    Ok(())
}

#[cfg(not(unix))]
fn check_private(_path: &Path, _metadata: &Metadata, _forbidden: u32) -> Result<(), CacheRefused> {
    Ok(())
}

/// Whether two metadata describe the same file.
#[cfg(unix)]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    a.is_file() && b.is_file() && a.len() == b.len()
}

/// Creates `path` (it must not exist: an existing file is never overwritten, nor a symlink
/// followed), mode 0600, with `parts` one after the other, synced; removed if a write fails.
fn write_new(path: &Path, parts: &[&[u8]]) -> std::io::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    let written = parts.iter().try_for_each(|part| file.write_all(part)).and_then(|()| file.sync_all());
    if written.is_err() {
        drop(file);
        let _ = std::fs::remove_file(path);
    }
    written
}

/// A new temporary file in `dir` holding `parts` (see [`write_new`]), named after `tag`, the
/// process, a counter and random bytes so that no two writers pick the same name.
fn write_temp(dir: &Path, tag: &str, parts: &[&[u8]]) -> std::io::Result<PathBuf> {
    static SEQUENCE: AtomicU64 = AtomicU64::new(0);
    // Uniqueness comes from pid and counter; the random part makes the name unguessable, and
    // `create_new` refuses a name that exists anyway, so weak randomness only costs an entry.
    let random = getrandom::u32().unwrap_or_default();
    let temp = dir.join(format!(
        "{TEMP_PREFIX}{tag}-{}-{}-{random:08x}",
        std::process::id(),
        SEQUENCE.fetch_add(1, Ordering::Relaxed)
    ));
    write_new(&temp, parts)?;
    Ok(temp)
}

/// Writes `parts` to `path` atomically: into a new temporary file in `dir` (named with `tag`),
/// then renamed over `path`, so a reader sees the old file or the whole new one, never a part.
/// The temporary file is removed if the rename fails.
fn write_into_place(dir: &Path, tag: &str, path: &Path, parts: &[&[u8]]) -> std::io::Result<()> {
    let temp = write_temp(dir, tag, parts)?;
    let renamed = std::fs::rename(&temp, path);
    if renamed.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    renamed
}

/// Marks an entry as just used, for the least-recently-used eviction. Best effort: an entry
/// that cannot be touched is only evicted earlier.
fn touch(path: &Path) {
    if let Err(err) = OpenOptions::new().write(true).open(path).and_then(|file| file.set_modified(SystemTime::now())) {
        tracing::debug!("{}: cannot touch the cache entry ({err})", path.display());
    }
}

/// The authenticated part of the header of the entry for `key` holding `artifact` and `facts`.
fn signed_header(key: &[u8; 32], facts: &EntryFacts, artifact: &[u8]) -> Vec<u8> {
    let mut header = Vec::with_capacity(HEADER_LEN);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    header.extend_from_slice(key);
    header.extend_from_slice(&(artifact.len() as u64).to_le_bytes());
    header.extend_from_slice(&Sha256::digest(artifact));
    header.extend_from_slice(facts);
    header
}

/// The MAC of an entry's authenticated header and artifact: BLAKE3 keyed with the secret.
fn entry_mac(secret: &Secret, signed: &[u8], artifact: &[u8]) -> blake3::Hash {
    let mut mac = blake3::Hasher::new_keyed(&secret.0);
    mac.update(signed);
    mac.update(artifact);
    mac.finalize()
}

/// The whole header of the entry for `key` holding `artifact`, authenticated with `secret`.
fn header(secret: &Secret, key: &[u8; 32], facts: &EntryFacts, artifact: &[u8]) -> Vec<u8> {
    let mut header = signed_header(key, facts, artifact);
    let tag = entry_mac(secret, &header, artifact);
    header.extend_from_slice(tag.as_bytes());
    header
}

/// The artifact in `entry` and its facts, if its header is this format's, names `key` and the
/// artifact's length, and its MAC under `secret` verifies (which also vouches for the recorded
/// sha256 and the facts).
fn verified_artifact<'a>(entry: &'a [u8], key: &[u8; 32], secret: &Secret) -> Result<(&'a [u8], EntryFacts), Invalid> {
    let (artifact, header) = split_entry(entry).ok_or(Invalid::Header)?;
    let (signed, tag) = header.split_at(SIGNED_LEN);
    let (magic, rest) = signed.split_at(8);
    let (version, rest) = rest.split_at(4);
    let (entry_key, rest) = rest.split_at(32);
    let (length, rest) = rest.split_at(8);
    let (digest, facts) = rest.split_at(32);
    if magic != MAGIC
        || version != FORMAT_VERSION.to_le_bytes()
        || entry_key != key
        || length != (artifact.len() as u64).to_le_bytes()
    {
        return Err(Invalid::Header);
    }
    let tag = <[u8; blake3::OUT_LEN]>::try_from(tag).map_err(|_| Invalid::Header)?;
    let facts = EntryFacts::try_from(facts).map_err(|_| Invalid::Header)?;
    // `blake3::Hash`'s equality is constant-time.
    if entry_mac(secret, signed, artifact) != blake3::Hash::from_bytes(tag) {
        // Only to say why: the MAC alone decides.
        return Err(if digest == Sha256::digest(artifact).as_slice() { Invalid::Mac } else { Invalid::Corrupt });
    }
    Ok((artifact, facts))
}

/// An entry's artifact and its trailer (`None`: too short to hold a trailer).
fn split_entry(entry: &[u8]) -> Option<(&[u8], &[u8])> {
    entry.split_at_checked(entry.len().checked_sub(HEADER_LEN)?)
}

/// An entry file's bytes: mapped (the file is kept open, so the mapping stays that file's even
/// if the name is replaced), or read where the file cannot be mapped.
struct EntryFile {
    file: File,
    bytes: EntryBytes,
}

enum EntryBytes {
    Mapped(memmap2::Mmap),
    Read(Vec<u8>),
}

impl std::ops::Deref for EntryBytes {
    type Target = [u8];

    fn deref(&self) -> &[u8] {
        match self {
            EntryBytes::Mapped(map) => map,
            EntryBytes::Read(bytes) => bytes,
        }
    }
}

impl EntryFile {
    /// Opens and maps (else reads) the entry at `path`.
    #[allow(unsafe_code)]
    fn open(path: &Path) -> std::io::Result<EntryFile> {
        let mut file = File::open(path)?;
        // SAFETY: the mapping is read-only and private. What `memmap2` cannot promise is that
        // nobody writes the file while it is mapped: entries are only ever written whole, under
        // a temporary name, and renamed into place, so the only writer of an entry in place is
        // someone with this user's rights, who can read the cache's secret anyway.
        let bytes = match unsafe { memmap2::Mmap::map(&file) } {
            Ok(map) => EntryBytes::Mapped(map),
            Err(_) => {
                let mut bytes = Vec::new();
                file.read_to_end(&mut bytes)?;
                EntryBytes::Read(bytes)
            }
        };
        Ok(EntryFile { file, bytes })
    }

    /// Deserialises `artifact`, this entry's artifact once it passed [`verified_artifact`]:
    /// from the file itself where it is mapped (no copy), else from the bytes read.
    #[allow(unsafe_code)]
    fn deserialize<A: Artifact>(&self, engine: &Engine, artifact: &[u8]) -> wasmtime::Result<A> {
        // SAFETY: `Component::deserialize` (and `Module::deserialize`) runs the artifact's
        // machine code as is, so it must come from `Component::serialize` (`Module::serialize`)
        // of a compatible engine. This artifact passed `verified_artifact`: its MAC verifies under this
        // directory's secret, which only this user can read (`open_dir` refuses a key or
        // directory open to others), and only `ArtifactCache::store` MACs entries, from
        // `Artifact::serialize`. The MAC covers the key, which binds the entry to these
        // bot bytes and the loader's context (which names a core module's kind apart), this wasmtime version and this engine's compatibility hash, and the
        // artifact itself, so it is byte for byte what this user's cache serialised for this
        // component; wasmtime also checks its own version and settings header. A mapped entry is
        // handed to wasmtime as the open file verified (`/proc/self/fd` names this inode, not
        // whatever the entry's name points to now), which maps it again: the same bytes, with the
        // trailer after the artifact's ELF image, which the ELF parser does not read.
        #[cfg(target_os = "linux")]
        if let EntryBytes::Mapped(_) = self.bytes {
            use std::os::fd::AsRawFd;
            let opened = PathBuf::from(format!("/proc/self/fd/{}", self.file.as_raw_fd()));
            if opened.exists() {
                return unsafe { A::deserialize_file(engine, &opened) };
            }
        }
        unsafe { A::deserialize(engine, artifact) }
    }
}

/// A [`Hasher`] feeding sha256, so the engine's compatibility hash is stable across processes.
struct Sha256Hasher(Sha256);

impl Hasher for Sha256Hasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }

    fn finish(&self) -> u64 {
        let digest = self.0.clone().finalize();
        let mut first = [0; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_le_bytes(first)
    }
}

#[cfg(test)]
mod tests {

    use super::*;
    use crate::runtime::Arena;
    use std::time::Duration;

    /// A small valid component.
    const COMPONENT: &str = r#"(component (core module (func (export "f"))))"#;

    /// A scratch cache folder, removed when the test ends (unless it fails, for a look).
    struct TempDir(PathBuf);

    impl std::ops::Deref for TempDir {
        type Target = Path;
        fn deref(&self) -> &Path {
            &self.0
        }
    }

    impl AsRef<Path> for TempDir {
        fn as_ref(&self) -> &Path {
            &self.0
        }
    }

    impl Drop for TempDir {
        fn drop(&mut self) {
            if !std::thread::panicking() {
                let _ = std::fs::remove_dir_all(&self.0);
            }
        }
    }

    fn temp_dir(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("arena-cache-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        TempDir(dir)
    }

    fn component_bytes() -> Vec<u8> {
        wat::parse_str(COMPONENT).unwrap()
    }

    /// A component exporting one core module named `name`: components told apart by their
    /// exports.
    fn named_component(name: &str) -> Vec<u8> {
        wat::parse_str(format!(
            r#"(component (core module $m (func (export "f"))) (export "{name}" (core module $m)))"#
        ))
        .unwrap()
    }

    fn export_names(arena: &Arena, component: &Component) -> Vec<String> {
        component.component_type().exports(arena.engine()).map(|(name, _)| name.to_string()).collect()
    }

    fn only_entry(cache: &ArtifactCache) -> PathBuf {
        let files: Vec<_> = cache.files().unwrap().into_iter().filter(|file| file.kind == FileKind::Entry).collect();
        assert_eq!(files.len(), 1, "{files:?}");
        files[0].path.clone()
    }

    /// The names in `dir`, sorted.
    fn listing(dir: &Path) -> Vec<String> {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .map(|listing| listing.map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned()).collect())
            .unwrap_or_default();
        names.sort();
        names
    }

    fn set_modified(path: &Path, seconds: u64) {
        let time = SystemTime::UNIX_EPOCH + Duration::from_secs(seconds);
        OpenOptions::new().write(true).open(path).unwrap().set_modified(time).unwrap();
    }

    #[cfg(unix)]
    fn mode(path: &Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::symlink_metadata(path).unwrap().permissions().mode() & 0o777
    }

    #[cfg(unix)]
    fn chmod(path: &Path, mode: u32) {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
    }

    #[test]
    fn second_load_hits_the_cache() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("hit");
        let cache = ArtifactCache::new(&*dir);
        let bytes = component_bytes();
        let (_, first) = cache.load_or_compile(arena.engine(), &bytes).unwrap();
        assert_eq!(first, Lookup::Miss);
        let (_, second) = cache.load_or_compile(arena.engine(), &bytes).unwrap();
        assert_eq!(second, Lookup::Hit);
        assert_eq!((cache.hits(), cache.misses(), cache.rejected()), (1, 1, 0));
        let info = cache.info().unwrap();
        assert_eq!(info.entries, 1);
        assert!(info.bytes > HEADER_LEN as u64);
        // Another arena with the same settings shares the entry.
        let other = Arena::new().unwrap();
        assert_eq!(cache.load_or_compile(other.engine(), &bytes).unwrap().1, Lookup::Hit);
        assert_eq!(cache.clear().unwrap().entries, 1);
        assert_eq!(cache.info().unwrap(), CacheInfo::default());
        assert_eq!(listing(&dir), [KEY_FILE], "clear keeps the key");
    }

    /// Where an entry cannot be mapped, its bytes are read and the component deserialised from
    /// the copy: the same component as from the mapped file.
    #[test]
    fn an_entry_read_instead_of_mapped_deserialises_the_same() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("read-fallback");
        let cache = ArtifactCache::new(&*dir);
        let bytes = named_component("from-a-copy");
        cache.load_or_compile(arena.engine(), &bytes).unwrap();
        let path = only_entry(&cache);
        let mapped = EntryFile::open(&path).unwrap();
        assert!(matches!(mapped.bytes, EntryBytes::Mapped(_)));
        let read =
            EntryFile { file: File::open(&path).unwrap(), bytes: EntryBytes::Read(std::fs::read(&path).unwrap()) };
        assert_eq!(*read.bytes, *mapped.bytes);
        let (artifact, _) = split_entry(&read.bytes).unwrap();
        let component = read.deserialize(arena.engine(), artifact).unwrap();
        assert_eq!(export_names(&arena, &component), ["from-a-copy"]);
        // A damaged copy is an error, not a crash.
        let mut damaged = read.bytes.to_vec();
        damaged.truncate(artifact.len() / 2);
        let damaged = EntryFile { file: File::open(&path).unwrap(), bytes: EntryBytes::Read(damaged) };
        assert!(damaged.deserialize::<Component>(arena.engine(), &damaged.bytes).is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_new_directory_and_key_are_private() {
        let dir = temp_dir("private");
        let cache = ArtifactCache::new(dir.join("nested"));
        cache.check().unwrap();
        assert_eq!(mode(cache.dir()), 0o700);
        let key = cache.dir().join(KEY_FILE);
        assert_eq!(mode(&key), 0o600);
        let secret = std::fs::read(&key).unwrap();
        assert_eq!(secret.len(), KEY_LEN);
        assert_ne!(secret, [0; KEY_LEN]);
        // Another cache on the directory reads the same key.
        ArtifactCache::new(cache.dir()).check().unwrap();
        assert_eq!(std::fs::read(&key).unwrap(), secret);
        assert_eq!(listing(cache.dir()), [KEY_FILE], "no temporary file left");
    }

    #[test]
    fn a_corrupted_entry_is_rejected_and_rebuilt() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("corrupt");
        let cache = ArtifactCache::new(&*dir);
        let bytes = component_bytes();
        cache.load_or_compile(arena.engine(), &bytes).unwrap();
        let path = only_entry(&cache);
        let good = std::fs::read(&path).unwrap();
        // One flipped byte anywhere in the artifact, or a truncated file.
        for damaged in [
            {
                let mut entry = good.clone();
                let middle = (entry.len() - HEADER_LEN) / 2;
                entry[middle] ^= 0x01;
                entry
            },
            good[..good.len() - 1].to_vec(),
            good[..10].to_vec(),
        ] {
            std::fs::write(&path, &damaged).unwrap();
            let rejected = cache.rejected();
            let (component, lookup) = cache.load_or_compile(arena.engine(), &bytes).unwrap();
            assert_eq!(lookup, Lookup::Rejected);
            assert_eq!(cache.rejected(), rejected + 1);
            assert!(component.component_type().exports(arena.engine()).next().is_none());
            // Rebuilt: the entry is valid again and the next load hits.
            assert_eq!(std::fs::read(&path).unwrap(), good);
            assert_eq!(cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Hit);
        }
    }

    #[test]
    fn a_foreign_entry_is_rejected_and_rebuilt() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("foreign");
        let cache = ArtifactCache::new(&*dir);
        let bytes = component_bytes();
        let other = wat::parse_str(r#"(component (core module (func (export "g"))))"#).unwrap();
        cache.load_or_compile(arena.engine(), &other).unwrap();
        let other_entry = std::fs::read(only_entry(&cache)).unwrap();
        cache.clear().unwrap();
        cache.load_or_compile(arena.engine(), &bytes).unwrap();
        let path = only_entry(&cache);
        let good = std::fs::read(&path).unwrap();
        let with_header_byte_changed = |offset: usize| {
            let mut entry = good.clone();
            entry[good.len() - HEADER_LEN + offset] ^= 0xff;
            entry
        };
        for foreign in [
            // Another component's entry, whole and self-consistent, under this key's name.
            other_entry,
            with_header_byte_changed(0),   // magic
            with_header_byte_changed(8),   // format version
            with_header_byte_changed(12),  // key
            with_header_byte_changed(44),  // artifact length
            with_header_byte_changed(52),  // artifact sha256
            with_header_byte_changed(84),  // facts
            with_header_byte_changed(100), // MAC
            b"not an entry at all".to_vec(),
        ] {
            std::fs::write(&path, &foreign).unwrap();
            assert_eq!(cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Rejected);
            assert_eq!(std::fs::read(&path).unwrap(), good);
        }
    }

    /// The reported attack: bot A's artifact placed under bot B's key with a header recomputed
    /// for B (B's key, A's length and sha256), keeping A's MAC or making one up without the
    /// secret. It is never deserialised: B is recompiled and B's code is what loads.
    #[test]
    fn an_artifact_moved_under_another_bots_key_is_rejected() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("moved");
        let cache = ArtifactCache::new(&*dir);
        let (a, b) = (named_component("a"), named_component("b"));
        let (component, _) = cache.load_or_compile(arena.engine(), &a).unwrap();
        assert_eq!(export_names(&arena, &component), ["a"]);
        let a_entry = std::fs::read(cache.entry_path(&ArtifactCache::key(arena.engine(), &a))).unwrap();
        let (a_artifact, a_header) = split_entry(&a_entry).unwrap();
        let a_tag = &a_header[SIGNED_LEN..];
        let b_key = ArtifactCache::key(arena.engine(), &b);
        let b_path = cache.entry_path(&b_key);
        let guessed_secret = Secret([7; KEY_LEN]);
        let facts = EntryFacts::default();
        let guessed_tag = entry_mac(&guessed_secret, &signed_header(&b_key, &facts, a_artifact), a_artifact);
        for tag in [a_tag, guessed_tag.as_bytes().as_slice()] {
            let forged = [a_artifact, signed_header(&b_key, &facts, a_artifact).as_slice(), tag].concat();
            assert_eq!(verified_artifact(&forged, &b_key, cache.secret().unwrap()), Err(Invalid::Mac));
            std::fs::write(&b_path, &forged).unwrap();
            let rejected = cache.rejected();
            let (component, lookup) = cache.load_or_compile(arena.engine(), &b).unwrap();
            assert_eq!(lookup, Lookup::Rejected);
            assert_eq!(cache.rejected(), rejected + 1);
            assert_eq!(export_names(&arena, &component), ["b"], "B's code, not A's");
            let rebuilt = std::fs::read(&b_path).unwrap();
            assert_ne!(rebuilt, forged);
            assert!(verified_artifact(&rebuilt, &b_key, cache.secret().unwrap()).is_ok());
            let (component, lookup) = cache.load_or_compile(arena.engine(), &b).unwrap();
            assert_eq!((lookup, export_names(&arena, &component)), (Lookup::Hit, vec!["b".to_string()]));
        }
    }

    /// An entry valid in another cache directory (another key file) is rejected here.
    #[test]
    fn an_entry_written_with_another_key_is_rejected() {
        let arena = Arena::new().unwrap();
        let (mine, theirs) = (temp_dir("mine"), temp_dir("theirs"));
        let (cache, their_cache) = (ArtifactCache::new(&*mine), ArtifactCache::new(&*theirs));
        let bytes = named_component("b");
        cache.check().unwrap();
        assert_eq!(their_cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Miss);
        let key = ArtifactCache::key(arena.engine(), &bytes);
        let theirs_entry = std::fs::read(their_cache.entry_path(&key)).unwrap();
        assert_eq!(verified_artifact(&theirs_entry, &key, cache.secret().unwrap()), Err(Invalid::Mac));
        std::fs::write(cache.entry_path(&key), &theirs_entry).unwrap();
        let (component, lookup) = cache.load_or_compile(arena.engine(), &bytes).unwrap();
        assert_eq!(lookup, Lookup::Rejected);
        assert_eq!(export_names(&arena, &component), ["b"]);
        assert_ne!(std::fs::read(cache.entry_path(&key)).unwrap(), theirs_entry, "rewritten with this key");
        assert_eq!(cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Hit);
    }

    #[test]
    fn an_entry_that_passes_the_checks_but_does_not_deserialise_is_rebuilt() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("undeserialisable");
        let cache = ArtifactCache::new(&*dir);
        let bytes = component_bytes();
        let key = ArtifactCache::key(arena.engine(), &bytes);
        let artifact = b"consistent header, but not a wasmtime artifact";
        cache.store(cache.secret().unwrap(), &key, &EntryFacts::default(), artifact).unwrap();
        assert_eq!(cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Rejected);
        assert_eq!(cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Hit);
    }

    /// A directory others can write is not used: nothing is read or written, bots still compile.
    #[cfg(unix)]
    #[test]
    fn a_group_writable_directory_is_refused() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("writable");
        std::fs::create_dir_all(&dir).unwrap();
        chmod(&dir, 0o777);
        let cache = ArtifactCache::new(&*dir);
        match cache.check() {
            Err(CacheRefused::OpenToOthers { path, mode }) => assert_eq!((path.as_path(), mode), (&*dir, 0o777)),
            other => panic!("{other:?}"),
        }
        let bytes = named_component("b");
        for _ in 0..2 {
            let (component, lookup) = cache.load_or_compile(arena.engine(), &bytes).unwrap();
            assert_eq!((lookup, export_names(&arena, &component)), (Lookup::Bypassed, vec!["b".to_string()]));
        }
        assert_eq!(listing(&dir), Vec::<String>::new(), "no key, no entry written");
        assert_eq!((cache.hits(), cache.misses(), cache.rejected()), (0, 0, 0));
        // Closed again, the same directory is used.
        chmod(&dir, 0o755);
        let cache = ArtifactCache::new(&*dir);
        assert_eq!(cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Miss);
    }

    /// A key that is a symlink, of the wrong length, or open to others is refused.
    #[cfg(unix)]
    #[test]
    fn a_symlinked_or_malformed_key_is_refused() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("bad-key");
        let cache = ArtifactCache::new(&*dir);
        cache.check().unwrap();
        let key = dir.join(KEY_FILE);
        std::fs::rename(&key, dir.join("real-key")).unwrap();
        std::os::unix::fs::symlink(dir.join("real-key"), &key).unwrap();
        let fresh = || ArtifactCache::new(&*dir);
        assert!(matches!(fresh().check(), Err(CacheRefused::KeyNotAFile { .. })), "{:?}", fresh().check());
        let symlinked = fresh();
        assert_eq!(symlinked.load_or_compile(arena.engine(), &component_bytes()).unwrap().1, Lookup::Bypassed);
        assert_eq!(symlinked.info().unwrap().entries, 0, "no entry written");
        std::fs::remove_file(&key).unwrap();
        std::fs::rename(dir.join("real-key"), &key).unwrap();
        assert!(fresh().check().is_ok());
        chmod(&key, 0o640);
        assert!(
            matches!(fresh().check(), Err(CacheRefused::OpenToOthers { mode: 0o640, .. })),
            "{:?}",
            fresh().check()
        );
        chmod(&key, 0o600);
        std::fs::write(&key, [1; KEY_LEN - 1]).unwrap();
        assert!(matches!(fresh().check(), Err(CacheRefused::KeyLength { len: 31, .. })), "{:?}", fresh().check());
        std::fs::remove_file(&key).unwrap();
        std::fs::create_dir(&key).unwrap();
        assert!(matches!(fresh().check(), Err(CacheRefused::KeyNotAFile { .. })), "{:?}", fresh().check());
    }

    /// Past the bound, the least recently used entries go (a hit counts as a use); the entry
    /// just written and the key stay.
    #[test]
    fn entries_past_the_bound_are_evicted_least_recently_used_first() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("bound");
        let cache = ArtifactCache::new(&*dir);
        let [a, b, c] = ["a", "b", "c"].map(named_component);
        let path = |bytes: &[u8]| cache.entry_path(&ArtifactCache::key(arena.engine(), bytes));
        cache.load_or_compile(arena.engine(), &a).unwrap();
        cache.load_or_compile(arena.engine(), &b).unwrap();
        set_modified(&path(&a), 1000);
        set_modified(&path(&b), 2000);
        // A is used again: now B is the least recently used.
        assert_eq!(cache.load_or_compile(arena.engine(), &a).unwrap().1, Lookup::Hit);
        let size = std::fs::metadata(path(&b)).unwrap().len();
        let bound = 2 * size + size / 2;
        let bounded = ArtifactCache::new(&*dir).with_max_bytes(bound);
        assert_eq!(bounded.load_or_compile(arena.engine(), &c).unwrap().1, Lookup::Miss);
        assert!(path(&a).exists() && path(&c).exists());
        assert!(!path(&b).exists(), "the least recently used entry is evicted");
        let info = bounded.info().unwrap();
        assert_eq!(info.entries, 2);
        assert!(info.bytes <= bound, "{info:?} > {bound}");
        assert!(dir.join(KEY_FILE).exists());
        // An artifact larger than the bound is not stored, and evicts nothing.
        let tiny = ArtifactCache::new(&*dir).with_max_bytes(size / 2);
        assert_eq!(tiny.load_or_compile(arena.engine(), &b).unwrap().1, Lookup::Miss);
        assert!(!path(&b).exists());
        assert_eq!(tiny.info().unwrap(), info);
    }

    /// Entries used at the same time go in file-name order; the key is never evicted.
    #[test]
    fn eviction_breaks_ties_by_name_and_spares_the_key() {
        let dir = temp_dir("ties");
        let cache = ArtifactCache::new(&*dir).with_max_bytes(250);
        cache.check().unwrap();
        let entry = |name: &str| dir.join(format!("{name}.{ENTRY_EXTENSION}"));
        for name in ["cc", "bb", "aa"] {
            std::fs::write(entry(name), [0; 100]).unwrap();
            set_modified(&entry(name), 5000);
        }
        set_modified(&dir.join(KEY_FILE), 1);
        cache.evict(&entry("cc")).unwrap();
        assert_eq!(listing(&dir), ["bb.cwasm", "cc.cwasm", KEY_FILE]);
        std::fs::write(entry("aa"), [0; 100]).unwrap();
        set_modified(&entry("aa"), 5000);
        cache.evict(&entry("aa")).unwrap();
        assert_eq!(listing(&dir), ["aa.cwasm", "cc.cwasm", KEY_FILE]);
    }

    /// Temporary files are new files: an existing file or symlink is not written through, and a
    /// failed write leaves no temporary file.
    #[test]
    fn temporary_files_are_created_new_and_removed_on_failure() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("temp");
        let cache = ArtifactCache::new(&*dir);
        cache.check().unwrap();
        let existing = dir.join("existing");
        std::fs::write(&existing, "old").unwrap();
        let err = write_new(&existing, &[b"new".as_slice()]).unwrap_err();
        assert_eq!(err.kind(), std::io::ErrorKind::AlreadyExists);
        assert_eq!(std::fs::read(&existing).unwrap(), b"old");
        #[cfg(unix)]
        {
            let link = dir.join("link");
            std::os::unix::fs::symlink(&existing, &link).unwrap();
            assert_eq!(write_new(&link, &[b"new".as_slice()]).unwrap_err().kind(), std::io::ErrorKind::AlreadyExists);
            assert_eq!(std::fs::read(&existing).unwrap(), b"old");
        }
        // The rename fails (a directory is in the entry's place): the temporary file goes.
        let bytes = component_bytes();
        let key = ArtifactCache::key(arena.engine(), &bytes);
        std::fs::create_dir(cache.entry_path(&key)).unwrap();
        std::fs::write(cache.entry_path(&key).join("inside"), "x").unwrap();
        assert!(cache.store(cache.secret().unwrap(), &key, &EntryFacts::default(), b"artifact").is_err());
        assert_eq!(cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Rejected);
        assert!(!listing(&dir).iter().any(|name| name.starts_with(TEMP_PREFIX)), "{:?}", listing(&dir));
    }

    #[test]
    fn another_engine_setting_is_another_key() {
        let on_demand = Arena::new().unwrap();
        let bytes = component_bytes();
        let key = ArtifactCache::key(on_demand.engine(), &bytes);
        assert_eq!(key, ArtifactCache::key(Arena::new().unwrap().engine(), &bytes));
        let mut config = wasmtime::Config::new();
        config.consume_fuel(false);
        let plain = Engine::new(&config).unwrap();
        assert_ne!(key, ArtifactCache::key(&plain, &bytes));
        assert_ne!(key, ArtifactCache::key(on_demand.engine(), &wat::parse_str("(component)").unwrap()));
    }

    #[test]
    fn concurrent_writers_both_succeed() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("concurrent");
        let bytes = component_bytes();
        std::thread::scope(|scope| {
            let threads: Vec<_> = (0..4)
                .map(|_| {
                    // Separate caches on one new directory, as separate runs would be: they race
                    // to create the key too, and all end up with the same one.
                    let cache = ArtifactCache::new(&*dir);
                    let (arena, bytes) = (&arena, &bytes);
                    scope.spawn(move || cache.load_or_compile(arena.engine(), bytes).unwrap().1)
                })
                .collect();
            for thread in threads {
                assert!(matches!(thread.join().unwrap(), Lookup::Hit | Lookup::Miss));
            }
        });
        let cache = ArtifactCache::new(&*dir);
        assert_eq!(cache.info().unwrap().entries, 1);
        assert_eq!(only_entry(&cache).extension().unwrap(), ENTRY_EXTENSION, "no temporary file left");
        assert_eq!(cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Hit);
    }

    /// Through the loader: a bot loaded twice into arenas sharing a cache directory is
    /// compiled once, then deserialised, and both loads check and run the same.
    #[test]
    fn the_loader_compiles_through_the_cache() {
        use crate::loader::{World, load_bot};
        /// Azul's world, pre-instantiated with no typed exports (a binding's work, above).
        struct AzulWorld;
        impl World for AzulWorld {
            type Pre = wasmtime::component::InstancePre<crate::store::BotState>;
            const EXPORT: &'static str = "arena:azul/player@0.2.0";
            const WORLD: &'static str = "arena:azul/bot@0.2.0";
            const WIT: &'static str = include_str!("../../../wit/azul/azul.wit");
            fn pre(pre: Self::Pre) -> wasmtime::Result<Self::Pre> {
                Ok(pre)
            }
        }
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
        let path = target.join("bots/azul-greedy.wasm");
        assert!(path.exists(), "{} is missing: run `cargo xtask bots` first", path.display());
        let dir = temp_dir("loader");
        let cache = ArtifactCache::new(&*dir);
        let arena = Arena::new().unwrap().with_cache(Some(cache.clone()));
        let first = load_bot::<AzulWorld>(&arena, &path).unwrap();
        assert_eq!((cache.hits(), cache.misses()), (0, 1));
        // A second run: a fresh arena and cache on the same directory.
        let second_cache = ArtifactCache::new(&*dir);
        let second_arena = Arena::new().unwrap().with_cache(Some(second_cache.clone()));
        let second = load_bot::<AzulWorld>(&second_arena, &path).unwrap();
        assert_eq!((second_cache.hits(), second_cache.misses(), second_cache.rejected()), (1, 0, 0));
        assert_eq!(first.sha256, second.sha256);
        // Without a cache, nothing is read or written.
        assert!(Arena::new().unwrap().cache().is_none());
        // A corrupted entry is rejected by the loader's compile too, and the bot still loads.
        let entry = only_entry(&cache);
        let mut bytes = std::fs::read(&entry).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 0x80;
        std::fs::write(&entry, bytes).unwrap();
        load_bot::<AzulWorld>(&second_arena, &path).unwrap();
        assert_eq!(second_cache.rejected(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn clear_leaves_other_files_alone() {
        let dir = temp_dir("clear");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("notes.txt"), "mine").unwrap();
        std::fs::write(dir.join(format!("{}.{ENTRY_EXTENSION}", "ab")), "x").unwrap();
        std::fs::write(dir.join(format!("{TEMP_PREFIX}leftover")), "y").unwrap();
        std::fs::write(dir.join(KEY_FILE), [0; KEY_LEN]).unwrap();
        let cache = ArtifactCache::new(&*dir);
        assert_eq!(cache.info().unwrap(), CacheInfo { entries: 1, bytes: 1 });
        assert_eq!(cache.clear().unwrap(), CacheInfo { entries: 1, bytes: 1 });
        assert_eq!(listing(&dir), [KEY_FILE, "notes.txt"]);
    }
}
