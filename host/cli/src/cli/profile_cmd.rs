//! `arena profile`: plays one match exactly as `arena match` would while sampling one seat's
//! wasm call stack every N units of fuel, then writes a speedscope file and/or prints the
//! functions that spent the most fuel.

use anyhow::Context;
use arena_host::bot_data::BotFiles;
use arena_host::registry::{find_game, game_names};
use arena_profiler::report::{Subject, speedscope, summary};
use arena_profiler::{DEFAULT_EVERY, FuelSampler, Profiled, phases::phases};
use clap::Args;
use clap::builder::PossibleValuesParser;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

pub const EXAMPLES: &str = "\
Examples:
  arena profile --game azul target/bots/azul-search.wasm target/bots/azul-greedy.wasm -o profile.json
  arena profile --game azul target/bots/azul-search.wasm --summary
  arena profile --game paint bot.wasm other.wasm --seat 1 --seed 7 --every 1000 --summary

BOT.wasm is profiled; the OPPONENT files fill the other seats in order (none: BOT plays copies of
itself). The match is the one `arena match` plays with the same bots, seats, seed and budgets:
same moves, same fuel. Every --every units of fuel the profiler records BOT's wasm call stack,
charged with the fuel spent since the last sample; the same match gives the same profile on any
machine.

-o FILE writes a speedscope profile: open it at https://www.speedscope.app or offline with
`npx speedscope FILE`. It holds two views of the same samples: `whole match`, and `by phase`,
where each stack sits under the start-up, the turn it fell in, and what happened in that turn
(suspended, trapped). --summary (the default without -o) prints the top functions by self fuel.
Function names come from the bot's name section; a stripped bot shows indexes instead.";

/// The most samples one profile may take (a game budget over `--every`): each is a stack kept
/// in memory until the match ends.
const MAX_SAMPLES: u64 = 2_000_000;

/// Arguments of `arena profile`.
#[derive(Debug, Args)]
pub struct ProfileArgs {
    /// The game to play.
    #[arg(long, value_parser = PossibleValuesParser::new(game_names()))]
    game: String,
    /// The bot to profile.
    #[arg(value_name = "BOT.wasm")]
    bot: PathBuf,
    /// Its opponents, filling the other seats in order (none: copies of BOT).
    #[arg(value_name = "OPPONENT.wasm")]
    opponents: Vec<PathBuf>,
    /// BOT's seat, 0-based.
    #[arg(long, default_value_t = 0)]
    seat: u8,
    /// Match seed.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Fuel between two samples.
    #[arg(long, default_value_t = DEFAULT_EVERY, value_name = "FUEL", value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Write the profile (speedscope format) to FILE.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    output: Option<PathBuf>,
    /// Print the functions that spent the most fuel (the default without -o).
    #[arg(long)]
    summary: bool,
    /// Rows of the summary.
    #[arg(long, default_value_t = 25, value_name = "N")]
    top: usize,
    #[command(flatten)]
    budget: super::budget_args::BudgetArgs,
    /// A game option, KEY=VALUE (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = super::parse_key_value)]
    options: Vec<(String, String)>,
    /// Also write the match's replay to FILE.
    #[arg(long, value_name = "FILE")]
    replay: Option<PathBuf>,
    #[command(flatten)]
    cache: super::cache_cmd::UseCacheArgs,
}

pub fn run(args: ProfileArgs) -> anyhow::Result<ExitCode> {
    let budget = args.budget.budget()?;
    // Every sample is kept in memory until the match ends: bound how many a match can take.
    let most_samples = budget.game_fuel / args.every;
    if most_samples > MAX_SAMPLES {
        anyhow::bail!(
            "--every {} could take up to {most_samples} samples of a {}-fuel game; use --every {} or more",
            args.every,
            budget.game_fuel,
            budget.game_fuel.div_ceil(MAX_SAMPLES)
        );
    }
    let game = find_game(&args.game).with_context(|| format!("unknown game {:?}", args.game))?;
    let seats = seating(&args, game.info().min_players)?;
    let seat = usize::from(args.seat);
    let sampler = FuelSampler::new(args.every);
    let arena =
        args.cache.arena()?.with_store_hook(Some(Arc::new(Profiled { seat: args.seat, sampler: sampler.clone() })));
    let seats: Vec<BotFiles> = seats.into_iter().map(BotFiles::by_convention).collect();
    let played = game.play(&arena, &seats, &args.options, args.seed, budget)?;
    if let Some(path) = &args.replay {
        std::fs::write(path, played.replay.clone() + "\n")
            .with_context(|| format!("writing the replay to {}", path.display()))?;
    }
    let replay: serde_json::Value = serde_json::from_str(&played.replay)?;
    let samples = sampler.samples();
    let subject = Subject {
        bot: played.result.players.get(seat).map_or_else(|| "?".into(), |player| player.bot.clone()),
        seat,
        game: args.game.clone(),
        seed: args.seed,
    };
    if let Some(path) = &args.output {
        std::fs::write(path, speedscope(&samples, &phases(&replay, seat), &subject))
            .with_context(|| format!("writing the profile to {}", path.display()))?;
        eprintln!(
            "wrote {} ({} samples): open it at https://www.speedscope.app or with `npx speedscope {}`",
            path.display(),
            samples.samples.len(),
            path.display()
        );
    }
    if args.summary || args.output.is_none() {
        outln!("{}", summary(&samples, args.every, &subject, args.top).trim_end());
    }
    Ok(ExitCode::SUCCESS)
}

/// The match's bot files in seat order: BOT in `--seat`, the opponents around it (or copies of
/// BOT when none is given).
fn seating(args: &ProfileArgs, min_players: usize) -> anyhow::Result<Vec<std::path::PathBuf>> {
    let mut seats = args.opponents.clone();
    if seats.is_empty() {
        seats = vec![args.bot.clone(); min_players.saturating_sub(1).max(1)];
    }
    let seat = usize::from(args.seat);
    if seat > seats.len() {
        anyhow::bail!(
            "--seat {seat} is past the last seat: {} bots play (BOT and {} opponents), seats 0 to {}",
            seats.len() + 1,
            seats.len(),
            seats.len()
        );
    }
    seats.insert(seat, args.bot.clone());
    Ok(seats)
}
