//! `arena`: play metered WebAssembly bots against each other and verify replays.
//!
//! Exit status: 0 when the command did its job (a match was played, whatever the bots did);
//! 1 when `replay verify` found a difference; 2 for bad usage or a bad input file.

// The command's doc comments are its `--help` text, printed as written: an example URL there is
// plain text for a terminal, not a link to mark up.
#![allow(rustdoc::bare_urls)]

mod cli;

use clap::Parser;
use std::io::IsTerminal;
use std::process::ExitCode;
use tracing_subscriber::EnvFilter;

fn main() -> ExitCode {
    let spec = std::env::var("ARENA_LOG").unwrap_or_default();
    tracing_subscriber::fmt()
        .with_env_filter(log_filter(&spec))
        .with_ansi(std::io::stderr().is_terminal())
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

/// The log filter for `ARENA_LOG`. A bare level (`ARENA_LOG=debug`) is the arena's own logs at
/// that level (every target starting with `arena`: the CLI, the host, the engines) and only
/// warnings from dependencies, whose compiler tracing would otherwise bury the turn lines; a
/// full filter (`ARENA_LOG=arena=debug,cranelift=info`) is taken as written.
fn log_filter(spec: &str) -> EnvFilter {
    let spec = spec.trim();
    let is_level = ["trace", "debug", "info", "warn", "error", "off"].contains(&spec.to_ascii_lowercase().as_str());
    let directives = if spec.is_empty() {
        "warn".to_owned()
    } else if is_level {
        format!("warn,arena={spec}")
    } else {
        spec.to_owned()
    };
    EnvFilter::try_new(&directives).unwrap_or_else(|err| {
        eprintln!("warning: ARENA_LOG={spec:?} is not a log filter ({err}); logging warnings only");
        EnvFilter::new("warn")
    })
}

#[cfg(test)]
mod tests {
    use super::log_filter;

    /// `ARENA_LOG=debug` is the arena's debug lines, not the compiler's.
    #[test]
    fn a_bare_level_applies_to_the_arena_only() {
        assert_eq!(log_filter("debug").to_string(), "arena=debug,warn");
        assert_eq!(log_filter("").to_string(), "warn");
        assert_eq!(log_filter("arena_host::play=trace").to_string(), "arena_host::play=trace");
        assert_eq!(log_filter("not a filter ===").to_string(), "warn");
    }
}
