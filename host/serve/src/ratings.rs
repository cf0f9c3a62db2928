//! A game's leaderboard from its ranked results: the tournament's standings
//! ([`arena_tournament::leaderboard::Tally`], folded result by result: records, fault counts, fuel, and the
//! Bradley-Terry fit over every result at once, with its 95% interval), one line per bot version.
//! The fit is order-independent, so anyone holding the results computes the same ratings.

use crate::store::{Bot, Match, RatingPoint, Version};
use arena_tournament::leaderboard::{Standing, Tally};
use arena_tournament::store::SeatRow;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// One version's line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Leaderboard {
    /// The game.
    pub game: String,
    /// Ranked matches it is fitted on.
    pub matches: u64,
    /// Best first (ties by bot name, then version id).
    pub leaderboard: Vec<Line>,
}

/// A game's ranked results folded per version as they are read ([`Results::add`]), in memory
/// proportional to the versions and the pairs that met, not to the results: what a leaderboard
/// is fitted on.
#[derive(Debug, Clone)]
pub struct Results {
    /// Each version's index in the tally: the order of the versions it was made for.
    index: BTreeMap<i64, usize>,
    tally: Tally,
    matches: u64,
}

impl Results {
    /// No results yet, for `versions` (every version a result may seat; a seat of another
    /// counts for nobody).
    pub fn new(versions: &[Version]) -> Results {
        let index = versions.iter().enumerate().map(|(i, version)| (version.id, i)).collect();
        Results { index, tally: Tally::new(versions.len()), matches: 0 }
    }

    /// Adds one ranked result (its seats without an outcome count for nobody).
    pub fn add(&mut self, one: &Match) {
        let rows: Vec<(usize, SeatRow)> = one
            .seats
            .iter()
            .enumerate()
            .filter_map(|(seat, taken)| {
                let outcome = taken.outcome.as_ref()?;
                let bot = *self.index.get(&taken.version_id)?;
                // The tally keys seats by index: the row's match id and key are not read.
                Some((bot, SeatRow::of(String::new(), seat as u32, String::new(), &outcome.player, outcome.turns)))
            })
            .collect();
        self.tally.add_match(rows.iter().map(|(bot, row)| (*bot, row)));
        self.matches += 1;
    }
}

/// The leaderboard of `game` from its ranked `results`, for the versions of `bots` that played
/// (`versions`: every version of those bots, as [`Results::new`] was given them; `current`:
/// each bot's current version id).
pub fn leaderboard(
    game: &str,
    bots: &[Bot],
    versions: &[Version],
    current: &BTreeMap<i64, i64>,
    results: &Results,
) -> Leaderboard {
    let bot_of: BTreeMap<i64, &Bot> = bots.iter().map(|bot| (bot.id, bot)).collect();
    // The standings are keyed by a text per entrant: the version's id.
    let keys: Vec<(String, String, Option<String>)> =
        versions.iter().map(|version| (version.id.to_string(), version.sha256.clone(), None)).collect();
    let mut lines: Vec<Line> = versions
        .iter()
        .zip(results.tally.standings(&keys))
        .filter(|(_, standing)| standing.matches > 0)
        .filter_map(|(version, standing): (&Version, Standing)| {
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
    Leaderboard { game: game.to_owned(), matches: results.matches, leaderboard: lines }
}

/// The leaderboard of `game` from `results` in memory (a dump's, a competition's): folded into
/// [`Results`], then as [`leaderboard`].
pub fn leaderboard_of(
    game: &str,
    bots: &[Bot],
    versions: &[Version],
    current: &BTreeMap<i64, i64>,
    results: &[Match],
) -> Leaderboard {
    let mut folded = Results::new(versions);
    for one in results {
        folded.add(one);
    }
    leaderboard(game, bots, versions, current, &folded)
}

/// The lines of `board` that are new or moved (rating, interval or matches) since `previous`
/// (the fit before it; none after a start), as points of their versions' rating histories.
pub fn moved_lines(previous: Option<&Leaderboard>, board: &Leaderboard) -> Vec<RatingPoint> {
    let before: BTreeMap<i64, &Line> = previous
        .map(|previous| previous.leaderboard.iter().map(|line| (line.version_id, line)).collect())
        .unwrap_or_default();
    board
        .leaderboard
        .iter()
        .filter(|line| {
            before
                .get(&line.version_id)
                .is_none_or(|was| (was.rating, was.interval, was.matches) != (line.rating, line.interval, line.matches))
        })
        .map(|line| RatingPoint {
            version_id: line.version_id,
            results: board.matches,
            rating: line.rating,
            interval: line.interval,
            matches: line.matches,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(version_id: i64, rating: f64, matches: u64) -> Line {
        Line {
            bot_id: version_id,
            bot: format!("bot-{version_id}"),
            owner: "owner".into(),
            version_id,
            version: "a".repeat(64),
            current: true,
            rating,
            interval: [rating - 50.0, rating + 50.0],
            matches,
            wins: 0,
            draws: 0,
            losses: 0,
            faults: 0,
            mean_fuel_per_turn: 0,
        }
    }

    #[test]
    fn only_new_and_moved_lines_become_points_at_the_fits_count_of_results() {
        let board = |matches, leaderboard| Leaderboard { game: "azul".into(), matches, leaderboard };
        let first = board(10, vec![line(1, 1500.0, 10), line(2, 1400.0, 10)]);
        let points = moved_lines(None, &first);
        assert_eq!(
            points.iter().map(|point| (point.version_id, point.results)).collect::<Vec<_>>(),
            [(1, 10), (2, 10)]
        );
        assert_eq!(points[0].interval, [1450.0, 1550.0]);
        let second = board(12, vec![line(1, 1500.0, 10), line(2, 1400.5, 12), line(3, 1450.0, 2)]);
        let moved = moved_lines(Some(&first), &second);
        assert_eq!(moved.iter().map(|point| point.version_id).collect::<Vec<_>>(), [2, 3], "version 1 did not move");
        assert_eq!((moved[0].results, moved[0].rating, moved[0].matches), (12, 1400.5, 12));
        assert!(moved_lines(Some(&second), &second).is_empty());
    }
}
