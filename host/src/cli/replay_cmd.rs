//! `arena replay verify`: re-run a recorded match and compare it turn by turn.

use anyhow::Context;
use arena_host::registry::find_game;
use arena_host::replay::{Verdict, replay_game};
use clap::Subcommand;
use std::path::PathBuf;
use std::process::ExitCode;

const VERIFY_EXAMPLES: &str = "\
Examples:
  arena replay verify match.json
  arena replay verify match.json --bot 0=bots/a.wasm --bot 1=bots/b.wasm

Prints `identical`, or the first turn that differs and exits with status 1. The bots are found
at the paths the replay recorded unless --bot says otherwise; each must have the recorded sha256.
A replay recorded with another wasmtime version or fuel cost settings is refused (status 2).
Compiled bots are cached (`arena cache --help`); --no-cache compiles every bot afresh.";

/// `arena replay ...`.
#[derive(Debug, Subcommand)]
pub enum ReplayCommand {
    /// Re-run the match a replay records and compare it turn by turn.
    #[command(after_help = VERIFY_EXAMPLES)]
    Verify {
        /// The replay file.
        file: PathBuf,
        /// Where to find a seat's bot: SEAT=PATH (repeatable).
        #[arg(long = "bot", value_name = "SEAT=PATH", value_parser = parse_bot_override)]
        bots: Vec<(usize, PathBuf)>,
        #[command(flatten)]
        cache: super::cache_cmd::UseCacheArgs,
    },
}

fn parse_bot_override(text: &str) -> Result<(usize, PathBuf), String> {
    let (seat, path) = super::parse_key_value(text)?;
    let seat = seat.parse().map_err(|_| format!("seat {seat:?} is not a number"))?;
    Ok((seat, PathBuf::from(path)))
}

pub fn run(command: ReplayCommand) -> anyhow::Result<ExitCode> {
    let ReplayCommand::Verify { file, bots, cache } = command;
    let name = replay_game(&file)?;
    let game = find_game(&name).with_context(|| format!("{}: unknown game {name:?}", file.display()))?;
    let seats = bots.iter().map(|(seat, _)| seat + 1).max().unwrap_or(0);
    let mut paths = vec![None; seats];
    for (seat, path) in bots {
        paths[seat] = Some(path);
    }
    let arena = cache.arena()?;
    match game.verify(&arena, &file, &paths)? {
        Verdict::Identical => {
            outln!("identical");
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Differs { turn, detail } => {
            outln!("turn {turn} differs: {detail}");
            Ok(ExitCode::from(1))
        }
    }
}
