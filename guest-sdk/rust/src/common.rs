//! Bindings for `arena:common` (the log import and the budget records every game passes),
//! generated once and shared by every game's bindings, plus their plain-Rust forms.

#[allow(missing_docs, unsafe_code, clippy::all)]
pub(crate) mod bindings {
    wit_bindgen::generate!({
        path: "../../wit/common",
        world: "arena:common/imports@0.1.0",
        generate_unused_types: true,
    });
}

pub(crate) use bindings::arena::common::types as wit;

/// What a bot is told when it starts (and after every restart). See the WIT `init-info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct InitInfo {
    /// This bot's seat, 0-based.
    pub seat: u8,
    /// Number of seats in the match.
    pub players: u8,
    /// 0 at the first start; then how many times the bot was restarted after a trap.
    pub restart_count: u32,
    /// A seed for the bot's own randomness (from the match seed and the bot's sha256).
    pub seed: u64,
    /// Fuel per turn.
    pub turn_fuel: u64,
    /// Fuel per game.
    pub game_fuel: u64,
    /// Fuel left in the game budget as `init` starts.
    pub game_fuel_remaining: u64,
}

impl From<wit::InitInfo> for InitInfo {
    fn from(info: wit::InitInfo) -> Self {
        InitInfo {
            seat: info.seat,
            players: info.players,
            restart_count: info.restart_count,
            seed: info.seed,
            turn_fuel: info.turn_fuel,
            game_fuel: info.game_fuel,
            game_fuel_remaining: info.game_fuel_remaining,
        }
    }
}

/// Budget facts handed with every turn. See the WIT `turn-info`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct TurnInfo {
    /// How many turns this bot was asked to play before this one.
    pub turn: u32,
    /// Fuel this call may spend in the current turn before it is suspended.
    pub turn_fuel_remaining: u64,
    /// Fuel left for the rest of the match.
    pub game_fuel_remaining: u64,
    /// Turns without an action since the previous call was handed its view (see the WIT).
    pub missed_turns: u32,
}

impl From<wit::TurnInfo> for TurnInfo {
    fn from(info: wit::TurnInfo) -> Self {
        TurnInfo {
            turn: info.turn,
            turn_fuel_remaining: info.turn_fuel_remaining,
            game_fuel_remaining: info.game_fuel_remaining,
            missed_turns: info.missed_turns,
        }
    }
}
