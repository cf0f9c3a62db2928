//! `arena replay verify`: re-run a recorded match and compare it turn by turn.

use anyhow::Context;
use arena_host::registry::find_game;
use arena_host::replay::{Verdict, find_bot, replay_bots, replay_game};
use clap::Subcommand;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const VERIFY_EXAMPLES: &str = "\
Examples:
  arena replay verify match.json
  arena replay verify match.json --bot 0=bots/a.wasm --bot 1=bots/b.wasm
  arena replay verify downloaded/match.json --bot-dir downloaded/bots

Prints `identical`, or the first turn that differs and exits with status 1. Each seat's bot is
--bot's file if given, else the first with the recorded sha256 of: the recorded path, that path
from the replay's folder, the recorded file name in each --bot-dir, any .wasm file in a --bot-dir.
A replay recorded with another wasmtime version or fuel cost settings is refused (status 2), as is
one recording more turns than its game can last (`arena games`) or naming a path that is not a
regular file (a named pipe is refused, not waited on).
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
        /// A folder to look for the replay's bots in, by file name and then by sha256 (repeatable).
        #[arg(long = "bot-dir", value_name = "DIR")]
        bot_dirs: Vec<PathBuf>,
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
    let ReplayCommand::Verify { file, bots, bot_dirs, cache } = command;
    let name = replay_game(&file, arena_host::registry::replay_limits)?;
    let game = find_game(&name).with_context(|| format!("{}: unknown game {name:?}", file.display()))?;
    let recorded = replay_bots(&file, arena_host::registry::replay_limits)?;
    let replay_dir = file.parent().unwrap_or(Path::new("."));
    let seats = bots.iter().map(|(seat, _)| seat + 1).max().unwrap_or(0).max(recorded.len());
    let mut paths = vec![None; seats];
    for (seat, bot) in recorded.iter().enumerate() {
        paths[seat] = find_bot(bot, replay_dir, &bot_dirs);
    }
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
