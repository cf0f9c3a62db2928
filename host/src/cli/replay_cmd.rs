//! `arena replay verify`: re-run a recorded match and compare it turn by turn.

use anyhow::Context;
use arena_host::Arena;
use arena_host::games::Binding;
use arena_host::games::azul::AzulBinding;
use arena_host::replay::{Verdict, read_replay, replay_game, verify};
use clap::Subcommand;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const VERIFY_EXAMPLES: &str = "\
Examples:
  arena replay verify match.json
  arena replay verify match.json --bot 0=bots/a.wasm --bot 1=bots/b.wasm

Prints `identical`, or the first turn that differs and exits with status 1. The bots are found
at the paths the replay recorded unless --bot says otherwise; each must have the recorded sha256.
A replay recorded with another wasmtime version or fuel cost settings is refused (status 2).";

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
    },
}

fn parse_bot_override(text: &str) -> Result<(usize, PathBuf), String> {
    let (seat, path) = text.split_once('=').ok_or_else(|| format!("expected SEAT=PATH, got {text:?}"))?;
    let seat = seat.parse().map_err(|_| format!("seat {seat:?} is not a number"))?;
    Ok((seat, PathBuf::from(path)))
}

pub fn run(command: ReplayCommand) -> anyhow::Result<ExitCode> {
    match command {
        ReplayCommand::Verify { file, bots } => {
            let game = replay_game(&file)?;
            match game.as_str() {
                "azul" => verify_game::<AzulBinding>(&file, &bots),
                other => anyhow::bail!("{}: unknown game {other:?}", file.display()),
            }
        }
    }
}

fn verify_game<B: Binding>(file: &Path, overrides: &[(usize, PathBuf)]) -> anyhow::Result<ExitCode> {
    let recorded = read_replay::<B::Game>(file)?;
    let mut paths = vec![None; recorded.bots.len()];
    for (seat, path) in overrides {
        let slot = paths
            .get_mut(*seat)
            .with_context(|| format!("--bot {seat}=...: the replay has {} seats", recorded.bots.len()))?;
        *slot = Some(path.clone());
    }
    let arena = Arena::new()?;
    match verify::<B>(&arena, &recorded, &paths)? {
        Verdict::Identical => {
            println!("identical");
            Ok(ExitCode::SUCCESS)
        }
        Verdict::Differs { turn, detail } => {
            println!("turn {turn} differs: {detail}");
            Ok(ExitCode::from(1))
        }
    }
}
