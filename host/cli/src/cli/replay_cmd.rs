//! `arena replay verify`: re-run a recorded match and compare it turn by turn.

use anyhow::Context;
use arena_host::bot_data::BotFiles;
use arena_host::registry::find_game;
use arena_host::replay::{Verdict, find_bot, find_data, replay_bots, replay_game};
use clap::Subcommand;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const VERIFY_EXAMPLES: &str = "\
Examples:
  arena replay verify match.json
  arena replay verify match.json --bot 0=bots/a.wasm --bot 1=bots/b.wasm
  arena replay verify downloaded/match.json --bot-dir downloaded/bots
  arena replay verify match.json --data 0=openings/

Prints `identical`, or the first turn that differs and exits with status 1. Each seat's bot is
--bot's file if given, else the first with the recorded sha256 of: the recorded path, that path
from the replay's folder, the recorded file name in each --bot-dir, any .wasm file in a --bot-dir.
A seat whose bot brought a data folder gets --data's folder if given, else the first with the
recorded digest of: the folder NAME.data beside its bot file, the recorded folder, that folder from
the replay's folder, the recorded folder's name beside the bot file and in each --bot-dir, any
.data folder there; a folder with another digest is refused (status 2). A seat whose bot brought
none gets none.
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
        #[arg(long = "bot", value_name = "SEAT=PATH", value_parser = super::parse_seat_path)]
        bots: Vec<(usize, PathBuf)>,
        /// A folder to look for the replay's bots in, by file name and then by sha256 (repeatable).
        #[arg(long = "bot-dir", value_name = "DIR")]
        bot_dirs: Vec<PathBuf>,
        #[command(flatten)]
        data: super::data_args::DataArgs,
        #[command(flatten)]
        cache: super::cache_cmd::UseCacheArgs,
    },
}

pub fn run(command: ReplayCommand) -> anyhow::Result<ExitCode> {
    let ReplayCommand::Verify { file, bots, bot_dirs, data, cache } = command;
    let name = replay_game(&file, arena_host::registry::replay_limits)?;
    let game = find_game(&name).with_context(|| format!("{}: unknown game {name:?}", file.display()))?;
    let recorded = replay_bots(&file, arena_host::registry::replay_limits)?;
    let replay_dir = file.parent().unwrap_or(Path::new("."));
    let given = bots.iter().chain(&data.data).map(|(seat, _)| seat + 1).max().unwrap_or(0);
    let arena = cache.arena()?.with_data_limits(data.limits.limits());
    let mut files: Vec<Option<BotFiles>> = vec![None; given.max(recorded.len())];
    for (seat, bot) in recorded.iter().enumerate() {
        let wasm = bots.iter().rev().find(|(given, _)| *given == seat).map(|(_, path)| path.clone());
        let wasm = wasm.or_else(|| find_bot(bot, replay_dir, &bot_dirs)).unwrap_or_else(|| bot.path.clone());
        let folder = data.data.iter().rev().find(|(given, _)| *given == seat).map(|(_, folder)| folder.clone());
        let folder = folder.or_else(|| find_data(&arena, bot, Some(&wasm), replay_dir, &bot_dirs));
        // Not found: the recorded folder, refused by verify with the reason.
        let folder = folder.or_else(|| bot.data.as_ref().map(|data| data.path.clone()));
        files[seat] = Some(BotFiles { wasm, data: folder });
    }
    for (seat, path) in bots.into_iter().filter(|(seat, _)| *seat >= recorded.len()) {
        files[seat] = Some(BotFiles::code_only(path));
    }
    match game.verify(&arena, &file, &files)? {
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
