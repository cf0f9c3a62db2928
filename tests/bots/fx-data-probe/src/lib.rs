//! `fx-data-probe`: a bot with a data folder (docs/design.md#capabilities: one read-only folder
//! at `/data`, nothing else). On its first turn it logs one `data <what>: ok <answer>` or
//! `data <what>: denied (<error kind>)` line per attempt:
//!
//! - reads: `/data/table.txt` (its text, or its length past 64 bytes), `/data/sub/deep.txt`, `/data/sub/../table.txt` (`..` within the
//!   folder), the listing of `/data` (in the order the host gives it), the size and the
//!   modification time of `/data/table.txt`, 9 bytes after a seek to its third byte;
//! - changes, each refused: writing, creating, appending to, truncating, removing and renaming a
//!   file, creating and removing a folder, a hard link and a symbolic link;
//! - escapes, each refused: `/data/../escape.txt`, `/etc/passwd`, `/`, `.`, a relative path.
//!
//! Every turn it reads `/data/table.txt` whole (logged as its length: the fuel of reading it is
//! what the tests compare), then plays the first legal move.

use arena_sdk::azul::prelude::*;
use std::fmt::Debug;
use std::io::{Read, Seek, SeekFrom};

fn report<T: Debug>(what: &str, result: std::io::Result<T>) {
    match result {
        Ok(value) => log::info(&format!("data {what}: ok {value:?}")),
        Err(err) => log::info(&format!("data {what}: denied ({:?})", err.kind())),
    }
}

/// A symbolic link made through wasi-libc (Rust's own `symlink_path` for WASI is unstable).
#[allow(unsafe_code)] // wasi-libc's `symlink`, with two C strings
fn symlink(target: &std::ffi::CStr, link: &std::ffi::CStr) -> std::io::Result<()> {
    // SAFETY: both are valid NUL-terminated strings for the duration of the call.
    if unsafe { libc::symlink(target.as_ptr(), link.as_ptr()) } == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// A file's text, or its length when it is longer than a log line should be.
fn text(path: &str) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    Ok(if bytes.len() > 64 { format!("{} bytes", bytes.len()) } else { String::from_utf8_lossy(&bytes).into_owned() })
}

fn probe() {
    report("read table", text("/data/table.txt"));
    report("read deep", text("/data/sub/deep.txt"));
    report("read dotdot within", text("/data/sub/../table.txt"));
    report(
        "list",
        std::fs::read_dir("/data").and_then(|entries| {
            entries
                .map(|entry| entry.map(|entry| entry.file_name().to_string_lossy().into_owned()))
                .collect::<Result<Vec<_>, _>>()
        }),
    );
    report("size", std::fs::metadata("/data/table.txt").map(|meta| meta.len()));
    report("is dir", std::fs::metadata("/data/sub").map(|meta| meta.is_dir()));
    report("modified", std::fs::metadata("/data/table.txt").and_then(|meta| meta.modified()));
    report(
        "seek",
        std::fs::File::open("/data/table.txt").and_then(|mut file| {
            file.seek(SeekFrom::Start(2))?;
            let mut rest = [0; 9];
            let read = file.read(&mut rest)?;
            Ok(String::from_utf8_lossy(&rest[..read]).into_owned())
        }),
    );
    report("write", std::fs::write("/data/new.txt", b"x"));
    report("overwrite", std::fs::write("/data/table.txt", b"x"));
    report("append", std::fs::OpenOptions::new().append(true).open("/data/table.txt").map(drop));
    report("truncate", std::fs::OpenOptions::new().write(true).truncate(true).open("/data/table.txt").map(drop));
    report("remove", std::fs::remove_file("/data/table.txt"));
    report("rename", std::fs::rename("/data/table.txt", "/data/moved.txt"));
    report("mkdir", std::fs::create_dir("/data/made"));
    report("rmdir", std::fs::remove_dir("/data/sub"));
    report("hard link", std::fs::hard_link("/data/table.txt", "/data/linked.txt"));
    report("symlink", symlink(c"/data/table.txt", c"/data/sym.txt"));
    report("escape dotdot", text("/data/../escape.txt"));
    report("escape absolute", text("/etc/passwd"));
    report("escape root", std::fs::read_dir("/").map(|entries| entries.count()));
    report("escape relative", text("table.txt"));
}

/// Probes on its first turn, reads its table every turn, plays the first legal move.
#[derive(Default)]
pub struct DataProbe {
    probed: bool,
}

impl AzulBot for DataProbe {
    fn act(&mut self, view: &View) -> Move {
        if !self.probed {
            self.probed = true;
            probe();
        }
        report("table bytes", std::fs::read("/data/table.txt").map(|bytes| bytes.len()));
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(DataProbe);
