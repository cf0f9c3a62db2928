//! The stack-overflow fuel golden (`tests/golden/stack-overflow-fuel.txt`): the fuel of every
//! trapped turn of the recursing fixtures, which the stack instrumentation fixes by the bots' code
//! alone (`arena_host::stack`). Rendered here once, and checked by the host's tests (a debug
//! build) and by `cargo xtask bench` (a release build), which include this file.

use arena_azul::AzulConfig;
use arena_host::bindings::azul::AzulBinding;
use arena_host::loader::load_bot;
use arena_host::runtime::Arena;
use arena_host::{Budget, play_match};
use std::path::Path;
use std::sync::Arc;

/// The fixtures that recurse until their stack is exhausted: plain, and with a host call at
/// every level.
pub const STACK_BOTS: [&str; 2] = ["fx-recurse", "fx-recurse-hostcall"];

/// The golden file, from the workspace root.
pub const STACK_GOLDEN: &str = "tests/golden/stack-overflow-fuel.txt";

/// One line per fixture: its name and the fuel of each turn it played against `azul-greedy`
/// (seed 1), every one of which ends in a stack overflow. `bot_path` finds a built bot.
pub fn stack_overflow_fuel(arena: &Arena, bot_path: &dyn Fn(&str) -> std::path::PathBuf) -> Result<String, String> {
    let mut text = String::new();
    let greedy = Arc::new(load_bot::<AzulBinding>(arena, &bot_path("azul-greedy")).map_err(|err| err.to_string())?);
    for name in STACK_BOTS {
        let bot = Arc::new(load_bot::<AzulBinding>(arena, Path::new(&bot_path(name))).map_err(|err| err.to_string())?);
        let record = play_match(arena, &[bot, greedy.clone()], &AzulConfig::default(), 1, Budget::default())
            .map_err(|err| err.to_string())?;
        let fuel: Vec<String> = record
            .turns
            .iter()
            .flat_map(|turn| turn.seats.iter().filter(|seat| seat.seat == 0))
            .map(|seat| {
                let overflowed = seat.faults.iter().any(|fault| {
                    matches!(fault, arena_host::BotFault::Trapped { trap: arena_host::TrapKind::StackOverflow, .. })
                });
                if overflowed { seat.fuel.to_string() } else { format!("{} (no overflow)", seat.fuel) }
            })
            .collect();
        text.push_str(&format!("{name}: {}\n", fuel.join(", ")));
    }
    Ok(text)
}
