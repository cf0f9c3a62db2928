//! `arena`: play metered WebAssembly bots against each other and verify replays.
//!
//! Exit status: 0 when the command did its job (a match was played, whatever the bots did);
//! 1 when `replay verify` found a difference; 2 for bad usage or a bad input file.

mod cli;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(tracing_subscriber::EnvFilter::from_env("ARENA_LOG"))
        .with_writer(std::io::stderr)
        .init();
    let args = cli::Cli::parse();
    match cli::run(args) {
        Ok(code) => code,
        Err(err) => {
            eprintln!("error: {err:#}");
            ExitCode::from(2)
        }
    }
}
