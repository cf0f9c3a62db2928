//! `arena games`: every game, its player counts, most turns, options, accepted bot kinds and
//! example bots.

use arena_host::registry::{games, player_count};
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  arena games
  arena games --json";

pub fn run(json: bool) -> anyhow::Result<ExitCode> {
    let infos: Vec<_> = games().iter().map(|game| game.info()).collect();
    if json {
        outln!("{}", serde_json::to_string(&infos)?);
        return Ok(ExitCode::SUCCESS);
    }
    for info in infos {
        let players = player_count(info.min_players, info.max_players);
        outln!("{}  ({players} players, at most {} turns)", info.name, info.max_turns);
        for kind in &info.bot_kinds {
            outln!("  bots: {kind}");
        }
        let examples = [Some(info.examples.strong), Some(info.examples.random), info.examples.stdio];
        outln!("  example bots: {} (bots-examples/)", examples.into_iter().flatten().collect::<Vec<_>>().join(", "));
        if info.options.is_empty() {
            outln!("  options: none");
        }
        for option in &info.options {
            outln!("  --option {}=...  {} (default: {})", option.name, option.help, option.default);
        }
    }
    Ok(ExitCode::SUCCESS)
}
