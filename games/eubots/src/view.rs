//! What a seat sees ([`View`], the engine's `Game::Observation`) and the helpers bots call on it.
//! Every rule helper delegates to [`crate::rules`], the same functions the engine uses.

use crate::grid::{Direction, Grid, Handle, Pos, Square};
use crate::order::{IgnoredOrder, Invalid, Order};
use crate::rules::{self, Validation};
use crate::unit::Unit;
use serde::{Deserialize, Serialize};

/// The match's metrics (eubots.md "What a bot sees"). Only `units_remaining` and `turn` change
/// during a match.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Metrics {
    /// Map columns.
    pub width: i32,
    /// Map rows.
    pub height: i32,
    /// Players in the match.
    pub players: u8,
    /// The observer's seat (0-based; its units show this `owner`).
    pub player: u8,
    /// The length of the units index: every unit the match started with.
    pub total_units: u32,
    /// Living units per seat.
    pub units_remaining: Vec<u32>,
    /// The turn about to be played, 1-based.
    pub turn: u32,
}

/// Everything eubots.md "What a bot sees" lists except fuel (the host adds fuel): the metrics,
/// the map and the public units index, plus **\[ours\]** the observer's orders that were ignored
/// last turn (the per-order report that complements the status flags).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// The metrics.
    pub metrics: Metrics,
    /// The map: empty, wall or a unit handle per square.
    pub map: Grid,
    /// The units index, by handle; `None` for a dead unit. Enemies included.
    pub units: Vec<Option<Unit>>,
    /// The observer's orders of last turn that were ignored, in the order given.
    pub ignored: Vec<IgnoredOrder>,
}

impl View {
    /// What `pos` holds; [`Square::Wall`] outside the map.
    pub fn square(&self, pos: Pos) -> Square {
        self.map.get(pos)
    }

    /// Whether `pos` is inside the map.
    pub fn in_map(&self, pos: Pos) -> bool {
        self.map.in_map(pos)
    }

    /// The living unit with `handle`.
    pub fn unit(&self, handle: Handle) -> Option<&Unit> {
        usize::try_from(handle).ok().and_then(|index| self.units.get(index)).and_then(Option::as_ref)
    }

    /// The unit on `pos`, with its handle.
    pub fn unit_at(&self, pos: Pos) -> Option<(Handle, &Unit)> {
        let handle = self.square(pos).unit()?;
        Some((handle, self.unit(handle)?))
    }

    /// The observer's living units, by handle.
    pub fn own_units(&self) -> Vec<(Handle, &Unit)> {
        self.units_of(self.metrics.player)
    }

    /// `seat`'s living units, by handle.
    pub fn units_of(&self, seat: u8) -> Vec<(Handle, &Unit)> {
        (0u32..)
            .zip(&self.units)
            .filter_map(|(handle, unit)| Some((handle, unit.as_ref()?)))
            .filter(|(_, unit)| unit.owner == seat)
            .collect()
    }

    /// The enemy unit (of another seat than the observer) on `pos`, if any.
    pub fn enemy_at(&self, pos: Pos) -> Option<(Handle, &Unit)> {
        self.unit_at(pos).filter(|(_, unit)| unit.owner != self.metrics.player)
    }

    /// The enemies adjacent to `pos`, with the direction to attack each, in [`Direction::ALL`]
    /// order.
    pub fn adjacent_enemies(&self, pos: Pos) -> Vec<(Direction, Handle)> {
        Direction::ALL
            .into_iter()
            .filter_map(|direction| Some((direction, self.enemy_at(pos.step(direction))?.0)))
            .collect()
    }

    /// Most orders an answer may hold ([`rules::max_orders`]).
    pub fn max_orders(&self) -> usize {
        rules::max_orders(&self.units)
    }

    /// Whether the engine accepts `orders` as the observer's answer now: the same check
    /// ([`rules::check_answer`]) the engine applies while the match runs.
    pub fn check(&self, orders: &[Order]) -> Result<(), Invalid> {
        rules::check_answer(&self.units, usize::from(self.metrics.player), orders)
    }

    /// Which of `orders` would be carried out and which ignored ([`rules::validate_orders`]).
    pub fn validate(&self, orders: &[Order]) -> Validation {
        rules::validate_orders(&self.units, self.metrics.player, orders)
    }
}
