//! What a Paint bot speaking the original protocol needs, in plain Rust (std and serde_json):
//! the protocol loop ([`play`]), the state message parsed ([`State`]), the 16 valid actions
//! ([`ACTIONS`]) and a small random generator.
//!
//! The protocol (README, "Line-protocol bots"; paint.md "Original protocol"): the host sends
//! `{"player_id":"<id>"}` and the bot answers `{"ready":true}`; then each turn the host sends
//! the whole state on one line (`width`, `height`, `player_positions`, `colors`, `turns_left`,
//! `previous_actions`) and the bot answers one line
//! `{"turns_left":<as received>,"type":"walk"|"shoot","direction":[di,dj]}`.

use serde_json::Value;
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};

/// One action: `walk` or `shoot` in a king direction `[di, dj]` (di is the row delta).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Action {
    /// `"walk"` or `"shoot"`.
    pub kind: &'static str,
    /// `[di, dj]`.
    pub direction: [i64; 2],
}

/// The 8 king directions, clockwise from north.
pub const DIRECTIONS: [[i64; 2]; 8] = [[-1, 0], [-1, 1], [0, 1], [1, 1], [1, 0], [1, -1], [0, -1], [-1, -1]];

/// Every valid action: the 8 walks, then the 8 shots.
pub const ACTIONS: [Action; 16] = {
    let mut all = [Action { kind: "walk", direction: [0, 0] }; 16];
    let mut i = 0;
    while i < 8 {
        all[i] = Action { kind: "walk", direction: DIRECTIONS[i] };
        all[i + 8] = Action { kind: "shoot", direction: DIRECTIONS[i] };
        i += 1;
    }
    all
};

/// One state message, as far as a simple bot needs it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct State {
    /// This bot's player id (from the greeting).
    pub me: String,
    /// Columns.
    pub width: i64,
    /// Rows.
    pub height: i64,
    /// Every avatar's square `[row, col]`, by player id.
    pub positions: BTreeMap<String, [i64; 2]>,
    /// `height` rows of `width` entries: a player id or `None`.
    pub colors: Vec<Vec<Option<String>>>,
    /// Turns left, this one included: the answer's nonce.
    pub turns_left: u64,
    /// How many past turns `previous_actions` lists.
    pub turns_played: usize,
    /// A hash of the player id and the message's text (FNV-1a), to seed a generator from.
    pub seed: u64,
}

fn fnv1a(seed: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(seed, |hash, byte| (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3))
}

impl State {
    /// Parses a state line; `None` when it is not one. `previous_actions` is counted but not
    /// parsed ([`without_history`]): it grows every turn, and parsing all of it every turn would
    /// cost more fuel than the rest of the message.
    pub fn parse(me: &str, line: &str) -> Option<State> {
        let (line, turns_played) = without_history(line);
        let value: Value = serde_json::from_str(&line).ok()?;
        State::from_value(me, &value, turns_played, &line)
    }

    /// A state from a parsed message (`text`, its text, seeds [`State::seed`]).
    fn from_value(me: &str, value: &Value, turns_played: usize, text: &str) -> Option<State> {
        let pair = |value: &Value| -> Option<[i64; 2]> {
            match value.as_array()?.as_slice() {
                [i, j] => Some([i.as_i64()?, j.as_i64()?]),
                _ => None,
            }
        };
        let positions: Option<BTreeMap<String, [i64; 2]>> =
            value["player_positions"].as_object()?.iter().map(|(id, pos)| Some((id.clone(), pair(pos)?))).collect();
        let colors = value["colors"]
            .as_array()?
            .iter()
            .map(|row| Some(row.as_array()?.iter().map(|cell| cell.as_str().map(str::to_owned)).collect()))
            .collect::<Option<_>>()?;
        Some(State {
            me: me.to_owned(),
            width: value["width"].as_i64()?,
            height: value["height"].as_i64()?,
            positions: positions?,
            colors,
            turns_left: value["turns_left"].as_u64()?,
            turns_played,
            seed: fnv1a(fnv1a(0xcbf2_9ce4_8422_2325, me.as_bytes()), text.as_bytes()),
        })
    }

    /// This bot's square.
    pub fn my_position(&self) -> Option<[i64; 2]> {
        self.positions.get(&self.me).copied()
    }

    /// Whether `[i, j]` is on the board.
    pub fn on_board(&self, [i, j]: [i64; 2]) -> bool {
        (0..self.height).contains(&i) && (0..self.width).contains(&j)
    }

    /// The valid actions worth considering: every shot, and the walks that stay on the board.
    pub fn useful_actions(&self) -> Vec<Action> {
        let me = self.my_position().unwrap_or_default();
        ACTIONS
            .iter()
            .filter(|action| {
                action.kind == "shoot" || self.on_board([me[0] + action.direction[0], me[1] + action.direction[1]])
            })
            .copied()
            .collect()
    }

    /// The answer line for `action` with this state's nonce.
    pub fn answer(&self, action: Action) -> String {
        answer_line(self.turns_left, action)
    }
}

/// The index after the string starting at `bytes[start]` (a `"`), escapes skipped.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while let Some(byte) = bytes.get(i) {
        match byte {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// The index after the array starting at `bytes[start]` and how many entries it holds.
fn array_end(bytes: &[u8], start: usize) -> Option<(usize, usize)> {
    if bytes.get(start) != Some(&b'[') {
        return None;
    }
    let (mut depth, mut commas, mut empty, mut i) = (0_usize, 0, true, start);
    while let Some(byte) = bytes.get(i) {
        match byte {
            b'"' => {
                empty = false;
                i = string_end(bytes, i);
                continue;
            }
            b'[' | b'{' => depth += 1,
            b']' | b'}' => {
                depth -= 1;
                if depth == 0 {
                    return Some((i + 1, if empty { 0 } else { commas + 1 }));
                }
            }
            b',' if depth == 1 => commas += 1,
            byte if !byte.is_ascii_whitespace() => empty = false,
            _ => {}
        }
        if depth > 1 {
            empty = false;
        }
        i += 1;
    }
    None
}

/// A state line with its top-level `previous_actions` array replaced by `[]`, and how many
/// entries (past turns) that array held. A line without one comes back as it is, with 0.
pub fn without_history(line: &str) -> (String, usize) {
    const KEY: &[u8] = b"\"previous_actions\"";
    let bytes = line.as_bytes();
    let skip_space = |mut i: usize| {
        while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    let (mut depth, mut i) = (0_usize, 0);
    while let Some(byte) = bytes.get(i) {
        match byte {
            b'"' => {
                if depth == 1 && bytes[i..].starts_with(KEY) {
                    let colon = skip_space(i + KEY.len());
                    if bytes.get(colon) == Some(&b':') {
                        let start = skip_space(colon + 1);
                        if let Some((end, entries)) = array_end(bytes, start) {
                            return (format!("{}[]{}", &line[..start], &line[end..]), entries);
                        }
                    }
                }
                i = string_end(bytes, i);
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    (line.to_owned(), 0)
}

/// An answer line: `{"turns_left":N,"type":"walk","direction":[di,dj]}`.
pub fn answer_line(turns_left: u64, action: Action) -> String {
    let [di, dj] = action.direction;
    format!(r#"{{"turns_left":{turns_left},"type":"{}","direction":[{di},{dj}]}}"#, action.kind)
}

/// A small generator (xorshift64*).
pub struct Rng(u64);

impl Rng {
    /// Seeded from `seed` (any value).
    pub fn new(seed: u64) -> Rng {
        Rng(seed | 1)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        let x = self.0.wrapping_mul(0x2545_f491_4f6c_dd1d);
        if n == 0 { 0 } else { (x % n as u64) as usize }
    }
}

/// The player id in a greeting line, if it is one.
pub fn player_id(line: &str) -> Option<String> {
    let value: Value = serde_json::from_str(line).ok()?;
    value["player_id"].as_str().map(str::to_owned)
}

/// The protocol loop: answers the greeting with `{"ready":true}`, then writes the line `choose`
/// returns for each state (nothing when it returns `None`). Each line is parsed once, without
/// its history ([`without_history`]). Lines that are neither a greeting nor a state are logged
/// to stderr and skipped. Returns when stdin ends.
pub fn play(mut choose: impl FnMut(&State) -> Option<String>) -> io::Result<()> {
    let mut out = io::stdout().lock();
    let mut input = io::stdin().lock();
    let mut me = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        if input.read_line(&mut line)? == 0 {
            return Ok(());
        }
        let (text, turns_played) = without_history(line.trim_end());
        let value: Value = serde_json::from_str(&text).unwrap_or_default();
        if let Some(id) = value["player_id"].as_str() {
            me = id.to_owned();
            writeln!(out, r#"{{"ready":true}}"#)?;
            out.flush()?;
        } else if let Some(state) = State::from_value(&me, &value, turns_played, &text) {
            if let Some(answer) = choose(&state) {
                writeln!(out, "{answer}")?;
                out.flush()?;
            }
        } else {
            eprintln!("not a state: {:.60}", text);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The seed's example message (paint.md "Original protocol").
    const EXAMPLE: &str = r#"{"width":3,"height":2,"player_positions":{"alice":[0,0],"bob":[1,1]},"colors":[["alice","alice",null],[null,"bob","bob"]],"turns_left":5,"previous_actions":[{"alice":{"type":"walk","direction":[0,-1]},"bob":{"type":"shoot","direction":[0,1]}}]}"#;

    #[test]
    fn the_example_state_parses() {
        assert_eq!(player_id(r#"{"player_id":"alice"}"#).as_deref(), Some("alice"));
        let state = State::parse("alice", EXAMPLE).unwrap_or_default();
        assert_eq!((state.width, state.height, state.turns_left, state.turns_played), (3, 2, 5, 1));
        assert_eq!(state.my_position(), Some([0, 0]));
        assert_eq!(state.colors[1][2].as_deref(), Some("bob"));
        // From the corner [0,0]: east, south-east and south stay on the board.
        let walks: Vec<[i64; 2]> =
            state.useful_actions().iter().filter(|a| a.kind == "walk").map(|a| a.direction).collect();
        assert_eq!(walks, [[0, 1], [1, 1], [1, 0]]);
        assert_eq!(state.useful_actions().len(), 3 + 8);
        assert_eq!(state.answer(ACTIONS[2]), r#"{"turns_left":5,"type":"walk","direction":[0,1]}"#);
        assert_eq!(State::parse("alice", "{}"), None);
    }

    #[test]
    fn the_history_is_skipped_and_counted() {
        let (text, turns) = without_history(EXAMPLE);
        assert_eq!(turns, 1);
        assert!(text.ends_with(r#""turns_left":5,"previous_actions":[]}"#), "{text}");
        let spaced = r#"{ "previous_actions" : [ {"a":{"type":"walk","direction":[0,1]}} , {} , {"b":{"type":"shoot","direction":[1,1]}} ] , "x" : "]" }"#;
        assert_eq!(without_history(spaced), (r#"{ "previous_actions" : [] , "x" : "]" }"#.to_owned(), 3));
        assert_eq!(without_history(r#"{"previous_actions":[]}"#).1, 0);
        assert_eq!(without_history(r#"{"a":{"previous_actions":[1]}}"#).1, 0, "only the top-level field");
        assert_eq!(without_history(r#"{"previous_actions":[{"#).1, 0, "unterminated: left as is");
    }
}
