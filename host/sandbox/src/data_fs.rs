//! The arena's own `wasi:filesystem/types` and `wasi:filesystem/preopens` (WASI 0.2, at
//! [`WASI_P2_VERSION`]): a bot's data folder ([`crate::data::DataTree`]), read-only, at
//! [`DATA_PREOPEN`]. This module owns what a bot sees of its files and what it pays for them.
//!
//! wasmtime-wasi's own filesystem is not used: it shows host times, metadata hashes made from
//! inode numbers, directories in the order the host lists them, and reads files on a thread pool.
//! Here everything a bot observes is a function of the tree's digest: the bytes, directories
//! listed sorted by name (byte order), no timestamps at all (the WIT allows `none`), one link per
//! entry, directories of size 0, and a `metadata-hash` made from the entry's path
//! ([`crate::data`]). Every function answers at once, in the bot's own call.
//!
//! **Semantics.** Paths are relative and `/`-separated; `.` is allowed, and `..` as long as it
//! stays within the directory the path starts from (WASI's rule, as wasmtime-wasi applies it:
//! leaving it is `not-permitted`, as is an absolute path). There are no links, so the
//! `symlink-follow` flag changes nothing and `readlink-at` answers `invalid`. Opening with
//! `create`, `truncate` or `exclusive`, or asking for `write` or `mutate-directory`, is
//! `read-only`, as is every function that would change the tree (after `not-permitted` for a
//! path that is absolute or leaves its base, which WASI checks first); `sync` and `sync-data`
//! succeed with no effect, as the WIT says for a descriptor not open for writing (and as
//! wasmtime-wasi answers for a read-only file). Reading a directory is `is-directory`; reading a
//! directory of a file, or a path through a file, is `not-directory`. `read` returns at most
//! [`MAX_HOSTCALL_BYTES`] a call, and says it reached the end when its bytes end at the file's
//! end; a stream from `read-via-stream` is always ready and returns at most that much a read.
//! `filesystem-error-code` answers what wasmtime-wasi's does (a stream error carrying an I/O
//! error; the data streams never fail).
//!
//! **Charges** (docs/design.md#host-work-is-fuel-too), each before the work, in the bot's own
//! store (`host_fuel`): every function and resource drop counts one host-call fee; every byte of
//! a path argument, [`crate::budget::FUEL_PER_PATH_BYTE`] (whether or not the path is resolved:
//! it was copied);
//! every byte read (`read`, and the data streams' reads, skips and splices, which `host_fuel`
//! shadows over wasmtime-wasi's to charge them), [`FUEL_PER_BYTE`]; every directory entry
//! returned, [`FUEL_PER_DIRECTORY_ENTRY`] and [`FUEL_PER_BYTE`] per byte of its name. Everything
//! else is constant work, paid by the fee. A bot without data pays exactly what it paid under
//! wasmtime-wasi (one fee for `get-directories`, which is empty).

use crate::budget::{FUEL_PER_BYTE, FUEL_PER_DIRECTORY_ENTRY, MAX_HOSTCALL_BYTES};
use crate::data::{DataTree, NodeId, NodeKind, ROOT};
use crate::host_fuel::{FuelPayer, StreamErrorWit, WASI_P2_VERSION, charge, charge_fuel, charge_path, stream_result};
use bytes::Bytes;
use std::collections::HashMap;
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use wasmtime::StoreContextMut;
use wasmtime::component::{Linker, Resource, ResourceType, WasmList};
use wasmtime_wasi::p2::bindings::filesystem::types::{
    Advice, DescriptorFlags, DescriptorStat, DescriptorType, DirectoryEntry, ErrorCode, MetadataHashValue,
    NewTimestamp, OpenFlags, PathFlags,
};
use wasmtime_wasi::p2::bindings::io::streams::{HostInputStream, HostOutputStream};
use wasmtime_wasi::p2::{DynInputStream, DynOutputStream, InputStream, Pollable, StreamError, StreamResult};

/// What the arena's filesystem needs of a store's data ([`crate::store::BotState`]): the charged
/// host functions' needs, and the bot's data folder with its open file streams.
pub trait DataPayer: FuelPayer {
    /// The bot's data folder and its open file streams.
    fn data_fs(&mut self) -> &mut DataFs;
}

/// Where a bot sees its data folder (its only preopened directory).
pub const DATA_PREOPEN: &str = "/data";

/// The host side of a `descriptor`: an entry of a tree.
pub struct DataDescriptor {
    tree: Arc<DataTree>,
    node: NodeId,
}

/// The host side of a `directory-entry-stream`: a directory's entries from `next` on.
pub struct DataEntryStream {
    tree: Arc<DataTree>,
    dir: NodeId,
    next: usize,
}

/// A store's data folder, and its open file streams.
#[derive(Default)]
pub struct DataFs {
    tree: Option<Arc<DataTree>>,
    /// The cursor of every data stream by its handle in the store's resource table, so that
    /// `host_fuel` can charge a read before it happens (the table holds streams as opaque
    /// `dyn InputStream`s). Only the stream holds its cursor: a dead entry is a stream dropped,
    /// and a handle reused by a new data stream replaces its entry. At most one entry per
    /// handle the table ever gave out, so no more than its capacity.
    streams: HashMap<u32, Weak<Cursor>>,
}

impl DataFs {
    /// The data folder, if the bot has one.
    pub fn tree(&self) -> Option<&Arc<DataTree>> {
        self.tree.as_ref()
    }

    /// Gives the bot `tree` as its data folder.
    pub fn set_tree(&mut self, tree: Arc<DataTree>) {
        self.tree = Some(tree);
    }

    /// The cursor of input stream `rep`, if it is a data stream still open.
    fn stream(&self, rep: u32) -> Option<Arc<Cursor>> {
        self.streams.get(&rep).and_then(Weak::upgrade)
    }
}

/// Where a data stream is in its file.
struct Cursor {
    contents: Bytes,
    position: AtomicUsize,
}

impl Cursor {
    /// How many bytes a read of up to `len` returns now; `None` at the end of the file (the
    /// stream is then closed).
    fn next_read(&self, len: u64) -> Option<usize> {
        let position = self.position.load(Ordering::SeqCst);
        let left = self.contents.len().checked_sub(position).filter(|&left| left > 0)?;
        let len = usize::try_from(len).unwrap_or(usize::MAX);
        Some(len.min(left).min(MAX_HOSTCALL_BYTES))
    }
}

/// A data stream: a file's bytes from an offset on, always ready.
struct DataInputStream(Arc<Cursor>);

#[async_trait::async_trait]
impl Pollable for DataInputStream {
    async fn ready(&mut self) {}
}

#[async_trait::async_trait]
impl InputStream for DataInputStream {
    fn read(&mut self, size: usize) -> StreamResult<Bytes> {
        let Some(len) = self.0.next_read(size as u64) else { return Err(StreamError::Closed) };
        let position = self.0.position.load(Ordering::SeqCst);
        let end = position.saturating_add(len).min(self.0.contents.len());
        self.0.position.store(end, Ordering::SeqCst);
        Ok(self.0.contents.slice(position.min(end)..end))
    }
}

/// Bytes a `read` (or `skip`) of up to `len` from input stream `rep` returns, if it is a data
/// stream: what `host_fuel` charges first. 0 for any other stream (stdin keeps its costs).
pub(crate) fn stream_read_len<T: DataPayer>(state: &mut T, rep: u32, len: u64) -> u64 {
    state.data_fs().stream(rep).and_then(|cursor| cursor.next_read(len)).unwrap_or(0) as u64
}

/// Bytes a `splice` of up to `len` from input stream `src` to output stream `dest` reads, if
/// `src` is a data stream (wasmtime-wasi reads at most what `dest` permits): what `host_fuel`
/// charges first. 0 for any other stream, or when `dest` cannot say (the splice fails then).
pub(crate) fn splice_read_len<T: DataPayer>(
    state: &mut T,
    dest: &Resource<DynOutputStream>,
    src: &Resource<DynInputStream>,
    len: u64,
) -> u64 {
    let Some(cursor) = state.data_fs().stream(src.rep()) else { return 0 };
    let permit = match state.ctx().table.get_mut(dest) {
        Ok(output) => output.check_write().unwrap_or(0),
        Err(_) => 0,
    };
    cursor.next_read(len.min(permit as u64)).unwrap_or(0) as u64
}

type Fd = Resource<DataDescriptor>;
type FsResult<R> = Result<R, ErrorCode>;
type HostFuture<'a, R> = Box<dyn Future<Output = wasmtime::Result<R>> + Send + 'a>;

/// The tree and entry of descriptor `fd`.
fn entry<T: DataPayer>(state: &mut T, fd: &Fd) -> wasmtime::Result<(Arc<DataTree>, NodeId)> {
    let descriptor = state.ctx().table.get(fd)?;
    Ok((descriptor.tree.clone(), descriptor.node))
}

pub(crate) fn is_dir(tree: &DataTree, node: NodeId) -> bool {
    matches!(tree.node(node).map(|node| &node.kind), Some(NodeKind::Dir(_)))
}

/// The entry `path` names from directory `base` (module documentation).
pub(crate) fn resolve(tree: &DataTree, base: NodeId, path: &str) -> FsResult<NodeId> {
    if !is_dir(tree, base) {
        return Err(ErrorCode::NotDirectory);
    }
    if path.starts_with('/') {
        return Err(ErrorCode::NotPermitted);
    }
    if path.is_empty() {
        return Err(ErrorCode::NoEntry);
    }
    if path.contains('\0') {
        return Err(ErrorCode::Invalid);
    }
    let mut at = base;
    // How far below `base` the walk is: `..` may not go above it.
    let mut depth = 0usize;
    for component in path.split('/') {
        // Every component, even an empty one (`file/`), goes through the entry before it.
        if !is_dir(tree, at) {
            return Err(ErrorCode::NotDirectory);
        }
        match component {
            "" | "." => {}
            ".." => {
                depth = depth.checked_sub(1).ok_or(ErrorCode::NotPermitted)?;
                at = tree.node(at).map_or(ROOT, |node| node.parent);
            }
            name => {
                at = tree.child(at, name).ok_or(ErrorCode::NoEntry)?;
                depth += 1;
            }
        }
    }
    Ok(at)
}

/// What a function that would change the tree answers, given its path arguments:
/// `not-permitted` if one is absolute or leaves its base (WASI checks paths first), else
/// `read-only`. Checked on the text alone: nothing is resolved, nothing will change.
pub(crate) fn refuse_change(paths: &[&str]) -> ErrorCode {
    let leaves = |path: &str| {
        let mut depth = 0usize;
        path.starts_with('/')
            || path.split('/').any(|component| match component {
                "" | "." => false,
                ".." => match depth.checked_sub(1) {
                    Some(up) => {
                        depth = up;
                        false
                    }
                    None => true,
                },
                _ => {
                    depth += 1;
                    false
                }
            })
    };
    if paths.iter().any(|path| leaves(path)) { ErrorCode::NotPermitted } else { ErrorCode::ReadOnly }
}

pub(crate) fn descriptor_type(tree: &DataTree, node: NodeId) -> DescriptorType {
    if is_dir(tree, node) { DescriptorType::Directory } else { DescriptorType::RegularFile }
}

/// An entry's stat: its type and size, one link, no times.
pub(crate) fn stat(tree: &DataTree, node: NodeId) -> DescriptorStat {
    let size = match tree.node(node).map(|node| &node.kind) {
        Some(NodeKind::File(contents)) => contents.len() as u64,
        _ => 0,
    };
    DescriptorStat {
        type_: descriptor_type(tree, node),
        link_count: 1,
        size,
        data_access_timestamp: None,
        data_modification_timestamp: None,
        status_change_timestamp: None,
    }
}

/// An entry's `metadata-hash`: its inode hash ([`crate::data`]), which depends on its path only.
pub(crate) fn metadata_hash(tree: &DataTree, node: NodeId) -> MetadataHashValue {
    let inode = tree.node(node).map_or([0; 16], |node| node.inode);
    let mut lower = [0; 8];
    let mut upper = [0; 8];
    lower.copy_from_slice(&inode[..8]);
    upper.copy_from_slice(&inode[8..]);
    MetadataHashValue { lower: u64::from_le_bytes(lower), upper: u64::from_le_bytes(upper) }
}

/// A file's contents, or why the entry cannot be read as one.
fn contents(tree: &DataTree, node: NodeId) -> FsResult<&Bytes> {
    match tree.node(node).map(|node| &node.kind) {
        Some(NodeKind::File(contents)) => Ok(contents),
        Some(NodeKind::Dir(_)) => Err(ErrorCode::IsDirectory),
        None => Err(ErrorCode::BadDescriptor),
    }
}

/// Charges `path`'s bytes, then resolves it from descriptor `fd`.
async fn resolve_at<T: DataPayer>(
    store: &mut StoreContextMut<'_, T>,
    fd: &Fd,
    path: &str,
) -> wasmtime::Result<FsResult<(Arc<DataTree>, NodeId)>> {
    charge_path(store, path.len() as u64).await?;
    let (tree, base) = entry(store.data_mut(), fd)?;
    Ok(resolve(&tree, base, path).map(|node| (tree, node)))
}

/// What `symlink-at(old, new)` answers: the link's target `old` is text, not a path to
/// resolve, so only an absolute one is refused as such (the WIT's rule); else as every change.
pub(crate) fn refuse_symlink(old: &str, new: &str) -> ErrorCode {
    if old.starts_with('/') { ErrorCode::NotPermitted } else { refuse_change(&[old, new]) }
}

/// Charges the path arguments of a function that would change the tree, and answers it
/// ([`refuse_change`]).
async fn refuse<T: DataPayer>(
    store: &mut StoreContextMut<'_, T>,
    fds: &[&Fd],
    paths: &[&str],
) -> wasmtime::Result<FsResult<()>> {
    charge_path(store, paths.iter().map(|path| path.len() as u64).sum()).await?;
    for fd in fds {
        entry(store.data_mut(), fd)?;
    }
    Ok(Err(refuse_change(paths)))
}

/// `get-directories`: the data folder as [`DATA_PREOPEN`], or nothing.
pub(crate) fn get_directories<T: DataPayer>(state: &mut T) -> wasmtime::Result<Vec<(Fd, String)>> {
    let Some(tree) = state.data_fs().tree().cloned() else { return Ok(Vec::new()) };
    let root = state.ctx().table.push(DataDescriptor { tree, node: ROOT })?;
    Ok(vec![(root, DATA_PREOPEN.to_owned())])
}

/// `open-at`, after its path is charged.
pub(crate) fn open_at<T: DataPayer>(
    state: &mut T,
    fd: &Fd,
    path: &str,
    open_flags: OpenFlags,
    flags: DescriptorFlags,
) -> wasmtime::Result<FsResult<Fd>> {
    let (tree, base) = entry(state, fd)?;
    match open_node(&tree, base, path, open_flags, flags) {
        Ok(node) => Ok(Ok(state.ctx().table.push(DataDescriptor { tree, node })?)),
        Err(code) => Ok(Err(code)),
    }
}

/// The entry `open-at` opens from directory `base` (module documentation): asking to create,
/// truncate or write is `read-only` whatever the path; then the path is resolved.
pub(crate) fn open_node(
    tree: &DataTree,
    base: NodeId,
    path: &str,
    open_flags: OpenFlags,
    flags: DescriptorFlags,
) -> FsResult<NodeId> {
    if !is_dir(tree, base) {
        return Err(ErrorCode::NotDirectory);
    }
    let changes = OpenFlags::CREATE | OpenFlags::TRUNCATE | OpenFlags::EXCLUSIVE;
    let writes = DescriptorFlags::WRITE | DescriptorFlags::MUTATE_DIRECTORY;
    if open_flags.intersects(changes) || flags.intersects(writes) {
        return Err(ErrorCode::ReadOnly);
    }
    let node = resolve(tree, base, path)?;
    if open_flags.contains(OpenFlags::DIRECTORY) && !is_dir(tree, node) {
        return Err(ErrorCode::NotDirectory);
    }
    Ok(node)
}

/// `read`: the bytes of the file from `offset`, at most `len` and [`MAX_HOSTCALL_BYTES`],
/// charged first; and whether they end at the file's end.
pub(crate) async fn read<T: DataPayer>(
    store: &mut StoreContextMut<'_, T>,
    fd: &Fd,
    len: u64,
    offset: u64,
) -> wasmtime::Result<FsResult<(Vec<u8>, bool)>> {
    let (tree, node) = entry(store.data_mut(), fd)?;
    let (bytes, at_end) = match read_span(&tree, node, len, offset) {
        Ok(span) => span,
        Err(code) => return Ok(Err(code)),
    };
    charge(store, bytes.len() as u64).await?;
    Ok(Ok((bytes.to_vec(), at_end)))
}

/// What a read of up to `len` bytes from `offset` of file `node` returns (at most
/// [`MAX_HOSTCALL_BYTES`]; nothing past the end), not yet copied nor charged; and whether it
/// ends at the file's end.
pub(crate) fn read_span(tree: &DataTree, node: NodeId, len: u64, offset: u64) -> FsResult<(Bytes, bool)> {
    let contents = contents(tree, node)?;
    let start = usize::try_from(offset).unwrap_or(usize::MAX).min(contents.len());
    let len = usize::try_from(len).unwrap_or(usize::MAX).min(MAX_HOSTCALL_BYTES);
    let end = start.saturating_add(len).min(contents.len());
    Ok((contents.slice(start..end), end == contents.len()))
}

/// `read-via-stream`: a data stream over the file from `offset`.
pub(crate) fn read_via_stream<T: DataPayer>(
    state: &mut T,
    fd: &Fd,
    offset: u64,
) -> wasmtime::Result<FsResult<Resource<DynInputStream>>> {
    let (tree, node) = entry(state, fd)?;
    let contents = match contents(&tree, node) {
        Ok(contents) => contents.clone(),
        Err(code) => return Ok(Err(code)),
    };
    let position = usize::try_from(offset).unwrap_or(usize::MAX).min(contents.len());
    let cursor = Arc::new(Cursor { contents, position: AtomicUsize::new(position) });
    let weak = Arc::downgrade(&cursor);
    let stream: DynInputStream = Box::new(DataInputStream(cursor));
    let stream = state.ctx().table.push(stream)?;
    state.data_fs().streams.insert(stream.rep(), weak);
    Ok(Ok(stream))
}

/// `read-directory`: a stream of the directory's entries.
pub(crate) fn read_directory<T: DataPayer>(
    state: &mut T,
    fd: &Fd,
) -> wasmtime::Result<FsResult<Resource<DataEntryStream>>> {
    let (tree, node) = entry(state, fd)?;
    if !is_dir(&tree, node) {
        return Ok(Err(ErrorCode::NotDirectory));
    }
    Ok(Ok(state.ctx().table.push(DataEntryStream { tree, dir: node, next: 0 })?))
}

/// What listing one directory entry named `name` costs on top of the call's fee (module
/// documentation).
pub(crate) fn directory_entry_fuel(name: &str) -> u64 {
    FUEL_PER_DIRECTORY_ENTRY.saturating_add((name.len() as u64).saturating_mul(FUEL_PER_BYTE))
}

/// `read-directory-entry`: the next entry, by name, charged first; then none.
pub(crate) async fn read_directory_entry<T: DataPayer>(
    store: &mut StoreContextMut<'_, T>,
    stream: &Resource<DataEntryStream>,
) -> wasmtime::Result<FsResult<Option<DirectoryEntry>>> {
    let (tree, dir, next) = {
        let stream = store.data_mut().ctx().table.get(stream)?;
        (stream.tree.clone(), stream.dir, stream.next)
    };
    let child = match tree.node(dir).map(|node| &node.kind) {
        Some(NodeKind::Dir(children)) => children.get(next).copied(),
        _ => None,
    };
    let Some((child, node)) = child.and_then(|child| Some((child, tree.node(child)?))) else { return Ok(Ok(None)) };
    charge_fuel(store, directory_entry_fuel(&node.name)).await?;
    store.data_mut().ctx().table.get_mut(stream)?.next = next + 1;
    Ok(Ok(Some(DirectoryEntry { type_: descriptor_type(&tree, child), name: node.name.clone() })))
}

/// Defines `wasi:filesystem/types` and `wasi:filesystem/preopens` (module documentation) in
/// `linker`, in place of wasmtime-wasi's.
pub(crate) fn add_to_linker<T: DataPayer>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    let mut types = linker.instance(&format!("wasi:filesystem/types@{WASI_P2_VERSION}"))?;
    types.resource("descriptor", ResourceType::host::<DataDescriptor>(), |mut store, rep| {
        store.data_mut().count_host_call();
        store.data_mut().ctx().table.delete(Resource::<DataDescriptor>::new_own(rep))?;
        Ok(())
    })?;
    types.resource("directory-entry-stream", ResourceType::host::<DataEntryStream>(), |mut store, rep| {
        store.data_mut().count_host_call();
        store.data_mut().ctx().table.delete(Resource::<DataEntryStream>::new_own(rep))?;
        Ok(())
    })?;

    types.func_wrap(
        "[method]descriptor.read-via-stream",
        |mut store: StoreContextMut<'_, T>, (fd, offset): (Fd, u64)| {
            store.data_mut().count_host_call();
            Ok((read_via_stream(store.data_mut(), &fd, offset)?,))
        },
    )?;
    types.func_wrap(
        "[method]descriptor.write-via-stream",
        |mut store: StoreContextMut<'_, T>, (fd, _offset): (Fd, u64)| {
            store.data_mut().count_host_call();
            entry(store.data_mut(), &fd)?;
            Ok((Err::<Resource<DynOutputStream>, _>(ErrorCode::ReadOnly),))
        },
    )?;
    types.func_wrap("[method]descriptor.append-via-stream", |mut store: StoreContextMut<'_, T>, (fd,): (Fd,)| {
        store.data_mut().count_host_call();
        entry(store.data_mut(), &fd)?;
        Ok((Err::<Resource<DynOutputStream>, _>(ErrorCode::ReadOnly),))
    })?;
    types.func_wrap(
        "[method]descriptor.advise",
        |mut store: StoreContextMut<'_, T>, (fd, _offset, _len, _advice): (Fd, u64, u64, Advice)| {
            store.data_mut().count_host_call();
            let (tree, node) = entry(store.data_mut(), &fd)?;
            // A hint with no effect; on a directory, `bad-descriptor` (wasmtime-wasi's answer).
            let answer = if is_dir(&tree, node) { Err(ErrorCode::BadDescriptor) } else { Ok(()) };
            Ok((answer,))
        },
    )?;
    for name in ["[method]descriptor.sync-data", "[method]descriptor.sync"] {
        types.func_wrap(name, |mut store: StoreContextMut<'_, T>, (fd,): (Fd,)| {
            store.data_mut().count_host_call();
            entry(store.data_mut(), &fd)?;
            Ok((Ok::<(), ErrorCode>(()),))
        })?;
    }
    types.func_wrap("[method]descriptor.get-flags", |mut store: StoreContextMut<'_, T>, (fd,): (Fd,)| {
        store.data_mut().count_host_call();
        entry(store.data_mut(), &fd)?;
        Ok((Ok::<_, ErrorCode>(DescriptorFlags::READ),))
    })?;
    types.func_wrap("[method]descriptor.get-type", |mut store: StoreContextMut<'_, T>, (fd,): (Fd,)| {
        store.data_mut().count_host_call();
        let (tree, node) = entry(store.data_mut(), &fd)?;
        Ok((Ok::<_, ErrorCode>(descriptor_type(&tree, node)),))
    })?;
    types.func_wrap("[method]descriptor.set-size", |mut store: StoreContextMut<'_, T>, (fd, _size): (Fd, u64)| {
        store.data_mut().count_host_call();
        entry(store.data_mut(), &fd)?;
        Ok((Err::<(), _>(ErrorCode::ReadOnly),))
    })?;
    types.func_wrap(
        "[method]descriptor.set-times",
        |mut store: StoreContextMut<'_, T>, (fd, _atime, _mtime): (Fd, NewTimestamp, NewTimestamp)| {
            store.data_mut().count_host_call();
            entry(store.data_mut(), &fd)?;
            Ok((Err::<(), _>(ErrorCode::ReadOnly),))
        },
    )?;
    types.func_wrap_async(
        "[method]descriptor.read",
        |mut store: StoreContextMut<'_, T>, (fd, len, offset): (Fd, u64, u64)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                Ok((read(&mut store, &fd, len, offset).await?,))
            }) as HostFuture<'_, _>
        },
    )?;
    types.func_wrap(
        "[method]descriptor.write",
        |mut store: StoreContextMut<'_, T>, (fd, _buffer, _offset): (Fd, WasmList<u8>, u64)| {
            // The buffer is never read (or copied).
            store.data_mut().count_host_call();
            entry(store.data_mut(), &fd)?;
            Ok((Err::<u64, _>(ErrorCode::ReadOnly),))
        },
    )?;
    types.func_wrap("[method]descriptor.read-directory", |mut store: StoreContextMut<'_, T>, (fd,): (Fd,)| {
        store.data_mut().count_host_call();
        Ok((read_directory(store.data_mut(), &fd)?,))
    })?;
    types.func_wrap_async(
        "[method]descriptor.create-directory-at",
        |mut store: StoreContextMut<'_, T>, (fd, path): (Fd, String)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                Ok((refuse(&mut store, &[&fd], &[&path]).await?,))
            }) as HostFuture<'_, _>
        },
    )?;
    types.func_wrap("[method]descriptor.stat", |mut store: StoreContextMut<'_, T>, (fd,): (Fd,)| {
        store.data_mut().count_host_call();
        let (tree, node) = entry(store.data_mut(), &fd)?;
        Ok((Ok::<_, ErrorCode>(stat(&tree, node)),))
    })?;
    types.func_wrap_async(
        "[method]descriptor.stat-at",
        |mut store: StoreContextMut<'_, T>, (fd, _flags, path): (Fd, PathFlags, String)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                let found = resolve_at(&mut store, &fd, &path).await?;
                Ok((found.map(|(tree, node)| stat(&tree, node)),))
            }) as HostFuture<'_, _>
        },
    )?;
    types.func_wrap_async(
        "[method]descriptor.set-times-at",
        |mut store: StoreContextMut<'_, T>,
         (fd, _flags, path, _atime, _mtime): (Fd, PathFlags, String, NewTimestamp, NewTimestamp)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                Ok((refuse(&mut store, &[&fd], &[&path]).await?,))
            }) as HostFuture<'_, _>
        },
    )?;
    types.func_wrap_async(
        "[method]descriptor.link-at",
        |mut store: StoreContextMut<'_, T>, (fd, _flags, old, new_fd, new): (Fd, PathFlags, String, Fd, String)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                Ok((refuse(&mut store, &[&fd, &new_fd], &[&old, &new]).await?,))
            }) as HostFuture<'_, _>
        },
    )?;
    types.func_wrap_async(
        "[method]descriptor.open-at",
        |mut store: StoreContextMut<'_, T>,
         (fd, _path_flags, path, open_flags, flags): (Fd, PathFlags, String, OpenFlags, DescriptorFlags)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                charge_path(&mut store, path.len() as u64).await?;
                Ok((open_at(store.data_mut(), &fd, &path, open_flags, flags)?,))
            }) as HostFuture<'_, _>
        },
    )?;
    types.func_wrap_async(
        "[method]descriptor.readlink-at",
        |mut store: StoreContextMut<'_, T>, (fd, path): (Fd, String)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                // There are no links: `invalid` for an entry, as `readlinkat` answers for a
                // file that is not one.
                let found = resolve_at(&mut store, &fd, &path).await?;
                Ok((found.and(Err::<String, _>(ErrorCode::Invalid)),))
            }) as HostFuture<'_, _>
        },
    )?;
    for name in ["[method]descriptor.remove-directory-at", "[method]descriptor.unlink-file-at"] {
        types.func_wrap_async(name, |mut store: StoreContextMut<'_, T>, (fd, path): (Fd, String)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                Ok((refuse(&mut store, &[&fd], &[&path]).await?,))
            }) as HostFuture<'_, _>
        })?;
    }
    types.func_wrap_async(
        "[method]descriptor.rename-at",
        |mut store: StoreContextMut<'_, T>, (fd, old, new_fd, new): (Fd, String, Fd, String)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                Ok((refuse(&mut store, &[&fd, &new_fd], &[&old, &new]).await?,))
            }) as HostFuture<'_, _>
        },
    )?;
    types.func_wrap_async(
        "[method]descriptor.symlink-at",
        |mut store: StoreContextMut<'_, T>, (fd, old, new): (Fd, String, String)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                charge_path(&mut store, (old.len() as u64).saturating_add(new.len() as u64)).await?;
                entry(store.data_mut(), &fd)?;
                Ok((Err::<(), _>(refuse_symlink(&old, &new)),))
            }) as HostFuture<'_, _>
        },
    )?;
    types.func_wrap(
        "[method]descriptor.is-same-object",
        |mut store: StoreContextMut<'_, T>, (fd, other): (Fd, Fd)| {
            store.data_mut().count_host_call();
            let (tree, node) = entry(store.data_mut(), &fd)?;
            let (other_tree, other_node) = entry(store.data_mut(), &other)?;
            Ok((Arc::ptr_eq(&tree, &other_tree) && node == other_node,))
        },
    )?;
    types.func_wrap("[method]descriptor.metadata-hash", |mut store: StoreContextMut<'_, T>, (fd,): (Fd,)| {
        store.data_mut().count_host_call();
        let (tree, node) = entry(store.data_mut(), &fd)?;
        Ok((Ok::<_, ErrorCode>(metadata_hash(&tree, node)),))
    })?;
    types.func_wrap_async(
        "[method]descriptor.metadata-hash-at",
        |mut store: StoreContextMut<'_, T>, (fd, _flags, path): (Fd, PathFlags, String)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                let found = resolve_at(&mut store, &fd, &path).await?;
                Ok((found.map(|(tree, node)| metadata_hash(&tree, node)),))
            }) as HostFuture<'_, _>
        },
    )?;
    types.func_wrap_async(
        "[method]directory-entry-stream.read-directory-entry",
        |mut store: StoreContextMut<'_, T>, (stream,): (Resource<DataEntryStream>,)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                Ok((read_directory_entry(&mut store, &stream).await?,))
            }) as HostFuture<'_, _>
        },
    )?;
    types.func_wrap(
        "filesystem-error-code",
        |mut store: StoreContextMut<'_, T>, (error,): (Resource<wasmtime::Error>,)| {
            store.data_mut().count_host_call();
            // As wasmtime-wasi answers: only a stream error carrying an I/O error has a code
            // (the data streams never fail; stdin and stdout are the arena's own).
            let error = store.data_mut().ctx().table.get(&error)?;
            Ok((error.downcast_ref::<std::io::Error>().map(ErrorCode::from),))
        },
    )?;

    let mut preopens = linker.instance(&format!("wasi:filesystem/preopens@{WASI_P2_VERSION}"))?;
    preopens.func_wrap("get-directories", |mut store: StoreContextMut<'_, T>, (): ()| {
        store.data_mut().count_host_call();
        Ok((get_directories(store.data_mut())?,))
    })?;
    add_stream_charges(linker)?;
    Ok(())
}

/// Shadows wasmtime-wasi's `wasi:io/streams` reads, skips and splices so that those from a data
/// file's stream are charged per byte before they happen; every other stream (stdin) costs what
/// it did, its fee.
fn add_stream_charges<T: DataPayer>(linker: &mut Linker<T>) -> wasmtime::Result<()> {
    linker.allow_shadowing(true);
    let mut streams = linker.instance(&format!("wasi:io/streams@{WASI_P2_VERSION}"))?;
    streams.func_wrap_async(
        "[method]input-stream.read",
        |mut store: StoreContextMut<'_, T>, (stream, len): (Resource<DynInputStream>, u64)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                let bytes = stream_read_len(store.data_mut(), stream.rep(), len);
                charge(&mut store, bytes).await?;
                let read = HostInputStream::read(store.data_mut().ctx().table, stream, len);
                stream_result(&mut store, read)
            }) as HostFuture<'_, (Result<Vec<u8>, StreamErrorWit>,)>
        },
    )?;
    streams.func_wrap_async(
        "[method]input-stream.blocking-read",
        |mut store: StoreContextMut<'_, T>, (stream, len): (Resource<DynInputStream>, u64)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                let bytes = stream_read_len(store.data_mut(), stream.rep(), len);
                charge(&mut store, bytes).await?;
                let read = HostInputStream::blocking_read(store.data_mut().ctx().table, stream, len).await;
                stream_result(&mut store, read)
            }) as HostFuture<'_, (Result<Vec<u8>, StreamErrorWit>,)>
        },
    )?;
    streams.func_wrap_async(
        "[method]input-stream.skip",
        |mut store: StoreContextMut<'_, T>, (stream, len): (Resource<DynInputStream>, u64)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                let bytes = stream_read_len(store.data_mut(), stream.rep(), len);
                charge(&mut store, bytes).await?;
                let skipped = HostInputStream::skip(store.data_mut().ctx().table, stream, len);
                stream_result(&mut store, skipped)
            }) as HostFuture<'_, (Result<u64, StreamErrorWit>,)>
        },
    )?;
    streams.func_wrap_async(
        "[method]input-stream.blocking-skip",
        |mut store: StoreContextMut<'_, T>, (stream, len): (Resource<DynInputStream>, u64)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                let bytes = stream_read_len(store.data_mut(), stream.rep(), len);
                charge(&mut store, bytes).await?;
                let skipped = HostInputStream::blocking_skip(store.data_mut().ctx().table, stream, len).await;
                stream_result(&mut store, skipped)
            }) as HostFuture<'_, (Result<u64, StreamErrorWit>,)>
        },
    )?;
    // A splice reads its source too: from a data stream, those bytes are charged first.
    streams.func_wrap_async(
        "[method]output-stream.splice",
        |mut store: StoreContextMut<'_, T>,
         (dest, src, len): (Resource<DynOutputStream>, Resource<DynInputStream>, u64)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                let bytes = splice_read_len(store.data_mut(), &dest, &src, len);
                charge(&mut store, bytes).await?;
                let spliced = HostOutputStream::splice(store.data_mut().ctx().table, dest, src, len);
                stream_result(&mut store, spliced)
            }) as HostFuture<'_, (Result<u64, StreamErrorWit>,)>
        },
    )?;
    streams.func_wrap_async(
        "[method]output-stream.blocking-splice",
        |mut store: StoreContextMut<'_, T>,
         (dest, src, len): (Resource<DynOutputStream>, Resource<DynInputStream>, u64)| {
            Box::new(async move {
                store.data_mut().count_host_call();
                let bytes = splice_read_len(store.data_mut(), &dest, &src, len);
                charge(&mut store, bytes).await?;
                let spliced = HostOutputStream::blocking_splice(store.data_mut().ctx().table, dest, src, len).await;
                stream_result(&mut store, spliced)
            }) as HostFuture<'_, (Result<u64, StreamErrorWit>,)>
        },
    )?;

    linker.allow_shadowing(false);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::data::DataLimits;
    use crate::engine::ArenaOptions;
    use crate::log::BotLog;
    use crate::store::{BotState, StoreHandles};
    use crate::wasi::locked_down_ctx;
    use crate::{Sandbox, host_fuel::FUEL_PER_BURN_STEP};
    use std::pin::pin;
    use std::sync::atomic::AtomicU64;
    use std::task::{Context, Poll, Waker};
    use wasmtime::component::Component;
    use wasmtime::{AsContextMut, Store};
    use wasmtime_wasi::WasiView;

    /// Polls `future` to completion on this thread (nothing here waits).
    fn block_on<F: Future>(future: F) -> F::Output {
        let mut future = pin!(future);
        let mut cx = Context::from_waker(Waker::noop());
        loop {
            if let Poll::Ready(output) = future.as_mut().poll(&mut cx) {
                return output;
            }
        }
    }

    /// `book.txt` (2,500 bytes), `a/` holding `z.bin`, `b.txt` and `m/` (empty), and `c/`.
    fn tree() -> DataTree {
        let book: Vec<u8> = (0..2500u32).map(|i| (i % 251) as u8).collect();
        let mut builder = DataTree::builder(DataLimits::DEFAULT);
        builder.file("book.txt", book).unwrap().file("a/z.bin", "zz").unwrap().file("a/b.txt", "bee").unwrap();
        builder.dir("a/m").unwrap().dir("c").unwrap();
        builder.build()
    }

    /// A store as the arena makes one, with plenty of fuel, holding `tree` if given.
    fn store(tree: Option<DataTree>) -> (Sandbox, Store<BotState>) {
        let sandbox = Sandbox::new(ArenaOptions::default()).unwrap();
        let log = BotLog::default();
        let handles = StoreHandles::fresh(&log, &Arc::new(AtomicU64::new(u64::MAX)));
        let wasi = locked_down_ctx(1, &[7; 32], &log, &handles.clock);
        let mut store = sandbox.new_store(&Budget::default(), wasi, &handles);
        store.set_fuel(1 << 40).unwrap();
        if let Some(tree) = tree {
            store.data_mut().set_data(Arc::new(tree));
        }
        (sandbox, store)
    }

    fn root(store: &mut Store<BotState>) -> Fd {
        let mut preopens = get_directories(store.data_mut()).unwrap();
        assert_eq!(preopens.len(), 1);
        let (root, name) = preopens.remove(0);
        assert_eq!(name, "/data");
        root
    }

    fn open(store: &mut Store<BotState>, base: &Fd, path: &str) -> FsResult<Fd> {
        open_at(store.data_mut(), base, path, OpenFlags::empty(), DescriptorFlags::READ).unwrap()
    }

    fn node(store: &mut Store<BotState>, fd: &Fd) -> NodeId {
        entry(store.data_mut(), fd).unwrap().1
    }

    #[test]
    fn no_tree_no_preopens() {
        let (_sandbox, mut store) = store(None);
        assert!(get_directories(store.data_mut()).unwrap().is_empty());
        assert!(store.data().data().is_none());
    }

    #[test]
    fn paths_resolve_within_their_base() {
        let tree = tree();
        let a = tree.child(ROOT, "a").unwrap();
        let b = tree.child(a, "b.txt").unwrap();
        assert_eq!(resolve(&tree, ROOT, "a/b.txt"), Ok(b));
        assert_eq!(resolve(&tree, ROOT, "./a//./b.txt"), Ok(b));
        assert_eq!(resolve(&tree, ROOT, "a/m/../b.txt"), Ok(b));
        assert_eq!(resolve(&tree, ROOT, "."), Ok(ROOT));
        assert_eq!(resolve(&tree, ROOT, "a/.."), Ok(ROOT));
        assert_eq!(resolve(&tree, ROOT, "a/"), Ok(a));
        assert_eq!(resolve(&tree, ROOT, ".."), Err(ErrorCode::NotPermitted));
        assert_eq!(resolve(&tree, ROOT, "a/../../a"), Err(ErrorCode::NotPermitted));
        // WASI's rule: not above the directory the path starts from, even inside the tree.
        assert_eq!(resolve(&tree, a, "../c"), Err(ErrorCode::NotPermitted));
        assert_eq!(resolve(&tree, ROOT, "/a"), Err(ErrorCode::NotPermitted));
        assert_eq!(resolve(&tree, ROOT, "/"), Err(ErrorCode::NotPermitted));
        assert_eq!(resolve(&tree, ROOT, "missing"), Err(ErrorCode::NoEntry));
        assert_eq!(resolve(&tree, ROOT, "a/missing/x"), Err(ErrorCode::NoEntry));
        assert_eq!(resolve(&tree, ROOT, ""), Err(ErrorCode::NoEntry));
        assert_eq!(resolve(&tree, ROOT, "book.txt/x"), Err(ErrorCode::NotDirectory));
        assert_eq!(resolve(&tree, ROOT, "book.txt/"), Err(ErrorCode::NotDirectory));
        assert_eq!(resolve(&tree, ROOT, "book.txt/.."), Err(ErrorCode::NotDirectory));
        assert_eq!(resolve(&tree, b, "x"), Err(ErrorCode::NotDirectory));
        assert_eq!(resolve(&tree, ROOT, "a\0"), Err(ErrorCode::Invalid));
    }

    #[test]
    fn opening_for_anything_but_reading_is_read_only() {
        let (_sandbox, mut store) = store(Some(tree()));
        let root = root(&mut store);
        let state = store.data_mut();
        for open_flags in [OpenFlags::CREATE, OpenFlags::TRUNCATE, OpenFlags::EXCLUSIVE] {
            let opened = open_at(state, &root, "book.txt", open_flags, DescriptorFlags::READ).unwrap();
            assert_eq!(opened.err(), Some(ErrorCode::ReadOnly), "{open_flags:?}");
        }
        for flags in
            [DescriptorFlags::WRITE, DescriptorFlags::MUTATE_DIRECTORY, DescriptorFlags::READ | DescriptorFlags::WRITE]
        {
            let opened = open_at(state, &root, "a", OpenFlags::empty(), flags).unwrap();
            assert_eq!(opened.err(), Some(ErrorCode::ReadOnly), "{flags:?}");
        }
        let opened = open_at(state, &root, "book.txt", OpenFlags::DIRECTORY, DescriptorFlags::READ).unwrap();
        assert_eq!(opened.err(), Some(ErrorCode::NotDirectory));
        assert!(open_at(state, &root, "a", OpenFlags::DIRECTORY, DescriptorFlags::READ).unwrap().is_ok());
        let file = open(&mut store, &root, "book.txt").unwrap();
        assert_eq!(open(&mut store, &file, "x").err(), Some(ErrorCode::NotDirectory));
        assert_eq!(open(&mut store, &root, "../x").err(), Some(ErrorCode::NotPermitted));
        assert_eq!(open(&mut store, &root, "nope").err(), Some(ErrorCode::NoEntry));
        assert_eq!(refuse_change(&["a/x"]), ErrorCode::ReadOnly);
        assert_eq!(refuse_change(&["a/x", "/etc"]), ErrorCode::NotPermitted);
        assert_eq!(refuse_change(&["a/../../x"]), ErrorCode::NotPermitted);
    }

    #[test]
    fn directories_list_sorted_by_name_then_end() {
        let (_sandbox, mut store) = store(Some(tree()));
        let root = root(&mut store);
        let list = |store: &mut Store<BotState>, dir: &Fd| {
            let stream = read_directory(store.data_mut(), dir).unwrap().unwrap();
            let mut names = Vec::new();
            while let Some(entry) =
                block_on(read_directory_entry(&mut store.as_context_mut(), &stream)).unwrap().unwrap()
            {
                names.push((entry.name, entry.type_));
            }
            assert!(matches!(block_on(read_directory_entry(&mut store.as_context_mut(), &stream)).unwrap(), Ok(None)));
            names
        };
        let a = open(&mut store, &root, "a").unwrap();
        assert_eq!(
            list(&mut store, &a),
            [
                ("b.txt".to_owned(), DescriptorType::RegularFile),
                ("m".to_owned(), DescriptorType::Directory),
                ("z.bin".to_owned(), DescriptorType::RegularFile),
            ]
        );
        let names: Vec<String> = list(&mut store, &root).into_iter().map(|(name, _)| name).collect();
        assert_eq!(names, ["a", "book.txt", "c"]);
        let file = open(&mut store, &root, "book.txt").unwrap();
        assert_eq!(read_directory(store.data_mut(), &file).unwrap().err(), Some(ErrorCode::NotDirectory));
    }

    #[test]
    fn stat_is_fixed_and_metadata_hashes_follow_the_path() {
        let (_sandbox, mut store) = store(Some(tree()));
        let root = root(&mut store);
        let file = open(&mut store, &root, "a/b.txt").unwrap();
        let (tree, b) = entry(store.data_mut(), &file).unwrap();
        let stat_b = stat(&tree, b);
        assert_eq!((stat_b.type_, stat_b.link_count, stat_b.size), (DescriptorType::RegularFile, 1, 3));
        assert!(stat_b.data_access_timestamp.is_none());
        assert!(stat_b.data_modification_timestamp.is_none());
        assert!(stat_b.status_change_timestamp.is_none());
        let stat_root = stat(&tree, ROOT);
        assert_eq!((stat_root.type_, stat_root.size), (DescriptorType::Directory, 0));

        // The same path in another tree with other contents hashes the same; another path not.
        let mut other = DataTree::builder(DataLimits::DEFAULT);
        other.file("a/b.txt", "other contents").unwrap();
        let other = other.build();
        let other_b = other.child(other.child(ROOT, "a").unwrap(), "b.txt").unwrap();
        let hash = |tree: &DataTree, node| {
            let hash = metadata_hash(tree, node);
            (hash.lower, hash.upper)
        };
        assert_eq!(hash(&tree, b), hash(&other, other_b));
        assert_ne!(hash(&tree, b), hash(&tree, ROOT));
        let inode = tree.node(b).unwrap().inode;
        assert_eq!(hash(&tree, b).0.to_le_bytes(), inode[..8]);
        let again = open(&mut store, &root, "./a/../a/b.txt").unwrap();
        assert_eq!(node(&mut store, &again), b, "the same entry, the same hash, however it was named");
    }

    #[test]
    fn reads_return_what_the_wit_says() {
        let (_sandbox, mut store) = store(Some(tree()));
        let root = root(&mut store);
        let file = open(&mut store, &root, "a/b.txt").unwrap();
        let mut read = |fd: &Fd, len, offset| block_on(read(&mut store.as_context_mut(), fd, len, offset)).unwrap();
        assert_eq!(read(&file, 2, 0), Ok((b"be".to_vec(), false)));
        assert_eq!(read(&file, 10, 1), Ok((b"ee".to_vec(), true)));
        assert_eq!(read(&file, 0, 1), Ok((Vec::new(), false)));
        assert_eq!(read(&file, 10, 3), Ok((Vec::new(), true)));
        assert_eq!(read(&file, u64::MAX, u64::MAX), Ok((Vec::new(), true)));
        assert_eq!(read(&root, 10, 0), Err(ErrorCode::IsDirectory));

        let stream = read_via_stream(store.data_mut(), &file, 1).unwrap().unwrap();
        let table = store.data_mut().ctx().table;
        use wasmtime_wasi::p2::bindings::io::streams::HostInputStream;
        assert_eq!(HostInputStream::read(&mut *table, Resource::new_borrow(stream.rep()), 1).ok(), Some(b"e".to_vec()));
        assert_eq!(HostInputStream::read(&mut *table, Resource::new_borrow(stream.rep()), 9).ok(), Some(b"e".to_vec()));
        assert!(matches!(
            HostInputStream::read(&mut *table, Resource::new_borrow(stream.rep()), 9),
            Err(StreamError::Closed)
        ));
        assert_eq!(read_via_stream(store.data_mut(), &root, 0).unwrap().err(), Some(ErrorCode::IsDirectory));
    }

    /// A component importing the whole of `wasi:filesystem/types` (so that linking checks every
    /// function's type against the WIT) and the stream reads, with exports that call them on the
    /// data folder: `setup` (preopens), `open` (`book.txt`), `read(len)`, `stream-read(len)`,
    /// `stream-skip(len)` (bytes returned) and `refuse(case)` (the error code a function that
    /// would change the tree answers, 255 for none).
    const FS_WAT: &str = r#"(component
  (import "wasi:io/error@0.2.0" (instance $io_error (export "error" (type (sub resource)))))
  (alias export $io_error "error" (type $error))
  (import "wasi:io/streams@0.2.0" (instance $io_streams
    (alias outer 1 $error (type $e0)) (export "error" (type $e (eq $e0)))
    (type $se0 (variant (case "last-operation-failed" (own $e)) (case "closed")))
    (export "stream-error" (type $se (eq $se0)))
    (export "input-stream" (type $in (sub resource)))
    (export "output-stream" (type $out (sub resource)))
    (export "[method]input-stream.read" (func (param "self" (borrow $in)) (param "len" u64) (result (result (list u8) (error $se)))))
    (export "[method]input-stream.skip" (func (param "self" (borrow $in)) (param "len" u64) (result (result u64 (error $se)))))))
  (alias export $io_streams "input-stream" (type $input_stream))
  (alias export $io_streams "output-stream" (type $output_stream))
  (import "wasi:clocks/wall-clock@0.2.0" (instance $wall
    (type $dt0 (record (field "seconds" u64) (field "nanoseconds" u32)))
    (export "datetime" (type $dt (eq $dt0)))))
  (alias export $wall "datetime" (type $datetime))
  (import "wasi:filesystem/types@0.2.0" (instance $fs
    (alias outer 1 $input_stream (type $in0)) (export "input-stream" (type $in (eq $in0)))
    (alias outer 1 $output_stream (type $out0)) (export "output-stream" (type $out (eq $out0)))
    (alias outer 1 $error (type $err0)) (export "error" (type $err (eq $err0)))
    (alias outer 1 $datetime (type $dt0)) (export "datetime" (type $dt (eq $dt0)))
    (type $dtype0 (enum "unknown" "block-device" "character-device" "directory" "fifo" "symbolic-link" "regular-file" "socket"))
    (export "descriptor-type" (type $dtype (eq $dtype0)))
    (type $dflags0 (flags "read" "write" "file-integrity-sync" "data-integrity-sync" "requested-write-sync" "mutate-directory"))
    (export "descriptor-flags" (type $dflags (eq $dflags0)))
    (type $pflags0 (flags "symlink-follow"))
    (export "path-flags" (type $pflags (eq $pflags0)))
    (type $oflags0 (flags "create" "directory" "exclusive" "truncate"))
    (export "open-flags" (type $oflags (eq $oflags0)))
    (type $stat0 (record (field "type" $dtype) (field "link-count" u64) (field "size" u64)
      (field "data-access-timestamp" (option $dt)) (field "data-modification-timestamp" (option $dt))
      (field "status-change-timestamp" (option $dt))))
    (export "descriptor-stat" (type $stat (eq $stat0)))
    (type $nt0 (variant (case "no-change") (case "now") (case "timestamp" $dt)))
    (export "new-timestamp" (type $nt (eq $nt0)))
    (type $entry0 (record (field "type" $dtype) (field "name" string)))
    (export "directory-entry" (type $entry (eq $entry0)))
    (type $ec0 (enum "access" "would-block" "already" "bad-descriptor" "busy" "deadlock" "quota" "exist"
      "file-too-large" "illegal-byte-sequence" "in-progress" "interrupted" "invalid" "io" "is-directory"
      "loop" "too-many-links" "message-size" "name-too-long" "no-device" "no-entry" "no-lock"
      "insufficient-memory" "insufficient-space" "not-directory" "not-empty" "not-recoverable" "unsupported"
      "no-tty" "no-such-device" "overflow" "not-permitted" "pipe" "read-only" "invalid-seek" "text-file-busy"
      "cross-device"))
    (export "error-code" (type $ec (eq $ec0)))
    (type $advice0 (enum "normal" "sequential" "random" "will-need" "dont-need" "no-reuse"))
    (export "advice" (type $advice (eq $advice0)))
    (type $mh0 (record (field "lower" u64) (field "upper" u64)))
    (export "metadata-hash-value" (type $mh (eq $mh0)))
    (export "descriptor" (type $d (sub resource)))
    (export "directory-entry-stream" (type $des (sub resource)))
    (export "[method]descriptor.read-via-stream" (func (param "self" (borrow $d)) (param "offset" u64) (result (result (own $in) (error $ec)))))
    (export "[method]descriptor.write-via-stream" (func (param "self" (borrow $d)) (param "offset" u64) (result (result (own $out) (error $ec)))))
    (export "[method]descriptor.append-via-stream" (func (param "self" (borrow $d)) (result (result (own $out) (error $ec)))))
    (export "[method]descriptor.advise" (func (param "self" (borrow $d)) (param "offset" u64) (param "length" u64) (param "advice" $advice) (result (result (error $ec)))))
    (export "[method]descriptor.sync-data" (func (param "self" (borrow $d)) (result (result (error $ec)))))
    (export "[method]descriptor.get-flags" (func (param "self" (borrow $d)) (result (result $dflags (error $ec)))))
    (export "[method]descriptor.get-type" (func (param "self" (borrow $d)) (result (result $dtype (error $ec)))))
    (export "[method]descriptor.set-size" (func (param "self" (borrow $d)) (param "size" u64) (result (result (error $ec)))))
    (export "[method]descriptor.set-times" (func (param "self" (borrow $d)) (param "data-access-timestamp" $nt) (param "data-modification-timestamp" $nt) (result (result (error $ec)))))
    (export "[method]descriptor.read" (func (param "self" (borrow $d)) (param "length" u64) (param "offset" u64) (result (result (tuple (list u8) bool) (error $ec)))))
    (export "[method]descriptor.write" (func (param "self" (borrow $d)) (param "buffer" (list u8)) (param "offset" u64) (result (result u64 (error $ec)))))
    (export "[method]descriptor.read-directory" (func (param "self" (borrow $d)) (result (result (own $des) (error $ec)))))
    (export "[method]descriptor.sync" (func (param "self" (borrow $d)) (result (result (error $ec)))))
    (export "[method]descriptor.create-directory-at" (func (param "self" (borrow $d)) (param "path" string) (result (result (error $ec)))))
    (export "[method]descriptor.stat" (func (param "self" (borrow $d)) (result (result $stat (error $ec)))))
    (export "[method]descriptor.stat-at" (func (param "self" (borrow $d)) (param "path-flags" $pflags) (param "path" string) (result (result $stat (error $ec)))))
    (export "[method]descriptor.set-times-at" (func (param "self" (borrow $d)) (param "path-flags" $pflags) (param "path" string) (param "data-access-timestamp" $nt) (param "data-modification-timestamp" $nt) (result (result (error $ec)))))
    (export "[method]descriptor.link-at" (func (param "self" (borrow $d)) (param "old-path-flags" $pflags) (param "old-path" string) (param "new-descriptor" (borrow $d)) (param "new-path" string) (result (result (error $ec)))))
    (export "[method]descriptor.open-at" (func (param "self" (borrow $d)) (param "path-flags" $pflags) (param "path" string) (param "open-flags" $oflags) (param "flags" $dflags) (result (result (own $d) (error $ec)))))
    (export "[method]descriptor.readlink-at" (func (param "self" (borrow $d)) (param "path" string) (result (result string (error $ec)))))
    (export "[method]descriptor.remove-directory-at" (func (param "self" (borrow $d)) (param "path" string) (result (result (error $ec)))))
    (export "[method]descriptor.rename-at" (func (param "self" (borrow $d)) (param "old-path" string) (param "new-descriptor" (borrow $d)) (param "new-path" string) (result (result (error $ec)))))
    (export "[method]descriptor.symlink-at" (func (param "self" (borrow $d)) (param "old-path" string) (param "new-path" string) (result (result (error $ec)))))
    (export "[method]descriptor.unlink-file-at" (func (param "self" (borrow $d)) (param "path" string) (result (result (error $ec)))))
    (export "[method]descriptor.is-same-object" (func (param "self" (borrow $d)) (param "other" (borrow $d)) (result bool)))
    (export "[method]descriptor.metadata-hash" (func (param "self" (borrow $d)) (result (result $mh (error $ec)))))
    (export "[method]descriptor.metadata-hash-at" (func (param "self" (borrow $d)) (param "path-flags" $pflags) (param "path" string) (result (result $mh (error $ec)))))
    (export "[method]directory-entry-stream.read-directory-entry" (func (param "self" (borrow $des)) (result (result (option $entry) (error $ec)))))
    (export "filesystem-error-code" (func (param "err" (borrow $err)) (result (option $ec))))))
  (alias export $fs "descriptor" (type $descriptor))
  (import "wasi:filesystem/preopens@0.2.0" (instance $preopens
    (alias outer 1 $descriptor (type $d0)) (export "descriptor" (type $d (eq $d0)))
    (export "get-directories" (func (result (list (tuple (own $d) string)))))))

  (core module $mem (memory (export "memory") 64))
  (core instance $mem (instantiate $mem))
  ;; A bump allocator over 1-3 MiB, starting over when full: answers are read at once.
  (core module $alloc
    (global $next (mut i32) (i32.const 0x100000))
    (func (export "realloc") (param i32 i32 i32 i32) (result i32)
      (local $at i32)
      (local.set $at (i32.and (i32.add (global.get $next) (i32.sub (local.get 2) (i32.const 1)))
        (i32.sub (i32.const 0) (local.get 2))))
      (if (i32.gt_u (i32.add (local.get $at) (local.get 3)) (i32.const 0x300000))
        (then (local.set $at (i32.const 0x100000))))
      (global.set $next (i32.add (local.get $at) (local.get 3)))
      (local.get $at)))
  (core instance $alloc (instantiate $alloc))

  (core func $get_directories (canon lower (func $preopens "get-directories") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $open_at (canon lower (func $fs "[method]descriptor.open-at") (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $read (canon lower (func $fs "[method]descriptor.read") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $read_via_stream (canon lower (func $fs "[method]descriptor.read-via-stream") (memory (core memory $mem "memory"))))
  (core func $write_via_stream (canon lower (func $fs "[method]descriptor.write-via-stream") (memory (core memory $mem "memory"))))
  (core func $append_via_stream (canon lower (func $fs "[method]descriptor.append-via-stream") (memory (core memory $mem "memory"))))
  (core func $set_size (canon lower (func $fs "[method]descriptor.set-size") (memory (core memory $mem "memory"))))
  (core func $set_times (canon lower (func $fs "[method]descriptor.set-times") (memory (core memory $mem "memory"))))
  (core func $write (canon lower (func $fs "[method]descriptor.write") (memory (core memory $mem "memory"))))
  (core func $create_directory_at (canon lower (func $fs "[method]descriptor.create-directory-at") (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $set_times_at (canon lower (func $fs "[method]descriptor.set-times-at") (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $link_at (canon lower (func $fs "[method]descriptor.link-at") (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $remove_directory_at (canon lower (func $fs "[method]descriptor.remove-directory-at") (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $rename_at (canon lower (func $fs "[method]descriptor.rename-at") (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $symlink_at (canon lower (func $fs "[method]descriptor.symlink-at") (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $unlink_file_at (canon lower (func $fs "[method]descriptor.unlink-file-at") (memory (core memory $mem "memory")) string-encoding=utf8))
  (core func $readlink_at (canon lower (func $fs "[method]descriptor.readlink-at") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc")) string-encoding=utf8))
  (core func $stream_read (canon lower (func $io_streams "[method]input-stream.read") (memory (core memory $mem "memory")) (realloc (core func $alloc "realloc"))))
  (core func $stream_skip (canon lower (func $io_streams "[method]input-stream.skip") (memory (core memory $mem "memory"))))
  (core func $drop_input (canon resource.drop $input_stream))

  (core module $bot
    (import "mem" "memory" (memory 64))
    (import "host" "get-directories" (func $get_directories (param i32)))
    (import "host" "open-at" (func $open_at (param i32 i32 i32 i32 i32 i32 i32)))
    (import "host" "read" (func $read (param i32 i64 i64 i32)))
    (import "host" "read-via-stream" (func $read_via_stream (param i32 i64 i32)))
    (import "host" "write-via-stream" (func $write_via_stream (param i32 i64 i32)))
    (import "host" "append-via-stream" (func $append_via_stream (param i32 i32)))
    (import "host" "set-size" (func $set_size (param i32 i64 i32)))
    (import "host" "set-times" (func $set_times (param i32 i32 i64 i32 i32 i64 i32 i32)))
    (import "host" "write" (func $write (param i32 i32 i32 i64 i32)))
    (import "host" "create-directory-at" (func $create_directory_at (param i32 i32 i32 i32)))
    (import "host" "set-times-at" (func $set_times_at (param i32 i32 i32 i32 i32 i64 i32 i32 i64 i32 i32)))
    (import "host" "link-at" (func $link_at (param i32 i32 i32 i32 i32 i32 i32 i32)))
    (import "host" "remove-directory-at" (func $remove_directory_at (param i32 i32 i32 i32)))
    (import "host" "rename-at" (func $rename_at (param i32 i32 i32 i32 i32 i32 i32)))
    (import "host" "symlink-at" (func $symlink_at (param i32 i32 i32 i32 i32 i32)))
    (import "host" "unlink-file-at" (func $unlink_file_at (param i32 i32 i32 i32)))
    (import "host" "readlink-at" (func $readlink_at (param i32 i32 i32 i32)))
    (import "host" "stream-read" (func $stream_read (param i32 i64 i32)))
    (import "host" "stream-skip" (func $stream_skip (param i32 i64 i32)))
    (import "host" "drop-input" (func $drop_input (param i32)))
    (data (i32.const 0x100) "book.txt")
    (data (i32.const 0x200) "x")
    (data (i32.const 0x208) "y")
    (data (i32.const 0x210) "/abs")
    (global $ret i32 (i32.const 0x3f0000))
    (global $root (mut i32) (i32.const 0))
    (global $file (mut i32) (i32.const 0))

    (func (export "setup") (result i32)
      (call $get_directories (global.get $ret))
      (if (i32.load offset=4 (global.get $ret))
        (then (global.set $root (i32.load (i32.load (global.get $ret))))))
      (i32.load offset=4 (global.get $ret)))
    (func (export "open") (result i32)
      (call $open_at (global.get $root) (i32.const 0) (i32.const 0x100) (i32.const 8) (i32.const 0) (i32.const 1) (global.get $ret))
      (if (i32.load8_u (global.get $ret)) (then unreachable))
      (global.set $file (i32.load offset=4 (global.get $ret)))
      (global.get $file))
    (func (export "read") (param $len i64) (result i64)
      (call $read (global.get $file) (local.get $len) (i64.const 0) (global.get $ret))
      (if (i32.load8_u (global.get $ret)) (then unreachable))
      (i64.extend_i32_u (i32.load offset=8 (global.get $ret))))
    (func $stream (result i32)
      (call $read_via_stream (global.get $file) (i64.const 0) (global.get $ret))
      (if (i32.load8_u (global.get $ret)) (then unreachable))
      (i32.load offset=4 (global.get $ret)))
    (func (export "stream-read") (param $len i64) (result i64)
      (local $s i32) (local $n i32)
      (local.set $s (call $stream))
      (call $stream_read (local.get $s) (local.get $len) (global.get $ret))
      (if (i32.load8_u (global.get $ret)) (then unreachable))
      (local.set $n (i32.load offset=8 (global.get $ret)))
      (call $drop_input (local.get $s))
      (i64.extend_i32_u (local.get $n)))
    (func (export "stream-skip") (param $len i64) (result i64)
      (local $s i32) (local $n i64)
      (local.set $s (call $stream))
      (call $stream_skip (local.get $s) (local.get $len) (global.get $ret))
      (if (i32.load8_u (global.get $ret)) (then unreachable))
      (local.set $n (i64.load offset=8 (global.get $ret)))
      (call $drop_input (local.get $s))
      (local.get $n))
    ;; The error code at `offset` of the answer, or 255 if it is not an error.
    (func $code (param $offset i32) (result i32)
      (if (result i32) (i32.load8_u (global.get $ret))
        (then (i32.load8_u (i32.add (global.get $ret) (local.get $offset))))
        (else (i32.const 255))))
    (func (export "refuse") (param $case i32) (result i32)
      (local $r i32) (local $d i32)
      (local.set $r (global.get $ret))
      (local.set $d (global.get $root))
      (block $c15 (block $c14 (block $c13 (block $c12 (block $c11 (block $c10 (block $c9 (block $c8
      (block $c7 (block $c6 (block $c5 (block $c4 (block $c3 (block $c2 (block $c1 (block $c0
        (br_table $c0 $c1 $c2 $c3 $c4 $c5 $c6 $c7 $c8 $c9 $c10 $c11 $c12 $c13 $c14 $c15 (local.get $case)))
        (call $write_via_stream (local.get $d) (i64.const 0) (local.get $r))
        (return (call $code (i32.const 4))))
        (call $append_via_stream (local.get $d) (local.get $r))
        (return (call $code (i32.const 4))))
        (call $set_size (global.get $file) (i64.const 0) (local.get $r))
        (return (call $code (i32.const 1))))
        (call $set_times (global.get $file) (i32.const 0) (i64.const 0) (i32.const 0) (i32.const 1) (i64.const 0) (i32.const 0) (local.get $r))
        (return (call $code (i32.const 1))))
        (call $write (global.get $file) (i32.const 0x200) (i32.const 1) (i64.const 0) (local.get $r))
        (return (call $code (i32.const 8))))
        (call $create_directory_at (local.get $d) (i32.const 0x200) (i32.const 1) (local.get $r))
        (return (call $code (i32.const 1))))
        (call $set_times_at (local.get $d) (i32.const 0) (i32.const 0x200) (i32.const 1)
          (i32.const 0) (i64.const 0) (i32.const 0) (i32.const 2) (i64.const 5) (i32.const 6) (local.get $r))
        (return (call $code (i32.const 1))))
        (call $link_at (local.get $d) (i32.const 0) (i32.const 0x100) (i32.const 8) (local.get $d) (i32.const 0x200) (i32.const 1) (local.get $r))
        (return (call $code (i32.const 1))))
        (call $remove_directory_at (local.get $d) (i32.const 0x200) (i32.const 1) (local.get $r))
        (return (call $code (i32.const 1))))
        (call $rename_at (local.get $d) (i32.const 0x100) (i32.const 8) (local.get $d) (i32.const 0x208) (i32.const 1) (local.get $r))
        (return (call $code (i32.const 1))))
        (call $symlink_at (local.get $d) (i32.const 0x100) (i32.const 8) (i32.const 0x200) (i32.const 1) (local.get $r))
        (return (call $code (i32.const 1))))
        (call $unlink_file_at (local.get $d) (i32.const 0x100) (i32.const 8) (local.get $r))
        (return (call $code (i32.const 1))))
        (call $unlink_file_at (local.get $d) (i32.const 0x210) (i32.const 4) (local.get $r))
        (return (call $code (i32.const 1))))
        (call $open_at (local.get $d) (i32.const 0) (i32.const 0x100) (i32.const 8) (i32.const 1) (i32.const 1) (local.get $r))
        (return (call $code (i32.const 4))))
        (call $readlink_at (local.get $d) (i32.const 0x100) (i32.const 8) (local.get $r))
        (return (call $code (i32.const 4))))
      (call $symlink_at (local.get $d) (i32.const 0x210) (i32.const 4) (i32.const 0x200) (i32.const 1) (local.get $r))
      (call $code (i32.const 1))))
  (core instance $bot (instantiate $bot
    (with "mem" (instance $mem))
    (with "host" (instance
      (export "get-directories" (func $get_directories))
      (export "open-at" (func $open_at))
      (export "read" (func $read))
      (export "read-via-stream" (func $read_via_stream))
      (export "write-via-stream" (func $write_via_stream))
      (export "append-via-stream" (func $append_via_stream))
      (export "set-size" (func $set_size))
      (export "set-times" (func $set_times))
      (export "write" (func $write))
      (export "create-directory-at" (func $create_directory_at))
      (export "set-times-at" (func $set_times_at))
      (export "link-at" (func $link_at))
      (export "remove-directory-at" (func $remove_directory_at))
      (export "rename-at" (func $rename_at))
      (export "symlink-at" (func $symlink_at))
      (export "unlink-file-at" (func $unlink_file_at))
      (export "readlink-at" (func $readlink_at))
      (export "stream-read" (func $stream_read))
      (export "stream-skip" (func $stream_skip))
      (export "drop-input" (func $drop_input))))))
  (func (export "setup") (result u32) (canon lift (core func $bot "setup")))
  (func (export "open") (result u32) (canon lift (core func $bot "open")))
  (func (export "read") (param "len" u64) (result u64) (canon lift (core func $bot "read")))
  (func (export "stream-read") (param "len" u64) (result u64) (canon lift (core func $bot "stream-read")))
  (func (export "stream-skip") (param "len" u64) (result u64) (canon lift (core func $bot "stream-skip")))
  (func (export "refuse") (param "case" u32) (result u32) (canon lift (core func $bot "refuse"))))"#;

    /// [`FS_WAT`] instantiated against the arena's linker in a fresh store holding `tree`.
    fn fs_bot(tree: Option<DataTree>) -> (Sandbox, Store<BotState>, wasmtime::component::Instance) {
        let (sandbox, mut store) = store(tree);
        let component = Component::new(sandbox.engine(), FS_WAT).unwrap();
        let instance = block_on(sandbox.linker().instantiate_async(&mut store, &component)).unwrap();
        (sandbox, store, instance)
    }

    /// Calls export `name` with `args`; returns its result and the fuel it spent.
    fn call<P, R: 'static>(
        store: &mut Store<BotState>,
        instance: &wasmtime::component::Instance,
        name: &str,
        args: P,
    ) -> (R, u64)
    where
        P: wasmtime::component::ComponentNamedList + wasmtime::component::Lower + Send + Sync,
        (R,): wasmtime::component::ComponentNamedList + wasmtime::component::Lift + Send + Sync,
    {
        let func = instance.get_typed_func::<P, (R,)>(&mut *store, name).unwrap();
        let before = store.get_fuel().unwrap();
        let (result,) = block_on(func.call_async(&mut *store, args)).unwrap();
        (result, before - store.get_fuel().unwrap())
    }

    #[test]
    fn without_a_tree_the_preopens_are_empty_for_one_fee() {
        let (_sandbox, mut store, instance) = fs_bot(None);
        let (preopens, fuel) = call::<(), u32>(&mut store, &instance, "setup", ());
        assert_eq!(preopens, 0);
        let fee = crate::budget::FUEL_PER_HOST_CALL;
        assert!((fee..fee + 100).contains(&fuel), "{fuel}");
    }

    #[test]
    fn every_change_is_refused() {
        let (_sandbox, mut store, instance) = fs_bot(Some(tree()));
        assert_eq!(call::<(), u32>(&mut store, &instance, "setup", ()).0, 1);
        call::<(), u32>(&mut store, &instance, "open", ());
        const READ_ONLY: u32 = 33;
        const NOT_PERMITTED: u32 = 31;
        const INVALID: u32 = 12;
        let expected = [READ_ONLY; 12].into_iter().chain([NOT_PERMITTED, READ_ONLY, INVALID, NOT_PERMITTED]);
        for (case, code) in expected.enumerate() {
            assert_eq!(call::<(u32,), u32>(&mut store, &instance, "refuse", (case as u32,)).0, code, "case {case}");
        }
    }

    #[test]
    fn reads_are_charged_per_byte_before_they_happen() {
        let (_sandbox, mut store, instance) = fs_bot(Some(tree()));
        call::<(), u32>(&mut store, &instance, "setup", ());
        call::<(), u32>(&mut store, &instance, "open", ());
        for export in ["read", "stream-read", "stream-skip"] {
            let (small, small_fuel) = call::<(u64,), u64>(&mut store, &instance, export, (1000,));
            let (large, large_fuel) = call::<(u64,), u64>(&mut store, &instance, export, (2000,));
            assert_eq!((small, large), (1000, 2000), "{export}");
            let extra = large_fuel - small_fuel;
            assert!(
                extra.abs_diff(1000 * FUEL_PER_BYTE) <= FUEL_PER_BURN_STEP,
                "{export}: {extra} fuel for 1000 bytes"
            );
            // Past the end: only what is there (2,500 bytes) is returned, and paid for.
            let (all, all_fuel) = call::<(u64,), u64>(&mut store, &instance, export, (1 << 30,));
            assert_eq!(all, 2500, "{export}");
            let extra = all_fuel - small_fuel;
            assert!(
                extra.abs_diff(1500 * FUEL_PER_BYTE) <= FUEL_PER_BURN_STEP,
                "{export}: {extra} fuel for 1500 bytes"
            );
        }
    }
}
