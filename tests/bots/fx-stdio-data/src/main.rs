//! `fx-stdio-data`: a line-protocol bot with a data folder. At start it logs on stderr one
//! `data <what>: ok <answer>` or `data <what>: denied (<error kind>)` line for reading
//! `/data/table.txt`, listing `/data`, writing `/data/new.txt` and reading `/etc/passwd`, then
//! plays Paint: it shoots east every turn. Built for `wasm32-wasip2` it reaches the folder
//! through wasi-libc and WASI 0.2's filesystem; built for `wasm32-wasip1`, through the preview1
//! adapter the host wraps it with.

use paint_stdio_random::ACTIONS;
use std::fmt::Debug;

fn report<T: Debug>(what: &str, result: std::io::Result<T>) {
    match result {
        Ok(value) => eprintln!("data {what}: ok {value:?}"),
        Err(err) => eprintln!("data {what}: denied ({:?})", err.kind()),
    }
}

fn main() -> std::io::Result<()> {
    report("read table", std::fs::read("/data/table.txt").map(|bytes| String::from_utf8_lossy(&bytes).into_owned()));
    report(
        "list",
        std::fs::read_dir("/data").and_then(|entries| {
            entries
                .map(|entry| entry.map(|entry| entry.file_name().to_string_lossy().into_owned()))
                .collect::<Result<Vec<_>, _>>()
        }),
    );
    report("write", std::fs::write("/data/new.txt", b"x"));
    report("escape absolute", std::fs::read("/etc/passwd").map(|bytes| bytes.len()));
    // Shoot east (a valid action from any square).
    let shoot_east = ACTIONS[8 + 2];
    paint_stdio_random::play(|state| Some(state.answer(shoot_east)))
}
