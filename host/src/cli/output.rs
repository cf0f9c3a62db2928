//! Human-readable match results.

use arena_host::record::MatchResult;

/// Prints the result as a short table.
pub fn print_table(result: &MatchResult) {
    let winner = match result.winner {
        Some(seat) => format!("seat {seat} ({})", result.players.get(seat).map_or("?", |p| p.bot.as_str())),
        None => "draw".into(),
    };
    outln!("{} seed {}: {} turns, winner: {winner}", result.game, result.seed, result.turns);
    outln!(
        "{:<4} {:<20} {:>6} {:>4} {:>12} {:>12} {:>7} {:>5} {:>7}  status",
        "seat",
        "bot",
        "score",
        "rank",
        "fuel",
        "max/turn",
        "skipped",
        "traps",
        "invalid"
    );
    for (seat, player) in result.players.iter().enumerate() {
        let status = match player.forfeit_reason {
            Some(reason) => {
                format!("forfeit ({})", serde_json::to_value(reason).unwrap_or_default().as_str().unwrap_or("?"))
            }
            None => "ok".into(),
        };
        outln!(
            "{:<4} {:<20} {:>6} {:>4} {:>12} {:>12} {:>7} {:>5} {:>7}  {}",
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
}
