//! One entry of the public units index ([`Unit`], eubots.md "Units") and the status flag of a
//! unit's last order ([`Status`], eubots.md "Orders").

use crate::grid::Pos;
use crate::order::Order;
use serde::{Deserialize, Serialize};

/// How a unit's order of last turn went (the spec's S_FLAG). On turn 1 every unit shows
/// [`Status::WaitSuccess`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Status {
    /// It waited (always succeeds).
    WaitSuccess,
    /// It moved.
    MoveSuccess,
    /// The unit it attacked died this turn.
    AttackSuccess,
    /// Its move failed (wall, contested square, or an occupant that stayed).
    MoveFail,
    /// Its attack failed: no enemy on the square, or the enemy survived.
    AttackFail,
    /// It had no order, or more than one: it waited.
    Invalid,
}

impl Status {
    /// Whether the flag is positive (the order succeeded).
    pub const fn is_success(self) -> bool {
        matches!(self, Status::WaitSuccess | Status::MoveSuccess | Status::AttackSuccess)
    }

    /// The flag as a signed number, **\[ours\]**: 1, 2, 3 for wait, move and attack success;
    /// -2, -3 for move and attack failure; -1 for INVALID. Positive exactly on success, as the
    /// original's S_FLAG.
    pub const fn code(self) -> i8 {
        match self {
            Status::WaitSuccess => 1,
            Status::MoveSuccess => 2,
            Status::AttackSuccess => 3,
            Status::MoveFail => -2,
            Status::AttackFail => -3,
            Status::Invalid => -1,
        }
    }

    /// The spec's name (`"MOVE_FAIL"`).
    pub const fn name(self) -> &'static str {
        match self {
            Status::WaitSuccess => "WAIT_SUCCESS",
            Status::MoveSuccess => "MOVE_SUCCESS",
            Status::AttackSuccess => "ATTACK_SUCCESS",
            Status::MoveFail => "MOVE_FAIL",
            Status::AttackFail => "ATTACK_FAIL",
            Status::Invalid => "INVALID",
        }
    }
}

/// A living unit's entry in the units index (eubots.md "Units"). A dead unit's entry is `None`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Unit {
    /// The owner's seat (0-based; map files write seat `s` as the digit `s + 1`).
    pub owner: u8,
    /// Where it stands.
    pub pos: Pos,
    /// Defence left, 1..=[`crate::rules::DEFENCE`]; damage is never healed.
    pub defence: u8,
    /// The order it carried out (or tried to) last turn; `None` on turn 1 and when it had no
    /// order or several **\[ours\]**.
    pub last_order: Option<Order>,
    /// How that went.
    pub status: Status,
}

impl Unit {
    /// A fresh unit of `owner` at `pos`: full defence, status WAIT_SUCCESS, no order yet.
    pub const fn new(owner: u8, pos: Pos) -> Unit {
        Unit { owner, pos, defence: crate::rules::DEFENCE, last_order: None, status: Status::WaitSuccess }
    }
}
