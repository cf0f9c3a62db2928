//! Remembered identities: a bot file's sha256 (the bot's identity and the first part of its
//! cache key), kept in the cache directory so that loading a bot whose component the cache holds
//! neither reads nor hashes its file again (a Python bot is 19 MB: 15 ms of sha256 per load).
//!
//! A memo is a small file named after the bot file's device and inode, holding the file's
//! [`FileStamp`] (device, inode, size, modification and status-change times to the nanosecond),
//! its sha256, and a keyed BLAKE3 MAC of both under the cache's secret. It is believed only while
//! the file's stamp is still exactly that: writing a file changes its modification time and its
//! status-change time, and no user can set the latter. File times tick coarsely, though, so a
//! write in the same tick as the hashing could leave them as they were: a file last changed
//! less than [`SETTLE`] before it was hashed is not remembered (git's "racily clean" rule), and
//! the stamp taken before reading must equal the one taken after.

use super::{ArtifactCache, Secret, touch, write_into_place};
use std::fs::Metadata;
use std::path::PathBuf;
use std::time::{Duration, SystemTime};

/// Extension of memo files.
pub const IDENTITY_EXTENSION: &str = "id";
/// The first bytes of every memo.
const MEMO_MAGIC: &[u8; 8] = b"ARENAID1";
/// Length of a stamp's encoding: seven 64-bit fields.
const STAMP_LEN: usize = 7 * 8;
/// Length of a memo: magic, stamp, sha256, MAC.
const MEMO_LEN: usize = MEMO_MAGIC.len() + STAMP_LEN + 32 + blake3::OUT_LEN;
/// How long a file must have been left alone before its hash is remembered.
pub const SETTLE: Duration = Duration::from_secs(2);

/// What identifies one version of a file without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FileStamp {
    device: u64,
    inode: u64,
    size: u64,
    modified: (i64, i64),
    changed: (i64, i64),
}

impl FileStamp {
    /// The stamp of the file `metadata` describes; `None` where the platform has no inodes and
    /// status-change times (nothing is remembered there).
    #[cfg(unix)]
    pub fn of(metadata: &Metadata) -> Option<FileStamp> {
        use std::os::unix::fs::MetadataExt;
        Some(FileStamp {
            device: metadata.dev(),
            inode: metadata.ino(),
            size: metadata.size(),
            modified: (metadata.mtime(), metadata.mtime_nsec()),
            changed: (metadata.ctime(), metadata.ctime_nsec()),
        })
    }

    /// See the Unix version: nothing is remembered elsewhere.
    #[cfg(not(unix))]
    pub fn of(_metadata: &Metadata) -> Option<FileStamp> {
        None
    }

    /// The file's size when stamped.
    pub fn size(&self) -> u64 {
        self.size
    }

    fn encode(&self) -> [u8; STAMP_LEN] {
        let fields = [
            self.device,
            self.inode,
            self.size,
            self.modified.0 as u64,
            self.modified.1 as u64,
            self.changed.0 as u64,
            self.changed.1 as u64,
        ];
        let mut bytes = [0; STAMP_LEN];
        for (chunk, field) in bytes.chunks_exact_mut(8).zip(fields) {
            chunk.copy_from_slice(&field.to_le_bytes());
        }
        bytes
    }

    /// Whether the file was last changed at least [`SETTLE`] before `now`.
    fn settled(&self, now: SystemTime) -> bool {
        let latest = self.modified.max(self.changed);
        let (Ok(seconds), Ok(nanos)) = (u64::try_from(latest.0), u32::try_from(latest.1)) else {
            return false;
        };
        let changed = SystemTime::UNIX_EPOCH + Duration::new(seconds, nanos);
        now.duration_since(changed).is_ok_and(|age| age >= SETTLE)
    }
}

/// The MAC of a memo's magic, stamp and sha256.
fn memo_mac(secret: &Secret, signed: &[u8]) -> blake3::Hash {
    let mut mac = blake3::Hasher::new_keyed(&secret.0);
    mac.update(b"wasm-arena identity memo\0");
    mac.update(signed);
    mac.finalize()
}

impl ArtifactCache {
    /// The memo file for the file stamped `stamp`.
    fn memo_path(&self, stamp: &FileStamp) -> PathBuf {
        self.dir.join(format!("{:x}-{:x}.{IDENTITY_EXTENSION}", stamp.device, stamp.inode))
    }

    /// The sha256 remembered for the file stamped `stamp`, if its memo is valid and was made for
    /// exactly this stamp.
    pub fn remembered_sha256(&self, stamp: &FileStamp) -> Option<[u8; 32]> {
        let secret = self.secret().ok()?;
        let path = self.memo_path(stamp);
        let memo = std::fs::read(&path).ok()?;
        let (signed, tag) = memo.split_at_checked(MEMO_LEN - blake3::OUT_LEN).filter(|_| memo.len() == MEMO_LEN)?;
        let (magic, rest) = signed.split_at(MEMO_MAGIC.len());
        let (stamped, sha256) = rest.split_at(STAMP_LEN);
        // `blake3::Hash`'s equality is constant-time.
        let valid = magic == MEMO_MAGIC && memo_mac(secret, signed) == blake3::Hash::from_bytes(tag.try_into().ok()?);
        if !valid || stamped != stamp.encode() {
            return None;
        }
        touch(&path);
        sha256.try_into().ok()
    }

    /// Remembers that the file stamped `stamp` (before and after it was read) hashes to
    /// `sha256`, unless it changed too recently to be sure (see the module documentation). Best
    /// effort: a memo that cannot be written only costs the next load a hash.
    pub fn remember_sha256(&self, stamp: &FileStamp, sha256: &[u8; 32]) {
        self.remember_sha256_at(stamp, sha256, SystemTime::now());
    }

    /// [`ArtifactCache::remember_sha256`] at the time `now`.
    fn remember_sha256_at(&self, stamp: &FileStamp, sha256: &[u8; 32], now: SystemTime) {
        let Ok(secret) = self.secret() else {
            return;
        };
        if !stamp.settled(now) {
            return;
        }
        let mut memo = Vec::with_capacity(MEMO_LEN);
        memo.extend_from_slice(MEMO_MAGIC);
        memo.extend_from_slice(&stamp.encode());
        memo.extend_from_slice(sha256);
        let tag = memo_mac(secret, &memo);
        memo.extend_from_slice(tag.as_bytes());
        let path = self.memo_path(stamp);
        if let Err(err) = write_into_place(&self.dir, IDENTITY_EXTENSION, &path, &[&memo]) {
            tracing::debug!("{}: cannot remember the bot's sha256 ({err})", path.display());
        }
    }
}

#[cfg(all(test, unix))]
#[allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
mod tests {
    use super::*;
    use crate::loader::{BotSource, compile_source, open_bot};
    use crate::runtime::Arena;
    use std::path::Path;

    /// A fresh directory for one test (removed first if a killed run left it).
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-identity-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// A component exporting one core module named `name` (one letter: same-size files).
    fn component(name: &str) -> Vec<u8> {
        wat::parse_str(format!(r#"(component (core module ${name} (func (export "{name}"))))"#)).unwrap()
    }

    fn stamp_of(path: &Path) -> FileStamp {
        FileStamp::of(&std::fs::metadata(path).unwrap()).unwrap()
    }

    fn memos(dir: &Path) -> usize {
        let listing = std::fs::read_dir(dir).unwrap();
        listing.filter(|entry| entry.as_ref().unwrap().path().extension().is_some_and(|ext| ext == "id")).count()
    }

    /// A memo is believed only for exactly the stamp it was made for, only with a valid MAC
    /// under this cache's secret, and is not made for a file changed too recently.
    #[test]
    fn a_memo_holds_only_for_its_own_stamp_and_key() {
        let dir = temp_dir("memo");
        let (cache_dir, other_dir) = (dir.join("cache"), dir.join("other"));
        let (cache, other) = (ArtifactCache::new(&cache_dir), ArtifactCache::new(&other_dir));
        let bot = dir.join("bot.wasm");
        std::fs::write(&bot, component("f")).unwrap();
        let stamp = stamp_of(&bot);
        let later = SystemTime::now() + SETTLE * 2;
        // Obeyed: remembered, and believed for the same stamp.
        cache.remember_sha256_at(&stamp, &[1; 32], later);
        assert_eq!(cache.remembered_sha256(&stamp), Some([1; 32]));
        // Violated: any other size or time, even by a nanosecond.
        for changed in [
            FileStamp { size: stamp.size + 1, ..stamp },
            FileStamp { modified: (stamp.modified.0, stamp.modified.1 + 1), ..stamp },
            FileStamp { changed: (stamp.changed.0 + 1, stamp.changed.1), ..stamp },
        ] {
            assert_eq!(cache.remembered_sha256(&changed), None);
        }
        // A memo whose sha256 was edited, or made under another cache's secret, is not believed.
        let memo_path = cache.memo_path(&stamp);
        let good = std::fs::read(&memo_path).unwrap();
        let mut edited = good.clone();
        edited[MEMO_MAGIC.len() + STAMP_LEN] ^= 1;
        std::fs::write(&memo_path, &edited).unwrap();
        assert_eq!(cache.remembered_sha256(&stamp), None);
        other.remember_sha256_at(&stamp, &[2; 32], later);
        std::fs::copy(other.memo_path(&stamp), &memo_path).unwrap();
        assert_eq!(other.remembered_sha256(&stamp), Some([2; 32]));
        assert_eq!(cache.remembered_sha256(&stamp), None);
        std::fs::write(&memo_path, &good[..MEMO_LEN - 1]).unwrap();
        assert_eq!(cache.remembered_sha256(&stamp), None);
        // Racily clean: a file changed less than SETTLE ago is not remembered.
        std::fs::remove_file(&memo_path).unwrap();
        cache.remember_sha256_at(&stamp, &[1; 32], SystemTime::now());
        assert!(!memo_path.exists());
        // The cache's bound counts memos, and clearing removes them.
        cache.remember_sha256_at(&stamp, &[1; 32], later);
        cache.clear().unwrap();
        assert!(!memo_path.exists());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Through the loader: a bot file is read and hashed until the cache remembers it (only once
    /// it has been left alone for SETTLE), then not read while it stays the same; a file changed
    /// in place to other bytes of the same size, with its modification time put back, is read
    /// and hashed again (its status-change time moved).
    #[test]
    fn an_unchanged_bot_file_is_not_read_again() {
        let dir = temp_dir("loader");
        let cache = ArtifactCache::new(dir.join("cache"));
        let arena = Arena::new().unwrap().with_cache(Some(cache.clone()));
        let arena = &crate::loader::Loader::for_any_match(&arena);
        let bot = dir.join("bot.wasm");
        let (f, g) = (component("f"), component("g"));
        assert_eq!(f.len(), g.len());
        std::fs::write(&bot, &f).unwrap();
        let sha_f = crate::loader::sha256(&f);
        let source = open_bot(arena, &bot).unwrap();
        assert!(matches!(source, BotSource::Read { .. }));
        assert_eq!(memos(cache.dir()), 0, "just written: not remembered yet");
        compile_source(arena, &bot, &source, "f").unwrap();
        std::thread::sleep(SETTLE + Duration::from_millis(200));
        assert!(matches!(open_bot(arena, &bot).unwrap(), BotSource::Read { .. }));
        assert_eq!(memos(cache.dir()), 1);
        let hits = cache.hits();
        let BotSource::Cached(compiled) = open_bot(arena, &bot).unwrap() else {
            panic!("the cache remembers the file and holds its component");
        };
        assert_eq!((compiled.sha256, cache.hits()), (sha_f, hits + 1));
        // Violated: other bytes of the same size, modification time put back.
        let modified = std::fs::metadata(&bot).unwrap().modified().unwrap();
        std::fs::write(&bot, &g).unwrap();
        std::fs::File::options().write(true).open(&bot).unwrap().set_modified(modified).unwrap();
        let source = open_bot(arena, &bot).unwrap();
        assert!(matches!(source, BotSource::Read { .. }));
        assert_eq!(*source.sha256(), crate::loader::sha256(&g));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
