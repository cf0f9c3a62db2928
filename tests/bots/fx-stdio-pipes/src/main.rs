//! `fx-stdio-pipes`: a Paint line-protocol bot that first logs (on stderr, one line per fd)
//! what stdin, stdout and stderr answer to every positional or seek call, then plays: it shoots
//! east every turn.
//!
//! - Built for `wasm32-wasip1` it calls preview1 directly, as Zig's standard library does:
//!   `fd_pread`, `fd_pwrite`, `fd_seek`, `fd_tell`, `fd_advise`, `fd_allocate`, and
//!   `fd_fdstat_get` for the filetype and rights. It then reads stdin the way Zig's
//!   `File.Reader` does (`zig init`'s template): a positional read (`fd_pread`) first, and on
//!   `ESPIPE` streaming (`fd_read`) from then on; any other answer ends the program with an
//!   error, as Zig's reader gives up. The host wraps it with wasmtime's preview1 adapter,
//!   whose `fd_pread` on stdio said `EINVAL` until the host made stdio answer as pipes.
//! - Built for `wasm32-wasip2` there are no positional calls on stdio at the WASI level (stdio
//!   are streams); it logs what its C library (wasi-libc, which Rust's std stands on) answers
//!   to `pread`, `pwrite`, `lseek`, `posix_fadvise`, `posix_fallocate`, `fstat` and `isatty`,
//!   computed inside the guest, and reads stdin with Rust's std.
//!
//! The log lines are `<layer> fd<N> <call>=<errno name> ...` (the errno names of WASI, whose
//! numbers wasi-libc's errno uses too); the host's tests check them.

use paint_stdio_random::ACTIONS;

#[cfg(target_os = "wasi")]
mod probe {
    /// The WASI errno's name (wasi-libc's `errno` uses the same numbers).
    pub fn errno_name(errno: i32) -> String {
        match errno {
            0 => "ok".into(),
            8 => "EBADF".into(),
            28 => "EINVAL".into(),
            58 => "ENOTSUP".into(),
            70 => "ESPIPE".into(),
            76 => "ENOTCAPABLE".into(),
            other => format!("errno{other}"),
        }
    }

    /// Preview1, called directly (wasip1 only: a wasip2 build would reach the toolchain's own
    /// adapter, not what the arena provides).
    #[cfg(target_env = "p1")]
    #[allow(unsafe_code)] // raw preview1 imports, the point of this fixture
    pub mod preview1 {
        use super::errno_name;

        #[link(wasm_import_module = "wasi_snapshot_preview1")]
        unsafe extern "C" {
            fn fd_pread(fd: i32, iovs: i32, iovs_len: i32, offset: i64, nread: i32) -> i32;
            fn fd_pwrite(fd: i32, iovs: i32, iovs_len: i32, offset: i64, nwritten: i32) -> i32;
            fn fd_seek(fd: i32, offset: i64, whence: i32, newoffset: i32) -> i32;
            fn fd_tell(fd: i32, offset: i32) -> i32;
            fn fd_advise(fd: i32, offset: i64, len: i64, advice: i32) -> i32;
            fn fd_allocate(fd: i32, offset: i64, len: i64) -> i32;
            fn fd_fdstat_get(fd: i32, stat: i32) -> i32;
            fn fd_read(fd: i32, iovs: i32, iovs_len: i32, nread: i32) -> i32;
        }

        /// A preview1 `iovec`/`ciovec`.
        #[repr(C)]
        struct Iovec {
            buf: *mut u8,
            len: usize,
        }

        /// A preview1 `fdstat`.
        #[repr(C)]
        #[derive(Default)]
        struct Fdstat {
            filetype: u8,
            #[allow(dead_code)] // not logged; there for the layout
            flags: u16,
            rights_base: u64,
            rights_inheriting: u64,
        }

        fn address<T>(value: &mut T) -> i32 {
            value as *mut T as usize as i32
        }

        /// `fd_pread` of `buf.len()` bytes of `fd` at `offset`: the count read, or the errno.
        pub fn pread(fd: i32, buf: &mut [u8], offset: u64) -> Result<usize, i32> {
            let mut iov = Iovec { buf: buf.as_mut_ptr(), len: buf.len() };
            let mut read = 0_usize;
            // SAFETY: the iovec and the count point at live locals of the right layout.
            let errno = unsafe { fd_pread(fd, address(&mut iov), 1, offset as i64, address(&mut read)) };
            if errno == 0 { Ok(read) } else { Err(errno) }
        }

        /// `fd_read` of up to `buf.len()` bytes of `fd`: the count read, or the errno.
        pub fn read(fd: i32, buf: &mut [u8]) -> Result<usize, i32> {
            let mut iov = Iovec { buf: buf.as_mut_ptr(), len: buf.len() };
            let mut read = 0_usize;
            // SAFETY: as in `pread`.
            let errno = unsafe { fd_read(fd, address(&mut iov), 1, address(&mut read)) };
            if errno == 0 { Ok(read) } else { Err(errno) }
        }

        /// The line logged for `fd`.
        pub fn line(fd: i32) -> String {
            // A newline: were a write to stdout to succeed, a blank line is ignored by the host.
            let mut byte = [b'\n'];
            let mut iov = Iovec { buf: byte.as_mut_ptr(), len: 1 };
            let (mut count, mut position) = (0_usize, 0_u64);
            let mut stat = Fdstat::default();
            // SAFETY: every pointer is to a live local of the layout preview1 expects.
            let answers = unsafe {
                [
                    ("pread", fd_pread(fd, address(&mut iov), 1, 0, address(&mut count))),
                    ("pwrite", fd_pwrite(fd, address(&mut iov), 1, 0, address(&mut count))),
                    ("seek", fd_seek(fd, 0, 1, address(&mut position))),
                    ("tell", fd_tell(fd, address(&mut position))),
                    ("advise", fd_advise(fd, 0, 0, 0)),
                    ("allocate", fd_allocate(fd, 0, 1)),
                    ("fdstat", fd_fdstat_get(fd, address(&mut stat))),
                ]
            };
            let mut line = format!("preview1 fd{fd}");
            for (call, errno) in answers {
                line.push_str(&format!(" {call}={}", errno_name(errno)));
            }
            let filetype = match stat.filetype {
                0 => "unknown".to_owned(),
                2 => "character_device".to_owned(),
                4 => "regular_file".to_owned(),
                other => format!("filetype{other}"),
            };
            line.push_str(&format!(
                " filetype={filetype} rights={:#x}/{:#x}",
                stat.rights_base, stat.rights_inheriting
            ));
            line
        }
    }

    /// The C library's answers (both builds; on wasip1 wasi-libc passes preview1's errno on).
    #[allow(unsafe_code)] // libc calls on the process's own descriptors
    pub fn libc_line(fd: i32) -> String {
        let errno = || std::io::Error::last_os_error().raw_os_error().map_or("?".to_owned(), errno_name);
        let mut byte = [b'\n'];
        let result = |ret: i64, errno: String| if ret < 0 { errno } else { format!("ok({ret})") };
        // SAFETY: the buffers are live locals of the sizes given; `stat` is plain data.
        unsafe {
            let pread = libc::pread(fd, byte.as_mut_ptr().cast(), 1, 0) as i64;
            let pread = result(pread, errno());
            let pwrite = libc::pwrite(fd, byte.as_ptr().cast(), 1, 0) as i64;
            let pwrite = result(pwrite, errno());
            let lseek = libc::lseek(fd, 0, libc::SEEK_CUR);
            let lseek = result(lseek, errno());
            // posix_fadvise and posix_fallocate return the error number rather than set errno.
            let fadvise = errno_name(libc::posix_fadvise(fd, 0, 0, libc::POSIX_FADV_NORMAL));
            let fallocate = errno_name(libc::posix_fallocate(fd, 0, 1));
            let mut stat: libc::stat = std::mem::zeroed();
            let fstat = libc::fstat(fd, &mut stat);
            let fstat = if fstat < 0 { errno() } else { "ok".to_owned() };
            let isatty = libc::isatty(fd);
            format!(
                "libc fd{fd} pread={pread} pwrite={pwrite} lseek={lseek} fadvise={fadvise} fallocate={fallocate} \
                 fstat={fstat} type={:o} isatty={isatty}",
                stat.st_mode & libc::S_IFMT
            )
        }
    }
}

/// Stdin read the way Zig's `File.Reader` reads it: positional reads until one answers `ESPIPE`,
/// then streaming; any other error ends the program.
#[cfg(target_env = "p1")]
mod zig_style {
    use super::probe::{errno_name, preview1};

    /// Where the reader is: reading at `offset`, or streaming.
    enum Mode {
        Positional { offset: u64 },
        Streaming,
    }

    /// A line reader over stdin.
    pub struct Stdin {
        mode: Mode,
        /// Bytes read and not yet returned; the first `scanned` hold no newline.
        pending: Vec<u8>,
        scanned: usize,
        chunk: Vec<u8>,
    }

    impl Stdin {
        pub fn new() -> Stdin {
            Stdin { mode: Mode::Positional { offset: 0 }, pending: Vec::new(), scanned: 0, chunk: vec![0; 64 << 10] }
        }

        /// The next line without its newline; `None` at the end of stdin.
        pub fn line(&mut self) -> Option<String> {
            loop {
                let unscanned = self.pending.get(self.scanned..).unwrap_or_default();
                if let Some(end) = unscanned.iter().position(|byte| *byte == b'\n').map(|at| self.scanned + at) {
                    let line = String::from_utf8_lossy(&self.pending[..end]).into_owned();
                    self.pending.drain(..=end);
                    self.scanned = 0;
                    return Some(line);
                }
                self.scanned = self.pending.len();
                let chunk = &mut self.chunk;
                let read = match self.mode {
                    Mode::Positional { offset } => match preview1::pread(0, chunk, offset) {
                        Ok(read) => {
                            self.mode = Mode::Positional { offset: offset + read as u64 };
                            read
                        }
                        Err(70) => {
                            eprintln!("stdin: pread answered ESPIPE, streaming");
                            self.mode = Mode::Streaming;
                            continue;
                        }
                        Err(errno) => {
                            eprintln!("stdin: pread answered {}: giving up, as Zig's reader does", errno_name(errno));
                            std::process::exit(1);
                        }
                    },
                    Mode::Streaming => match preview1::read(0, chunk) {
                        Ok(read) => read,
                        Err(errno) => {
                            eprintln!("stdin: read answered {}", errno_name(errno));
                            std::process::exit(1);
                        }
                    },
                };
                if read == 0 {
                    return None;
                }
                self.pending.extend_from_slice(&self.chunk[..read]);
            }
        }
    }
}

fn main() -> std::io::Result<()> {
    #[cfg(target_os = "wasi")]
    for fd in 0..3 {
        #[cfg(target_env = "p1")]
        eprintln!("{}", probe::preview1::line(fd));
        eprintln!("{}", probe::libc_line(fd));
    }
    // Shoot east (a valid action from any square).
    let shoot_east = ACTIONS[8 + 2];
    #[cfg(target_env = "p1")]
    {
        use paint_stdio_random::{State, player_id};
        use std::io::Write;
        let mut stdin = zig_style::Stdin::new();
        let mut out = std::io::stdout().lock();
        let mut me = String::new();
        while let Some(line) = stdin.line() {
            // Only the first line can be the greeting; parsing every state in full (its history
            // grows every turn) would cost more fuel than the rest of the turn.
            if me.is_empty()
                && let Some(id) = player_id(&line)
            {
                me = id;
                writeln!(out, r#"{{"ready":true}}"#)?;
            } else if let Some(state) = State::parse(&me, &line) {
                writeln!(out, "{}", state.answer(shoot_east))?;
            }
            out.flush()?;
        }
        Ok(())
    }
    #[cfg(not(target_env = "p1"))]
    paint_stdio_random::play(|state| Some(state.answer(shoot_east)))
}
