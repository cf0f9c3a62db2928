//! The content-addressed store: bot files and replays, each under its sha256 (hex) in the data
//! folder (`bots/ab/abcdef...wasm`, `replays/ab/abcdef...json.gz`), and bots' data folders under
//! their `data-tree/v1` digest (`data/ab/abcdef....data/`, [`DataFolders`]). A file is written to a
//! temporary name and renamed into place, so a name that exists always holds the whole content
//! it is named for, whenever the server is killed; an upload is synced before its name exists
//! (it cannot be made again), a replay is not (its match can be re-played bit for bit); the
//! same content written twice is stored once. Uploads stream in through [`BlobWriter`], which counts and hashes as the bytes
//! arrive and stops at the size cap without buffering the body.

use arena_host::bot_data::DATA_EXTENSION;
use arena_host::data::DataTree;
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// Why a blob could not be stored.
#[derive(Debug, thiserror::Error)]
pub enum BlobError {
    /// More bytes than the cap.
    #[error("the file is larger than the {limit}-byte limit")]
    TooLarge {
        /// The cap.
        limit: u64,
    },
    /// The file system failed.
    #[error("storing the file: {0}")]
    Io(#[from] io::Error),
}

/// One kind of blob in its own folder.
#[derive(Debug, Clone)]
pub struct Blobs {
    root: PathBuf,
    extension: &'static str,
}

/// A counter for temporary names, unique within the process (the pid makes them unique across).
static TEMPORARY: AtomicU64 = AtomicU64::new(0);

impl Blobs {
    /// The blobs under `root` named `<sha256>.<extension>`; creates the folder.
    pub fn open(root: &Path, extension: &'static str) -> io::Result<Blobs> {
        std::fs::create_dir_all(root.join("tmp"))?;
        Ok(Blobs { root: root.to_owned(), extension })
    }

    /// Where the blob `sha256` is (or would be); `None` for a name that is not 64 hex digits.
    pub fn path(&self, sha256: &str) -> Option<PathBuf> {
        let valid = sha256.len() == 64 && sha256.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'));
        valid.then(|| self.root.join(&sha256[..2]).join(format!("{sha256}.{}", self.extension)))
    }

    /// Whether the blob `sha256` is stored.
    pub fn contains(&self, sha256: &str) -> bool {
        self.path(sha256).is_some_and(|path| path.is_file())
    }

    /// A writer for a new blob of at most `limit` bytes.
    pub fn writer(&self, limit: u64) -> io::Result<BlobWriter> {
        let name = format!("{}-{}", std::process::id(), TEMPORARY.fetch_add(1, Ordering::Relaxed));
        let temporary = self.root.join("tmp").join(name);
        let file = File::create(&temporary)?;
        Ok(BlobWriter { blobs: self.clone(), temporary, file, hasher: Sha256::new(), size: 0, limit })
    }

    /// Stores `bytes` whole; returns their sha256.
    pub fn put(&self, bytes: &[u8]) -> io::Result<String> {
        let mut writer = self.writer(u64::MAX)?;
        writer.write(bytes).map_err(|err| match err {
            BlobError::Io(err) => err,
            BlobError::TooLarge { .. } => io::Error::other("no limit"),
        })?;
        Ok(writer.finish()?.0)
    }

    /// Stores `text` gzip-compressed under the sha256 of the text itself; returns it.
    pub fn put_compressed(&self, text: &str) -> io::Result<String> {
        let sha256 = hex::encode(Sha256::digest(text.as_bytes()));
        if self.contains(&sha256) {
            return Ok(sha256);
        }
        // The fastest level: a long replay is megabytes of JSON, compressed as each match ends.
        let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
        encoder.write_all(text.as_bytes())?;
        let compressed = encoder.finish()?;
        let path = self.path(&sha256).ok_or_else(|| io::Error::other("bad digest"))?;
        self.place(&compressed, &path)?;
        Ok(sha256)
    }

    /// The text stored by [`Blobs::put_compressed`] under `sha256`, checked against its name.
    pub fn get_compressed(&self, sha256: &str) -> io::Result<String> {
        let path = self.path(sha256).ok_or_else(|| io::Error::new(io::ErrorKind::NotFound, "not a sha256"))?;
        let mut text = String::new();
        GzDecoder::new(File::open(path)?).read_to_string(&mut text)?;
        if hex::encode(Sha256::digest(text.as_bytes())) != sha256 {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("stored blob {sha256} does not match its name"),
            ));
        }
        Ok(text)
    }

    /// Writes `bytes` to `path` through a temporary file and a rename, not synced: a replay can
    /// always be made again by re-playing its match (an upload, which cannot, is synced).
    fn place(&self, bytes: &[u8], path: &Path) -> io::Result<()> {
        let mut writer = self.writer(u64::MAX)?;
        writer.file.write_all(bytes)?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::rename(&writer.temporary, path)
    }
}

/// A blob being written: counted, hashed and capped as it arrives.
pub struct BlobWriter {
    blobs: Blobs,
    temporary: PathBuf,
    file: File,
    hasher: Sha256,
    size: u64,
    limit: u64,
}

impl BlobWriter {
    /// Appends `chunk`; past the cap, [`BlobError::TooLarge`] (the temporary file is removed
    /// when the writer is dropped).
    pub fn write(&mut self, chunk: &[u8]) -> Result<(), BlobError> {
        self.size += chunk.len() as u64;
        if self.size > self.limit {
            return Err(BlobError::TooLarge { limit: self.limit });
        }
        self.hasher.update(chunk);
        self.file.write_all(chunk)?;
        Ok(())
    }

    /// Bytes so far.
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The bytes written so far, read from the start (an archive upload is read from its
    /// temporary file and never moved to a name: the writer still removes it when dropped).
    pub fn read_back(&mut self) -> io::Result<File> {
        self.file.flush()?;
        File::open(&self.temporary)
    }

    /// Syncs the file and moves it to its name; returns its sha256 and size.
    pub fn finish(mut self) -> io::Result<(String, u64)> {
        let sha256 = hex::encode(std::mem::take(&mut self.hasher).finalize());
        self.file.sync_all()?;
        let path = self.blobs.path(&sha256).ok_or_else(|| io::Error::other("bad digest"))?;
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::rename(&self.temporary, &path)?;
        Ok((sha256, self.size))
    }
}

impl Drop for BlobWriter {
    fn drop(&mut self) {
        // After `finish` the temporary name is gone and this does nothing.
        let _ = std::fs::remove_file(&self.temporary);
    }
}

/// Bots' data folders by digest: `ab/abcdef....data/` holds the tree whose `data-tree/v1`
/// digest is `abcdef...`, written whole under a temporary name, synced and renamed into place,
/// so a folder that has its name is always the whole tree (the same tree stored twice is stored
/// once).
#[derive(Debug, Clone)]
pub struct DataFolders {
    root: PathBuf,
}

impl DataFolders {
    /// The folders under `root`; creates it.
    pub fn open(root: &Path) -> io::Result<DataFolders> {
        std::fs::create_dir_all(root.join("tmp"))?;
        Ok(DataFolders { root: root.to_owned() })
    }

    /// Where the tree `digest` is (or would be); `None` for a name that is not 64 hex digits.
    pub fn path(&self, digest: &str) -> Option<PathBuf> {
        let valid = digest.len() == 64 && digest.bytes().all(|byte| matches!(byte, b'0'..=b'9' | b'a'..=b'f'));
        valid.then(|| self.root.join(&digest[..2]).join(format!("{digest}.{DATA_EXTENSION}")))
    }

    /// Stores `tree` unless a tree of its digest is stored; returns the digest.
    pub fn put(&self, tree: &DataTree) -> io::Result<String> {
        let digest = tree.digest_hex();
        let path = self.path(&digest).ok_or_else(|| io::Error::other("bad digest"))?;
        if path.is_dir() {
            return Ok(digest);
        }
        let name = format!("{}-{}", std::process::id(), TEMPORARY.fetch_add(1, Ordering::Relaxed));
        let temporary = self.root.join("tmp").join(name);
        let written = tree.write_into(&temporary).and_then(|()| {
            // Synced before the name exists: an upload cannot be made again.
            for entry in tree.walk() {
                File::open(temporary.join(&entry.path))?.sync_all()?;
            }
            File::open(&temporary)?.sync_all()?;
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::rename(&temporary, &path)
        });
        match written {
            Ok(()) => Ok(digest),
            // Stored meanwhile by another upload of the same tree.
            Err(_) if path.is_dir() => {
                let _ = std::fs::remove_dir_all(&temporary);
                Ok(digest)
            }
            Err(err) => {
                let _ = std::fs::remove_dir_all(&temporary);
                Err(err)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-blobs-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn a_blob_is_named_by_its_sha256_and_stored_once() {
        let blobs = Blobs::open(&scratch("named"), "wasm").unwrap();
        let sha = blobs.put(b"abc").unwrap();
        assert_eq!(sha, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert_eq!(std::fs::read(blobs.path(&sha).unwrap()).unwrap(), b"abc");
        assert_eq!(blobs.put(b"abc").unwrap(), sha);
        assert!(blobs.path("../etc/passwd").is_none());
        assert!(blobs.path(&sha.to_uppercase()).is_none());
    }

    #[test]
    fn a_writer_stops_at_the_cap_and_leaves_nothing() {
        let root = scratch("cap");
        let blobs = Blobs::open(&root, "wasm").unwrap();
        let mut writer = blobs.writer(4).unwrap();
        writer.write(b"abc").unwrap();
        assert!(matches!(writer.write(b"de"), Err(BlobError::TooLarge { limit: 4 })));
        drop(writer);
        assert_eq!(std::fs::read_dir(root.join("tmp")).unwrap().count(), 0);
    }

    #[test]
    fn a_data_folder_is_stored_once_under_its_digest_and_reads_back_the_same() {
        let root = scratch("data");
        let folders = DataFolders::open(&root).unwrap();
        let mut builder = DataTree::builder(arena_host::data::DataLimits::DEFAULT);
        builder.file("tables/a.bin", vec![1u8, 2, 3]).unwrap();
        let tree = builder.build();
        let digest = folders.put(&tree).unwrap();
        assert_eq!(digest, tree.digest_hex());
        assert_eq!(folders.put(&tree).unwrap(), digest, "stored once");
        let path = folders.path(&digest).unwrap();
        let read = DataTree::read_dir(&path, arena_host::data::DataLimits::DEFAULT).unwrap();
        assert_eq!(read.digest(), tree.digest());
        assert_eq!(std::fs::read_dir(root.join("tmp")).unwrap().count(), 0, "no temporary left");
        assert!(folders.path("../../etc").is_none());
    }

    #[test]
    fn compressed_text_round_trips_and_a_changed_blob_is_refused() {
        let blobs = Blobs::open(&scratch("gz"), "json.gz").unwrap();
        let sha = blobs.put_compressed("{\"turns\":3}").unwrap();
        assert_eq!(blobs.get_compressed(&sha).unwrap(), "{\"turns\":3}");
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(b"{\"turns\":4}").unwrap();
        std::fs::write(blobs.path(&sha).unwrap(), encoder.finish().unwrap()).unwrap();
        assert_eq!(blobs.get_compressed(&sha).unwrap_err().kind(), io::ErrorKind::InvalidData);
    }
}
