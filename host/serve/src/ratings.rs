//! A game's leaderboard from its ranked results: the tournament's standings
//! ([`arena_tournament::leaderboard::standings`]: records, fault counts, fuel, and the
//! Bradley-Terry fit over every result at once, with its 95% interval), one line per bot version.
//! The fit is order-independent, so anyone holding the results computes the same ratings.

use crate::store::{Bot, Match, Version};
use arena_tournament::leaderboard::{Standing, standings};
use arena_tournament::store::SeatRow;
use serde::Serialize;
use std::collections::BTreeMap;

/// One version's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Line {
    /// The bot's id.
    pub bot_id: i64,
    /// The bot's name.
    pub bot: String,
    /// The owner's name.
    pub owner: String,
    /// The version's id.
    pub version_id: i64,
    /// The version: its file's sha256.
    pub version: String,
    /// Whether it is its bot's current version (older ones keep their line and stop playing).
    pub current: bool,
    /// Rating (Elo scale).
    pub rating: f64,
    /// 95% interval.
    pub interval: [f64; 2],
    /// Ranked matches played.
    pub matches: u64,
    /// Won alone.
    pub wins: u64,
    /// Shared first place.
    pub draws: u64,
    /// The others.
    pub losses: u64,
    /// Forfeits, traps and invalid actions.
    pub faults: u64,
    /// Fuel per turn, averaged over every turn it played.
    pub mean_fuel_per_turn: u64,
}

/// A game's leaderboard.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leaderboard {
    /// The game.
    pub game: String,
    /// Ranked matches it is fitted on.
    pub matches: u64,
    /// Best first (ties by bot name, then version id).
    pub leaderboard: Vec<Line>,
}

/// The leaderboard of `game` from its ranked `results`, for the versions of `bots` that played
/// (`versions`: every version of those bots; `current`: each bot's current version id).
pub fn leaderboard(
    game: &str,
    bots: &[Bot],
    versions: &[Version],
    current: &BTreeMap<i64, i64>,
    results: &[Match],
) -> Leaderboard {
    let bot_of: BTreeMap<i64, &Bot> = bots.iter().map(|bot| (bot.id, bot)).collect();
    // The standings are keyed by a text per entrant: the version's id.
    let played: Vec<&Version> = versions
        .iter()
        .filter(|version| results.iter().any(|m| m.seats.iter().any(|seat| seat.version_id == version.id)))
        .collect();
    let keys: Vec<(String, String, Option<String>)> =
        played.iter().map(|version| (version.id.to_string(), version.sha256.clone(), None)).collect();
    let mut seats = Vec::new();
    for one in results {
        for (seat, taken) in one.seats.iter().enumerate() {
            let Some(outcome) = &taken.outcome else { continue };
            let key = taken.version_id.to_string();
            seats.push(SeatRow::of(one.id.to_string(), seat as u32, key, &outcome.player, outcome.turns));
        }
    }
    let by_key: BTreeMap<String, &Version> = played.iter().map(|version| (version.id.to_string(), *version)).collect();
    let mut lines: Vec<Line> = standings(&keys, &seats)
        .into_iter()
        .filter_map(|standing: Standing| {
            let version = by_key.get(&standing.sha256)?;
            let bot = bot_of.get(&version.bot_id)?;
            Some(Line {
                bot_id: bot.id,
                bot: bot.name.clone(),
                owner: bot.owner_name.clone(),
                version_id: version.id,
                version: version.sha256.clone(),
                current: current.get(&bot.id) == Some(&version.id),
                rating: standing.rating,
                interval: [standing.rating_low, standing.rating_high],
                matches: standing.matches,
                wins: standing.wins,
                draws: standing.draws,
                losses: standing.losses,
                faults: standing.forfeits + standing.traps + standing.invalid_actions,
                mean_fuel_per_turn: standing.mean_fuel_per_turn,
            })
        })
        .collect();
    lines.sort_by(|a, b| b.rating.total_cmp(&a.rating).then(a.bot.cmp(&b.bot)).then(a.version_id.cmp(&b.version_id)));
    Leaderboard { game: game.to_owned(), matches: results.len() as u64, leaderboard: lines }
}
