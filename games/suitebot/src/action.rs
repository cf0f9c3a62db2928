//! What a seat answers ([`Action`], suitebot.md "Actions") and why an answer is refused
//! ([`Invalid`]).
//!
//! Every action is legal in every state: moving onto a bomb, a base or another agent is allowed
//! (it may be deadly, not illegal), and planting where a bomb lies replaces it. So the only
//! refusals are about the seat, not the action: it does not exist, or the game is over. Out-of-range
//! answers (an unknown letter) cannot even be built as an [`Action`]; the [`crate::protocol`]
//! parser reports them as its own typed error, and the host then plays the fallback HOLD.

use serde::{Deserialize, Serialize};

/// One round's answer (suitebot.md "Actions"). This is the engine's `Game::Action`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Action {
    /// Move one field up: (0, -1).
    Up,
    /// Move one field down: (0, +1).
    Down,
    /// Move one field left: (-1, 0).
    Left,
    /// Move one field right: (+1, 0).
    Right,
    /// Stay. Also the fallback for a missing or invalid answer.
    Hold,
    /// Stay and plant a bomb on the agent's field.
    PlantBomb,
}

impl Action {
    /// All six actions, in the order of the original protocol's letters `U D L R H B`.
    pub const ALL: [Action; 6] =
        [Action::Up, Action::Down, Action::Left, Action::Right, Action::Hold, Action::PlantBomb];

    /// The move's offset (dx, dy); (0, 0) for HOLD and PLANT_BOMB.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Action::Up => (0, -1),
            Action::Down => (0, 1),
            Action::Left => (-1, 0),
            Action::Right => (1, 0),
            Action::Hold | Action::PlantBomb => (0, 0),
        }
    }

    /// Whether the agent changes field.
    pub const fn is_move(self) -> bool {
        !matches!(self, Action::Hold | Action::PlantBomb)
    }

    /// The original protocol's answer letter: `U`, `D`, `L`, `R`, `H` or `B`.
    pub const fn letter(self) -> char {
        match self {
            Action::Up => 'U',
            Action::Down => 'D',
            Action::Left => 'L',
            Action::Right => 'R',
            Action::Hold => 'H',
            Action::PlantBomb => 'B',
        }
    }

    /// The action for a protocol letter (either case), `None` for any other character.
    pub const fn from_letter(letter: char) -> Option<Action> {
        match letter.to_ascii_uppercase() {
            'U' => Some(Action::Up),
            'D' => Some(Action::Down),
            'L' => Some(Action::Left),
            'R' => Some(Action::Right),
            'H' => Some(Action::Hold),
            'B' => Some(Action::PlantBomb),
            _ => None,
        }
    }

    /// The rule text's name (`UP` .. `PLANT_BOMB`), which the original protocol's `agentLastMove`
    /// carries.
    pub const fn name(self) -> &'static str {
        match self {
            Action::Up => "UP",
            Action::Down => "DOWN",
            Action::Left => "LEFT",
            Action::Right => "RIGHT",
            Action::Hold => "HOLD",
            Action::PlantBomb => "PLANT_BOMB",
        }
    }
}

impl std::fmt::Display for Action {
    /// The protocol letter.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// Why an answer is refused. No action is ever illegal in itself (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum Invalid {
    /// The game is over: nobody acts any more.
    #[error("the game is over")]
    GameOver,
    /// There is no such seat in this match.
    #[error("there is no seat {seat} (the match has {players} players)")]
    NoSuchSeat {
        /// The seat asked for.
        seat: usize,
        /// Seats in the match.
        players: usize,
    },
}
