//! `eubots-random`: gives every unit a uniformly random order each turn (wait, one of the 8
//! moves or one of the 8 attacks), from a generator seeded by the host (so the same match seed
//! gives the same game).

use arena_sdk::eubots::prelude::*;

/// One of the 17 orders, uniformly: 0 waits, 1..=8 move, 9..=16 attack.
pub fn random_order(rng: &mut GameRng, handle: Handle) -> Order {
    let pick = rng_below(rng, 17) as usize;
    match (pick, DIRECTIONS.get(pick.wrapping_sub(1) % 8)) {
        (1..=8, Some(direction)) => Order::walk(handle, *direction),
        (9.., Some(direction)) => Order::attack(handle, *direction),
        _ => Order::wait(handle),
    }
}

/// Uniformly random orders.
#[derive(Default)]
pub struct RandomBot {
    rng: Option<GameRng>,
}

impl EubotsBot for RandomBot {
    fn init(&mut self, info: &InitInfo) {
        self.rng = Some(new_rng(info.seed));
    }

    fn act(&mut self, view: &View) -> Vec<Order> {
        let rng = self.rng.get_or_insert_with(|| new_rng(0));
        view.own_units().into_iter().map(|(handle, _)| random_order(rng, handle)).collect()
    }
}

arena_sdk::export_eubots_bot!(RandomBot);
