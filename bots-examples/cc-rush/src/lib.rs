//! `cc-rush`: simple and aggressive. Two bots in three charge: each is sent to blast at the
//! enemy bot nearest to the flags' centre (or at the centre when there is none), and is sent
//! again whenever it stands idle. The third bot sits on a flag. Towers (it builds none itself)
//! would blast at any enemy in reach.
//!
//! Frugal: it thinks every [`THINK_EVERY`] turns and commands only new or idle bots.

use arena_sdk::code_character::prelude::*;

/// Turns between two thinking turns.
const THINK_EVERY: u32 = 3;

/// See the crate docs.
#[derive(Default)]
pub struct Rush {
    /// The flags' centre of mass.
    centre: Option<Vec2>,
}

impl CodeCharacterBot for Rush {
    fn init(&mut self, _info: &InitInfo, statics: &StaticView) {
        let n = statics.flags.len().max(1) as f64;
        let sum = statics.flags.iter().fold(Vec2::default(), |sum, p| sum + *p);
        self.centre = Some(if statics.flags.is_empty() { statics.enemy_base } else { sum * (1.0 / n) });
    }

    fn act(&mut self, view: &View) -> Vec<Command> {
        if !view.turn.is_multiple_of(THINK_EVERY) {
            return Vec::new();
        }
        let centre = self.centre.unwrap_or(Vec2::new(15.0, 15.0));
        let prey = view
            .enemy_bots
            .iter()
            .filter(|b| b.state != BotStatus::Dead)
            .map(|b| b.position)
            .min_by(|a, b| a.distance(centre).total_cmp(&b.distance(centre)));
        let mut commands = Vec::new();
        for tower in view.towers.iter().filter(|t| t.state == TowerState::Idle && t.age >= rules::TOWER_MIN_BLAST_AGE) {
            if prey.is_some_and(|p| p.distance(tower.position) <= 3.0) {
                commands.push(Command::new(tower.id, Order::Blast));
            }
        }
        for bot in view.bots.iter().filter(|b| b.state == BotStatus::Idle) {
            let order = if bot.id.is_multiple_of(3) {
                if rules::is_flag(view.terrain(bot.position.tile())) {
                    continue;
                }
                view.nearest_flag(bot.position).map(Order::Move)
            } else {
                // Blast at the prey when it is close, else walk towards it.
                match prey {
                    Some(p) if p.distance(bot.position) <= 1.0 => Some(Order::Blast),
                    Some(p) => Some(Order::BlastAt(p)),
                    None => Some(Order::Move(centre)),
                }
            };
            if let Some(order) = order {
                commands.push(Command::new(bot.id, order));
            }
        }
        commands
    }
}

arena_sdk::export_code_character_bot!(Rush);
