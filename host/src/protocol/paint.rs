//! Paint's original protocol (paint.md "Original protocol"): line-delimited JSON, one object per
//! line, exactly the upstream shapes.
//!
//! **Start.** The host sends `{"player_id":"<id>"}`; the bot's first line must be
//! `{"ready":true}` (any JSON object whose `ready` is `true`; whitespace is free).
//!
//! **Each turn** the host sends the whole state on one line, without whitespace:
//!
//! ```text
//! {"width":10,"height":10,"player_positions":{"a":[0,0],"b":[9,9]},
//!  "colors":[["a",null,...],...],"turns_left":100,"previous_actions":[{"a":{"type":"walk","direction":[0,1]}},...]}
//! ```
//!
//! - Player ids are **\[ours\]** the seat letters: `a` for seat 0, `b` for seat 1, ... (so
//!   their sorted order is the seat order, as the fixture format assumes); `player_positions`
//!   is `[i, j]` = `[row, column]`; `colors` is `height` rows of `width` entries, each a player
//!   id or `null`.
//! - `previous_actions` holds every past turn, oldest first, each a map id -> action; a player
//!   that had no action that turn (none, invalid, skipped) is left out of the turn's map.
//!   **\[ours\]** With the game option `previous_actions=last` ([`PreviousActions::Last`]) it
//!   holds only the turn just played (`[]` on the first turn): the full history makes every line
//!   longer than the last, and a program that parses its whole line pays for that every turn.
//! - `obstacles` **\[ours\]**: only when the match uses the obstacle variant, a list of the
//!   blocked squares `[i, j]`; absent otherwise (the original engine has none).
//! - The state after the final turn is not sent.
//!
//! **The answer** is one line `{"turns_left":<as received>,"type":"walk"|"shoot","direction":[di,dj]}`.
//! `turns_left` is the nonce: an answer carrying another value answers another state
//! ([`AnswerError::WrongNonce`], an invalid action). Not JSON is [`AnswerError::NotJson`]; JSON
//! without the answer's shape (no object, a missing or non-integer nonce, another `type`, a
//! direction that is not two integers) is [`AnswerError::Malformed`]. A direction of two
//! integers that is not a king move is the engine's to refuse (`Invalid::BadDirection`).
//! Unknown fields are ignored. Lines over [`PaintJson::MAX_LINE`] bytes are
//! [`AnswerError::TooLong`] (the runner's check).

use super::{AnswerError, LineProtocol, excerpt};
use crate::seat::{InitInfo, TurnInfo};
use arena_paint::{Action, ActionKind, Paint, Pos, PreviousActions, View};
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// Paint's original JSON line protocol.
pub struct PaintJson;

/// The player id of `seat`: its letter (`a` for seat 0), `p<seat>` past `z`.
pub fn player_id(seat: usize) -> String {
    match u8::try_from(seat) {
        Ok(seat) if seat < 26 => char::from(b'a' + seat).to_string(),
        _ => format!("p{seat}"),
    }
}

/// One turn's state message, in the original field order.
#[derive(Serialize)]
struct StateMessage<'a> {
    width: u16,
    height: u16,
    player_positions: BTreeMap<String, [i32; 2]>,
    colors: Vec<Vec<Option<&'a str>>>,
    turns_left: u32,
    previous_actions: Vec<BTreeMap<&'a str, Action>>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    obstacles: Vec<[i32; 2]>,
}

/// The state line of a view (without the newline).
pub fn state_line(view: &View) -> String {
    let ids: Vec<String> = (0..view.players().max(usize::from(view.seat) + 1)).map(player_id).collect();
    let id = |seat: usize| ids.get(seat).map(String::as_str);
    let board = &view.board;
    let colors = (0..i32::from(board.height))
        .map(|row| {
            (0..i32::from(board.width))
                .map(|col| board.color(Pos::new(row, col)).and_then(|seat| id(usize::from(seat))))
                .collect()
        })
        .collect();
    let message = StateMessage {
        width: board.width,
        height: board.height,
        player_positions: view
            .positions
            .iter()
            .enumerate()
            .map(|(seat, pos)| (player_id(seat), [pos.row, pos.col]))
            .collect(),
        colors,
        turns_left: view.turns_left,
        previous_actions: sent_turns(view)
            .iter()
            .map(|turn| turn.iter().enumerate().filter_map(|(seat, action)| Some((id(seat)?, (*action)?))).collect())
            .collect(),
        obstacles: board.obstacles().iter().map(|pos| [pos.row, pos.col]).collect(),
    };
    // Plain data with string keys: serialising cannot fail.
    serde_json::to_string(&message).unwrap_or_default()
}

/// The past turns the state line lists under the match's `previous_actions` option.
fn sent_turns(view: &View) -> &[Vec<Option<Action>>] {
    match view.sent_history {
        PreviousActions::All => &view.previous_actions,
        PreviousActions::Last => {
            let played = view.previous_actions.len();
            view.previous_actions.get(played.saturating_sub(1)..).unwrap_or_default()
        }
    }
}

impl LineProtocol for PaintJson {
    type Game = Paint;
    type Session = ();

    const NAME: &'static str = "paint-json";
    const GREETING_REPLIES: &'static [&'static str] = &[r#"{"ready":true}"#, r#"{ "ready" : true, "name": "x" }"#];

    /// The original's answer: the action's JSON with the nonce, `turns_left`.
    fn answer_line(action: &Action, view: &View) -> String {
        let mut answer = serde_json::to_value(action).unwrap_or_default();
        answer["turns_left"] = view.turns_left.into();
        answer.to_string()
    }
    /// The longest valid answer is about 55 bytes; room for whitespace and extra fields.
    const MAX_LINE: usize = 256;

    fn greeting(info: &InitInfo) -> Vec<String> {
        vec![serde_json::json!({ "player_id": player_id(usize::from(info.seat)) }).to_string()]
    }

    fn check_greeting_reply(line: &str) -> Result<(), String> {
        match serde_json::from_str::<Value>(line) {
            Ok(reply) if reply.get("ready") == Some(&Value::Bool(true)) => Ok(()),
            _ => Err(r#"expected {"ready":true}"#.into()),
        }
    }

    fn state_lines(_session: &mut (), view: &View, _info: &TurnInfo) -> Vec<String> {
        vec![state_line(view)]
    }

    fn parse_answer(line: &str, view: &View) -> Result<Action, AnswerError> {
        let value: Value =
            serde_json::from_str(line).map_err(|err| AnswerError::NotJson { detail: err.to_string() })?;
        let malformed = |what: &str| AnswerError::Malformed {
            detail: format!(
                r#"{what}; expected {{"turns_left":N,"type":"walk"|"shoot","direction":[di,dj]}}, got {:?}"#,
                excerpt(line, 60)
            ),
        };
        let Some(answer) = value.as_object() else { return Err(malformed("not an object")) };
        let nonce = answer.get("turns_left").ok_or_else(|| malformed("no turns_left"))?;
        let nonce = nonce.as_u64().ok_or_else(|| malformed("turns_left is not a non-negative integer"))?;
        let expected = u64::from(view.turns_left);
        if nonce != expected {
            return Err(AnswerError::WrongNonce { expected, got: nonce });
        }
        let kind = match answer.get("type").and_then(Value::as_str) {
            Some("walk") => ActionKind::Walk,
            Some("shoot") => ActionKind::Shoot,
            _ => return Err(malformed(r#"type is not "walk" or "shoot""#)),
        };
        let component = |value: &Value| value.as_i64().and_then(|n| i32::try_from(n).ok());
        let direction = match answer.get("direction").and_then(Value::as_array).map(Vec::as_slice) {
            Some([di, dj]) => match (component(di), component(dj)) {
                (Some(di), Some(dj)) => [di, dj],
                _ => return Err(malformed("direction is not two integers")),
            },
            _ => return Err(malformed("direction is not a list of two integers")),
        };
        // A vector that is not a king move is the engine's to refuse, by name.
        Ok(Action { kind, direction })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arena_game::Game;
    use arena_paint::{Direction, PaintConfig};

    fn info(turn: u32) -> TurnInfo {
        TurnInfo { turn, turn_fuel_remaining: 10_000_000, game_fuel_remaining: 90_000_000, missed_turns: 0 }
    }

    /// A two-player default game with the original protocol's whole history
    /// (`previous_actions=all`; the tests of `last` say so).
    fn game() -> Paint {
        let config = PaintConfig { previous_actions: PreviousActions::All, ..PaintConfig::default() };
        Paint::new(&config, 2, 1).unwrap_or_else(|_| unreachable!())
    }

    /// The line-protocol conformance kit over Paint's random playouts.
    #[test]
    fn the_protocol_conforms() {
        let plan = arena_game::conformance::Plan {
            config: PaintConfig::default(),
            players: vec![2, 4],
            seeds: 0..3,
            max_steps: 5_000,
        };
        super::super::conformance::check_protocol::<PaintJson>(&plan);
    }

    #[test]
    fn greeting_and_reply_are_the_original_ones() {
        let init = InitInfo {
            seat: 1,
            players: 2,
            restart_count: 0,
            seed: 0,
            turn_fuel: 10_000_000,
            game_fuel: 100_000_000,
            game_fuel_remaining: 100_000_000,
        };
        assert_eq!(PaintJson::greeting(&init), [r#"{"player_id":"b"}"#]);
        assert!(PaintJson::check_greeting_reply(r#"{"ready":true}"#).is_ok());
        assert!(PaintJson::check_greeting_reply(r#" { "ready" : true } "#).is_ok());
        for bad in ["", "ready", r#"{"ready":false}"#, r#"{"ready":"true"}"#, "[true]"] {
            assert!(PaintJson::check_greeting_reply(bad).is_err(), "{bad:?}");
        }
    }

    /// The first state of ten_by_ten: every field in the original shape, one line.
    #[test]
    fn the_first_state_has_the_original_shape() {
        let view = game().observe(0);
        let lines = PaintJson::state_lines(&mut (), &view, &info(0));
        let [line] = lines.as_slice() else { unreachable!("{lines:?}") };
        assert!(!line.contains('\n') && !line.contains(' '), "{line}");
        assert!(
            line.starts_with(
                r#"{"width":10,"height":10,"player_positions":{"a":[0,0],"b":[9,9]},"colors":[["a",null,"#
            )
        );
        assert!(line.ends_with(r#"null,"b"]],"turns_left":100,"previous_actions":[]}"#), "{line}");
        let state: Value = serde_json::from_str(line).unwrap_or_default();
        let colors = state["colors"].as_array().cloned().unwrap_or_default();
        assert_eq!(colors.len(), 10);
        assert!(colors.iter().all(|row| row.as_array().map(Vec::len) == Some(10)));
        assert_eq!(state.get("obstacles"), None, "no obstacles, no field");
    }

    /// After turns, `previous_actions` lists every turn oldest first, leaving out players
    /// without an action; the nonce counts down.
    #[test]
    fn previous_actions_list_every_turn_by_id() {
        let mut game = game();
        game.step(&[(0, Some(Action::walk(Direction::East))), (1, Some(Action::shoot(Direction::North)))])
            .unwrap_or_else(|_| unreachable!());
        game.step(&[(0, Some(Action::walk(Direction::South))), (1, None)]).unwrap_or_else(|_| unreachable!());
        let view = game.observe(1);
        let line = state_line(&view);
        let state: Value = serde_json::from_str(&line).unwrap_or_default();
        assert_eq!(state["turns_left"], 98);
        assert_eq!(state["player_positions"], serde_json::json!({"a": [1, 1], "b": [9, 9]}));
        assert_eq!(
            state["previous_actions"],
            serde_json::json!([
                {"a": {"type": "walk", "direction": [0, 1]}, "b": {"type": "shoot", "direction": [-1, 0]}},
                {"a": {"type": "walk", "direction": [1, 0]}},
            ])
        );
        assert_eq!(state["colors"][0][1], "a");
        assert_eq!(state["colors"][8][9], "b", "the shot painted");
    }

    /// With `previous_actions=last` the same two turns leave only the second in the line, and the
    /// first state's list is empty; nothing else in the line changes.
    #[test]
    fn previous_actions_last_lists_only_the_turn_just_played() {
        let config = PaintConfig { previous_actions: PreviousActions::Last, ..PaintConfig::default() };
        let mut game = Paint::new(&config, 2, 1).unwrap_or_else(|_| unreachable!());
        assert!(state_line(&game.observe(0)).ends_with(r#""turns_left":100,"previous_actions":[]}"#));
        game.step(&[(0, Some(Action::walk(Direction::East))), (1, Some(Action::shoot(Direction::North)))])
            .unwrap_or_else(|_| unreachable!());
        game.step(&[(0, Some(Action::walk(Direction::South))), (1, None)]).unwrap_or_else(|_| unreachable!());
        let view = game.observe(1);
        assert_eq!(view.previous_actions.len(), 2, "the view keeps every turn; only the line is cut");
        let state: Value = serde_json::from_str(&state_line(&view)).unwrap_or_default();
        assert_eq!(state["previous_actions"], serde_json::json!([{"a": {"type": "walk", "direction": [1, 0]}}]));
        let full = View { sent_history: PreviousActions::All, ..view };
        let mut all: Value = serde_json::from_str(&state_line(&full)).unwrap_or_default();
        all["previous_actions"] = state["previous_actions"].clone();
        assert_eq!(all, state);
    }

    #[test]
    fn obstacles_are_listed_when_there_are_some() {
        let config = PaintConfig { obstacles: vec![Pos::new(4, 5)], ..PaintConfig::default() };
        let view = Paint::new(&config, 2, 1).unwrap_or_else(|_| unreachable!()).observe(0);
        let state: Value = serde_json::from_str(&state_line(&view)).unwrap_or_default();
        assert_eq!(state["obstacles"], serde_json::json!([[4, 5]]));
    }

    #[test]
    fn answers_parse_or_are_typed_errors() {
        let view = game().observe(0);
        let parse = |line: &str| PaintJson::parse_answer(line, &view);
        assert_eq!(parse(r#"{"turns_left":100,"type":"shoot","direction":[0,1]}"#), Ok(Action::shoot(Direction::East)));
        assert_eq!(
            parse(r#" { "direction" : [1,-1], "type":"walk", "turns_left":100, "note":"x" } "#),
            Ok(Action::walk(Direction::SouthWest))
        );
        // Not a king move: parsed, for the engine to refuse by name.
        assert_eq!(
            parse(r#"{"turns_left":100,"type":"walk","direction":[0,0]}"#),
            Ok(Action { kind: ActionKind::Walk, direction: [0, 0] })
        );
        assert_eq!(
            parse(r#"{"turns_left":101,"type":"walk","direction":[0,1]}"#),
            Err(AnswerError::WrongNonce { expected: 100, got: 101 })
        );
        for bad in ["", "walk", "{", r#"{"turns_left":100"#] {
            assert!(matches!(parse(bad), Err(AnswerError::NotJson { .. })), "{bad:?}");
        }
        for bad in [
            "[]",
            "100",
            r#"{"type":"walk","direction":[0,1]}"#,
            r#"{"turns_left":-1,"type":"walk","direction":[0,1]}"#,
            r#"{"turns_left":"100","type":"walk","direction":[0,1]}"#,
            r#"{"turns_left":100,"type":"jump","direction":[0,1]}"#,
            r#"{"turns_left":100,"direction":[0,1]}"#,
            r#"{"turns_left":100,"type":"walk"}"#,
            r#"{"turns_left":100,"type":"walk","direction":[0]}"#,
            r#"{"turns_left":100,"type":"walk","direction":[0,1,1]}"#,
            r#"{"turns_left":100,"type":"walk","direction":[0.5,1]}"#,
            r#"{"turns_left":100,"type":"walk","direction":[0,4294967296]}"#,
            r#"{"turns_left":100,"type":"walk","direction":"n"}"#,
        ] {
            assert!(matches!(parse(bad), Err(AnswerError::Malformed { .. })), "{bad:?}");
        }
    }
}
