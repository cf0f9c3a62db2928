//! `cc-random`: the Code Character baseline. Every turn each idle bot is sent to a uniformly
//! random point of the map, and one in ten is told to blast where it stands instead; towers blast
//! at random too. Seeded by the host, so the same match seed gives the same game.

use arena_sdk::code_character::prelude::*;

/// One in `BLAST_ONE_IN` orders is a blast.
const BLAST_ONE_IN: u32 = 10;

/// See the crate docs.
#[derive(Default)]
pub struct RandomBot {
    rng: Option<GameRng>,
}

impl CodeCharacterBot for RandomBot {
    fn init(&mut self, info: &InitInfo, _statics: &StaticView) {
        self.rng = Some(new_rng(info.seed ^ u64::from(info.seat).wrapping_mul(0x9E37_79B9_7F4A_7C15)));
    }

    fn act(&mut self, view: &View) -> Vec<Command> {
        let rng = self.rng.get_or_insert_with(|| new_rng(0));
        let size = MAP_SIZE as u32;
        let mut commands = Vec::new();
        for bot in view.bots.iter().filter(|b| b.state == BotStatus::Idle) {
            let order = if rng_below(rng, BLAST_ONE_IN) == 0 {
                Order::Blast
            } else {
                let (x, y) = (rng_below(rng, size), rng_below(rng, size));
                Order::Move(Vec2::new(f64::from(x) + 0.5, f64::from(y) + 0.5))
            };
            commands.push(Command::new(bot.id, order));
        }
        for tower in view.towers.iter().filter(|t| t.state == TowerState::Idle && t.age >= rules::TOWER_MIN_BLAST_AGE) {
            if rng_below(rng, BLAST_ONE_IN) == 0 {
                commands.push(Command::new(tower.id, Order::Blast));
            }
        }
        commands
    }
}

arena_sdk::export_code_character_bot!(RandomBot);
