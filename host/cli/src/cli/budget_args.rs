//! The budget options every command that plays a match takes (`--turn-fuel`, `--game-fuel`,
//! `--memory-mib`), defaulting to the platform's budgets.

use arena_host::Budget;
use arena_host::budget::{DEFAULT_GAME_FUEL, DEFAULT_MEMORY_MIB, DEFAULT_TURN_FUEL};
use clap::Args;

/// `--turn-fuel`, `--game-fuel`, `--memory-mib`.
#[derive(Debug, Args)]
pub struct BudgetArgs {
    /// Fuel per turn before a bot is suspended.
    #[arg(long, default_value_t = DEFAULT_TURN_FUEL, value_name = "N")]
    turn_fuel: u64,
    /// Fuel per game (start-up included) before a bot forfeits.
    #[arg(long, default_value_t = DEFAULT_GAME_FUEL, value_name = "N")]
    game_fuel: u64,
    /// Memory per bot, in MiB: all of its linear memories and tables together.
    #[arg(long, default_value_t = DEFAULT_MEMORY_MIB, value_name = "N")]
    memory_mib: u32,
}

impl BudgetArgs {
    /// The budget these options give, checked.
    pub fn budget(&self) -> anyhow::Result<Budget> {
        let budget = Budget {
            turn_fuel: self.turn_fuel,
            game_fuel: self.game_fuel,
            memory_mib: self.memory_mib,
            ..Budget::default()
        };
        budget.validate().map_err(anyhow::Error::msg)?;
        Ok(budget)
    }
}
