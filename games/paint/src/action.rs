//! What a seat answers ([`Action`]) and why an answer is refused ([`Invalid`], paint.md "Actions").

use crate::{DIRECTIONS, Direction};
use serde::{Deserialize, Serialize};

/// Walk or shoot.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ActionKind {
    /// Move one square (paint.md "One turn" 1).
    Walk,
    /// Fire a paint shot (paint.md "One turn" 2).
    Shoot,
}

/// One turn's answer: the engine's `Game::Action`. Its JSON is the original protocol's answer
/// without the nonce: `{"type":"walk","direction":[0,1]}`.
///
/// `direction` is the raw vector the bot sent, so that every value a bot can send is
/// representable and a bad one is refused with a typed [`Invalid`] rather than at decoding.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Action {
    /// Walk or shoot (`"type"` in JSON, as in the protocol).
    #[serde(rename = "type")]
    pub kind: ActionKind,
    /// `[di, dj]`; valid only when it is one of the 8 [`Direction`]s.
    pub direction: [i32; 2],
}

impl Action {
    /// A walk in `direction`.
    pub const fn walk(direction: Direction) -> Action {
        Action { kind: ActionKind::Walk, direction: direction.delta() }
    }

    /// A shot in `direction`.
    pub const fn shoot(direction: Direction) -> Action {
        Action { kind: ActionKind::Shoot, direction: direction.delta() }
    }

    /// The direction, or [`Invalid::BadDirection`] when the vector is not a king move.
    pub fn checked_direction(&self) -> Result<Direction, Invalid> {
        Direction::from_delta(self.direction).ok_or(Invalid::BadDirection { direction: self.direction })
    }

    /// Every valid action: the 8 walks, then the 8 shots, each in [`DIRECTIONS`] order.
    pub fn all() -> [Action; 16] {
        let mut all = [Action::walk(Direction::North); 16];
        for (i, direction) in DIRECTIONS.into_iter().enumerate() {
            all[i] = Action::walk(direction);
            all[i + 8] = Action::shoot(direction);
        }
        all
    }
}

impl std::fmt::Display for Action {
    /// `walk [0, 1]`, `shoot [-1, -1]`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = match self.kind {
            ActionKind::Walk => "walk",
            ActionKind::Shoot => "shoot",
        };
        write!(f, "{kind} [{}, {}]", self.direction[0], self.direction[1])
    }
}

/// Why an action is refused. The host turns a refused answer into "no action" (paint.md
/// "Actions": an invalid action means no action for that player this turn).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum Invalid {
    /// The seat does not act now: there is no such seat, or the game is over.
    #[error("this seat does not act now")]
    NotActing,
    /// The direction is `[0, 0]` or not one of the 8 king vectors.
    #[error("direction {direction:?} is not one of the 8 king directions")]
    BadDirection {
        /// The vector sent.
        direction: [i32; 2],
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// paint.md "Original protocol" 3: the answer's JSON shape (without the nonce).
    #[test]
    fn json_is_the_protocol_answer() {
        let json = serde_json::to_string(&Action::walk(Direction::East)).unwrap_or_default();
        assert_eq!(json, r#"{"type":"walk","direction":[0,1]}"#);
        let shot: Option<Action> = serde_json::from_str(r#"{"type":"shoot","direction":[-1,-1]}"#).ok();
        assert_eq!(shot, Some(Action::shoot(Direction::NorthWest)));
        assert!(serde_json::from_str::<Action>(r#"{"type":"jump","direction":[0,1]}"#).is_err());
    }

    /// paint.md "Actions": `[0, 0]` and other vectors are refused by name.
    #[test]
    fn bad_vectors_are_typed_errors() {
        let still = Action { kind: ActionKind::Walk, direction: [0, 0] };
        assert_eq!(still.checked_direction(), Err(Invalid::BadDirection { direction: [0, 0] }));
        let far = Action { kind: ActionKind::Shoot, direction: [2, 0] };
        assert_eq!(far.checked_direction(), Err(Invalid::BadDirection { direction: [2, 0] }));
        let all = Action::all();
        assert!(all.iter().all(|action| action.checked_direction().is_ok()));
        assert_eq!(all.iter().filter(|action| action.kind == ActionKind::Shoot).count(), 8);
    }
}
