//! A bot and its data as one file: the archive a ladder accepts (`arena submit --data`, the upload
//! page) and serves to its remote workers. An archive is a tar file, gzip-compressed or not,
//! holding `bot.wasm` and a `data/` folder (each optional, but for a bot upload the bot file is
//! required); entries may start with `./`, as `tar -C DIR -cf bot.tar .` writes them.
//!
//! An archive is untrusted input, read as a stream and never extracted: every entry is checked
//! before its contents are read, so nothing on the host is written, followed or overwritten.
//! Refused: links (symbolic or hard), devices, pipes and any other special entry; absolute paths
//! and `..`; any top-level entry other than `bot.wasm` and `data/`; a second `bot.wasm`; a bot file
//! over its cap; a data tree over its [`DataLimits`] (checked by [`DataTreeBuilder`] as a folder
//! read from disk is); and more unpacked bytes than the caps allow in all
//! ([`ArchiveLimits::unpacked_bytes`]), so a compressed bomb stops there.
//!
//! [`write_archive`] packs a bot the same way every time (entries in the data tree's digest order,
//! times, owners and modes fixed), so one bot and data always pack to the same bytes.

use arena_sandbox::data::{DataError, DataLimits, DataTree, DataTreeBuilder, MAX_PATH_BYTES};
use flate2::read::GzDecoder;
use std::io::{self, BufRead, BufReader, Read, Write};

/// The bot file's name in an archive.
pub const WASM_ENTRY: &str = "bot.wasm";
/// The data folder's name in an archive.
pub const DATA_ENTRY: &str = "data";
/// The media type of an uncompressed archive.
pub const TAR_MEDIA_TYPE: &str = "application/x-tar";

/// What an archive may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArchiveLimits {
    /// The bot file's cap in bytes.
    pub max_wasm: u64,
    /// The data folder's.
    pub data: DataLimits,
}

impl ArchiveLimits {
    /// The most bytes an archive within these limits unpacks to: the bot file and the data, plus
    /// for each entry its header, a long name's extension header and blocks, and padding.
    pub fn unpacked_bytes(&self) -> u64 {
        let per_entry = (3 + MAX_PATH_BYTES.div_ceil(512) as u64) * 512;
        let entries = self.data.max_entries as u64 + 3;
        self.max_wasm.saturating_add(self.data.max_bytes).saturating_add(entries.saturating_mul(per_entry)) + 1024
    }
}

/// What an archive held.
#[derive(Debug)]
pub struct BotArchive {
    /// `bot.wasm`, when there was one.
    pub wasm: Option<Vec<u8>>,
    /// The `data/` folder, when there was one (possibly empty).
    pub data: Option<DataTree>,
}

/// Why an archive was refused. Paths are the archive's own (`data/tables/a.bin`).
#[derive(Debug, thiserror::Error)]
pub enum ArchiveError {
    /// Not a tar file, a corrupt or truncated one, or a gzip stream that does not decompress.
    #[error("the archive cannot be read: {0}")]
    Unreadable(io::Error),
    /// It unpacks to more than [`ArchiveLimits::unpacked_bytes`].
    #[error("the archive unpacks to more than {limit} bytes")]
    TooLarge {
        /// The cap.
        limit: u64,
    },
    /// An entry's name is not UTF-8.
    #[error("{path}: the name is not UTF-8")]
    NonUtf8Name {
        /// The name, shown lossily.
        path: String,
    },
    /// An absolute path or one going up with `..`.
    #[error("{path}: an absolute path or `..`: an archive's entries are relative paths inside it")]
    Escape {
        /// The name.
        path: String,
    },
    /// A symbolic or hard link.
    #[error("{path}: is a link; an archive holds only directories and regular files")]
    Link {
        /// The name.
        path: String,
    },
    /// A device, pipe, sparse file or any other kind of entry.
    #[error("{path}: is {kind}; an archive holds only directories and regular files")]
    Special {
        /// The name.
        path: String,
        /// What it is.
        kind: &'static str,
    },
    /// A top-level entry other than `bot.wasm` and `data/`.
    #[error("{path}: an archive holds `bot.wasm` and a `data/` folder, nothing else")]
    Unexpected {
        /// The name.
        path: String,
    },
    /// `bot.wasm` twice, or `data` as a file.
    #[error("{path}: twice in the archive, or a file where a folder is")]
    Duplicate {
        /// The name.
        path: String,
    },
    /// A bot archive without `bot.wasm`.
    #[error("the archive has no `bot.wasm`")]
    NoWasm,
    /// `bot.wasm` over its cap.
    #[error("bot.wasm: the file is larger than the {limit}-byte limit")]
    WasmTooLarge {
        /// The cap.
        limit: u64,
    },
    /// The data folder refused (its path relative to `data/`).
    #[error("data/{0}")]
    Data(DataError),
}

/// Whether `head` (a file's first bytes, 262 or more when the file has them) starts a gzip
/// stream or a tar file rather than a bot file.
pub fn looks_like_archive(head: &[u8]) -> bool {
    head.starts_with(&[0x1f, 0x8b]) || head.get(257..262) == Some(b"ustar".as_slice())
}

/// Reads an archive, gzip-compressed or not, within `limits`.
pub fn read_archive(reader: impl Read, limits: ArchiveLimits) -> Result<BotArchive, ArchiveError> {
    let limit = limits.unpacked_bytes();
    let mut buffered = BufReader::new(reader);
    let gzip = buffered.fill_buf().map_err(ArchiveError::Unreadable)?.starts_with(&[0x1f, 0x8b]);
    let unpacked: Box<dyn Read> =
        if gzip { Box::new(GzDecoder::new(buffered).take(limit)) } else { Box::new(buffered.take(limit)) };
    let mut counted = Counted { inner: unpacked, read: 0 };
    let result = read_entries(&mut counted, limits);
    match result {
        Err(ArchiveError::Unreadable(_)) if counted.read >= limit => Err(ArchiveError::TooLarge { limit }),
        other => other,
    }
}

/// Reads a bot archive: one with a `bot.wasm`.
pub fn read_bot_archive(reader: impl Read, limits: ArchiveLimits) -> Result<(Vec<u8>, Option<DataTree>), ArchiveError> {
    let archive = read_archive(reader, limits)?;
    Ok((archive.wasm.ok_or(ArchiveError::NoWasm)?, archive.data))
}

/// Counts the bytes read through it (to tell a truncated archive from one cut at the cap).
struct Counted<R> {
    inner: R,
    read: u64,
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let read = self.inner.read(buf)?;
        self.read += read as u64;
        Ok(read)
    }
}

fn read_entries(reader: &mut dyn Read, limits: ArchiveLimits) -> Result<BotArchive, ArchiveError> {
    let mut archive = tar::Archive::new(reader);
    let mut wasm: Option<Vec<u8>> = None;
    let mut data: Option<DataTreeBuilder> = None;
    for entry in archive.entries().map_err(ArchiveError::Unreadable)? {
        let mut entry = entry.map_err(ArchiveError::Unreadable)?;
        let raw = entry.path_bytes().into_owned();
        let shown = String::from_utf8_lossy(&raw).into_owned();
        let Ok(name) = std::str::from_utf8(&raw) else { return Err(ArchiveError::NonUtf8Name { path: shown }) };
        let kind = entry.header().entry_type();
        let is_dir = match kind {
            tar::EntryType::Regular | tar::EntryType::Continuous => false,
            tar::EntryType::Directory => true,
            // A pax global header describes the archive, not an entry.
            tar::EntryType::XGlobalHeader => continue,
            tar::EntryType::Symlink | tar::EntryType::Link => return Err(ArchiveError::Link { path: shown }),
            other => return Err(ArchiveError::Special { path: shown, kind: special_kind(other) }),
        };
        let Some(path) = relative(name) else { return Err(ArchiveError::Escape { path: shown }) };
        if path.is_empty() {
            // The archive's own root (`./`).
            continue;
        }
        let size = entry.header().size().map_err(ArchiveError::Unreadable)?;
        if path == WASM_ENTRY && !is_dir {
            if wasm.is_some() {
                return Err(ArchiveError::Duplicate { path: shown });
            }
            if size > limits.max_wasm {
                return Err(ArchiveError::WasmTooLarge { limit: limits.max_wasm });
            }
            wasm = Some(read_contents(&mut entry, size)?);
        } else if path == DATA_ENTRY {
            if !is_dir {
                return Err(ArchiveError::Duplicate { path: shown });
            }
            data.get_or_insert_with(|| DataTreeBuilder::new(limits.data));
        } else if let Some(inner) = path.strip_prefix("data/") {
            let builder = data.get_or_insert_with(|| DataTreeBuilder::new(limits.data));
            if is_dir {
                builder.dir(inner).map_err(ArchiveError::Data)?;
            } else {
                let room = limits.data.max_bytes.saturating_sub(builder.total_bytes());
                if size > room {
                    return Err(ArchiveError::Data(DataError::TooManyBytes {
                        path: inner.into(),
                        max: limits.data.max_bytes,
                    }));
                }
                let contents = read_contents(&mut entry, size)?;
                builder.file(inner, contents).map_err(ArchiveError::Data)?;
            }
        } else {
            return Err(ArchiveError::Unexpected { path: shown });
        }
    }
    Ok(BotArchive { wasm, data: data.map(DataTreeBuilder::build) })
}

/// An entry's `size` bytes (checked against its cap by the caller before any is read).
fn read_contents(entry: &mut impl Read, size: u64) -> Result<Vec<u8>, ArchiveError> {
    let mut contents = Vec::with_capacity(usize::try_from(size).unwrap_or(0).min(1 << 20));
    entry.take(size).read_to_end(&mut contents).map_err(ArchiveError::Unreadable)?;
    Ok(contents)
}

/// `name` relative to the archive's root, without a leading `./` or a trailing `/`; `None` when
/// it is absolute or has a `..` in it. Other oddities (`a//b`, `a/./b`) are left for the data
/// tree to refuse as invalid names.
fn relative(name: &str) -> Option<&str> {
    if name.starts_with('/') || name.split('/').any(|part| part == "..") {
        return None;
    }
    let mut path = name;
    while let Some(rest) = path.strip_prefix("./") {
        path = rest;
    }
    let path = path.trim_end_matches('/');
    Some(if path == "." { "" } else { path })
}

fn special_kind(kind: tar::EntryType) -> &'static str {
    match kind {
        tar::EntryType::Char => "a character device",
        tar::EntryType::Block => "a block device",
        tar::EntryType::Fifo => "a named pipe (FIFO)",
        tar::EntryType::GNUSparse => "a sparse file",
        _ => "an entry of an unsupported kind",
    }
}

/// Packs `wasm` (as `bot.wasm`) and `data` (as `data/`), either optional, into an uncompressed
/// tar archive: entries in the tree's digest order, every time and owner 0, modes 0644 and 0755.
pub fn write_archive(out: impl Write, wasm: Option<&[u8]>, data: Option<&DataTree>) -> io::Result<()> {
    let mut builder = tar::Builder::new(out);
    let mut append = |path: &str, contents: Option<&[u8]>| -> io::Result<()> {
        let mut header = tar::Header::new_gnu();
        header.set_mtime(0);
        header.set_uid(0);
        header.set_gid(0);
        match contents {
            Some(contents) => {
                header.set_entry_type(tar::EntryType::Regular);
                header.set_mode(0o644);
                header.set_size(contents.len() as u64);
                builder.append_data(&mut header, path, contents)
            }
            None => {
                header.set_entry_type(tar::EntryType::Directory);
                header.set_mode(0o755);
                header.set_size(0);
                builder.append_data(&mut header, format!("{path}/"), io::empty())
            }
        }
    };
    if let Some(wasm) = wasm {
        append(WASM_ENTRY, Some(wasm))?;
    }
    if let Some(data) = data {
        append(DATA_ENTRY, None)?;
        for entry in data.walk() {
            append(&format!("{DATA_ENTRY}/{}", entry.path), entry.contents)?;
        }
    }
    builder.into_inner()?.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;

    const LIMITS: ArchiveLimits = ArchiveLimits { max_wasm: 1 << 20, data: DataLimits::DEFAULT };

    fn tree() -> DataTree {
        let mut builder = DataTree::builder(DataLimits::DEFAULT);
        builder.file("weights.txt", b"1 2 3".to_vec()).unwrap();
        builder.file("tables/deep/a.bin", vec![7u8; 3000]).unwrap();
        builder.dir("empty").unwrap();
        builder.build()
    }

    /// A raw tar with one entry of `kind` named `name` (bypassing the builder's own checks).
    fn raw_tar(entries: &[(&str, tar::EntryType, &[u8])]) -> Vec<u8> {
        let mut out = Vec::new();
        for (name, kind, contents) in entries {
            let mut header = tar::Header::new_ustar();
            header.as_ustar_mut().unwrap().name[..name.len()].copy_from_slice(name.as_bytes());
            header.set_entry_type(*kind);
            header.set_size(contents.len() as u64);
            header.set_mode(0o644);
            if *kind == tar::EntryType::Symlink || *kind == tar::EntryType::Link {
                header.set_link_name("../../etc/passwd").unwrap();
            }
            header.set_cksum();
            out.extend_from_slice(header.as_bytes());
            out.extend_from_slice(contents);
            out.resize(out.len().div_ceil(512) * 512, 0);
        }
        out.resize(out.len() + 1024, 0);
        out
    }

    #[test]
    fn a_bot_and_its_data_pack_to_the_same_bytes_and_read_back_with_the_same_digest() {
        let data = tree();
        let mut packed = Vec::new();
        write_archive(&mut packed, Some(b"\0asm wasm"), Some(&data)).unwrap();
        let mut again = Vec::new();
        write_archive(&mut again, Some(b"\0asm wasm"), Some(&tree())).unwrap();
        assert_eq!(packed, again, "packing is deterministic");
        assert!(looks_like_archive(&packed));
        assert!(!looks_like_archive(b"\0asm\x01\0\0\0"));
        let (wasm, read) = read_bot_archive(packed.as_slice(), LIMITS).unwrap();
        assert_eq!(wasm, b"\0asm wasm");
        assert_eq!(read.unwrap().digest(), data.digest());
        let mut gzipped = GzEncoder::new(Vec::new(), Compression::fast());
        gzipped.write_all(&packed).unwrap();
        let gzipped = gzipped.finish().unwrap();
        assert!(looks_like_archive(&gzipped));
        let archive = read_archive(gzipped.as_slice(), LIMITS).unwrap();
        assert_eq!(archive.data.unwrap().digest(), data.digest(), "gzip is read too");
    }

    #[test]
    fn entries_may_start_with_dot_slash_and_an_archive_without_data_has_none() {
        let packed = raw_tar(&[
            ("./", tar::EntryType::Directory, b""),
            ("./bot.wasm", tar::EntryType::Regular, b"wasm"),
            ("./data/", tar::EntryType::Directory, b""),
            ("./data/a.txt", tar::EntryType::Regular, b"a"),
        ]);
        assert!(looks_like_archive(&packed), "a ustar header");
        let archive = read_archive(packed.as_slice(), LIMITS).unwrap();
        assert_eq!(archive.wasm.as_deref(), Some(b"wasm".as_slice()));
        assert_eq!(archive.data.unwrap().entries(), 1);
        let code_only = raw_tar(&[("bot.wasm", tar::EntryType::Regular, b"wasm")]);
        assert!(read_archive(code_only.as_slice(), LIMITS).unwrap().data.is_none());
        let data_only = raw_tar(&[("data/a.txt", tar::EntryType::Regular, b"a")]);
        assert!(matches!(read_bot_archive(data_only.as_slice(), LIMITS), Err(ArchiveError::NoWasm)));
    }

    /// Every way an archive could reach outside itself or smuggle a special file is refused with
    /// its own error, before anything is read.
    #[test]
    fn links_devices_escapes_and_strangers_are_refused() {
        let wasm = ("bot.wasm", tar::EntryType::Regular, b"wasm".as_slice());
        let refused = |entry: (&str, tar::EntryType, &[u8])| {
            read_archive(raw_tar(&[wasm, entry]).as_slice(), LIMITS).map(|_| ()).unwrap_err()
        };
        assert!(matches!(refused(("data/link", tar::EntryType::Symlink, b"")), ArchiveError::Link { .. }));
        assert!(matches!(refused(("data/hard", tar::EntryType::Link, b"")), ArchiveError::Link { .. }));
        assert!(matches!(
            refused(("data/tty", tar::EntryType::Char, b"")),
            ArchiveError::Special { kind: "a character device", .. }
        ));
        assert!(matches!(refused(("data/disk", tar::EntryType::Block, b"")), ArchiveError::Special { .. }));
        assert!(matches!(refused(("data/pipe", tar::EntryType::Fifo, b"")), ArchiveError::Special { .. }));
        assert!(matches!(refused(("/etc/passwd", tar::EntryType::Regular, b"x")), ArchiveError::Escape { .. }));
        assert!(matches!(refused(("data/../../x", tar::EntryType::Regular, b"x")), ArchiveError::Escape { .. }));
        assert!(matches!(refused(("../bot.wasm", tar::EntryType::Regular, b"x")), ArchiveError::Escape { .. }));
        assert!(matches!(refused(("notes.txt", tar::EntryType::Regular, b"x")), ArchiveError::Unexpected { .. }));
        assert!(matches!(refused(("bot.wasm", tar::EntryType::Regular, b"x")), ArchiveError::Duplicate { .. }));
        assert!(matches!(refused(("data", tar::EntryType::Regular, b"x")), ArchiveError::Duplicate { .. }));
        assert!(matches!(
            refused(("data/a//b", tar::EntryType::Regular, b"x")),
            ArchiveError::Data(DataError::InvalidName { .. })
        ));
        let message = refused(("data/link", tar::EntryType::Symlink, b"")).to_string();
        assert_eq!(message, "data/link: is a link; an archive holds only directories and regular files");
    }

    #[test]
    fn the_caps_hold_before_the_contents_are_read() {
        let small = ArchiveLimits { max_wasm: 3, data: DataLimits { max_bytes: 4, max_entries: 2 } };
        let big_wasm = raw_tar(&[("bot.wasm", tar::EntryType::Regular, b"wasm")]);
        assert!(matches!(read_archive(big_wasm.as_slice(), small), Err(ArchiveError::WasmTooLarge { limit: 3 })));
        let big_data = raw_tar(&[("data/a", tar::EntryType::Regular, b"12345")]);
        assert!(matches!(
            read_archive(big_data.as_slice(), small),
            Err(ArchiveError::Data(DataError::TooManyBytes { max: 4, .. }))
        ));
        let many = raw_tar(&[
            ("data/a", tar::EntryType::Regular, b""),
            ("data/b", tar::EntryType::Regular, b""),
            ("data/c", tar::EntryType::Regular, b""),
        ]);
        assert!(matches!(
            read_archive(many.as_slice(), small),
            Err(ArchiveError::Data(DataError::TooManyEntries { max: 2, .. }))
        ));
        // A gzip bomb: a long name's extension header claiming far more bytes than the cap, and
        // as many bytes after it, compressed to almost nothing: read up to the cap and no further.
        let tiny = ArchiveLimits { max_wasm: 16, data: DataLimits { max_bytes: 16, max_entries: 1 } };
        let claimed = tiny.unpacked_bytes() * 4;
        let mut header = tar::Header::new_gnu();
        header.as_gnu_mut().unwrap().name[..13].copy_from_slice(b"././@LongLink");
        header.set_entry_type(tar::EntryType::GNULongName);
        header.set_size(claimed);
        header.set_cksum();
        let mut gzipped = GzEncoder::new(Vec::new(), Compression::fast());
        gzipped.write_all(header.as_bytes()).unwrap();
        gzipped.write_all(&vec![b'a'; claimed as usize]).unwrap();
        let bomb = gzipped.finish().unwrap();
        assert!(bomb.len() < 4096, "{} bytes compressed", bomb.len());
        let refused = read_archive(bomb.as_slice(), tiny).unwrap_err();
        assert!(matches!(refused, ArchiveError::TooLarge { limit } if limit == tiny.unpacked_bytes()), "{refused}");
        assert!(matches!(read_archive(b"not an archive at all".as_slice(), LIMITS), Err(ArchiveError::Unreadable(_))));
    }
}
