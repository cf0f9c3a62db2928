//! `fx-snoop`: on every turn tries to read `/etc/passwd` and `.`, write a file, read `HOME`
//! and the whole environment, and open a TCP connection; logs one `snoop <what>: ...` line per
//! attempt (`denied` or `GOT ...`), then plays the first legal move.
//!
//! docs/design.md#capabilities, "Capabilities: none by default": every attempt fails inside the
//! bot, which is not a fault; the bot plays on.

use arena_sdk::azul::prelude::*;
use std::fmt::Debug;

fn report<T: Debug, E: Debug>(what: &str, result: Result<T, E>) {
    match result {
        Ok(value) => log::warn(&format!("snoop {what}: GOT {value:?}")),
        Err(err) => log::info(&format!("snoop {what}: denied ({err:?})")),
    }
}

/// Tries everything, then plays.
#[derive(Default)]
pub struct Snoop;

impl AzulBot for Snoop {
    fn act(&mut self, view: &View) -> Move {
        report(
            "read /etc/passwd",
            std::fs::read("/etc/passwd").map(|bytes| String::from_utf8_lossy(&bytes).into_owned()),
        );
        report("read .", std::fs::read("."));
        report("read_dir .", std::fs::read_dir(".").map(|dir| dir.count()));
        report("write", std::fs::write("fx-snoop.txt", b"escaped"));
        report("env HOME", std::env::var("HOME"));
        let vars = std::env::vars().count();
        report("env vars", if vars == 0 { Err("none") } else { Ok(vars) });
        report("tcp", std::net::TcpStream::connect("127.0.0.1:80").map(|_| "connected"));
        view.legal_moves().first().copied().unwrap_or(Move { source: CENTER, colour: Colour::Green, line: FLOOR_LINE })
    }
}

arena_sdk::export_azul_bot!(Snoop);
