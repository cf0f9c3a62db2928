//! `fx-stdio-garbage`: a hostile line-protocol Azul bot (`both` mode). Before any restart, its
//! answers are, turn by turn: a 100,000-byte line, `hello there`, invalid UTF-8, the
//! well-formed but illegal move `9 b 5`; on its fifth turn it exits with status 3 without
//! answering. Restarted (the greeting says so), it plays the first legal move every turn.
//!
//! docs/design.md#memory-and-sizes, "Memory and sizes" (an answer over the bound is an invalid
//! action, not a host allocation), "Faults are data" and "Traps" (exiting is handled like a trap).

use azul_stdio_random::{Move, State};
use std::io::{self, BufRead, Write};

/// Length of the over-long answer.
pub const LONG_LINE: usize = 100_000;

fn main() -> io::Result<()> {
    let mut out = io::stdout().lock();
    writeln!(out, "both")?;
    out.flush()?;
    let mut input = io::stdin().lock();
    let mut state = State::default();
    let mut line = String::new();
    let mut turns = 0;
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        if !state.apply(&line) {
            continue;
        }
        turns += 1;
        let answer: Vec<u8> = match (state.restarts, turns) {
            (0, 1) => vec![b'x'; LONG_LINE],
            (0, 2) => b"hello there".to_vec(),
            (0, 3) => vec![0xff, 0xfe, 0x80],
            (0, 4) => b"9 b 5".to_vec(),
            (0, _) => std::process::exit(3),
            _ => {
                let mv = state.legal_moves().first().copied().unwrap_or(Move { source: 0, colour: 0, line: 5 });
                mv.to_string().into_bytes()
            }
        };
        out.write_all(&answer)?;
        out.write_all(b"\n")?;
        out.flush()?;
    }
}
