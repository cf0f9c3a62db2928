use arena_sdk::eubots::prelude::*;

#[derive(Default)]
struct MyBot;

impl EubotsBot for MyBot {
    // `init(&mut self, info: &InitInfo)` is optional, as for every game.
    fn act(&mut self, view: &View) -> Vec<Order> {
        let enemies: Vec<Pos> =
            view.units.iter().flatten().filter(|u| u.owner != view.metrics.player).map(|u| u.pos).collect();
        let field = DistanceField::new(&view.map, enemies); // steps to the nearest enemy, around walls
        let mut orders = Vec::new();
        for (handle, unit) in view.own_units() {
            orders.push(match view.adjacent_enemies(unit.pos).first() {
                Some((direction, _)) => Order::attack(handle, *direction),
                None => match field.downhill(unit.pos).first() {
                    Some(direction) => Order::walk(handle, *direction),
                    None => Order::wait(handle),
                },
            });
        }
        orders
    }
}

arena_sdk::export_eubots_bot!(MyBot);
