//! Match results as `arena match` prints them: a short table (with, under the line of a seat
//! that forfeited for its traps, why: its last trap, exit code and stderr's last lines), or
//! `--json`'s one object.

use arena_host::post_mortem::PostMortem;
use arena_host::record::{MatchResult, PlayerSummary};
use serde::Serialize;
use std::fmt::Write as _;

/// Prints the result as a short table, each seat's post mortem (if it has one) under its line.
pub fn print_table(result: &MatchResult, post_mortems: &[Option<PostMortem>]) {
    outln!("{}", format_table(result, post_mortems).trim_end());
}

/// `--json`'s object: the result, each player with its `post_mortem` when it has one. Written
/// out rather than patched into the result's JSON value so the keys keep the result's order.
#[derive(Serialize)]
pub struct MatchJson<'a> {
    game: &'a str,
    seed: u64,
    turns: u32,
    winner: Option<usize>,
    players: Vec<PlayerJson<'a>>,
}

#[derive(Serialize)]
struct PlayerJson<'a> {
    #[serde(flatten)]
    player: &'a PlayerSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    post_mortem: Option<&'a PostMortem>,
}

impl<'a> MatchJson<'a> {
    /// The result with its seats' post mortems.
    pub fn of(result: &'a MatchResult, post_mortems: &'a [Option<PostMortem>]) -> MatchJson<'a> {
        let players = result
            .players
            .iter()
            .enumerate()
            .map(|(seat, player)| PlayerJson { player, post_mortem: post_mortems.get(seat).and_then(Option::as_ref) })
            .collect();
        MatchJson { game: &result.game, seed: result.seed, turns: result.turns, winner: result.winner, players }
    }
}

/// `text` safe to print on a terminal: control characters (escape sequences, carriage returns,
/// tabs) and the bidirectional overrides that reorder what follows them are written escaped
/// (`\u{1b}`), since the text is the bot's own and a bot must not drive the author's terminal.
fn terminal_safe(text: &str) -> String {
    let reorders = |c: char| matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
    let mut safe = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() || reorders(c) {
            safe.extend(c.escape_default());
        } else {
            safe.push(c);
        }
    }
    safe
}

/// The lines under a forfeited seat's line, indented: its last trap, its exit code, the end of
/// its stderr.
fn post_mortem_lines(post_mortem: &PostMortem) -> Vec<String> {
    let when = match post_mortem.turn {
        0 => "start-up".to_owned(),
        turn => format!("turn {turn}"),
    };
    let mut lines = vec![format!("last {} ({when}): {}", post_mortem.kind, terminal_safe(&post_mortem.detail))];
    // WASI 0.2's `exit` carries success or failure only (the preview1 adapter maps
    // `proc_exit(n)` onto it), so a bot's own code other than 0 arrives as 1: said here, or an
    // author who exited with 3 would look for a bug that is not there.
    match post_mortem.exit_code {
        Some(0) => lines.push("exit code: 0 (its main returned, or it exited with success)".to_owned()),
        Some(1) => lines.push("exit code: 1 (a failure: WASI reports any failing exit code as 1)".to_owned()),
        Some(code) => lines.push(format!("exit code: {code}")),
        None => {}
    }
    let (shown, written) = (post_mortem.stderr_tail.len(), post_mortem.stderr_lines);
    let plural = if written == 1 { "" } else { "s" };
    lines.push(match shown {
        0 => "stderr of its last run: nothing".to_owned(),
        shown if shown == written => format!("stderr of its last run ({written} line{plural}):"),
        shown => format!("stderr of its last run (last {shown} of {written} line{plural}):"),
    });
    lines.extend(post_mortem.stderr_tail.iter().map(|line| format!("  | {}", terminal_safe(line))));
    if post_mortem.log_dropped_bytes > 0 {
        lines.push(format!("(and {} bytes over its log's bounds, not kept)", post_mortem.log_dropped_bytes));
    }
    lines.into_iter().map(|line| format!("     {line}")).collect()
}

/// The result as a table whose bot column is as wide as the longest bot name, so long names
/// never push the other columns out of line.
fn format_table(result: &MatchResult, post_mortems: &[Option<PostMortem>]) -> String {
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
        if let Some(Some(post_mortem)) = post_mortems.get(seat) {
            for line in post_mortem_lines(post_mortem) {
                let _ = writeln!(table, "{line}");
            }
        }
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
            data: None,
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
        let table = format_table(&result, &[]);
        let rows: Vec<&str> = table.lines().skip(1).collect();
        assert_eq!(rows.len(), 3, "{table}");
        // The score column ends at the same byte on the header and on every row.
        let score_end = |row: &str, text: &str| row.find(text).map(|at| at + text.len());
        let header_end = score_end(rows[0], "score").unwrap();
        assert_eq!(score_end(rows[1], " 7 "), Some(header_end + 1), "{table}");
        assert_eq!(score_end(rows[2], " 12 "), Some(header_end + 1), "{table}");
        assert!(rows[1].contains(long), "{table}");
    }

    fn exited() -> PostMortem {
        PostMortem {
            turn: 0,
            kind: "trap".into(),
            detail: "init: exited: code 1".into(),
            exit_code: Some(1),
            stderr_tail: vec!["loading".into(), "\u{1b}[2Jgone\r\u{202e}".into()],
            stderr_lines: 12,
            log_dropped_bytes: 0,
        }
    }

    /// A forfeited seat's trap, exit code and stderr are under its line, the bot's text
    /// escaped; the other seats have none.
    #[test]
    fn a_seat_out_for_its_traps_is_explained_under_its_line() {
        let result = MatchResult {
            game: "azul".into(),
            seed: 1,
            turns: 3,
            winner: Some(0),
            players: vec![player("a", 7), player("b", 0)],
        };
        let table = format_table(&result, &[None, Some(exited())]);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(lines.len(), 4 + 5, "{table}");
        assert!(lines[3].starts_with("1 "), "{table}");
        assert_eq!(lines[4], "     last trap (start-up): init: exited: code 1");
        assert!(lines[5].starts_with("     exit code: 1 (a failure"), "{table}");
        assert_eq!(lines[6], "     stderr of its last run (last 2 of 12 lines):");
        assert_eq!(lines[7], "       | loading");
        assert_eq!(lines[8], "       | \\u{1b}[2Jgone\\r\\u{202e}", "the bot's text escaped");

        let quiet = PostMortem { turn: 4, exit_code: None, stderr_tail: Vec::new(), stderr_lines: 0, ..exited() };
        let lines = post_mortem_lines(&quiet);
        assert_eq!(lines[0], "     last trap (turn 4): init: exited: code 1");
        assert_eq!(lines[1..], ["     stderr of its last run: nothing"]);
    }

    /// Without post mortems `--json` prints the result as it is; with one, it is the seat's
    /// `post_mortem`.
    #[test]
    fn json_is_the_result_with_optional_post_mortems() {
        let result = MatchResult {
            game: "azul".into(),
            seed: 1,
            turns: 3,
            winner: None,
            players: vec![player("a", 7), player("b", 0)],
        };
        let plain = serde_json::to_string(&result).unwrap();
        assert_eq!(serde_json::to_string(&MatchJson::of(&result, &[])).unwrap(), plain);
        assert_eq!(serde_json::to_string(&MatchJson::of(&result, &[None, None])).unwrap(), plain);
        let json = serde_json::to_value(MatchJson::of(&result, &[None, Some(exited())])).unwrap();
        assert_eq!(json["players"][0].get("post_mortem"), None);
        assert_eq!(json["players"][1]["post_mortem"]["exit_code"], 1);
        assert_eq!(json["players"][1]["post_mortem"]["stderr_tail"][0], "loading");
        assert_eq!(json["players"][1]["bot"], "b");
    }
}
