//! Helpers shared by the integration tests: a scripted policy that plays through the bot-facing
//! view (so the golden playthrough, the symmetry test and the speed measurement exercise the
//! same API a bot uses), and a generator of junk commands.

#![allow(dead_code, clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use arena_code_character::{BotStatus, Command, Order, StaticView, Terrain, TowerState, Vec2, View};
use arena_game::{GameRng, rng_below};

/// A number in [lo, lo + span) in steps of 1/100, from the generator.
fn uniform(rng: &mut GameRng, lo: f64, span: u32) -> f64 {
    lo + f64::from(rng_below(rng, span * 100)) / 100.0
}

/// A flag rush: idle bots walk to a random flag (jittered), sometimes transform on a flag tile,
/// blast when an enemy bot is close; towers blast at close enemies once old enough; now and then
/// a bot is sent to blast at an enemy's position.
pub fn flag_rush(view: &View, statics: &StaticView, rng: &mut GameRng) -> Vec<Command> {
    let mut commands = Vec::new();
    let enemies: Vec<Vec2> =
        view.enemy_bots.iter().filter(|b| b.state != BotStatus::Dead).map(|b| b.position).collect();
    let near = |p: Vec2, r: f64| enemies.iter().any(|e| e.distance(p) <= r);
    for bot in view.bots.iter().filter(|b| b.state != BotStatus::Dead) {
        let on_flag = statics.map.terrain(view.tile_of(bot.position)) == Terrain::Flag;
        let order = match bot.state {
            BotStatus::Idle if near(bot.position, 1.2) => Some(Order::Blast),
            BotStatus::Idle if on_flag && rng_below(rng, 4) == 0 => Some(Order::Transform),
            BotStatus::Idle if rng_below(rng, 12) == 0 && !enemies.is_empty() => {
                let target = enemies[rng_below(rng, enemies.len() as u32) as usize];
                Some(Order::BlastAt(target))
            }
            BotStatus::Idle if !statics.flags.is_empty() => {
                let flag = statics.flags[rng_below(rng, statics.flags.len() as u32) as usize];
                Some(Order::Move(Vec2::new(uniform(rng, flag.x - 0.5, 1), uniform(rng, flag.y - 0.5, 1))))
            }
            BotStatus::Move if near(bot.position, 0.8) && rng_below(rng, 3) == 0 => Some(Order::Blast),
            _ => None,
        };
        if let Some(order) = order {
            commands.push(Command::new(bot.id, order));
        }
    }
    for tower in view.towers.iter().filter(|t| t.state == TowerState::Idle && t.age >= 3) {
        if near(tower.position, 3.0) {
            commands.push(Command::new(tower.id, Order::Blast));
        }
    }
    commands
}

/// A few commands that break rules or hit edge cases: enemy and unknown ids, duplicates, early
/// tower blasts, targets outside the map, on water, on grid lines and on the bases.
pub fn junk(view: &View, rng: &mut GameRng) -> Vec<Command> {
    let mut commands = Vec::new();
    for _ in 0..rng_below(rng, 3) {
        let id = match rng_below(rng, 5) {
            0 if !view.enemy_bots.is_empty() => {
                view.enemy_bots[rng_below(rng, view.enemy_bots.len() as u32) as usize].id
            }
            1 => u32::MAX,
            2 if !view.towers.is_empty() => view.towers[rng_below(rng, view.towers.len() as u32) as usize].id,
            _ if !view.bots.is_empty() => view.bots[rng_below(rng, view.bots.len() as u32) as usize].id,
            _ => u32::MAX - 1,
        };
        let p = match rng_below(rng, 4) {
            0 => Vec2::new(f64::from(rng_below(rng, 61)) * 0.5, f64::from(rng_below(rng, 61)) * 0.5),
            1 => Vec2::new(uniform(rng, -1.0, 32), uniform(rng, -1.0, 32)),
            2 => Vec2::new(uniform(rng, 0.0, 1), uniform(rng, 0.0, 1)),
            _ => Vec2::new(14.0, uniform(rng, 0.0, 30)),
        };
        let order = match rng_below(rng, 5) {
            0 => Order::Move(p),
            1 => Order::BlastAt(p),
            2 => Order::TransformAt(p),
            3 => Order::Transform,
            _ => Order::Blast,
        };
        commands.push(Command::new(id, order));
    }
    commands
}
