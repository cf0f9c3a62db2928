//! What the round-trip test of every binding (its `round_trip` module) shares. Each checks its
//! game's WIT conversions both ways: every observation of the conformance kit's random
//! playouts, pushed through to-WIT (what the host sends) and from-WIT (what the SDK rebuilds,
//! carrying its between-turn memory), comes back equal to the engine's observation, and so does
//! every action. The two directions are one macro per game (`wit_glue!` in each engine crate),
//! expanded in the binding against the host's bindings and in the SDK against its own.

use super::common;
use arena_game::Game;
use arena_game::conformance::Plan;

/// Budget facts to send with a view (their round trip is `arena:common`'s, not the game's).
pub(super) fn info(turn: u32) -> common::TurnInfo {
    common::TurnInfo { turn, turn_fuel_remaining: 10_000_000, game_fuel_remaining: 99_000_000, missed_turns: 0 }
}

/// A conformance plan: `seeds` playouts for each player count of `players`.
pub(super) fn plan<G: Game>(config: G::Config, players: Vec<usize>, seeds: std::ops::Range<u64>) -> Plan<G> {
    Plan { config, players, seeds, max_steps: 5_000 }
}
