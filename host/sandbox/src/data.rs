//! A bot's data folder: one read-only tree of directories and regular files (opening books,
//! tables, weights) the bot sees at `/data` (`data_fs` serves it as WASI's filesystem). This
//! module owns the tree itself: reading it once from a host directory ([`DataTree::read_dir`],
//! with cap-std, refusing links, special files, names that are not UTF-8 and anything over its
//! [`DataLimits`]), building one in memory ([`DataTreeBuilder`]), and its content digest.
//!
//! What a bot observes of its data is a function of the tree's digest only: names and bytes,
//! never host metadata (times, inode numbers, permissions, the order the host lists a directory
//! in). Two folders with the same digest are the same data to every bot on every machine.
//!
//! # The digest: `data-tree/v1`
//!
//! A published, versioned format: replays record it, so it never changes meaning (a new form gets
//! a new version). [`DataTree::digest`] is the SHA-256 of:
//!
//! 1. the ASCII header `wasm-arena/data-tree/v1\n` (24 bytes);
//! 2. then every entry of the tree but the root, in a pre-order walk from the root in which the
//!    children of each directory are visited sorted by name in byte order (a directory comes
//!    right before its own entries, and its whole subtree before its next sibling), each as:
//!    - a tag byte: `d` (0x64) for a directory, `f` (0x66) for a regular file;
//!    - its path relative to the root, UTF-8, components joined by `/` (no leading or trailing
//!      `/`);
//!    - a 0 byte (names never contain one, so this ends the path unambiguously);
//!    - for a file only: its size in bytes as a little-endian u64, then the 32-byte SHA-256 of
//!      its contents.
//!
//! An empty tree's digest is the SHA-256 of the header alone. Names are compared and hashed as
//! their exact bytes: no Unicode normalisation, no case folding.
//!
//! The inode-like hash the filesystem reports for an entry (`metadata-hash`) is also fixed here:
//! the first 16 bytes of SHA-256(`wasm-arena/data-inode/v1` || the entry's path relative to the
//! root, as above; empty for the root).

use bytes::Bytes;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The header the `data-tree/v1` digest starts with.
pub const DIGEST_HEADER: &[u8] = b"wasm-arena/data-tree/v1\n";
/// The prefix of every entry's inode-like hash (`metadata-hash`).
pub const INODE_HASH_PREFIX: &[u8] = b"wasm-arena/data-inode/v1";
/// Longest path an entry may have relative to the root, in bytes: Linux's `PATH_MAX`. It bounds
/// the host's work per entry (the digest and the inode hashes hash every entry's whole path) and
/// the depth of a tree.
pub const MAX_PATH_BYTES: usize = 4096;

/// How big a data folder may be. Checked while reading, so an oversized folder is refused early:
/// at most `max_bytes + 1` bytes of file contents are ever read, and a directory is listed no
/// further than the entry that goes over `max_entries`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DataLimits {
    /// Most bytes of file contents, all files together.
    pub max_bytes: u64,
    /// Most entries (files and directories, the root not counted).
    pub max_entries: usize,
}

impl DataLimits {
    /// The platform's default: 64 MiB in at most 10,000 entries.
    pub const DEFAULT: DataLimits = DataLimits { max_bytes: 64 << 20, max_entries: 10_000 };
}

impl Default for DataLimits {
    fn default() -> Self {
        DataLimits::DEFAULT
    }
}

/// Why a data tree could not be read or built. Each names the path concerned: a host path for
/// [`DataTree::read_dir`], a path relative to the root for [`DataTreeBuilder`].
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The host could not open, list or read it.
    #[error("{path}: cannot read ({source})")]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// It is a symbolic link.
    #[error("{path}: is a link; data folders may not contain links")]
    Link {
        /// The path.
        path: PathBuf,
    },
    /// It is neither a directory nor a regular file.
    #[error("{path}: is {kind}; data folders hold only directories and regular files")]
    Special {
        /// The path.
        path: PathBuf,
        /// What it is: "a named pipe (FIFO)", "a socket", ...
        kind: &'static str,
    },
    /// Its name is not UTF-8.
    #[error("{path}: the name is not UTF-8")]
    NonUtf8Name {
        /// The path (shown lossily).
        path: PathBuf,
    },
    /// Its name cannot be an entry's: empty, `.`, `..`, or with a `/` or a NUL byte.
    #[error("{path}: invalid entry name ({reason})")]
    InvalidName {
        /// The path.
        path: PathBuf,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// Its path is longer than [`MAX_PATH_BYTES`].
    #[error("{path}: the path is over the {max}-byte limit")]
    PathTooLong {
        /// The path.
        path: PathBuf,
        /// The bound.
        max: usize,
    },
    /// Adding it takes the tree over [`DataLimits::max_entries`].
    #[error("{path}: the data folder has more than {max} entries")]
    TooManyEntries {
        /// The entry that went over.
        path: PathBuf,
        /// The bound.
        max: usize,
    },
    /// Adding it takes the tree over [`DataLimits::max_bytes`].
    #[error("{path}: the data folder is over its {max}-byte limit")]
    TooManyBytes {
        /// The file that went over.
        path: PathBuf,
        /// The bound.
        max: u64,
    },
    /// It is already in the tree, or a path goes through a file ([`DataTreeBuilder`] only).
    #[error("{path}: conflicts with an entry already in the tree")]
    Conflict {
        /// The path.
        path: PathBuf,
    },
}

/// An entry of a tree, by index: the root is [`ROOT`].
pub(crate) type NodeId = usize;
/// The root directory's id.
pub(crate) const ROOT: NodeId = 0;

/// One entry of a [`DataTree`].
#[derive(Debug)]
pub(crate) struct Node {
    /// Its name in its directory (empty for the root).
    pub(crate) name: String,
    /// Its directory (the root is its own).
    pub(crate) parent: NodeId,
    /// What it is.
    pub(crate) kind: NodeKind,
    /// Its inode-like hash (module documentation).
    pub(crate) inode: [u8; 16],
}

/// A directory or a regular file.
#[derive(Debug)]
pub(crate) enum NodeKind {
    /// A directory: its entries, sorted by name (byte order).
    Dir(Vec<NodeId>),
    /// A regular file: its contents.
    File(Bytes),
}

/// An immutable, in-memory tree of directories and regular files, shared by every instance of
/// the bot it was loaded for (`Arc<DataTree>`).
pub struct DataTree {
    /// Every entry, the root first.
    nodes: Vec<Node>,
    total_bytes: u64,
    digest: [u8; 32],
}

impl DataTree {
    /// Reads the host directory at `path` (opened once, with cap-std; a link as `path` itself is
    /// followed, links inside it are refused) into a tree, within `limits`.
    pub fn read_dir(path: &Path, limits: DataLimits) -> Result<DataTree, DataError> {
        let root = cap_std::fs::Dir::open_ambient_dir(path, cap_std::ambient_authority())
            .map_err(|source| DataError::Io { path: path.to_owned(), source })?;
        let mut builder = DataTreeBuilder::new(limits);
        // Directories still to read, depth first, each with the open directory it is in (so at
        // most one open directory per level is held, whatever the tree's breadth).
        let mut pending = Vec::new();
        builder.read_entries(&Rc::new(root), ROOT, path, &mut pending)?;
        while let Some((parent, id, host_path)) = pending.pop() {
            let name = builder.nodes.get(id).map(|node| node.name.clone()).unwrap_or_default();
            let dir = open_dir(&parent, &name).map_err(|source| DataError::Io { path: host_path.clone(), source })?;
            drop(parent);
            builder.read_entries(&Rc::new(dir), id, &host_path, &mut pending)?;
        }
        Ok(builder.build())
    }

    /// A builder for a tree made in memory (tests, tools), within `limits`.
    pub fn builder(limits: DataLimits) -> DataTreeBuilder {
        DataTreeBuilder::new(limits)
    }

    /// The `data-tree/v1` digest (module documentation).
    pub fn digest(&self) -> [u8; 32] {
        self.digest
    }

    /// [`DataTree::digest`] in lowercase hex.
    pub fn digest_hex(&self) -> String {
        self.digest.iter().map(|byte| format!("{byte:02x}")).collect()
    }

    /// Bytes of file contents, all files together.
    pub fn total_bytes(&self) -> u64 {
        self.total_bytes
    }

    /// Entries (files and directories), the root not counted.
    pub fn entries(&self) -> usize {
        self.nodes.len().saturating_sub(1)
    }

    /// Writes the tree into the new folder `dir` (refused if it exists): its directories and
    /// files, nothing else, so that reading `dir` back gives a tree of the same digest. Where a
    /// copy is kept by digest (a NATS queue's bots folder), it is written this way.
    pub fn write_into(&self, dir: &Path) -> std::io::Result<()> {
        std::fs::create_dir(dir)?;
        // Every entry is made after its directory (ids grow from the root down), so each
        // entry's host path is its directory's plus its name.
        let mut paths: Vec<PathBuf> = Vec::with_capacity(self.nodes.len());
        for (id, node) in self.nodes.iter().enumerate() {
            let path = match paths.get(node.parent) {
                _ if id == ROOT => dir.to_owned(),
                Some(parent) if node.parent < id => parent.join(&node.name),
                _ => return Err(std::io::Error::other("a data tree entry comes before its directory")),
            };
            match &node.kind {
                NodeKind::Dir(_) if id != ROOT => std::fs::create_dir(&path)?,
                NodeKind::Dir(_) => {}
                NodeKind::File(contents) => std::fs::write(&path, contents)?,
            }
            paths.push(path);
        }
        Ok(())
    }

    /// Every entry but the root, in the digest's order (a pre-order walk, each directory's entries
    /// sorted by name): its path relative to the root and, for a file, its contents. What an
    /// archive of the tree lists, so the same tree always packs to the same bytes.
    pub fn walk(&self) -> Vec<DataEntry<'_>> {
        let mut entries = Vec::with_capacity(self.entries());
        // (entry, its directory's path), popped in pre-order.
        let mut stack: Vec<(NodeId, String)> = match self.node(ROOT).map(|root| &root.kind) {
            Some(NodeKind::Dir(children)) => children.iter().rev().map(|&child| (child, String::new())).collect(),
            _ => Vec::new(),
        };
        while let Some((id, parent)) = stack.pop() {
            let Some(node) = self.node(id) else { continue };
            let path = if parent.is_empty() { node.name.clone() } else { format!("{parent}/{}", node.name) };
            match &node.kind {
                NodeKind::Dir(children) => {
                    stack.extend(children.iter().rev().map(|&child| (child, path.clone())));
                    entries.push(DataEntry { path, contents: None });
                }
                NodeKind::File(contents) => entries.push(DataEntry { path, contents: Some(contents) }),
            }
        }
        entries
    }

    /// The entry `id`.
    pub(crate) fn node(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id)
    }

    /// The entry named `name` in directory `dir`.
    pub(crate) fn child(&self, dir: NodeId, name: &str) -> Option<NodeId> {
        let NodeKind::Dir(children) = &self.node(dir)?.kind else { return None };
        let index = children
            .binary_search_by(|&child| self.nodes.get(child).map_or("", |node| node.name.as_str()).cmp(name))
            .ok()?;
        children.get(index).copied()
    }
}

/// One entry of a tree as [`DataTree::walk`] lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataEntry<'a> {
    /// Its path relative to the root (`a/b/c.txt`).
    pub path: String,
    /// A file's contents; `None` for a directory.
    pub contents: Option<&'a [u8]>,
}

/// Its size and digest, not its (possibly 64 MiB of) contents.
impl std::fmt::Debug for DataTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DataTree")
            .field("entries", &self.entries())
            .field("total_bytes", &self.total_bytes)
            .field("digest", &self.digest_hex())
            .finish()
    }
}

/// What a listed directory entry is.
enum EntryKind {
    Dir,
    File,
}

/// Lists `dir` (at `host_path`), sorted by name: refuses links, special files and names that
/// are not UTF-8, and stops as soon as the tree's `entries` so far and these go over the limit.
fn list(
    dir: &cap_std::fs::Dir,
    host_path: &Path,
    entries: usize,
    limits: DataLimits,
) -> Result<Vec<(String, EntryKind)>, DataError> {
    let io = |source| DataError::Io { path: host_path.to_owned(), source };
    let mut listed = Vec::new();
    for entry in dir.entries().map_err(io)? {
        let entry = entry.map_err(io)?;
        let os_name = entry.file_name();
        let entry_path = host_path.join(&os_name);
        if entries.saturating_add(listed.len()) >= limits.max_entries {
            return Err(DataError::TooManyEntries { path: entry_path, max: limits.max_entries });
        }
        let Ok(name) = os_name.into_string() else { return Err(DataError::NonUtf8Name { path: entry_path }) };
        let mut file_type = entry.file_type().map_err(|source| DataError::Io { path: entry_path.clone(), source })?;
        // Some filesystems do not say in the listing: ask (without following a link).
        if !(file_type.is_dir() || file_type.is_file() || file_type.is_symlink()) {
            file_type =
                entry.metadata().map_err(|source| DataError::Io { path: entry_path.clone(), source })?.file_type();
        }
        let kind = if file_type.is_symlink() {
            return Err(DataError::Link { path: entry_path });
        } else if file_type.is_dir() {
            EntryKind::Dir
        } else if file_type.is_file() {
            EntryKind::File
        } else {
            return Err(DataError::Special { path: entry_path, kind: special_kind(&file_type) });
        };
        listed.push((name, kind));
    }
    listed.sort_by(|(a, _), (b, _)| a.cmp(b));
    Ok(listed)
}

/// What a special file is, for messages.
fn special_kind(file_type: &cap_std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use cap_std::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a named pipe (FIFO)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
    }
    let _ = file_type;
    "something else"
}

/// Open options that refuse a link swapped in after the listing (`O_NOFOLLOW`) and never wait
/// for a writer (`O_NONBLOCK`: a named pipe swapped in would block an open for reading).
fn no_follow(directory: bool) -> cap_std::fs::OpenOptions {
    let mut options = cap_std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use cap_std::fs::OpenOptionsExt;
        let mut flags = rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK;
        if directory {
            flags |= rustix::fs::OFlags::DIRECTORY;
        }
        options.custom_flags(flags.bits() as i32);
    }
    let _ = directory;
    options
}

/// Opens the subdirectory `name` of `dir`, refusing anything swapped in for it since the listing.
fn open_dir(dir: &cap_std::fs::Dir, name: &str) -> std::io::Result<cap_std::fs::Dir> {
    let file = dir.open_with(name, &no_follow(true))?;
    if !file.metadata()?.is_dir() {
        return Err(std::io::Error::new(std::io::ErrorKind::NotADirectory, "no longer a directory"));
    }
    Ok(cap_std::fs::Dir::from_std_file(file.into_std()))
}

/// Reads the regular file `name` of `dir` (at `host_path`) if it has at most `room` bytes
/// (`None` if it has more), reading at most `room + 1`.
fn read_file(dir: &cap_std::fs::Dir, name: &str, host_path: &Path, room: u64) -> Result<Option<Bytes>, DataError> {
    let io = |source| DataError::Io { path: host_path.to_owned(), source };
    let file = dir.open_with(name, &no_follow(false)).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    if !metadata.is_file() {
        return Err(DataError::Special { path: host_path.to_owned(), kind: "no longer a regular file" });
    }
    if metadata.len() > room {
        return Ok(None);
    }
    let mut contents = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.take(room.saturating_add(1)).read_to_end(&mut contents).map_err(io)?;
    if contents.len() as u64 > room {
        return Ok(None);
    }
    Ok(Some(Bytes::from(contents)))
}

/// A directory [`DataTree::read_dir`] has still to read: the open directory it is in, its
/// entry, its host path.
type PendingDir = (Rc<cap_std::fs::Dir>, NodeId, PathBuf);

/// A tree under construction ([`DataTree::builder`]): entries are added by path relative to the
/// root, in any order (the tree sorts them), within its [`DataLimits`].
#[derive(Debug)]
pub struct DataTreeBuilder {
    nodes: Vec<BuildNode>,
    limits: DataLimits,
    entries: usize,
    total_bytes: u64,
}

#[derive(Debug)]
struct BuildNode {
    name: String,
    parent: NodeId,
    /// The length of its path relative to the root.
    path_len: usize,
    kind: BuildKind,
}

#[derive(Debug)]
enum BuildKind {
    Dir(BTreeMap<String, NodeId>),
    File(Bytes),
}

impl DataTreeBuilder {
    /// An empty tree (its root only).
    pub fn new(limits: DataLimits) -> DataTreeBuilder {
        let root = BuildNode { name: String::new(), parent: ROOT, path_len: 0, kind: BuildKind::Dir(BTreeMap::new()) };
        DataTreeBuilder { nodes: vec![root], limits, entries: 0, total_bytes: 0 }
    }

    /// Bytes of file contents added so far.
    pub fn total_bytes(&self) -> u64 {
        self.total_bytes
    }

    /// Adds the directory at `path` (`a/b/c`), and any directory on the way that is not there
    /// yet; one already there is left as it is. On an error, nothing is added.
    pub fn dir(&mut self, path: &str) -> Result<&mut DataTreeBuilder, DataError> {
        self.check_path(path)?;
        self.walk_to(path, 0)?;
        Ok(self)
    }

    /// Adds the regular file at `path` (`a/b/c.txt`) with `contents`, and any directory on the way
    /// that is not there yet. On an error, nothing is added.
    pub fn file(&mut self, path: &str, contents: impl Into<Bytes>) -> Result<&mut DataTreeBuilder, DataError> {
        self.check_path(path)?;
        let contents = contents.into();
        if self.total_bytes.saturating_add(contents.len() as u64) > self.limits.max_bytes {
            return Err(DataError::TooManyBytes { path: PathBuf::from(path), max: self.limits.max_bytes });
        }
        let (dir, name) = match path.rsplit_once('/') {
            Some((dir, name)) => (self.walk_to(dir, 1)?, name),
            None => (ROOT, path),
        };
        self.add_child(dir, name.to_owned(), BuildKind::File(contents), Path::new(path))?;
        Ok(self)
    }

    /// Refuses a path with an invalid name in it, or too long.
    fn check_path(&self, path: &str) -> Result<(), DataError> {
        if let Some(reason) = path.split('/').find_map(invalid_name) {
            return Err(DataError::InvalidName { path: PathBuf::from(path), reason });
        }
        if path.len() > MAX_PATH_BYTES {
            return Err(DataError::PathTooLong { path: PathBuf::from(path), max: MAX_PATH_BYTES });
        }
        Ok(())
    }

    /// The directory at `path` (checked), made as needed, leaving room for `reserve` more
    /// entries: everything is checked before anything is made.
    fn walk_to(&mut self, path: &str, reserve: usize) -> Result<NodeId, DataError> {
        let conflict = || DataError::Conflict { path: PathBuf::from(path) };
        let names: Vec<&str> = path.split('/').collect();
        let mut at = ROOT;
        let mut found = 0;
        for name in &names {
            let Some(BuildKind::Dir(children)) = self.nodes.get(at).map(|node| &node.kind) else {
                return Err(conflict());
            };
            match children.get(*name) {
                Some(&child) => at = child,
                None => break,
            }
            found += 1;
        }
        if !matches!(self.nodes.get(at).map(|node| &node.kind), Some(BuildKind::Dir(_))) {
            return Err(conflict());
        }
        let missing = names.len() - found;
        if self.entries.saturating_add(missing).saturating_add(reserve) > self.limits.max_entries {
            return Err(DataError::TooManyEntries { path: PathBuf::from(path), max: self.limits.max_entries });
        }
        for name in names.iter().skip(found) {
            at = self.add_child(at, (*name).to_owned(), BuildKind::Dir(BTreeMap::new()), Path::new(path))?;
        }
        Ok(at)
    }

    /// Adds `name` to directory `dir`, within the limits; `path` names it in errors.
    fn add_child(&mut self, dir: NodeId, name: String, kind: BuildKind, path: &Path) -> Result<NodeId, DataError> {
        if let Some(reason) = invalid_name(&name) {
            return Err(DataError::InvalidName { path: path.to_owned(), reason });
        }
        let parent_len = self.nodes.get(dir).map_or(0, |node| node.path_len);
        let path_len = if dir == ROOT { name.len() } else { parent_len + 1 + name.len() };
        if path_len > MAX_PATH_BYTES {
            return Err(DataError::PathTooLong { path: path.to_owned(), max: MAX_PATH_BYTES });
        }
        if self.entries >= self.limits.max_entries {
            return Err(DataError::TooManyEntries { path: path.to_owned(), max: self.limits.max_entries });
        }
        if let BuildKind::File(contents) = &kind {
            let total = self.total_bytes.saturating_add(contents.len() as u64);
            if total > self.limits.max_bytes {
                return Err(DataError::TooManyBytes { path: path.to_owned(), max: self.limits.max_bytes });
            }
        }
        let id = self.nodes.len();
        let Some(BuildKind::Dir(children)) = self.nodes.get_mut(dir).map(|node| &mut node.kind) else {
            return Err(DataError::Conflict { path: path.to_owned() });
        };
        if children.contains_key(&name) {
            return Err(DataError::Conflict { path: path.to_owned() });
        }
        children.insert(name.clone(), id);
        if let BuildKind::File(contents) = &kind {
            self.total_bytes += contents.len() as u64;
        }
        self.entries += 1;
        self.nodes.push(BuildNode { name, parent: dir, path_len, kind });
        Ok(id)
    }

    /// Lists the host directory `dir` (at `host_path`, entry `id` of this tree), adds its
    /// entries, reads its files and queues its subdirectories on `pending` (sorted by name:
    /// popped in that order, so neither the walk nor which error a bad folder gets depends on
    /// the order the host lists a directory in).
    fn read_entries(
        &mut self,
        dir: &Rc<cap_std::fs::Dir>,
        id: NodeId,
        host_path: &Path,
        pending: &mut Vec<PendingDir>,
    ) -> Result<(), DataError> {
        let listed = list(dir, host_path, self.entries, self.limits)?;
        let first_subdir = pending.len();
        for (name, kind) in listed {
            let entry_path = host_path.join(&name);
            match kind {
                EntryKind::Dir => {
                    let child = self.add_child(id, name, BuildKind::Dir(BTreeMap::new()), &entry_path)?;
                    pending.push((dir.clone(), child, entry_path));
                }
                EntryKind::File => {
                    let room = self.limits.max_bytes.saturating_sub(self.total_bytes);
                    let Some(contents) = read_file(dir, &name, &entry_path, room)? else {
                        return Err(DataError::TooManyBytes { path: entry_path, max: self.limits.max_bytes });
                    };
                    self.add_child(id, name, BuildKind::File(contents), &entry_path)?;
                }
            }
        }
        if let Some(subdirs) = pending.get_mut(first_subdir..) {
            subdirs.reverse();
        }
        Ok(())
    }

    /// The tree, with its digest and inode hashes.
    pub fn build(self) -> DataTree {
        let mut nodes: Vec<Node> = self
            .nodes
            .into_iter()
            .map(|node| Node {
                name: node.name,
                parent: node.parent,
                kind: match node.kind {
                    BuildKind::Dir(children) => NodeKind::Dir(children.into_values().collect()),
                    BuildKind::File(contents) => NodeKind::File(contents),
                },
                inode: [0; 16],
            })
            .collect();
        let digest = digest_and_inodes(&mut nodes);
        DataTree { nodes, total_bytes: self.total_bytes, digest }
    }
}

/// Why `name` cannot be an entry's name, if it cannot.
fn invalid_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        Some("empty")
    } else if name == "." || name == ".." {
        Some("`.` and `..` are not names")
    } else if name.contains('/') {
        Some("contains `/`")
    } else if name.contains('\0') {
        Some("contains a NUL byte")
    } else {
        None
    }
}

/// The tree's `data-tree/v1` digest; fills in every node's inode hash on the way (module
/// documentation). Iterative: a tree may be as deep as [`MAX_PATH_BYTES`] allows.
fn digest_and_inodes(nodes: &mut [Node]) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(DIGEST_HEADER);
    if let Some(root) = nodes.get_mut(ROOT) {
        root.inode = inode_hash("");
    }
    let mut path = String::new();
    // (entry, length of its directory's path), popped in pre-order.
    let mut stack: Vec<(NodeId, usize)> = match nodes.get(ROOT).map(|root| &root.kind) {
        Some(NodeKind::Dir(children)) => children.iter().rev().map(|&child| (child, 0)).collect(),
        _ => Vec::new(),
    };
    while let Some((id, parent_len)) = stack.pop() {
        let Some(node) = nodes.get(id) else { continue };
        path.truncate(parent_len);
        if parent_len > 0 {
            path.push('/');
        }
        path.push_str(&node.name);
        match &node.kind {
            NodeKind::Dir(children) => {
                hasher.update(b"d");
                hasher.update(path.as_bytes());
                hasher.update([0]);
                stack.extend(children.iter().rev().map(|&child| (child, path.len())));
            }
            NodeKind::File(contents) => {
                hasher.update(b"f");
                hasher.update(path.as_bytes());
                hasher.update([0]);
                hasher.update((contents.len() as u64).to_le_bytes());
                hasher.update(Sha256::digest(contents));
            }
        }
        let inode = inode_hash(&path);
        if let Some(node) = nodes.get_mut(id) {
            node.inode = inode;
        }
    }
    hasher.finalize().into()
}

/// The inode-like hash of the entry at `path` (module documentation).
fn inode_hash(path: &str) -> [u8; 16] {
    let mut hasher = Sha256::new();
    hasher.update(INODE_HASH_PREFIX);
    hasher.update(path.as_bytes());
    let digest: [u8; 32] = hasher.finalize().into();
    let mut inode = [0; 16];
    inode.copy_from_slice(&digest[..16]);
    inode
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMITS: DataLimits = DataLimits::DEFAULT;

    /// A fresh, empty scratch directory for one test.
    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-data-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn small_tree() -> DataTree {
        let mut builder = DataTree::builder(LIMITS);
        builder
            .file("book.txt", "e4 e5")
            .unwrap()
            .file("nets/w.bin", vec![0u8, 1, 2])
            .unwrap()
            .dir("nets/empty")
            .unwrap();
        builder.build()
    }

    #[test]
    fn the_digest_is_the_documented_canonical_form() {
        let tree = small_tree();
        let mut canonical = b"wasm-arena/data-tree/v1\n".to_vec();
        let mut file = |path: &str, contents: &[u8]| {
            canonical.push(b'f');
            canonical.extend_from_slice(path.as_bytes());
            canonical.push(0);
            canonical.extend_from_slice(&(contents.len() as u64).to_le_bytes());
            canonical.extend_from_slice(&Sha256::digest(contents));
        };
        file("book.txt", b"e4 e5");
        canonical.extend_from_slice(b"dnets\0dnets/empty\0");
        let mut file = |path: &str, contents: &[u8]| {
            canonical.push(b'f');
            canonical.extend_from_slice(path.as_bytes());
            canonical.push(0);
            canonical.extend_from_slice(&(contents.len() as u64).to_le_bytes());
            canonical.extend_from_slice(&Sha256::digest(contents));
        };
        file("nets/w.bin", &[0, 1, 2]);
        assert_eq!(tree.digest(), <[u8; 32]>::from(Sha256::digest(&canonical)));
        // Pinned: `data-tree/v1` is a published format, and this must never change.
        assert_eq!(tree.digest_hex(), "b4cd70a77ffb1460863a91fbafafbc2cabf399cddc2fc4dba9609beae80551f7");
        assert_eq!((tree.entries(), tree.total_bytes()), (4, 8));
        let empty = DataTree::builder(LIMITS).build();
        assert_eq!(empty.digest(), <[u8; 32]>::from(Sha256::digest(DIGEST_HEADER)));
    }

    #[test]
    fn the_digest_depends_on_content_not_on_how_the_tree_was_made() {
        let mut builder = DataTree::builder(LIMITS);
        builder
            .dir("nets/empty")
            .unwrap()
            .file("nets/w.bin", vec![0u8, 1, 2])
            .unwrap()
            .file("book.txt", "e4 e5")
            .unwrap();
        assert_eq!(builder.build().digest(), small_tree().digest(), "insertion order");

        let root = scratch("same-as-built");
        std::fs::create_dir_all(root.join("nets/empty")).unwrap();
        std::fs::write(root.join("nets/w.bin"), [0u8, 1, 2]).unwrap();
        std::fs::write(root.join("book.txt"), "e4 e5").unwrap();
        let read = DataTree::read_dir(&root, LIMITS).unwrap();
        assert_eq!(read.digest(), small_tree().digest(), "read from a host folder");
        std::fs::remove_dir_all(&root).unwrap();

        let variant = |edit: &dyn Fn(&mut DataTreeBuilder)| {
            let mut builder = DataTree::builder(LIMITS);
            edit(&mut builder);
            builder.build().digest()
        };
        let base = variant(&|b| {
            b.file("a/x", "abc").unwrap();
        });
        let changed = [
            variant(&|b| {
                b.file("a/x", "abd").unwrap();
            }),
            variant(&|b| {
                b.file("a/x", "abcd").unwrap();
            }),
            variant(&|b| {
                b.file("a/y", "abc").unwrap();
            }),
            variant(&|b| {
                b.file("b/x", "abc").unwrap();
            }),
            variant(&|b| {
                b.file("a/x", "abc").unwrap().dir("a/z").unwrap();
            }),
            variant(&|b| {
                b.dir("a/x").unwrap();
            }),
        ];
        for (index, digest) in changed.iter().enumerate() {
            assert_ne!(*digest, base, "variant {index}");
        }
    }

    #[test]
    fn inode_hashes_depend_on_the_path_only() {
        let tree = small_tree();
        let mut other = DataTree::builder(LIMITS);
        other.file("nets/w.bin", "different contents").unwrap();
        let other = other.build();
        let inode = |tree: &DataTree, path: &[&str]| {
            let mut at = ROOT;
            for name in path {
                at = tree.child(at, name).unwrap();
            }
            tree.node(at).unwrap().inode
        };
        assert_eq!(inode(&tree, &["nets", "w.bin"]), inode(&other, &["nets", "w.bin"]));
        assert_eq!(inode(&tree, &["nets", "w.bin"]), inode_hash("nets/w.bin"));
        assert_ne!(inode(&tree, &["nets"]), inode(&tree, &["nets", "w.bin"]));
        assert_eq!(inode(&tree, &[]), inode_hash(""));
    }

    #[test]
    fn the_builder_refuses_bad_names_conflicts_and_long_paths() {
        let mut builder = DataTree::builder(LIMITS);
        builder.file("a/x", "1").unwrap();
        for bad in ["", "a//y", "/abs", "a/./y", "a/../y", "nul\0"] {
            assert!(
                matches!(builder.file(bad, "2"), Err(DataError::InvalidName { .. })),
                "{bad:?}: {:?}",
                builder.file(bad, "2")
            );
        }
        assert!(matches!(builder.file("a/x", "2"), Err(DataError::Conflict { .. })));
        assert!(matches!(builder.file("a/x/y", "2"), Err(DataError::Conflict { .. })));
        assert!(matches!(builder.dir("a/x"), Err(DataError::Conflict { .. })));
        assert!(builder.dir("a").is_ok(), "a directory already there is fine");
        let long = vec!["d"; MAX_PATH_BYTES / 2 + 1].join("/");
        assert!(matches!(builder.dir(&long), Err(DataError::PathTooLong { .. })));
        builder.file("b/c/d", "2").unwrap();
        let limits = DataLimits { max_bytes: 10, max_entries: 4 };
        let mut small = DataTree::builder(limits);
        assert!(matches!(small.file("p/q/r/s/t", ""), Err(DataError::TooManyEntries { .. })));
        assert!(matches!(small.file("p/q", "12345678901"), Err(DataError::TooManyBytes { .. })));
        assert_eq!(small.build().entries(), 0, "a refused path adds nothing");
        assert_eq!(builder.build().entries(), 5);
    }

    #[test]
    fn the_builder_keeps_to_its_limits() {
        let limits = DataLimits { max_bytes: 10, max_entries: 3 };
        let mut builder = DataTree::builder(limits);
        builder.file("a", "12345").unwrap().file("b", "12345").unwrap();
        assert!(matches!(builder.file("c", "1"), Err(DataError::TooManyBytes { max: 10, .. })));
        builder.file("c", "").unwrap();
        assert!(matches!(builder.dir("d"), Err(DataError::TooManyEntries { max: 3, .. })));
        let tree = builder.build();
        assert_eq!((tree.entries(), tree.total_bytes()), (3, 10));
    }

    #[test]
    fn a_folder_over_its_bytes_is_refused_without_being_read() {
        let root = scratch("over-bytes");
        std::fs::write(root.join("a"), [1u8; 600]).unwrap();
        std::fs::write(root.join("b"), [2u8; 600]).unwrap();
        let limits = DataLimits { max_bytes: 1000, max_entries: 10 };
        let err = DataTree::read_dir(&root, limits).unwrap_err();
        assert!(matches!(&err, DataError::TooManyBytes { path, max: 1000 } if path.ends_with("b")), "{err}");
        assert!(err.to_string().contains(&*root.to_string_lossy()), "the message names the path: {err}");
        // A (sparse) terabyte is refused from its size: nothing near it is read.
        let huge = std::fs::File::create(root.join("c")).unwrap();
        huge.set_len(1 << 40).unwrap();
        std::fs::remove_file(root.join("b")).unwrap();
        let err = DataTree::read_dir(&root, limits).unwrap_err();
        assert!(matches!(&err, DataError::TooManyBytes { path, .. } if path.ends_with("c")), "{err}");
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[test]
    fn a_tree_written_into_a_folder_reads_back_with_its_digest() {
        let mut builder = DataTree::builder(DataLimits::DEFAULT);
        builder
            .file("b.txt", &b"b"[..])
            .unwrap()
            .file("sub/deeper/c.bin", vec![0u8, 1, 2])
            .unwrap()
            .dir("empty")
            .unwrap();
        let tree = builder.build();
        let dir = std::env::temp_dir().join(format!("arena-data-write-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        tree.write_into(&dir).unwrap();
        let read = DataTree::read_dir(&dir, DataLimits::DEFAULT).unwrap();
        assert_eq!((read.digest(), read.entries(), read.total_bytes()), (tree.digest(), 5, 4));
        assert!(tree.write_into(&dir).is_err(), "an existing folder is not written over");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_folder_over_its_entries_is_refused() {
        let root = scratch("over-entries");
        for dir in ["a", "b", "c"] {
            std::fs::create_dir_all(root.join(dir)).unwrap();
            std::fs::write(root.join(dir).join("f"), dir).unwrap();
        }
        let limits = DataLimits { max_bytes: 1000, max_entries: 5 };
        let err = DataTree::read_dir(&root, limits).unwrap_err();
        assert!(matches!(err, DataError::TooManyEntries { max: 5, .. }), "{err}");
        let tree = DataTree::read_dir(&root, DataLimits { max_entries: 6, ..limits }).unwrap();
        assert_eq!(tree.entries(), 6);
        std::fs::remove_dir_all(&root).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn links_special_files_and_non_utf8_names_are_refused() {
        let root = scratch("refused");
        std::fs::write(root.join("target"), "x").unwrap();
        std::os::unix::fs::symlink("target", root.join("link")).unwrap();
        let err = DataTree::read_dir(&root, LIMITS).unwrap_err();
        assert!(matches!(&err, DataError::Link { path } if path.ends_with("link")), "{err}");
        assert!(err.to_string().contains("data folders may not contain links"), "{err}");
        std::fs::remove_file(root.join("link")).unwrap();

        std::fs::create_dir(root.join("dir")).unwrap();
        std::os::unix::fs::symlink("/etc", root.join("dir/escape")).unwrap();
        let err = DataTree::read_dir(&root, LIMITS).unwrap_err();
        assert!(matches!(&err, DataError::Link { path } if path.ends_with("dir/escape")), "{err}");
        std::fs::remove_dir_all(root.join("dir")).unwrap();

        let socket = std::os::unix::net::UnixListener::bind(root.join("socket")).unwrap();
        let err = DataTree::read_dir(&root, LIMITS).unwrap_err();
        assert!(matches!(err, DataError::Special { kind: "a socket", .. }), "{err}");
        drop(socket);
        std::fs::remove_file(root.join("socket")).unwrap();

        #[cfg(target_os = "linux")]
        {
            use std::os::unix::ffi::OsStrExt;
            let name = std::ffi::OsStr::from_bytes(b"bad-\xff");
            std::fs::write(root.join(name), "x").unwrap();
            let err = DataTree::read_dir(&root, LIMITS).unwrap_err();
            assert!(matches!(err, DataError::NonUtf8Name { .. }), "{err}");
            std::fs::remove_file(root.join(name)).unwrap();
        }

        assert_eq!(DataTree::read_dir(&root, LIMITS).unwrap().entries(), 1);
        assert!(matches!(DataTree::read_dir(&root.join("target"), LIMITS), Err(DataError::Io { .. })));
        assert!(matches!(DataTree::read_dir(&root.join("missing"), LIMITS), Err(DataError::Io { .. })));
        std::fs::remove_dir_all(&root).unwrap();
    }
}
