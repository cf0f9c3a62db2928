//! [`View`]: a game's own observation type plus the turn's budget facts.

use crate::TurnInfo;

/// What a bot sees on its turn: the game's observation (`state`, whose methods such as
/// `legal_moves` are reachable directly through `Deref`) and its budget (`info`).
#[derive(Debug, Clone, PartialEq)]
pub struct View<S> {
    /// The game's observation, the same type the engine produces.
    pub state: S,
    /// Remaining fuel, missed turns.
    pub info: TurnInfo,
}

impl<S> std::ops::Deref for View<S> {
    type Target = S;

    fn deref(&self) -> &S {
        &self.state
    }
}
