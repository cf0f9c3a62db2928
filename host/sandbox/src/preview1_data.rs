//! A bot's data folder ([`crate::data::DataTree`]) as a core module run on WASI preview1 (a Go
//! program, [`crate::preview1`]) sees it: preopened as descriptor [`DATA_PREOPEN_FD`] named
//! [`DATA_PREOPEN`], read-only, with what `path_open` opens from there. This module owns the
//! store's table of those descriptors ([`DataFds`]), the preview1 functions that act on them,
//! and the bounds-checked access to guest memory every arena preview1 function uses.
//!
//! **Only data descriptors.** Its functions shadow wasmtime-wasi's in `preview1::linker`, but
//! act only on the descriptors this module opened. For any other descriptor (stdio, or one no
//! one opened) they call wasmtime-wasi's own implementation, the wiggle-generated
//! `wasmtime_wasi::p1::wasi_snapshot_preview1` functions, exactly as wasmtime-wasi's linker
//! calls them (the same memory view, hostcall bound and context getter, which counts the call's
//! fee once), so such calls answer and cost what they did before this module existed. In a
//! store without a data folder the table is empty and every call goes there. The two tables
//! never share a number: wasmtime-wasi's context has no preopened directory, so its descriptors
//! are stdio's 0, 1 and 2 at most (its `path_open` needs a directory of its own, and its
//! `fd_renumber` only moves a descriptor onto one it holds), and this module's are 3 and up.
//!
//! **Semantics** are `data_fs`'s (a component's), whose functions do the work: paths resolve
//! with [`data_fs::resolve`] (`..` within the base, never above it, and no absolute paths:
//! `EPERM`), `path_open` with [`data_fs::open_node`] (creating, truncating, exclusive, or the
//! `fd_write` right: `EROFS`, whatever the path; `O_DIRECTORY` on a file: `ENOTDIR`; missing:
//! `ENOENT`), reads with [`data_fs::read_span`] (at most `MAX_HOSTCALL_BYTES` a call), and every
//! change is refused with [`data_fs::refuse_change`] (`EPERM` for a path that is absolute or
//! leaves its base, else `EROFS`), errnos mapped as wasmtime-wasi maps `wasi:filesystem` codes.
//! Where preview1 has calls of its own, they answer as wasmtime-wasi's do for its read-only
//! folders: `fd_readdir` lists `.` and `..` first (cookies 1 and 2, the directory's inode for
//! both), then the entries sorted by name (cookies from 3), in the `dirent` layout, the last
//! one cut at the buffer's end; `fd_seek` past the end is allowed, on a directory it is `EBADF`;
//! `fd_prestat_get` describes only the preopen (another data descriptor is `EBADF`,
//! `fd_prestat_dir_name` on one `ENOTDIR`); `fd_filestat_get` and `path_filestat_get` give device
//! 1, the entry's `metadata-hash` (lower half) as its inode, one link, directories of size 0 and
//! every time 0; `fd_fdstat_get` gives no flags and every right but writing (and for the
//! preopen, the fixed set wasmtime-wasi gives any preopen, which C libraries read to build their
//! opens);
//! `fd_fdstat_set_flags` and `fd_fdstat_set_rights` are `ENOTSUP` (asking for no flags
//! succeeds); `fd_advise` succeeds on a file (`EBADF` on a directory); `fd_sync` and
//! `fd_datasync` succeed with no effect (a component's `sync`); `fd_write` stays
//! `preview1`'s (`EBADF` on a data descriptor); `fd_pwrite`, `fd_allocate`,
//! `fd_filestat_set_size` and `fd_filestat_set_times` are `EROFS`; `path_readlink` resolves its
//! path, then `EINVAL` (no entry is a link). A guest pointer or length outside memory is
//! `EFAULT`, checked before anything is charged or changed; a path over `MAX_HOSTCALL_BYTES`
//! is `ENAMETOOLONG`, and one that is not UTF-8 `EILSEQ`. At most [`MAX_OPEN_DATA_FDS`] data
//! descriptors are open at once (`EMFILE`); `fd_close` frees one (the preopen too). Not shadowed,
//! and so `EBADF` on a data descriptor as before: `fd_renumber` (Go's runtime never renumbers),
//! the socket calls, and `preview1`'s `poll_oneoff` (Go polls a descriptor only after a read
//! answered `EAGAIN`, which no data read does).
//!
//! **Charges** are `data_fs`'s, each before its work (`host_fuel`): every call counts one
//! host-call fee; every path argument pays [`crate::budget::FUEL_PER_PATH_BYTE`] a byte
//! (resolved or not: it was copied), the rest [`crate::budget::FUEL_PER_BYTE`]; every read, the bytes it returns;
//! every entry `fd_readdir` writes (even in part, `.` and `..` included), `data_fs`'s price of a
//! listed entry (`FUEL_PER_DIRECTORY_ENTRY` and its name's bytes); and, as `preview1`'s
//! `fd_write` pays for its own, `fd_read` and `fd_pread` pay the bytes of the iovec array they
//! read. Everything else is constant work, paid by the fee.

use crate::budget::MAX_HOSTCALL_BYTES;
use crate::data::{DataTree, NodeId, NodeKind, ROOT};
use crate::data_fs::{self, DATA_PREOPEN, DataPayer};
use crate::host_fuel::{charge, charge_fuel, charge_path};
use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use wasmtime::{AsContextMut, Caller, Extern, Linker, Memory};
use wasmtime_wasi::p1::WasiP1Ctx;
use wasmtime_wasi::p1::types::{Advice, Errno, Fdflags, Filetype, Lookupflags, Oflags, Rights, Whence};
use wasmtime_wasi::p1::wasi_snapshot_preview1::{self as wasip1, WasiSnapshotPreview1};
use wasmtime_wasi::p2::bindings::filesystem::types::{DescriptorFlags, DescriptorType, ErrorCode, OpenFlags};
use wiggle::GuestMemory;

/// What the data functions need of a store's data ([`crate::store::BotState`]).
pub(crate) trait Preview1DataPayer: DataPayer {
    /// The store's open data descriptors.
    fn data_fds(&mut self) -> &mut DataFds;
    /// wasmtime-wasi's preview1 context, the call counted (its fee), for a call handed to it.
    fn counted_wasi_p1(&mut self) -> &mut WasiP1Ctx;
}

/// The data folder's descriptor: the first after stdio, where C libraries and Go's runtime
/// start looking for preopens.
pub const DATA_PREOPEN_FD: u32 = 3;

/// Most data descriptors open at once, the preopen included: a bot opening more is answered
/// `EMFILE`. Each is a few words of host memory.
pub const MAX_OPEN_DATA_FDS: usize = 1024;

/// A store's open data descriptors, by number.
#[derive(Default)]
pub struct DataFds {
    open: BTreeMap<u32, DataFd>,
}

/// An open data descriptor: its entry of the tree, its read position (files), and whether it
/// is the preopen.
#[derive(Clone, Copy)]
struct DataFd {
    node: NodeId,
    position: u64,
    preopen: bool,
}

impl DataFds {
    /// The table of a store given a data folder: its root preopened as [`DATA_PREOPEN_FD`].
    pub(crate) fn preopened() -> DataFds {
        let root = DataFd { node: ROOT, position: 0, preopen: true };
        DataFds { open: BTreeMap::from([(DATA_PREOPEN_FD, root)]) }
    }

    fn get(&self, fd: i32) -> Option<DataFd> {
        self.open.get(&(fd as u32)).copied()
    }

    /// Opens `node` at the lowest free number from [`DATA_PREOPEN_FD`] on (as POSIX numbers
    /// descriptors); `None` when [`MAX_OPEN_DATA_FDS`] are open.
    fn open(&mut self, node: NodeId) -> Option<u32> {
        if self.open.len() >= MAX_OPEN_DATA_FDS {
            return None;
        }
        let mut fd = DATA_PREOPEN_FD;
        for &used in self.open.keys() {
            if used != fd {
                break;
            }
            fd += 1;
        }
        self.open.insert(fd, DataFd { node, position: 0, preopen: false });
        Some(fd)
    }

    fn set_position(&mut self, fd: i32, position: u64) {
        if let Some(open) = self.open.get_mut(&(fd as u32)) {
            open.position = position;
        }
    }

    fn close(&mut self, fd: i32) {
        self.open.remove(&(fd as u32));
    }
}

/// preview1's `errno` values the arena's functions return (wasmtime-wasi's numbering).
pub(crate) mod errno {
    use super::Errno;

    pub const SUCCESS: i32 = Errno::Success as i32;
    pub const BADF: i32 = Errno::Badf as i32;
    pub const FAULT: i32 = Errno::Fault as i32;
    pub const ILSEQ: i32 = Errno::Ilseq as i32;
    pub const INVAL: i32 = Errno::Inval as i32;
    pub const IO: i32 = Errno::Io as i32;
    pub const ISDIR: i32 = Errno::Isdir as i32;
    pub const MFILE: i32 = Errno::Mfile as i32;
    pub const NAMETOOLONG: i32 = Errno::Nametoolong as i32;
    pub const NOTDIR: i32 = Errno::Notdir as i32;
    pub const NOTSUP: i32 = Errno::Notsup as i32;
    pub const ROFS: i32 = Errno::Rofs as i32;
}

/// The errno of a `wasi:filesystem` error code, as wasmtime-wasi's preview1 maps it.
fn errno_of(code: ErrorCode) -> i32 {
    Errno::from(code) as i32
}

type HostFuture<'a> = Box<dyn Future<Output = wasmtime::Result<i32>> + Send + 'a>;

/// Answers `$caller`'s call of preview1 function `$func($args)` with wasmtime-wasi's own
/// implementation, exactly as the functions `wasmtime_wasi::p1::add_to_linker_async` links do:
/// the exported memory as wiggle's view of it, the store's hostcall bound handed to the context,
/// the context taken once through the counting getter (the call's one fee).
macro_rules! delegate {
    ($caller:ident, $func:ident($($arg:expr),* $(,)?) $(, $await:tt)?) => {{
        let export = $caller.get_export("memory");
        let fuel = $caller.as_context_mut().hostcall_fuel();
        match &export {
            Some(Extern::Memory(memory)) => {
                let (bytes, state) = memory.data_and_store_mut(&mut $caller);
                let ctx = state.counted_wasi_p1();
                ctx.set_hostcall_fuel(fuel);
                wasip1::$func(ctx, &mut GuestMemory::Unshared(bytes), $($arg),*)$(.$await)?
            }
            Some(Extern::SharedMemory(memory)) => {
                let ctx = $caller.data_mut().counted_wasi_p1();
                ctx.set_hostcall_fuel(fuel);
                wasip1::$func(ctx, &mut GuestMemory::Shared(memory.data()), $($arg),*)$(.$await)?
            }
            _ => wasmtime::bail!("missing required memory export"),
        }
    }};
}

/// The bot's tree and its data descriptor `fd`, if `fd` is one.
fn lookup<T: Preview1DataPayer>(state: &mut T, fd: i32) -> Option<(Arc<DataTree>, DataFd)> {
    let tree = state.data_fs().tree()?.clone();
    let open = state.data_fds().get(fd)?;
    Some((tree, open))
}

/// Defines the data functions (module documentation) in `linker`, over wasmtime-wasi's
/// preview1 in import module `module`; shadowing must be allowed.
pub(crate) fn add_to_linker<T: Preview1DataPayer>(linker: &mut Linker<T>, module: &str) -> wasmtime::Result<()> {
    linker.func_wrap_async(module, "fd_prestat_get", fd_prestat_get::<T>)?;
    linker.func_wrap_async(module, "fd_prestat_dir_name", fd_prestat_dir_name::<T>)?;
    linker.func_wrap_async(module, "path_open", path_open::<T>)?;
    linker.func_wrap_async(module, "fd_read", fd_read::<T>)?;
    linker.func_wrap_async(module, "fd_pread", fd_pread::<T>)?;
    linker.func_wrap_async(module, "fd_seek", fd_seek::<T>)?;
    linker.func_wrap_async(module, "fd_tell", fd_tell::<T>)?;
    linker.func_wrap_async(module, "fd_readdir", fd_readdir::<T>)?;
    linker.func_wrap_async(module, "fd_filestat_get", fd_filestat_get::<T>)?;
    linker.func_wrap_async(module, "path_filestat_get", path_filestat_get::<T>)?;
    linker.func_wrap_async(module, "fd_fdstat_get", fd_fdstat_get::<T>)?;
    linker.func_wrap_async(module, "fd_fdstat_set_flags", fd_fdstat_set_flags::<T>)?;
    linker.func_wrap_async(module, "fd_fdstat_set_rights", fd_fdstat_set_rights::<T>)?;
    linker.func_wrap_async(module, "fd_close", fd_close::<T>)?;
    linker.func_wrap_async(module, "fd_advise", fd_advise::<T>)?;
    linker.func_wrap_async(module, "fd_sync", fd_sync::<T>)?;
    linker.func_wrap_async(module, "fd_datasync", fd_datasync::<T>)?;
    linker.func_wrap_async(module, "fd_pwrite", fd_pwrite::<T>)?;
    linker.func_wrap_async(module, "fd_allocate", fd_allocate::<T>)?;
    linker.func_wrap_async(module, "fd_filestat_set_size", fd_filestat_set_size::<T>)?;
    linker.func_wrap_async(module, "fd_filestat_set_times", fd_filestat_set_times::<T>)?;
    linker.func_wrap_async(module, "path_readlink", path_readlink::<T>)?;
    linker.func_wrap_async(module, "path_create_directory", path_create_directory::<T>)?;
    linker.func_wrap_async(module, "path_remove_directory", path_remove_directory::<T>)?;
    linker.func_wrap_async(module, "path_unlink_file", path_unlink_file::<T>)?;
    linker.func_wrap_async(module, "path_filestat_set_times", path_filestat_set_times::<T>)?;
    linker.func_wrap_async(module, "path_rename", path_rename::<T>)?;
    linker.func_wrap_async(module, "path_link", path_link::<T>)?;
    linker.func_wrap_async(module, "path_symlink", path_symlink::<T>)?;
    Ok(())
}

/// Bytes of a preview1 `prestat`, `fdstat`, `filestat` and `dirent` (its header; the name
/// follows it) and of an `iovec`.
const PRESTAT_SIZE: usize = 8;
const FDSTAT_SIZE: usize = 24;
const FILESTAT_SIZE: usize = 64;
const DIRENT_SIZE: usize = 24;
const IOVEC_SIZE: u64 = 8;

/// `fd_prestat_get(fd, buf) -> errno`: the preopen is a directory named [`DATA_PREOPEN`].
fn fd_prestat_get<T: Preview1DataPayer>(mut caller: Caller<'_, T>, (fd, buf): (i32, i32)) -> HostFuture<'_> {
    Box::new(async move {
        let Some((_, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, fd_prestat_get(fd, buf));
        };
        caller.data_mut().count_host_call();
        if !open.preopen {
            return Ok(errno::BADF);
        }
        // Tag 0 (a directory), then the name's length.
        let mut prestat = [0u8; PRESTAT_SIZE];
        prestat[4..8].copy_from_slice(&(DATA_PREOPEN.len() as u32).to_le_bytes());
        let memory = exported_memory(&mut caller)?;
        Ok(answer(write(&memory, &mut caller, buf, &prestat)))
    })
}

/// `fd_prestat_dir_name(fd, path, path_len) -> errno`: [`DATA_PREOPEN`], if it fits.
fn fd_prestat_dir_name<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, path, path_len): (i32, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        let Some((_, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, fd_prestat_dir_name(fd, path, path_len));
        };
        caller.data_mut().count_host_call();
        if !open.preopen {
            return Ok(errno::NOTDIR);
        }
        if DATA_PREOPEN.len() > path_len as u32 as usize {
            return Ok(errno::NAMETOOLONG);
        }
        let memory = exported_memory(&mut caller)?;
        Ok(answer(write(&memory, &mut caller, path, DATA_PREOPEN.as_bytes())))
    })
}

/// `path_open(fd, dirflags, path, path_len, oflags, rights_base, rights_inheriting, fdflags,
/// opened) -> errno`: the flags read as wasmtime-wasi reads them, the entry as `data_fs` opens it.
fn path_open<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, dirflags, path, path_len, oflags, rights_base, rights_inheriting, fdflags, opened): (
        i32,
        i32,
        i32,
        i32,
        i32,
        i64,
        i64,
        i32,
        i32,
    ),
) -> HostFuture<'_> {
    Box::new(async move {
        let Some((tree, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(
                caller,
                path_open(fd, dirflags, path, path_len, oflags, rights_base, rights_inheriting, fdflags, opened),
                await
            );
        };
        caller.data_mut().count_host_call();
        // Flags with bits preview1 does not define are refused, as wiggle refuses them.
        let (Ok(_), Ok(oflags), Ok(rights), Ok(_), Ok(_)) = (
            Lookupflags::try_from(dirflags),
            Oflags::try_from(oflags),
            Rights::try_from(rights_base),
            Rights::try_from(rights_inheriting),
            Fdflags::try_from(fdflags),
        ) else {
            return Ok(errno::INVAL);
        };
        let memory = exported_memory(&mut caller)?;
        if range(&memory, &caller, opened, 4).is_none() {
            return Ok(errno::FAULT);
        }
        let path = match read_paths(&mut caller, &memory, [(path, path_len)]).await? {
            Ok([path]) => path,
            Err(errno) => return Ok(errno),
        };
        let mut open_flags = OpenFlags::empty();
        for (oflag, open_flag) in [
            (Oflags::CREAT, OpenFlags::CREATE),
            (Oflags::DIRECTORY, OpenFlags::DIRECTORY),
            (Oflags::EXCL, OpenFlags::EXCLUSIVE),
            (Oflags::TRUNC, OpenFlags::TRUNCATE),
        ] {
            if oflags.contains(oflag) {
                open_flags |= open_flag;
            }
        }
        // Only the read and write rights mean something to the descriptor (wasmtime-wasi's
        // reading); the others are what C libraries and Go ask for by default, writing ones
        // included (`fd_filestat_set_size`, ...), and refused when used.
        let mut flags = DescriptorFlags::empty();
        if rights.contains(Rights::FD_READ) {
            flags |= DescriptorFlags::READ;
        }
        if rights.contains(Rights::FD_WRITE) {
            flags |= DescriptorFlags::WRITE;
        }
        let node = match data_fs::open_node(&tree, open.node, &path, open_flags, flags) {
            Ok(node) => node,
            Err(code) => return Ok(errno_of(code)),
        };
        let Some(new) = caller.data_mut().data_fds().open(node) else { return Ok(errno::MFILE) };
        if write(&memory, &mut caller, opened, &new.to_le_bytes()).is_none() {
            // Checked above: memory does not shrink. Never leave a descriptor the bot was not told of.
            caller.data_mut().data_fds().close(new as i32);
            return Ok(errno::FAULT);
        }
        Ok(errno::SUCCESS)
    })
}

/// `fd_read(fd, iovs, iovs_len, nread) -> errno`: from the descriptor's position, which moves
/// past what was read.
fn fd_read<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, iovs, iovs_len, nread): (i32, i32, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        let Some((tree, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, fd_read(fd, iovs, iovs_len, nread), await);
        };
        caller.data_mut().count_host_call();
        match read_into(&mut caller, &tree, open, open.position, (iovs, iovs_len), nread).await? {
            Ok(read) => {
                caller.data_mut().data_fds().set_position(fd, open.position.saturating_add(read));
                Ok(errno::SUCCESS)
            }
            Err(errno) => Ok(errno),
        }
    })
}

/// `fd_pread(fd, iovs, iovs_len, offset, nread) -> errno`: from `offset`; the position stays.
fn fd_pread<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, iovs, iovs_len, offset, nread): (i32, i32, i32, i64, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        let Some((tree, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, fd_pread(fd, iovs, iovs_len, offset, nread), await);
        };
        caller.data_mut().count_host_call();
        let read = read_into(&mut caller, &tree, open, offset as u64, (iovs, iovs_len), nread).await?;
        Ok(read.map_or_else(|errno| errno, |_| errno::SUCCESS))
    })
}

/// Reads file `open` from `offset` into the first non-empty buffer of the iovec array `iovs`
/// (as wasmtime-wasi fills only that one) and writes the count at `nread`: that count, or an
/// errno. The array is charged before it is read, the bytes before they are copied.
async fn read_into<T: Preview1DataPayer>(
    caller: &mut Caller<'_, T>,
    tree: &DataTree,
    open: DataFd,
    offset: u64,
    (iovs, iovs_len): (i32, i32),
    nread: i32,
) -> wasmtime::Result<Result<u64, i32>> {
    if data_fs::is_dir(tree, open.node) {
        return Ok(Err(errno::ISDIR));
    }
    let memory = exported_memory(caller)?;
    let array_len = u64::from(iovs_len as u32).saturating_mul(IOVEC_SIZE);
    if range(&memory, caller, nread, 4).is_none() || range(&memory, caller, iovs, array_len).is_none() {
        return Ok(Err(errno::FAULT));
    }
    charge(&mut caller.as_context_mut(), array_len).await?;
    let Some(array) = read(&memory, caller, iovs, array_len) else { return Ok(Err(errno::FAULT)) };
    let buffer = array
        .chunks_exact(IOVEC_SIZE as usize)
        .map(|iovec| (u32_at(iovec, 0) as i32, u64::from(u32_at(iovec, 4))))
        .find(|&(_, len)| len > 0);
    let (ptr, len) = buffer.unwrap_or((0, 0));
    if range(&memory, caller, ptr, len).is_none() {
        return Ok(Err(errno::FAULT));
    }
    let bytes = match data_fs::read_span(tree, open.node, len, offset) {
        Ok((bytes, _)) => bytes,
        Err(code) => return Ok(Err(errno_of(code))),
    };
    charge(&mut caller.as_context_mut(), bytes.len() as u64).await?;
    if write(&memory, caller, ptr, &bytes).is_none()
        || write(&memory, caller, nread, &(bytes.len() as u32).to_le_bytes()).is_none()
    {
        return Ok(Err(errno::FAULT));
    }
    Ok(Ok(bytes.len() as u64))
}

/// `fd_seek(fd, offset, whence, newoffset) -> errno`: as wasmtime-wasi moves a file's position
/// (past the end allowed, before the start `EINVAL`); a directory has none (`EBADF`).
fn fd_seek<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, offset, whence, newoffset): (i32, i64, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        let Some((tree, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, fd_seek(fd, offset, whence, newoffset), await);
        };
        caller.data_mut().count_host_call();
        if data_fs::is_dir(&tree, open.node) {
            return Ok(errno::BADF);
        }
        let memory = exported_memory(&mut caller)?;
        if range(&memory, &caller, newoffset, 8).is_none() {
            return Ok(errno::FAULT);
        }
        let position = match Whence::try_from(whence) {
            Ok(Whence::Set) => u64::try_from(offset).ok(),
            Ok(Whence::Cur) => open.position.checked_add_signed(offset),
            Ok(Whence::End) => data_fs::stat(&tree, open.node).size.checked_add_signed(offset),
            Err(_) => None,
        };
        let Some(position) = position else { return Ok(errno::INVAL) };
        caller.data_mut().data_fds().set_position(fd, position);
        Ok(answer(write(&memory, &mut caller, newoffset, &position.to_le_bytes())))
    })
}

/// `fd_tell(fd, offset) -> errno`: a file's position; a directory has none (`EBADF`).
fn fd_tell<T: Preview1DataPayer>(mut caller: Caller<'_, T>, (fd, offset): (i32, i32)) -> HostFuture<'_> {
    Box::new(async move {
        let Some((tree, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, fd_tell(fd, offset));
        };
        caller.data_mut().count_host_call();
        if data_fs::is_dir(&tree, open.node) {
            return Ok(errno::BADF);
        }
        let memory = exported_memory(&mut caller)?;
        Ok(answer(write(&memory, &mut caller, offset, &open.position.to_le_bytes())))
    })
}

/// `fd_readdir(fd, buf, buf_len, cookie, bufused) -> errno`: the directory's entries from
/// `cookie` on, as wasmtime-wasi lays them out (module documentation), each charged before any
/// is written.
fn fd_readdir<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, buf, buf_len, cookie, bufused): (i32, i32, i32, i64, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        let Some((tree, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, fd_readdir(fd, buf, buf_len, cookie, bufused), await);
        };
        caller.data_mut().count_host_call();
        let Some(NodeKind::Dir(children)) = tree.node(open.node).map(|node| &node.kind) else {
            return Ok(errno::NOTDIR);
        };
        let capacity = buf_len as u32 as usize;
        let memory = exported_memory(&mut caller)?;
        if range(&memory, &caller, buf, capacity as u64).is_none() || range(&memory, &caller, bufused, 4).is_none() {
            return Ok(errno::FAULT);
        }
        // `.` and `..` (both with the directory's inode, as wasmtime-wasi gives them), then the
        // entries; each entry's cookie is its index, its `d_next` the one after it. What fits
        // (the last entry perhaps in part) and its price, before anything is written; only the
        // entries written are looked at.
        let dir_inode = data_fs::metadata_hash(&tree, open.node).lower;
        let mut index = usize::try_from(cookie as u64).unwrap_or(usize::MAX);
        let mut out = Vec::new();
        let mut fuel = 0u64;
        while out.len() < capacity {
            let (name, inode, kind) = match index {
                0 => (".", dir_inode, Filetype::Directory),
                1 => ("..", dir_inode, Filetype::Directory),
                _ => {
                    let child = children.get(index - 2).and_then(|&child| Some((child, tree.node(child)?)));
                    let Some((child, node)) = child else { break };
                    (node.name.as_str(), data_fs::metadata_hash(&tree, child).lower, filetype(&tree, child))
                }
            };
            let mut dirent = [0u8; DIRENT_SIZE];
            dirent[0..8].copy_from_slice(&(index as u64).saturating_add(1).to_le_bytes());
            dirent[8..16].copy_from_slice(&inode.to_le_bytes());
            dirent[16..20].copy_from_slice(&(name.len() as u32).to_le_bytes());
            dirent[20] = kind as u8;
            out.extend_from_slice(&dirent);
            out.extend_from_slice(name.as_bytes());
            fuel = fuel.saturating_add(data_fs::directory_entry_fuel(name));
            index = index.saturating_add(1);
        }
        out.truncate(capacity);
        charge_fuel(&mut caller.as_context_mut(), fuel).await?;
        if write(&memory, &mut caller, buf, &out).is_none() {
            return Ok(errno::FAULT);
        }
        Ok(answer(write(&memory, &mut caller, bufused, &(out.len() as u32).to_le_bytes())))
    })
}

/// The preview1 type of entry `node`.
fn filetype(tree: &DataTree, node: NodeId) -> Filetype {
    match data_fs::descriptor_type(tree, node) {
        DescriptorType::Directory => Filetype::Directory,
        _ => Filetype::RegularFile,
    }
}

/// Entry `node`'s `filestat`: device 1, its `metadata-hash` (lower half) as its inode, its type,
/// one link, its size, every time 0.
fn filestat(tree: &DataTree, node: NodeId) -> [u8; FILESTAT_SIZE] {
    let mut filestat = [0u8; FILESTAT_SIZE];
    filestat[0..8].copy_from_slice(&1u64.to_le_bytes());
    filestat[8..16].copy_from_slice(&data_fs::metadata_hash(tree, node).lower.to_le_bytes());
    filestat[16] = filetype(tree, node) as u8;
    filestat[24..32].copy_from_slice(&1u64.to_le_bytes());
    filestat[32..40].copy_from_slice(&data_fs::stat(tree, node).size.to_le_bytes());
    filestat
}

/// `fd_filestat_get(fd, buf) -> errno`.
fn fd_filestat_get<T: Preview1DataPayer>(mut caller: Caller<'_, T>, (fd, buf): (i32, i32)) -> HostFuture<'_> {
    Box::new(async move {
        let Some((tree, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, fd_filestat_get(fd, buf), await);
        };
        caller.data_mut().count_host_call();
        let memory = exported_memory(&mut caller)?;
        Ok(answer(write(&memory, &mut caller, buf, &filestat(&tree, open.node))))
    })
}

/// `path_filestat_get(fd, flags, path, path_len, buf) -> errno`: the path charged, then resolved.
fn path_filestat_get<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, flags, path, path_len, buf): (i32, i32, i32, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        let Some((tree, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, path_filestat_get(fd, flags, path, path_len, buf), await);
        };
        caller.data_mut().count_host_call();
        if Lookupflags::try_from(flags).is_err() {
            return Ok(errno::INVAL);
        }
        let memory = exported_memory(&mut caller)?;
        if range(&memory, &caller, buf, FILESTAT_SIZE as u64).is_none() {
            return Ok(errno::FAULT);
        }
        let path = match read_paths(&mut caller, &memory, [(path, path_len)]).await? {
            Ok([path]) => path,
            Err(errno) => return Ok(errno),
        };
        match data_fs::resolve(&tree, open.node, &path) {
            Ok(node) => Ok(answer(write(&memory, &mut caller, buf, &filestat(&tree, node)))),
            Err(code) => Ok(errno_of(code)),
        }
    })
}

/// `fd_fdstat_get(fd, buf) -> errno`: the type, no flags, and the rights wasmtime-wasi would
/// give a read-only descriptor (module documentation).
fn fd_fdstat_get<T: Preview1DataPayer>(mut caller: Caller<'_, T>, (fd, buf): (i32, i32)) -> HostFuture<'_> {
    Box::new(async move {
        let Some((tree, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, fd_fdstat_get(fd, buf), await);
        };
        caller.data_mut().count_host_call();
        let kind = filetype(&tree, open.node);
        let (base, inheriting) = if open.preopen {
            preopen_rights()
        } else {
            let mut rights = Rights::all() - Rights::FD_WRITE;
            if kind == Filetype::Directory {
                rights -= Rights::FD_SEEK | Rights::FD_FILESTAT_SET_SIZE | Rights::PATH_FILESTAT_SET_SIZE;
            }
            (rights, rights)
        };
        let mut fdstat = [0u8; FDSTAT_SIZE];
        fdstat[0] = kind as u8;
        fdstat[8..16].copy_from_slice(&base.bits().to_le_bytes());
        fdstat[16..24].copy_from_slice(&inheriting.bits().to_le_bytes());
        let memory = exported_memory(&mut caller)?;
        Ok(answer(write(&memory, &mut caller, buf, &fdstat)))
    })
}

/// The rights wasmtime-wasi gives every preopened directory, "expected by many userlands": C
/// libraries build the rights of their opens from them. Whatever they ask for, only reading
/// happens here.
fn preopen_rights() -> (Rights, Rights) {
    let base = Rights::PATH_CREATE_DIRECTORY
        | Rights::PATH_CREATE_FILE
        | Rights::PATH_LINK_SOURCE
        | Rights::PATH_LINK_TARGET
        | Rights::PATH_OPEN
        | Rights::FD_READDIR
        | Rights::PATH_READLINK
        | Rights::PATH_RENAME_SOURCE
        | Rights::PATH_RENAME_TARGET
        | Rights::PATH_SYMLINK
        | Rights::PATH_REMOVE_DIRECTORY
        | Rights::PATH_UNLINK_FILE
        | Rights::PATH_FILESTAT_GET
        | Rights::PATH_FILESTAT_SET_TIMES
        | Rights::FD_FILESTAT_GET
        | Rights::FD_FILESTAT_SET_TIMES;
    let inheriting = base
        | Rights::FD_DATASYNC
        | Rights::FD_READ
        | Rights::FD_SEEK
        | Rights::FD_FDSTAT_SET_FLAGS
        | Rights::FD_SYNC
        | Rights::FD_TELL
        | Rights::FD_WRITE
        | Rights::FD_ADVISE
        | Rights::FD_ALLOCATE
        | Rights::FD_FILESTAT_GET
        | Rights::FD_FILESTAT_SET_SIZE
        | Rights::FD_FILESTAT_SET_TIMES
        | Rights::POLL_FD_READWRITE;
    (base, inheriting)
}

/// `fd_fdstat_set_flags(fd, flags) -> errno`: a data descriptor keeps its flags, none
/// (`ENOTSUP`; asking for none succeeds). Go asks for `NONBLOCK` on every file it opens and,
/// refused, reads it blocking, which a data file never is.
fn fd_fdstat_set_flags<T: Preview1DataPayer>(mut caller: Caller<'_, T>, (fd, flags): (i32, i32)) -> HostFuture<'_> {
    Box::new(async move {
        if lookup(caller.data_mut(), fd).is_none() {
            return delegate!(caller, fd_fdstat_set_flags(fd, flags));
        }
        caller.data_mut().count_host_call();
        Ok(match Fdflags::try_from(flags) {
            Ok(flags) if flags.is_empty() => errno::SUCCESS,
            Ok(_) => errno::NOTSUP,
            Err(_) => errno::INVAL,
        })
    })
}

/// `fd_fdstat_set_rights(fd, base, inheriting) -> errno`: `ENOTSUP`, wasmtime-wasi's answer.
fn fd_fdstat_set_rights<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, base, inheriting): (i32, i64, i64),
) -> HostFuture<'_> {
    Box::new(async move {
        if lookup(caller.data_mut(), fd).is_none() {
            return delegate!(caller, fd_fdstat_set_rights(fd, base, inheriting));
        }
        caller.data_mut().count_host_call();
        Ok(errno::NOTSUP)
    })
}

/// `fd_close(fd) -> errno`: frees the number.
fn fd_close<T: Preview1DataPayer>(mut caller: Caller<'_, T>, (fd,): (i32,)) -> HostFuture<'_> {
    Box::new(async move {
        if lookup(caller.data_mut(), fd).is_none() {
            return delegate!(caller, fd_close(fd), await);
        }
        caller.data_mut().count_host_call();
        caller.data_mut().data_fds().close(fd);
        Ok(errno::SUCCESS)
    })
}

/// `fd_advise(fd, offset, len, advice) -> errno`: a hint with no effect; on a directory,
/// `EBADF` (`data_fs`'s `advise`).
fn fd_advise<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, offset, len, advice): (i32, i64, i64, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        let Some((tree, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, fd_advise(fd, offset, len, advice), await);
        };
        caller.data_mut().count_host_call();
        Ok(if Advice::try_from(advice).is_err() {
            errno::INVAL
        } else if data_fs::is_dir(&tree, open.node) {
            errno::BADF
        } else {
            errno::SUCCESS
        })
    })
}

/// `fd_sync(fd) -> errno`: nothing to write, success (a component's `sync`, as the WIT says
/// for a descriptor not open for writing).
fn fd_sync<T: Preview1DataPayer>(mut caller: Caller<'_, T>, (fd,): (i32,)) -> HostFuture<'_> {
    Box::new(async move {
        if lookup(caller.data_mut(), fd).is_none() {
            return delegate!(caller, fd_sync(fd), await);
        }
        caller.data_mut().count_host_call();
        Ok(errno::SUCCESS)
    })
}

/// `fd_datasync(fd) -> errno`: as `fd_sync`.
fn fd_datasync<T: Preview1DataPayer>(mut caller: Caller<'_, T>, (fd,): (i32,)) -> HostFuture<'_> {
    Box::new(async move {
        if lookup(caller.data_mut(), fd).is_none() {
            return delegate!(caller, fd_datasync(fd), await);
        }
        caller.data_mut().count_host_call();
        Ok(errno::SUCCESS)
    })
}

/// `fd_pwrite(fd, iovs, iovs_len, offset, nwritten) -> errno`: `EROFS`, nothing read.
fn fd_pwrite<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, iovs, iovs_len, offset, nwritten): (i32, i32, i32, i64, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        if lookup(caller.data_mut(), fd).is_none() {
            return delegate!(caller, fd_pwrite(fd, iovs, iovs_len, offset, nwritten), await);
        }
        caller.data_mut().count_host_call();
        Ok(errno::ROFS)
    })
}

/// `fd_allocate(fd, offset, len) -> errno`: `EROFS`.
fn fd_allocate<T: Preview1DataPayer>(mut caller: Caller<'_, T>, (fd, offset, len): (i32, i64, i64)) -> HostFuture<'_> {
    Box::new(async move {
        if lookup(caller.data_mut(), fd).is_none() {
            return delegate!(caller, fd_allocate(fd, offset, len));
        }
        caller.data_mut().count_host_call();
        Ok(errno::ROFS)
    })
}

/// `fd_filestat_set_size(fd, size) -> errno`: `EROFS`.
fn fd_filestat_set_size<T: Preview1DataPayer>(mut caller: Caller<'_, T>, (fd, size): (i32, i64)) -> HostFuture<'_> {
    Box::new(async move {
        if lookup(caller.data_mut(), fd).is_none() {
            return delegate!(caller, fd_filestat_set_size(fd, size), await);
        }
        caller.data_mut().count_host_call();
        Ok(errno::ROFS)
    })
}

/// `fd_filestat_set_times(fd, atim, mtim, fst_flags) -> errno`: `EROFS`.
fn fd_filestat_set_times<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, atim, mtim, fst_flags): (i32, i64, i64, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        if lookup(caller.data_mut(), fd).is_none() {
            return delegate!(caller, fd_filestat_set_times(fd, atim, mtim, fst_flags), await);
        }
        caller.data_mut().count_host_call();
        Ok(errno::ROFS)
    })
}

/// `path_readlink(fd, path, path_len, buf, buf_len, bufused) -> errno`: the path charged and
/// resolved; no entry is a link (`EINVAL`, `data_fs`'s `readlink-at`).
fn path_readlink<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, path, path_len, buf, buf_len, bufused): (i32, i32, i32, i32, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        let Some((tree, open)) = lookup(caller.data_mut(), fd) else {
            return delegate!(caller, path_readlink(fd, path, path_len, buf, buf_len, bufused), await);
        };
        caller.data_mut().count_host_call();
        let memory = exported_memory(&mut caller)?;
        let path = match read_paths(&mut caller, &memory, [(path, path_len)]).await? {
            Ok([path]) => path,
            Err(errno) => return Ok(errno),
        };
        Ok(match data_fs::resolve(&tree, open.node, &path) {
            Ok(_) => errno::INVAL,
            Err(code) => errno_of(code),
        })
    })
}

/// Answers a call that would change the tree at data directories `fds` (the first is the
/// caller's): its paths charged and read, then `refusal` of them (`EBADF` if another of `fds`
/// is not a data descriptor).
async fn refuse<T: Preview1DataPayer, const N: usize>(
    caller: &mut Caller<'_, T>,
    fds: &[i32],
    paths: [(i32, i32); N],
    refusal: impl FnOnce(&[String; N]) -> ErrorCode,
) -> wasmtime::Result<i32> {
    caller.data_mut().count_host_call();
    if fds.iter().any(|&fd| lookup(caller.data_mut(), fd).is_none()) {
        return Ok(errno::BADF);
    }
    let memory = exported_memory(caller)?;
    Ok(match read_paths(caller, &memory, paths).await? {
        Ok(paths) => errno_of(refusal(&paths)),
        Err(errno) => errno,
    })
}

/// Whether any of `fds` is a data descriptor: then the call is this module's.
fn any_data<T: Preview1DataPayer>(state: &mut T, fds: &[i32]) -> bool {
    fds.iter().any(|&fd| lookup(state, fd).is_some())
}

/// `path_create_directory(fd, path, path_len) -> errno`: refused (module documentation).
fn path_create_directory<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, path, path_len): (i32, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        if !any_data(caller.data_mut(), &[fd]) {
            return delegate!(caller, path_create_directory(fd, path, path_len), await);
        }
        refuse(&mut caller, &[fd], [(path, path_len)], |[path]| data_fs::refuse_change(&[path.as_str()])).await
    })
}

/// `path_remove_directory(fd, path, path_len) -> errno`: refused.
fn path_remove_directory<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, path, path_len): (i32, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        if !any_data(caller.data_mut(), &[fd]) {
            return delegate!(caller, path_remove_directory(fd, path, path_len), await);
        }
        refuse(&mut caller, &[fd], [(path, path_len)], |[path]| data_fs::refuse_change(&[path.as_str()])).await
    })
}

/// `path_unlink_file(fd, path, path_len) -> errno`: refused.
fn path_unlink_file<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, path, path_len): (i32, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        if !any_data(caller.data_mut(), &[fd]) {
            return delegate!(caller, path_unlink_file(fd, path, path_len), await);
        }
        refuse(&mut caller, &[fd], [(path, path_len)], |[path]| data_fs::refuse_change(&[path.as_str()])).await
    })
}

/// `path_filestat_set_times(fd, flags, path, path_len, atim, mtim, fst_flags) -> errno`: refused.
fn path_filestat_set_times<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, flags, path, path_len, atim, mtim, fst_flags): (i32, i32, i32, i32, i64, i64, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        if !any_data(caller.data_mut(), &[fd]) {
            return delegate!(caller, path_filestat_set_times(fd, flags, path, path_len, atim, mtim, fst_flags), await);
        }
        refuse(&mut caller, &[fd], [(path, path_len)], |[path]| data_fs::refuse_change(&[path.as_str()])).await
    })
}

/// `path_rename(fd, old, old_len, new_fd, new, new_len) -> errno`: refused.
fn path_rename<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (fd, old, old_len, new_fd, new, new_len): (i32, i32, i32, i32, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        if !any_data(caller.data_mut(), &[fd, new_fd]) {
            return delegate!(caller, path_rename(fd, old, old_len, new_fd, new, new_len), await);
        }
        let paths = [(old, old_len), (new, new_len)];
        refuse(&mut caller, &[fd, new_fd], paths, |[old, new]| data_fs::refuse_change(&[old.as_str(), new.as_str()]))
            .await
    })
}

/// `path_link(old_fd, old_flags, old, old_len, new_fd, new, new_len) -> errno`: refused.
fn path_link<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (old_fd, old_flags, old, old_len, new_fd, new, new_len): (i32, i32, i32, i32, i32, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        if !any_data(caller.data_mut(), &[old_fd, new_fd]) {
            return delegate!(caller, path_link(old_fd, old_flags, old, old_len, new_fd, new, new_len), await);
        }
        let paths = [(old, old_len), (new, new_len)];
        refuse(&mut caller, &[old_fd, new_fd], paths, |[old, new]| {
            data_fs::refuse_change(&[old.as_str(), new.as_str()])
        })
        .await
    })
}

/// `path_symlink(old, old_len, fd, new, new_len) -> errno`: refused (`data_fs`'s
/// `symlink-at`: the target is text, refused as such only when absolute).
fn path_symlink<T: Preview1DataPayer>(
    mut caller: Caller<'_, T>,
    (old, old_len, fd, new, new_len): (i32, i32, i32, i32, i32),
) -> HostFuture<'_> {
    Box::new(async move {
        if !any_data(caller.data_mut(), &[fd]) {
            return delegate!(caller, path_symlink(old, old_len, fd, new, new_len), await);
        }
        let paths = [(old, old_len), (new, new_len)];
        refuse(&mut caller, &[fd], paths, |[old, new]| data_fs::refuse_symlink(old, new)).await
    })
}

/// Charges the bytes of the paths at `paths` (pointer, length, [`crate::budget::FUEL_PER_PATH_BYTE`]
/// each), then copies them: the paths,
/// or `EFAULT` (outside memory), `ENAMETOOLONG` (over [`MAX_HOSTCALL_BYTES`]) or `EILSEQ` (not
/// UTF-8). Nothing is charged for a path that is not copied.
async fn read_paths<T: Preview1DataPayer, const N: usize>(
    caller: &mut Caller<'_, T>,
    memory: &Memory,
    paths: [(i32, i32); N],
) -> wasmtime::Result<Result<[String; N], i32>> {
    let mut total = 0u64;
    for (ptr, len) in paths {
        let len = u64::from(len as u32);
        if len > MAX_HOSTCALL_BYTES as u64 {
            return Ok(Err(errno::NAMETOOLONG));
        }
        if range(memory, caller, ptr, len).is_none() {
            return Ok(Err(errno::FAULT));
        }
        total += len;
    }
    charge_path(&mut caller.as_context_mut(), total).await?;
    let mut copied = [const { String::new() }; N];
    for ((ptr, len), path) in paths.into_iter().zip(copied.iter_mut()) {
        let Some(bytes) = read(memory, caller, ptr, u64::from(len as u32)) else { return Ok(Err(errno::FAULT)) };
        let Ok(text) = String::from_utf8(bytes) else { return Ok(Err(errno::ILSEQ)) };
        *path = text;
    }
    Ok(Ok(copied))
}

/// `SUCCESS` when an answer was written, `EFAULT` when its memory was not the bot's.
fn answer(written: Option<()>) -> i32 {
    if written.is_some() { errno::SUCCESS } else { errno::FAULT }
}

/// The calling module's memory, which preview1 functions read and write (a module without
/// one exported as `memory` cannot make them: it traps, as under wasmtime-wasi's own).
pub(crate) fn exported_memory<T>(caller: &mut Caller<'_, T>) -> wasmtime::Result<Memory> {
    caller.get_export("memory").and_then(Extern::into_memory).ok_or_else(|| {
        wasmtime::format_err!("a WASI preview1 call from a module that exports no memory named `memory`")
    })
}

/// `len` bytes at guest address `ptr`, if they are inside `memory`.
pub(crate) fn range<T>(memory: &Memory, caller: &Caller<'_, T>, ptr: i32, len: u64) -> Option<std::ops::Range<usize>> {
    let start = u64::from(ptr as u32);
    let end = start.checked_add(len)?;
    (end <= memory.data_size(caller) as u64).then_some(start as usize..end as usize)
}

/// A copy of the `len` bytes at guest address `ptr`, if they are inside `memory`.
pub(crate) fn read<T>(memory: &Memory, caller: &Caller<'_, T>, ptr: i32, len: u64) -> Option<Vec<u8>> {
    let range = range(memory, caller, ptr, len)?;
    memory.data(caller).get(range).map(<[u8]>::to_vec)
}

/// Writes `bytes` at guest address `ptr`, if they fit inside `memory`.
pub(crate) fn write<T>(memory: &Memory, caller: &mut Caller<'_, T>, ptr: i32, bytes: &[u8]) -> Option<()> {
    let range = range(memory, caller, ptr, bytes.len() as u64)?;
    memory.data_mut(caller).get_mut(range)?.copy_from_slice(bytes);
    Some(())
}

/// The little-endian `u16`, `u32` and `u64` at `at` of `bytes` (0 past their end: callers read
/// within records they sized).
pub(crate) fn u16_at(bytes: &[u8], at: usize) -> u16 {
    let mut word = [0; 2];
    if let Some(slice) = bytes.get(at..at + 2) {
        word.copy_from_slice(slice);
    }
    u16::from_le_bytes(word)
}

pub(crate) fn u32_at(bytes: &[u8], at: usize) -> u32 {
    let mut word = [0; 4];
    if let Some(slice) = bytes.get(at..at + 4) {
        word.copy_from_slice(slice);
    }
    u32::from_le_bytes(word)
}

pub(crate) fn u64_at(bytes: &[u8], at: usize) -> u64 {
    let mut word = [0; 8];
    if let Some(slice) = bytes.get(at..at + 8) {
        word.copy_from_slice(slice);
    }
    u64::from_le_bytes(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn data_descriptors_take_the_lowest_free_number_up_to_the_bound() {
        let mut fds = DataFds::preopened();
        assert_eq!((fds.open(1), fds.open(2)), (Some(4), Some(5)));
        fds.close(4);
        assert_eq!(fds.open(3), Some(4), "a closed number is reused first");
        fds.close(DATA_PREOPEN_FD as i32);
        assert_eq!(fds.open(3), Some(3));
        assert!(fds.get(3).is_some_and(|open| !open.preopen), "only the first 3 is the preopen");
        while fds.open.len() < MAX_OPEN_DATA_FDS {
            assert!(fds.open(1).is_some());
        }
        assert_eq!(fds.open(1), None, "EMFILE at the bound");
        fds.close(100);
        assert_eq!(fds.open(1), Some(100));
    }

    #[test]
    fn numbers_past_the_table_are_not_data_descriptors() {
        let fds = DataFds::preopened();
        assert!(fds.get(3).is_some_and(|open| open.preopen));
        for fd in [-1, 0, 1, 2, 4, i32::MAX] {
            assert!(fds.get(fd).is_none(), "{fd}");
        }
        assert!(DataFds::default().get(3).is_none(), "no tree, no preopen");
    }
}
