//! Per-match budgets and limits (docs/design.md#budgets), with the platform's defaults, and what a
//! unit of fuel means: the wasmtime release and the fuel costs every replay records.

use serde::{Deserialize, Serialize};

/// The exact wasmtime release the arena runs; replays record it (fuel costs may change between
/// releases, so a budget means something only with its release).
pub const WASMTIME_VERSION: &str = "48.0.8";
/// The fuel cost settings, recorded in replays: what one unit of fuel means.
pub const FUEL_COSTS: &str = "wasmtime default operator costs (1 per operator), bulk memory per byte";
/// Fuel charged per byte a host function reads, writes or generates for the bot: host work a bot
/// causes is paid from its budget (`host_fuel`).
pub const FUEL_PER_BYTE: u64 = 1;

/// Fuel charged per random byte a bot asks for (`get-random-bytes`, `get-insecure-random-bytes`):
/// wasmtime-wasi draws each byte with one call of the boxed generator, 2.3-2.9 ns a byte
/// (`cargo xtask bench hostcalls`), where a copy costs a tenth of that. A faster draw would
/// change every bot's random bytes, so the charge follows the cost instead.
pub const FUEL_PER_RANDOM_BYTE: u64 = 8;

/// Fuel charged per byte of a string the host must transcode to UTF-8 (a log message from a
/// bot whose strings are UTF-16 or Latin-1): checking and transcoding take about 0.6 ns a byte,
/// twice a validation in place.
pub const FUEL_PER_TRANSCODED_BYTE: u64 = 2;

/// Fuel charged per pollable `poll` is given. Each distinct pollable costs the host about
/// 170-190 ns (lifting the borrow, a table lookup, a map entry, a boxed future, polling it:
/// `cargo xtask bench hostcalls`), the time pure wasm takes for a few thousand fuel; at 1 fuel a
/// pollable a bot's turn of `poll` held the host about 1.7 s. At this charge it is within a
/// small constant of the bot's own code, and a bot that polls a timer or two a turn pays a
/// thousand fuel for it.
pub const FUEL_PER_POLLABLE: u64 = 512;

/// Fuel charged per directory entry a bot's data folder lists (`read-directory-entry`, on top of
/// the call's fee and [`FUEL_PER_BYTE`] per byte of the name, `data_fs`). Returning an entry
/// costs the host a little more than the call itself already pays for: the name is copied out
/// of the tree, and lowering it calls back into the bot (its `realloc`) before the string is
/// copied in. A few tens of nanoseconds, the time pure wasm takes for a hundred-odd fuel: a
/// listing of a whole 10,000-entry folder costs about 11 million fuel with the fees, a turn.
pub const FUEL_PER_DIRECTORY_ENTRY: u64 = 64;

/// Fuel charged per byte of a path a bot hands its data folder (`open-at`, `stat-at`, ... and
/// preview1's `path_*`, `data_fs` and `preview1_data`; a path refused unresolved too, since it
/// was copied). A path is walked component by component (split, each name looked up in its
/// directory): `cargo xtask bench hostcalls` measured 17-45 ns a component, and a 4 KiB path of
/// 2,048 nested directories held the host 44-49 times longer per unit of fuel than pure wasm at
/// 1 fuel a byte. At 16 a path is within the 8x goal whatever its shape (a component is at least
/// two bytes with its `/`), and a bot that opens a few files a turn pays a few hundred fuel.
pub const FUEL_PER_PATH_BYTE: u64 = 16;

/// Fuel charged for every call of a host function, whatever it does (`meter`). wasmtime's path
/// into and out of the host (the call hook, lifting the arguments, lowering the answer, a
/// resource table entry made or dropped) costs 75-300 ns a call (`cargo xtask bench
/// hostcalls`), the time pure wasm takes for a few thousand fuel, while the call itself costs
/// the bot only the few instructions around it: a bot looping on a clock held the host 130-900
/// times longer per unit of fuel than its own code would. At this fee every host call is
/// within a small constant of the bot's own code, and a bot that makes a few calls a turn pays
/// a few thousand fuel of its 10 million.
pub const FUEL_PER_HOST_CALL: u64 = 1024;

/// Most bytes a bot may hand the host in one call (a string or list argument, or its answer),
/// checked by wasmtime before it copies them (`Store::set_hostcall_fuel`). Over it, a host call
/// traps and an answer is malformed. Far above any game's answer and the log's bounds.
pub const MAX_HOSTCALL_BYTES: usize = 1 << 20;

/// Default fuel per turn.
pub const DEFAULT_TURN_FUEL: u64 = 10_000_000;
/// Default fuel per game.
pub const DEFAULT_GAME_FUEL: u64 = 100_000_000;
/// Default linear memory per bot, in MiB.
pub const DEFAULT_MEMORY_MIB: u32 = 64;
/// Default traps before a bot forfeits.
pub const DEFAULT_MAX_TRAPS: u32 = 3;
/// Default wall-clock backstop per call, in milliseconds: far above what a full turn budget
/// needs (10M fuel is about a millisecond of compiled code), so it never decides a normal game.
pub const DEFAULT_BACKSTOP_MS: u64 = 10_000;

/// What every bot in a match may spend. Recorded in replays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// Fuel per turn; a bot that runs out is suspended and resumes at its next turn.
    pub turn_fuel: u64,
    /// Fuel for the whole match (instantiation and `init` included); running out forfeits.
    pub game_fuel: u64,
    /// Memory per bot, in MiB: all of its linear memories and tables together (`limits`).
    pub memory_mib: u32,
    /// Traps after which a bot forfeits.
    pub max_traps: u32,
    /// Wall-clock backstop per call, in milliseconds; hitting it is handled as a trap.
    pub backstop_ms: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            turn_fuel: DEFAULT_TURN_FUEL,
            game_fuel: DEFAULT_GAME_FUEL,
            memory_mib: DEFAULT_MEMORY_MIB,
            max_traps: DEFAULT_MAX_TRAPS,
            backstop_ms: DEFAULT_BACKSTOP_MS,
        }
    }
}

impl Budget {
    /// Memory limit in bytes.
    pub fn memory_bytes(&self) -> usize {
        (self.memory_mib as usize) << 20
    }

    /// Checks the budget is usable; the message names the bad field.
    pub fn validate(&self) -> Result<(), String> {
        if self.turn_fuel == 0 {
            return Err("turn fuel must be at least 1".into());
        }
        if self.game_fuel == 0 {
            return Err("game fuel must be at least 1".into());
        }
        if self.memory_mib == 0 || self.memory_mib > 4096 {
            return Err(format!("memory must be 1..=4096 MiB, not {}", self.memory_mib));
        }
        if self.backstop_ms == 0 {
            return Err("the wall-clock backstop must be at least 1 ms".into());
        }
        Ok(())
    }
}
