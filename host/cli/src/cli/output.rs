//! Human-readable match results.

use arena_host::record::MatchResult;
use std::fmt::Write as _;

/// Prints the result as a short table.
pub fn print_table(result: &MatchResult) {
    outln!("{}", format_table(result).trim_end());
}

/// The result as a table whose bot column is as wide as the longest bot name, so long names
/// never push the other columns out of line.
fn format_table(result: &MatchResult) -> String {
    let winner = match result.winner {
        Some(seat) => format!("seat {seat} ({})", result.players.get(seat).map_or("?", |p| p.bot.as_str())),
        None => "draw".into(),
    };
    let width = result.players.iter().map(|player| player.bot.chars().count()).max().unwrap_or(0).max(20);
    let mut table = format!("{} seed {}: {} turns, winner: {winner}\n", result.game, result.seed, result.turns);
    let _ = writeln!(
        table,
        "{:<4} {:<width$} {:>6} {:>4} {:>12} {:>12} {:>7} {:>5} {:>7}  status",
        "seat", "bot", "score", "rank", "fuel", "max/turn", "skipped", "traps", "invalid"
    );
    for (seat, player) in result.players.iter().enumerate() {
        let status = match player.forfeit_reason {
            Some(reason) => {
                format!("forfeit ({})", serde_json::to_value(reason).unwrap_or_default().as_str().unwrap_or("?"))
            }
            None => "ok".into(),
        };
        let _ = writeln!(
            table,
            "{:<4} {:<width$} {:>6} {:>4} {:>12} {:>12} {:>7} {:>5} {:>7}  {}",
            seat,
            player.bot,
            player.score,
            player.rank,
            player.fuel_total,
            player.fuel_max_turn,
            player.skipped_turns,
            player.traps,
            player.invalid_actions,
            status
        );
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_host::record::PlayerSummary;

    fn player(bot: &str, score: i64) -> PlayerSummary {
        PlayerSummary {
            bot: bot.into(),
            sha256: "00".repeat(32),
            score,
            rank: 1,
            forfeit: false,
            forfeit_reason: None,
            fuel_total: 123,
            fuel_max_turn: 45,
            skipped_turns: 0,
            traps: 0,
            invalid_actions: 0,
        }
    }

    /// A long bot name does not break the table: every row's columns line up.
    #[test]
    fn long_bot_names_keep_the_columns_aligned() {
        let long = "a-bot-with-a-name-far-longer-than-the-column-was";
        let result = MatchResult {
            game: "azul".into(),
            seed: 1,
            turns: 3,
            winner: Some(0),
            players: vec![player(long, 7), player("short", 12)],
        };
        let table = format_table(&result);
        let rows: Vec<&str> = table.lines().skip(1).collect();
        assert_eq!(rows.len(), 3, "{table}");
        // The score column ends at the same byte on the header and on every row.
        let score_end = |row: &str, text: &str| row.find(text).map(|at| at + text.len());
        let header_end = score_end(rows[0], "score").unwrap();
        assert_eq!(score_end(rows[1], " 7 "), Some(header_end + 1), "{table}");
        assert_eq!(score_end(rows[2], " 12 "), Some(header_end + 1), "{table}");
        assert!(rows[1].contains(long), "{table}");
    }
}
