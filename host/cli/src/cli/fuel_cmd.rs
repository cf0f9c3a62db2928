//! `arena fuel`: what each bot spends (start-up, fuel per turn) in a match against itself, and
//! what the budgets buy at that rate; `--markdown` prints the tables the documentation carries.

use anyhow::Context;
use arena_host::Budget;
use arena_host::bot_data::BotFiles;
use arena_host::budget::{DEFAULT_GAME_FUEL, DEFAULT_TURN_FUEL};
use arena_host::registry::{find_game, game_names};
use arena_profiler::fuel_profile::{FuelProfile, markdown_table, measuring_budget};
use clap::Args;
use clap::builder::PossibleValuesParser;
use std::path::PathBuf;
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  arena fuel --game azul target/bots/azul-greedy.wasm
  arena fuel --game azul --markdown target/bots/fx-glue-azul.wasm target/bots/azul-trivial-py.wasm

Each bot plays one match against copies of itself (seed --seed), with the turn budget but no
game limit; the figures are seat 0's: start-up (instantiation and `init`, capped at one turn
budget), the median and largest turn, what the turn and game budgets pay for at the median
rate, and the fuel of the whole match: the game budget a full match needs (status `over` when
it is more than --game-fuel). Fuel is deterministic: the same bot file and seed give the same
figures on any machine.";

/// Arguments of `arena fuel`.
#[derive(Debug, Args)]
pub struct FuelArgs {
    /// The game to play.
    #[arg(long, value_parser = PossibleValuesParser::new(game_names()))]
    game: String,
    /// Bot files to profile, one row each.
    #[arg(required = true, num_args = 1.., value_name = "BOT.wasm")]
    bots: Vec<PathBuf>,
    /// Match seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Fuel per turn the figures are set against.
    #[arg(long, default_value_t = DEFAULT_TURN_FUEL, value_name = "N")]
    turn_fuel: u64,
    /// Fuel per game the figures are set against (the match itself is played without a game
    /// limit, to measure what a whole match needs).
    #[arg(long, default_value_t = DEFAULT_GAME_FUEL, value_name = "N")]
    game_fuel: u64,
    /// A game option, KEY=VALUE (repeatable).
    #[arg(long = "option", value_name = "KEY=VALUE", value_parser = super::parse_key_value)]
    options: Vec<(String, String)>,
    /// Print a Markdown table.
    #[arg(long, conflicts_with = "json")]
    markdown: bool,
    /// Print one JSON array of profiles.
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    cache: super::cache_cmd::UseCacheArgs,
}

pub fn run(args: FuelArgs) -> anyhow::Result<ExitCode> {
    let budget = Budget { turn_fuel: args.turn_fuel, game_fuel: args.game_fuel, ..Budget::default() };
    budget.validate().map_err(anyhow::Error::msg)?;
    let game = find_game(&args.game).with_context(|| format!("unknown game {:?}", args.game))?;
    let arena = args.cache.arena()?;
    let seats = game.info().min_players;
    let mut profiles = Vec::new();
    let mut sizes = Vec::new();
    for bot in &args.bots {
        let played = game.play(
            &arena,
            &vec![BotFiles::by_convention(bot); seats],
            &args.options,
            args.seed,
            measuring_budget(&budget),
        )?;
        let replay: serde_json::Value = serde_json::from_str(&played.replay)?;
        profiles.push(FuelProfile::from_replay(&replay, 0)?);
        sizes.push(std::fs::metadata(bot).map(|meta| meta.len()).unwrap_or(0));
    }
    if args.json {
        // Each profile, with whether its whole match fits the game budget the figures are set against.
        let mut rows = Vec::new();
        for profile in &profiles {
            let mut row = serde_json::to_value(profile)?;
            row["fits_game_budget"] = profile.fits_game_budget(&budget).into();
            rows.push(row);
        }
        outln!("{}", serde_json::to_string(&rows)?);
    } else if args.markdown {
        let rows: Vec<_> = profiles.into_iter().zip(sizes).collect();
        outln!("{}", markdown_table(&rows, &budget).trim_end());
    } else {
        print_text(&profiles, &budget);
    }
    Ok(ExitCode::SUCCESS)
}

fn print_text(profiles: &[FuelProfile], budget: &Budget) {
    outln!(
        "{:<20} {:>12} {:>8} {:>6} {:>12} {:>12} {:>14} {:>14} {:>13}  status",
        "bot",
        "start-up",
        "%turn",
        "turns",
        "median turn",
        "max turn",
        "work/turn bud.",
        "turns/game bud.",
        "match fuel"
    );
    for profile in profiles {
        outln!(
            "{:<20} {:>12} {:>7.1}% {:>6} {:>12} {:>12} {:>13}x {:>14} {:>13}  {}",
            profile.bot,
            profile.startup,
            profile.startup_percent_of_turn_budget(budget),
            profile.turns,
            profile.turn_median,
            profile.turn_max,
            profile.turns_of_work_per_turn_budget(budget),
            profile.median_turns_per_game_budget(budget),
            profile.total,
            profile.status(budget)
        );
    }
}
