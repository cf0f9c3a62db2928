//! What a seat sees ([`View`], the engine's `Game::Observation`) and the grid helpers bots call on
//! it. Every rule helper delegates to [`crate::rules`], the same functions the engine uses.

use crate::rules;
use crate::{Action, Board, Direction, Invalid, Pos, PreviousActions};
use serde::{Deserialize, Serialize};

/// Everything the original protocol sends a bot each turn (paint.md "Original protocol" 2),
/// with seats for player ids, plus the obstacle layer (inside `board`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The observer's own seat, its player id (and its colour).
    pub seat: u8,
    /// The board: size, colours, obstacles.
    pub board: Board,
    /// Every avatar's square, by seat.
    pub positions: Vec<Pos>,
    /// Turns left, this one included; also the protocol's nonce.
    pub turns_left: u32,
    /// Every past turn's actions by seat, oldest first; `None` where a seat had no action
    /// (none given, invalid, or skipped) **\[ours\]** (the protocol leaves such players out of
    /// the turn's map).
    pub previous_actions: Vec<Vec<Option<Action>>>,
    /// How much of `previous_actions` the line protocol sends (the match's `previous_actions`
    /// option); the view itself always holds every turn. Left out when serialised as the
    /// original, `all`.
    #[serde(default = "PreviousActions::when_missing", skip_serializing_if = "PreviousActions::is_all")]
    pub sent_history: PreviousActions,
}

impl View {
    /// The observer's square (`None` only in a malformed view).
    pub fn me(&self) -> Option<Pos> {
        self.position(self.seat)
    }

    /// The square of `seat`'s avatar.
    pub fn position(&self, seat: u8) -> Option<Pos> {
        self.positions.get(usize::from(seat)).copied()
    }

    /// Number of players.
    pub fn players(&self) -> usize {
        self.positions.len()
    }

    /// The seat whose avatar stands on `pos`, if any.
    pub fn avatar_at(&self, pos: Pos) -> Option<u8> {
        self.positions.iter().position(|p| *p == pos).and_then(|seat| u8::try_from(seat).ok())
    }

    /// Whether `pos` is on the board.
    pub fn in_bounds(&self, pos: Pos) -> bool {
        self.board.contains(pos)
    }

    /// The seat whose colour `pos` has (`None` unpainted or off the board).
    pub fn color(&self, pos: Pos) -> Option<u8> {
        self.board.color(pos)
    }

    /// The on-board squares around `pos` with their directions ([`Board::neighbours`]).
    pub fn neighbours(&self, pos: Pos) -> Vec<(Direction, Pos)> {
        self.board.neighbours(pos)
    }

    /// Whether the observer may play `action` now: the same check the engine applies.
    pub fn check(&self, action: &Action) -> Result<(), Invalid> {
        if self.turns_left == 0 || usize::from(self.seat) >= self.positions.len() {
            return Err(Invalid::NotActing);
        }
        action.checked_direction().map(|_| ())
    }

    /// The observer's valid actions ([`Action::all`]: 8 walks then 8 shots); empty once the
    /// game is over. A walk off the board or into an obstacle is valid (and dropped).
    pub fn legal_actions(&self) -> Vec<Action> {
        if self.check(&Action::walk(Direction::North)).is_err() {
            return Vec::new();
        }
        Action::all().to_vec()
    }

    /// The run of the observer's colour from its square going `direction`
    /// ([`rules::run_length`]); shooting the opposite way has range `max(1, run - 1)`.
    pub fn run_length(&self, direction: Direction) -> u32 {
        self.me().map_or(0, |me| rules::run_length(&self.board, me, self.seat, direction))
    }

    /// The range a shot in `direction` would have now ([`rules::shot_range`]; the engine
    /// measures it after this turn's walks, which may change it).
    pub fn shot_range(&self, direction: Direction) -> u32 {
        self.me().map_or(1, |me| rules::shot_range(&self.board, me, self.seat, direction))
    }

    /// The squares `action` would gain for the observer if nobody else acted
    /// ([`rules::squares_gained`]).
    pub fn squares_gained(&self, action: &Action) -> Vec<Pos> {
        rules::squares_gained(&self.board, &self.positions, self.seat, action)
    }

    /// Every seat's score now ([`rules::scores`]).
    pub fn scores(&self) -> Vec<i64> {
        rules::scores(&self.board, self.positions.len())
    }
}

/// `seat s, N turns left`, then the compact board ([`Board::text`]).
impl std::fmt::Display for View {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "seat {}, {} turns left", self.seat, self.turns_left)?;
        f.write_str(&self.board.text(&self.positions))
    }
}
