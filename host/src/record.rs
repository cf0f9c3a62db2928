//! What a match leaves behind: the replay record ([`MatchRecord`], written as the replay file's
//! JSON), its turns and seats, the bots as the replay names them, the runtime a replay promises
//! the same fuel on, and the result the CLI prints. Plain data, below everything that plays,
//! loads or verifies matches.

use crate::budget::{Budget, FUEL_COSTS, WASMTIME_VERSION};
use crate::fault::{BotFault, ForfeitReason};
use crate::log::TurnLog;
use arena_game::{Game, RNG_ALGORITHM};
use serde::{Deserialize, Serialize};

/// Name and version of the replay format.
pub const REPLAY_FORMAT: &str = "wasm-arena-replay/1";

/// The replay format of a match in which a bot brought a data folder: version 1 plus each such
/// bot's `data` ([`BotRef::data`]). Only those matches are written in it, so an
/// arena from before data folders refuses the replay by its format instead of re-running the
/// match without the data.
pub const REPLAY_FORMAT_WITH_DATA: &str = "wasm-arena-replay/2";

/// The format of a replay whose bots are `bots`.
pub fn replay_format(bots: &[BotRef]) -> &'static str {
    if bots.iter().any(|bot| bot.data.is_some()) { REPLAY_FORMAT_WITH_DATA } else { REPLAY_FORMAT }
}

/// What a replay needs to know about the runtime to promise the same fuel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuntimeInfo {
    /// The wasmtime release.
    pub wasmtime: String,
    /// The fuel cost settings.
    pub fuel_costs: String,
    /// The game RNG algorithm.
    pub rng: String,
    /// The arena's version.
    pub arena: String,
}

impl RuntimeInfo {
    /// This build's runtime.
    pub fn current() -> RuntimeInfo {
        RuntimeInfo {
            wasmtime: WASMTIME_VERSION.into(),
            fuel_costs: FUEL_COSTS.into(),
            rng: RNG_ALGORITHM.into(),
            arena: env!("CARGO_PKG_VERSION").into(),
        }
    }
}

pub use arena_load::BotRef;

/// One seat's part of a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct SeatTurn<G: Game> {
    /// The seat.
    pub seat: usize,
    /// What the bot answered, if it answered in time with a well-formed action.
    pub answer: Option<G::Action>,
    /// What the game applied: the answer if valid, else the game's fallback (none when the
    /// fallback is "nothing").
    pub applied: Option<G::Action>,
    /// Fuel spent this turn.
    pub fuel: u64,
    /// What went wrong.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub faults: Vec<BotFault>,
    /// What the bot logged.
    #[serde(default, skip_serializing_if = "TurnLog::is_empty")]
    pub log: TurnLog,
}

/// One turn of the match.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct TurnRecord<G: Game> {
    /// 1-based turn number.
    pub turn: u32,
    /// The acting seats.
    pub seats: Vec<SeatTurn<G>>,
    /// What happened in the game.
    pub events: Vec<G::Event>,
    /// The game state hash after the turn, hex.
    pub state_hash: String,
}

/// Per-player line of a match result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerSummary {
    /// Bot name.
    pub bot: String,
    /// sha256 of the bot file, hex.
    pub sha256: String,
    /// The digest of its data folder, if it brought one ([`crate::bot_data::DataRef::digest`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data: Option<String>,
    /// Final score.
    pub score: i64,
    /// Final rank, 1 = best; forfeited bots rank below the rest.
    pub rank: u32,
    /// Whether the bot forfeited.
    pub forfeit: bool,
    /// Why, if it did.
    pub forfeit_reason: Option<ForfeitReason>,
    /// Fuel spent, start-up included.
    pub fuel_total: u64,
    /// Most fuel in one turn.
    pub fuel_max_turn: u64,
    /// Turns skipped while suspended.
    pub skipped_turns: u32,
    /// Traps.
    pub traps: u32,
    /// Refused answers.
    pub invalid_actions: u32,
}

impl PlayerSummary {
    /// Its bot's identity as one string ([`crate::bot_data::bot_identity`]): where a tournament
    /// keys the seat.
    pub fn identity(&self) -> String {
        crate::bot_data::bot_identity(&self.sha256, self.data.as_deref())
    }
}

/// The result of a match: what the CLI prints with `--json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchResult {
    /// The game's name.
    pub game: String,
    /// The match seed.
    pub seed: u64,
    /// Turns played.
    pub turns: u32,
    /// The winning seat, or `None` for a draw.
    pub winner: Option<usize>,
    /// Per seat, in seat order.
    pub players: Vec<PlayerSummary>,
}

/// Everything about a match: the replay file is this, as JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(bound = "")]
pub struct MatchRecord<G: Game> {
    /// [`REPLAY_FORMAT`], or [`REPLAY_FORMAT_WITH_DATA`] when a bot brought data.
    pub format: String,
    /// The game's name.
    pub game: String,
    /// The game's configuration.
    pub config: G::Config,
    /// The match seed.
    pub seed: u64,
    /// Budgets and limits.
    pub budget: Budget,
    /// Runtime versions.
    pub runtime: RuntimeInfo,
    /// The bots, in seat order.
    pub bots: Vec<BotRef>,
    /// Each seat's start-up (instantiation and `init`).
    pub setup: Vec<SeatTurn<G>>,
    /// The turns.
    pub turns: Vec<TurnRecord<G>>,
    /// The result.
    pub result: MatchResult,
}

impl<G: Game> MatchRecord<G> {
    /// The record's digest, `blake3:<hex>`: BLAKE3 of its bincode (standard) encoding, the
    /// encoding the per-turn state hashes use. A tournament stores it to audit determinism (two
    /// plays of one match spec must agree on it) without writing the replay's JSON text, which
    /// costs a quarter of a short match; hashing the encoding costs a few microseconds. Like the
    /// state hashes, the encoding leaves out fields the replay omits when empty.
    ///
    /// Where each bot's file was loaded from is left out too: two machines play the same match
    /// with the same files in different folders (a NATS worker's bots folder, a ladder's blob
    /// store), and must agree. The bots' names and sha256s are in, and the digests of their data
    /// folders when a bot has one (a match without data digests as it did before data folders).
    pub fn digest(&self) -> Result<String, bincode::error::EncodeError> {
        let bots: Vec<(&str, &str)> = self.bots.iter().map(|bot| (bot.name.as_str(), bot.sha256.as_str())).collect();
        let data: Vec<Option<&str>> =
            self.bots.iter().map(|bot| bot.data.as_ref().map(|data| data.digest.as_str())).collect();
        let digested = (
            &self.format,
            &self.game,
            &self.config,
            self.seed,
            &self.budget,
            &self.runtime,
            bots,
            &self.setup,
            &self.turns,
            &self.result,
        );
        let bytes = if data.iter().all(Option::is_none) {
            bincode::serde::encode_to_vec(digested, bincode::config::standard())?
        } else {
            bincode::serde::encode_to_vec((digested, data), bincode::config::standard())?
        };
        Ok(format!("blake3:{}", blake3::hash(&bytes).to_hex()))
    }
}
