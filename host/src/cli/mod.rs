//! The command line: argument parsing and dispatch to one module per subcommand.

mod match_cmd;
mod output;
mod replay_cmd;

use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

/// Wasm Arena: runs game bots compiled to WebAssembly under a deterministic fuel budget.
#[derive(Debug, Parser)]
#[command(name = "arena", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Play one match between bots and print the result.
    #[command(after_help = match_cmd::EXAMPLES)]
    Match(match_cmd::MatchArgs),
    /// Work with replay files.
    #[command(subcommand)]
    Replay(replay_cmd::ReplayCommand),
}

/// The games the arena can play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum GameName {
    /// Azul, 2 players.
    Azul,
}

/// Runs a parsed command line; `Err` is a usage or input problem (exit status 2).
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Match(args) => match_cmd::run(args),
        Command::Replay(command) => replay_cmd::run(command),
    }
}
