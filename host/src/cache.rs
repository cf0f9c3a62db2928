//! The compiled-artifact cache: a directory of components precompiled by this host, so that a
//! bot compiled once (seconds for a 12-18 MB interpreter component) loads in milliseconds on
//! the next run.
//!
//! An entry is keyed by the sha256 of the component's bytes, the wasmtime version and a hash
//! of the engine's compilation settings ([`wasmtime::Engine::precompile_compatibility_hash`]),
//! so an entry is only ever looked up by an engine that can run it. Its file holds a header
//! (magic, format version, key, length and sha256 of the artifact) and the artifact
//! ([`Component::serialize`]). Entries are written to a temporary file in the cache directory
//! and renamed into place, so a reader sees a whole entry or none, and two runs writing the
//! same entry at once just race to put the same bytes in place.
//!
//! Deserialising an artifact is `unsafe` (it is machine code wasmtime runs as is), so an entry
//! is trusted only after its header and the sha256 of its artifact check out; an entry that does
//! not (truncated, corrupted, another format or key) is deleted and the component recompiled.

use crate::runtime::WASMTIME_VERSION;
use sha2::{Digest, Sha256};
use std::hash::{Hash, Hasher};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use wasmtime::Engine;
use wasmtime::component::Component;

/// The first bytes of every entry.
pub const MAGIC: &[u8; 8] = b"ARENACWA";
/// The entry format version; bump it when the header changes.
pub const FORMAT_VERSION: u32 = 1;
/// Extension of entry files.
pub const ENTRY_EXTENSION: &str = "cwasm";
/// The environment variable naming the cache directory (the CLI's `--cache-dir` default).
pub const CACHE_DIR_ENV: &str = "ARENA_CACHE_DIR";
/// Header length: magic, format version, key, artifact length, artifact sha256.
const HEADER_LEN: usize = 8 + 4 + 32 + 8 + 32;
/// Prefix of temporary files (written, then renamed into place).
const TEMP_PREFIX: &str = ".tmp-";

/// How a component was obtained through the cache.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lookup {
    /// Deserialised from a valid entry.
    Hit,
    /// No entry: compiled (and an entry written).
    Miss,
    /// An entry was there but failed its checks or did not deserialise: it was deleted, the
    /// component compiled and the entry rewritten.
    Rejected,
}

#[derive(Debug, Default)]
struct Counters {
    hits: AtomicU64,
    misses: AtomicU64,
    rejected: AtomicU64,
}

/// A directory of precompiled components (see the module documentation). Clones share their
/// hit and miss counters.
#[derive(Debug, Clone)]
pub struct ArtifactCache {
    dir: PathBuf,
    counters: Arc<Counters>,
}

/// What [`ArtifactCache::info`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct CacheInfo {
    /// Entry files.
    pub entries: u64,
    /// Their total size in bytes.
    pub bytes: u64,
}

impl ArtifactCache {
    /// A cache in `dir` (created when the first entry is written).
    pub fn new(dir: impl Into<PathBuf>) -> ArtifactCache {
        ArtifactCache { dir: dir.into(), counters: Arc::default() }
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

    /// Components deserialised from an entry so far (by this cache and its clones).
    pub fn hits(&self) -> u64 {
        self.counters.hits.load(Ordering::Relaxed)
    }

    /// Components compiled because there was no entry.
    pub fn misses(&self) -> u64 {
        self.counters.misses.load(Ordering::Relaxed)
    }

    /// Entries found invalid, deleted and rebuilt.
    pub fn rejected(&self) -> u64 {
        self.counters.rejected.load(Ordering::Relaxed)
    }

    /// The key of `bytes` compiled by `engine`: sha256 of the component's sha256, the wasmtime
    /// version and the engine's compatibility hash.
    pub fn key(engine: &Engine, bytes: &[u8]) -> [u8; 32] {
        let mut hasher = Sha256Hasher(Sha256::new());
        hasher.0.update(b"wasm-arena artifact key\0");
        hasher.0.update(Sha256::digest(bytes));
        hasher.0.update(WASMTIME_VERSION.as_bytes());
        hasher.0.update([0]);
        engine.precompile_compatibility_hash().hash(&mut hasher);
        hasher.0.finalize().into()
    }

    /// The entry file for `key`.
    pub fn entry_path(&self, key: &[u8; 32]) -> PathBuf {
        self.dir.join(format!("{}.{ENTRY_EXTENSION}", hex::encode(key)))
    }

    /// The component `bytes` compiles to with `engine`: deserialised from a valid entry, or
    /// compiled with [`Component::new`] (whose error is returned as is) and stored. A cache
    /// that cannot be read or written only costs the compilation.
    pub fn load_or_compile(&self, engine: &Engine, bytes: &[u8]) -> wasmtime::Result<(Component, Lookup)> {
        self.load_or_compile_with(engine, bytes, || Component::new(engine, bytes))
    }

    /// [`ArtifactCache::load_or_compile`] compiling with `compile` (e.g. in a bounded worker
    /// process, [`crate::compile`]) on a miss; its error is returned as is.
    pub fn load_or_compile_with(
        &self,
        engine: &Engine,
        bytes: &[u8],
        compile: impl FnOnce() -> wasmtime::Result<Component>,
    ) -> wasmtime::Result<(Component, Lookup)> {
        let key = Self::key(engine, bytes);
        let path = self.entry_path(&key);
        let lookup = match std::fs::read(&path) {
            Ok(entry) => match verified_artifact(&entry, &key).map(|artifact| deserialize(engine, artifact)) {
                Some(Ok(component)) => {
                    self.counters.hits.fetch_add(1, Ordering::Relaxed);
                    return Ok((component, Lookup::Hit));
                }
                Some(Err(err)) => {
                    tracing::warn!("{}: cached artifact does not deserialise ({err}); rebuilding", path.display());
                    Lookup::Rejected
                }
                None => {
                    tracing::warn!("{}: cache entry failed its integrity check; rebuilding", path.display());
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
            self.counters.rejected.fetch_add(1, Ordering::Relaxed);
        } else {
            self.counters.misses.fetch_add(1, Ordering::Relaxed);
        }
        let component = compile()?;
        match component.serialize() {
            Ok(artifact) => {
                if let Err(err) = self.store(&key, &artifact) {
                    tracing::warn!("{}: cannot write the cache entry ({err})", path.display());
                }
            }
            Err(err) => tracing::warn!("cannot serialise a compiled component ({err})"),
        }
        Ok((component, lookup))
    }

    /// Writes the entry for `key` atomically: a temporary file in the cache directory, renamed.
    fn store(&self, key: &[u8; 32], artifact: &[u8]) -> std::io::Result<()> {
        static SEQUENCE: AtomicU64 = AtomicU64::new(0);
        std::fs::create_dir_all(&self.dir)?;
        let temp = self.dir.join(format!(
            "{TEMP_PREFIX}{}-{}-{}",
            hex::encode(&key[..8]),
            std::process::id(),
            SEQUENCE.fetch_add(1, Ordering::Relaxed)
        ));
        let written = (|| {
            let mut file = std::fs::File::create(&temp)?;
            file.write_all(&header(key, artifact))?;
            file.write_all(artifact)?;
            file.sync_all()?;
            std::fs::rename(&temp, self.entry_path(key))
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&temp);
        }
        written
    }

    /// The entry files (and leftover temporary files) in the directory, with their sizes.
    fn files(&self) -> std::io::Result<Vec<(PathBuf, u64, bool)>> {
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
            let is_entry = path.extension().is_some_and(|ext| ext == ENTRY_EXTENSION) && !name.starts_with('.');
            let is_temp = name.starts_with(TEMP_PREFIX);
            let metadata = entry.metadata()?;
            if metadata.is_file() && (is_entry || is_temp) {
                files.push((path, metadata.len(), is_entry));
            }
        }
        Ok(files)
    }

    /// Entries and their total size.
    pub fn info(&self) -> std::io::Result<CacheInfo> {
        let mut info = CacheInfo::default();
        for (_, size, is_entry) in self.files()? {
            if is_entry {
                info.entries += 1;
                info.bytes += size;
            }
        }
        Ok(info)
    }

    /// Deletes every entry (and leftover temporary file), nothing else; returns what the
    /// entries held.
    pub fn clear(&self) -> std::io::Result<CacheInfo> {
        let mut info = CacheInfo::default();
        for (path, size, is_entry) in self.files()? {
            match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(err) if err.kind() == std::io::ErrorKind::NotFound => continue,
                Err(err) => return Err(err),
            }
            if is_entry {
                info.entries += 1;
                info.bytes += size;
            }
        }
        Ok(info)
    }
}

/// The header of the entry for `key` holding `artifact`.
fn header(key: &[u8; 32], artifact: &[u8]) -> Vec<u8> {
    let mut header = Vec::with_capacity(HEADER_LEN);
    header.extend_from_slice(MAGIC);
    header.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    header.extend_from_slice(key);
    header.extend_from_slice(&(artifact.len() as u64).to_le_bytes());
    header.extend_from_slice(&Sha256::digest(artifact));
    header
}

/// The artifact in `entry` if its header is this format's, names `key`, and the artifact has the
/// recorded length and sha256; `None` otherwise.
fn verified_artifact<'a>(entry: &'a [u8], key: &[u8; 32]) -> Option<&'a [u8]> {
    let (header, artifact) = entry.split_at_checked(HEADER_LEN)?;
    let (magic, rest) = header.split_at(8);
    let (version, rest) = rest.split_at(4);
    let (entry_key, rest) = rest.split_at(32);
    let (length, digest) = rest.split_at(8);
    let valid = magic == MAGIC
        && version == FORMAT_VERSION.to_le_bytes()
        && entry_key == key
        && length == (artifact.len() as u64).to_le_bytes()
        && digest == Sha256::digest(artifact).as_slice();
    valid.then_some(artifact)
}

/// Deserialises an artifact that passed [`verified_artifact`].
#[allow(unsafe_code)]
fn deserialize(engine: &Engine, artifact: &[u8]) -> wasmtime::Result<Component> {
    // SAFETY: `Component::deserialize` runs the artifact's machine code as is, so it must come
    // from `Component::serialize`/`Engine::precompile_component` of a compatible engine. This
    // artifact was checked by `verified_artifact` first: the entry was written by this cache
    // (`ArtifactCache::store`, the only writer of this format, from `Component::serialize`), its
    // key binds it to these component bytes, this wasmtime version and this engine's
    // compatibility hash, and its sha256 matches the one recorded when it was written, so it is
    // byte for byte what we serialised; wasmtime also checks its own version and settings header.
    unsafe { Component::deserialize(engine, artifact) }
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
    #![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

    use super::*;
    use crate::runtime::Arena;

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

    fn only_entry(cache: &ArtifactCache) -> PathBuf {
        let files = cache.files().unwrap();
        assert_eq!(files.len(), 1, "{files:?}");
        files[0].0.clone()
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
                let middle = HEADER_LEN + (entry.len() - HEADER_LEN) / 2;
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
            entry[offset] ^= 0xff;
            entry
        };
        for foreign in [
            // Another component's entry, whole and self-consistent, under this key's name.
            other_entry,
            with_header_byte_changed(0),  // magic
            with_header_byte_changed(8),  // format version
            with_header_byte_changed(12), // key
            with_header_byte_changed(44), // artifact length
            with_header_byte_changed(52), // artifact sha256
            b"not an entry at all".to_vec(),
        ] {
            std::fs::write(&path, &foreign).unwrap();
            assert_eq!(cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Rejected);
            assert_eq!(std::fs::read(&path).unwrap(), good);
        }
    }

    #[test]
    fn an_entry_that_passes_the_checks_but_does_not_deserialise_is_rebuilt() {
        let arena = Arena::new().unwrap();
        let dir = temp_dir("undeserialisable");
        let cache = ArtifactCache::new(&*dir);
        let bytes = component_bytes();
        let key = ArtifactCache::key(arena.engine(), &bytes);
        cache.store(&key, b"consistent header, but not a wasmtime artifact").unwrap();
        assert_eq!(cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Rejected);
        assert_eq!(cache.load_or_compile(arena.engine(), &bytes).unwrap().1, Lookup::Hit);
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
                    // Separate caches on one directory, as separate runs would be.
                    let cache = ArtifactCache::new(&*dir);
                    let (arena, bytes) = (&arena, &bytes);
                    scope.spawn(move || cache.load_or_compile(arena.engine(), bytes).unwrap().1)
                })
                .collect();
            for thread in threads {
                assert_ne!(thread.join().unwrap(), Lookup::Rejected);
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
        use crate::games::azul::AzulBinding;
        use crate::loader::load_bot;
        let target = std::env::var_os("CARGO_TARGET_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target"));
        let path = target.join("bots/azul-greedy.wasm");
        assert!(path.exists(), "{} is missing: run `cargo xtask bots` first", path.display());
        let dir = temp_dir("loader");
        let cache = ArtifactCache::new(&*dir);
        let arena = Arena::new().unwrap().with_cache(Some(cache.clone()));
        let first = load_bot::<AzulBinding>(&arena, &path).unwrap();
        assert_eq!((cache.hits(), cache.misses()), (0, 1));
        // A second run: a fresh arena and cache on the same directory.
        let second_cache = ArtifactCache::new(&*dir);
        let second_arena = Arena::new().unwrap().with_cache(Some(second_cache.clone()));
        let second = load_bot::<AzulBinding>(&second_arena, &path).unwrap();
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
        load_bot::<AzulBinding>(&second_arena, &path).unwrap();
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
        let cache = ArtifactCache::new(&*dir);
        assert_eq!(cache.info().unwrap(), CacheInfo { entries: 1, bytes: 1 });
        assert_eq!(cache.clear().unwrap(), CacheInfo { entries: 1, bytes: 1 });
        assert!(dir.join("notes.txt").exists());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    }
}
