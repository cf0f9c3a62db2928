//! `arena match`: load the bots, play one match, print the result, write the replay.

use super::output::{MatchJson, print_table};
use super::series;
use anyhow::Context;
use arena_host::Budget;
use arena_host::bot_data::BotFiles;
use arena_host::registry::{GameEntry, find_game, game_names};
use arena_host::runtime::Arena;
use clap::Args;
use clap::builder::PossibleValuesParser;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  arena match --game azul target/bots/azul-greedy.wasm target/bots/azul-random.wasm
  arena match --game azul a.wasm b.wasm --seed 7 --json
  arena match --game azul a.wasm b.wasm --turn-fuel 5000000 --game-fuel 50000000 --replay match.json
  arena match --game azul a.wasm b.wasm --seeds 1..20 --swap
  arena match --game azul book.wasm b.wasm --data 0=openings/

--seeds FIRST..LAST plays one match per seed (both ends included), --swap each in every seat
order, and prints per bot: wins, draws, losses, the mean score with its 95% confidence interval
and the mean fuel per match.

Budgets are wasmtime fuel (one unit per executed wasm operator). A bot that runs out of turn
fuel is suspended and resumes at its next turn; one that runs out of game fuel forfeits.
`arena games` lists the games, their options and player counts.

A bot may bring one data folder (tables, opening books, weights), which it reads at /data,
read-only: --data SEAT=DIR, else the folder NAME.data beside NAME.wasm if there is one (--no-data:
none but those --data gives). A folder is read once, before the match; one with a link, a special
file, or over --data-max-mib or --data-max-entries is refused. Reads cost fuel (docs/budgets.md).
Compiled bots are cached (`arena cache --help`); --no-cache compiles every bot afresh.
Exit status: 0 when the match was played (whatever the bots did), 2 for bad usage or a bad
bot file.";

/// Arguments of `arena match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// The game to play.
    #[arg(long, value_parser = PossibleValuesParser::new(game_names()))]
    game: String,
    /// Bot files, in seat order: WebAssembly components, or WASI commands for games with a line
    /// protocol (`arena games` lists what each game accepts).
    #[arg(required = true, num_args = 1.., value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Match seed: the same bots and seed play the same match.
    #[arg(long, default_value_t = 0, conflicts_with = "seeds")]
    seed: u64,
    /// Play a series: one match per seed from FIRST to LAST (both included), summed up per bot.
    #[arg(long, value_name = "FIRST..LAST", value_parser = super::series::parse_seeds, conflicts_with = "replay")]
    seeds: Option<(u64, u64)>,
    /// With --seeds: play each seed in every seat order (rotations), so seat advantage cancels.
    #[arg(long, requires = "seeds")]
    swap: bool,
    #[command(flatten)]
    budget: super::budget_args::BudgetArgs,
    /// A game option, KEY=VALUE (repeatable; `arena games` lists them).
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = super::parse_key_value)]
    options: Vec<(String, String)>,
    /// Write the replay to FILE.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    /// Print exactly one JSON object on stdout instead of a table.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    data: super::data_args::DataArgs,
    /// No data folder by convention (`NAME.data` beside `NAME.wasm`); only those --data gives.
    #[arg(long)]
    no_data: bool,
    #[command(flatten)]
    cache: super::cache_cmd::UseCacheArgs,
}

pub fn run(args: MatchArgs) -> anyhow::Result<ExitCode> {
    let budget = args.budget.budget()?;
    let game = find_game(&args.game).with_context(|| format!("unknown game {:?}", args.game))?;
    if let Some(path) = &args.replay {
        check_writable_folder(path)?;
    }
    let bots = args.data.bot_files(&args.bots, !args.no_data)?;
    let arena = args.cache.arena()?.with_data_limits(args.data.limits.limits());
    if let Some(seeds) = args.seeds {
        return run_series(game, &arena, &args, &bots, seeds, budget);
    }
    let played = game.play(&arena, &bots, &args.options, args.seed, budget)?;
    if let Some(path) = &args.replay {
        std::fs::write(path, played.replay + "\n")
            .with_context(|| format!("writing the replay to {}", path.display()))?;
    }
    if args.json {
        outln!("{}", serde_json::to_string(&MatchJson::of(&played.result, &played.post_mortems))?);
    } else {
        print_table(&played.result, &played.post_mortems);
        if let Some(path) = &args.replay {
            outln!("replay: {}", path.display());
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Plays the series of `--seeds` and prints the standings.
fn run_series(
    game: &dyn GameEntry,
    arena: &Arena,
    args: &MatchArgs,
    bots: &[BotFiles],
    seeds: (u64, u64),
    budget: Budget,
) -> anyhow::Result<ExitCode> {
    let plan = series::plan(seeds, bots.len(), args.swap).map_err(anyhow::Error::msg)?;
    let played = game.play_series(arena, bots, &args.options, &plan, budget)?;
    let results: Vec<_> =
        plan.into_iter().map(|(_, seating)| seating).zip(played.into_iter().map(|p| p.result)).collect();
    let standings = series::standings(args.bots.len(), &results);
    if args.json {
        let summary = serde_json::json!({
            "game": args.game,
            "seeds": [seeds.0, seeds.1],
            "swap": args.swap,
            "matches": results.len(),
            "bots": standings,
        });
        outln!("{summary}");
    } else {
        let order = if args.swap { ", every seat order" } else { "" };
        outln!("{}: {} matches, seeds {}..{}{order}", args.game, results.len(), seeds.0, seeds.1);
        outln!("{}", series::format_standings(&standings).trim_end());
    }
    Ok(ExitCode::SUCCESS)
}

/// Refuses a replay path whose folder does not exist before the match is played, not after.
fn check_writable_folder(path: &Path) -> anyhow::Result<()> {
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => Path::new("."),
    };
    if !folder.is_dir() {
        anyhow::bail!("cannot write the replay to {}: no folder {}", path.display(), folder.display());
    }
    Ok(())
}
