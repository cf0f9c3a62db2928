//! `fx-eubots-flood`: answers more orders than the units index has entries, every turn.
//!
//! docs/design.md#memory-and-sizes, "Memory and sizes": an answer larger than a bound is an invalid
//! action, never a crash. On turn 2 it answers one order more than any match allows (`MAX_ORDERS +
//! 1`, some 65,000: the host's decoding refuses it as malformed); on every other turn one order
//! more than this match's units index holds (the engine refuses it: `Invalid::TooManyOrders`). The
//! huge answer is sent once only: building and lowering it costs millions of fuel. The orders
//! themselves are waits for its own first unit, so only the length is wrong.

use arena_sdk::eubots::prelude::*;

/// Too many orders, every turn.
#[derive(Default)]
pub struct Flood;

impl EubotsBot for Flood {
    fn act(&mut self, view: &View) -> Vec<Order> {
        let handle = view.own_units().first().map_or(0, |(handle, _)| *handle);
        let count = if view.metrics.turn == 2 { MAX_ORDERS + 1 } else { view.max_orders() + 1 };
        vec![Order::wait(handle); count]
    }
}

arena_sdk::export_eubots_bot!(Flood);
