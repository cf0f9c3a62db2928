//! What a bot spends: its start-up fuel (instantiation plus `init`) and its fuel per turn over a
//! played match, read from the match's replay, and what the budgets buy at that rate. Behind
//! `arena fuel`, which produces the fuel tables of `docs/writing-a-bot.md` and `docs/line-protocols.md`.

use arena_sandbox::Budget;
use serde::Serialize;

/// One seat's spending over one match.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FuelProfile {
    /// The bot's name (its file stem).
    pub bot: String,
    /// Fuel of the first start-up: instantiation and `init`.
    pub startup: u64,
    /// Turns the bot was asked to play.
    pub turns: u32,
    /// Median fuel of one turn.
    pub turn_median: u64,
    /// Most fuel of one turn.
    pub turn_max: u64,
    /// Fuel of the whole match, start-up included: measured with no game limit
    /// ([`measuring_budget`]), the game budget a full match needs.
    pub total: u64,
    /// Whether the bot forfeited (the figures then stop at the forfeit).
    pub forfeit: bool,
}

/// Why a replay could not be read as a profile.
#[derive(Debug, thiserror::Error)]
#[error("the replay has no {0}")]
pub struct ProfileError(&'static str);

impl FuelProfile {
    /// Seat `seat`'s profile in a replay (the JSON `arena match --replay` writes).
    pub fn from_replay(replay: &serde_json::Value, seat: usize) -> Result<FuelProfile, ProfileError> {
        let seat_of = |entry: &serde_json::Value| entry["seat"].as_u64() == Some(seat as u64);
        let fuel_of = |entry: &serde_json::Value| entry["fuel"].as_u64().unwrap_or(0);
        let startup = replay["setup"]
            .as_array()
            .and_then(|setup| setup.iter().find(|entry| seat_of(entry)))
            .map(fuel_of)
            .ok_or(ProfileError("setup record for the seat"))?;
        let mut turn_fuel: Vec<u64> = replay["turns"]
            .as_array()
            .ok_or(ProfileError("turns"))?
            .iter()
            .flat_map(|turn| turn["seats"].as_array().into_iter().flatten())
            .filter(|entry| seat_of(entry))
            .map(fuel_of)
            .collect();
        turn_fuel.sort_unstable();
        let player = &replay["result"]["players"][seat];
        Ok(FuelProfile {
            bot: player["bot"].as_str().ok_or(ProfileError("result for the seat"))?.to_owned(),
            startup,
            turns: turn_fuel.len() as u32,
            turn_median: turn_fuel.get(turn_fuel.len() / 2).copied().unwrap_or(0),
            turn_max: turn_fuel.last().copied().unwrap_or(0),
            total: player["fuel_total"].as_u64().unwrap_or(0),
            forfeit: player["forfeit"].as_bool().unwrap_or(false),
        })
    }

    /// How many median turns' worth of work one turn budget pays for.
    pub fn turns_of_work_per_turn_budget(&self, budget: &Budget) -> u64 {
        budget.turn_fuel / self.turn_median.max(1)
    }

    /// How many median turns the game budget pays for after the start-up.
    pub fn median_turns_per_game_budget(&self, budget: &Budget) -> u64 {
        budget.game_fuel.saturating_sub(self.startup) / self.turn_median.max(1)
    }

    /// Whether the whole match fits in `budget`'s game fuel.
    pub fn fits_game_budget(&self, budget: &Budget) -> bool {
        self.total <= budget.game_fuel
    }

    /// `ok`, `forfeit` (traps: the game budget does not stop a measured match), or `over (N.Nx
    /// the game budget)` when the whole match needs more than `budget`'s game fuel: what every
    /// table of profiles shows beside the figures, so a bot that forfeits never looks cheap.
    pub fn status(&self, budget: &Budget) -> String {
        if self.forfeit {
            "forfeit".into()
        } else if self.fits_game_budget(budget) {
            "ok".into()
        } else {
            format!("over ({:.1}x the game budget)", self.total as f64 / budget.game_fuel.max(1) as f64)
        }
    }

    /// The start-up as a share of one turn budget (which caps it), in percent.
    pub fn startup_percent_of_turn_budget(&self, budget: &Budget) -> f64 {
        100.0 * self.startup as f64 / budget.turn_fuel.max(1) as f64
    }
}

/// The budget a profile is measured with: `budget` without its game limit, so that the profile
/// shows what a whole match needs (and a bot that `budget` would stop early is measured over the
/// whole match); every other limit, turn fuel included, is `budget`'s.
pub fn measuring_budget(budget: &Budget) -> Budget {
    Budget { game_fuel: u64::MAX, ..*budget }
}

/// The table `arena fuel --markdown` prints and the documentation carries (the tests compare them):
/// one row per (profile, bot file size in bytes), figures set against `budget`.
pub fn markdown_table(rows: &[(FuelProfile, u64)], budget: &Budget) -> String {
    let mut table = format!(
        "| bot | file size | start-up fuel (instantiation + `init`) | share of the {} turn budget | median turn fuel | largest turn | turn budget / median turn | median turns the {} game budget pays for | fuel of the whole match | status |\n",
        thousands(budget.turn_fuel),
        thousands(budget.game_fuel)
    );
    table.push_str("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (profile, size) in rows {
        table.push_str(&format!(
            "| {} | {} | {} | {:.1}% | {} | {} | {}x | {} | {} | {} |\n",
            profile.bot,
            file_size(*size),
            thousands(profile.startup),
            profile.startup_percent_of_turn_budget(budget),
            thousands(profile.turn_median),
            thousands(profile.turn_max),
            thousands(profile.turns_of_work_per_turn_budget(budget)),
            thousands(profile.median_turns_per_game_budget(budget)),
            thousands(profile.total),
            profile.status(budget)
        ));
    }
    table
}

/// A file size for people: `53 KB`, `19.3 MB` (decimal units).
fn file_size(bytes: u64) -> String {
    match bytes {
        0..1_000_000 => format!("{} KB", bytes.div_ceil(1_000)),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay() -> serde_json::Value {
        serde_json::json!({
            "setup": [{"seat": 0, "fuel": 900}, {"seat": 1, "fuel": 50}],
            "turns": [
                {"seats": [{"seat": 0, "fuel": 30}]},
                {"seats": [{"seat": 1, "fuel": 7}]},
                {"seats": [{"seat": 0, "fuel": 10}]},
                {"seats": [{"seat": 0, "fuel": 20}]},
            ],
            "result": {"players": [
                {"bot": "a", "fuel_total": 960, "forfeit": false},
                {"bot": "b", "fuel_total": 57, "forfeit": true},
            ]},
        })
    }

    #[test]
    fn reads_one_seat_and_ignores_the_others() {
        let profile = FuelProfile::from_replay(&replay(), 0).unwrap();
        assert_eq!(
            profile,
            FuelProfile {
                bot: "a".into(),
                startup: 900,
                turns: 3,
                turn_median: 20,
                turn_max: 30,
                total: 960,
                forfeit: false
            }
        );
        let other = FuelProfile::from_replay(&replay(), 1).unwrap();
        assert_eq!((other.startup, other.turns, other.turn_median, other.forfeit), (50, 1, 7, true));
    }

    #[test]
    fn budgets_are_divided_by_the_median_turn() {
        let profile = FuelProfile::from_replay(&replay(), 0).unwrap();
        let budget = Budget { turn_fuel: 1_000, game_fuel: 10_900, ..Budget::default() };
        assert_eq!(profile.turns_of_work_per_turn_budget(&budget), 50);
        assert_eq!(profile.median_turns_per_game_budget(&budget), 500);
        assert!((profile.startup_percent_of_turn_budget(&budget) - 90.0).abs() < 1e-9);
    }

    #[test]
    fn a_replay_without_the_seat_is_an_error() {
        assert!(FuelProfile::from_replay(&replay(), 5).is_err());
        assert!(FuelProfile::from_replay(&serde_json::json!({}), 0).is_err());
    }

    #[test]
    fn thousands_are_separated() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(10_000_000), "10,000,000");
    }

    #[test]
    fn the_markdown_table_has_a_row_per_bot() {
        let profile = FuelProfile::from_replay(&replay(), 0).unwrap();
        let budget = Budget { turn_fuel: 1_000, game_fuel: 10_900, ..Budget::default() };
        let table = markdown_table(&[(profile, 19_312_345)], &budget);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 3);
        assert!(lines[0].contains("share of the 1,000 turn budget"), "{}", lines[0]);
        assert_eq!(lines[2], "| a | 19.3 MB | 900 | 90.0% | 20 | 30 | 50x | 500 | 960 | ok |");
        let tight = Budget { game_fuel: 480, ..budget };
        assert!(
            markdown_table(&[(FuelProfile::from_replay(&replay(), 0).unwrap(), 1)], &tight)
                .ends_with("| over (2.0x the game budget) |\n")
        );
    }
}
