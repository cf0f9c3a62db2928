//! Plain data on the board that bots see: a field's coordinates ([`Pos`]), a bomb ([`Bomb`]) and
//! what everyone knows about a player ([`PlayerView`]).

use crate::Action;
use serde::{Deserialize, Serialize};

/// A field's coordinates: `x` from 0 (left) to `width - 1`, `y` from 0 (top) to `height - 1`
/// (suitebot.md "Board"). Serialised as `{"x": .., "y": ..}`, like the original protocol.
///
/// Ordered row-major (by `y`, then `x`), the order of fields everywhere in this crate (board
/// vectors, bomb lists, events), so that sorted collections come out in reading order.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Pos {
    /// Column, 0 = left edge.
    pub x: u16,
    /// Row, 0 = top edge.
    pub y: u16,
}

impl Pos {
    /// The field (`x`, `y`).
    pub const fn new(x: u16, y: u16) -> Pos {
        Pos { x, y }
    }
}

impl Ord for Pos {
    fn cmp(&self, other: &Pos) -> std::cmp::Ordering {
        (self.y, self.x).cmp(&(other.y, other.x))
    }
}

impl PartialOrd for Pos {
    fn partial_cmp(&self, other: &Pos) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl std::fmt::Display for Pos {
    /// `(x,y)`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({},{})", self.x, self.y)
    }
}

/// A bomb on the board (suitebot.md "One round" 3 and 4).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bomb {
    /// The field it lies on.
    pub at: Pos,
    /// The seat whose agent planted it.
    pub owner: u8,
    /// Rounds left before the round it explodes in, as bots see it: 0 means it explodes in step 4
    /// of the round being played (unless replaced first), 3 in the round after planting.
    pub countdown: u8,
}

/// What every bot sees of one player (suitebot.md "What a bot sees").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Points so far (never negative: nothing costs points).
    pub score: i64,
    /// The player's home base.
    pub base: Pos,
    /// Where its agent stands (every agent is always on the board: the dead respawn in the same
    /// round).
    pub agent: Pos,
    /// The action its agent played last round (the fallback HOLD included); `None` before round 1
    /// has been played.
    pub last_move: Option<Action>,
}

/// `items` numbered by seat as `u8` (seats beyond 255, which no valid state has, all read 255
/// rather than overflowing a counter).
pub(crate) fn by_seat<I: IntoIterator>(items: I) -> impl Iterator<Item = (u8, I::Item)> {
    items.into_iter().enumerate().map(|(seat, item)| (u8::try_from(seat).unwrap_or(u8::MAX), item))
}
