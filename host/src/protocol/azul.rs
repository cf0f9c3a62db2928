//! Azul's original text protocol (azul.md "Original protocol"): the bot declares `update`,
//! `state` or `both`; each turn it receives its remaining thinking time in milliseconds and
//! incremental updates, the full state, or both; it answers one line `d c l`.
//!
//! The original runner's exact text is not published: the format below is **\[ours\]**, built
//! from what azul.md says. Every line ends in `\n`.
//!
//! **Start.** The host sends `azul <seat> <restarts>` (the bot's seat, 0 or 1, and how many
//! times it was restarted after a crash). The bot's first line declares its mode: `update`,
//! `state` or `both`. It may write it before or after reading the greeting.
//!
//! **Each turn** the host sends one message:
//!
//! ```text
//! turn <n> <ms>          n: this seat's turn counter, 1-based; ms: thinking time left
//! update                 (modes update and both) then the state lines that changed since
//!                        this bot's previous message (all of them in its first)
//! state                  (modes state and both) then every state line
//! go                     end of the message: answer now
//! ```
//!
//! State lines, in this order (tiles are colour letters `g o b y r` in that order, each repeated
//! as many times as there are tiles, `-` for none):
//!
//! ```text
//! round <r>                                   the round, 1-based
//! factories <f1> <f2> <f3> <f4> <f5>          the tiles on factories 1..5
//! center <tiles>                              the tiles in the center
//! marker <center|0|1>                         where the starting-player marker is
//! board <seat> <score> <floor> <wall> <l0> <l1> <l2> <l3> <l4>     one line per seat, 0 then 1
//! last <d> <c> <l>                            the opponent's last move (`last -` before it has one)
//! ```
//!
//! `floor` is the number of occupied floor slots (the marker included); `wall` is the five rows
//! top to bottom, joined by `/`, each five characters: the colour letter where a tile lies, `.`
//! where none does; `l0`..`l4` are the pattern lines (line `i` holds up to `i + 1` tiles of one
//! colour). Example: `board 1 12 2 g..../.g.../...../...../..... - oo bbb - -`.
//!
//! **The answer** is one line `d c l`: source `d` (0 = center, 1..5 = factories), colour letter
//! `c`, line `l` (0..4 = pattern lines, 5 = floor), separated by spaces, e.g. `0 b 5`.
//!
//! **Time.** `ms` is the turn fuel left in fuel-equivalent milliseconds ([`super::FUEL_PER_MS`]
//! fuel = 1 ms): 1,000 with the default turn budget, less if the bot worked after its previous
//! answer. **Late answers.** The answer carries no turn number: a line the bot writes before it
//! has read the whole current message (up to `go`) answers an earlier message and is stale, an
//! invalid action (see [`super`]).

use super::{AnswerError, LineProtocol, excerpt, fuel_to_ms};
use crate::seat::{InitInfo, TurnInfo};
use arena_azul::{Azul, BoardView, COLOURS, Colour, Move, View, rules};

/// What a bot declared in its first line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Incremental updates only.
    Update,
    /// The full state every turn.
    State,
    /// Updates, then the full state.
    Both,
}

/// One Azul bot instance's conversation.
#[derive(Debug, Clone)]
pub struct Session {
    mode: Mode,
    /// The state lines of the previous message.
    sent: Vec<String>,
}

/// Azul's text protocol.
pub struct AzulText;

impl LineProtocol for AzulText {
    type Game = Azul;
    type Session = Session;

    const NAME: &'static str = "azul-text";
    const MAX_LINE: usize = 64;
    const GREETING_REPLIES: &'static [&'static str] = &["update", "state", "both"];

    fn answer_line(action: &Move, _view: &View) -> String {
        action.to_string()
    }

    fn greeting(info: &InitInfo) -> Vec<String> {
        vec![format!("azul {} {}", info.seat, info.restart_count)]
    }

    fn check_greeting_reply(line: &str) -> Result<Session, String> {
        let mode = match line.trim() {
            "update" => Mode::Update,
            "state" => Mode::State,
            "both" => Mode::Both,
            _ => return Err("expected `update`, `state` or `both`".into()),
        };
        Ok(Session { mode, sent: Vec::new() })
    }

    fn state_lines(session: &mut Session, view: &View, info: &TurnInfo) -> Vec<String> {
        let state = state_lines(view);
        let mut message = vec![format!("turn {} {}", info.turn + 1, fuel_to_ms(info.turn_fuel_remaining))];
        if matches!(session.mode, Mode::Update | Mode::Both) {
            message.push("update".into());
            let changed = state.iter().enumerate().filter(|(i, line)| session.sent.get(*i) != Some(*line));
            message.extend(changed.map(|(_, line)| line.clone()));
        }
        if matches!(session.mode, Mode::State | Mode::Both) {
            message.push("state".into());
            message.extend(state.iter().cloned());
        }
        message.push("go".into());
        session.sent = state;
        message
    }

    fn parse_answer(line: &str, _view: &View) -> Result<Move, AnswerError> {
        let malformed = |what: &str| AnswerError::Malformed {
            detail: format!("{what}; expected `d c l` such as `0 b 5`, got {:?}", excerpt(line, 40)),
        };
        let mut tokens = line.split_whitespace();
        let (Some(d), Some(c), Some(l), None) = (tokens.next(), tokens.next(), tokens.next(), tokens.next()) else {
            return Err(malformed("not three fields"));
        };
        let source = d.parse::<u8>().map_err(|_| malformed("the source is not a number"))?;
        let mut letters = c.chars();
        let colour = match (letters.next(), letters.next()) {
            (Some(letter), None) => Colour::from_letter(letter),
            _ => None,
        }
        .ok_or_else(|| malformed("the colour is not one of g o b y r"))?;
        let line_index = l.parse::<u8>().map_err(|_| malformed("the line is not a number"))?;
        // Ranges and rules are the engine's to check (a typed refusal).
        Ok(Move { source, colour, line: line_index })
    }
}

/// Tiles as letters in colour order, `-` for none.
fn tiles(counts: &[u8; 5]) -> String {
    let text: String = COLOURS
        .iter()
        .flat_map(|colour| std::iter::repeat_n(colour.letter(), usize::from(counts[colour.index()])))
        .collect();
    if text.is_empty() { "-".into() } else { text }
}

fn board_line(seat: usize, board: &BoardView) -> String {
    let wall: Vec<String> = board
        .wall
        .iter()
        .enumerate()
        .map(|(row, cells)| {
            cells
                .iter()
                .enumerate()
                .map(|(col, filled)| if *filled { rules::wall_colour(row, col).letter() } else { '.' })
                .collect()
        })
        .collect();
    let lines: Vec<String> = board
        .lines
        .iter()
        .map(|line| match line.colour {
            Some(colour) if line.count > 0 => std::iter::repeat_n(colour.letter(), usize::from(line.count)).collect(),
            _ => "-".into(),
        })
        .collect();
    format!("board {seat} {} {} {} {}", board.score, board.floor_len, wall.join("/"), lines.join(" "))
}

/// The state lines of a view, in the documented order.
pub fn state_lines(view: &View) -> Vec<String> {
    let factories: Vec<String> = view.factories.iter().map(tiles).collect();
    let marker = match (view.center_has_marker, view.marker_holder) {
        (false, Some(seat)) => seat.to_string(),
        _ => "center".into(),
    };
    let mut lines = vec![
        format!("round {}", view.round),
        format!("factories {}", factories.join(" ")),
        format!("center {}", tiles(&view.center)),
        format!("marker {marker}"),
    ];
    lines.extend(view.boards.iter().enumerate().map(|(seat, board)| board_line(seat, board)));
    lines.push(match &view.last_move {
        Some(mv) => format!("last {mv}"),
        None => "last -".into(),
    });
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_azul::AzulConfig;
    use arena_game::Game;

    fn info(turn: u32) -> TurnInfo {
        TurnInfo { turn, turn_fuel_remaining: 10_000_000, game_fuel_remaining: 90_000_000, missed_turns: 0 }
    }

    /// The line-protocol conformance kit over Azul's random playouts.
    #[test]
    fn the_protocol_conforms() {
        let plan = arena_game::conformance::Plan {
            config: AzulConfig::default(),
            players: vec![2],
            seeds: 0..6,
            max_steps: 5_000,
        };
        super::super::conformance::check_protocol::<AzulText>(&plan);
    }

    #[test]
    fn a_full_state_message_has_every_line_in_order() {
        let game = Azul::new(&AzulConfig::default(), 2, 1).unwrap_or_else(|_| unreachable!());
        let view = game.observe(0);
        let mut session = AzulText::check_greeting_reply("state").unwrap_or_else(|_| unreachable!());
        let message = AzulText::state_lines(&mut session, &view, &info(0));
        assert_eq!(message[0], "turn 1 1000");
        assert_eq!(message[1], "state");
        let keys: Vec<&str> = message[2..].iter().map(|line| line.split(' ').next().unwrap_or("")).collect();
        assert_eq!(keys, ["round", "factories", "center", "marker", "board", "board", "last", "go"]);
        assert_eq!(message[2], "round 1");
        assert_eq!(message[4], "center -");
        assert_eq!(message[5], "marker center");
        assert_eq!(message[6], "board 0 0 0 ...../...../...../...../..... - - - - -");
        assert_eq!(message[8], "last -");
        for factory in message[3].split(' ').skip(1) {
            assert_eq!(factory.len(), 4, "{}", message[3]);
        }
    }

    #[test]
    fn updates_carry_only_changed_lines() {
        let mut game = Azul::new(&AzulConfig::default(), 2, 1).unwrap_or_else(|_| unreachable!());
        let mut session = AzulText::check_greeting_reply("update").unwrap_or_else(|_| unreachable!());
        let first = AzulText::state_lines(&mut session, &game.observe(0), &info(0));
        assert_eq!(first.len(), 2 + 7 + 1, "everything the first time: {first:?}");
        let mv = game.observe(0).legal_moves()[0];
        game.step(&[(0, Some(mv))]).unwrap_or_else(|_| unreachable!());
        let mv = game.observe(1).legal_moves()[0];
        game.step(&[(1, Some(mv))]).unwrap_or_else(|_| unreachable!());
        let next = AzulText::state_lines(&mut session, &game.observe(0), &info(1));
        assert_eq!(next[0], "turn 2 1000");
        assert!(next.len() < first.len(), "{next:?}");
        assert!(!next.iter().any(|line| line.starts_with("round")), "the round did not change: {next:?}");
        assert!(next.iter().any(|line| line.starts_with("last ")), "{next:?}");
        assert_eq!(next.last().map(String::as_str), Some("go"));
    }

    #[test]
    fn answers_parse_or_are_typed_errors() {
        let view = Azul::new(&AzulConfig::default(), 2, 1).unwrap_or_else(|_| unreachable!()).observe(0);
        assert_eq!(AzulText::parse_answer(" 0 b 5 ", &view), Ok(Move { source: 0, colour: Colour::Blue, line: 5 }));
        for bad in ["", "0 b", "0 b 5 1", "x b 5", "0 q 5", "0 bb 5", "0 b -1", "0 B 5"] {
            assert!(matches!(AzulText::parse_answer(bad, &view), Err(AnswerError::Malformed { .. })), "{bad:?}");
        }
        assert!(AzulText::check_greeting_reply("ready").is_err());
    }
}
