//! What happened during a step ([`Event`], the engine's `Game::Event`), for replays, logs and the
//! golden playthrough; and how a match ended ([`EndReason`], [`Standing`]). Events carry enough to
//! follow the match without re-running the rules. Within a step they come in the order the rules
//! apply: ignored orders, then the attack phase (hits and misses by attacker handle, then deaths
//! by handle), then the movement phase (by handle), then eliminations and the end.

use crate::grid::{Handle, Pos};
use crate::order::{IgnoredOrder, Order};
use serde::{Deserialize, Serialize};

/// Why a move failed (eubots.md "Resolution of one turn" 3).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum MoveFail {
    /// The destination is a wall or outside the map.
    Wall,
    /// Two or more units tried to move onto the destination.
    Contested,
    /// The destination's occupant did not (successfully) move away.
    Occupied,
}

/// Why the match ended (eubots.md "End of the match").
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EndReason {
    /// One player is left with units: it wins.
    Win,
    /// All remaining players were wiped out in the same turn: a draw among them, 0 points each.
    WipeOut,
    /// Stalemate: no unit died for [`crate::rules::STALEMATE_TURNS`] consecutive turns.
    NoDeaths,
    /// Stalemate: every remaining player has exactly one unit.
    LastUnits,
    /// The safety cap of [`crate::rules::TURN_CAP`] turns **\[ours\]**, scored as a stalemate.
    TurnCap,
}

/// A seat's result (eubots.md "End of the match"). Ranks follow it: a win above a draw above a
/// loss; points are the `Outcome` scores.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Standing {
    /// Lost: wiped out before the end (or not the winner).
    Lost,
    /// Drew: still in the match at a stalemate, or wiped out in the final turn together with
    /// every other remaining player.
    Drew,
    /// The one player left with units.
    Won,
}

/// One thing that happened during a step.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Event {
    /// An order was ignored (eubots.md "Orders": INVALID); for a unit of the seat's own it means
    /// the unit waits with status INVALID.
    Ignored {
        /// The seat that gave it.
        seat: u8,
        /// The order and why.
        ignored: IgnoredOrder,
    },
    /// An attack hit an enemy unit.
    Hit {
        /// The attacker.
        attacker: Handle,
        /// The unit hit.
        target: Handle,
        /// Where the unit hit stands.
        at: Pos,
        /// Its defence left after this hit (0: it dies at the end of the attack phase).
        defence: u8,
    },
    /// An attack found no enemy on its square (empty, wall, outside, or a friendly unit): it
    /// fails.
    Missed {
        /// The attacker.
        attacker: Handle,
        /// The square attacked.
        at: Pos,
    },
    /// A unit died at the end of the attack phase; its index entry is now empty.
    Died {
        /// The unit.
        handle: Handle,
        /// Its owner's seat.
        owner: u8,
        /// Where it stood.
        at: Pos,
    },
    /// A unit moved.
    Moved {
        /// The unit.
        handle: Handle,
        /// From.
        from: Pos,
        /// To.
        to: Pos,
    },
    /// A move failed; the unit stays.
    Blocked {
        /// The unit.
        handle: Handle,
        /// The order given.
        order: Order,
        /// Why.
        reason: MoveFail,
    },
    /// A seat lost its last unit: it is no longer asked for orders.
    Eliminated {
        /// The seat.
        seat: u8,
    },
    /// The match ended.
    GameEnded {
        /// Why.
        reason: EndReason,
        /// Each seat's result.
        standings: Vec<Standing>,
        /// Final points per seat.
        scores: Vec<i64>,
    },
}

/// One line per event, as in the golden playthrough.
impl std::fmt::Display for Event {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Event::Ignored { seat, ignored } => write!(f, "seat {seat}: {} ignored: {}", ignored.order, ignored.reason),
            Event::Hit { attacker, target, at, defence } => {
                write!(f, "h{attacker} hits h{target} at {at}, defence {defence}")
            }
            Event::Missed { attacker, at } => write!(f, "h{attacker} attacks {at}: no enemy"),
            Event::Died { handle, owner, at } => write!(f, "h{handle} of seat {owner} dies at {at}"),
            Event::Moved { handle, from, to } => write!(f, "h{handle} moves {from} -> {to}"),
            Event::Blocked { handle, order, reason } => {
                write!(f, "h{handle} cannot move {} ({reason:?})", order.direction)
            }
            Event::Eliminated { seat } => write!(f, "seat {seat} is eliminated"),
            Event::GameEnded { reason, standings, scores } => {
                write!(f, "game over ({reason:?}): standings {standings:?}, scores {scores:?}")
            }
        }
    }
}
