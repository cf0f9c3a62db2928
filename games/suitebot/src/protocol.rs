//! The original JSON-per-round protocol (suitebot.md "Original protocol"), engine half: pure
//! functions that render a seat's [`View`] as the one JSON line the original game server sent
//! ([`state_line`]) and parse the one answer line a bot sent back ([`parse_answer`]). The host
//! wires them to a bot's stdin and stdout.
//!
//! The object follows the official 2018 starter kit's game package:
//! `{"aiPlayerId", "currentRound", "remainingRounds", "gamePlanWidth", "gamePlanHeight",
//! "players": {"<id>": {"name", "resources", "homeBaseLocation": {"x", "y"},
//! "agentLocation": {"x", "y"}, "agentLastMove"}}, "fieldResources": [[..]],
//! "fieldBombs": [[{"ownerId", "countdown"} | null]]}`, where the board arrays are indexed
//! `[x][y]` (column first). Where the kit is silent or ambiguous:
//! - player ids are seats + 1 (the kit refuses id 0) **\[ours\]**;
//! - `remainingRounds` counts the current round (the kit's `StandardGameState`: rounds remaining =
//!   max rounds - current round + 1; in the last round it is 1) **\[ours\]**;
//! - `agentLastMove` is the rule name (`UP`, `DOWN`, `LEFT`, `RIGHT`, `HOLD`, `PLANT_BOMB`, as the
//!   kit's sample state and its parser expect), `null` in round 1 (the kit reads a missing move
//!   as HOLD) **\[ours\]**;
//! - `name` is the name the host passes for the seat, else `player <id>` **\[ours\]**;
//! - `resources` is the player's score; `countdown` is what [`View::bombs`] shows (rounds left
//!   before the round it explodes in).
//!
//! **\[ours\]** With the game option `board=strings` ([`BoardEncoding::Strings`]) the two board
//! fields keep their names and their `[x]` indexing but each column is one JSON string: in
//! `fieldResources[x]` character `y` is the points digit of (x, y); in `fieldBombs[x]` characters
//! `2y` and `2y+1` are the owner id digit and the countdown digit of the bomb on (x, y), `..` for
//! none. Every value fits one digit (points 0 or 1, ids 1 to 8, countdowns 0 to 3), so the
//! strings carry exactly what the arrays do, and parsing a line costs a JSON library a few dozen
//! values instead of two per field.
//!
//! The answer is one of the letters `U D L R H B` (suitebot.md "Actions"); surrounding whitespace,
//! the line end included, is ignored, and lowercase letters are accepted too **\[ours\]**. Anything
//! else is a typed [`AnswerError`], for which the host plays the fallback HOLD.

use crate::board::by_seat;
use crate::{Action, BoardEncoding, Pos, View};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// The longest answer line (bytes, line end included) worth reading **\[ours\]**: an answer is one
/// letter, so a host may stop reading past this and report [`AnswerError::TooLong`].
pub const MAX_ANSWER_BYTES: usize = 64;

/// The original protocol's id of `seat`: seats are numbered from 1.
pub fn player_id(seat: u8) -> u32 {
    u32::from(seat) + 1
}

/// The whole per-round state object.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StateDto<'a> {
    ai_player_id: u32,
    current_round: u32,
    remaining_rounds: u32,
    game_plan_width: u16,
    game_plan_height: u16,
    /// Keyed by the id as a string; a BTreeMap keeps the output deterministic (ids 1..=8 sort
    /// correctly as strings).
    players: BTreeMap<String, PlayerDto<'a>>,
    field_resources: Columns<u8>,
    field_bombs: Columns<Option<BombDto>>,
}

/// A board field of the state object: the original arrays of arrays, or one string per column
/// ([`BoardEncoding`]); either is written as its content alone.
#[derive(Serialize)]
#[serde(untagged)]
enum Columns<T> {
    Nested(Vec<Vec<T>>),
    Strings(Vec<String>),
}

/// What [`BoardEncoding::Strings`] writes for no bomb.
pub const NO_BOMB: &str = "..";

/// `value` as one decimal digit; `?` for a value no valid view holds (a malformed view must not
/// panic the host).
fn digit(value: u32) -> char {
    char::from_digit(value, 10).unwrap_or('?')
}

/// One player.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PlayerDto<'a> {
    name: std::borrow::Cow<'a, str>,
    resources: i64,
    home_base_location: Pos,
    agent_location: Pos,
    agent_last_move: Option<&'static str>,
}

/// One bomb.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct BombDto {
    owner_id: u32,
    countdown: u8,
}

/// The JSON line the original server sent to the bot of `view.seat` (see the module docs), without
/// a line end. `names` are the players' display names by seat; missing ones are `player <id>`.
pub fn state_line<S: AsRef<str>>(view: &View, names: &[S]) -> String {
    let players = by_seat(&view.players)
        .map(|(seat, player)| {
            let name = match names.get(usize::from(seat)) {
                Some(name) => std::borrow::Cow::Borrowed(name.as_ref()),
                None => std::borrow::Cow::Owned(format!("player {}", player_id(seat))),
            };
            let dto = PlayerDto {
                name,
                resources: player.score,
                home_base_location: player.base,
                agent_location: player.agent,
                agent_last_move: player.last_move.map(Action::name),
            };
            (player_id(seat).to_string(), dto)
        })
        .collect();
    let bomb = |x: u16, y: u16| {
        view.bomb_at(Pos::new(x, y)).map(|bomb| BombDto { owner_id: player_id(bomb.owner), countdown: bomb.countdown })
    };
    let (field_resources, field_bombs) = match view.board {
        BoardEncoding::Nested => (
            Columns::Nested(
                (0..view.width).map(|x| (0..view.height).map(|y| view.points_at(Pos::new(x, y))).collect()).collect(),
            ),
            Columns::Nested((0..view.width).map(|x| (0..view.height).map(|y| bomb(x, y)).collect()).collect()),
        ),
        BoardEncoding::Strings => (
            Columns::Strings(
                (0..view.width)
                    .map(|x| (0..view.height).map(|y| digit(u32::from(view.points_at(Pos::new(x, y))))).collect())
                    .collect(),
            ),
            Columns::Strings(
                (0..view.width)
                    .map(|x| {
                        let mut column = String::with_capacity(2 * usize::from(view.height));
                        for y in 0..view.height {
                            match bomb(x, y) {
                                Some(bomb) => {
                                    column.push(digit(bomb.owner_id));
                                    column.push(digit(u32::from(bomb.countdown)));
                                }
                                None => column.push_str(NO_BOMB),
                            }
                        }
                        column
                    })
                    .collect(),
            ),
        ),
    };
    let dto = StateDto {
        ai_player_id: player_id(view.seat),
        current_round: view.round,
        remaining_rounds: view.rounds_left(),
        game_plan_width: view.width,
        game_plan_height: view.height,
        players,
        field_resources,
        field_bombs,
    };
    // Plain data with string keys: serialisation cannot fail.
    serde_json::to_string(&dto).unwrap_or_default()
}

/// Why an answer line is not an action. The host plays HOLD for it (suitebot.md "Actions").
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum AnswerError {
    /// The line holds nothing but whitespace.
    #[error("empty answer (expected one of U D L R H B)")]
    Empty,
    /// The line is longer than [`MAX_ANSWER_BYTES`].
    #[error("answer of {len} bytes (at most {MAX_ANSWER_BYTES})")]
    TooLong {
        /// Its length in bytes.
        len: usize,
    },
    /// The line is not one of the six letters.
    #[error("unknown answer {answer:?} (expected one of U D L R H B)")]
    Unknown {
        /// The answer, trimmed.
        answer: String,
    },
}

/// Parses one answer line (see the module docs): `"B\n"` is [`Action::PlantBomb`].
pub fn parse_answer(line: &str) -> Result<Action, AnswerError> {
    if line.len() > MAX_ANSWER_BYTES {
        return Err(AnswerError::TooLong { len: line.len() });
    }
    let answer = line.trim();
    let mut chars = answer.chars();
    match (chars.next(), chars.next()) {
        (None, _) => Err(AnswerError::Empty),
        (Some(letter), None) => {
            Action::from_letter(letter).ok_or_else(|| AnswerError::Unknown { answer: answer.into() })
        }
        (Some(_), Some(_)) => Err(AnswerError::Unknown { answer: answer.into() }),
    }
}

/// The answer line for `action` (its letter), as a bot using the original protocol sends it.
pub fn answer_line(action: Action) -> String {
    action.letter().to_string()
}
