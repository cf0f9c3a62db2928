//! Why a seat forfeited when its bot kept trapping or ending (a line-protocol bot that exits at
//! start-up, a bot that panics every turn): its last trap in words, its exit code when it exited,
//! and the last lines its last instance wrote to stderr. What `arena match` prints under the
//! seat's line, so a bot author sees why without opening the replay.
//!
//! Everything here is already in the match record (faults and logs are data); this only picks it
//! out. It travels beside the record, on the in-memory [`crate::registry::PlayedMatch`], never in
//! it: replays and their digests stay as they are.

use crate::fault::{BotFault, ForfeitReason, TrapKind, in_words};
use crate::log::LogSource;
use crate::record::{MatchRecord, SeatTurn};
use arena_game::Game;
use serde::Serialize;

/// Lines of stderr kept: the end of what the bot said is what explains its end.
pub const STDERR_TAIL_LINES: usize = 10;

/// Characters kept of each line (a longer one is cut, with `…`).
pub const MAX_LINE_CHARS: usize = 200;

/// A seat that forfeited for trapping (or ending) too often, explained.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PostMortem {
    /// The turn of its last trap (0: the start-up before the first turn).
    pub turn: u32,
    /// Its last trap in words ([`in_words`]): its kind, `trap`.
    pub kind: String,
    /// Its last trap in words: what happened (`init: exited: code 3`), partly the bot's own
    /// text: escape it before showing it.
    pub detail: String,
    /// Its exit status, when its last trap was an exit (or `main` returning).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i32>,
    /// The last [`STDERR_TAIL_LINES`] lines its last instance wrote to stderr (the turns since
    /// its previous trap), without their line ends, each cut to [`MAX_LINE_CHARS`]. The bot's
    /// own bytes, lossily decoded: escape them before showing them.
    pub stderr_tail: Vec<String>,
    /// How many lines that instance wrote to stderr, as its log kept them.
    pub stderr_lines: usize,
    /// Bytes it logged in those turns over the log's bounds (not kept, so not in the tail).
    #[serde(skip_serializing_if = "is_zero")]
    pub log_dropped_bytes: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl PostMortem {
    /// Each seat's, in seat order: `None` for a seat that did not forfeit for its traps.
    pub fn of_match<G: Game>(record: &MatchRecord<G>) -> Vec<Option<PostMortem>> {
        (0..record.result.players.len()).map(|seat| PostMortem::of_seat(record, seat)).collect()
    }

    /// Seat `seat`'s, if it forfeited for its traps.
    pub fn of_seat<G: Game>(record: &MatchRecord<G>, seat: usize) -> Option<PostMortem> {
        let player = record.result.players.get(seat)?;
        if player.forfeit_reason != Some(ForfeitReason::TooManyTraps) {
            return None;
        }
        let started = record.setup.iter().map(|seat_turn| (0, seat_turn));
        let played =
            record.turns.iter().flat_map(|turn| turn.seats.iter().map(move |seat_turn| (turn.turn, seat_turn)));
        let turns: Vec<(u32, &SeatTurn<G>)> =
            started.chain(played).filter(|(_, seat_turn)| seat_turn.seat == seat).collect();
        let trapped = |(_, seat_turn): &&(u32, &SeatTurn<G>)| seat_turn.faults.iter().any(is_trap);
        let last = turns.iter().rposition(|entry| trapped(&entry))?;
        // The instance that trapped last started after the trap before it (a trapped instance
        // is restarted at the seat's next turn), so its stderr is that of the turns between.
        let first = turns[..last].iter().rposition(|entry| trapped(&entry)).map_or(0, |previous| previous + 1);
        let (turn, seat_turn) = turns[last];
        let fault = seat_turn.faults.iter().rev().find(|fault| is_trap(fault))?;
        let (kind, detail) = in_words(fault);
        let exit_code = match fault {
            BotFault::Trapped { trap: TrapKind::Exited { code }, .. } => Some(*code),
            _ => None,
        };
        let span = &turns[first..=last];
        let mut stderr = String::new();
        for (_, seat_turn) in span {
            for entry in seat_turn.log.entries.iter().filter(|entry| entry.source == LogSource::Stderr) {
                stderr.push_str(&entry.text);
            }
        }
        let lines: Vec<&str> = stderr.lines().collect();
        let stderr_tail =
            lines[lines.len().saturating_sub(STDERR_TAIL_LINES)..].iter().map(|line| bounded_line(line)).collect();
        Some(PostMortem {
            turn,
            kind: kind.to_owned(),
            detail,
            exit_code,
            stderr_tail,
            stderr_lines: lines.len(),
            log_dropped_bytes: span.iter().map(|(_, seat_turn)| seat_turn.log.dropped_bytes).sum(),
        })
    }
}

fn is_trap(fault: &BotFault) -> bool {
    matches!(fault, BotFault::Trapped { .. })
}

/// `line` cut to [`MAX_LINE_CHARS`] characters, with `…` when cut.
fn bounded_line(line: &str) -> String {
    match line.char_indices().nth(MAX_LINE_CHARS) {
        Some((end, _)) => format!("{}…", &line[..end]),
        None => line.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::budget::Budget;
    use crate::fault::Phase;
    use crate::log::{LogEntry, TurnLog};
    use crate::record::{MatchResult, PlayerSummary, RuntimeInfo, TurnRecord};
    use arena_azul::Azul;

    fn seat_turn(seat: usize, faults: Vec<BotFault>, stderr: &[&str]) -> SeatTurn<Azul> {
        let entries =
            stderr.iter().map(|text| LogEntry { source: LogSource::Stderr, text: (*text).to_owned() }).collect();
        SeatTurn { seat, answer: None, applied: None, fuel: 0, faults, log: TurnLog { entries, dropped_bytes: 0 } }
    }

    fn player(forfeit_reason: Option<ForfeitReason>) -> PlayerSummary {
        PlayerSummary {
            bot: "bot".into(),
            sha256: String::new(),
            data: None,
            score: 0,
            rank: 1,
            forfeit: forfeit_reason.is_some(),
            forfeit_reason,
            fuel_total: 0,
            fuel_max_turn: 0,
            skipped_turns: 0,
            traps: 0,
            invalid_actions: 0,
        }
    }

    fn record(
        setup: Vec<SeatTurn<Azul>>,
        turns: Vec<Vec<SeatTurn<Azul>>>,
        players: Vec<PlayerSummary>,
    ) -> MatchRecord<Azul> {
        let turns = turns
            .into_iter()
            .zip(1..)
            .map(|(seats, turn)| TurnRecord { turn, seats, events: Vec::new(), state_hash: String::new() })
            .collect();
        MatchRecord {
            format: String::new(),
            game: "azul".into(),
            config: Default::default(),
            seed: 0,
            budget: Budget::default(),
            runtime: RuntimeInfo::current(),
            bots: Vec::new(),
            setup,
            turns,
            result: MatchResult { game: "azul".into(), seed: 0, turns: 0, winner: None, players },
        }
    }

    fn trap(phase: Phase, trap: TrapKind) -> BotFault {
        BotFault::Trapped { phase, trap }
    }

    /// The last trap, its exit code and the stderr of the instance that made it, not of the
    /// ones before it; a seat that forfeited otherwise, or not at all, has none.
    #[test]
    fn a_seat_out_for_its_traps_is_explained_by_its_last_instance() {
        let exited = trap(Phase::Init, TrapKind::Exited { code: 3 });
        let forfeit = BotFault::Forfeit { reason: ForfeitReason::TooManyTraps };
        let setup = vec![seat_turn(0, vec![], &[]), seat_turn(1, vec![exited.clone()], &["first run\n"])];
        let turns = vec![
            vec![seat_turn(0, vec![], &[]), seat_turn(1, vec![], &["second run\nstill ", "going\n"])],
            vec![seat_turn(1, vec![], &["a\r\nb"]), seat_turn(0, vec![], &["not mine\n"])],
            vec![seat_turn(1, vec![exited, forfeit], &["\nthe end\n"])],
        ];
        let players = vec![player(None), player(Some(ForfeitReason::TooManyTraps))];
        let record = record(setup, turns, players);
        let post_mortems = PostMortem::of_match(&record);
        assert_eq!(post_mortems[0], None);
        let post_mortem = post_mortems[1].clone().unwrap();
        assert_eq!(post_mortem.turn, 3);
        assert_eq!((post_mortem.kind.as_str(), post_mortem.detail.as_str()), ("trap", "init: exited: code 3"));
        assert_eq!(post_mortem.exit_code, Some(3));
        assert_eq!(post_mortem.stderr_tail, ["second run", "still going", "a", "b", "the end"]);
        assert_eq!(post_mortem.stderr_lines, 5);

        let mut fuel_out = record.clone();
        fuel_out.result.players[1].forfeit_reason = Some(ForfeitReason::GameFuelExhausted);
        assert_eq!(PostMortem::of_seat(&fuel_out, 1), None);
    }

    #[test]
    fn the_tail_is_the_last_lines_each_bounded() {
        let long = "é".repeat(MAX_LINE_CHARS + 50);
        let mut text: String = (1..=30).map(|n| format!("line {n}\n")).collect();
        text.push_str(&long);
        let unreachable = trap(Phase::Turn, TrapKind::Unreachable);
        let setup = vec![seat_turn(0, vec![unreachable], &[&text])];
        let mut record = record(setup, Vec::new(), vec![player(Some(ForfeitReason::TooManyTraps))]);
        record.setup[0].log.dropped_bytes = 7;
        let post_mortem = PostMortem::of_seat(&record, 0).unwrap();
        assert_eq!((post_mortem.detail.as_str(), post_mortem.exit_code), ("turn: unreachable", None));
        assert_eq!(post_mortem.stderr_lines, 31);
        assert_eq!(post_mortem.stderr_tail.len(), STDERR_TAIL_LINES);
        assert_eq!(post_mortem.stderr_tail[0], "line 22");
        let cut = &post_mortem.stderr_tail[STDERR_TAIL_LINES - 1];
        assert_eq!(cut.chars().count(), MAX_LINE_CHARS + 1);
        assert!(cut.ends_with('…'));
        assert_eq!(post_mortem.log_dropped_bytes, 7);
    }
}
