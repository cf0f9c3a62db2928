//! The leaderboard: per bot, its record and figures summed from the database, its rating
//! ([`super::ratings`]), best first; and how it prints (table, JSON, CSV, Markdown).

use super::ratings::{Game, Meetings, bradley_terry_of};
use super::store::{SeatRow, Store, StoreError};
use serde::Serialize;
use std::collections::BTreeMap;

/// One bot's line.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// Name (file name without `.wasm`).
    pub bot: String,
    /// sha256 of the file.
    pub sha256: String,
    /// Matches played.
    pub matches: u64,
    /// Matches it placed first alone.
    pub wins: u64,
    /// Matches it shared first place.
    pub draws: u64,
    /// The others.
    pub losses: u64,
    /// Mean final score.
    pub mean_score: f64,
    /// Bradley-Terry rating (Elo scale).
    pub rating: f64,
    /// 95% interval, low end.
    pub rating_low: f64,
    /// 95% interval, high end.
    pub rating_high: f64,
    /// Matches forfeited.
    pub forfeits: u64,
    /// Traps.
    pub traps: u64,
    /// Invalid actions.
    pub invalid_actions: u64,
    /// Skipped turns.
    pub skipped_turns: u64,
    /// Fuel per turn, averaged over every turn it was asked to play.
    pub mean_fuel_per_turn: u64,
    /// Largest turn.
    pub max_fuel_per_turn: u64,
    /// Why it could not be loaded (it played nothing), if so.
    pub load_error: Option<String>,
}

/// The tournament as the database has it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Leaderboard {
    /// Matches the SPEC plans.
    pub matches_planned: u64,
    /// Matches played.
    pub matches_played: u64,
    /// Matches recorded as not played (a bot failed to load, or the match could not run).
    pub matches_not_played: u64,
    /// Best first.
    pub leaderboard: Vec<Standing>,
}

/// Reads the leaderboard of the SPEC `digest` (default: the last one run) from `store`.
pub fn read(store: &Store, digest: Option<&str>) -> Result<Option<Leaderboard>, StoreError> {
    let digest = match digest {
        Some(digest) => digest.to_owned(),
        None => match store.current_spec()? {
            Some(digest) => digest,
            None => return Ok(None),
        },
    };
    let (matches_planned, matches_played, matches_not_played) = store.progress(&digest)?;
    let bots = store.bots(&digest)?;
    let seats = store.seats(&digest)?;
    Ok(Some(Leaderboard { matches_planned, matches_played, matches_not_played, leaderboard: standings(&bots, &seats) }))
}

/// Sums `seats` (ordered by match, then seat) into standings for `bots` (sha256, name, load
/// error), rated, best first (ties by name).
pub fn standings(bots: &[(String, String, Option<String>)], seats: &[SeatRow]) -> Vec<Standing> {
    let index: BTreeMap<&str, usize> = bots.iter().enumerate().map(|(i, (sha, _, _))| (sha.as_str(), i)).collect();
    let mut tally = Tally::new(bots.len());
    for one_match in seats.chunk_by(|a, b| a.match_id == b.match_id) {
        tally.add_match(one_match.iter().filter_map(|seat| Some((*index.get(seat.sha256.as_str())?, seat))));
    }
    let mut rows = tally.standings(bots);
    rows.sort_by(|a, b| b.rating.total_cmp(&a.rating).then_with(|| a.bot.cmp(&b.bot)));
    rows
}

/// Running sums of results, match by match, for bots known by index: everything a standing
/// shows and the rating's pairwise totals, in memory proportional to the bots and the pairs
/// that met, not to the matches (a ladder folds its results into one as it reads them).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Tally {
    sums: Vec<Sums>,
    meetings: Meetings,
}

/// One bot's sums.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Sums {
    matches: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    forfeits: u64,
    traps: u64,
    invalid_actions: u64,
    skipped_turns: u64,
    max_fuel_per_turn: u64,
    score: i64,
    fuel: u128,
    turns: u128,
}

impl Tally {
    /// Nothing yet for `bots` bots.
    pub fn new(bots: usize) -> Tally {
        Tally { sums: vec![Sums::default(); bots], meetings: Meetings::new(bots) }
    }

    /// Adds one match: its seats, each with its bot's index (a seat of a bot out of range
    /// counts for nobody), in seat order.
    pub fn add_match<'a>(&mut self, seats: impl IntoIterator<Item = (usize, &'a SeatRow)>) {
        let seats: Vec<(usize, &SeatRow)> = seats.into_iter().filter(|(bot, _)| *bot < self.sums.len()).collect();
        let firsts = seats.iter().filter(|(_, seat)| seat.rank == 1).count();
        for &(bot, seat) in &seats {
            let row = &mut self.sums[bot];
            row.matches += 1;
            match (seat.rank, firsts) {
                (1, 1) => row.wins += 1,
                (1, _) => row.draws += 1,
                _ => row.losses += 1,
            }
            row.forfeits += u64::from(seat.forfeit);
            row.traps += u64::from(seat.traps);
            row.invalid_actions += u64::from(seat.invalid_actions);
            row.skipped_turns += u64::from(seat.skipped_turns);
            row.max_fuel_per_turn = row.max_fuel_per_turn.max(seat.fuel_max_turn);
            row.score += seat.score;
            row.fuel += u128::from(seat.fuel_total);
            row.turns += u128::from(seat.turns);
        }
        for (i, &(a, first)) in seats.iter().enumerate() {
            for &(b, second) in &seats[i + 1..] {
                let score_a = match first.rank.cmp(&second.rank) {
                    std::cmp::Ordering::Less => 1.0,
                    std::cmp::Ordering::Equal => 0.5,
                    std::cmp::Ordering::Greater => 0.0,
                };
                self.meetings.add(Game { a, b, score_a });
            }
        }
    }

    /// Matches bot `bot` played.
    pub fn matches_of(&self, bot: usize) -> u64 {
        self.sums.get(bot).map_or(0, |sums| sums.matches)
    }

    /// The standings of `bots` (sha256, name, load error; by index, as many as the tally was
    /// made for), rated, in index order.
    pub fn standings(&self, bots: &[(String, String, Option<String>)]) -> Vec<Standing> {
        let ratings = bradley_terry_of(&self.meetings);
        bots.iter()
            .zip(&self.sums)
            .zip(ratings)
            .map(|(((sha256, name, load_error), sums), rating)| Standing {
                bot: name.clone(),
                sha256: sha256.clone(),
                matches: sums.matches,
                wins: sums.wins,
                draws: sums.draws,
                losses: sums.losses,
                mean_score: if sums.matches > 0 { sums.score as f64 / sums.matches as f64 } else { 0.0 },
                rating: rating.rating,
                rating_low: rating.low,
                rating_high: rating.high,
                forfeits: sums.forfeits,
                traps: sums.traps,
                invalid_actions: sums.invalid_actions,
                skipped_turns: sums.skipped_turns,
                mean_fuel_per_turn: sums
                    .fuel
                    .checked_div(sums.turns)
                    .map_or(0, |mean| u64::try_from(mean).unwrap_or(u64::MAX)),
                max_fuel_per_turn: sums.max_fuel_per_turn,
                load_error: load_error.clone(),
            })
            .collect()
    }
}

/// How `show` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Aligned columns.
    Table,
    /// One JSON object.
    Json,
    /// CSV with a header line.
    Csv,
    /// A Markdown table.
    Markdown,
}

pub(crate) const HEADERS: [&str; 13] = [
    "rank",
    "bot",
    "rating",
    "95% interval",
    "matches",
    "wins",
    "draws",
    "losses",
    "mean score",
    "forfeits",
    "traps",
    "invalid",
    "fuel/turn (mean, max)",
];

/// The cells of one standing, as [`HEADERS`] names them.
pub(crate) fn cells(place: usize, row: &Standing) -> [String; 13] {
    [
        (place + 1).to_string(),
        row.bot.clone(),
        format!("{:.0}", row.rating),
        format!("{:.0}..{:.0}", row.rating_low, row.rating_high),
        row.matches.to_string(),
        row.wins.to_string(),
        row.draws.to_string(),
        row.losses.to_string(),
        format!("{:.2}", row.mean_score),
        row.forfeits.to_string(),
        row.traps.to_string(),
        row.invalid_actions.to_string(),
        format!("{}, {}", row.mean_fuel_per_turn, row.max_fuel_per_turn),
    ]
}

/// The leaderboard as text in `style`.
pub fn render(board: &Leaderboard, style: Style) -> String {
    let rows: Vec<[String; 13]> = board.leaderboard.iter().enumerate().map(|(place, row)| cells(place, row)).collect();
    let mut out = String::new();
    match style {
        Style::Json => out = serde_json::to_string(board).unwrap_or_default(),
        Style::Csv => {
            out.push_str(&HEADERS.join(","));
            for row in &rows {
                out.push('\n');
                let quoted: Vec<String> = row.iter().map(|cell| format!("\"{}\"", cell.replace('"', "\"\""))).collect();
                out.push_str(&quoted.join(","));
            }
        }
        Style::Markdown => {
            out.push_str(&format!("| {} |\n", HEADERS.join(" | ")));
            out.push_str(&format!("|{}\n", " --- |".repeat(HEADERS.len())));
            for row in &rows {
                out.push_str(&format!("| {} |\n", row.join(" | ")));
            }
        }
        Style::Table => {
            out.push_str(&format!(
                "{} of {} matches played{}\n",
                board.matches_played,
                board.matches_planned,
                match board.matches_not_played {
                    0 => String::new(),
                    n => format!(", {n} not played"),
                }
            ));
            let widths: Vec<usize> = (0..HEADERS.len())
                .map(|c| rows.iter().map(|row| row[c].chars().count()).chain([HEADERS[c].len()]).max().unwrap_or(0))
                .collect();
            let line = |cells: Vec<&str>| -> String {
                let padded: Vec<String> = cells
                    .iter()
                    .enumerate()
                    .map(|(c, cell)| {
                        if c == 1 { format!("{cell:<w$}", w = widths[c]) } else { format!("{cell:>w$}", w = widths[c]) }
                    })
                    .collect();
                padded.join("  ").trim_end().to_owned()
            };
            out.push_str(&line(HEADERS.to_vec()));
            for row in &rows {
                out.push('\n');
                out.push_str(&line(row.iter().map(String::as_str).collect()));
            }
            for row in board.leaderboard.iter().filter(|row| row.load_error.is_some()) {
                out.push_str(&format!(
                    "\n{} was not loaded: {}",
                    row.bot,
                    row.load_error.as_deref().unwrap_or_default()
                ));
            }
        }
    }
    out.trim_end().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat(match_id: &str, seat: u32, sha256: &str, rank: u32, score: i64) -> SeatRow {
        SeatRow {
            match_id: match_id.into(),
            seat,
            sha256: sha256.into(),
            score,
            rank,
            forfeit: false,
            traps: 0,
            invalid_actions: 0,
            skipped_turns: 0,
            fuel_total: 100,
            fuel_max_turn: 10,
            turns: 10,
        }
    }

    #[test]
    fn records_and_ratings_are_summed_per_bot_best_first() {
        let bots = vec![("a".to_owned(), "alpha".to_owned(), None), ("b".to_owned(), "beta".to_owned(), None)];
        let seats = vec![
            seat("m1", 0, "a", 2, 3),
            seat("m1", 1, "b", 1, 9),
            seat("m2", 0, "b", 1, 7),
            seat("m2", 1, "a", 1, 7),
            seat("m3", 0, "a", 2, 1),
            seat("m3", 1, "b", 1, 5),
        ];
        let rows = standings(&bots, &seats);
        assert_eq!(rows[0].bot, "beta");
        assert_eq!((rows[0].matches, rows[0].wins, rows[0].draws, rows[0].losses), (3, 2, 1, 0));
        assert_eq!((rows[1].wins, rows[1].draws, rows[1].losses), (0, 1, 2));
        assert!((rows[0].mean_score - 7.0).abs() < 1e-9);
        assert!(rows[0].rating > rows[1].rating);
        assert_eq!(rows[0].mean_fuel_per_turn, 10);
    }
}
