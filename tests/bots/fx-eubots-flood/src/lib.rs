//! `fx-eubots-flood`: answers more orders than the units index has entries, every turn.
//!
//! DESIGN.md section 1, "Memory and sizes": an answer larger than a bound is an invalid action,
//! never a crash. On odd turns it answers one order more than the match allows (the engine
//! refuses it: `Invalid::TooManyOrders`); on even turns one more than any match allows
//! (`MAX_ORDERS + 1`: the host's decoding refuses it as malformed). The orders themselves are
//! waits for its own first unit, so only the length is wrong.

use arena_sdk::eubots::prelude::*;

/// Too many orders, every turn.
#[derive(Default)]
pub struct Flood;

impl EubotsBot for Flood {
    fn act(&mut self, view: &View) -> Vec<Order> {
        let handle = view.own_units().first().map_or(0, |(handle, _)| *handle);
        let count = if view.metrics.turn % 2 == 1 { view.max_orders() + 1 } else { MAX_ORDERS + 1 };
        vec![Order::wait(handle); count]
    }
}

arena_sdk::export_eubots_bot!(Flood);
