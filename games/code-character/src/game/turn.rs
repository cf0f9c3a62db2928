//! One turn, in the order of code-character.md "One turn" (steps 2-5; step 1, asking the bots,
//! is the host's): commands, removal of the dead, then the update (graph, bots, towers, damage,
//! moves, transforms, score, spawn).
//!
//! Blasts are simultaneous: the bots' and towers' state machines only *record* blasts and
//! pending moves; damage is accumulated over every blast (all seeing pre-move positions) and
//! applied afterwards, then the surviving bots move.
//!
//! **\[ours\]** additions at the transform request (step 4.6), which only keep invariants the spec
//! states elsewhere: the request also fails (the bot keeps trying) when the player already has
//! 100 towers (commands are checked against the limit, but several waiting bots could otherwise
//! exceed it together) or when the tile is a base tile (reachable only by arriving within the
//! 0.0001 tolerance of a target across a grid line).

use super::CodeCharacter;
use crate::command::{Command, Rejection, UnitInfo, validate_commands};
use crate::event::Event;
use crate::geometry::{MAP_SIZE, Vec2};
use crate::path::Scratch;
use crate::perspective::{cross_distance, enemy_own_id, engine_tile};
use crate::rules::{self, BOT_SPEED, MAX_NUM_BOTS, MAX_NUM_TOWERS};
use crate::unit::{self, BotState, Tower, TowerState};
use std::collections::BTreeMap;

/// A blast recorded during the update, applied once every blast is known.
struct Blast {
    /// The blaster's seat; its enemies are hit.
    seat: usize,
    /// Where, in the blaster's coordinates.
    at: Vec2,
    radius: f64,
    damage: u32,
}

impl CodeCharacter {
    /// Plays one turn with each seat's commands (`None`: no commands this turn).
    pub(super) fn play_turn(&mut self, answers: [Option<&[Command]>; 2], events: &mut Vec<Event>) {
        // 2. Commands set intents.
        for (seat, answer) in answers.into_iter().enumerate() {
            self.apply_commands(seat, answer, events);
        }
        // 3. The dead are removed (DEAD towers free their tile and stop scoring).
        for player in &mut self.players {
            player.bots.retain(|bot| bot.state != BotState::Dead);
            player.towers.retain(|tower| tower.state != TowerState::Dead);
        }
        // 4.1 The visibility graph for the current towers.
        let mut planner = self.take_planner();
        let mut scratch = Scratch::default();
        let mut blasts: Vec<Blast> = Vec::new();
        let mut bot_damage: [Vec<u32>; 2] = self.players.each_ref().map(|p| vec![0; p.bots.len()]);
        let mut tower_damage: [Vec<u32>; 2] = self.players.each_ref().map(|p| vec![0; p.towers.len()]);

        // 4.2 Bots' state machines, player 1's then player 2's.
        let mut pending: [Vec<Option<Vec2>>; 2] = Default::default();
        for (seat, player) in self.players.iter_mut().enumerate() {
            for (i, bot) in player.bots.iter_mut().enumerate() {
                let step =
                    unit::run_bot(bot, |from, to| planner.next_position(seat, from, to, BOT_SPEED, &mut scratch));
                pending[seat].push(step.pending);
                if let Some(at) = step.blast {
                    blasts.push(Blast {
                        seat,
                        at,
                        radius: rules::BOT_BLAST_IMPACT_RADIUS,
                        damage: rules::BOT_BLAST_DAMAGE_POINTS,
                    });
                    // The blaster deals itself its full hp.
                    bot_damage[seat][i] = bot_damage[seat][i].saturating_add(bot.hp);
                    events.push(Event::BotBlasted { seat: seat as u8, id: bot.id, at });
                }
            }
        }

        self.keep_planner(planner);

        // 4.3 Towers: age, then blast if commanded.
        for (seat, player) in self.players.iter_mut().enumerate() {
            for (i, tower) in player.towers.iter_mut().enumerate() {
                tower.age = tower.age.saturating_add(1);
                if tower.blast_ordered && tower.state == TowerState::Idle {
                    tower.blast_ordered = false;
                    tower.state = TowerState::Blast;
                    blasts.push(Blast {
                        seat,
                        at: tower.tile.centre(),
                        radius: rules::TOWER_BLAST_IMPACT_RADIUS,
                        damage: rules::TOWER_BLAST_DAMAGE_POINTS,
                    });
                    tower_damage[seat][i] = tower_damage[seat][i].saturating_add(tower.hp);
                    events.push(Event::TowerBlasted { seat: seat as u8, id: tower.id, tile: tower.tile });
                }
            }
        }

        // Every blast hits the enemies within its radius, at their pre-move positions; blasts
        // stack.
        for blast in &blasts {
            let enemy = 1 - blast.seat;
            let hit = |pos: Vec2| rules::blast_damage(cross_distance(blast.at, pos), blast.radius, blast.damage);
            for (damage, bot) in bot_damage[enemy].iter_mut().zip(&self.players[enemy].bots) {
                *damage = damage.saturating_add(hit(bot.pos));
            }
            for (damage, tower) in tower_damage[enemy].iter_mut().zip(&self.players[enemy].towers) {
                *damage = damage.saturating_add(hit(tower.tile.centre()));
            }
        }

        // 4.4 Bots take their damage; the dead drop their move, the living move; bots in
        // TRANSFORM ask to transform.
        let mut requests: [Vec<usize>; 2] = Default::default();
        for (seat, player) in self.players.iter_mut().enumerate() {
            for (i, bot) in player.bots.iter_mut().enumerate() {
                bot.hp -= bot_damage[seat][i].min(bot.hp);
                if bot.hp == 0 {
                    if bot.state != BotState::Dead {
                        bot.state = BotState::Dead;
                        bot.drop_orders();
                        events.push(Event::Died { seat: seat as u8, id: bot.id, tower: false });
                    }
                    continue;
                }
                if let Some(next) = pending[seat][i] {
                    bot.pos = next;
                }
                if bot.state == BotState::Transform {
                    requests[seat].push(i);
                }
            }
        }

        // 4.5 Towers take their damage.
        for (seat, player) in self.players.iter_mut().enumerate() {
            for (i, tower) in player.towers.iter_mut().enumerate() {
                tower.hp -= tower_damage[seat][i].min(tower.hp);
                if tower.hp == 0 && tower.state != TowerState::Dead {
                    tower.state = TowerState::Dead;
                    events.push(Event::Died { seat: seat as u8, id: tower.id, tower: true });
                }
            }
        }

        // 4.6 Transform requests, player 1's then player 2's.
        self.resolve_transforms(&requests, events);

        // 4.7 Score.
        let points = [self.points_of(0), self.points_of(1)];
        let winner = rules::turn_winner(points);
        if let Some(seat) = winner {
            self.scores[seat] = self.scores[seat].saturating_add(1);
        }
        self.points = points;
        events.push(Event::Scored { points, winner: winner.map(|s| s as u8), scores: self.scores });

        // 4.8 Spawn, player 1 first (ids in that order).
        for seat in 0..2 {
            if self.players[seat].bots.len() < MAX_NUM_BOTS {
                let id = self.spawn(seat);
                events.push(Event::Spawned { seat: seat as u8, id });
            }
        }

        // 5. The end.
        self.turn = self.turn.saturating_add(1);
        if self.turn >= self.turns {
            let winner = match self.scores[0].cmp(&self.scores[1]) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            };
            events.push(Event::GameEnded { scores: self.scores, winner });
        }
    }

    /// Step 2 for one seat: validates its commands, sets the intents of the accepted ones and
    /// records the rejected ones for its next observation; then reports NO_MULTIPLE_BOT_TASK
    /// for each of its bots that holds two targets and got no command.
    ///
    /// As in the original, where the report comes from reading the player's view of its bots:
    /// the view carries every target a bot holds, and any command (the player API's call)
    /// clears that bot's targets in the view before setting its own, so only a bot left
    /// without a command shows two. Every command naming the bot counts, a rejected one too.
    /// A seat without an answer has nothing read, so nothing reported (the original skips a
    /// player's whole command phase on a turn it is over its budget).
    fn apply_commands(&mut self, seat: usize, answer: Option<&[Command]>, events: &mut Vec<Event>) {
        self.rejected[seat].clear();
        let Some(commands) = answer else {
            return;
        };
        let enemy = 1 - seat;
        // Which unit each id names: (is a tower, index). Towers go in last: a bot that just
        // transformed (DEAD) shares its id with its tower, and the id names the tower [ours].
        let mut own: BTreeMap<u32, (bool, usize)> = BTreeMap::new();
        for (i, bot) in self.players[seat].bots.iter().enumerate() {
            own.insert(bot.id, (false, i));
        }
        for (i, tower) in self.players[seat].towers.iter().enumerate() {
            own.insert(tower.id, (true, i));
        }
        let mut enemy_ids: Vec<u32> = self.players[enemy].bots.iter().map(|b| b.id).collect();
        enemy_ids.extend(self.players[enemy].towers.iter().map(|t| t.id));
        enemy_ids.sort_unstable();
        let player = &self.players[seat];
        let info = |id: u32| {
            let &(is_tower, i) = own.get(&id)?;
            if is_tower {
                player.towers.get(i).map(|t| UnitInfo::Tower { age: t.age, dead: t.state == TowerState::Dead })
            } else {
                player.bots.get(i).map(|b| UnitInfo::Bot { position: b.pos, dead: b.state == BotState::Dead })
            }
        };
        // The map is point-symmetric: the engine grid is also the seat's own view of it.
        let results = validate_commands(
            &self.map,
            commands,
            info,
            |id| enemy_own_id(id).is_some_and(|k| enemy_ids.binary_search(&k).is_ok()),
            player.towers.len(),
        );
        let player = &mut self.players[seat];
        let mut commanded = vec![false; player.bots.len()];
        for (command, result) in commands.iter().zip(results) {
            if let Some(&(false, i)) = own.get(&command.id)
                && let Some(flag) = commanded.get_mut(i)
            {
                *flag = true;
            }
            if let Err(reason) = result {
                let rejection = Rejection { command: *command, reason };
                self.rejected[seat].push(rejection);
                events.push(Event::Rejected { seat: seat as u8, rejection });
                continue;
            }
            match own.get(&command.id) {
                Some(&(true, i)) => {
                    if let Some(tower) = player.towers.get_mut(i) {
                        tower.blast_ordered = true;
                    }
                }
                Some(&(false, i)) => {
                    if let Some(bot) = player.bots.get_mut(i) {
                        unit::give_order(bot, command.order);
                    }
                }
                None => {}
            }
        }
        for (bot, commanded) in player.bots.iter().zip(commanded) {
            if !commanded && bot.holds_two_targets() {
                events.push(Event::MultipleTasks { seat: seat as u8, id: bot.id });
            }
        }
    }

    /// Step 4.6: a request succeeds when the bot is alone on its tile (bots and towers of both
    /// players, DEAD ones included, counted before any transform), the tile is not WATER and has
    /// no tower (and, **\[ours\]**, the player has fewer than 100 towers and the tile is no base
    /// tile). The bot becomes DEAD with 0 hp **\[ours\]** (its hp went into the tower).
    fn resolve_transforms(&mut self, requests: &[Vec<usize>; 2], events: &mut Vec<Event>) {
        if requests.iter().all(Vec::is_empty) {
            return;
        }
        let mut counts = [0u32; MAP_SIZE * MAP_SIZE];
        for (seat, player) in self.players.iter().enumerate() {
            let tiles = player
                .bots
                .iter()
                .map(|b| engine_tile(seat, b.pos.tile()))
                .chain(player.towers.iter().map(|t| engine_tile(seat, t.tile)));
            for tile in tiles {
                if let Some(count) = counts.get_mut(tile.index()) {
                    *count += 1;
                }
            }
        }
        let mut blocked = self.blocked();
        for (seat, indices) in requests.iter().enumerate() {
            for &i in indices {
                let player = &mut self.players[seat];
                let Some(bot) = player.bots.get_mut(i) else {
                    continue;
                };
                let own_tile = bot.pos.tile();
                let tile = engine_tile(seat, own_tile);
                let ok = counts.get(tile.index()) == Some(&1)
                    && self.map.terrain(tile).is_walkable()
                    && !blocked.contains(tile)
                    && player.towers.len() < MAX_NUM_TOWERS
                    && !rules::is_base_tile(tile);
                if !ok {
                    continue;
                }
                let hp = rules::tower_hp(bot.hp);
                let id = bot.id;
                bot.state = BotState::Dead;
                bot.hp = 0;
                bot.drop_orders();
                player.towers.push(Tower {
                    id,
                    hp,
                    tile: own_tile,
                    age: 0,
                    state: TowerState::Idle,
                    blast_ordered: false,
                });
                // The tile is blocked at once.
                blocked.set(tile);
                events.push(Event::Transformed { seat: seat as u8, id, tile: own_tile, hp });
            }
        }
    }
}
