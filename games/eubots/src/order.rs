//! What a player answers: a list of [`Order`]s (eubots.md "Orders"), why one order is ignored
//! ([`OrderError`], reported back, not a refusal of the whole answer), and why a whole answer is
//! refused ([`Invalid`], the engine's `Game::Invalid`).

use crate::grid::{Direction, Handle};
use serde::{Deserialize, Serialize};

/// What a unit is ordered to do (eubots.md "Orders").
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Action {
    /// Stay put; always succeeds. The direction is ignored.
    Wait,
    /// Step onto the adjacent square in the order's direction.
    Move,
    /// Deal 1 damage to the enemy unit on the adjacent square in the order's direction.
    Attack,
}

impl Action {
    /// The lowercase name (`"attack"`).
    pub const fn name(self) -> &'static str {
        match self {
            Action::Wait => "wait",
            Action::Move => "move",
            Action::Attack => "attack",
        }
    }
}

/// One order, `{handle, action, direction}` (eubots.md "Orders"). A player's answer (the
/// engine's `Game::Action`) is a `Vec<Order>`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Order {
    /// The unit ordered.
    pub handle: Handle,
    /// What it does.
    pub action: Action,
    /// Where (ignored for [`Action::Wait`]).
    pub direction: Direction,
}

impl Order {
    /// A wait order for `handle` (its direction, E, is ignored).
    pub const fn wait(handle: Handle) -> Order {
        Order { handle, action: Action::Wait, direction: Direction::E }
    }

    /// A move order.
    pub const fn walk(handle: Handle, direction: Direction) -> Order {
        Order { handle, action: Action::Move, direction }
    }

    /// An attack order.
    pub const fn attack(handle: Handle, direction: Direction) -> Order {
        Order { handle, action: Action::Attack, direction }
    }
}

impl std::fmt::Display for Order {
    /// `h12 move NE`; a wait shows no direction.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.action {
            Action::Wait => write!(f, "h{} wait", self.handle),
            action => write!(f, "h{} {} {}", self.handle, action.name(), self.direction),
        }
    }
}

/// Why one order of an answer was not carried out (eubots.md "Orders"): the order is ignored,
/// the rest of the answer stands, and the player sees it in its next view.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
pub enum OrderError {
    /// No unit has this handle (it is at least the length of the units index).
    #[error("no unit has handle {handle}")]
    UnknownUnit {
        /// The handle given.
        handle: Handle,
    },
    /// The unit is dead.
    #[error("unit {handle} is dead")]
    DeadUnit {
        /// The handle given.
        handle: Handle,
    },
    /// The unit belongs to another player.
    #[error("unit {handle} belongs to seat {owner}")]
    NotYourUnit {
        /// The handle given.
        handle: Handle,
        /// Its owner's seat.
        owner: u8,
    },
    /// The answer holds more than one order for this unit: it waits, status INVALID, and every
    /// one of its orders is ignored.
    #[error("unit {handle} was given {count} orders")]
    Duplicate {
        /// The unit.
        handle: Handle,
        /// How many orders named it.
        count: u32,
    },
}

/// An order that was ignored, and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IgnoredOrder {
    /// The order as given.
    pub order: Order,
    /// Why it was ignored.
    pub reason: OrderError,
}

/// Why a whole answer is refused (the engine's `Game::Invalid`); the player's units then all
/// wait with status INVALID, as if it had answered nothing. Problems with single orders are not
/// refusals: see [`OrderError`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
pub enum Invalid {
    /// The seat is not asked for orders: it has no units left, is not in the game, or the match
    /// is over (eubots.md "End of the match").
    #[error("seat {seat} is not asked for orders")]
    NotActing {
        /// The seat.
        seat: usize,
    },
    /// More orders than [`crate::rules::max_orders`] allows (one per entry of the units index).
    #[error("{given} orders, at most {max} allowed")]
    TooManyOrders {
        /// Orders given.
        given: usize,
        /// The bound.
        max: usize,
    },
}
