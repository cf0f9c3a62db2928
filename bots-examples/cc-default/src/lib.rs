//! `cc-default`: holds the flags. Every bot walks to a flag tile (spread round-robin over the
//! flags); a few flag tiles chosen at `init` (interior tiles whose blocking keeps the two bases
//! connected) are reserved for towers, built by idle bots standing on the flags; one bot in
//! five is a blaster that blasts when enemy bots cluster around it; towers blast when enemies
//! come close.
//!
//! Frugal by design (a 1000-turn match must fit the default game budget): it thinks every
//! [`THINK_EVERY`] turns, and then commands only new bots and bots whose situation changed
//! (an empty answer keeps every intent).

use arena_sdk::code_character::prelude::*;

/// Turns between two thinking turns.
const THINK_EVERY: u32 = 4;
/// Towers wanted at most.
const MAX_TOWERS: usize = 4;
/// A blaster blasts when at least this many enemy bots are within [`CLUSTER_RADIUS`].
const CLUSTER_SIZE: usize = 3;
/// How close enemies must be to count in a cluster (a bot blast reaches 2).
const CLUSTER_RADIUS: f64 = 1.2;
/// A tower blasts when at least this many enemy bots (or any enemy tower) are this close.
const TOWER_TRIGGER: (usize, f64) = (4, 3.0);

/// See the crate docs.
#[derive(Default)]
pub struct FlagHolder {
    /// Flag tile centres bots hold (not reserved for towers).
    hold: Vec<Vec2>,
    /// Flag tiles reserved for towers.
    reserve: Vec<Tile>,
    /// The highest bot id already given a standing order.
    seen: u32,
    /// Bots sent to build a tower, and where.
    building: Vec<(u32, Tile)>,
}

impl FlagHolder {
    fn setup(&mut self, statics: &StaticView) {
        let map = &statics.map;
        let flags: Vec<Tile> = statics.flags.iter().map(|p| p.tile()).collect();
        let walkable = |t: Tile| map.terrain(t).is_walkable();
        let mut blocked = [false; MAP_SIZE * MAP_SIZE];
        self.reserve.clear();
        for &tile in &flags {
            if self.reserve.len() >= MAX_TOWERS {
                break;
            }
            if tile.neighbours().filter(|n| walkable(*n)).count() < 4 {
                continue;
            }
            blocked[tile.index()] = true;
            if connected(map, &blocked, statics.base.tile(), statics.enemy_base.tile()) {
                self.reserve.push(tile);
            } else {
                blocked[tile.index()] = false;
            }
        }
        self.hold = flags.iter().filter(|t| !self.reserve.contains(t)).map(|t| t.centre()).collect();
        if self.hold.is_empty() {
            self.hold = statics.flags.clone();
        }
    }

    fn target(&self, id: u32) -> Vec2 {
        let n = self.hold.len().max(1);
        self.hold.get(id as usize % n).copied().unwrap_or(Vec2::new(14.5, 14.5))
    }
}

/// Whether `to` is reachable from `from` over walkable, unblocked tiles (4-neighbour BFS).
fn connected(map: &Map, blocked: &[bool], from: Tile, to: Tile) -> bool {
    let mut seen = [false; MAP_SIZE * MAP_SIZE];
    let mut queue = vec![from];
    seen[from.index()] = true;
    while let Some(tile) = queue.pop() {
        if tile == to {
            return true;
        }
        for next in tile.neighbours() {
            let i = next.index();
            if !seen[i] && !blocked[i] && map.terrain(next).is_walkable() {
                seen[i] = true;
                queue.push(next);
            }
        }
    }
    false
}

impl CodeCharacterBot for FlagHolder {
    fn init(&mut self, _info: &InitInfo, statics: &StaticView) {
        self.setup(statics);
    }

    fn act(&mut self, view: &View) -> Vec<Command> {
        if self.hold.is_empty() {
            self.setup(view.statics());
        }
        let mut commands = Vec::new();
        // Newly spawned bots go to their flag at once.
        for bot in view.bots.iter().filter(|b| b.id > self.seen && b.state != BotStatus::Dead) {
            commands.push(Command::new(bot.id, Order::Move(self.target(bot.id))));
        }
        self.seen = view.bots.iter().map(|b| b.id).max().unwrap_or(self.seen).max(self.seen);
        if !view.turn.is_multiple_of(THINK_EVERY) {
            return commands;
        }
        let enemies: Vec<Vec2> =
            view.enemy_bots.iter().filter(|b| b.state != BotStatus::Dead).map(|b| b.position).collect();

        // Towers blast when enemies come close.
        for tower in view.towers.iter().filter(|t| t.state == TowerState::Idle && t.age >= rules::TOWER_MIN_BLAST_AGE) {
            let near = enemies.iter().filter(|p| p.distance(tower.position) <= TOWER_TRIGGER.1).count();
            let tower_near = view
                .enemy_towers
                .iter()
                .any(|t| t.state != TowerState::Dead && t.position.distance(tower.position) <= TOWER_TRIGGER.1);
            if near >= TOWER_TRIGGER.0 || tower_near {
                commands.push(Command::new(tower.id, Order::Blast));
            }
        }

        // Builders: forget those that became towers or died.
        self.building.retain(|(id, _)| view.bots.iter().any(|b| b.id == *id && b.state != BotStatus::Dead));
        let towers = view.towers.iter().filter(|t| t.state != TowerState::Dead).count();
        let tower_tiles = view.tower_tiles();
        let free_reserve = self
            .reserve
            .iter()
            .copied()
            .find(|t| !tower_tiles.contains(t) && !self.building.iter().any(|(_, b)| b == t));

        let mut builder_wanted = (towers + self.building.len() < MAX_TOWERS).then_some(free_reserve).flatten();
        for bot in view.bots.iter().filter(|b| b.state == BotStatus::Idle || b.state == BotStatus::Move) {
            if commands.iter().any(|c| c.id == bot.id) || self.building.iter().any(|(id, _)| *id == bot.id) {
                continue;
            }
            let tile = bot.position.tile();
            let on_flag = rules::is_flag(view.terrain(tile));
            if bot.state == BotStatus::Idle && on_flag {
                if let Some(build) = builder_wanted.take() {
                    self.building.push((bot.id, build));
                    commands.push(Command::new(bot.id, Order::TransformAt(build.centre())));
                    continue;
                }
                // Blasters blast into clusters.
                if bot.id.is_multiple_of(5) {
                    let near = enemies.iter().filter(|p| p.distance(bot.position) <= CLUSTER_RADIUS).count();
                    if near >= CLUSTER_SIZE {
                        commands.push(Command::new(bot.id, Order::Blast));
                    }
                }
                continue;
            }
            // Walking to a tile a tower now blocks, or idle off the flags: pick another flag.
            let stuck = match bot.intent {
                Intent::Move(p) => tower_tiles.contains(&p.tile()),
                Intent::None => true,
                _ => false,
            };
            if stuck {
                let mut k = bot.id.wrapping_add(view.turn);
                let mut target = self.target(k);
                for _ in 0..self.hold.len() {
                    if !tower_tiles.contains(&target.tile()) {
                        break;
                    }
                    k = k.wrapping_add(1);
                    target = self.target(k);
                }
                commands.push(Command::new(bot.id, Order::Move(target)));
            }
        }
        commands
    }
}

arena_sdk::export_code_character_bot!(FlagHolder);
