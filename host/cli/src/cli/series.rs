//! `arena match --seeds A..B [--swap]`: the same bots over many seeds (and every seat rotation),
//! summed up per bot: wins, draws, losses, mean score with a 95% confidence interval, mean fuel.
//! The quick check a bot author runs before a tournament.

use arena_host::record::MatchResult;
use serde::Serialize;

/// Most matches one series plays.
pub const MAX_MATCHES: u64 = 100_000;

/// Parses `A..B`: the seeds A through B, both included.
pub fn parse_seeds(text: &str) -> Result<(u64, u64), String> {
    let (first, last) =
        text.split_once("..").ok_or_else(|| format!("expected FIRST..LAST, e.g. 1..20, not {text:?}"))?;
    let number = |part: &str| part.trim().parse::<u64>().map_err(|_| format!("{part:?} is not a seed in {text:?}"));
    let (first, last) = (number(first)?, number(last.trim_start_matches('='))?);
    if last < first {
        return Err(format!("{text:?} is empty: the last seed is below the first"));
    }
    Ok((first, last))
}

/// The matches of a series: every seed, each with every seat rotation when `rotate`
/// (`seating[s]` is the command-line bot in seat `s`).
pub fn plan(seeds: (u64, u64), bots: usize, rotate: bool) -> Result<Vec<(u64, Vec<usize>)>, String> {
    let rotations = if rotate { bots } else { 1 };
    let count = (seeds.1 - seeds.0).saturating_add(1).saturating_mul(rotations as u64);
    if count > MAX_MATCHES {
        return Err(format!("{count} matches is over the {MAX_MATCHES} one series plays"));
    }
    let mut plan = Vec::new();
    for seed in seeds.0..=seeds.1 {
        for rotation in 0..rotations {
            plan.push((seed, (0..bots).map(|seat| (seat + rotation) % bots).collect()));
        }
    }
    Ok(plan)
}

/// One bot's line of a series.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Standing {
    /// The bot's name.
    pub bot: String,
    /// Matches played.
    pub matches: u32,
    /// Matches it ranked first alone.
    pub wins: u32,
    /// Matches it shared first rank.
    pub draws: u32,
    /// The others.
    pub losses: u32,
    /// Mean score.
    pub score_mean: f64,
    /// Half-width of the 95% confidence interval of the mean score (normal approximation);
    /// `None` for fewer than two matches.
    pub score_ci95: Option<f64>,
    /// Mean fuel per match.
    pub fuel_mean: f64,
}

/// Sums up `results` (each with its seating) per command-line bot.
pub fn standings(bots: usize, results: &[(Vec<usize>, MatchResult)]) -> Vec<Standing> {
    (0..bots)
        .map(|bot| {
            let mut name = String::new();
            let (mut wins, mut draws, mut losses) = (0, 0, 0);
            let mut scores = Vec::new();
            let mut fuel = 0u128;
            for (seating, result) in results {
                for (seat, _) in seating.iter().enumerate().filter(|(_, index)| **index == bot) {
                    let Some(player) = result.players.get(seat) else { continue };
                    name.clone_from(&player.bot);
                    let firsts = result.players.iter().filter(|other| other.rank == 1).count();
                    match (player.rank, firsts) {
                        (1, 1) => wins += 1,
                        (1, _) => draws += 1,
                        _ => losses += 1,
                    }
                    scores.push(player.score as f64);
                    fuel += u128::from(player.fuel_total);
                }
            }
            let matches = scores.len();
            let mean = if matches == 0 { 0.0 } else { scores.iter().sum::<f64>() / matches as f64 };
            let ci95 = (matches >= 2).then(|| {
                let variance = scores.iter().map(|score| (score - mean).powi(2)).sum::<f64>() / (matches - 1) as f64;
                1.96 * (variance / matches as f64).sqrt()
            });
            Standing {
                bot: name,
                matches: matches as u32,
                wins,
                draws,
                losses,
                score_mean: mean,
                score_ci95: ci95,
                fuel_mean: if matches == 0 { 0.0 } else { fuel as f64 / matches as f64 },
            }
        })
        .collect()
}

/// The standings as a table, the bot column as wide as the longest name.
pub fn format_standings(standings: &[Standing]) -> String {
    let width = standings.iter().map(|line| line.bot.chars().count()).max().unwrap_or(0).max(20);
    let mut table = format!(
        "{:<width$} {:>7} {:>5} {:>5} {:>6} {:>22} {:>14}\n",
        "bot", "matches", "wins", "draws", "losses", "score (mean ± 95% CI)", "fuel/match"
    );
    for line in standings {
        let score = match line.score_ci95 {
            Some(ci) => format!("{:.1} ± {ci:.1}", line.score_mean),
            None => format!("{:.1}", line.score_mean),
        };
        table += &format!(
            "{:<width$} {:>7} {:>5} {:>5} {:>6} {:>22} {:>14.0}\n",
            line.bot, line.matches, line.wins, line.draws, line.losses, score, line.fuel_mean
        );
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_host::record::PlayerSummary;

    fn player(bot: &str, score: i64, rank: u32) -> PlayerSummary {
        PlayerSummary {
            bot: bot.into(),
            sha256: String::new(),
            data: None,
            score,
            rank,
            forfeit: false,
            forfeit_reason: None,
            fuel_total: 100,
            fuel_max_turn: 10,
            skipped_turns: 0,
            traps: 0,
            invalid_actions: 0,
        }
    }

    fn result(players: Vec<PlayerSummary>) -> MatchResult {
        MatchResult { game: "azul".into(), seed: 0, turns: 1, winner: None, players }
    }

    #[test]
    fn seeds_are_an_inclusive_range() {
        assert_eq!(parse_seeds("1..20"), Ok((1, 20)));
        assert_eq!(parse_seeds("3..=3"), Ok((3, 3)));
        assert!(parse_seeds("5..2").is_err());
        assert!(parse_seeds("7").is_err());
        assert!(parse_seeds("a..b").is_err());
    }

    #[test]
    fn rotating_plays_every_seat_order_on_the_same_seed() {
        assert_eq!(
            plan((4, 5), 2, true).unwrap(),
            [(4, vec![0, 1]), (4, vec![1, 0]), (5, vec![0, 1]), (5, vec![1, 0])]
        );
        assert_eq!(plan((1, 1), 3, true).unwrap(), [(1, vec![0, 1, 2]), (1, vec![1, 2, 0]), (1, vec![2, 0, 1])]);
        assert_eq!(plan((1, 3), 2, false).unwrap().len(), 3);
        assert!(plan((0, MAX_MATCHES), 2, true).is_err());
    }

    /// Results are credited to the command-line bot in each seat, whatever the seating.
    #[test]
    fn standings_follow_the_bots_through_seat_swaps() {
        let results = vec![
            (vec![0, 1], result(vec![player("a", 10, 1), player("b", 4, 2)])),
            (vec![1, 0], result(vec![player("b", 6, 2), player("a", 8, 1)])),
            (vec![0, 1], result(vec![player("a", 5, 1), player("b", 5, 1)])),
        ];
        let lines = standings(2, &results);
        assert_eq!((lines[0].bot.as_str(), lines[0].wins, lines[0].draws, lines[0].losses), ("a", 2, 1, 0));
        assert_eq!((lines[1].bot.as_str(), lines[1].wins, lines[1].draws, lines[1].losses), ("b", 0, 1, 2));
        assert!((lines[0].score_mean - 23.0 / 3.0).abs() < 1e-9);
        // Sample standard deviation of 10, 8, 5 is sqrt(6.333..): 1.96 * sqrt(6.333../3).
        let ci = lines[0].score_ci95.unwrap();
        assert!((ci - 1.96 * (19.0f64 / 3.0 / 3.0).sqrt()).abs() < 1e-9, "{ci}");
        assert_eq!(standings(2, &results[..1])[0].score_ci95, None);
    }
}
