//! Opening a file whose path comes from outside (a replay, a bot a replay names, a plan or a
//! SPEC a user names): only a regular
//! file is opened, and opening never blocks. `File::open` on a named pipe waits for a writer, so
//! a replay naming a FIFO as its bot would hang `arena replay verify` forever; a directory, a
//! socket or a device is no replay or bot either.

use std::fs::{File, Metadata};
use std::path::{Path, PathBuf};

/// Why a path could not be opened as a regular file.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    /// It could not be examined or opened.
    #[error("{path}: cannot read ({source})")]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// It is not a regular file.
    #[error("{path}: is {kind}, not a regular file")]
    NotRegular {
        /// The path.
        path: PathBuf,
        /// What it is: "a named pipe (FIFO)", "a directory", ...
        kind: &'static str,
    },
}

/// Why a text file ([`read_text`]) could not be read.
#[derive(Debug, thiserror::Error)]
pub enum TextError {
    /// It could not be opened as a regular file.
    #[error(transparent)]
    Open(#[from] OpenError),
    /// It is larger than its reader's bound.
    #[error("{path}: {size} bytes is over the {limit}-byte limit")]
    TooLarge {
        /// The path.
        path: PathBuf,
        /// Its size (at least).
        size: u64,
        /// The bound.
        limit: u64,
    },
    /// It is not UTF-8.
    #[error("{path}: not UTF-8 text")]
    NotText {
        /// The path.
        path: PathBuf,
    },
}

/// The whole text of the regular file at `path` ([`open`]), refused over `limit` bytes (at most
/// one byte more is read) or when it is not UTF-8: for the plans and SPECs a user names.
pub fn read_text(path: &Path, limit: u64) -> Result<String, TextError> {
    use std::io::Read;
    let (file, metadata) = open(path)?;
    let too_large = |size| TextError::TooLarge { path: path.to_owned(), size, limit };
    if metadata.len() > limit {
        return Err(too_large(metadata.len()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.take(limit + 1).read_to_end(&mut bytes).map_err(|source| OpenError::Io { path: path.to_owned(), source })?;
    if bytes.len() as u64 > limit {
        return Err(too_large(bytes.len() as u64));
    }
    String::from_utf8(bytes).map_err(|_| TextError::NotText { path: path.to_owned() })
}

/// Opens `path` for reading if it is a regular file (a symlink to one is followed), with the
/// opened file's metadata. The path's type is checked before opening, so a named pipe or a
/// device is never opened; the file is opened without blocking (`O_NONBLOCK`) and its type
/// checked again on the handle, so one swapped in between the two is refused too.
pub fn open(path: &Path) -> Result<(File, Metadata), OpenError> {
    let io = |source| OpenError::Io { path: path.to_owned(), source };
    check(path, &std::fs::metadata(path).map_err(io)?)?;
    let file = open_nonblocking(path).map_err(io)?;
    let metadata = file.metadata().map_err(io)?;
    check(path, &metadata)?;
    Ok((file, metadata))
}

/// Refuses anything but a regular file.
fn check(path: &Path, metadata: &Metadata) -> Result<(), OpenError> {
    if metadata.is_file() {
        return Ok(());
    }
    Err(OpenError::NotRegular { path: path.to_owned(), kind: kind(metadata) })
}

/// What a path that is not a regular file is, for messages.
fn kind(metadata: &Metadata) -> &'static str {
    let file_type = metadata.file_type();
    if file_type.is_dir() {
        return "a directory";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
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
    "something else"
}

/// Opens for reading without waiting for a writer: a regular file reads the same with or
/// without `O_NONBLOCK`.
#[cfg(unix)]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    let nonblocking = rustix::fs::OFlags::NONBLOCK.bits() as i32;
    std::fs::OpenOptions::new().read(true).custom_flags(nonblocking).open(path)
}

/// Elsewhere only the check before opening applies.
#[cfg(not(unix))]
fn open_nonblocking(path: &Path) -> std::io::Result<File> {
    File::open(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("arena-regular-file-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    /// Obeyed: a regular file, also through a symlink, opens and reads.
    #[test]
    fn a_regular_file_opens_also_through_a_symlink() {
        let dir = scratch("regular");
        let path = dir.join("bot.wasm");
        std::fs::write(&path, b"bytes").unwrap();
        let link = dir.join("link.wasm");
        std::os::unix::fs::symlink(&path, &link).unwrap();
        for path in [&path, &link] {
            let (mut file, metadata) = open(path).unwrap();
            assert_eq!(metadata.len(), 5);
            let mut text = String::new();
            file.read_to_string(&mut text).unwrap();
            assert_eq!(text, "bytes");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Violated: a named pipe (nobody writing it) and a directory are refused without blocking,
    /// saying what they are; a missing file cannot be read.
    #[test]
    fn a_fifo_or_a_directory_is_refused_without_blocking() {
        let dir = scratch("fifo");
        let fifo = dir.join("bot.wasm");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        // A regression would block in `open`: on a thread, so the test fails instead of hanging.
        let (sent, received) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || sent.send(open(&path).map(drop)));
        match received.recv_timeout(std::time::Duration::from_secs(60)).expect("open blocked on a FIFO") {
            Err(err @ OpenError::NotRegular { kind: "a named pipe (FIFO)", .. }) => {
                assert_eq!(err.to_string(), format!("{}: is a named pipe (FIFO), not a regular file", fifo.display()));
            }
            other => panic!("expected a FIFO refusal, got {other:?}"),
        }
        assert!(matches!(open(&dir), Err(OpenError::NotRegular { kind: "a directory", .. })));
        // The same for a text file (a plan or a SPEC).
        let (sent, received) = std::sync::mpsc::channel();
        let path = fifo.clone();
        std::thread::spawn(move || sent.send(read_text(&path, 1 << 20).map(drop)));
        let refused = received.recv_timeout(std::time::Duration::from_secs(60)).expect("read_text blocked on a FIFO");
        assert!(
            matches!(refused, Err(TextError::Open(OpenError::NotRegular { kind: "a named pipe (FIFO)", .. }))),
            "{refused:?}"
        );
        assert!(matches!(open(&dir.join("missing")), Err(OpenError::Io { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A text file reads whole within its bound (obeyed); over it, or not UTF-8, it is refused
    /// (violated).
    #[test]
    fn a_text_file_is_read_within_its_bound() {
        let dir = scratch("text");
        let path = dir.join("plan.jsonl");
        std::fs::write(&path, "0123456789").unwrap();
        assert_eq!(read_text(&path, 10).unwrap(), "0123456789");
        assert!(matches!(read_text(&path, 9), Err(TextError::TooLarge { size: 10, limit: 9, .. })));
        std::fs::write(&path, [0xff, 0xfe]).unwrap();
        assert!(matches!(read_text(&path, 10), Err(TextError::NotText { .. })));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
