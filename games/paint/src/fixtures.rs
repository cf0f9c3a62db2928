//! Transition fixtures (paint.md "Transition fixtures"): the upstream JSON format, run against
//! the engine. A fixture holds a `board`, one turn's `actions` and the `expected` board after
//! it; [`check_file`] builds the state, plays the turn with [`Paint`]'s own `step` and reports
//! the first field that differs as a path such as `expected.colors[3][4]` or
//! `expected.player_positions["bob"]`. This is what `arena check-transitions` wraps.
//!
//! The format, as the upstream files use it (all fields required unless noted):
//! ```json
//! { "board":    { "width": 2, "height": 2, "turns_left": 1,
//!                 "player_positions": { "alice": [0, 0], "bob": [1, 1] },
//!                 "colors": [["alice", null], [null, "bob"]] },
//!   "actions":  { "alice": { "type": "walk", "direction": [0, 1] } },
//!   "expected": { ...the board after the turn, same fields... } }
//! ```
//! Player ids are strings; `[i, j]` is `[row, col]`; `colors` is a list of `height` rows of
//! `width` entries, each a player id or `null`.
//!
//! Decisions the format leaves open **\[ours\]**:
//! - Player ids become seats in sorted order (the engine's seats are numbers; nothing in the
//!   rules depends on the order). Every id in `colors`, `actions` and `previous_actions` must
//!   be one of `player_positions`' keys.
//! - An action that is not a valid walk or shot (another `type`, `[0, 0]`, a longer vector, not
//!   an object) is no action, as paint.md "Actions" says of an invalid answer; it is not a
//!   fixture error.
//! - `previous_actions` (a list of maps id -> action, as in the protocol) may be given in
//!   `board` and in `expected`; when `expected` has it, it is compared too (`board`'s list
//!   plus this turn's valid actions, paint.md "One turn" 3). The upstream files have none.
//! - Unknown fields are refused, so that a misspelt field is an error rather than ignored.
//! - `turns_left` must be at least 1 (a finished game takes no turn).

use crate::{Action, Board, Paint, Pos, StateError};
use arena_game::{Game, Seat, StepError};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One fixture file.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Fixture {
    /// The state before the turn.
    pub board: FixtureBoard,
    /// Each acting player's action, by id, as raw JSON (an invalid one is no action); absent
    /// players do nothing.
    pub actions: BTreeMap<String, serde_json::Value>,
    /// The state after the turn.
    pub expected: FixtureBoard,
}

/// A state in the fixture format (the protocol's state message without `previous_actions`,
/// which is optional here).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FixtureBoard {
    /// Columns.
    pub width: i64,
    /// Rows.
    pub height: i64,
    /// Turns left.
    pub turns_left: i64,
    /// Each player's avatar, `[row, col]`, by id.
    pub player_positions: BTreeMap<String, [i64; 2]>,
    /// `height` rows of `width` entries: a player id or `null`.
    pub colors: Vec<Vec<Option<String>>>,
    /// Past turns' actions by id, oldest first (optional **\[ours\]**).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_actions: Option<Vec<BTreeMap<String, Action>>>,
}

/// The result of checking one fixture.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Verdict {
    /// The engine reproduces `expected` exactly.
    Pass,
    /// It does not.
    Fail {
        /// The first field that differs, as a path into the fixture: `expected.width`,
        /// `expected.turns_left`, `expected.player_positions["bob"]`, `expected.colors[3][4]`,
        /// `expected.colors[3]` (a row of another length), `expected.previous_actions[0]["bob"]`.
        first_difference: String,
        /// The fixture's value there, as JSON (`missing` when absent).
        expected: String,
        /// The engine's value there, as JSON (`missing` when absent).
        got: String,
    },
}

/// Where an engine result first departs from a fixture's `expected`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Difference {
    /// The path into the fixture, as in [`Verdict::Fail`].
    pub path: String,
    /// The fixture's value there, as JSON (`missing` when absent).
    pub expected: String,
    /// The engine's value there, as JSON (`missing` when absent).
    pub got: String,
}

/// Why a fixture's content is not a state the engine can take (the JSON itself parsed).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum InvalidFixture {
    /// `player_positions` is empty.
    #[error("no players")]
    NoPlayers,
    /// More than 256 players (colours are `u8`).
    #[error("{players} players; at most 256")]
    TooManyPlayers {
        /// How many.
        players: usize,
    },
    /// `width` or `height` is not in `1..=65535`.
    #[error("board size {width}x{height} is not in 1..=65535 on each side")]
    Size {
        /// Columns given.
        width: i64,
        /// Rows given.
        height: i64,
    },
    /// `colors` does not have `height` rows.
    #[error("colors has {rows} rows, height is {height}")]
    ColorRows {
        /// Rows given.
        rows: usize,
        /// The board's height.
        height: i64,
    },
    /// A row of `colors` does not have `width` entries.
    #[error("colors[{row}] has {len} entries, width is {width}")]
    ColorRow {
        /// The row.
        row: usize,
        /// Entries given.
        len: usize,
        /// The board's width.
        width: i64,
    },
    /// An id that is not a key of `player_positions`.
    #[error("{at} names player {id:?}, which has no entry in player_positions")]
    UnknownPlayer {
        /// The id.
        id: String,
        /// Where: `colors[i][j]`, `actions`, `previous_actions[t]`.
        at: String,
    },
    /// A coordinate outside the `i32` range.
    #[error("player_positions[{id:?}] is out of range")]
    Position {
        /// The player.
        id: String,
    },
    /// Two avatars on one square.
    #[error("players {first:?} and {second:?} share square {pos}")]
    SharedSquare {
        /// One player.
        first: String,
        /// Another.
        second: String,
        /// The square.
        pos: Pos,
    },
    /// `turns_left` is not in `1..=u32::MAX`: a finished game (or nonsense) takes no turn.
    #[error("turns_left is {turns_left}; a turn needs at least 1")]
    TurnsLeft {
        /// The value given.
        turns_left: i64,
    },
    /// A `previous_actions` entry has an invalid direction.
    #[error("previous_actions[{turn}][{id:?}] is not a valid action")]
    History {
        /// The turn.
        turn: usize,
        /// The player.
        id: String,
    },
    /// The engine refused the state.
    #[error("{0}")]
    State(StateError),
    /// The engine refused the turn (not expected: the state and actions are checked first).
    #[error("the engine refused the turn: {0}")]
    Refused(StepError),
}

/// Why a fixture file could not be checked; every variant names the file.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum FixtureError {
    /// The file (or directory) could not be read.
    #[error("{}: cannot read: {reason}", .path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The system's reason.
        reason: String,
    },
    /// The file is not JSON in the fixture format.
    #[error("{}: not a paint transition fixture: {reason}", .path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// serde's reason, with line and column.
        reason: String,
    },
    /// The file parsed but describes no state the engine can take.
    #[error("{}: {source}", .path.display())]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        source: InvalidFixture,
    },
}

/// Reads and parses a fixture file.
pub fn load(path: &Path) -> Result<Fixture, FixtureError> {
    let text = std::fs::read_to_string(path)
        .map_err(|err| FixtureError::Read { path: path.to_path_buf(), reason: err.to_string() })?;
    parse(path, &text)
}

/// Parses fixture JSON that came from `source` (a file name, or any name for text read
/// elsewhere, such as `-` for stdin: it only names the source in errors).
pub fn parse(source: &Path, json: &str) -> Result<Fixture, FixtureError> {
    serde_json::from_str(json)
        .map_err(|err| FixtureError::Parse { path: source.to_path_buf(), reason: err.to_string() })
}

/// Checks one fixture file: [`load`], then [`check_fixture`].
pub fn check_file(path: &Path) -> Result<Verdict, FixtureError> {
    let fixture = load(path)?;
    check_fixture(&fixture).map_err(|source| FixtureError::Invalid { path: path.to_path_buf(), source })
}

/// The `*.json` files of `dir`, sorted by name.
pub fn fixture_files(dir: &Path) -> Result<Vec<PathBuf>, FixtureError> {
    let read = |err: std::io::Error| FixtureError::Read { path: dir.to_path_buf(), reason: err.to_string() };
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(read)? {
        let path = entry.map_err(read)?.path();
        if path.is_file() && path.extension().is_some_and(|ext| ext == "json") {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// Plays the fixture's turn and compares the result with `expected`.
pub fn check_fixture(fixture: &Fixture) -> Result<Verdict, InvalidFixture> {
    let got = apply(fixture)?;
    Ok(match first_difference(&fixture.expected, &got) {
        None => Verdict::Pass,
        Some(Difference { path, expected, got }) => Verdict::Fail { first_difference: path, expected, got },
    })
}

/// The engine's state after the fixture's turn, in the fixture format (`previous_actions`
/// always filled in).
pub fn apply(fixture: &Fixture) -> Result<FixtureBoard, InvalidFixture> {
    let (mut game, ids) = build(&fixture.board)?;
    if let Some(id) = fixture.actions.keys().find(|id| ids.binary_search(id).is_err()) {
        return Err(InvalidFixture::UnknownPlayer { id: id.clone(), at: "actions".to_string() });
    }
    let joint: Vec<(Seat, Option<Action>)> = ids
        .iter()
        .enumerate()
        .map(|(seat, id)| {
            let action = fixture
                .actions
                .get(id)
                .and_then(|value| serde_json::from_value::<Action>(value.clone()).ok())
                .filter(|action| game.check(seat, action).is_ok());
            (seat, action)
        })
        .collect();
    // `build` guarantees turns_left >= 1 and the joint action names every seat once with a
    // checked action, so the engine accepts it; an error here would be an engine bug.
    game.step(&joint).map_err(InvalidFixture::Refused)?;
    Ok(render(&game, &ids))
}

/// The state of `board` as an engine state, with the player ids by seat.
fn build(board: &FixtureBoard) -> Result<(Paint, Vec<String>), InvalidFixture> {
    let ids: Vec<String> = board.player_positions.keys().cloned().collect();
    if ids.is_empty() {
        return Err(InvalidFixture::NoPlayers);
    }
    if ids.len() > usize::from(u8::MAX) + 1 {
        return Err(InvalidFixture::TooManyPlayers { players: ids.len() });
    }
    let size = |n: i64| u16::try_from(n).ok().filter(|n| *n > 0);
    let (Some(width), Some(height)) = (size(board.width), size(board.height)) else {
        return Err(InvalidFixture::Size { width: board.width, height: board.height });
    };
    if board.colors.len() != usize::from(height) {
        return Err(InvalidFixture::ColorRows { rows: board.colors.len(), height: board.height });
    }
    let seat_of = |id: &String, at: &dyn Fn() -> String| {
        ids.binary_search(id)
            .ok()
            .and_then(|seat| u8::try_from(seat).ok())
            .ok_or_else(|| InvalidFixture::UnknownPlayer { id: id.clone(), at: at() })
    };
    // Checked row by row before any allocation, so the board's size is bounded by the file's.
    for (row, cells) in board.colors.iter().enumerate() {
        if cells.len() != usize::from(width) {
            return Err(InvalidFixture::ColorRow { row, len: cells.len(), width: board.width });
        }
    }
    let mut grid = Board::new(width, height);
    for ((row, cells), i) in board.colors.iter().enumerate().zip(0i32..) {
        for ((col, cell), j) in cells.iter().enumerate().zip(0i32..) {
            if let Some(id) = cell {
                let seat = seat_of(id, &|| format!("colors[{row}][{col}]"))?;
                grid.paint(Pos::new(i, j), seat);
            }
        }
    }
    let mut positions = Vec::with_capacity(ids.len());
    for (id, [i, j]) in &board.player_positions {
        let (Ok(row), Ok(col)) = (i32::try_from(*i), i32::try_from(*j)) else {
            return Err(InvalidFixture::Position { id: id.clone() });
        };
        let pos = Pos::new(row, col);
        if let Some(other) = positions.iter().position(|p| *p == pos).and_then(|seat| ids.get(seat)) {
            return Err(InvalidFixture::SharedSquare { first: other.clone(), second: id.clone(), pos });
        }
        positions.push(pos);
    }
    let turns_left = u32::try_from(board.turns_left)
        .ok()
        .filter(|turns| *turns > 0)
        .ok_or(InvalidFixture::TurnsLeft { turns_left: board.turns_left })?;
    let mut history = Vec::new();
    for (turn, actions) in board.previous_actions.iter().flatten().enumerate() {
        let mut entry = vec![None; ids.len()];
        for (id, action) in actions {
            let seat = seat_of(id, &|| format!("previous_actions[{turn}]"))?;
            if action.checked_direction().is_err() {
                return Err(InvalidFixture::History { turn, id: id.clone() });
            }
            if let Some(slot) = entry.get_mut(usize::from(seat)) {
                *slot = Some(*action);
            }
        }
        history.push(entry);
    }
    let game = Paint::from_parts(grid, positions, turns_left, history).map_err(InvalidFixture::State)?;
    Ok((game, ids))
}

/// `game` in the fixture format, seats named by `ids`.
fn render(game: &Paint, ids: &[String]) -> FixtureBoard {
    let board = game.board();
    let name = |seat: u8| ids.get(usize::from(seat)).cloned().unwrap_or_else(|| format!("seat {seat}"));
    let colors = (0..i32::from(board.height))
        .map(|row| (0..i32::from(board.width)).map(|col| board.color(Pos::new(row, col)).map(name)).collect())
        .collect();
    let player_positions = ids
        .iter()
        .zip(game.positions())
        .map(|(id, pos)| (id.clone(), [i64::from(pos.row), i64::from(pos.col)]))
        .collect();
    let previous_actions = game
        .previous_actions()
        .iter()
        .map(|turn| ids.iter().zip(turn).filter_map(|(id, action)| action.map(|action| (id.clone(), action))).collect())
        .collect();
    FixtureBoard {
        width: i64::from(board.width),
        height: i64::from(board.height),
        turns_left: i64::from(game.turns_left()),
        player_positions,
        colors,
        previous_actions: Some(previous_actions),
    }
}

/// JSON of `value`, or `missing`.
fn json<T: Serialize>(value: Option<&T>) -> String {
    value.map_or_else(|| "missing".to_string(), |value| serde_json::to_string(value).unwrap_or_default())
}

/// Compares two sequences element by element: the first index where they differ (including
/// one being longer) with both sides, or `None`.
fn first_in<'a, T: PartialEq + 'a>(expected: &'a [T], got: &'a [T]) -> Option<(usize, Option<&'a T>, Option<&'a T>)> {
    (0..expected.len().max(got.len()))
        .map(|i| (i, expected.get(i), got.get(i)))
        .find(|(_, expected, got)| expected != got)
}

/// Compares two maps key by key in key order: the first key whose values differ (including a
/// key one side lacks) with both sides, or `None`.
fn first_key<'a, V: PartialEq>(
    expected: &'a BTreeMap<String, V>,
    got: &'a BTreeMap<String, V>,
) -> Option<(&'a String, Option<&'a V>, Option<&'a V>)> {
    let mut keys: Vec<&String> = expected.keys().chain(got.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter().map(|key| (key, expected.get(key), got.get(key))).find(|(_, expected, got)| expected != got)
}

/// The first field of `expected` that `got` does not reproduce, in field order (`width`,
/// `height`, `turns_left`, `player_positions` by id, `colors` row by row, then
/// `previous_actions` if `expected` has it), or `None` when they agree.
pub fn first_difference(expected: &FixtureBoard, got: &FixtureBoard) -> Option<Difference> {
    let found = |path: String, expected: String, got: String| Some(Difference { path, expected, got });
    for (field, e, g) in [
        ("width", expected.width, got.width),
        ("height", expected.height, got.height),
        ("turns_left", expected.turns_left, got.turns_left),
    ] {
        if e != g {
            return found(format!("expected.{field}"), e.to_string(), g.to_string());
        }
    }
    if let Some((id, e, g)) = first_key(&expected.player_positions, &got.player_positions) {
        return found(format!("expected.player_positions[{}]", json(Some(id))), json(e), json(g));
    }
    if let Some((row, e, g)) = first_in(&expected.colors, &got.colors) {
        return match (e, g) {
            (Some(e), Some(g)) if e.len() == g.len() => {
                let (col, e, g) = first_in(e, g)?;
                found(format!("expected.colors[{row}][{col}]"), json(e), json(g))
            }
            _ => found(format!("expected.colors[{row}]"), json(e), json(g)),
        };
    }
    if let Some(expected_history) = &expected.previous_actions {
        let got_history = got.previous_actions.as_deref().unwrap_or_default();
        if let Some((turn, e, g)) = first_in(expected_history, got_history) {
            return match (e, g) {
                (Some(e), Some(g)) => {
                    let (id, e, g) = first_key(e, g)?;
                    found(format!("expected.previous_actions[{turn}][{}]", json(Some(id))), json(e), json(g))
                }
                _ => found(format!("expected.previous_actions[{turn}]"), json(e), json(g)),
            };
        }
    }
    None
}
